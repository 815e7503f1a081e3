"""Hill's wider candidate set (``benchmarks.variants.WIDE``: measured, not adopted, so not in ``exact``).

The position is the first guess of expert board 2102000488 of ``benchmarks/boards_file.py`` (first click
(3,3), an opening): one of the study's boards where Hill's solvers guessed a cell ``exact`` did not weigh
(docs/research/exact.md, the discordant-board study).
"""

from __future__ import annotations

from benchmarks.boards_file import generate, to_board
from benchmarks.variants import INFLUENCED, WIDE, exact_wide, weigh

from ipyminesweeper import View, analyse, exact, step
from ipyminesweeper.strategies.guess import second_order_safety
from ipyminesweeper.strategies.influence import fifty_fifty_influence


def _first_guess() -> View:
    board = to_board(generate(2102000488, 16, 30, 99, (3, 3), "opening"))
    while not exact(board.view).is_guess:
        board, _ = step(board, exact)
    return board.view


def test_wide_weighs_his_cell_and_picks_it() -> None:
    view = _first_guess()
    a = analyse(view)
    narrow = weigh(view, a)
    wide = weigh(view, a, WIDE)
    assert narrow[0].pos == (4, 28)
    assert (0, 23) not in {c.pos for c in narrow}  # 0.79x as safe as the safest: below the 0.9 cut
    assert wide[0].pos == (0, 23)  # his solvers' cell: half of a likely 50/50 at the top edge
    assert wide[0].score is not None and narrow[0].score is not None
    assert wide[0].score > narrow[0].score  # by exact's own look-ahead, not by his weighting
    assert exact(view).pos == (4, 28)
    assert exact_wide(view).pos == (0, 23)


def test_the_extra_cells_are_his() -> None:
    view = _first_guess()
    a = analyse(view)
    narrow = {c.pos for c in weigh(view, a)}
    extra = [c for c in weigh(view, a, WIDE) if c.pos not in narrow]
    assert extra
    best_safe = 1 - min(a.probabilities[p] for p in a.probabilities if view.cells[p[0] * 30 + p[1]] == ".")
    for c in extra:
        influence = fifty_fifty_influence(view, a, c.pos)
        assert influence > 0 and not c.dead
        assert 1 - c.probability + influence / a.layouts > INFLUENCED * best_safe


def test_cells_deep_in_covered_ground_look_ahead_alike() -> None:
    # wide weighs one of each kind: cells with every cell two steps round covered, and as many
    # neighbours, have the same secondary safety; board 4100000001 from the safe corner, a 1 at (0, 0)
    view = to_board(generate(4100000001, 16, 30, 99, (0, 0), "safe")).view
    assert view.cells[:2] == "1."
    a = analyse(view)
    known = frozenset(r * 30 + c for r, c in a.mines)

    def deep(r0: int, c0: int) -> bool:
        return all(
            view.cells[r * 30 + c] == "."
            for r in range(max(0, r0 - 2), min(16, r0 + 3))
            for c in range(max(0, c0 - 2), min(30, c0 + 3))
        )

    for group in ([(15, 20), (15, 22), (0, 12), (9, 0)], [(15, 29), (0, 29), (15, 0)], [(7, 7), (8, 20)]):
        assert all(deep(*pos) for pos in group), group
        values = {
            second_order_safety(view, r * 30 + c, a.number_distribution((r, c)), known) for r, c in group
        }
        assert len(values) == 1
