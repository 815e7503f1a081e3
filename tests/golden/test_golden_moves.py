"""The golden moves: 900 seeded games played again, and compared move by move with a checked-in record.

``tests/golden/moves.jsonl.xz`` (about 350 kB) holds 300 games for each of ``simple``, ``scored`` and
``exact``: beginner, intermediate and expert; the ``"safe"`` and the ``"opening"`` first-click rule; from
both starts (the strategy's own first click, and a given one); seeds 70000 to 70024 for each of these 12.
For every move it records the action, the position, the reason, the probability, the score and the
highlighted cells, and for every game the final status. ``scripts/dump_moves.py`` plays and records them
(the one module that does), for this test and for the file alike. It takes about 22 s on one core.

A change of play (a move, a reason, a probability, a highlight, an ending) fails this test until the file
is regenerated on purpose, and the commit body says why:

    make golden        # python scripts/dump_moves.py --golden

The games are played by whichever ``ipyminesweeper`` is imported, so the same test checks another build
(a compiled one) unchanged: install it and run ``pytest -m golden``. ``python scripts/dump_moves.py
--check`` replays the file outside pytest and lists every game that differs, not only the first.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

import ipyminesweeper

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from dump_moves import (
    GOLDEN,
    GOLDEN_SEEDS,
    REGENERATE,
    STRATEGIES,
    Game,
    Record,
    first_difference,
    game_of,
    games,
    read,
    replay,
)

pytestmark = pytest.mark.golden

REGENERATE_ON_PURPOSE = (
    f"If the change of play is meant, regenerate the file with `{REGENERATE}` "
    "(python scripts/dump_moves.py --golden) and say why in the commit body."
)


@functools.cache
def golden() -> tuple[Record, ...]:
    """The records of the golden file, read once."""
    return tuple(read(GOLDEN))


def report(strategy: str, played: int, differ: list[tuple[Game, str]]) -> str:
    """The failure message: how many games differ, the first difference, and what to do."""
    game, difference = differ[0]
    build = f"ipyminesweeper {ipyminesweeper.__version__} from {Path(ipyminesweeper.__file__).parent}"
    return (
        f"{strategy}: {len(differ)} of {played} golden games play differently from {GOLDEN.name}, "
        f"played by {build}.\n"
        f"The first: {game}: {difference}\n"
        f"`python scripts/dump_moves.py --check` lists every game that differs.\n{REGENERATE_ON_PURPOSE}"
    )


def test_the_file_holds_the_golden_games() -> None:
    """The file has every game ``dump_moves.games`` names, in order: counts changed there mean regenerate."""
    assert [game_of(r) for r in golden()] == list(games(GOLDEN_SEEDS)), REGENERATE_ON_PURPOSE


@pytest.mark.slow
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_the_moves_are_the_golden_moves(strategy: str) -> None:
    """Every game of ``strategy`` is played again and gives the same moves, reasons and ending."""
    expected = [r for r in golden() if r["strategy"] == strategy]
    assert expected, f"no {strategy} games in {GOLDEN}"
    differ = replay(expected)
    if differ:
        pytest.fail(report(strategy, len(expected), differ), pytrace=False)


def test_a_changed_move_is_named() -> None:
    """The comparison names the first move that differs, with both moves and their reasons."""
    record = golden()[0]
    moves = [list(m) for m in record["moves"]]
    moves[2] = ["reveal", [8, 8], "a reason", 0.5, None, [], []]
    said = first_difference(record, {**record, "moves": moves})
    assert said is not None
    assert said.startswith(f"move 3 of {len(moves)} is another move\n")
    assert "actual:   reveal (8,8) p=0.5: a reason" in said
    assert first_difference(record, record) is None
