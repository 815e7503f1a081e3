"""What the solver carries from one move to the next (cached view readings and component counts) never
changes an answer: after every move of 1,000 games, the analysis equals one made from scratch."""

from __future__ import annotations

import random

from ipyminesweeper import new_board, reveal
from ipyminesweeper.solver import analyse
from ipyminesweeper.solver.probabilities import clear_caches


def test_cached_analysis_equals_a_fresh_one_after_every_move() -> None:
    positions = 0
    for game in range(1000):
        rng = random.Random(game)
        rows, cols = rng.choice([(6, 6), (8, 8), (9, 9), (6, 12)])
        board = new_board(rows, cols, rng.randint(4, rows * cols // 5), seed=game, first_click="safe")
        board = reveal(board, (rng.randrange(rows), rng.randrange(cols)))
        while not board.over:
            warm = analyse(board.view)  # reuses whatever earlier moves left in the caches
            clear_caches()
            cold = analyse(board.view)
            assert warm == cold and dict(warm.probabilities) == dict(cold.probabilities)
            assert dict(warm.reasons) == dict(cold.reasons)
            positions += 1
            safe = sorted(warm.safe & set(board.covered()))
            pos = safe[0] if safe else min(board.covered(), key=lambda p: (warm.probabilities[p], p))
            board = reveal(board, pos)
    assert positions > 3000
