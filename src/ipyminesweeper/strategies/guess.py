"""How :func:`~ipyminesweeper.strategies.exact` guesses when no cell is certainly safe.

In order (the rule of David Hill's JSMinesweeper, ``Minesweeper/client/solver_main.js``, adapted):

1. **An unavoidable pair first.** Two covered cells hold at most one mine between them (a number next to
   both needs exactly one more mine) and are *twins*: every other cell next to just one of them is a
   known mine, so no reveal can ever tell them apart. If one of them is a mine, the game can only be
   won through a 50/50 on the pair, sooner or later; if neither is, revealing one is safe. Either way
   the guess costs nothing more now than later, so it is taken now: a *forced 50/50* (P(mine) = 50%)
   or a *pseudo-50/50* (less).
2. **The endgame**: with at most :data:`~.endgame.ENDGAME_LAYOUTS` layouts left, an exact search for
   the reveal most likely to win the game (:mod:`.endgame`).
3. **An isolated region**: a closed-off part of the frontier that nothing else can inform (its layouts
   all hold the same number of mines, and its cells touch no other covered cell but known mines) is
   a game of its own that has to be played sooner or later. With at most
   :data:`~.endgame.ENDGAME_LAYOUTS` layouts, the same exact search picks the reveal most likely to
   solve it, and that is played now.
4. **Otherwise, look ahead.** Candidates are the frontier cells with ``P(safe)`` at least
   :data:`CUTOFF` (0.9) times the best, plus, when the interior is about as safe (:data:`INTERIOR`),
   interior cells two steps from a number or with few covered neighbours. Each gets a *secondary
   safety*: for each number ``k`` it could show, ``P(safe and shows k)`` times the chance that the next
   move is safe (1 when a cell is then proved safe, else a blend of the safest and second-safest
   cells, 4:1). Candidates are scored safest first; one that cannot beat the best so far is dropped
   half-way. A tiny bonus (:data:`PROGRESS_BONUS`) goes to cells whose number is likely to prove another
   cell safe. *Dead* cells (they can show only one number, so revealing one teaches nothing) go last.
   While the revealed cells are one region (at a game's first guess, and whenever the revealed areas
   have joined up), each score is also weighed by the cell's *50/50 influence* (:mod:`.influence`),
   as Hill's solvers weigh every guess: at the first guess a far corner, which could be half of a
   50/50 later, then beats a cell next to the first number.

Every guess carries its reason, e.g. "(4,7) is a guess: P(mine) = 18.0%, the lowest; if safe it most
likely shows a 1, which would prove (5,8) safe; 71.2% chance this guess and the next move are both
safe".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..engine import Position
from ..engine.geometry import neighbour_table
from ..solver import Analysis, InconsistentViewError, ViewLike, analyse, local_rules
from . import move_words
from .endgame import Endgame, best_endgame_move, best_region_move
from .influence import influence_factor
from .move import Move, evidence

__all__ = [
    "PROGRESS_BONUS",
    "Candidate",
    "Weighing",
    "best_guess",
    "candidate",
    "candidates",
    "early_guess",
    "forced_fifty_fifty",
    "guess",
    "one_region",
    "reveal_or_unflag",
    "second_order_safety",
    "unavoidable_pair",
    "weigh",
]

TIE = 1e-9  # probabilities closer than this are ties
CUTOFF = 0.9  # frontier candidates: P(safe) >= CUTOFF * the best P(safe)
INTERIOR = 0.95  # interior candidates join when their P(safe) > INTERIOR * the best frontier P(safe)
INTERIOR_ALL = 30  # with fewer interior cells than this, every one is a candidate
BLEND = 0.8  # weight of the safest next cell in the secondary safety; the second safest gets the rest
PROGRESS_BONUS = 0.001  # score = secondary safety * (1 + PROGRESS_BONUS * P(progress)): a tie-break


@dataclass(frozen=True)
class Candidate:
    """A cell the guess rule weighs: ``probability`` of a mine, ``progress`` (P(its number proves a
    cell safe | it is safe)), whether it is ``dead``, and after the look-ahead its ``safety`` (P(it and
    the next move are safe)) and ``score`` (the blended secondary safety with the progress bonus;
    None when dropped half-way)."""

    pos: Position
    probability: float
    progress: float
    covered_neighbours: int
    dead: bool
    dist: tuple[float, ...] = ()  # P(safe and shows k), k = 0..8
    safety: float | None = None
    score: float | None = None
    likely: int = 0  # the number it most likely shows if safe
    proves: tuple[int, ...] = ()  # cells that number would prove safe (flat indices)
    weight: float = 1.0  # the long-term weight its score got (1: none)


def one_region(view: ViewLike) -> bool:
    """Whether the revealed cells of ``view`` are one region, each reachable from the others through
    revealed neighbours: at the start of a game until a guess lands away from them, and again once
    the regions have joined up."""
    rows, cols, cells = view.rows, view.cols, view.cells
    table = neighbour_table(rows, cols)
    revealed = [i for i, ch in enumerate(cells) if ch not in ".f"]
    if not revealed:
        return True
    seen = {revealed[0]}
    todo = [revealed[0]]
    while todo:
        for j in table[todo.pop()]:
            if j not in seen and cells[j] not in ".f":
                seen.add(j)
                todo.append(j)
    return len(seen) == len(revealed)


def _around(rows: int, cols: int, x: int) -> set[int]:
    table = neighbour_table(rows, cols)
    out = {x, *table[x]}
    for j in table[x]:
        out.update(table[j])  # numbers two steps away can pair with the new one
    return out


def _shows(cells: str, x: int, k: int) -> str:
    return cells[:x] + chr(48 + k) + cells[x + 1 :]


def unavoidable_pair(view: ViewLike, analysis: Analysis) -> tuple[Position, Position] | None:
    """Two covered cells, neither decided, that hold at most one mine between them (a revealed number
    next to both needs exactly one more mine) and that no reveal can ever tell apart: every other cell
    next to just one of them is a known mine. Each then has the same P(mine), at most 50%. None if
    there is no such pair; the safest pair first, then reading order."""
    rows, cols, cells = view.rows, view.cols, view.cells
    table = neighbour_table(rows, cols)
    known = {r * cols + c for r, c in analysis.mines}
    probs = analysis.probabilities
    # (a cell next to no number shares no number with a neighbour: only the frontier counts)
    undecided = {
        r * cols + c
        for r, c in analysis.frontier
        if TIE < probs[(r, c)] < 1 - TIE and cells[r * cols + c] in ".f" and r * cols + c not in known
    }
    found: list[tuple[float, int, int]] = []
    for x in sorted(undecided):
        for y in table[x]:
            if y <= x or y not in undecided:
                continue
            nx, ny = set(table[x]) - {y}, set(table[y]) - {x}
            if any(j not in known for j in nx ^ ny):
                continue  # a cell next to only one of them could tell them apart
            for n in nx & ny:
                if "1" <= cells[n] <= "8":
                    need = ord(cells[n]) - 48 - sum(1 for j in table[n] if j in known)
                    if need == 1:
                        found.append((probs[divmod(x, cols)], x, y))
                        break
    if not found:
        return None
    _, x, y = min(found)
    return divmod(x, cols), divmod(y, cols)


def forced_fifty_fifty(view: ViewLike, analysis: Analysis) -> tuple[Position, Position] | None:
    """An :func:`unavoidable_pair` whose cells are each a 50% chance: exactly one mine between them."""
    pair = unavoidable_pair(view, analysis)
    if pair is None or abs(analysis.probabilities[pair[0]] - 0.5) >= TIE:
        return None
    return pair


def _next_moves(a: Analysis, x: int, k: int, hypo: str) -> tuple[float, float]:
    """After the cell ``x`` of the view analysed as ``a`` shows ``k`` (``hypo``), which the rules alone
    do not follow up: P(safe) of the safest and second-safest next move (1 and 1 when the exact count
    proves a cell safe)."""
    risks = a.next_risks(divmod(x, a.cols), k, hypo, 2)
    if not risks:
        return 1.0, 1.0
    return 1.0 - risks[0], 1.0 - risks[-1]


@dataclass(frozen=True)
class _Ahead:
    """What :func:`_look_ahead` found: P(x and the next move safe), the same blended with the
    second-safest next cell, P(x's number proves a cell safe | x safe), the number x most likely shows
    and the cells the rules then prove safe."""

    safety: float
    blended: float
    progress: float
    likely: int
    proves: tuple[int, ...]


def _look_ahead(
    a: Analysis,
    cells: str,
    x: int,
    dist: tuple[float, ...],
    known: frozenset[int],
    floor: float = -1.0,
) -> _Ahead | None:
    """Reveal ``x`` (``dist[k] = P(x is safe and shows k)``) in the view ``cells`` (analysed as ``a``)
    and look at the next move after each number it could show. None as soon as the blended safety
    cannot reach ``floor`` (each number left adds at most its probability to it)."""
    rows, cols = a.rows, a.cols
    around = _around(rows, cols, x)
    safety = blended = progress = 0.0
    left = sum(dist)
    likely = max(range(9), key=lambda k: (dist[k], -k))
    proves: tuple[int, ...] = ()
    for k in range(9):
        if dist[k] <= 0:
            continue
        if blended + left < floor:
            return None
        hypo = _shows(cells, x, k)
        proved = local_rules(hypo, rows, cols, around, known)[0]
        if k == likely:
            proves = tuple(sorted(proved))
        if proved:
            best = second = 1.0
            progress += dist[k]
        else:
            try:
                best, second = _next_moves(a, x, k, hypo)
            except InconsistentViewError:  # pragma: no cover - dist[k] > 0 means some layout fits
                continue
        safety += dist[k] * best
        blended += dist[k] * (BLEND * best + (1 - BLEND) * second)
        left -= dist[k]
    total = sum(dist)
    return _Ahead(safety, blended, progress / total if total > 0 else 0.0, likely, proves)


def second_order_safety(
    view: ViewLike,
    x: int,
    dist: tuple[float, ...],
    known: frozenset[int],
    analysis: Analysis | None = None,
) -> float:
    """``P(x is safe and so is the next move)`` in ``view``. ``dist[k] = P(x is safe and shows k)``.
    After ``x`` shows ``k``, the next move is certainly safe if a cell is then proved safe (a 0 opens
    its neighbours), else it is the safest cell of the new exact analysis. ``analysis``: the view's,
    if already made."""
    a = analyse(view, explain=False) if analysis is None else analysis
    got = _look_ahead(a, view.cells, x, dist, known)
    assert got is not None  # no floor: never dropped
    return got.safety


def candidate(view: ViewLike, a: Analysis, pos: Position) -> Candidate:
    """``pos`` as a candidate, before the look-ahead."""
    rows, cols, cells = view.rows, view.cols, view.cells
    table = neighbour_table(rows, cols)
    dist = a.number_distribution(pos)
    dead = sum(1 for d in dist if d > 0) <= 1 and dist[0] <= 0
    n_covered = sum(1 for j in table[pos[0] * cols + pos[1]] if cells[j] in ".f")
    return Candidate(pos, a.probabilities[pos], 0.0, n_covered, dead, dist)


def candidates(view: ViewLike, a: Analysis) -> list[Candidate]:
    """The cells worth weighing (step 4), live before dead, then safest first."""
    rows, cols, cells = view.rows, view.cols, view.cells
    table = neighbour_table(rows, cols)
    probs = a.probabilities  # the listed cells, then the interior's: one risk for all, none in the frontier
    covered = {pos: p for pos, p in probs.listed.items() if cells[pos[0] * cols + pos[1]] == "."}
    frontier = [pos for pos in covered if pos in a.frontier]
    inner = [pos for pos in covered if pos not in a.frontier]
    interior = [pos for pos in probs.interior if cells[pos[0] * cols + pos[1]] == "."]
    inner += interior
    best_safe = 1 - min([*covered.values(), probs.interior_p] if interior else covered.values())
    picked = [pos for pos in frontier if 1 - covered[pos] >= CUTOFF * best_safe - TIE]
    best_frontier = max((1 - covered[pos] for pos in frontier), default=0.0)

    def n_covered(pos: Position) -> int:
        return sum(1 for j in table[pos[0] * cols + pos[1]] if cells[j] in ".f")

    if inner and 1 - covered.get(inner[0], probs.interior_p) > INTERIOR * best_frontier:
        if len(inner) < INTERIOR_ALL:
            picked += inner
        else:
            # two steps (in a line) from a number next to the frontier, or few covered neighbours
            witnesses = {
                j for pos in frontier for j in table[pos[0] * cols + pos[1]] if "1" <= cells[j] <= "8"
            }
            near = set()
            for w in witnesses:
                r, c = divmod(w, cols)
                for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)):
                    near.add((r + dr, c + dc))
            picked += [pos for pos in inner if pos in near or 1 < n_covered(pos) < 4]
    out = [candidate(view, a, pos) for pos in picked]
    out.sort(key=lambda c: (c.dead, round(c.probability, 12), c.covered_neighbours, c.pos))
    return out


def _rank(c: Candidate) -> tuple[bool, float, float, float, int, tuple[int, int]]:
    """Best first: live before dead, then score, then safety, then progress, then fewer covered
    neighbours."""
    return (
        c.dead,
        -round(c.score or 0.0, 9),
        round(c.probability, 12),
        -round(c.progress, 12),
        c.covered_neighbours,
        c.pos,
    )


@dataclass
class Weighing:
    """The look-ahead of one view (analysed as ``a``) under way: the candidates scored, those dropped
    half-way, and the best live score so far; ``weighted``: each score weighed by the cell's 50/50
    influence. (A class, not a closure: a closure that the compiled build keeps in a cycle with its
    frame would hold what it holds until the garbage collector runs.)"""

    view: ViewLike
    a: Analysis
    known: frozenset[int]
    weighted: bool
    scored: list[Candidate] = field(default_factory=list)
    dropped: list[Candidate] = field(default_factory=list)
    best: float = -1.0

    def consider(self, c: Candidate) -> None:
        """Score ``c``, or drop it as soon as it cannot reach the best score."""
        weight = influence_factor(self.view, self.a, c.pos) if self.weighted else 1.0
        floor = self.best / ((1 + PROGRESS_BONUS) * weight)
        x = c.pos[0] * self.view.cols + c.pos[1]
        got = _look_ahead(self.a, self.view.cells, x, c.dist, self.known, floor)
        if got is None:
            self.dropped.append(c)
            return
        score = got.blended * weight * (1 + PROGRESS_BONUS * got.progress)
        self.scored.append(
            replace(
                c,
                safety=got.safety,
                score=score,
                progress=got.progress,
                likely=got.likely,
                proves=got.proves,
                weight=weight,
            )
        )
        if not c.dead:
            self.best = max(self.best, score)

    def ranked(self) -> list[Candidate]:
        """The candidates scored, best first, then those dropped half-way (with no score)."""
        return sorted(self.scored, key=_rank) + self.dropped


def weigh(view: ViewLike, a: Analysis) -> list[Candidate]:
    """The candidates of the look-ahead (step 4) on ``view`` (analysed as ``a``), each weighed, best
    first; those dropped half-way come last, with no score. Weighed by 50/50 influence while the
    revealed cells are one region (:func:`one_region`)."""
    weighing = Weighing(view, a, frozenset(r * view.cols + c for r, c in a.mines), one_region(view))
    for c in candidates(view, a):
        weighing.consider(c)
    return weighing.ranked()


def guess(view: ViewLike, a: Analysis) -> Move:
    """The guess of :func:`~ipyminesweeper.strategies.exact` on a view with no certainly safe cell (analysed
    as ``a``): steps 1-3 (:func:`early_guess`), else the look-ahead's best cell (:func:`weigh`)."""
    early = early_guess(view, a)
    return early if early is not None else best_guess(view, a, weigh(view, a))


def early_guess(view: ViewLike, a: Analysis) -> Move | None:
    """The guess before any look-ahead: a flag taken back when every covered cell is a mine, the last
    covered cell, an unavoidable pair (step 1), the endgame search (2), an isolated region (3); else None."""
    cols, cells = view.cols, view.cells
    cands = [(p, pos) for pos, p in a.probabilities.items() if cells[pos[0] * cols + pos[1]] == "."]
    pmin = min((p for p, _ in cands), default=1.0)
    if pmin >= 1.0:  # every covered cell is a mine (or none is left): a flag is wrong, take back the safest
        p, pos = min((p, pos) for pos, p in a.probabilities.items())
        if p < pmin or not cands:
            return Move("flag", pos, move_words.unflag(pos, move_words.safest_flagged()), p)
    if len(cands) == 1:
        p, pos = cands[0]
        return Move("reveal", pos, move_words.last_covered(pos, p), p)
    pair = unavoidable_pair(view, a)
    if pair is not None and cells[pair[0][0] * cols + pair[0][1]] == ".":
        return _pair_move(view, a, pair)
    end = best_endgame_move(view, a)
    if end is not None:
        why = move_words.endgame_search(end.pos, end.probability, end.layouts, end.win)
        return _searched(view, end, why)
    region = best_region_move(view, a)
    if region is not None:
        why = move_words.region_search(
            region.pos, region.probability, region.cells, region.layouts, region.win
        )
        return _searched(view, region, why)
    return None


def best_guess(view: ViewLike, a: Analysis, ranked: list[Candidate]) -> Move:
    """Reveal the first of the look-ahead's ``ranked`` candidates (step 4), saying why."""
    cols, cells, best = view.cols, view.cells, ranked[0]
    covered = [p for pos, p in a.probabilities.items() if cells[pos[0] * cols + pos[1]] == "."]
    pmin = min(covered, default=1.0)
    return Move(
        "reveal",
        best.pos,
        _guess_reason(best, pmin, sum(1 for p in covered if p <= best.probability + TIE), cols),
        best.probability,
        numbers=evidence(view, best.pos)[0],
        constrained=tuple(divmod(j, cols) for j in best.proves),
    )


def _searched(view: ViewLike, found: Endgame, why: str) -> Move:
    """Reveal the cell an exact search chose (unflag it first if the player flagged it)."""
    numbers, constrained = evidence(view, found.pos)
    return reveal_or_unflag(view, found.pos, why, found.probability, numbers, constrained)


def reveal_or_unflag(
    view: ViewLike,
    pos: Position,
    why: str,
    probability: float | None,
    numbers: tuple[Position, ...] = (),
    constrained: tuple[Position, ...] = (),
) -> Move:
    """Reveal ``pos``; or, if the player flagged it, unflag it, saying it is revealed next."""
    if view.cells[pos[0] * view.cols + pos[1]] == "f":
        why = move_words.unflag(pos, why)
        return Move("flag", pos, why, probability, numbers=numbers, constrained=constrained)
    return Move("reveal", pos, why, probability, numbers=numbers, constrained=constrained)


def _pair_move(view: ViewLike, a: Analysis, pair: tuple[Position, Position]) -> Move:
    pos, other = pair
    p = a.probabilities[pos]
    numbers, _ = evidence(view, pos)
    why = move_words.forced_pair(pos, other) if abs(p - 0.5) < TIE else move_words.pair_guess(pos, other, p)
    return Move("reveal", pos, why, p, numbers=numbers, constrained=(pos, other))


def _guess_reason(c: Candidate, pmin: float, tie: int, cols: int) -> str:
    return move_words.guessed(
        c.pos,
        c.probability,
        pmin if c.probability > pmin + TIE else None,
        tie,
        dead=c.dead,
        likely=c.likely,
        proves=tuple(divmod(j, cols) for j in c.proves),
        safety=c.safety or 0.0,
        weight=c.weight,
    )
