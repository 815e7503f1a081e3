"""How :func:`~ipyminesweeper.play.exact` guesses when no cell is certainly safe.

In order:

1. **A forced 50/50 first.** Two cells share one mine and nothing the player can ever reveal touches
   them: the guess cannot be avoided, so it is taken now (it costs nothing more later, and a lost game
   ends sooner).
2. **The endgame**: with at most :data:`~.endgame.ENDGAME_LAYOUTS` layouts left, an exact search for
   the reveal most likely to win the game (:mod:`.endgame`).
3. **Otherwise, look ahead.** Candidates are the cells almost as safe as the safest. Each gets a
   *progress* score (first order): its chance of being safe, discounted when its number is unlikely to
   prove another cell safe. The best few by that score are looked at one level deeper (second order):
   for each number the cell could show, the chance that the next move is safe too (1 when the rules
   would then prove a cell safe, else the safest cell's chance). The cell with the best chance of
   surviving both moves wins; a *dead* cell (one that can show only one number, so revealing it
   teaches nothing) comes after a live one with the same chance.

Every guess carries its reason, e.g. "(4,7) is a guess: P(mine) = 18.0%, the lowest; if safe it most
likely shows a 1, which would prove (5,8) safe".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..engine import Position, format_position
from ..engine.geometry import neighbour_table
from ..solver import Analysis, InconsistentViewError, analyse, local_rules
from ..solver.wording import join_words, percent
from .endgame import best_endgame_move
from .move import Move, evidence

__all__ = ["Candidate", "forced_fifty_fifty", "guess", "second_order_safety"]

TIE = 1e-9  # probabilities closer than this are ties
TOLERANCE = 0.1  # first-order candidates: P(mine) <= lowest * (1 + this)
FRONTIER_CANDIDATES = 12  # frontier candidates scored
INTERIOR_CANDIDATES = 4  # interior candidates scored (the fewest covered neighbours first)
NEAR_FRONTIER = 8  # interior candidates next to the frontier scored
LOOK_AHEAD = 6  # candidates looked at one level deeper


@dataclass(frozen=True)
class _Hypothesis:
    """A view in which one more cell shows a number (what the look-ahead analyses)."""

    rows: int
    cols: int
    mines: int
    cells: str


@dataclass(frozen=True)
class Candidate:
    """A cell the guess rule weighs: ``probability`` of a mine, first-order ``first_order`` score,
    second-order ``safety`` (None when not looked at), and whether it is ``dead``."""

    pos: Position
    probability: float
    first_order: float  # P(safe), discounted when its number is unlikely to help
    covered_neighbours: int
    dead: bool
    dist: tuple[float, ...] = ()  # P(safe and shows k), k = 0..8
    proofs: tuple[frozenset[int] | None, ...] = ()  # per k: the cells the rules then prove safe
    safety: float | None = None
    likely: int = 0  # the number it most likely shows if safe
    proves: tuple[int, ...] = ()  # cells that number would prove safe (flat indices)


def _around(rows: int, cols: int, x: int) -> set[int]:
    table = neighbour_table(rows, cols)
    out = {x, *table[x]}
    for j in table[x]:
        out.update(table[j])  # numbers two steps away can pair with the new one
    return out


def _shows(cells: str, x: int, k: int) -> str:
    return cells[:x] + chr(48 + k) + cells[x + 1 :]


def forced_fifty_fifty(
    rows: int, cols: int, cells: str, analysis: Analysis
) -> tuple[Position, Position] | None:
    """Two covered cells that hold exactly one mine, each a 50% chance, where every other cell next
    to either is revealed or a known mine: no future reveal can tell them apart. None if there is no
    such pair."""
    table = neighbour_table(rows, cols)
    known = {r * cols + c for r, c in analysis.mines}
    probs = analysis.probabilities
    halves = sorted(
        r * cols + c for (r, c), p in probs.items() if abs(p - 0.5) < TIE and cells[r * cols + c] in ".f"
    )
    half = set(halves)
    for x in halves:
        for y in table[x]:
            if y <= x or y not in half:
                continue
            others = (set(table[x]) | set(table[y])) - {x, y}
            if any(cells[j] in ".f" and j not in known for j in others):
                continue  # a cell still to reveal could tell them apart
            # a number next to both needs exactly one more mine among them
            for n in others:
                if "1" <= cells[n] <= "8" and x in table[n] and y in table[n]:
                    need = ord(cells[n]) - 48 - sum(1 for j in table[n] if j in known)
                    if need == 1:
                        return divmod(x, cols), divmod(y, cols)
    return None


def second_order_safety(
    rows: int,
    cols: int,
    mines: int,
    cells: str,
    x: int,
    dist: tuple[float, ...],
    known: frozenset[int],
    proofs: Sequence[frozenset[int] | None] = (),
) -> tuple[float, int, tuple[int, ...]]:
    """``P(x is safe and so is the next move)``, with the number ``x`` most likely shows and the cells
    that number would prove safe.

    ``dist[k] = P(x is safe and shows k)``. After ``x`` shows ``k``, the next move is certainly safe
    if the rules prove a cell safe (a 0 opens its neighbours), else it is the safest cell of the new
    exact analysis. ``proofs[k]``, where given, is what the rules prove after ``x`` shows ``k`` (so the
    first-order scoring's work is not done twice).
    """
    around = _around(rows, cols, x)
    total = 0.0
    likely = max(range(9), key=lambda k: (dist[k], -k))
    proves: tuple[int, ...] = ()
    for k in range(9):
        if dist[k] <= 0:
            continue
        hypo = _shows(cells, x, k)
        known_safe = proofs[k] if k < len(proofs) else None
        safe = known_safe if known_safe is not None else local_rules(hypo, rows, cols, around, known)[0]
        if k == likely:
            proves = tuple(sorted(safe))
        if safe:
            total += dist[k]
            continue
        try:
            after = analyse(_Hypothesis(rows, cols, mines, hypo), explain=False)
        except InconsistentViewError:  # pragma: no cover - dist[k] > 0 means some layout fits
            continue
        if any(hypo[r * cols + c] in ".f" for r, c in after.safe):
            total += dist[k]
            continue
        lowest = min(
            (p for (r, c), p in after.probabilities.items() if hypo[r * cols + c] == "."), default=1.0
        )
        total += dist[k] * (1.0 - lowest)
    return total, likely, proves


def _progress(
    rows: int, cols: int, cells: str, x: int, dist: tuple[float, ...], known: frozenset[int]
) -> tuple[float, tuple[frozenset[int] | None, ...]]:
    """P(revealing ``x`` makes progress | ``x`` is safe): it shows a 0, or its number lets the rules
    prove another cell safe. Also returns, per number ``k`` it was worked out for, the cells proved."""
    proofs: list[frozenset[int] | None] = [None] * 9
    safe = sum(dist)
    if safe <= 0:
        return 0.0, tuple(proofs)
    good = dist[0]
    around = _around(rows, cols, x)
    for k in range(1, 9):
        if dist[k] > 0:
            proofs[k] = local_rules(_shows(cells, x, k), rows, cols, around, known)[0]
            if proofs[k]:
                good += dist[k]
    return good / safe, tuple(proofs)


def _candidates(rows: int, cols: int, cells: str, a: Analysis, pmin: float) -> list[Candidate]:
    """The cells worth weighing, scored at the first order."""
    table = neighbour_table(rows, cols)
    known = frozenset(r * cols + c for r, c in a.mines)
    limit = pmin + TOLERANCE * max(pmin, 0.01)

    def covered_nbrs(pos: Position) -> int:
        return sum(1 for j in table[pos[0] * cols + pos[1]] if cells[j] in ".f")

    close = sorted(
        (p, covered_nbrs(pos), pos)
        for pos, p in a.probabilities.items()
        if p <= limit and cells[pos[0] * cols + pos[1]] == "."
    )
    frontier = a.frontier
    inner = [c for c in close if c[2] not in frontier]
    # interior cells next to the frontier: their number can combine with the numbers nearby
    near = [c for c in inner if any(divmod(j, cols) in frontier for j in table[c[2][0] * cols + c[2][1]])]
    inner = (
        inner[:INTERIOR_CANDIDATES]
        + [c for c in near if c not in inner[:INTERIOR_CANDIDATES]][:NEAR_FRONTIER]
    )
    close = [c for c in close if c[2] in frontier][:FRONTIER_CANDIDATES] + inner
    out = []
    for p, n_cov, pos in close:
        x = pos[0] * cols + pos[1]
        dist = a.number_distribution(pos)
        prog, proofs = _progress(rows, cols, cells, x, dist, known)
        score = (1 - p) * (1 - (1 - prog) * pmin)  # a later guess costs about the lowest P(mine)
        dead = sum(1 for d in dist if d > 0) <= 1 and dist[0] <= 0
        out.append(Candidate(pos, p, score, n_cov, dead, dist, proofs))
    out.sort(key=lambda c: (-round(c.first_order, 12), c.covered_neighbours, c.pos))
    return out


def guess(rows: int, cols: int, mines: int, cells: str, a: Analysis) -> Move:
    """The guess of :func:`~ipyminesweeper.play.exact` on a view with no certainly safe cell."""
    cands = [(p, pos) for pos, p in a.probabilities.items() if cells[pos[0] * cols + pos[1]] == "."]
    if not cands:  # only flagged cells left: unflag the safest
        p, pos = min((p, pos) for pos, p in a.probabilities.items())
        return Move("flag", pos, f"unflag {format_position(pos)}: it is the safest covered cell", p)
    pmin = min(p for p, _ in cands)
    if len(cands) == 1:
        p, pos = cands[0]
        return Move(
            "reveal", pos, f"{format_position(pos)} is the last covered cell: P(mine) = {percent(p)}", p
        )
    pair = forced_fifty_fifty(rows, cols, cells, a)
    if pair is not None and cells[pair[0][0] * cols + pair[0][1]] == ".":
        pos, other = pair
        numbers, _ = evidence(rows, cols, cells, pos)
        why = (
            f"{format_position(pos)} is a forced guess: it and {format_position(other)} hold one mine"
            " between them, and no cell left to reveal can tell which; a 50/50 that has to be taken"
            " sooner or later, so take it now"
        )
        return Move("reveal", pos, why, a.probabilities[pos], numbers=numbers, constrained=(pos, other))
    end = best_endgame_move(rows, cols, cells, a)
    if end is not None:
        numbers, constrained = evidence(rows, cols, cells, end.pos)
        why = (
            f"{format_position(end.pos)} is a guess: P(mine) = {percent(end.probability)}; looking ahead"
            f" through all {end.layouts} layouts that fit, revealing it wins {percent(end.win)} of the"
            " time, the best"
        )
        return Move("reveal", end.pos, why, end.probability, numbers=numbers, constrained=constrained)
    scored = _candidates(rows, cols, cells, a, pmin)
    known = frozenset(r * cols + c for r, c in a.mines)
    deep = []
    for c in scored[:LOOK_AHEAD]:
        x = c.pos[0] * cols + c.pos[1]
        safety, likely, proves = second_order_safety(rows, cols, mines, cells, x, c.dist, known, c.proofs)
        deep.append(replace(c, safety=safety, likely=likely, proves=proves))
    best = max(
        deep,
        key=lambda c: (
            round(c.safety or 0.0, 9),
            not c.dead,
            round(c.first_order, 12),
            -c.covered_neighbours,
            c.pos,
        ),
    )
    return Move(
        "reveal",
        best.pos,
        _guess_reason(best, pmin, sum(1 for p, _ in cands if p <= best.probability + TIE), cols),
        best.probability,
        numbers=evidence(rows, cols, cells, best.pos)[0],
        constrained=tuple(divmod(j, cols) for j in best.proves),
    )


def _guess_reason(c: Candidate, pmin: float, tie: int, cols: int) -> str:
    lower = c.probability > pmin + TIE
    shared = f", shared by {tie} cells" if tie > 1 else ""
    why = f"{format_position(c.pos)} is a guess: P(mine) = {percent(c.probability)}"
    why += f" (the lowest is {percent(pmin)})" if lower else f", the lowest{shared}"
    if c.dead:
        why += "; it can only show one number, but no live cell is as good"
    elif c.likely == 0:
        why += "; if safe it most likely shows a 0 and opens up"
    else:
        why += f"; if safe it most likely shows a {c.likely}"
        if c.proves:
            named = [format_position(divmod(j, cols)) for j in c.proves[:3]]
            if len(c.proves) > 3:
                named.append(f"{len(c.proves) - 3} more")
            why += f", which would prove {join_words(named)} safe"
    why += f"; {percent(c.safety or 0.0)} chance this guess and the next move are both safe"
    return why
