"""Notebook 06's exercises: the Elm loop by hand, a pure ``update`` and a pure ``view`` for a mini game
session.

The student writes the model (a ``Game`` with a ``history`` of boards, the board being the last one),
four message types (``Reveal(pos)``, ``Flag(pos)``, ``Undo()``, ``NewGame(board)``) and
``update(game, message) -> game``. ``check_update`` folds generated message sequences through the
student's ``update`` and through :func:`reference_update`, and compares the histories after every message;
it also checks that ``update`` never changes the game it was given (the model is a value).
``check_view`` compares the student's ``view(game)`` with :func:`reference_view` on the games those
sequences reach.

The rules: a reveal or a flag adds the new board to the history, unless it changes nothing (a flagged
cell, a revealed one) or the game is over (a move after the end is ignored); undo drops the last board
but never the first; a new game starts a history of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Any

from ..engine import Board, Position, reveal, toggle_flag
from .draws import Source
from .foreign import type_name
from .generate import draw_layout
from .limits import Outcome, call
from .moves import compare_boards
from .needs import recorded
from .report import Check, Counterexample, Panel, board_panel, count, note_panel, where
from .search import SEED, Verdict, function_name, require_function, run_check

__all__ = [
    "UPDATE",
    "VIEW",
    "Game",
    "Step",
    "check_update",
    "check_view",
    "reference_update",
    "reference_view",
]

UPDATE = (
    "Reveal and Flag add the board after the move",
    "a move that changes nothing adds no board",
    "a move after the end of the game is ignored",
    "Undo drops the last board, never the first",
    "NewGame starts a history of its own",
    "update never changes the game it was given",
)
"""The properties of ``check_update``: one per kind of message, and the model as a value."""

VIEW = (
    "the player's board, as text",
    "the status line: the status and the number of boards",
    "the same game gets the same text, and is left as it was",
)
"""The properties of ``check_view``."""


@dataclass(frozen=True)
class Game:
    """The reference model: the boards of the game so far, oldest first."""

    history: tuple[Board, ...]

    @property
    def board(self) -> Board:
        return self.history[-1]


Step = tuple[str, Any]
"""A message in the abstract: ``("reveal", pos)``, ``("flag", pos)``, ``("undo", None)`` or
``("new", board)``."""


def reference_update(game: Game, step: Step) -> Game:
    """The reference ``update``, on abstract messages (see :data:`Step`)."""
    kind, arg = step
    board = game.board
    if kind in ("reveal", "flag"):
        if board.over:
            return game
        after = (reveal if kind == "reveal" else toggle_flag)(board, arg)
        return game if after == board else Game((*game.history, after))
    if kind == "undo":
        return game if len(game.history) == 1 else Game(game.history[:-1])
    return Game((arg,))


def _kind(game: Game, step: Step) -> str:
    """The property of :data:`UPDATE` that ``step`` puts to the test on ``game``."""
    kind, arg = step
    if kind in ("reveal", "flag"):
        board = game.board
        if board.over:
            return UPDATE[2]
        after = (reveal if kind == "reveal" else toggle_flag)(board, arg)
        return UPDATE[0] if after != board else UPDATE[1]
    return UPDATE[3] if kind == "undo" else UPDATE[4]


def _sessions(source: Source) -> tuple[Board, tuple[Step, ...]]:
    """A start board and up to 10 messages (new games are boards of the same size)."""
    start = source.part(draw_layout, 5, 5)
    rows, cols = start.rows, start.cols
    steps: list[Step] = []
    for _ in range(source.integer(0, 10)):
        kind = source.choice(("reveal", "flag", "undo", "new"))
        if kind in ("reveal", "flag"):
            steps.append((kind, (source.integer(0, rows - 1), source.integer(0, cols - 1))))
        elif kind == "undo":
            steps.append(("undo", None))
        else:
            mines = source.cells(rows, cols, rows * cols // 4)
            grid = ["".join("*" if (r, c) in mines else "." for c in range(cols)) for r in range(rows)]
            if len(mines) < rows * cols:  # a board keeps a safe cell
                steps.append(("new", Board.from_text("\n".join(grid))))
    return start, tuple(steps)


def _describe(step: Step) -> str:
    kind, arg = step
    if kind in ("reveal", "flag"):
        return f"{kind.capitalize()}({where(arg)})"
    return "Undo()" if kind == "undo" else f"NewGame(<a {arg.rows}x{arg.cols} board>)"


@recorded
def check_update(
    update: Callable[[Any, Any], Any],
    game: Callable[[tuple[Board, ...]], Any],
    reveal_message: Callable[[Position], Any],
    flag_message: Callable[[Position], Any],
    undo_message: Callable[[], Any],
    new_game_message: Callable[[Board], Any],
    tries: int = 200,
    *,
    seed: int = SEED,
) -> Check:
    """Fold message sequences through ``update`` and through :func:`reference_update`, and compare
    ``game.history`` after every message. The other arguments are your model's class, made as
    ``game(history)``, and your four message types, in this order: ``check_update(update, Game, Reveal,
    Flag, Undo, NewGame)``."""
    require_function(update, "check_update", "(game, message) -> game")
    for made in (game, reveal_message, flag_message, undo_message, new_game_message):
        require_function(made, "check_update", "class (the model and the four message types)")
    make = {
        "reveal": reveal_message,
        "flag": flag_message,
        "undo": lambda _: undo_message(),
        "new": new_game_message,
    }

    def judge(example: tuple[Board, tuple[Step, ...]]) -> Verdict:
        start, steps = example
        reference = Game((start,))
        kinds = []
        for step in steps:
            kinds.append(_kind(reference, step))
            reference = reference_update(reference, step)
        labels = ("a history longer than one board",) if len(reference.history) > 1 else ()
        tests = tuple(p for p in UPDATE if p in kinds or p == UPDATE[5])
        found, i, mutated = _first_difference(update, game, make, start, steps)
        breaks = UPDATE[5] if mutated else kinds[i] if found is not None and steps else UPDATE[0]
        return Verdict(found, labels, tests, breaks)

    return run_check("update", update, _sessions, judge, tries, properties=UPDATE, seed=seed)


def _first_difference(
    update: Callable[[Any, Any], Any],
    game: Callable[[tuple[Board, ...]], Any],
    make: dict[str, Callable[[Any], Any]],
    start: Board,
    steps: tuple[Step, ...],
) -> tuple[Counterexample | None, int, bool]:
    """The first message after which ``update``'s history differs from the reference, its index, and
    whether it changed the game it was given."""
    mine = call(game, (start,))
    if mine.raised:
        return _failed(update, start, steps, 0, mine, "Game((start,))", None), 0, False
    model = mine.value
    reference = Game((start,))
    for i, step in enumerate(steps):
        message = call(make[step[0]], step[1])
        if message.raised:
            return _failed(update, start, steps, i, message, "making the message", None), i, False
        before = _history(model)
        got = call(update, model, message.value)
        reference = reference_update(reference, step)
        if got.raised:
            return _failed(update, start, steps, i, got, "update", reference), i, False
        if _history(got.after[0]) != before:  # the game as the call left it
            changed = "update changed the game it was given"
            return _failed(update, start, steps, i, got, changed, reference), i, True
        history = _history(got.value)
        if history != reference.history:
            return _differs(update, start, steps, i, history, reference), i, False
        model = got.value
    return None, 0, False


def _history(model: object) -> tuple[Any, ...] | str:
    """``model.history`` as a tuple, or a sentence saying why there is none."""
    history = getattr(model, "history", None)
    if history is None:
        return f"{type_name(model)} {model!r:.60} has no history"
    try:
        return tuple(history)
    except TypeError:
        return f"history is {type_name(history)}, not a sequence of boards"


def _call_text(update: Callable[..., Any], steps: Sequence[Step], i: int) -> str:
    sent = ", ".join(_describe(s) for s in steps[: i + 1])
    return f"{function_name(update)} on the messages [{sent}]"


def _failed(
    update: Callable[..., Any],
    start: Board,
    steps: Sequence[Step],
    i: int,
    got: Outcome,
    what: str,
    expected: Game | None,
) -> Counterexample:
    summary = f"message {i + 1}, {_describe(steps[i]) if steps else 'none'}: {what}"
    if got.raised:
        summary = f"{summary} {got.failure}"
    panels: tuple[Panel, ...] = (board_panel("start", start), note_panel("yours", summary))
    if expected is not None:
        panels += (board_panel(f"expected: board {len(expected.history) - 1}", expected.board),)
    return Counterexample(
        _call_text(update, steps, i), summary, panels, (start, steps), got.value, expected, got.trace
    )


def _differs(
    update: Callable[..., Any],
    start: Board,
    steps: Sequence[Step],
    i: int,
    history: tuple[Any, ...] | str,
    expected: Game,
) -> Counterexample:
    text = _call_text(update, steps, i)
    if isinstance(history, str):
        summary = f"after message {i + 1} the game has no history of boards: {history}"
        return Counterexample(
            text, summary, (board_panel("start", start),), (start, steps), history, expected
        )
    if not all(isinstance(b, Board) for b in history):
        summary = f"after message {i + 1} the game's history is not a sequence of boards: {history!r:.80}"
        return Counterexample(
            text, summary, (board_panel("start", start),), (start, steps), history, expected
        )
    want = expected.history
    summary = (
        f"after message {i + 1}, {_describe(steps[i])}, the history has {count(len(history), 'board')}; "
        f"expected {len(want)}"
    )
    mine, theirs = len(history) - 1, len(want) - 1  # the boards shown: the last, or the first that differs
    if len(history) == len(want):
        mine = theirs = next(k for k, (a, b) in enumerate(zip(history, want, strict=True)) if a != b)
        which = "the last board" if mine == len(want) - 1 else f"board {mine}"
        summary = f"after message {i + 1}, {_describe(steps[i])}, {which} differs"
    panels: tuple[Panel, ...] = (board_panel("start", start),)
    if history:
        marked, how = compare_boards(history[mine], want[theirs])
        if history[mine] == want[theirs]:
            extra = len(history) - len(want)
            many = "many" if extra > 0 else "few"
            how = f"its last board is the expected last board, with {count(abs(extra), 'board')} too {many}"
        summary += f" ({how})"
        panels += (
            board_panel(f"yours: board {mine}", history[mine], marked),
            board_panel(f"expected: board {theirs}", want[theirs], marked),
        )
    return Counterexample(text, summary, panels, (start, steps), history, expected)


def reference_view(game: Game) -> str:
    """The reference ``view``: what the player sees (``board.view.to_text()``), then a status line such
    as ``playing, 3 boards`` (or ``ready, 1 board``)."""
    board = game.board
    return f"{board.view.to_text()}\n{board.status}, {count(len(game.history), 'board')}"


@recorded
def check_view(
    view: Callable[[Any], Any],
    game: Callable[[tuple[Board, ...]], Any],
    tries: int = 150,
    *,
    seed: int = SEED,
) -> Check:
    """Compare ``view(game(history))`` with :func:`reference_view` on the games that generated message
    sequences reach, and check that ``view`` gives the same text when called again and leaves the game
    as it was. ``game`` is your model's class: ``check_view(view, Game)``."""
    require_function(view, "check_view", "(game) -> str")
    require_function(game, "check_view", "class (the model)")

    def judge(example: tuple[Board, tuple[Step, ...]]) -> Verdict:
        start, steps = example
        reference = reduce(reference_update, steps, Game((start,)))
        labels = (f"a game {reference.board.status}",)
        made = call(game, reference.history)
        if made.raised:
            failed = _view_failed(view, reference, reference, made, "making the game")
            return Verdict(failed, labels, VIEW)
        model = made.value
        before = _history(model)
        got = call(view, model)
        if got.raised:
            return Verdict(_view_failed(view, reference, model, got, "view"), labels, VIEW)
        if _history(got.after[0]) != before:  # the game as the call left it
            changed = _view_failed(view, reference, model, got, "view changed the game it was given")
            return Verdict(changed, labels, VIEW, VIEW[2])
        again = call(view, model)
        if again.raised or again.value != got.value:
            what = "view, called again," if again.raised else "view gave another answer when called again"
            other = _view_failed(view, reference, model, again, what)
            return Verdict(other, labels, VIEW, VIEW[2])
        expected = reference_view(reference)
        if got.value != expected:
            board_lines = expected.splitlines()[:-1]
            same_board = isinstance(got.value, str) and got.value.splitlines()[:-1] == board_lines
            differs = _view_differs(view, reference, model, got.value, expected)
            return Verdict(differs, labels, VIEW, VIEW[1] if same_board else VIEW[0])
        return Verdict(None, labels, VIEW)

    return run_check(
        "view",
        view,
        _sessions,
        judge,
        tries,
        properties=VIEW,
        key=lambda example: reduce(reference_update, example[1], Game((example[0],))).history,
        seed=seed,
    )


