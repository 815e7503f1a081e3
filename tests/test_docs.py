"""The prose that can drift from the code, checked against it: the architecture page's module list and
layer count, the README's length, and that every figure of docs/benchmarks.md says where it came from."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10: tomli, where it is installed
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ipyminesweeper"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def named_modules(text: str) -> set[str]:
    """The files and folders the ``src/ipyminesweeper/`` tree of the architecture page names."""
    tree = text[text.index("src/ipyminesweeper/\n") :]
    tree = tree[: tree.index("```")]
    named: set[str] = set()
    folder = ""
    for line in tree.splitlines()[1:]:
        top = re.match(r"^  (\S+)", line)
        inner = re.match(r"^    (\S+)\s", line)
        if top:
            folder = top.group(1) if top.group(1).endswith("/") else ""
            named.add(top.group(1))
        elif inner and folder:
            named.add(folder + inner.group(1))
    return named


def package_modules() -> set[str]:
    """Every module of the package but the ``__init__.py`` files, and its data folders."""
    found = {
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.name != "__init__.py" and "__pycache__" not in path.parts
    }
    folders = {str(p.relative_to(PACKAGE)) + "/" for p in PACKAGE.iterdir() if p.is_dir()}
    return found | {f for f in folders if f != "__pycache__/"}


def test_the_architecture_page_names_every_module_and_no_other() -> None:
    named = named_modules(ARCHITECTURE.read_text(encoding="utf-8"))
    actual = package_modules()
    subfolders = {m for m in actual if m.endswith("/") and m.count("/") > 1}
    missing = sorted(m for m in actual - named - subfolders if not m.startswith(("static/",)))
    gone = sorted(m for m in named - actual if not (PACKAGE / m).exists())
    assert not missing, f"docs/architecture.md does not name these modules: {missing}"
    assert not gone, f"docs/architecture.md names modules that do not exist: {gone}"


def test_named_modules_reads_the_tree() -> None:
    text = "x\n```\nsrc/ipyminesweeper/\n  a.py   the a\n  b/     a folder\n    c.py  the c\n```\n"
    assert named_modules(text) == {"a.py", "b/", "b/c.py"}


def layer_count() -> int:
    """How many layers the import-linter contract of pyproject.toml has: the truth."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers"]
    return len(layers)


@pytest.mark.parametrize("path", ["README.md", "docs/architecture.md", "src/ipyminesweeper/__init__.py"])
def test_the_layers_are_counted_as_the_contract_counts_them(path: str) -> None:
    word = NUMBERS[layer_count()]
    text = (ROOT / path).read_text(encoding="utf-8")
    said = {m.lower() for m in re.findall(rf"\b({'|'.join(NUMBERS)}) layers\b", text, re.IGNORECASE)}
    assert said <= {word}, f"{path} says {sorted(said)} layers; pyproject's contract has {word}"


def test_the_readme_is_read_in_five_minutes() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 200, f"README.md has {lines} lines: move the detail to docs/ (issue 31: at most 200)"


def tables(text: str) -> list[tuple[str, str]]:
    """Each Markdown table of ``text`` with the prose since the heading or table before it."""
    out = []
    before: list[str] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and (i == 0 or not lines[i - 1].startswith("|")):
            out.append(("\n".join(before), line))
            before = []
        elif line.startswith("#"):
            before = []
        elif not line.startswith("|"):
            before.append(line)
    return out


PROVENANCE = re.compile(
    r"\*\*Command\*\* `[^`]+`.*\*\*commit\*\* .*`[0-9a-f]{7,40}`.*\*\*date\*\* \d{4}-\d\d-\d\d"
)


def test_every_figure_in_benchmarks_names_its_command_commit_and_date() -> None:
    found = tables((ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8"))
    assert found
    bare = [header for prose, header in found if not PROVENANCE.search(prose)]
    assert not bare, f"tables of docs/benchmarks.md without their command, commit and date: {bare}"


def test_tables_sees_the_line_above_a_table() -> None:
    line = "> **Command** `x` · **commit** `abc1234` · **date** 2026-01-01"
    text = f"# A\n\n{line}\n\n| a |\n|---|\n\n## B\n\n| b |\n"
    (first, _), (second, _) = tables(text)
    assert PROVENANCE.search(first) and not PROVENANCE.search(second)


LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


DOCS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))
PAGES = ["README.md", "CONTRIBUTING.md", *DOCS]


@pytest.mark.parametrize("page", PAGES)
def test_relative_links_lead_to_files(page: str) -> None:
    path = ROOT / page
    targets = [m.group(1) for m in LINK.finditer(path.read_text(encoding="utf-8"))]
    broken = [t for t in targets if "://" not in t and not (path.parent / t).exists()]
    assert not broken, f"{page} links to files that do not exist: {broken}"
