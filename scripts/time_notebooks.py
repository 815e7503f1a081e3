"""Time the teaching notebooks, section by section, for a lesson plan (docs/teaching.md).

For each notebook it runs every cell in a fresh kernel (nbclient, as nbval does) and prints, per section
(from a cell that starts with a heading): the seconds the kernel spent on its cells (measured), the
words of its text, the lines of code a student reads, the exercises (cells with a ``TODO``) in it,
and an estimate of a student's minutes:

    words / 150 + code lines / 15 + 5 per exercise + 0.5 per line of its solution + the kernel's time

(reading technical text at 150 words a minute, reading and running code at 15 lines a minute, and
writing an exercise's solution at two lines a minute after five minutes of reading the task and its
first counterexample). docs/teaching.md explains the figures.

Usage: python scripts/time_notebooks.py [notebooks/02-boards-as-data.ipynb ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Section:
    title: str
    words: int = 0
    code_lines: int = 0
    exercises: int = 0
    solution_lines: int = 0
    seconds: float = 0.0
    cells: list[float] = field(default_factory=list)

    @property
    def minutes(self) -> float:
        """The estimated minutes of a student (see the module's docstring)."""
        reading = self.words / 150 + self.code_lines / 15
        return reading + 5 * self.exercises + 0.5 * self.solution_lines + self.seconds / 60


def _hidden(cell: nbformat.NotebookNode) -> bool:
    return bool(cell.get("metadata", {}).get("jupyter", {}).get("source_hidden"))


def time_notebook(path: Path) -> list[Section]:
    """Run ``path`` in a fresh kernel and return its sections with the measured seconds per cell."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=1200, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    sections = [Section("(opening)")]
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            text = cell.source
            if cell.cell_type == "markdown":
                if text.startswith("#"):  # a heading (#, ## or ###) starts a section
                    sections.append(Section(text.splitlines()[0].lstrip("# ").strip()))
                sections[-1].words += len(text.split())
                continue
            if cell.cell_type != "code":
                continue
            started = time.perf_counter()
            client.execute_cell(cell, index)
            spent = time.perf_counter() - started
            section = sections[-1]
            section.seconds += spent
            section.cells.append(round(spent, 2))
            lines = [line for line in text.splitlines() if line.strip()]
            if _hidden(cell):
                section.solution_lines += sum(
                    not line.lstrip().startswith(("assert", "result", "#")) for line in lines
                )
            else:
                section.code_lines += len(lines)
                section.exercises += "TODO" in text
    return [s for s in sections if s.words or s.cells]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every notebooks/*.ipynb")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    report = {}
    for path in paths:
        sections = time_notebook(path)
        report[path.name] = [{**asdict(s), "minutes": round(s.minutes, 1)} for s in sections]
        total = sum(s.seconds for s in sections)
        print(
            f"{path.name}: {total:.1f} s of kernel time, about {sum(s.minutes for s in sections):.0f} minutes"
        )
        for s in sections:
            print(
                f"  {s.seconds:6.1f} s  {s.words:4d} words  {s.code_lines:3d} code lines  "
                f"{s.exercises} exercise(s)  {s.solution_lines:2d} solution lines  "
                f"~{s.minutes:4.1f} min  {s.title}"
            )
        sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
