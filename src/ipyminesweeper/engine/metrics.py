"""The players' metrics, as pure functions: 3BV, ZiNi, clicks by kind, efficiency, IOE, correctness,
throughput and 3BV/s, the figures ranking sites and replay programs report.

- **3BV** (:func:`bbbv`, "Bechtel's Board Benchmark Value"): the fewest left clicks that clear a board
  without flags: one per *opening* (a region of zeros, which one click opens with its border of
  numbers) plus one per number on no opening's border.
- **ZiNi** (:func:`zini`): an estimate of the fewest clicks of any kind (flags and chords too) that
  clear a board, by the greedy algorithm of Elmar Zimmermann and Christoph Nikolaus, as ms_toollib's
  ``cal_zini`` computes it: a greedy estimate (an upper bound), not the true minimum.
- The figures of a game (:func:`game_metrics`, a :class:`GameMetrics`): the clicks by kind, left, right
  and chord, each effective or wasted (:class:`ClickCounts`); *efficiency* 3BV / clicks; *IOE* (index
  of efficiency) solved 3BV / clicks; *correctness* effective clicks / clicks; *throughput* solved 3BV /
  effective clicks; *3BV/s* solved 3BV / seconds. They are ms_toollib's definitions, and agree with it
  (tests/engine/test_metrics_ms_toollib.py).

A click is *effective* as ms_toollib counts it: a left click that opens a safe covered cell, a right
click that flags a mine not flagged before in the game, a chord that opens a cell. Every other click is
wasted (a left click on a revealed or flagged cell or on a mine, an unflag, a flag on a safe cell, ...).
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .cells import COVERED, FLAGGED, REVEALED
from .errors import BoardError
from .geometry import neighbour_table
from .minefield import Minefield
from .replay import Replay

__all__ = [
    "ClickCounts",
    "GameMetrics",
    "bbbv",
    "bbbv_clicks",
    "click_counts",
    "game_metrics",
    "game_time",
    "openings",
    "solved_bbbv",
    "zini",
]


def _placed(board: Board, what: str) -> Minefield:
    if not isinstance(board, Board):
        raise TypeError(f"{what}(board): board must be a Board, not {type(board).__name__}")
    field = board.minefield
    if not isinstance(field, Minefield):
        raise BoardError(f"{what}(board): the mines are not placed yet (the first reveal places them)")
    return field


def _openings(rows: int, cols: int, mask: bytes, counts: bytes) -> list[list[int]]:
    """The openings of a layout: each a list of the flat indices of its zeros, found in reading order."""
    table = neighbour_table(rows, cols)
    seen = bytearray(rows * cols)
    found: list[list[int]] = []
    for start in range(rows * cols):
        if seen[start] or counts[start] or mask[start]:
            continue
        seen[start] = 1
        zeros, stack = [start], [start]
        while stack:
            for j in table[stack.pop()]:
                if not seen[j] and not counts[j] and not mask[j]:
                    seen[j] = 1
                    zeros.append(j)
                    stack.append(j)
        found.append(zeros)
    return found


def _isolated(rows: int, cols: int, mask: bytes, counts: bytes) -> list[int]:
    """The safe numbers on no opening's border (no zero among their neighbours): one 3BV each."""
    table = neighbour_table(rows, cols)
    return [
        i
        for i in range(rows * cols)
        if counts[i] and not mask[i] and all(counts[j] or mask[j] for j in table[i])
    ]


def openings(board: Board) -> int:
    """How many openings (regions of zeros) the board's mine layout has."""
    field = _placed(board, "openings")
    return len(_openings(board.rows, board.cols, field.mask, field.counts))


def bbbv(board: Board) -> int:
    """3BV: the fewest left clicks that clear ``board``'s mine layout (one per opening, one per number
    on no opening's border). The mines must be placed (a board after its first reveal)."""
    field = _placed(board, "bbbv")
    rows, cols, mask, counts = board.rows, board.cols, field.mask, field.counts
    return len(_openings(rows, cols, mask, counts)) + len(_isolated(rows, cols, mask, counts))


def bbbv_clicks(board: Board) -> tuple[frozenset[tuple[int, int]], ...]:
    """The clicks :func:`bbbv` counts, each as the cells it is made on: the zeros of each opening (a click
    on any one of them opens it all, with its border), then each number on no opening's border, alone.
    ``len(bbbv_clicks(board)) == bbbv(board)``."""
    field = _placed(board, "bbbv_clicks")
    rows, cols, mask, counts = board.rows, board.cols, field.mask, field.counts
    found = [frozenset(divmod(i, cols) for i in zeros) for zeros in _openings(rows, cols, mask, counts)]
    return (*found, *(frozenset({divmod(i, cols)}) for i in _isolated(rows, cols, mask, counts)))


