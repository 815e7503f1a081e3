#!/bin/sh
# Compile David Hill's Java solver (extracted from github.com/DavidNHill/Minesweeper, see README.md) and this
# harness into one class folder:  benchmarks/hill/build.sh HILL_JAVA_DIR CLASSES_DIR
set -eu
src=${1:?the folder of the extracted Minesweeper repository}
out=${2:?a folder for the classes}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
list=$(mktemp)
find "$src/MineSweeperSolver/src" "$src/MinesweeperGameState/src" "$src/Asynchronous/src" -name '*.java' > "$list"
find "$here/java" -name '*.java' >> "$list"
javac -nowarn -encoding UTF-8 -d "$out" @"$list"
rm -f "$list"
echo "compiled into $out: java -cp $out hillharness.Versus --boards ... --out ..."
