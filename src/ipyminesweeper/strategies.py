"""Autoplayer strategies: plain functions from the player's view to a :class:`Move`, and stepping.

A strategy is any callable ``strategy(view) -> Move``. It sees only what the player sees: the grid size,
the mine total, the status and the cells in the view alphabet (``.`` covered, ``f`` flagged, ``0``-``8``
revealed). It never sees the mines. Any object with ``rows``, ``cols``, ``mines``, ``status`` and
``cells`` will do as a view, so a strategy cannot cheat even by accident.

Built-ins (see ``docs/autoplayer.md``):

- :func:`simple`: the single-point rules of a classic prioritised autosolver (a satisfied number
  frees its other neighbours; a number with as many covered neighbours as mines flags them), then
  "the first covered cell";
- :func:`scored` / :class:`Scored`: each covered cell scores the sum, over the numbers around it, of
  (missing mines / covered cells); the lowest score is played, with a seeded random fallback;
- :func:`exact` (the default): certain moves found over the whole frontier, then exact
  probabilities, then the safest cell, ties broken by the chance of a zero (an opening) and then
  by expected progress.

:func:`step` plays one move of a strategy on a :class:`~ipyminesweeper.board.Board` (pure: it returns the
new board and the move), :func:`play` plays until the game ends.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from .board import Board, GameOverError
from .geometry import Position, neighbour_table
from .rules import chord, reveal, toggle_flag
from .solver import Analysis, analyse, deduce
from .solver.constraints import ViewLike as SolverView

__all__ = [
    "STRATEGIES",
    "Action",
    "InvalidMoveError",
    "Move",
    "Scored",
    "Strategy",
    "ViewLike",
    "exact",
    "exact_flags",
    "opening_cell",
    "play",
    "register_strategy",
    "scored",
    "simple",
    "step",
]

Action = Literal["reveal", "flag", "chord"]
ACTIONS: tuple[str, ...] = ("reveal", "flag", "chord")


class ViewLike(SolverView, Protocol):
    """What a strategy may read: the solver's view plus the status; nothing about the mines."""

    @property
    def status(self) -> str: ...


@dataclass(frozen=True)
class Move:
    """One move of a strategy: what to do, where, why, and (when known) the cell's mine probability.

    ``probability`` is ``0.0`` for a move the strategy knows is safe, ``1.0`` for flagging a certain
    mine, a value in between for a guess, and ``None`` when the strategy does not know.
    """

    action: Action
    pos: Position
    reason: str = ""
    probability: float | None = None

    @property
    def is_guess(self) -> bool:
        """A reveal that is not known to be safe (probability unknown or above zero)."""
        return self.action == "reveal" and self.probability != 0.0

    def __str__(self) -> str:
        r, c = self.pos
        return f"{self.action} ({r},{c}): {self.reason}" if self.reason else f"{self.action} ({r},{c})"


Strategy = Callable[[ViewLike], Move]


class InvalidMoveError(ValueError):
    """A strategy returned something that is not a legal, useful move on the board."""


def _label(pos: Position) -> str:
    return f"({pos[0]},{pos[1]})"


def _pct(p: float) -> str:
    if 0 < p < 0.001:
        return f"{p * 100:.2g}%"
    return f"{p * 100:.1f}%"


