"""A made-up class: 30 handed-in notebooks, each with the points it should get, for the grader's test and
benchmark (``tests/classroom/test_grading.py``, ``python -m benchmarks grading``).

Every submission is the student edition of a notebook (``make course``) with some exercise cells written
as a student might: the course's own solution, a real mistake, a loop, a crash, a print, a stub left as it
was. ``EXPECTED`` says the points of each exercise; a submission that cannot be graded at all says why.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["SUBMISSIONS", "Submission", "write_class"]

GOOD = "good"
"""An exercise answered with the course's own solution."""


@dataclass(frozen=True)
class Submission:
    """One made-up hand-in: the notebook, its answers (``GOOD``, or a cell's source), the points each
    exercise should get, and a phrase the grade must say (a note, or the problem)."""

    file: str
    notebook: str
    answers: dict[str, str]
    points: Mapping[str, float]
    says: str = ""
    raw: str | None = None  # the file's whole text, for files that are not notebooks
    extra: dict[str, Any] = field(default_factory=dict)


NEVER_UNFLAGS = """def my_toggle_flag(board, pos):
    if board.state(pos) is CellState.FLAGGED:
        return board   # forgets to take the flag away
    return toggle_flag(board, pos)
"""

CHORD_WITHOUT_THE_ZERO_RULE = """def my_chord(board, pos):
    if board.state(pos) is not CellState.REVEALED:
        return board
    around = board.neighbours(pos)
    flags = sum(1 for p in around if board.state(p) is CellState.FLAGGED)
    if flags != board.count(pos):   # forgets that a 0 chords nothing
        return board
    covered = [p for p in around if board.state(p) is CellState.COVERED]
    return reduce(lambda b, p: b if b.over else reveal(b, p), covered, board)
"""

REPLAY_THAT_GOES_ON = """def my_replay(start, moves):
    history = [start]
    for function, pos in moves:
        history.append(function(history[-1], pos))   # raises once the game is over
    return tuple(history)
"""

CHORD_THAT_LOOPS = """def my_chord(board, pos):
    while board.state(pos) is not None:
        pass
"""

STRATEGY_THAT_TOGGLES = """def careful(view):
    first = next(divmod(i, view.cols) for i, ch in enumerate(view.cells) if ch in ".f")
    return Move("flag", first, "a flag")
"""

STRATEGY_WITH_ITS_RULES_SWAPPED = """def careful(view):
    known = certain_moves(view, complete=True)
    safe = sorted(pos for pos in known.safe if view[pos] == ".")
    if safe:
        return Move("flag", safe[0], "certainly safe", 1.0)
    mines = sorted(pos for pos in known.mines if view[pos] == ".")
    if mines:
        return Move("reveal", mines[0], "certainly a mine", 0.0)
    return exact(view)
"""

STRATEGY_THAT_CLAIMS_SAFETY = """def careful(view):
    move = exact(view)
    return Move(move.action, move.pos, move.reason, 0.0 if move.action == "reveal" else move.probability)
"""

BRUTE_FORCE_IGNORING_FLAGS = """from ipyminesweeper.exercises import check_probabilities


def brute_force(view):
    rules = constraints(view)
    unknown = [pos for pos in positions(view) if view[pos] == "."]   # forgets the flagged cells
    layouts = [set(m) for m in combinations(unknown, view.mines) if consistent(set(m), rules)]
    return {pos: sum(pos in m for m in layouts) / len(layouts) for pos in unknown} if layouts else {}
"""

LAW_THAT_TESTS_NOTHING = """def my_first_law(board, pos, rules):
    assert rules.reveal(board, pos) == rules.reveal(board, pos)
"""

BREAK_THAT_FLAGGING_TWICE_MISSES = """def broken_toggle_flag(board, pos):
    i = board.index(pos)
    if board.states[i] != CellState.REVEALED.value:
        return toggle_flag(board, pos)
    flagged = bytes([CellState.FLAGGED.value])
    return replace(board, states=board.states[:i] + flagged + board.states[i + 1 :])


my_law = flagging_twice_changes_nothing
broken = Rules(toggle_flag=broken_toggle_flag)
"""

UPDATE_UNDOING_TWO = """def update(game, message):
    board = game.board
    match message:
        case Reveal(pos) | Flag(pos):
            if board.over:
                return game
            after = (reveal if isinstance(message, Reveal) else toggle_flag)(board, pos)
            return game if after == board else Game((*game.history, after))
        case Undo():
            return Game(game.history[:-2] or game.history[:1])   # drops two boards
        case NewGame(new):
            return Game((new,))
"""

