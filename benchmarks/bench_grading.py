"""The grader's speed: the made-up class of 30 (benchmarks/class_submissions.py), graded as a teacher
does, ``python -m benchmarks grading``. Reports submissions graded per minute, with the limits used.

The class includes a loop that only the notebook's time limit stops, so one submission takes that whole
limit: the rate is a class's, not a well-behaved notebook's (both are printed).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.class_submissions import write_class
from ipyminesweeper.classroom.editions import build_course
from ipyminesweeper.classroom.grading import GradeLimits, grade_folder

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LIMITS = GradeLimits(cell_seconds=20, seconds=90)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        course, folder = Path(tmp) / "course", Path(tmp) / "class"
        build_course(NOTEBOOKS, course)
        write_class(NOTEBOOKS, course / "student", folder)
        jobs = os.cpu_count() or 1
        start = time.perf_counter()
        book = grade_folder(folder, course / "autograder", LIMITS, jobs)
        took = time.perf_counter() - start
    each = sorted(row.seconds for row in book.rows if row.seconds)
    print(f"[grading] {len(book.rows)} submissions, {jobs} at a time, limits {LIMITS}")
    print(f"  {took:.0f} s in all: {len(book.rows) / took * 60:.1f} submissions graded a minute")
    median, slowest = statistics.median(each), each[-1]
    print(f"  one submission: median {median:.1f} s, slowest {slowest:.1f} s (its time limit)")
    print(f"  load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
