"""The deduction rules, written once: single point, pairs (the subset rule) and the global count.

- **single point**: a number that already touches its mines frees its other covered neighbours; a number
  with exactly as many undecided cells as missing mines makes them all mines;
- **pairs**: for two numbers A and B sharing cells, the mines in ``A \\ B`` minus those in ``B \\ A``
  equal ``need(A) - need(B)``; when that equals ``|A \\ B|``, the cells of ``A \\ B`` are mines and those
  of ``B \\ A`` are safe (the subset rule is the case ``A \\ B`` or ``B \\ A`` empty);
- **global count**: no mine left frees every unknown cell; as many mines left as unknown cells makes
  them all mines.

A :class:`Reasoner` applies them to a fixpoint over a set of constraints, each rule using what the
others found, and (when asked) words a reason for every cell it decides. The rules are sound and
monotone, so the *set* of cells decided at the fixpoint does not depend on the order of work (only the
notes of which rule decided a cell do): a Reasoner can be kept between moves and told what changed
(:meth:`Reasoner.reveal`, :meth:`Reasoner.add`); running it again then decides exactly the cells a
fresh one would on the new view. Everything that deduces uses
it: :func:`~ipyminesweeper.solver.deduce` (all rules, with reasons), :func:`propagate` (single points,
before counting), :func:`local_rules` (a few numbers around a change: the autoplayer's look-ahead and
no-guess generation). Only the counting in :mod:`.count` goes further, and it is exact.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from itertools import compress, filterfalse
from typing import Any

from ..engine.geometry import format_position, neighbour_table
from . import sentences
from .constraints import Constraint, ConstraintSystem, InconsistentViewError, Propagated, number_constraints
from .sentences import plural

__all__ = ["Reasoner", "local_rules", "propagate"]

Live = tuple[Constraint, int, frozenset[int]]  # a number, the mines it still needs, its undecided cells
# the note of the rule that decided a cell, worded only when asked (Reasoner.reason):
# ("single", constraint index, need, undecided cells), ("pair", A, need(A), B, need(B), A's undecided
# cells, B's), or ("count", mines left, unknown cells)
Why = tuple[Any, ...]


class Reasoner:
    """The three rules over ``constraints`` (flat cell indices on a board ``cols`` wide), to a fixpoint.

    ``covered`` and ``mines`` (all the covered cells and the mines among them) enable the global
    count; leave them out when the constraints are only part of the board. After :meth:`run`, ``safe``
    and ``mines`` hold the decided cells, each with a note of the rule that decided it; :meth:`reason`
    words that note (only when asked: most callers never read the reasons). Raises
    ``InconsistentViewError`` on a contradiction.

    Kept between moves (with ``covered`` given), it is told what changed: :meth:`reveal` for cells
    newly revealed, :meth:`add` for the new numbers; the next :meth:`run` only re-examines the pairs of
    numbers whose state changed since its last fixpoint (``dirty``). ``pending`` holds the decided safe
    cells still covered.
    """

    def __init__(
        self,
        constraints: Sequence[Constraint],
        cols: int,
        *,
        covered: Sequence[int] | None = None,
        mines: int | None = None,
    ) -> None:
        self.constraints = list(constraints)
        self.cols = cols
        self.total = mines
        self.counting = covered is not None  # the global count needs every covered cell
        self.is_covered: set[int] = set(covered) if covered is not None else set()
        self.unknown = len(self.is_covered)  # covered cells not decided yet (for the global count)
        self.pending: set[int] = set()  # decided safe cells still covered
        self.dirty: set[int] = set()  # numbers whose state changed since the last fixpoint
        self.incremental = False  # pairs(): only pairs with a dirty number (after the first fixpoint)
        self.safe: dict[int, Why] = {}
        self.mines: dict[int, Why] = {}
        self.sources: dict[int, tuple[int, ...]] = {}  # decided cell: the numbers that decided it
        # per number: mines still needed and cells still undecided (kept up to date by decide)
        self.need = [con.value for con in self.constraints]
        self.open = [len(con.cells) for con in self.constraints]
        self.of_cell: defaultdict[int, list[int]] = defaultdict(list)  # cell: the numbers next to it
        of_cell = self.of_cell
        for ci, con in enumerate(self.constraints):
            if con.value < 0 or con.value > len(con.cells):
                raise InconsistentViewError(
                    f"{self.number(con.value, con.source)} has only "
                    f"{plural(len(con.cells), 'covered neighbour')} left for its mines"
                )
            for cell in con.cells:
                of_cell[cell].append(ci)
        # numbers whose undecided cells are all safe or all mines
        self.queue = [ci for ci in range(len(self.constraints)) if self.need[ci] in (0, self.open[ci])]

    def run(self, *, pairs: bool = True) -> Reasoner:
        """Apply the rules until none decides anything more (``pairs=False``: single points and the
        global count only). Returns ``self``."""
        while self.single_points() or (pairs and self.pairs()) or self.global_count():
            pass
        # at the fixpoint no pair fires; a pair only fires again once one of its numbers changes
        self.dirty.clear()
        self.incremental = pairs
        return self

    # -- between moves ---------------------------------------------------------------------------

    def reveal(self, cells: Iterable[int]) -> None:
        """Covered ``cells`` the player has revealed: decided safe (if not yet) and no longer covered.

        Raises ``InconsistentViewError`` if one was a deduced mine."""
        for i in cells:
            if i in self.mines:
                raise InconsistentViewError(f"{self.label(i)} is revealed but the rules made it a mine")
            if i not in self.safe:
                self.decide(i, False, ("revealed",))
            self.is_covered.discard(i)
            self.pending.discard(i)

    def add(self, constraints: Iterable[Constraint]) -> None:
        """New numbers (their covered neighbours, mines already deduced among them included)."""
        safe, mines = self.safe, self.mines
        for con in constraints:
            ci = len(self.constraints)
            need, open_ = con.value, 0
            for c in con.cells:
                if c in mines:
                    need -= 1
                elif c not in safe:
                    open_ += 1
            if need < 0 or need > open_:
                raise InconsistentViewError(
                    f"{self.number(con.value, con.source)} has only {plural(open_, 'undecided neighbour')}"
                    f" left for its {need} missing mines"
                )
            self.constraints.append(con)
            self.need.append(need)
            self.open.append(open_)
            for cell in con.cells:
                self.of_cell[cell].append(ci)
            if open_:
                self.dirty.add(ci)
                if need in (0, open_):
                    self.queue.append(ci)

    # -- positions, for the sentences (solver/sentences.py) ----------------------------------------

    def pos(self, i: int) -> tuple[int, int]:
        """``(row, col)`` of flat index ``i``."""
        row, col = divmod(i, self.cols)
        return (row, col)

    def label(self, i: int) -> str:
        """``"(r,c)"`` of flat index ``i``."""
        return format_position(self.pos(i))

    def number(self, value: int, source: int) -> str:
        """``"the 2 at (3,4)"``."""
        return sentences.number(value, self.pos(source))

    # -- deciding a cell -------------------------------------------------------------------------

    def decide(self, i: int, mine: bool, why: Why, sources: tuple[int, ...] = ()) -> None:
        """Record that cell ``i`` is a mine (or safe), decided by the numbers at ``sources``, and
        update every number around it."""
        self.decide_all((i,), mine, why, sources)

    def decide_all(self, cells: Iterable[int], mine: bool, why: Why, sources: tuple[int, ...] = ()) -> None:
        """:meth:`decide` each of ``cells`` in turn, for the same reason (a rule decides cells in groups)."""
        mine_list, other = (self.mines, self.safe) if mine else (self.safe, self.mines)
        bit = 1 if mine else 0
        need, open_, dirty, queue = self.need, self.open, self.dirty, self.queue
        of_cell, is_covered = self.of_cell, self.is_covered
        for i in cells:
            if i in other:
                raise InconsistentViewError(f"{self.label(i)} would have to be both safe and a mine")
            if i in mine_list:
                continue
            mine_list[i] = why
            self.sources[i] = sources
            if i in is_covered:
                self.unknown -= 1
                if not mine:
                    self.pending.add(i)
            for ci in of_cell.get(i, ()):
                dirty.add(ci)
                n = need[ci] = need[ci] - bit
                u = open_[ci] = open_[ci] - 1
                if n < 0 or n > u:
                    con = self.constraints[ci]
                    raise InconsistentViewError(
                        f"{self.number(con.value, con.source)} cannot be satisfied: the cells"
                        f" deduced around it leave {con.value - n} mines next to it and room for"
                        f" {u} more"
                    )
                if u and (n == 0 or n == u):
                    queue.append(ci)

    def undecided(self, cells: Iterable[int]) -> list[int]:
        """The cells of ``cells`` not decided yet."""
        safe, mines = self.safe, self.mines
        return [c for c in cells if c not in safe and c not in mines]

    # -- the rules -------------------------------------------------------------------------------

    def single_points(self) -> bool:
        """Fire every number whose undecided cells are all safe or all mines (a worklist)."""
        changed = False
        cons, queue, open_ = self.constraints, self.queue, self.open
        while queue:
            ci = queue.pop()
            if not open_[ci]:
                continue
            con = cons[ci]
            need = self.need[ci]
            unknown = tuple(self.undecided(con.cells))
            self.decide_all(unknown, need > 0, ("single", ci, need, unknown), (con.source,))
            changed = True
        return changed

    def reason(self, i: int) -> str:
        """Why cell ``i`` is decided, in words: ``"(3,4) is safe: the 1 at (2,3) already touches ..."``."""
        why = self.mines.get(i)
        mine = why is not None
        if why is None:
            why = self.safe[i]
        pos = self.pos
        if why[0] == "single":
            _, ci, need, unknown = why
            con = self.constraints[ci]
            # the mines the number touched before it fired (not the ones it decides)
            known = [pos(c) for c in con.cells if c in self.mines and c not in unknown]
            every = len(unknown) == len(con.cells)
            text = sentences.single_point(
                con.value, pos(con.source), need, known, [pos(c) for c in unknown], every
            )
        elif why[0] == "pair":
            _, con_a, na, con_b, nb, ua, ub = why
            text = sentences.pair(
                (con_a.value, pos(con_a.source), na),
                (con_b.value, pos(con_b.source), nb),
                [pos(c) for c in sorted(ua & ub)],
                [pos(c) for c in sorted(ua - ub)],
                [pos(c) for c in sorted(ub - ua)],
            )
        else:
            text = sentences.counted(self.total or 0, why[1], why[2])
        return sentences.decided(pos(i), mine, text)

    def pairs(self) -> bool:
        """The pair rule over every two numbers that share an undecided cell (after the first
        fixpoint: only the pairs with a number whose state changed since the last pass)."""
        if self.incremental:
            return self.dirty_pairs()
        self.dirty.clear()  # every pair is examined now
        live: list[Live] = []
        for ci, con in enumerate(self.constraints):
            if self.open[ci]:
                live.append((con, self.need[ci], frozenset(self.undecided(con.cells))))
        by_cell: dict[int, list[int]] = {}
        for li, (_, _, unknown) in enumerate(live):
            for c in unknown:
                if c in by_cell:
                    by_cell[c].append(li)
                else:
                    by_cell[c] = [li]
        seen: set[tuple[int, int]] = set()
        changed = False
        for lis in by_cell.values():
            for x in lis:
                for y in lis:
                    if x == y or (x, y) in seen or live[x][1] < live[y][1]:
                        continue
                    seen.add((x, y))
                    if self.pair(live[x], live[y]):
                        changed = True
        return changed

    def dirty_pairs(self) -> bool:
        """The pair rule over the pairs sharing an undecided cell with at least one dirty number.

        The others are as they were when last examined, when they decided nothing new."""
        dirty, self.dirty = self.dirty, set()
        live: dict[int, Live] = {}
        cons, need, open_, of_cell = self.constraints, self.need, self.open, self.of_cell

        def snapshot(ci: int) -> Live:
            got = live.get(ci)
            if got is None:
                got = live[ci] = (cons[ci], need[ci], frozenset(self.undecided(cons[ci].cells)))
            return got

        seen: set[tuple[int, int]] = set()
        changed = False
        for x in sorted(dirty):
            if not open_[x]:
                continue
            lx = snapshot(x)
            for c in sorted(lx[2]):
                for y in of_cell[c]:
                    if y == x or not open_[y]:
                        continue
                    key = (x, y) if x < y else (y, x)
                    if key in seen:
                        continue
                    seen.add(key)
                    ly = snapshot(y)  # the rule is sound for any two numbers, snapshots of any age
                    if lx[1] >= ly[1] and self.pair(lx, ly):
                        changed = True
                    if ly[1] >= lx[1] and self.pair(ly, lx):
                        changed = True
        return changed

    def pair(self, a: Live, b: Live) -> bool:
        """If ``need(A) - need(B) == |A \\ B|``: ``A \\ B`` are mines and ``B \\ A`` safe."""
        con_a, na, ua = a
        con_b, nb, ub = b
        only_a = ua - ub
        only_b = ub - ua
        if na - nb != len(only_a) or not (only_a or only_b):
            return False
        if not self.undecided(only_a | only_b):
            return False
        why: Why = ("pair", con_a, na, con_b, nb, ua, ub)
        sources = (con_a.source, con_b.source)
        self.decide_all(sorted(only_a), True, why, sources)
        self.decide_all(sorted(only_b), False, why, sources)
        return True

    def global_count(self) -> bool:
        """No mine left, or as many mines left as unknown cells (needs ``covered`` and ``mines``)."""
        if not self.counting or self.total is None or not self.unknown:
            return False
        n = self.unknown  # kept by decide and reveal: no scan of the covered cells
        left = self.total - len(self.mines)
        if left < 0 or left > n:
            raise InconsistentViewError(f"the deductions leave {left} mines for {n} unknown cells")
        if left != 0 and left != n:
            return False
        unknown = self.undecided(sorted(self.is_covered))
        if len(unknown) != n:  # pragma: no cover - decide and reveal keep the count
            raise AssertionError(f"{n} unknown cells counted, {len(unknown)} found")
        why: Why = ("count", left, n)
        self.decide_all(unknown, left > 0, why)
        return True


def propagate(system: ConstraintSystem) -> Propagated:
    """Decide every cell the single-point rule decides (to a fixpoint) and take them out.

    Deciding these first keeps the enumeration small (the mines a player has found stay covered and
    would otherwise sit in the frontier) and splits it into more, smaller components. Raises
    ``InconsistentViewError`` on a contradiction.
    """
    reasoner = Reasoner(system.constraints, system.cols)
    reasoner.single_points()
    if not (reasoner.safe or reasoner.mines):
        return Propagated(system, frozenset(), frozenset())
    decided = reasoner.safe.keys() | reasoner.mines.keys()
    reduced: list[Constraint] = []
    frontier: set[int] = set()
    constraints, need = system.constraints, reasoner.need
    for ci in compress(range(len(constraints)), reasoner.open):  # the numbers still open (a few)
        con = constraints[ci]
        rest = tuple(filterfalse(decided.__contains__, con.cells))
        reduced.append(Constraint(con.source, need[ci], rest))
        frontier.update(rest)
    left = system.mines - len(reasoner.mines)
    if left < 0:
        raise InconsistentViewError(
            f"the numbers force at least {len(reasoner.mines)} mines but the view has {system.mines}"
        )
    covered = tuple(filterfalse(decided.__contains__, system.covered))  # the loop in C: many cells
    reduced_system = ConstraintSystem(
        system.rows, system.cols, left, covered, tuple(reduced), frozenset(frontier), system.interior
    )
    return Propagated(reduced_system, frozenset(reasoner.safe), frozenset(reasoner.mines))


def local_rules(
    cells: str, rows: int, cols: int, numbers: Collection[int], mines: Collection[int] = ()
) -> tuple[frozenset[int], frozenset[int]]:
    """The single-point and pair rules around a change: ``(safe, mines)`` they decide.

    Starts from the revealed ``numbers`` given (flat indices; others are ignored) with the covered
    cells in ``mines`` known to be mines, and widens to the numbers around every cell it decides,
    until nothing more follows. ``safe`` holds only cells still covered (``.`` or ``f``); ``mines``
    only new ones. Sound but incomplete: the exact count is the backstop. Pure.
    """
    table = neighbour_table(rows, cols)
    known = frozenset(mines)
    todo = {i for i in numbers if "0" <= cells[i] <= "8"}
    used: set[int] = set()
    safe: frozenset[int] = frozenset()
    found: frozenset[int] = frozenset()
    while todo - used:
        used |= todo
        reasoner = Reasoner(number_constraints(cells, cols, used, table, known | found), cols)
        reasoner.run()
        new_safe, new_mines = frozenset(reasoner.safe), frozenset(reasoner.mines)
        fresh = (new_safe - safe) | (new_mines - found)
        safe, found = safe | new_safe, found | new_mines
        if not fresh:
            break
        todo = {k for j in fresh for k in table[j] if "1" <= cells[k] <= "8"}
    return frozenset(j for j in safe if cells[j] in ".f"), found - known