VIEW_WITH_1_BOARDS = """def view(game):
    board = game.board
    return f"{board.view.to_text()}\\n{board.status}, {len(game.history)} boards"
"""


def _with(answer: str, tail: str) -> str:
    return f"{answer}\n{tail}"


B, A, P, L, E = (
    "02-boards-as-data",
    "03-autoplayer",
    "04-probabilities",
    "05-properties-and-laws",
    "06-the-elm-loop",
)
ALL_GOOD_02 = {"02-toggle_flag": GOOD, "02-chord": GOOD, "02-replay": GOOD}
FULL_02 = {"02-toggle_flag": 3, "02-chord": 4, "02-replay": 4}

SUBMISSIONS: tuple[Submission, ...] = (
    Submission("ada--02-boards-as-data.ipynb", B, ALL_GOOD_02, FULL_02),
    Submission(
        "bob--02-boards-as-data.ipynb", B, {}, {"02-toggle_flag": 0, "02-chord": 0, "02-replay": 0}, "stub"
    ),
    Submission(
        "cy--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-toggle_flag": NEVER_UNFLAGS},
        {**FULL_02, "02-toggle_flag": 2},
    ),
    Submission(
        "di--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-chord": CHORD_WITHOUT_THE_ZERO_RULE},
        {**FULL_02, "02-chord": 3},
    ),
    Submission(
        "ed--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-replay": REPLAY_THAT_GOES_ON},
        {**FULL_02, "02-replay": 3},
    ),
    Submission(
        "fay--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-chord": CHORD_THAT_LOOPS},
        {**FULL_02, "02-chord": 0},
        "gave no answer within",
    ),
    Submission(
        "gus--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-chord": _with("GOOD", "while True:\n    pass\n")},
        FULL_02,
        "did not finish within",
    ),
    Submission(
        "hal--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-chord": "1 / 0\n\n\ndef my_chord(board, pos):\n    return board\n"},
        {**FULL_02, "02-chord": 0},
        "ZeroDivisionError",
    ),
    Submission(
        "ivy--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-chord": "GOOD_PRINTING"},
        FULL_02,
    ),
    Submission(
        "jo--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-toggle_flag": "def my_toggle_flag(board, pos)\n    return board\n"},
        {**FULL_02, "02-toggle_flag": 0},
        "syntax error",
    ),
    Submission(
        "kit--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-replay": "import os\nos._exit(3)\n"},
        {"02-toggle_flag": 3, "02-chord": 4, "02-replay": 0},
        "no cell of this exercise",  # nothing after the last answer runs: the exit never happens
    ),
    Submission(
        "lu--02-boards-as-data.ipynb",
        B,
        {**ALL_GOOD_02, "02-toggle_flag": _with("GOOD", "hog = bytearray(64 * 1024**3)\n")},
        FULL_02,
        "MemoryError",
    ),
    Submission(
        "max--02-boards-as-data.ipynb",
        B,
        {
            **ALL_GOOD_02,
            "02-chord": _with(
                CHORD_WITHOUT_THE_ZERO_RULE,
                "import ipyminesweeper.exercises.search as search\n"
                "search.run_check = lambda *args, **kwargs: None   # patch the checks away\n",
            ),
        },
        {**FULL_02, "02-chord": 3},
    ),
    Submission(
        "ned--02-boards-as-data.ipynb",
        B,
        {
            **ALL_GOOD_02,
            "02-replay": _with("GOOD", "total = sum(range(10**14))   # one call to C: no alarm stops it\n"),
        },
        {"02-toggle_flag": 3, "02-chord": 4, "02-replay": 0},
        "ran past its",
    ),
    Submission("oona--03-autoplayer.ipynb", A, {"03-careful": GOOD}, {"03-careful": 7}),
    Submission("pat--03-autoplayer.ipynb", A, {"03-careful": STRATEGY_THAT_TOGGLES}, {"03-careful": 5}),
    Submission(
        "quin--03-autoplayer.ipynb", A, {"03-careful": STRATEGY_WITH_ITS_RULES_SWAPPED}, {"03-careful": 4}
    ),
    Submission("rae--03-autoplayer.ipynb", A, {"03-careful": STRATEGY_THAT_CLAIMS_SAFETY}, {"03-careful": 6}),
    Submission("sol--03-autoplayer.ipynb", A, {}, {"03-careful": 0}, "stub"),
    Submission("tam--04-probabilities.ipynb", P, {"04-brute_force": GOOD}, {"04-brute_force": 3}),
    Submission(
        "uma--04-probabilities.ipynb",
        P,
        {"04-brute_force": BRUTE_FORCE_IGNORING_FLAGS},
        {"04-brute_force": 2},
    ),
    Submission("vic--04-probabilities.ipynb", P, {}, {"04-brute_force": 0}, "stub"),
    Submission(
        "wes--05-properties-and-laws.ipynb",
        L,
        {"05-first_law": GOOD, "05-second_law": GOOD, "05-broken_rule": GOOD},
        {"05-first_law": 2, "05-second_law": 2, "05-broken_rule": 3},
    ),
    Submission(
        "xia--05-properties-and-laws.ipynb",
        L,
        {"05-first_law": LAW_THAT_TESTS_NOTHING, "05-second_law": GOOD, "05-broken_rule": GOOD},
        {"05-first_law": 1, "05-second_law": 2, "05-broken_rule": 3},
    ),
    Submission(
        "yan--05-properties-and-laws.ipynb",
        L,
        {"05-first_law": GOOD, "05-second_law": GOOD, "05-broken_rule": BREAK_THAT_FLAGGING_TWICE_MISSES},
        {"05-first_law": 2, "05-second_law": 2, "05-broken_rule": 2},
    ),
    Submission(
        "zed--06-the-elm-loop.ipynb", E, {"06-update": GOOD, "06-view": GOOD}, {"06-update": 6, "06-view": 3}
    ),
    Submission(
        "abe--06-the-elm-loop.ipynb",
        E,
        {"06-update": UPDATE_UNDOING_TWO, "06-view": GOOD},
        {"06-update": 5, "06-view": 3},
    ),
    Submission(
        "bea--06-the-elm-loop.ipynb",
        E,
        {"06-update": GOOD, "06-view": VIEW_WITH_1_BOARDS},
        {"06-update": 6, "06-view": 2},
    ),
    Submission("cal--02-boards-as-data.ipynb", B, {}, {}, "is not a notebook", raw='{"cells": oops'),
    Submission("dot--01-play.ipynb", "01-play", {}, {}, "none of the course's notebooks"),
)
"""The class: 30 submissions."""


