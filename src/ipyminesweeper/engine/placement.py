"""Mine placement: one function per first-click policy, looked up in a registry.

A placement turns ``(rows, cols, mines, seed, first)`` into a :class:`Minefield`, where ``first`` is the
flat index of the first reveal (None for "any", whose mines are placed when the board is made). The
engine provides "opening", "safe" and "any". "no-guess" needs a solver, which lives in a layer above the
engine, so that layer plugs its placement in with :func:`register_placement` (``import ipyminesweeper``
does it).

Every draw comes from :func:`seeded_random`, a generator keyed by a hash of the seed and of everything
else that shapes the game, so the same arguments always give the same mines.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from .geometry import block
from .minefield import FIRST_CLICK_POLICIES, Minefield

__all__ = [
    "Placement",
    "placement_for",
    "register_placement",
    "seeded_random",
    "uniform_placement",
]

Placement = Callable[[int, int, int, int, "int | None"], Minefield]
"""``(rows, cols, mines, seed, first) -> Minefield``: where the mines of a game go."""


def seeded_random(*key: object) -> random.Random:
    """A ``random.Random`` fixed by ``key`` through SHA-256: the one source of randomness for mines."""
    text = "/".join(str(part) for part in ("ipyminesweeper", *key))
    return random.Random(hashlib.sha256(text.encode()).digest())


def uniform_placement(
    rows: int, cols: int, mines: int, seed: int, first_click: str, excluded: tuple[int, ...]
) -> Minefield:
    """``mines`` mines drawn uniformly from the cells not in ``excluded``."""
    n = rows * cols
    skip = sorted(set(excluded))
    rng = seeded_random("mines", seed, f"{rows}x{cols}", mines, first_click, *skip)
    mask = bytearray(n)
    for j in rng.sample(range(n - len(skip)), mines):
        # the j-th cell not excluded: step over the excluded cells at or before it
        for e in skip:
            if j >= e:
                j += 1
        mask[j] = 1
    return Minefield(rows, cols, bytes(mask), seed, first_click)


def _opening(rows: int, cols: int, mines: int, seed: int, first: int | None) -> Minefield:
    excluded = () if first is None else block(rows, cols, first)
    return uniform_placement(rows, cols, mines, seed, "opening", excluded)


def _safe(rows: int, cols: int, mines: int, seed: int, first: int | None) -> Minefield:
    excluded = () if first is None else (first,)
    return uniform_placement(rows, cols, mines, seed, "safe", excluded)


def _any(rows: int, cols: int, mines: int, seed: int, first: int | None) -> Minefield:
    return uniform_placement(rows, cols, mines, seed, "any", ())


_PLACEMENTS: dict[str, Placement] = {"opening": _opening, "safe": _safe, "any": _any}


def register_placement(first_click: str, placement: Placement) -> None:
    """Provide the placement for one of :data:`FIRST_CLICK_POLICIES` (how "no-guess" is plugged in)."""
    if first_click not in FIRST_CLICK_POLICIES:
        raise ValueError(f"unknown first_click {first_click!r}: use one of {', '.join(FIRST_CLICK_POLICIES)}")
    if not callable(placement):
        raise TypeError("a placement is a callable (rows, cols, mines, seed, first) -> Minefield")
    _PLACEMENTS[first_click] = placement


def placement_for(first_click: str) -> Placement:
    """The placement registered for ``first_click``; a ValueError says how to get a missing one."""
    try:
        return _PLACEMENTS[first_click]
    except KeyError:
        if first_click in FIRST_CLICK_POLICIES:
            raise ValueError(
                f"first_click={first_click!r} needs a solver to place the mines: "
                "import ipyminesweeper (its strategies layer registers that placement)"
            ) from None
        raise ValueError(
            f"unknown first_click {first_click!r}: use one of {', '.join(FIRST_CLICK_POLICIES)}"
        ) from None
