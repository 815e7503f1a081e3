"""``scored``: the summed-score player of the Haskell seed, with an explicit seed for its random pick."""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

from ..engine import View
from ..engine.geometry import neighbour_table
from . import move_words
from .move import Move, Strategy, playable

__all__ = ["Scored", "scored"]


@dataclass(frozen=True)
class Scored:
    """The summed-score player: a callable strategy with an explicit ``seed`` for its random fallback.

    Every revealed number ``n`` with ``k`` flags and ``u`` other covered neighbours adds
    ``(n - k) / u`` to the score of each of those ``u`` cells. The covered cell with the lowest score is
    revealed (first in reading order on a tie). The score is a heuristic, not a probability: the move
    carries it in ``Move.score``. With no number next to a covered cell it reveals a random
    covered cell, drawn from ``random.Random`` seeded with ``seed`` and the view's cells (CRC-32), so the
    same view always gives the same move: the strategy stays a pure function and games replay exactly.
    """

    seed: int = 0

    def __call__(self, view: View) -> Move:
        rows, cols, cells = playable(view)
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
            why = move_words.score_zero(pos) if s == 0 else move_words.lowest_score(pos, s, len(score))
            numbers = tuple(divmod(i, cols) for i in table[best] if "1" <= cells[i] <= "8")
            return Move("reveal", pos, why, 0.0 if s == 0 else None, score=s, numbers=numbers)
        covered_all = [i for i, ch in enumerate(cells) if ch == "."]
        if not covered_all:
            first = cells.find("f")
            pos = divmod(first, cols)
            return Move("flag", pos, move_words.unflag(pos, move_words.NO_COVERED_CELL), None)
        rng = random.Random(zlib.crc32(cells.encode()) ^ (self.seed * 0x9E3779B1))
        pos = divmod(rng.choice(covered_all), cols)
        return Move("reveal", pos, move_words.random_cell(pos), None)


scored: Strategy = Scored(0)
"""The summed-score player with seed 0 (``Scored(seed)`` for another random fallback)."""