def _solutions(source: Path) -> dict[str, str]:
    """``{exercise: the course's solution}``: the stub's imports, then the solution's code."""
    notebook = json.loads(source.read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    imports: dict[str, str] = {}
    for cell in notebook["cells"]:
        mark = cell.get("metadata", {}).get("ipyminesweeper", {})
        text = "".join(cell["source"])
        if "exercise" in mark:
            imports[mark["exercise"]] = "".join(
                line + "\n" for line in text.splitlines() if line.startswith(("from ", "import "))
            )
        elif "solution" in mark and cell["cell_type"] == "code":
            found[mark["solution"]] = imports.get(mark["solution"], "") + text
    return found


def _answer(text: str, good: str) -> str:
    if text == GOOD:
        return good
    if text == "GOOD_PRINTING":  # the solution, with a debug print in the function
        head, _, rest = good.partition("\n")
        return f"{head}\n    print('my_chord got', pos)\n{rest}"
    return text.replace("GOOD\n", good + "\n", 1)


def write_class(notebooks: Path, student: Path, out: Path) -> list[Submission]:
    """Write every submission into ``out``, built from the course's ``notebooks`` (for the solutions)
    and their ``student`` edition; returns them."""
    out.mkdir(parents=True, exist_ok=True)
    for made in SUBMISSIONS:
        if made.raw is not None:
            (out / made.file).write_text(made.raw, encoding="utf-8")
            continue
        notebook = json.loads((student / f"{made.notebook}.ipynb").read_text(encoding="utf-8"))
        good = _solutions(notebooks / f"{made.notebook}.ipynb")
        for cell in notebook["cells"]:
            exercise = cell.get("metadata", {}).get("ipyminesweeper", {}).get("exercise")
            if exercise in made.answers:
                cell["source"] = _answer(made.answers[exercise], good[exercise]).splitlines(keepends=True)
        (out / made.file).write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    return list(SUBMISSIONS)
