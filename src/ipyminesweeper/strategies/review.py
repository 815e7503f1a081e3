"""Game review: every move of a game rated by the exact solver, from what the player saw at that moment.

:func:`review` takes a game (what :func:`~ipyminesweeper.play` returns, a widget's ``history`` or a
loaded replay) and gives a :class:`Review`: one :class:`ReviewRow` per move and a summary.

Each move is judged from the player's view before it, never from the mines: the view is all the solver
reads (:func:`~ipyminesweeper.solver.analyse` for exact mine probabilities, the ``exact`` strategy for
the best move). The rules of the game are known too: under a first-click policy other than ``"any"``
the first reveal is safe. A move's **kind** is one of

- ``"certain"``: it takes no risk the view does not rule out: a reveal or chord of cells proven safe, a
  flag on a proven mine, an unflag, or a first click the rules make safe;
- ``"forced guess"``: a reveal or chord that may hit a mine when no covered (or flagged) cell was
  certainly safe;
- ``"unforced guess"``: the same while some cell was certainly safe;
- ``"wrong flag"``: a flag on a cell the view does not prove a mine (even if it is one);
- ``"wasted"``: a click that changes nothing (on a revealed cell, a flag, a chord that cannot open).

A move is **as good as the solver's** when it is certain, or when it is a forced guess at most as
likely to hit a mine as the solver's own move on that view (within :data:`TOLERANCE`): the solver's
move always is, and so is any guess on the lowest probability (the solver may take a slightly riskier
cell that gives more information). Unforced guesses, wrong flags and wasted clicks are not. The
**accuracy** is the share of moves as good as the solver's; **luck** is the product of the survival
chances (1 - mine probability) of the guesses taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from ..engine import (
    Click,
    GameMetrics,
    Minefield,
    Position,
    View,
    format_position,
    game_metrics,
)
from ..engine.geometry import neighbour_table
from ..engine.replay import as_replay
from ..solver import Analysis, Deductions, analyse, deduce
from ..solver.sentences import percent
from .exact import exact
from .move import Move

__all__ = ["KINDS", "TOLERANCE", "Kind", "Review", "ReviewRow", "review"]

Kind = Literal["certain", "forced guess", "unforced guess", "wrong flag", "wasted"]
KINDS: tuple[str, ...] = ("certain", "forced guess", "unforced guess", "wrong flag", "wasted")

TOLERANCE = 1e-9
"""A guess this much likelier to hit a mine than the solver's still counts as good (rounding)."""

_ACTION = {"left": "reveal", "right": "flag", "chord": "chord"}


@dataclass(frozen=True)
class ReviewRow:
    """One move of a reviewed game.

    ``number`` counts from 1; ``view`` is what the player saw before it; ``action`` ("reveal", "flag" or
    "chord") and ``pos`` the move; ``kind`` one of :data:`KINDS`; ``probability`` the chance the move
    hits a mine (a chord: that one of its cells is a mine; a flag: that the cell is a mine; None for a
    wasted click); ``lowest`` the lowest mine probability of a covered cell; ``best`` the solver's move
    (the ``exact`` strategy's, with its ``reason``) and ``best_probability`` its chance of a mine;
    ``good`` whether the move was as good as the solver's; ``seconds`` the time it took, where known;
    ``verdict`` a sentence that says it all.
    """

    number: int
    view: View
    action: str
    pos: Position
    kind: Kind
    probability: float | None
    lowest: float | None
    best: Move
    best_probability: float | None
    good: bool
    seconds: float | None
    verdict: str