def _view_failed(
    view: Callable[..., Any], game: Game, model: object, got: Outcome, what: str
) -> Counterexample:
    summary = f"{what} {got.failure}" if got.raised else what
    panels = (
        board_panel(f"the game's board (board {len(game.history) - 1})", game.board),
        note_panel("yours", summary),
    )
    return Counterexample(
        f"{function_name(view)}(game)",
        summary,
        panels,
        (model,),
        got.value,
        reference_view(game),
        got.trace,
    )


def _view_differs(
    view: Callable[..., Any], game: Game, model: object, got: object, expected: str
) -> Counterexample:
    if not isinstance(got, str):
        summary = f"view returned {type_name(got)} {got!r:.60}, not a str"
        shown = repr(got)
    else:
        mine, theirs = got.splitlines(), expected.splitlines()
        line = next(
            (i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
            min(len(mine), len(theirs)),
        )
        if line < min(len(mine), len(theirs)):
            summary = f"line {line + 1} differs: yours {mine[line]!r}, expected {theirs[line]!r}"
        elif len(mine) != len(theirs):
            summary = f"yours has {count(len(mine), 'line')}, expected {len(theirs)}"
        else:
            summary = f"the same lines, but not the same text: yours {got!r:.80}, expected {expected!r:.80}"
        shown = got
    panels = (
        board_panel(f"the game's board (board {len(game.history) - 1})", game.board),
        note_panel("yours", shown),
        note_panel("expected", expected),
    )
    return Counterexample(f"{function_name(view)}(game)", summary, panels, (model,), got, expected)
