"""How the widget words what it shows around the strategies' reasons, in one place: the end of a game,
the help a game had, and a step of the history. Positions are written ``(row,col)``, as in the reasons
(:func:`~ipyminesweeper.engine.format_position`); the reasons themselves are the strategies' words
(:mod:`ipyminesweeper.strategies.move_words`, :mod:`ipyminesweeper.solver.sentences`).
"""

from __future__ import annotations

from ..engine import GameMetrics, Position, format_position
from ..solver.sentences import percent
from ..strategies import Review

__all__ = [
    "BOARD_SET",
    "NO_SAFE_CELL",
    "REVIEW_AFTER_END",
    "START",
    "assistance",
    "game_over",
    "metrics_text",
    "move_by",
    "no_safe_yet",
    "review_move",
    "review_summary",
    "strategy_stopped",
]

START = "the start"
"""The first step of a history."""
BOARD_SET = "a board set from code"
"""A step of the history made by ``w.board = ...``."""

REVIEW_AFTER_END = (
    "the review comes once the game is over (won or lost): it shows the solver's moves, which would be "
    "hints now"
)
"""Why a game still on has no review."""

NO_SAFE_CELL = "no covered cell is certainly safe: every one of them may hide a mine"
"""What the scan key K (``NextSafe``) says when the exact solver proves no covered cell safe."""


def no_safe_yet(first_click: str) -> str:
    """What K says before the first move: the first click decides (``first_click``: the board's rule)."""
    if first_click == "any":
        return "no cell is certainly safe before the first move: the first click may lose"
    return (
        f"no cell is proved safe before the first move; the first click is safe (first click: {first_click})"
    )


def _count(n: int, one: str, many: str) -> str:
    return "" if n == 0 else f"1 {one}" if n == 1 else f"{n} {many}"


def assistance(
    undos_after_loss: int,
    hints: int,
    autoplayer_moves: int,
    boards_set: int,
    rewinds: int,
    overlay: bool,
    opened: bool = False,
) -> str:
    """``"1 undo after a loss, 2 hints"``: what helped a game, or ``""``."""
    parts = [
        _count(undos_after_loss, "undo after a loss", "undos after a loss"),
        _count(hints, "hint", "hints"),
        _count(autoplayer_moves, "autoplayer move", "autoplayer moves"),
        _count(boards_set, "board set from code", "boards set from code"),
        _count(rewinds, "resume from history", "resumes from history"),
        "the probability overlay" if overlay else "",
        "opened from a link or a replay" if opened else "",
    ]
    return ", ".join(p for p in parts if p)


def game_over(won: bool, seconds: int, helped: str) -> str:
    """The end-of-game message: ``"won in 41 s"``, ``"lost after 41 s (assisted: 2 hints)"``."""
    text = f"won in {seconds} s" if won else f"lost after {seconds} s"
    return f"{text} (assisted: {helped})" if helped else text


def move_by(who: str | None, action: str, pos: Position, reason: str = "") -> str:
    """A move in the history: ``"exact: reveal (4,7): (4,7) is safe: ..."`` (``who`` None: the player)."""
    said = f": {reason}" if reason else ""
    return f"{who or 'you'}: {action} {format_position(pos)}{said}"


def strategy_stopped(who: str, seconds: float, why: str, limit: float, autoplaying: bool) -> str:
    """Why the autoplayer's strategy (``who``: ``"your strategy 'mine'"``) was stopped after ``seconds``
    (0: between two moves): ``why`` is ``"time limit"`` (``limit`` seconds), ``"interrupt"`` or
    ``"dropped"`` (a Pause came first; ``autoplaying``: a new autoplayer did)."""
    if why == "time limit":
        text = f"{who} ran for {seconds:.1f} s, past the time limit of {limit:g} s (w.strategy_time_limit)"
    elif why == "interrupt":
        text = "interrupted" + (f" while {who} had run for {seconds:.1f} s" if seconds else "")
    else:
        text = f"{'a new autoplayer' if autoplaying else 'the Pause'} stopped {who} after {seconds:.1f} s"
    if why != "dropped":
        text += ": the autoplayer stopped"
    if seconds:
        text += "; its move is dropped, the game is unchanged, and its thread is told to stop"
    return text


def _ratio(value: float | None) -> str:
    return "none" if value is None else f"{value:.0%}"


def metrics_text(m: GameMetrics | None) -> str:
    """A game's figures in a line: ``"3BV 42, 3BV/s 1.05, 50 clicks (40 left, 6 right, 4 chords; 45
    effective), efficiency 84%, IOE 84%, correctness 90%, throughput 93%, ZiNi 38"``; "" for none. The
    efficiency (3BV / clicks) is a won game's: a lost one has its IOE (the 3BV it solved / clicks)."""
    if m is None:
        return ""
    c = m.clicks
    solved = "" if m.solved_bbbv == m.bbbv else f" ({m.solved_bbbv} solved)"
    rate = "" if m.bbbv_per_second is None else f", 3BV/s {m.bbbv_per_second:.2f}"
    chords = _count(c.chord, "chord", "chords") or "no chord"
    efficiency = f"efficiency {_ratio(m.efficiency)}, " if m.won else ""  # 3BV / clicks: a won game's
    return (
        f"3BV {m.bbbv}{solved}{rate}, {c.total} click{'' if c.total == 1 else 's'} ({c.left} left, {c.right} "
        f"right, {chords}; {c.effective} effective), {efficiency}IOE {_ratio(m.ioe)}, "
        f"correctness {_ratio(m.correctness)}, throughput {_ratio(m.throughput)}, ZiNi {m.zini}"
    )


def review_move(number: int, count: int, verdict: str) -> str:
    """A reviewed move: ``"move 12 of 80: reveal (3,4): certainly safe"`` (the verdict is the review's)."""
    return f"move {number} of {count}: {verdict}"


def _moves(numbers: list[int], one: str, many: str) -> str:
    if not numbers:
        return f"no {one}"
    more = f" and {len(numbers) - 5} more" if len(numbers) > 5 else ""
    shown = ", ".join(str(n) for n in numbers[:5]) + more
    return f"{_count(len(numbers), one, many)} (move{'' if len(numbers) == 1 else 's'} {shown})"


def review_summary(review: Review) -> str:
    """The review's summary in a line: ``"80 moves, lost: accuracy 92%, 3 guesses, 1 unforced guess (move
    14), no wrong flag, luck 61%; lost on move 80, a forced guess"``."""
    rows = review.rows
    text = (
        f"{_count(len(rows), 'move', 'moves') or 'no move'}, {review.status}: "
        f"accuracy {percent(review.accuracy)}, "
        f"{_count(len(review.guesses), 'guess', 'guesses') or 'no guess'}, "
        f"{_moves([r.number for r in review.unforced_guesses], 'unforced guess', 'unforced guesses')}, "
        f"{_moves([r.number for r in review.wrong_flags], 'wrong flag', 'wrong flags')}, "
        f"luck {percent(review.luck)}"
    )
    lost = review.lost_move
    if lost is not None:
        how = {"forced guess": "a forced guess", "unforced guess": "an unforced guess"}.get(
            lost.kind, lost.kind
        )
        text += f"; lost on move {lost.number}, {how}"
    return text