@dataclass(frozen=True)
class Review:
    """A reviewed game: ``rows`` (one per move) and the summary.

    ``accuracy`` (0 to 1) is the share of moves as good as the solver's (1.0 for a game without moves);
    ``unforced_guesses`` and ``wrong_flags`` are those rows; ``luck`` the product of the survival
    chances of the guesses taken; ``lost_move`` the row of the move that lost (None if the game was not
    lost) and ``lost_forced`` whether it was a forced guess; ``metrics`` the game's 3BV, clicks and the
    rest (:class:`~ipyminesweeper.engine.GameMetrics`; None before the mines are placed).
    """

    rows: tuple[ReviewRow, ...]
    status: str
    metrics: GameMetrics | None

    @property
    def accuracy(self) -> float:
        """The share of moves as good as the solver's."""
        return sum(r.good for r in self.rows) / len(self.rows) if self.rows else 1.0

    @property
    def unforced_guesses(self) -> tuple[ReviewRow, ...]:
        """The guesses taken while a cell was certainly safe."""
        return tuple(r for r in self.rows if r.kind == "unforced guess")

    @property
    def wrong_flags(self) -> tuple[ReviewRow, ...]:
        """The flags the view did not prove."""
        return tuple(r for r in self.rows if r.kind == "wrong flag")

    @property
    def guesses(self) -> tuple[ReviewRow, ...]:
        """Every guess, forced or not."""
        return tuple(r for r in self.rows if r.kind in ("forced guess", "unforced guess"))

    @property
    def luck(self) -> float:
        """The chance of surviving every guess taken, before they were taken."""
        chance = 1.0
        for row in self.guesses:
            chance *= 1.0 - (row.probability or 0.0)
        return chance

    @property
    def lost_move(self) -> ReviewRow | None:
        """The move that lost the game, if it was lost."""
        return self.rows[-1] if self.status == "lost" and self.rows else None

    @property
    def lost_forced(self) -> bool | None:
        """Whether the losing move was a forced guess (None if the game was not lost)."""
        lost = self.lost_move
        return None if lost is None else lost.kind == "forced guess"

    def __str__(self) -> str:
        lines = [
            f"{len(self.rows)} moves, {self.status}: accuracy {percent(self.accuracy)}, "
            f"luck {percent(self.luck)}, {len(self.guesses)} guesses "
            f"({len(self.unforced_guesses)} unforced), {len(self.wrong_flags)} wrong flags"
        ]
        lines += [f"  move {r.number}: {r.verdict}" for r in self.rows if not r.good]
        return "\n".join(lines)


class _Judge:
    """What the solver knows of one view, worked out as it is needed: the best move (``exact``) always,
    the exact analysis only when a move's rating needs it."""

    def __init__(self, view: View, first_safe: bool) -> None:
        self.view = view
        self.ready = not any(ch.isdigit() for ch in view.cells)  # nothing revealed: the first reveal
        self.first_safe = first_safe and self.ready  # the rules make the first reveal safe
        self.best = exact(view)
        self.sure = self.best.probability == 0.0  # exact plays a certain move exactly when one exists

    @cached_property
    def quick(self) -> Deductions:
        """The fast rules' certain cells: half the cost of the analysis, enough for most moves."""
        return deduce(self.view)

    @cached_property
    def analysis(self) -> Analysis:
        return analyse(self.view, explain=False)  # the rating needs no reasons

    def reveal_risk(self, pos: Position) -> float:
        """The chance that revealing ``pos`` hits a mine."""
        if self.first_safe:
            return 0.0
        if self.sure and self.best.pos == pos and self.best.action == "reveal":
            return 0.0
        return self.analysis.probabilities[pos]

    def chord_risk(self, targets: list[Position]) -> float:
        """The chance that one of ``targets`` (a chord's covered cells) is a mine."""
        if all(t in self.quick.safe for t in targets):
            return 0.0
        a = self.analysis
        if all(t in a.safe for t in targets):
            return 0.0
        return 1.0 - a.layouts_with(safe=targets) / a.layouts

    @cached_property
    def lowest(self) -> float | None:
        """The lowest mine probability of a covered cell (None if none is covered)."""
        if self.first_safe or (self.sure and self.best.action == "reveal"):
            return 0.0
        cells, cols = self.view.cells, self.view.cols
        covered = [
            p for pos, p in self.analysis.probabilities.items() if cells[pos[0] * cols + pos[1]] == "."
        ]
        return min(covered, default=None)

    @cached_property
    def best_risk(self) -> float | None:
        """The chance that the solver's move hits a mine (an unflag: that of the cell it frees)."""
        best = self.best
        if self.sure or self.first_safe:
            return 0.0
        p = self.analysis.probabilities.get(best.pos)
        return None if p is None else float(p)

    @property
    def safe_exists(self) -> bool:
        return self.sure or self.first_safe


