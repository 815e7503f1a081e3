"""``exact``: certain moves first, then the safest guess by exact probabilities, each move explained.

The strategy reads only the player's view. Certain cells come from the solver
(:mod:`ipyminesweeper.solver`); when there are none it guesses, weighing each candidate's chance of being
safe against its chance of making progress.
"""

from __future__ import annotations

from ..engine import Position, View, format_position
from ..engine.geometry import neighbour_table
from ..solver import Analysis, analyse, deduce, local_rules
from ..solver.wording import percent
from .move import Move, playable

__all__ = ["exact", "exact_flags", "opening_cell"]


def opening_cell(rows: int, cols: int) -> Position:
    """The first click of :func:`exact` on a fresh board: near a corner, clear of the edges.

    ``(2, 2)`` on boards up to 9 wide/high, ``(3, 3)`` on bigger ones (clamped onto small boards). With a
    first click that opens a 3x3 block (``first_click="opening"``) this leaves few unreachable edge
    cells; the published win rates for "opening" starts use these cells.
    """
    d = 2 if min(rows, cols) <= 9 else 3
    return (min(d, (rows - 1) // 2), min(d, (cols - 1) // 2))


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
        f"first click at {format_position(pos)}: near the corner but clear of the edges, so its opening "
        "leaves few cells stranded",
        None,
    )


def _certain_reveals(view: View) -> tuple[list[Move], Analysis | None, dict[Position, str]]:
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
        why = reasons.get(
            pos, f"{format_position(pos)} is safe: it is a mine in no layout that fits the view"
        )
        if cells[pos[0] * cols + pos[1]] == "f":
            moves.append(Move("flag", pos, f"unflag {format_position(pos)}: {why}", 0.0))
        else:
            moves.append(Move("reveal", pos, why, 0.0))
    mine_reasons = {p: r for p, r in reasons.items() if p not in d.safe and r}
    return moves, analysis, mine_reasons


def _progress(
    rows: int, cols: int, cells: str, x: int, dist: tuple[float, ...], mines: frozenset[int]
) -> float:
    """P(revealing ``x`` makes progress | ``x`` is safe): it shows a 0 (an opening), or its number lets
    the single-point and pair rules prove another cell safe. ``dist`` is P(x safe and shows k)."""
    safe = sum(dist)
    if safe <= 0:
        return 0.0
    table = neighbour_table(rows, cols)
    good = dist[0]
    dirty = {x, *table[x]}
    for j in table[x]:
        dirty.update(table[j])  # numbers two steps away can pair with the new one
    for k in range(1, 9):
        if dist[k] <= 0:
            continue
        hypo = cells[:x] + chr(48 + k) + cells[x + 1 :]
        if local_rules(hypo, rows, cols, dirty, mines)[0]:
            good += dist[k]
    return good / safe


def _endgame(
    view: View, a: Analysis, table: tuple[tuple[int, ...], ...]
) -> tuple[Position, float, float] | None:
    """Exact look-ahead when few layouts remain: the cell to reveal that maximises the chance of
    winning, ``(pos, P(mine), P(win))``, or None if there are too many layouts to search."""
    cols, cells = view.cols, view.cells
    found = a.layout_list(_ENDGAME_LAYOUTS)
    if found is None or len(found[1]) < 2:
        return None
    unknown, layouts = found
    loose_cells = set(unknown)
    # shown[x][i]: the number x shows in layout i, or -1 where x is a mine there; covered cells
    # outside ``unknown`` are the known mines
    shown: dict[int, tuple[int, ...]] = {}
    for x in unknown:
        near = [j for j in table[x] if cells[j] in ".f"]
        fixed = sum(1 for j in near if j not in loose_cells)
        loose = [j for j in near if j in loose_cells]
        shown[x] = tuple(-1 if x in lay else fixed + sum(1 for j in loose if j in lay) for lay in layouts)
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


def _guess(view: View, a: Analysis) -> Move:
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
        return Move("flag", pos, f"unflag {format_position(pos)}: it is the safest covered cell", p)
    pmin = min(p for p, _ in cands)
    if len(cands) == 1:
        p, best = cands[0]
        return Move(
            "reveal",
            best,
            f"{format_position(best)} is the last covered cell: P(mine) = {percent(p)}",
            p,
        )

    end = _endgame(view, a, table) if a.layouts <= _ENDGAME_LAYOUTS else None
    if end is not None:
        pos, p, win = end
        why = (
            f"{format_position(pos)} is a guess: P(mine) = {percent(p)}; looking ahead through all "
            f"{a.layouts} layouts that fit, revealing it wins {percent(win)} of the time, the best"
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
    mines = frozenset(r * cols + c for r, c in a.mines)
    q = pmin * _NEXT_GUESS
    best_key: tuple[float, ...] | None = None
    best = close[0][2]
    best_info = (0.0, 0.0)
    for p, n_cov, pos in close:
        x = pos[0] * cols + pos[1]
        dist = a.number_distribution(pos)
        prog = _progress(rows, cols, cells, x, dist, mines)
        score = (1 - p) * (1 - (1 - prog) * q)
        key = (round(score, 12), -n_cov, -x)
        if best_key is None or key > best_key:
            best_key, best, best_info = key, pos, (p, prog)
    p, prog = best_info
    tie = sum(1 for c in close if c[0] <= p + _TIE)
    shared = f", shared by {tie} cells" if tie > 1 else ""
    lower = p > pmin + _TIE
    why = (
        f"{format_position(best)} is a guess: P(mine) = {percent(p)}"
        + (f" (the lowest is {percent(pmin)})" if lower else f", the lowest{shared}")
        + f"; if safe, {percent(prog)} chance it opens up or proves another cell safe"
        + (", which is worth the extra risk" if lower else "")
    )
    return Move("reveal", best, why, p)


def _exact_moves(view: View, *, flags: bool = False) -> list[Move]:
    """Every move :func:`exact` would make before it next needs to think: all certain reveals, or a
    guess. Playing them in order (skipping cells a cascade already opened) is the same game as calling
    :func:`exact` once per move."""
    rows, cols, cells = playable(view)
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
                Move("flag", p, analysis.reasons.get(p) or mine_reasons.get(p, ""), 1.0) for p in unflagged
            ]
    return [_guess(view, analysis)]


def exact(view: View) -> Move:
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


def exact_flags(view: View) -> Move:
    """:func:`exact`, but it also flags every mine it has proved before it guesses (slower to play;
    the same wins)."""
    return _exact_moves(view, flags=True)[0]
