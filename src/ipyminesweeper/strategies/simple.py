"""``simple``: the naive teaching strategy, the single-point rules of a classic prioritised autosolver.

It is deliberately simple and is the one place where the rules are written in their most naive form: it
trusts its own flags and looks at one number at a time. The solver (:mod:`ipyminesweeper.solver`) has the
real deduction, written once and shared by :func:`~ipyminesweeper.strategies.exact.exact` and no-guess boards.
"""

from __future__ import annotations

from ..engine import View
from ..engine.geometry import neighbour_table
from . import move_words
from .move import Move, playable

__all__ = ["simple"]


def simple(view: View) -> Move:
    """Single-point rules, in order, trusting its own flags:

    1. a number whose flags already match it: reveal its other covered neighbours;
    2. a number with exactly as many covered (or flagged) neighbours as its value: flag them;
    3. otherwise reveal the first covered cell in reading order (a blind guess).
    """
    rows, cols, cells = playable(view)
    table = neighbour_table(rows, cols)
    numbers = [i for i, ch in enumerate(cells) if "1" <= ch <= "8"]
    for rule in (1, 2):  # every number for rule 1, then every number for rule 2
        for i in numbers:
            value = ord(cells[i]) - 48
            around = table[i]
            flags = [j for j in around if cells[j] == "f"]
            covered = [j for j in around if cells[j] == "."]
            if not covered or value != (len(flags) if rule == 1 else len(flags) + len(covered)):
                continue
            pos, at = divmod(covered[0], cols), divmod(i, cols)
            return Move(
                "reveal" if rule == 1 else "flag",
                pos,
                move_words.safe_by_flags(pos, value, at)
                if rule == 1
                else move_words.mine_by_count(pos, value, at),
                0.0 if rule == 1 else 1.0,
                numbers=(at,),
                constrained=tuple(divmod(j, cols) for j in covered + flags),
            )
    first = cells.find(".")
    if first < 0:
        first = cells.find("f")
        pos = divmod(first, cols)
        return Move("flag", pos, move_words.unflag(pos, move_words.NO_COVERED_CELL), None)
    pos = divmod(first, cols)
    return Move("reveal", pos, move_words.first_covered(pos), None)
