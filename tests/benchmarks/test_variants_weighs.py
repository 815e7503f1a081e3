"""``exact``'s weighting by 50/50 influence, against the variants that weigh never and always
(``benchmarks.variants``: measured, not adopted).

Expert board 4100000001 of ``benchmarks/boards_file.py`` after the first click at (0, 0) is a 1 alone in
the corner; 4100000002 after ``exact``'s first guess has two regions of revealed cells.
"""

from __future__ import annotations

from benchmarks.boards_file import generate, to_board
from benchmarks.variants import exact_long_term, exact_unweighted

from ipyminesweeper import exact, step
from ipyminesweeper.strategies.guess import one_region


def test_exact_weighs_like_long_term_in_one_region_and_like_the_look_ahead_after() -> None:
    view = to_board(generate(4100000001, 16, 30, 99, (0, 0), "safe")).view
    assert exact_unweighted(view).pos == (0, 2)  # the look-ahead alone: next to the 1
    assert exact(view).pos == (0, 29) == exact_long_term(view).pos  # his solvers' pick: a far corner
    board = step(to_board(generate(4100000002, 16, 30, 99, (0, 0), "safe")), exact)[0]
    view = board.view
    assert not one_region(view)
    assert exact(view).pos == exact_unweighted(view).pos == (0, 27)
    assert exact_long_term(view).pos == (15, 0)