def opening_cell(rows: int, cols: int) -> Position:
    """The first click of :func:`exact` on a fresh board: near a corner, clear of the edges.

    ``(2, 2)`` on boards up to 9 wide/high, ``(3, 3)`` on bigger ones (clamped onto small boards). With a
    first click that opens a 3x3 block (``first_click="opening"``) this leaves few unreachable edge
    cells; the published win rates for "opening" starts use these cells.
    """
    d = 2 if min(rows, cols) <= 9 else 3
    return (min(d, (rows - 1) // 2), min(d, (cols - 1) // 2))


def _check_view(view: ViewLike) -> tuple[int, int, str]:
    rows, cols, cells = view.rows, view.cols, view.cells
    if len(cells) != rows * cols:
        raise ValueError(f"a {rows}x{cols} view has {rows * cols} cells, not {len(cells)}")
    if view.status not in ("ready", "playing"):
        raise GameOverError(f"the game is {view.status}: a strategy has nothing to play")
    return rows, cols, cells


# --- simple: the single-point rules of a prioritised autosolver -----------------------------------


def simple(view: ViewLike) -> Move:
    """Single-point rules, in order, trusting its own flags:

    1. a number whose flags already match it: reveal its other covered neighbours;
    2. a number with exactly as many covered (or flagged) neighbours as its value: flag them;
    3. otherwise reveal the first covered cell in reading order (a blind guess).
    """
    rows, cols, cells = _check_view(view)
    table = neighbour_table(rows, cols)
    numbers = [i for i, ch in enumerate(cells) if "1" <= ch <= "8"]
    for i in numbers:  # rule 1
        value = ord(cells[i]) - 48
        around = table[i]
        flags = [j for j in around if cells[j] == "f"]
        covered = [j for j in around if cells[j] == "."]
        if covered and len(flags) == value:
            pos = divmod(covered[0], cols)
            return Move(
                "reveal",
                pos,
                f"{_label(pos)} is safe: the {value} at {_label(divmod(i, cols))} already has "
                f"{value} flag{'s' if value > 1 else ''} around it",
                0.0,
            )
    for i in numbers:  # rule 2
        value = ord(cells[i]) - 48
        around = table[i]
        flags = [j for j in around if cells[j] == "f"]
        covered = [j for j in around if cells[j] == "."]
        if covered and len(flags) + len(covered) == value:
            pos = divmod(covered[0], cols)
            return Move(
                "flag",
                pos,
                f"{_label(pos)} is a mine: the {value} at {_label(divmod(i, cols))} has exactly "
                f"{value} covered cell{'s' if value > 1 else ''} around it",
                1.0,
            )
    first = cells.find(".")
    if first < 0:
        first = cells.find("f")
        pos = divmod(first, cols)
        return Move("flag", pos, f"no covered cell left: unflag {_label(pos)}", None)
    pos = divmod(first, cols)
    return Move("reveal", pos, f"no rule applies: reveal the first covered cell {_label(pos)}", None)


# --- scored: summed per-cell scores, seeded random fallback ---------------------------------------


class Scored:
    """The summed-score player: a callable strategy with an explicit ``seed`` for its random fallback.

    Every revealed number ``n`` with ``k`` flags and ``u`` other covered neighbours adds
    ``(n - k) / u`` to the score of each of those ``u`` cells. The covered cell with the lowest score is
    revealed (first in reading order on a tie). With no number next to a covered cell it reveals a random
    covered cell, drawn from ``random.Random`` seeded with ``seed`` and the view's cells (CRC-32), so the
    same view always gives the same move: the strategy stays a pure function and games replay exactly.
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def __repr__(self) -> str:
        return f"Scored(seed={self.seed})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scored) and other.seed == self.seed

    def __hash__(self) -> int:
        return hash(("Scored", self.seed))

    def __call__(self, view: ViewLike) -> Move:
        rows, cols, cells = _check_view(view)
        table = neighbour_table(rows, cols)
        score: dict[int, float] = {}
        for i, ch in enumerate(cells):
            if not "0" <= ch <= "8":
                continue
            around = table[i]
            covered = [j for j in around if cells[j] == "."]
            if not covered:
                continue
            flags = sum(1 for j in around if cells[j] == "f")
            p = max(0.0, (ord(ch) - 48 - flags) / len(covered))
            for j in covered:
                score[j] = score.get(j, 0.0) + p
        if score:
            best = min(score, key=lambda j: (score[j], j))
            pos = divmod(best, cols)
            s = score[best]
            if s == 0:
                why = f"{_label(pos)} scores 0: every number around it has all its flags"
            else:
                why = (
                    f"{_label(pos)} has the lowest score, {s:.2f} (the sum of missing mines / covered "
                    f"cells over the numbers around it), of {len(score)} scored cells"
                )
            return Move("reveal", pos, why, 0.0 if s == 0 else min(s, 1.0))
        covered_all = [i for i, ch in enumerate(cells) if ch == "."]
        if not covered_all:
            first = cells.find("f")
            pos = divmod(first, cols)
            return Move("flag", pos, f"no covered cell left: unflag {_label(pos)}", None)
        rng = random.Random(zlib.crc32(cells.encode()) ^ (self.seed * 0x9E3779B1))
        pos = divmod(rng.choice(covered_all), cols)
        return Move("reveal", pos, f"no number to score by: reveal a random cell {_label(pos)}", None)


scored: Strategy = Scored(0)
"""The summed-score player with seed 0 (``Scored(seed)`` for another random fallback)."""


# --- exact: certain moves, exact probabilities, tie-breaks ----------------------------------------

_TIE = 1e-9  # probabilities closer than this are ties
_TOLERANCE = 0.1  # candidates: P(mine) <= best * (1 + this)
_NEXT_GUESS = 1.0  # a later guess costs ~ this * best P(mine)
_CANDIDATES = 12  # frontier candidates examined
_ENDGAME_LAYOUTS = 60  # exact look-ahead below this
_NEAR = 8  # interior candidates next to the frontier examined
_INTERIOR = 4  # interior candidates examined (the fewest covered neighbours first)


def _first_move(rows: int, cols: int) -> Move:
    pos = opening_cell(rows, cols)
    return Move(
        "reveal",
        pos,
        f"first click at {_label(pos)}: near the corner but clear of the edges, so its opening "
        "leaves few cells stranded",
        None,
    )


def _certain_reveals(view: ViewLike) -> tuple[list[Move], Analysis | None, dict[Position, str]]:
    """Moves revealing every cell the fast rules (or, failing them, the exact count) prove safe.

    Also returns the analysis (when one was needed) and the reasons for certain mines.
    """
    cols, cells = view.cols, view.cells
    d = deduce(view)
    safe = sorted(p for p in d.safe if cells[p[0] * cols + p[1]] in ".f")
    analysis = None
    reasons = d.reasons
    if not safe:
        analysis = analyse(view)
        safe = sorted(p for p in analysis.safe if cells[p[0] * cols + p[1]] in ".f")
        reasons = analysis.reasons
    moves = []
    for pos in safe:
        why = reasons.get(pos, f"{_label(pos)} is safe: it is a mine in no layout that fits the view")
        if cells[pos[0] * cols + pos[1]] == "f":
            moves.append(Move("flag", pos, f"unflag {_label(pos)}: {why}", 0.0))
        else:
            moves.append(Move("reveal", pos, why, 0.0))
    mine_reasons = {p: r for p, r in reasons.items() if p not in d.safe and r}
    return moves, analysis, mine_reasons


def _progress(
    cells: str, table: tuple[tuple[int, ...], ...], x: int, dist: tuple[float, ...], mines: set[int]
) -> float:
    """P(revealing ``x`` makes progress | ``x`` is safe): it shows a 0 (an opening), or its number lets
    the single-point and pair rules prove another cell safe. ``dist`` is P(x safe and shows k)."""
    safe = sum(dist)
    if safe <= 0:
        return 0.0
    good = dist[0]
    dirty = {x, *table[x]}
    for j in table[x]:
        dirty.update(table[j])  # numbers two steps away can pair with the new one
    for k in range(1, 9):
        if dist[k] <= 0:
            continue
        hypo = cells[:x] + chr(48 + k) + cells[x + 1 :]
        if _local_rules(hypo, table, dirty, set(mines)):
            good += dist[k]
    return good / safe


def _layouts(
    cells: str, table: tuple[tuple[int, ...], ...], total: int, mines: set[int], limit: int
) -> tuple[list[int], list[frozenset[int]]] | None:
    """Every mine layout of the covered cells that fits the view, or None if more than ``limit``.

    Returns the unknown cells (covered, not proven mines) and each layout's mines among them."""
    unknown = [i for i, ch in enumerate(cells) if ch in ".f" and i not in mines]
    need = total - len(mines)
    if need < 0 or need > len(unknown):
        return None
    constraints: list[tuple[list[int], int]] = []
    for i, ch in enumerate(cells):
        if "0" <= ch <= "8":
            around = [j for j in table[i] if cells[j] in ".f"]
            if around:
                k = ord(ch) - 48 - sum(1 for j in around if j in mines)
                constraints.append(([j for j in around if j not in mines], k))
    # cells touched by constraints first, so contradictions show early
    touched = {j for cs, _ in constraints for j in cs}
    order = sorted(unknown, key=lambda j: (j not in touched, j))
    pos_of = {j: n for n, j in enumerate(order)}
    by_last: dict[int, list[tuple[list[int], int]]] = {}
    for cs, k in constraints:
        last = max((pos_of[j] for j in cs), default=-1)
        by_last.setdefault(last, []).append((cs, k))
        if last < 0 and k != 0:
            return None
    out: list[frozenset[int]] = []
    chosen: list[int] = []
    assign: dict[int, int] = {}

    def feasible(n: int) -> bool:
        return all(sum(assign[j] for j in cs) == k for cs, k in by_last.get(n, ()))

    def rec(n: int, left: int) -> bool:
        if left < 0 or left > len(order) - n:
            return True
        if n == len(order):
            out.append(frozenset(chosen))
            return len(out) <= limit
        j = order[n]
        for v in (0, 1):
            assign[j] = v
            if v:
                chosen.append(j)
            ok = feasible(n)
            if ok and not rec(n + 1, left - v):
                return False
            if v:
                chosen.pop()
        del assign[j]
        return True

    if not rec(0, need):
        return None
    return unknown, out


def _endgame(
    view: ViewLike, a: Analysis, table: tuple[tuple[int, ...], ...]
) -> tuple[Position, float, float] | None:
    """Exact look-ahead when few layouts remain: the cell to reveal that maximises the chance of
    winning, ``(pos, P(mine), P(win))``, or None if there are too many layouts to search."""
    if a.layouts > _ENDGAME_LAYOUTS:
        return None
    cols, cells = view.cols, view.cells
    mines = {r * cols + c for r, c in a.mines}
    found = _layouts(cells, table, view.mines, mines, _ENDGAME_LAYOUTS)
    if found is None or len(found[1]) < 2:
        return None
    unknown, layouts = found
    # shown[x][i]: the number x shows in layout i, or -1 where x is a mine there
    shown: dict[int, tuple[int, ...]] = {}
    for x in unknown:
        near = [j for j in table[x] if j in mines or cells[j] in ".f"]
        fixed = sum(1 for j in near if j in mines)
        loose = [j for j in near if j not in mines]
        shown[x] = tuple(
            -1 if x in lay else fixed + sum(1 for j in loose if j in lay) for lay in layouts
        )
    memo: dict[frozenset[int], float] = {}
    budget = [20000]

    def split(x: int, ids: frozenset[int]) -> tuple[int, list[list[int]]] | None:
        """The layouts of ``ids`` where ``x`` is safe, grouped by the number it shows; None if
        revealing ``x`` is certain death or tells nothing."""
        row = shown[x]
        parts: dict[int, list[int]] = {}
        for i in ids:
            k = row[i]
            if k >= 0:
                parts.setdefault(k, []).append(i)
        safe = sum(len(v) for v in parts.values())
        if safe == 0 or (len(parts) == 1 and safe == len(ids)):
            return None
        return safe, list(parts.values())

    def value(ids: frozenset[int]) -> float:
        if len(ids) == 1:
            return 1.0
        got = memo.get(ids)
        if got is not None:
            return got
        budget[0] -= 1
        if budget[0] < 0:
            raise TimeoutError
        best = 0.0
        n = len(ids)
        for x in unknown:
            sp = split(x, ids)
            if sp is None or sp[0] <= best * n:
                continue  # cannot beat the best even if it won every time
            v = sum(len(p) * value(frozenset(p)) for p in sp[1]) / n
            if v > best:
                best = v
        memo[ids] = best
        return best

    everything = frozenset(range(len(layouts)))
    n = len(layouts)
    choice: tuple[float, float, int] | None = None
    try:
        for x in sorted(unknown):
            sp = split(x, everything)
            if sp is None:
                continue
            v = sum(len(p) * value(frozenset(p)) for p in sp[1]) / n
            key = (v, sp[0] / n, -x)
            if choice is None or key > choice:
                choice = key
    except TimeoutError:
        return None
    if choice is None:
        return None
    v, safe_p, x = choice
    pos = divmod(-x, cols)
    return pos, 1.0 - safe_p, v


def _guess(view: ViewLike, a: Analysis) -> Move:
    """The covered cell with the best chance of surviving *and* getting on.

    Candidates are the cells whose mine probability is close to the lowest (within
    ``_TOLERANCE``). Each is scored ``P(safe) * (1 - P(no progress | safe) * q)``: a cell whose number
    is likely to prove other cells safe (or to be a 0 and open a region) saves a later guess, which
    would cost about ``q`` (the current lowest mine probability). Ties: more covered cells around
    (fewer is better) and reading order.
    """
    rows, cols, cells = view.rows, view.cols, view.cells
    probs = a.probabilities
    table = neighbour_table(rows, cols)
    cands = [(p, pos) for pos, p in probs.items() if cells[pos[0] * cols + pos[1]] == "."]
    if not cands:  # only flagged cells left: unflag the safest
        p, pos = min((p, pos) for pos, p in probs.items())
        return Move("flag", pos, f"unflag {_label(pos)}: it is the safest covered cell", p)
    pmin = min(p for p, _ in cands)
    if len(cands) == 1:
        p, best = cands[0]
        return Move("reveal", best, f"{_label(best)} is the last covered cell: P(mine) = {_pct(p)}", p)

    end = _endgame(view, a, table) if a.layouts <= _ENDGAME_LAYOUTS else None
    if end is not None:
        pos, p, win = end
        why = (
            f"{_label(pos)} is a guess: P(mine) = {_pct(p)}; looking ahead through all "
            f"{a.layouts} layouts that fit, revealing it wins {_pct(win)} of the time, the best"
        )
        return Move("reveal", pos, why, p)

    def covered_nbrs(pos: Position) -> int:
        return sum(1 for j in table[pos[0] * cols + pos[1]] if cells[j] in ".f")

    limit = pmin + _TOLERANCE * max(pmin, 0.01)
    close = [(p, covered_nbrs(pos), pos) for p, pos in cands if p <= limit]
    close.sort()
    # the interior (cells next to no number) all share one probability: keep a few, corners first
    frontier = a.frontier
    inner = [c for c in close if c[2] not in frontier]
    # interior cells next to the frontier: their number can combine with the numbers nearby
    near_frontier = [
        c for c in inner if any(divmod(j, cols) in frontier for j in table[c[2][0] * cols + c[2][1]])
    ]
    inner = inner[:_INTERIOR] + [c for c in near_frontier if c not in inner[:_INTERIOR]][:_NEAR]
    close = [c for c in close if c[2] in frontier][:_CANDIDATES] + inner
    mines = {r * cols + c for r, c in a.mines}
    q = pmin * _NEXT_GUESS
    best_key: tuple[float, ...] | None = None
    best = close[0][2]
    best_info = (0.0, 0.0)
    for p, n_cov, pos in close:
        x = pos[0] * cols + pos[1]
        dist = a.number_distribution(pos)
        prog = _progress(cells, table, x, dist, mines)
        score = (1 - p) * (1 - (1 - prog) * q)
        key = (round(score, 12), -n_cov, -x)
        if best_key is None or key > best_key:
            best_key, best, best_info = key, pos, (p, prog)
    p, prog = best_info
    tie = sum(1 for c in close if c[0] <= p + _TIE)
    shared = f", shared by {tie} cells" if tie > 1 else ""
    lower = p > pmin + _TIE
    why = (
        f"{_label(best)} is a guess: P(mine) = {_pct(p)}"
        + (f" (the lowest is {_pct(pmin)})" if lower else f", the lowest{shared}")
        + f"; if safe, {_pct(prog)} chance it opens up or proves another cell safe"
        + (", which is worth the extra risk" if lower else "")
    )
    return Move("reveal", best, why, p)


def _exact_moves(view: ViewLike, *, flags: bool = False) -> list[Move]:
    """Every move :func:`exact` would make before it next needs to think: all certain reveals, or a
    guess. Playing them in order (skipping cells a cascade already opened) is the same game as calling
    :func:`exact` once per move."""
    rows, cols, cells = _check_view(view)
    if view.status == "ready" or not any("0" <= ch <= "8" for ch in cells):
        return [_first_move(rows, cols)]
    moves, analysis, mine_reasons = _certain_reveals(view)
    if moves:
        return moves
    if analysis is None:
        analysis = analyse(view)
    if flags:
        unflagged = sorted(p for p in analysis.mines if cells[p[0] * cols + p[1]] == ".")
        if unflagged:
            return [
                Move("flag", p, analysis.reasons.get(p) or mine_reasons.get(p, ""), 1.0)
                for p in unflagged
            ]
    return [_guess(view, analysis)]


def exact(view: ViewLike) -> Move:
    """The default strategy: certain moves first, then the safest guess by exact probabilities.

    1. On a fresh board: :func:`opening_cell` (``(2,2)`` or ``(3,3)``).
    2. A cell the solver proves safe (single-point, subset and global-count rules; failing those, the
       exact count over every consistent layout): reveal it. The reason says why.
    3. Otherwise guess. With at most 60 layouts left, an exact look-ahead picks the cell with the best
       chance of winning. Else, among the cells whose mine probability is within 10% of the lowest,
       the best ``P(safe) * (1 - P(no progress | safe) * P_lowest)``, where progress means the cell
       shows a 0 (an opening) or its number proves another cell safe; then fewer covered neighbours.

    It never flags (flags cost moves and do not help it); :func:`exact_flags` does, to show its
    reasoning.
    """
    return _exact_moves(view)[0]


def exact_flags(view: ViewLike) -> Move:
    """:func:`exact`, but it also flags every mine it has proved before it guesses (slower to play;
    the same wins)."""
    return _exact_moves(view, flags=True)[0]


# --- the same exact game, played fast (used by the benchmarks) ------------------------------------


def _local_rules(
    cells: str, table: tuple[tuple[int, ...], ...], dirty: set[int], mines: set[int]
) -> set[int]:
    """Single-point and pair rules over the numbers in ``dirty`` (and whatever they make dirty), to a
    fixpoint. Grows ``mines`` (cells proved to be mines); returns the covered cells proved safe. Sound
    but incomplete: the exact analysis is the backstop."""
    safe: set[int] = set()
    work = set(dirty)
    while work:
        unknown: dict[int, tuple[frozenset[int], int]] = {}
        for i in work:
            ch = cells[i]
            if not "0" <= ch <= "8":
                continue
            u: list[int] = []
            need = ord(ch) - 48
            for j in table[i]:
                if cells[j] in ".f":
                    if j in mines:
                        need -= 1
                    elif j not in safe:
                        u.append(j)
            if u:
                unknown[i] = (frozenset(u), need)
        new_safe: set[int] = set()
        new_mines: set[int] = set()
        for us, need in unknown.values():
            if need == 0:
                new_safe |= us
            elif need == len(us):
                new_mines |= us
        if not new_safe and not new_mines:
            # pair rule: mines(B - A) - mines(A - B) == need(B) - need(A)
            items = list(unknown.values())
            cell_to: dict[int, list[int]] = {}
            for k, (us, _) in enumerate(items):
                for j in us:
                    cell_to.setdefault(j, []).append(k)
            seen: set[tuple[int, int]] = set()
            for k, (ua, na) in enumerate(items):
                for j in ua:
                    for m in cell_to[j]:
                        if m == k or (k, m) in seen:
                            continue
                        seen.add((k, m))
                        ub, nb = items[m]
                        b_only = ub - ua
                        if b_only and nb - na == len(b_only):
                            new_mines |= b_only
                            new_safe |= ua - ub
            if not new_safe and not new_mines:
                # numbers next to other numbers' unknowns may now be decided: nothing more locally
                break
        new_safe -= safe
        new_mines -= mines
        if new_safe & new_mines:
            raise ValueError("inconsistent view")  # pragma: no cover - the view is a real game
        safe |= new_safe
        mines |= new_mines
        work = {k for j in new_safe | new_mines for k in table[j] if "1" <= cells[k] <= "8"}
    return {j for j in safe if cells[j] == "."}


def play_exact_fast(board: Board, max_moves: int | None = None) -> tuple[Board, int, int]:
    """Play :func:`exact` on a started ``board`` to the end: ``(final_board, moves, guesses)``.

    The same game as stepping :func:`exact` (the same guesses at the same positions, so the same
    result), with fewer solver calls: certain cells come from local rules first and the exact analysis
    only when they run dry; all certain reveals of a round are played together. ``moves`` counts the
    reveals that were still needed when their turn came, as one-by-one play would.
    """
    from .rules import _open, place_mines

    if board.status == "ready":
        raise ValueError("play_exact_fast needs a started board (make the first click)")
    rows, cols = board.rows, board.cols
    table = neighbour_table(rows, cols)
    known_mines: set[int] = set()
    moves = guesses = 0
    cells = board.view.cells
    dirty = {i for i, ch in enumerate(cells) if "1" <= ch <= "8"}
    while not board.over and (max_moves is None or moves < max_moves):
        safe = _local_rules(cells, table, dirty, known_mines)
        if not safe:
            a = analyse(board.view, explain=False)
            known_mines.update(r * cols + c for r, c in a.mines)
            safe = {r * cols + c for r, c in a.safe if cells[r * cols + c] == "."}
            if not safe:
                move = _guess(board.view, a)
                board = reveal(board, move.pos)
                moves += 1
                guesses += 1
                old, cells = cells, board.view.cells
                dirty = _changed(old, cells, table)
                continue
        counts = board.counts
        pending: list[int] = []
        opened = set()
        for i in sorted(safe):
            if max_moves is not None and moves >= max_moves:
                break
            if board.states[i] != 0 or i in opened:
                continue
            moves += 1
            if counts[i] == 0:
                board = reveal(board, divmod(i, cols))
            else:
                pending.append(i)
                opened.add(i)
        if pending:
            board = _open(place_mines(board, pending[0]), tuple(pending))
        old, cells = cells, board.view.cells
        dirty = _changed(old, cells, table)
    return board, moves, guesses


def _changed(old: str, new: str, table: tuple[tuple[int, ...], ...]) -> set[int]:
    """Numbers to re-examine: newly revealed cells and the revealed numbers around them."""
    out: set[int] = set()
    n = len(new)
    step = 32
    for lo in range(0, n, step):
        if old[lo : lo + step] == new[lo : lo + step]:
            continue  # compared at C speed: most of the grid has not changed
        for i in range(lo, min(lo + step, n)):
            if old[i] != new[i]:
                out.add(i)
                out.update(table[i])
    return out


# --- registry -------------------------------------------------------------------------------------

STRATEGIES: dict[str, Strategy] = {
    "exact": exact,
    "exact-flags": exact_flags,
    "scored": scored,
    "simple": simple,
}
"""The strategies by name: the built-ins and any added with :func:`register_strategy`."""

BUILTINS: frozenset[str] = frozenset(STRATEGIES)


def register_strategy(name: str, fn: Strategy, *, replace: bool = False) -> Strategy:
    """Add ``fn`` to :data:`STRATEGIES` under ``name`` (the widget's selector lists them).

    Returns ``fn``.

    A built-in cannot be replaced; another name can with ``replace=True``. For parallel benchmarks
    define ``fn`` at the top level of a module so worker processes can import it.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"a strategy name is a non-empty str, not {name!r}")
    if not callable(fn):
        raise TypeError(f"a strategy is a callable view -> Move, not {type(fn).__name__}")
    if name in BUILTINS:
        raise ValueError(f"{name!r} is a built-in strategy; pick another name")
    if name in STRATEGIES and not replace and STRATEGIES[name] is not fn:
        raise ValueError(f"a strategy named {name!r} is already registered; pass replace=True")
    STRATEGIES[name] = fn
    return fn


def resolve(strategy: Strategy | str) -> Strategy:
    """A strategy from itself or its registered name."""
    if isinstance(strategy, str):
        try:
            return STRATEGIES[strategy]
        except KeyError:
            raise ValueError(
                f"unknown strategy {strategy!r}: use one of {', '.join(sorted(STRATEGIES))}"
            ) from None
    if not callable(strategy):
        raise TypeError(f"a strategy is a callable view -> Move, not {type(strategy).__name__}")
    return strategy


def strategy_name(strategy: Strategy | str) -> str:
    """The registered name of a strategy, else its ``__name__`` (or repr)."""
    if isinstance(strategy, str):
        return strategy
    for name, fn in STRATEGIES.items():
        if fn is strategy:
            return name
    return getattr(strategy, "__name__", None) or repr(strategy)


# --- stepping -------------------------------------------------------------------------------------


def validate(board: Board, move: object, who: str = "the strategy") -> Move:
    """Check that ``move`` is a :class:`Move` that changes ``board``; raise InvalidMoveError if not."""
    if not isinstance(move, Move):
        raise InvalidMoveError(f"{who} returned {move!r}, not a Move(action, pos, reason, probability)")
    if move.action not in ACTIONS:
        raise InvalidMoveError(
            f"{who} returned the action {move.action!r}: use one of {', '.join(ACTIONS)}"
        )
    try:
        index = board.index(move.pos)
    except (TypeError, ValueError) as exc:
        raise InvalidMoveError(f"{who} returned a bad position: {exc}") from None
    if move.probability is not None and not (
        isinstance(move.probability, (int, float)) and 0.0 <= move.probability <= 1.0
    ):
        raise InvalidMoveError(
            f"{who} returned probability {move.probability!r}: use a number in [0, 1] or None"
        )
    if not isinstance(move.reason, str):
        raise InvalidMoveError(f"{who} returned a reason that is not a str: {move.reason!r}")
    ch = board.view.cells[index]
    where = _label((index // board.cols, index % board.cols))
    if move.action == "reveal" and ch != ".":
        what = "flagged (unflag it first)" if ch == "f" else "already revealed"
        raise InvalidMoveError(f"{who} tried to reveal {where}, which is {what}")
    if move.action == "flag" and ch not in ".f":
        raise InvalidMoveError(f"{who} tried to flag {where}, which is revealed")
    if move.action == "chord":
        if not "1" <= ch <= "8":
            raise InvalidMoveError(f"{who} tried to chord {where}, which is not a revealed number")
        around = neighbour_table(board.rows, board.cols)[index]
        cells = board.view.cells
        flags = sum(1 for j in around if cells[j] == "f")
        covered = sum(1 for j in around if cells[j] == ".")
        if flags != int(ch) or not covered:
            raise InvalidMoveError(
                f"{who} tried to chord {where}: the {ch} has {flags} flag(s) and {covered} covered "
                "cell(s) around it; a chord needs exactly as many flags as the number and a covered cell"
            )
    return move


def apply(board: Board, move: Move) -> Board:
    """The board after a validated move."""
    if move.action == "reveal":
        return reveal(board, move.pos)
    if move.action == "flag":
        return toggle_flag(board, move.pos)
    return chord(board, move.pos)


def step(board: Board, strategy: Strategy | str = exact) -> tuple[Board, Move]:
    """Ask ``strategy`` for a move on ``board``'s view and play it: returns ``(new_board, move)``.

    Pure: ``board`` is not changed. The strategy only gets ``board.view``. A move that is not a legal,
    useful move (not a Move, off the board, revealing a revealed or flagged cell, a chord that does
    nothing) raises :class:`InvalidMoveError`; a finished game raises ``GameOverError``.
    """
    if not isinstance(board, Board):
        raise TypeError(f"step needs a Board, not {type(board).__name__}")
    if board.over:
        raise GameOverError(f"the game is {board.status}: no more moves")
    fn = resolve(strategy)
    move = validate(board, fn(board.view), f"strategy {strategy_name(strategy)!r}")
    return apply(board, move), move


def play(
    board: Board, strategy: Strategy | str = exact, max_moves: int | None = None
) -> tuple[Board, tuple[Move, ...]]:
    """Step ``strategy`` until the game ends (or ``max_moves`` moves): ``(final_board, moves)``."""
    moves: list[Move] = []
    while not board.over and (max_moves is None or len(moves) < max_moves):
        board, move = step(board, strategy)
        moves.append(move)
    return board, tuple(moves)
