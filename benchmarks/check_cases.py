"""The checks of the course's 90-minute path (02, 03, 05 and 06), each on the answers a student gives:
the notebook's stub, typical wrong answers, and a right one (the notebook's folded solution).

Self-contained (the standard library and ipyminesweeper only): ``bench_checks_site`` runs :func:`measure` here
in CPython, and sends this file's text as a cell to the offline site's Pyodide, which runs the same
function on the same answers.
"""

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce
from typing import Any

from ipyminesweeper import (
    Board,
    CellState,
    Move,
    certain_moves,
    chord,
    new_board,
    reveal,
    simple,
    toggle_flag,
)
from ipyminesweeper.exercises import (
    check_chord,
    check_property,
    check_replay,
    check_strategy,
    check_toggle_flag,
    check_update,
    replay,
)

COVERED, FLAGGED, REVEALED = CellState.COVERED, CellState.FLAGGED, CellState.REVEALED


def never_unflags(board: Any, pos: Any) -> Any:
    """02, toggle_flag: flags, and never takes a flag back."""
    return board if board.state(pos) is FLAGGED else toggle_flag(board, pos)


def ignores_flags(board: Any, pos: Any) -> Any:
    """02, chord: opens the covered cells around a number, whatever the flags say."""
    if board.state(pos) is not REVEALED or board.count(pos) == 0:
        return board
    covered = [p for p in board.neighbours(pos) if board.state(p) is COVERED]
    return reduce(lambda b, p: b if b.over else reveal(b, p), covered, board)


def goes_on_after_a_loss(board: Any, pos: Any) -> Any:
    """02, chord: ``reduce(reveal, ...)``, which reveals on a lost board (and raises)."""
    if board.state(pos) is not REVEALED or board.count(pos) == 0:
        return board
    around = board.neighbours(pos)
    if sum(1 for p in around if board.state(p) is FLAGGED) != board.count(pos):
        return board
    return reduce(reveal, [p for p in around if board.state(p) is COVERED], board)


def wrong_flag_never_loses(board: Any, pos: Any) -> Any:
    """02, chord: skips the mines, so a wrong flag never loses the game."""
    if board.state(pos) is not REVEALED or board.count(pos) == 0:
        return board
    around = board.neighbours(pos)
    if sum(1 for p in around if board.state(p) is FLAGGED) != board.count(pos):
        return board
    safe = [p for p in around if board.state(p) is COVERED and not board.is_mine(p)]
    return reduce(lambda b, p: b if b.over else reveal(b, p), safe, board)


def replay_goes_on(start: Any, moves: Any) -> Any:
    """02, replay: goes on moving after the game is over."""
    history = [start]
    for move, pos in moves:
        history.append(move(history[-1], pos))
    return tuple(history)


def careful_stub(view: Any) -> Any:
    """03's stub."""
    return Move("reveal", view.covered()[0], "a guess")


def careful(view: Any) -> Any:
    """03's folded solution."""
    known = certain_moves(view, complete=True)
    safe = sorted(pos for pos in known.safe if view[pos] == ".")
    if safe:
        return Move("reveal", safe[0], known.reasons[safe[0]], 0.0)
    mines = sorted(pos for pos in known.mines if view[pos] == ".")
    if mines:
        return Move("flag", mines[0], known.reasons[mines[0]], 1.0)
    covered = view.covered()
    if not covered:  # every covered cell flagged: unflag one, a sure wrong one first
        every = [(r, c) for r in range(view.rows) for c in range(view.cols)]
        flagged = [pos for pos in every if view[pos] == "f"]
        wrong = [pos for pos in flagged if pos in known.safe]
        unsure = [pos for pos in flagged if pos not in known.mines]
        pos = (wrong or unsure)[0]
        return Move("flag", pos, f"every covered cell is flagged: unflag {pos}")
    last_row, last_col = view.rows - 1, view.cols - 1
    corners = [(0, 0), (0, last_col), (last_row, 0), (last_row, last_col)]
    guess = next((pos for pos in corners if view[pos] == "."), covered[0])
    return Move("reveal", guess, "nothing is certain: a guess")


def careful_reveals_a_flagged_cell(view: Any) -> Any:
    """03, careful: reveals a cell it knows is safe, flagged or not."""
    known = certain_moves(view, complete=True)
    if known.safe:
        pos = sorted(known.safe)[0]
        return Move("reveal", pos, known.reasons[pos], 0.0)
    return careful(view)


def first_law_stub(board: Any, pos: Any, rules: Any) -> None:
    """05's stub: a law that tests nothing."""
    assert True


