"""``python -m ipyminesweeper.classroom COMMAND ...``: the teacher's commands.

- ``course [NOTEBOOKS] [OUT]``: the student's, the teacher's and the grader's editions (:mod:`.editions`);
- ``serve``: the offline site and the hand-in, to the classroom network (:mod:`.serve`);
- ``grade SUBMISSIONS/``: points per exercise, a CSV gradebook, feedback (:mod:`.grading`);
- ``tournament FOLDER``: the class tournament of the strategy files handed in (:mod:`.class_tournament`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from . import class_tournament, editions, grading, serve

COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "course": editions.main,
    "serve": serve.main,
    "grade": grading.main,
    "tournament": lambda argv: class_tournament.main(["tournament", *argv]),
}


def main(argv: Sequence[str]) -> int:
    """Run the command ``argv[0]`` with the rest of ``argv``; 2 and the list of commands otherwise."""
    if not argv or argv[0] not in COMMANDS:
        print(__doc__, file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
