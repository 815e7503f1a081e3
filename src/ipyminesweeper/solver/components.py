"""Split the frontier into independent components, and each component into boxes.

A *box* is a set of frontier cells touched by exactly the same numbers: only how many mines a box
holds
matters to the constraints, and a box of ``n`` cells holding ``k`` mines stands for ``C(n, k)``
layouts.
Two boxes are in the same *component* when some number touches both; components are independent
apart from
sharing the global mine count.
"""

from __future__ import annotations

from dataclasses import dataclass

from .constraints import ConstraintSystem

__all__ = ["Component", "split"]


@dataclass(frozen=True)
class Component:
    """An independent part of the frontier.

    ``boxes[b]`` are the flat indices of box ``b``'s cells; ``constraints`` are ``(value, box
    indices,
    source)`` with ``source`` the flat index of the number.
    """

    boxes: tuple[tuple[int, ...], ...]
    constraints: tuple[tuple[int, tuple[int, ...], int], ...]

    @property
    def size(self) -> int:
        return sum(len(b) for b in self.boxes)


def split(system: ConstraintSystem) -> tuple[Component, ...]:
    """Components of the frontier of ``system``, boxes grouped, in a deterministic order."""
    cons = system.constraints
    # constraint ids touching each frontier cell
    touching: dict[int, list[int]] = {}
    for ci, con in enumerate(cons):
        for cell in con.cells:
            if cell in touching:
                touching[cell].append(ci)
            else:
                touching[cell] = [ci]
    # boxes: cells with the same set of constraints
    box_of_key: dict[tuple[int, ...], list[int]] = {}
    for cell in sorted(touching):
        box_of_key.setdefault(tuple(touching[cell]), []).append(cell)
    box_keys = list(box_of_key)
    # union-find over constraints
    parent = list(range(len(cons)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for key in box_keys:
        root = find(key[0])
        for ci in key[1:]:
            other = find(ci)
            if other != root:
                parent[other] = root
    groups: dict[int, list[int]] = {}
    for bi, key in enumerate(box_keys):
        groups.setdefault(find(key[0]), []).append(bi)
    components: list[Component] = []
    for box_ids in groups.values():
        local = {bi: n for n, bi in enumerate(box_ids)}
        boxes = tuple(tuple(box_of_key[box_keys[bi]]) for bi in box_ids)
        members: dict[int, list[int]] = {}
        for bi in box_ids:
            for ci in box_keys[bi]:
                members.setdefault(ci, []).append(local[bi])
        constraints = tuple((cons[ci].value, tuple(members[ci]), cons[ci].source) for ci in sorted(members))
        components.append(Component(boxes, constraints))
    return tuple(components)
