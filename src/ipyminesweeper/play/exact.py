"""``exact``: certain moves first, then the safest guess by exact probabilities, each move explained.

The strategy reads only the player's view. Certain cells come from the solver
(:mod:`ipyminesweeper.solver`); when there are none it guesses, weighing each candidate's chance of being
safe against its chance of making progress.
"""

from __future__ import annotations

from ..engine import Position, View, format_position
from ..engine.geometry import neighbour_table
from ..solver import Analysis, analyse, deduce
from ..solver.wording import percent
from .move import Move, playable

__all__ = ["changed_numbers", "exact", "exact_flags", "local_rules", "opening_cell"]


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
        if local_rules(hypo, table, dirty, set(mines)):
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
    view: View, a: Analysis, table: tuple[tuple[int, ...], ...]
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


def local_rules(cells: str, table: tuple[tuple[int, ...], ...], dirty: set[int], mines: set[int]) -> set[int]:
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


def changed_numbers(old: str, new: str, table: tuple[tuple[int, ...], ...]) -> set[int]:
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