def first_law(board: Any, pos: Any, rules: Any) -> None:
    """05's folded solution: revealing a flagged cell changes nothing."""
    if board.state(pos) is FLAGGED:
        assert rules.reveal(board, pos) == board


@dataclass(frozen=True)
class Game:
    """06's model."""

    history: tuple[Board, ...]

    @property
    def board(self) -> Board:
        return self.history[-1]


@dataclass(frozen=True)
class Reveal:
    pos: tuple[int, int]


@dataclass(frozen=True)
class Flag:
    pos: tuple[int, int]


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class NewGame:
    board: Board


def update_stub(game: Any, message: Any) -> Any:
    """06's stub."""
    return game


def update(game: Any, message: Any) -> Any:
    """06's folded solution."""
    board = game.board
    if isinstance(message, (Reveal, Flag)):
        if board.over:
            return game
        after = (reveal if isinstance(message, Reveal) else toggle_flag)(board, message.pos)
        return game if after == board else Game((*game.history, after))
    if isinstance(message, Undo):
        return game if len(game.history) == 1 else Game(game.history[:-1])
    return Game((message.board,))


def update_with_an_extra_board(game: Any, message: Any) -> Any:
    """06, update: a board added to the history even when nothing changed."""
    board = game.board
    if isinstance(message, (Reveal, Flag)):
        if board.over:
            return game
        after = (reveal if isinstance(message, Reveal) else toggle_flag)(board, message.pos)
        return Game((*game.history, after))
    return update(game, message)


def elm_check(fn: Callable[..., Any]) -> Any:
    """06's check as the notebook calls it, with its classes."""
    return check_update(fn, Game, Reveal, Flag, Undo, NewGame)


CASES: dict[str, tuple[Callable[..., Any], dict[str, tuple[Callable[..., Any], bool]]]] = {
    "check_toggle_flag": (
        check_toggle_flag,
        {
            "stub": (lambda b, p: b, False),
            "never unflags": (never_unflags, False),
            "right": (toggle_flag, True),
        },
    ),
    "check_chord": (
        check_chord,
        {
            "stub": (lambda b, p: b, False),
            "ignores flags": (ignores_flags, False),
            "goes on after a loss": (goes_on_after_a_loss, False),
            "wrong flag never loses": (wrong_flag_never_loses, False),
            "right": (chord, True),
        },
    ),
    "check_replay": (
        check_replay,
        {"stub": (lambda s, m: (s,), False), "goes on": (replay_goes_on, False), "right": (replay, True)},
    ),
    "check_strategy": (
        check_strategy,
        {
            "stub": (careful_stub, False),
            "reveals a flagged cell": (careful_reveals_a_flagged_cell, False),
            "= simple": (simple, False),
            "right": (careful, True),
        },
    ),
    "check_property": (check_property, {"stub": (first_law_stub, False), "right": (first_law, True)}),
    "check_update": (
        elm_check,
        {
            "stub": (update_stub, False),
            "extra board": (update_with_an_extra_board, False),
            "right": (update, True),
        },
    ),
}
"""Each check of the path (the name a student calls), and its answers: the function, and its verdict."""


def measure(rounds: int) -> dict[str, Any]:
    """Seconds of every check of :data:`CASES` on each of its answers, in this interpreter: the first
    run (in a fresh kernel the first of a check makes its examples) and the median of ``rounds`` more;
    the verdict of each run must be the expected one."""
    import platform

    out: dict[str, Any] = {}
    for name, (check, answers) in CASES.items():
        for kind, (fn, passes) in answers.items():
            times = []
            for _ in range(rounds + 1):
                start = time.perf_counter()
                verdict = bool(check(fn))
                times.append(time.perf_counter() - start)
                if verdict is not passes:
                    raise AssertionError(f"{name} on {kind!r}: {'passes' if verdict else 'fails'}")
            again = statistics.median(times[1:] or times)
            out[f"{name}|{kind}"] = {"first": times[0], "again": again, "passes": passes}
    board = new_board(200, 200, 2000, seed=3)  # the interpreter's own speed: a cascade of the engine
    cascade = []
    for _ in range(2 * rounds + 1):
        start = time.perf_counter()
        reveal(board, (100, 100))
        cascade.append(time.perf_counter() - start)
    try:
        import pyodide  # type: ignore[import-not-found]

        runtime = f"Pyodide {pyodide.__version__}"
    except ImportError:
        runtime = platform.python_implementation()
    return {
        "runtime": f"{runtime} (Python {sys.version.split()[0]})",
        "rounds": rounds,
        "seconds": out,
        "cascade": statistics.median(cascade),
    }