def _wasted(view: View, action: str, pos: Position) -> bool:
    """Whether the move changes nothing, read from the view (as the rules' ``idle_move`` says)."""
    cols, cells = view.cols, view.cells
    char = cells[pos[0] * cols + pos[1]]
    if action == "reveal":
        return char != "."
    if action == "flag":
        return char not in ".f"
    if char not in "12345678":
        return True
    around = [cells[j] for j in neighbour_table(view.rows, cols)[pos[0] * cols + pos[1]]]
    return around.count("f") != int(char) or "." not in around


def _rate(judge: _Judge, action: str, pos: Position) -> tuple[Kind, float | None, str]:
    """The kind of a move that changes something, its chance of a mine, and what to say of it."""
    view, where = judge.view, format_position(pos)
    if action == "flag":
        if view[pos] == "." and pos in judge.quick.mines:
            return "certain", 1.0, f"flag {where}: certainly a mine"
        p = judge.analysis.probabilities[pos]
        if view[pos] == "f":
            return "certain", p, f"unflag {where}: takes no risk"
        if pos in judge.analysis.mines:
            return "certain", p, f"flag {where}: certainly a mine"
        return (
            "wrong flag",
            p,
            f"flag {where}: a wrong flag, the view does not prove a mine ({percent(p)} mine)",
        )
    if action == "reveal":
        p = judge.reveal_risk(pos)
    else:
        table = neighbour_table(view.rows, view.cols)
        targets = [divmod(j, view.cols) for j in table[pos[0] * view.cols + pos[1]] if view.cells[j] == "."]
        p = judge.chord_risk(targets)
    if p == 0.0:
        why = "the rules make the first click safe" if judge.first_safe else "certainly safe"
        return "certain", p, f"{action} {where}: {why}"
    if judge.safe_exists:
        safe = format_position(judge.best.pos)
        return (
            "unforced guess",
            p,
            f"{action} {where}: an unforced guess ({percent(p)} mine) while {safe} was certainly safe",
        )
    return "forced guess", p, f"{action} {where}: a forced guess ({percent(p)} mine)"


def _row(number: int, judge: _Judge, click: Click, seconds: float | None) -> ReviewRow:
    """The review of one move, from the judge of the view before it."""
    action, pos, view = _ACTION[click.kind], click.pos, judge.view
    if _wasted(view, action, pos):
        kind: Kind = "wasted"
        p, verdict = None, f"{action} {format_position(pos)}: a wasted click, it changes nothing"
    else:
        kind, p, verdict = _rate(judge, action, pos)
    best_p = judge.best_risk
    good = kind == "certain" or (
        kind == "forced guess" and p is not None and best_p is not None and p <= best_p + TOLERANCE
    )
    if kind == "forced guess":
        taken = f"; the solver's move: {judge.best.action} {format_position(judge.best.pos)}"
        verdict += f"{taken}, {percent(best_p or 0.0)} mine" if not good else ", as safe as the solver's"
    return ReviewRow(
        number, view, action, pos, kind, p, judge.lowest, judge.best, best_p, good, seconds, verdict
    )


def review(game: object) -> Review:
    """Every move of ``game`` rated by the exact solver from the player's view at that moment (see the
    module for the kinds, "as good as the solver's", accuracy and luck). ``game`` is what
    :func:`~ipyminesweeper.play` returns, a widget's ``history`` (any sequence of boards) or a
    :class:`~ipyminesweeper.engine.Replay` (a loaded replay)."""
    replay = as_replay(game, "review")
    rows: list[ReviewRow] = []
    judge: _Judge | None = None
    last_time: float | None = None
    for number, (click, before, _) in enumerate(replay.steps(), start=1):
        view = before.view
        if judge is None or judge.view != view:  # a wasted click leaves the view as it was
            judge = _Judge(view, before.first_click != "any")
        seconds = None if click.time is None else click.time - (last_time or 0.0)
        last_time = click.time
        rows.append(_row(number, judge, click, seconds))
    metrics = game_metrics(replay) if isinstance(replay.final.minefield, Minefield) else None
    return Review(tuple(rows), replay.final.status, metrics)
