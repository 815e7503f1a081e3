"""Fast certain-move rules with human-readable reasons (no enumeration).

- single point: a number that already touches its mines frees its other covered neighbours; a number
with
  exactly as many candidate cells as missing mines makes them all mines;
- pairs (subset rule and its generalisation): for two numbers A and B sharing cells, the mines in
``A \\ B``
  minus those in ``B \\ A`` equal ``need(A) - need(B)``; when that equals ``|A \\ B|`` the cells of
  ``A \\ B``
  are mines and those of ``B \\ A`` are safe;
- global count: no mines left frees every unknown cell; as many mines left as unknown cells makes
them mines.

Rules are applied to a fixpoint, each using what the earlier ones found. Flags are not trusted: only
mines
deduced here count as known.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from .constraints import ConstraintSystem, InconsistentViewError, Pos, ViewLike, read_view
from .wording import join_words, plural

__all__ = ["Deductions", "deduce", "deduce_system"]


@dataclass(frozen=True)
class Deductions:
    """Cells known for certain, each with a reason. Unpacks like the pair ``(safe, mines)``."""

    safe: frozenset[Pos]
    mines: frozenset[Pos]
    reasons: Mapping[Pos, str] = field(default_factory=dict)

    def __iter__(self) -> Iterator[frozenset[Pos]]:
        return iter((self.safe, self.mines))

    def __bool__(self) -> bool:
        return bool(self.safe or self.mines)


class _State:
    def __init__(self, system: ConstraintSystem) -> None:
        self.system = system
        self.safe: dict[int, str] = {}
        self.mines: dict[int, str] = {}
        cons = system.constraints
        # per number: mines still needed and cells still undecided (kept up to date by _decide)
        self.need = [con.value for con in cons]
        self.open = [len(con.cells) for con in cons]
        self.of_cell: dict[int, list[int]] = {}
        for ci, con in enumerate(cons):
            for cell in con.cells:
                if cell in self.of_cell:
                    self.of_cell[cell].append(ci)
                else:
                    self.of_cell[cell] = [ci]
        self.queue = [ci for ci in range(len(cons)) if self.need[ci] == 0 or self.need[ci] == self.open[ci]]

    def lab(self, i: int) -> str:
        return self.system.label(i)

    def labs(self, cells: list[int] | tuple[int, ...]) -> str:
        return join_words([self.lab(i) for i in cells])

    def _decide(self, i: int, bit: int) -> None:
        need, open_ = self.need, self.open
        for ci in self.of_cell.get(i, ()):
            open_[ci] -= 1
            need[ci] -= bit
            n, u = need[ci], open_[ci]
            if n < 0 or n > u:
                con = self.system.constraints[ci]
                raise InconsistentViewError(
                    f"{self.number(con.value, con.source)} cannot be satisfied: the cells"
                    f" deduced around it leave {con.value - n} mines next to it and room for"
                    f" {u} more"
                )
            if u and (n == 0 or n == u):
                self.queue.append(ci)

    def mark_safe(self, i: int, why: str) -> None:
        if i in self.mines:
            raise InconsistentViewError(f"{self.lab(i)} would have to be both safe and a mine")
        if i not in self.safe:
            self.safe[i] = f"{self.lab(i)} is safe: {why}"
            self._decide(i, 0)

    def mark_mine(self, i: int, why: str) -> None:
        if i in self.safe:
            raise InconsistentViewError(f"{self.lab(i)} would have to be both safe and a mine")
        if i not in self.mines:
            self.mines[i] = f"{self.lab(i)} is a mine: {why}"
            self._decide(i, 1)

    def number(self, value: int, source: int) -> str:
        return f"the {value} at {self.lab(source)}"

    def single_points(self) -> bool:
        """Fire every number whose undecided cells are all safe or all mines (a worklist)."""
        changed = False
        safe, mines = self.safe, self.mines
        cons = self.system.constraints
        while self.queue:
            ci = self.queue.pop()
            if not self.open[ci]:
                continue
            con = cons[ci]
            need = self.need[ci]
            unknown = [c for c in con.cells if c not in safe and c not in mines]
            known = [c for c in con.cells if c in mines]
            num = self.number(con.value, con.source)
            if need == 0:
                if known:
                    noun = "mine" if len(known) == 1 else f"{len(known)} mines"
                    why = f"{num} already touches its {noun} at {self.labs(known)}"
                else:
                    why = f"{num} has no mine next to it"
                for c in unknown:
                    self.mark_safe(c, why)
            else:
                if known:
                    why = (
                        f"{num} touches {plural(len(known), 'known mine')} and needs {need} more;"
                        f" only {self.labs(unknown)} can hold {'it' if need == 1 else 'them'}"
                    )
                elif len(unknown) == len(con.cells):
                    why = (
                        f"{num} has exactly {plural(len(unknown), 'covered neighbour')}: {self.labs(unknown)}"
                    )
                else:
                    them = "it" if need == 1 else "them"
                    why = f"{num} needs {need} and only {self.labs(unknown)} can hold {them}"
                for c in unknown:
                    self.mark_mine(c, why)
            changed = True
        return changed

    def pairs(self) -> bool:
        safe, mines = self.safe, self.mines
        live: list[tuple[int, int, int, frozenset[int]]] = []  # value, source, need, unknown cells
        for ci, con in enumerate(self.system.constraints):
            if self.open[ci]:
                unknown = frozenset(c for c in con.cells if c not in safe and c not in mines)
                live.append((con.value, con.source, self.need[ci], unknown))
        by_cell: dict[int, list[int]] = {}
        for li, (_, _, _, unknown) in enumerate(live):
            for c in unknown:
                by_cell.setdefault(c, []).append(li)
        seen: set[tuple[int, int]] = set()
        changed = False
        for lis in by_cell.values():
            for x in lis:
                for y in lis:
                    if x == y or (x, y) in seen or live[x][2] < live[y][2]:
                        continue
                    seen.add((x, y))
                    if self._pair(live[x], live[y]):
                        changed = True
        return changed

    def _pair(self, a: tuple[int, int, int, frozenset[int]], b: tuple[int, int, int, frozenset[int]]) -> bool:
        """If ``need(A) - need(B) == |A \\ B|``: ``A \\ B`` are mines and ``B \\ A`` safe."""
        va, sa, na, ua = a
        vb, sb, nb, ub = b
        only_a = ua - ub
        only_b = ub - ua
        if na - nb != len(only_a) or not (only_a or only_b):
            return False
        if all(c in self.safe or c in self.mines for c in only_a | only_b):
            return False
        shared = sorted(ua & ub)
        num_a = self.number(va, sa)
        num_b = self.number(vb, sb)
        more_a = "" if na == va else " more"
        more_b = "" if nb == vb else " more"
        if not only_a:
            # A's unknown cells are all B's: B's other cells are free.
            why = (
                f"{num_a} needs {plural(na, 'mine' if not more_a else 'more mine')} among "
                f"{self.labs(shared)}; they all touch {num_b}, which then needs no other mine"
            )
            for c in sorted(only_b):
                self.mark_safe(c, why)
            return True
        if not only_b:
            why = (
                f"{num_b} needs {plural(nb, 'mine' if not more_b else 'more mine')} among "
                f"{self.labs(shared)}; they all touch {num_a}, which needs {na - nb} more,"
                f" and only {self.labs(sorted(only_a))} {'is' if len(only_a) == 1 else 'are'} left"
            )
            for c in sorted(only_a):
                self.mark_mine(c, why)
            return True
        why_common = (
            f"{num_a} needs {plural(na, 'mine' if not more_a else 'more mine')};"
            f" at most {nb} can be among {self.labs(shared)}, which also touch {num_b}"
            f" (needing {nb}{more_b}), so"
            f" {self.labs(sorted(only_a))} hold the rest and {num_b} is full"
        )
        for c in sorted(only_a):
            self.mark_mine(c, why_common)
        for c in sorted(only_b):
            self.mark_safe(c, why_common)
        return True

    def global_count(self) -> bool:
        system = self.system
        unknown = [c for c in system.covered if c not in self.safe and c not in self.mines]
        if not unknown:
            return False
        left = system.mines - len(self.mines)
        if left < 0 or left > len(unknown):
            raise InconsistentViewError(f"the deductions leave {left} mines for {len(unknown)} unknown cells")
        if left == 0:
            why = f"all {plural(system.mines, 'mine')} are accounted for"
            for c in unknown:
                self.mark_safe(c, why)
            return True
        if left == len(unknown):
            why = f"the {plural(left, 'mine')} left must fill the {len(unknown)} unknown cells"
            for c in unknown:
                self.mark_mine(c, why)
            return True
        return False


def deduce_system(system: ConstraintSystem) -> Deductions:
    """:func:`deduce` on constraints already read."""
    state = _State(system)
    while state.single_points() or state.pairs() or state.global_count():
        pass
    pos = system.pos
    reasons = {pos(i): r for i, r in state.safe.items()}
    reasons.update({pos(i): r for i, r in state.mines.items()})
    return Deductions(frozenset(pos(i) for i in state.safe), frozenset(pos(i) for i in state.mines), reasons)


def deduce(view: ViewLike) -> Deductions:
    """Certain cells found by the fast rules (single point, pairs, global count), with reasons.

    Cheap (no enumeration) but incomplete: :func:`ipyminesweeper.solver.certain_moves` falls back on
    the exact
    analysis. Raises ``InconsistentViewError`` if the rules run into a contradiction.
    """
    return deduce_system(read_view(view))