def solved_bbbv(board: Board) -> int:
    """The part of the 3BV the player has done on ``board``: the openings whose zeros are all revealed,
    and the revealed numbers on no opening's border."""
    field = _placed(board, "solved_bbbv")
    rows, cols, mask, counts, states = board.rows, board.cols, field.mask, field.counts, board.states
    found = _openings(rows, cols, mask, counts)
    done = sum(1 for zeros in found if all(states[i] == REVEALED for i in zeros))
    return done + sum(1 for i in _isolated(rows, cols, mask, counts) if states[i] == REVEALED)


def zini(board: Board) -> int:
    """ZiNi: the clicks (left, right and chords) the greedy algorithm of Zimmermann and Nikolaus needs
    to clear ``board``'s mine layout, an estimate from above of the fewest clicks that clear it.

    Each cell has a *premium*: the 3BV a chord on it would clear, less the flags it needs, less two.
    While safe cells are covered, the cell of highest non-negative premium (the first in column order
    on a tie) is opened if covered, its mines flagged and it is chorded; when none is left, the first
    covered opening or number off every opening (column order) is clicked. The clicks counted are the
    estimate: the one ms_toollib's ``cal_zini`` gives.
    """
    field = _placed(board, "zini")
    return _GreedyZini(board.rows, board.cols, field.mask, field.counts).run()


class _GreedyZini:
    """The state of one run of :func:`zini`: cells opened and flagged, their premiums, the clicks."""

    def __init__(self, rows: int, cols: int, mask: bytes, counts: bytes) -> None:
        n = rows * cols
        self.mask, self.counts = mask, counts
        self.blocks = [(i, *nb) for i, nb in enumerate(neighbour_table(rows, cols))]
        self.order = [r * cols + c for c in range(cols) for r in range(rows)]  # column by column
        self.safe_order = [i for i in self.order if not mask[i]]
        self.members: list[list[int]] = []  # each opening's cells: its zeros and its border
        self.first = [0] * n  # the opening (1-based) a cell belongs to, or 0
        self.second = [0] * n  # a border number's other opening (the last one, as the original keeps)
        self._find_openings()
        self.opened = bytearray(n)
        self.flagged = bytearray(n)
        self.premium = [self._adjacent_bbbv(i) - counts[i] - 2 for i in range(n)]
        self.closed = n
        self.clicks = 0

    def _find_openings(self) -> None:
        mask, counts, first, second = self.mask, self.counts, self.first, self.second
        for start in self.order:
            if mask[start] or counts[start] or first[start]:
                continue
            number = len(self.members) + 1
            cells: list[int] = []
            stack = [start]
            first[start] = number
            while stack:
                i = stack.pop()
                cells.append(i)
                for j in self.blocks[i]:
                    if mask[j] or j == i:
                        continue
                    if counts[j]:
                        if not first[j]:
                            first[j] = number
                            cells.append(j)
                        elif first[j] != number and second[j] != number:
                            second[j] = number
                            cells.append(j)
                    elif not first[j]:
                        first[j] = number
                        stack.append(j)
            self.members.append(cells)

    def _adjacent_bbbv(self, i: int) -> int:
        """The 3BV a chord on ``i`` could clear: 1 for a zero; for a number, the safe cells of its block
        on no opening, plus one for each opening it borders."""
        if self.mask[i]:
            return 0
        if not self.counts[i]:
            return 1
        mask, first = self.mask, self.first
        off = sum(1 for j in self.blocks[i] if not mask[j] and not first[j])
        return off + (first[i] > 0) + (self.second[i] > 0)

    def _open(self, i: int) -> None:
        self.opened[i] = 1
        self.premium[i] += 1
        if not self.first[i]:
            for j in self.blocks[i]:
                self.premium[j] -= 1
        self.closed -= 1

    def _reveal(self, i: int) -> None:
        if self.opened[i] or self.flagged[i]:
            return
        if self.counts[i] or self.mask[i]:
            self._open(i)
            return
        for j in self.members[self.first[i] - 1]:
            if not self.opened[j]:
                self._open(j)
            self.premium[j] -= 1

    def _flag_around(self, i: int) -> None:
        for m in self.blocks[i]:
            if self.mask[m] and not self.flagged[m]:
                self.flagged[m] = 1
                self.clicks += 1
                for j in self.blocks[m]:
                    self.premium[j] += 1

    def run(self) -> int:
        mines = sum(self.mask)
        premium, opened = self.premium, self.opened
        while self.closed > mines:
            top = max((premium[i] for i in self.safe_order), default=-1)
            if top >= 0:
                best = next(i for i in self.safe_order if premium[i] == top)
                if not opened[best]:
                    self._reveal(best)
                    self.clicks += 1
                self._flag_around(best)
                for j in self.blocks[best]:
                    self._reveal(j)
                self.clicks += 1
            else:
                counts, first = self.counts, self.first
                cell = next(i for i in self.safe_order if not opened[i] and (not counts[i] or not first[i]))
                self._reveal(cell)
                self.clicks += 1
        return self.clicks


@dataclass(frozen=True)
class ClickCounts:
    """A game's clicks by kind, and how many of each were effective (see the module's definitions)."""

    left: int = 0
    right: int = 0
    chord: int = 0
    left_effective: int = 0
    right_effective: int = 0
    chord_effective: int = 0

    @property
    def total(self) -> int:
        """Every click: left, right and chord."""
        return self.left + self.right + self.chord

    @property
    def effective(self) -> int:
        """The clicks that did something useful."""
        return self.left_effective + self.right_effective + self.chord_effective

    @property
    def wasted(self) -> int:
        """The clicks that did not."""
        return self.total - self.effective


def click_counts(replay: Replay) -> ClickCounts:
    """The clicks of ``replay`` by kind, effective or wasted."""
    if not isinstance(replay, Replay):
        raise TypeError(f"click_counts(replay): replay must be a Replay, not {type(replay).__name__}")
    tally = {"left": 0, "right": 0, "chord": 0}
    useful = {"left": 0, "right": 0, "chord": 0}
    flagged_once: set[int] = set()
    mines = replay.final.mask  # placed by the first reveal: a flag before it is judged by them too
    for click, before, after in replay.steps():
        tally[click.kind] += 1
        index = click.pos[0] * before.cols + click.pos[1]
        if click.kind == "left":
            useful["left"] += after != before and after.exploded is None
        elif click.kind == "chord":
            useful["chord"] += after != before
        elif before.states[index] == COVERED and mines[index] and index not in flagged_once:
            flagged_once.add(index)
            useful["right"] += 1
    return ClickCounts(
        tally["left"], tally["right"], tally["chord"], useful["left"], useful["right"], useful["chord"]
    )


@dataclass(frozen=True)
class GameMetrics:
    """The figures of one game (see the module's definitions). A ratio whose denominator is zero (no
    clicks, no effective click, no time known) is None."""

    bbbv: int
    solved_bbbv: int
    zini: int
    clicks: ClickCounts
    seconds: float | None
    won: bool

    @property
    def efficiency(self) -> float | None:
        """3BV / clicks: the field's efficiency, meant for won games (as a fraction, 1.0 = 100%)."""
        return _ratio(self.bbbv, self.clicks.total)

    @property
    def ioe(self) -> float | None:
        """Index of efficiency: solved 3BV / clicks (the efficiency of a lost game too)."""
        return _ratio(self.solved_bbbv, self.clicks.total)

    @property
    def correctness(self) -> float | None:
        """Effective clicks / clicks."""
        return _ratio(self.clicks.effective, self.clicks.total)

    @property
    def throughput(self) -> float | None:
        """Solved 3BV / effective clicks."""
        return _ratio(self.solved_bbbv, self.clicks.effective)

    @property
    def bbbv_per_second(self) -> float | None:
        """Solved 3BV / seconds: the players' speed, 3BV/s."""
        return None if not self.seconds else self.solved_bbbv / self.seconds


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def game_time(replay: Replay) -> float | None:
    """The game's time in seconds: the replay's ``duration`` where it states one, else from the first
    left click to the last click, where the clicks have times; else None."""
    if replay.duration is not None:
        return float(replay.duration)
    times = [c.time for c in replay.clicks if c.time is not None]
    starts = [c.time for c in replay.clicks if c.kind == "left" and c.time is not None]
    if not starts or len(times) != len(replay.clicks):
        return None
    return max(times) - starts[0]


def game_metrics(replay: Replay) -> GameMetrics:
    """Every metric of ``replay`` at once: 3BV, solved 3BV, ZiNi, clicks, seconds (see
    :class:`GameMetrics` for the ratios). The mines must be placed (a game with a reveal)."""
    if not isinstance(replay, Replay):
        raise TypeError(f"game_metrics(replay): replay must be a Replay, not {type(replay).__name__}")
    final = replay.final
    solved = solved_bbbv(final)
    last = replay.clicks[-1] if replay.clicks else None
    if last is not None and last.kind == "chord" and final.exploded is not None:
        solved += _lost_chord_bbbv(final, last.pos)
    return GameMetrics(
        bbbv(final), solved, zini(final), click_counts(replay), game_time(replay), final.status == "won"
    )


def _lost_chord_bbbv(final: Board, pos: tuple[int, int]) -> int:
    """The 3BV a chord that hit a mine clears, as the field's programs count it: they open every cell
    of the chord, where the rules here stop at the first mine. The safe cells it left covered count:
    a number on no opening's border, and the opening of a zero (once, if no flag stops it)."""
    rows, cols, mask, counts, states = final.rows, final.cols, final.mask, final.counts, final.states
    found = _openings(rows, cols, mask, counts)
    opening_of = {i: k for k, zeros in enumerate(found) for i in zeros}
    isolated = set(_isolated(rows, cols, mask, counts))
    table = neighbour_table(rows, cols)
    left = [j for j in table[pos[0] * cols + pos[1]] if states[j] == COVERED and not mask[j]]
    reached = {opening_of[j] for j in left if j in opening_of}
    whole = sum(1 for k in reached if all(states[i] != FLAGGED for i in found[k]))
    return whole + sum(1 for j in left if j in isolated)
