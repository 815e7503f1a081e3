"""The guess rule of ``exact``: forced and pseudo-50/50s, the candidates, dead cells, the look-ahead at
two and three levels and the endgame search, on hand-made positions and against brute force."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _solver_oracle import MinimalView, brute_force, brute_force_layouts, make_position, neighbours
from ipyminesweeper import View
from ipyminesweeper.solver import analyse
from ipyminesweeper.strategies import exact
from ipyminesweeper.strategies.endgame import best_endgame_move, search_layouts
from ipyminesweeper.strategies.guess import (
    CUTOFF,
    Weighing,
    _rank,
    candidates,
    forced_fifty_fifty,
    second_order_safety,
    unavoidable_pair,
    weigh,
)


def test_a_forced_fifty_fifty_is_found_and_taken() -> None:
    # the 1s see the two covered cells, which hold one mine; nothing else can tell them apart
    view = View.from_text("11\n..", mines=1)
    a = analyse(view)
    assert forced_fifty_fifty(view, a) == ((1, 0), (1, 1))
    move = exact(view)
    assert move.pos == (1, 0) and move.probability == 0.5 and "forced guess" in move.reason


def test_a_fifty_fifty_that_a_reveal_can_settle_is_not_forced() -> None:
    # (1,0) and (1,1) hold the one mine, 50/50, but (1,2) sees only (1,1): revealing it settles them
    view = View.from_text("11.\n...", mines=1)
    a = analyse(view)
    assert a.probabilities[(1, 0)] == a.probabilities[(1, 1)] == 0.5
    assert unavoidable_pair(view, a) is None
    assert forced_fifty_fifty(view, a) is None


def test_cells_that_see_both_cannot_settle_a_fifty_fifty() -> None:
    # row 2 is covered, but each cell there sees both (1,0) and (1,1): no reveal can tell them apart
    view = View.from_text("11\n..\n..", mines=2)
    a = analyse(view)
    assert forced_fifty_fifty(view, a) == ((1, 0), (1, 1))
    assert "forced guess" in exact(view).reason


def test_a_pseudo_fifty_fifty_is_found_and_taken_first() -> None:
    # (2,4) and (2,5) hold at most one mine (the 3 at (3,4) needs one more among them and (3,5)); every
    # other cell next to just one of them is a known mine, so nothing can ever tell them apart
    text = "001232\n002...\n003...\n002.3."
    view = View.from_text(text, mines=6)
    a = analyse(view)
    assert unavoidable_pair(view, a) == ((2, 4), (2, 5))
    assert forced_fifty_fifty(view, a) is None  # 1/3 each, not a 50/50
    assert weigh(view, a)[0].pos == (3, 5)  # the look-ahead alone would not take it
    move = exact(view)
    assert move.pos == (2, 4) and "no cell left to reveal can tell them apart" in move.reason
    # taking it loses nothing: it wins as often as the best line of play
    mv = MinimalView(4, 6, 6, view.cells)
    layouts = sorted(brute_force_layouts(mv), key=sorted)
    x = 2 * 6 + 4
    parts: dict[int, list[frozenset[tuple[int, int]]]] = {}
    for lay in layouts:
        if (2, 4) not in lay:
            parts.setdefault(sum(q in lay for q in neighbours(4, 6, 2, 4)), []).append(lay)
    pair_first = sum(
        Fraction(len(part), len(layouts)) * _brute_win(_hypothetical(mv, x, k), part)
        for k, part in parts.items()
    )
    assert pair_first == _brute_win(mv, layouts)


def test_candidates_reach_down_to_nine_tenths_of_the_best_safety() -> None:
    # the safest cells are (1,3), (2,3) and (3,3), P(mine) = 9.5%; (0,2) is 11.5%, beyond 10% more
    # than the safest, but within 0.9x of the best P(safe): it is weighed, and it wins the look-ahead
    text = "01.......\n01.......\n122......\n" + ".........\n" * 5 + "........."
    view = View.from_text(text, mines=10)
    a = analyse(view)
    covered = {p: q for p, q in a.probabilities.items() if view.cells[p[0] * 9 + p[1]] == "."}
    best_safe = 1 - min(covered.values())
    picked = {c.pos for c in candidates(view, a)}
    for pos in a.frontier & covered.keys():
        assert (pos in picked) == (1 - covered[pos] >= CUTOFF * best_safe), pos
    assert (0, 2) in picked and covered[(0, 2)] > 1.1 * min(covered.values())
    move = exact(view)
    assert move.pos in ((0, 2), (3, 2)) and "(the lowest is 9.5%)" in move.reason


def test_dead_cells_are_recognised_and_go_last() -> None:
    # (0,1) is a mine; one of (0,2), (0,3), (0,4) is the other, each 1/3. If (0,3) is safe, exactly one
    # of its neighbours is a mine: it can only show 1, so revealing it teaches nothing. It is dead.
    view = View.from_text("1....", mines=2)
    a = analyse(view)
    cands = {c.pos: c for c in candidates(view, a)}
    assert cands[(0, 3)].dead and not cands[(0, 2)].dead and not cands[(0, 4)].dead
    assert exact(view).pos != (0, 3)
    # a dead cell goes after a live one even with the better score
    live = replace(cands[(0, 2)], score=0.5)
    dead = replace(cands[(0, 3)], score=0.9)
    assert sorted([dead, live], key=_rank) == [live, dead]


def _hypothetical(view: MinimalView, x: int, k: int) -> MinimalView:
    return MinimalView(view.rows, view.cols, view.mines, view.cells[:x] + str(k) + view.cells[x + 1 :])


def _outcomes(view: MinimalView, pos: tuple[int, int]) -> Iterator[tuple[Fraction, MinimalView]]:
    """For each number ``pos`` could show: P(pos is safe and shows it), and the view after, by listing
    every layout."""
    layouts = brute_force_layouts(view)
    x = pos[0] * view.cols + pos[1]
    for k in range(9):
        fits = sum(
            1
            for lay in layouts
            if pos not in lay and sum(q in lay for q in neighbours(view.rows, view.cols, *pos)) == k
        )
        if fits:
            yield Fraction(fits, len(layouts)), _hypothetical(view, x, k)


def _brute_second_order(view: MinimalView, pos: tuple[int, int]) -> Fraction:
    """P(pos safe and the next move safe), where the next move is a certainly safe cell if there is one,
    else the safest: by listing every layout, for every number pos could show."""
    total = Fraction(0)
    for weight, after_view in _outcomes(view, pos):
        after = brute_force(after_view)
        assert after is not None
        lowest = min((p for q, p in after.items() if q != pos), default=Fraction(1))
        total += weight * (1 - lowest)
    return total


def _random_view(
    rows: int, cols: int, seed: int, data: st.DataObject, most_covered: int, flags: int = 0
) -> MinimalView:
    """A random consistent position with 2 to ``most_covered`` covered cells (``flags`` of them
    flagged, mines or not)."""
    n = rows * cols
    covered = data.draw(st.integers(2, min(n, most_covered)))
    mines = data.draw(st.integers(1, covered - 1))
    return make_position(rows, cols, mines, seed, n - covered, flags)[0]


def _random_position(
    rows: int, cols: int, seed: int, data: st.DataObject, most_covered: int
) -> tuple[MinimalView, int, tuple[int, int], tuple[float, ...]]:
    """A random consistent position, a covered cell of it (flat and as a position) and its number
    distribution."""
    view = _random_view(rows, cols, seed, data, most_covered)
    x = data.draw(st.sampled_from([i for i, ch in enumerate(view.cells) if ch == "."]))
    pos = divmod(x, cols)
    return view, x, pos, analyse(view).number_distribution(pos)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(2, 5), cols=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_second_order_safety_equals_brute_force(rows: int, cols: int, seed: int, data: st.DataObject) -> None:
    view, x, pos, dist = _random_position(rows, cols, seed, data, 11)
    got = second_order_safety(view, x, dist, frozenset())
    assert got == pytest.approx(float(_brute_second_order(view, pos)), abs=1e-9)


def test_a_near_tie_goes_to_the_better_score() -> None:
    # (2,3) scores a shade better than (5,2) (they are 0.1% apart): the look-ahead's score decides,
    # and the reason names no runner-up
    cells = "012......01.......012......111........1.......2.................................."
    view = View.from_text("\n".join(cells[r * 9 : r * 9 + 9] for r in range(9)), mines=10)
    a = analyse(view)
    first, second = weigh(view, a)[:2]
    assert (first.pos, second.pos) == ((2, 3), (5, 2))
    assert first.score is not None and second.score is not None
    assert second.score < first.score < second.score * 1.002
    move = exact(view)
    assert move.pos == (2, 3) and "close to" not in move.reason


def _brute_win(
    view: MinimalView,
    layouts: list[frozenset[tuple[int, int]]],
    region: list[tuple[int, int]] | None = None,
) -> Fraction:
    """The best chance of learning where the mines are by revealing cells one at a time, over the
    given layouts (each counted once); with ``region``, revealing only its cells and learning only
    its mines."""
    seen = {lay & frozenset(region) for lay in layouts} if region is not None else set(layouts)
    if len(seen) == 1:
        return Fraction(1)
    best = Fraction(0)
    for pos in (
        region
        if region is not None
        else [divmod(i, view.cols) for i, ch in enumerate(view.cells) if ch == "."]
    ):
        parts: dict[int, list[frozenset[tuple[int, int]]]] = {}
        for lay in layouts:
            if pos not in lay:
                parts.setdefault(sum(q in lay for q in neighbours(view.rows, view.cols, *pos)), []).append(
                    lay
                )
        safe = sum(len(v) for v in parts.values())
        if safe == 0 or (len(parts) == 1 and safe == len(layouts)):
            continue
        x = pos[0] * view.cols + pos[1]
        v = sum(
            (
                Fraction(len(part), len(layouts)) * _brute_win(_hypothetical(view, x, k), part, region)
                for k, part in parts.items()
            ),
            Fraction(0),
        )
        best = max(best, v)
    return best


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(2, 4), cols=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_the_endgame_search_wins_as_often_as_brute_force(
    rows: int, cols: int, seed: int, data: st.DataObject
) -> None:
    view = _random_view(rows, cols, seed, data, 8)
    a = analyse(view)
    end = best_endgame_move(view, a)
    layouts = sorted(brute_force_layouts(view), key=sorted)
    if end is None:
        return  # one layout, or no reveal tells anything
    assert end.layouts == len(layouts)
    assert end.win == pytest.approx(float(_brute_win(view, layouts)), abs=1e-9)
    assert end.probability == pytest.approx(a.probabilities[end.pos])


def test_the_endgame_search_gives_up_beyond_its_work_budget() -> None:
    view = View.from_text("1...\n....\n....", mines=3)
    a = analyse(view)
    assert best_endgame_move(view, a, work=10) is None
    assert best_endgame_move(view, a, limit=a.layouts - 1) is None
    assert best_endgame_move(view, a) is not None


def _check_isolated_regions(view: MinimalView) -> int:
    """Check every isolated region of ``view`` against brute force; how many there are."""
    rows, cols = view.rows, view.cols
    a = analyse(view)
    everything = sorted(brute_force_layouts(view), key=sorted)
    regions = a.isolated_regions(1000)
    for cells, listed in regions:
        region = frozenset(divmod(x, cols) for x in cells)
        # the region's layouts are the true layouts seen through it, all holding as many mines, and
        # each stands for as many layouts of the whole board: nothing else can tell them apart
        seen = Counter(lay & region for lay in everything)
        assert set(seen) == {frozenset(divmod(x, cols) for x in lay) for lay in listed}
        assert len(listed) == len(seen) > 1 and len(set(seen.values())) == 1
        assert len({len(lay) for lay in seen}) == 1
        # every covered cell next to the region and outside it is a mine in every layout
        for r, c in region:
            for q in neighbours(rows, cols, r, c):
                if q not in region and not view.cells[q[0] * cols + q[1]].isdigit():  # covered
                    assert all(q in lay for lay in everything)
        # and the search solves it as often as brute force over the whole board's layouts
        found = search_layouts(view, cells, listed)
        if found is not None:
            assert found.cells == len(region) and found.layouts == len(listed)
            want = _brute_win(view, everything, sorted(region))
            assert found.win == pytest.approx(float(want), abs=1e-9)
            assert found.probability == pytest.approx(a.probabilities[found.pos])
    return len(regions)


@settings(max_examples=300, deadline=None)
@given(rows=st.integers(2, 5), cols=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_isolated_regions_are_games_of_their_own_by_brute_force(
    rows: int, cols: int, seed: int, data: st.DataObject
) -> None:
    flags = data.draw(st.integers(0, 3))  # covered cells, mines or not: not taken as mines
    _check_isolated_regions(_random_view(rows, cols, seed, data, 13, flags))


def test_a_closed_off_part_whose_mine_count_can_vary_is_not_isolated() -> None:
    # the covered cells on the right, closed off by known mines, hold 2 or 3 mines: the mine count
    # links them to the rest
    view = MinimalView(2, 9, 5, "..02...2....2..12.")
    assert _check_isolated_regions(view) == 0


# expert, after 184 moves of exact (seed 32000118, opening start): seven covered cells around (14,7) are
# closed off by numbers and known mines, and hold one of three layouts however the rest of the board lies
CLOSED_OFF = """\
111122113..3.10111001.........
3.21..11..5.2212.1012.........
..2122224.3111.21112.23.......
2210001.21100112111.22........
0000112110000001.12232........
12333.2110000001233.2.3....3..
2....43.210122101..32122343333
.34..3.3.101..3235.3110013.21.
2212221211013..2..33.1001..332
.21111101111232234.21100234.3.
12.12.311.22.2102.3100113.313.
02222..323.22.213.20012.3.3121
01.114.4.333213.311001.2323.21
011102.423..113.200001111.433.
0011112..4.311.21111000012..21
001.101....1011101.10000012210"""


def test_an_isolated_region_is_solved_by_search_before_the_look_ahead() -> None:
    view = View.from_text(CLOSED_OFF, mines=99)
    a = analyse(view)
    region, layouts = a.isolated_regions(1000)[0]
    assert len(region) == 7 and len(layouts) == 3 and 14 * 30 + 7 in region
    alone = Weighing(view, a, frozenset(r * 30 + c for r, c in a.mines), weighted=False)  # not weighed
    for c in candidates(view, a):  # by 50/50 influence: the look-ahead alone
        alone.consider(c)
    assert alone.ranked()[0].pos == (3, 22)  # 11.8% elsewhere
    move = exact(view)
    assert move.pos == (14, 7) and move.probability == pytest.approx(1 / 3)
    assert "closed-off group of 7 covered cells" in move.reason and "solves the group 66.7%" in move.reason


@settings(max_examples=150, deadline=None)
@given(rows=st.integers(2, 6), cols=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_exact_never_reveals_a_flagged_cell(rows: int, cols: int, seed: int, data: st.DataObject) -> None:
    # the player's flags are not trusted: exact reveals only unflagged cells, and a cell a search
    # picks is unflagged first, even when the player has flagged it
    mv = _random_view(rows, cols, seed, data, 16, flags=data.draw(st.integers(0, 3)))
    text = [mv.cells[r * cols : (r + 1) * cols] for r in range(rows)]
    view = View.from_text("\n".join(text), mines=mv.mines)
    move = exact(view)
    ch = view.cells[move.pos[0] * cols + move.pos[1]]
    assert (move.action, ch) in (("reveal", "."), ("flag", "f"))
    if move.action == "flag":
        assert move.reason.startswith(f"unflag ({move.pos[0]},{move.pos[1]})")
    elif "layouts" in move.reason:  # a search chose it: flag it, and it is unflagged first
        r, c = move.pos
        text[r] = text[r][:c] + "f" + text[r][c + 1 :]
        again = exact(View.from_text("\n".join(text), mines=mv.mines))
        if "layouts" in again.reason:  # a search decides again: the same cell, unflagged first
            assert (again.action, again.pos) == ("flag", move.pos)
            assert again.reason.startswith(f"unflag ({r},{c}), to reveal it next: ({r},{c}) is a guess")
        elif again.action == "flag":  # every covered cell left is a mine: a wrong flag is taken back
            assert again.reason.startswith(f"unflag ({again.pos[0]},{again.pos[1]})")
            assert text[again.pos[0]][again.pos[1]] == "f"
        else:  # a rule that looks at unflagged cells only came first (e.g. the last one left)
            assert again.action == "reveal" and text[again.pos[0]][again.pos[1]] == "."


def test_the_look_ahead_from_a_flagged_cell_counts_only_unflagged_next_moves() -> None:
    # second_order_safety is public: from a flagged cell, the next moves are the unflagged cells
    view = View.from_text("1f\nff", mines=1)
    a = analyse(view)
    got = second_order_safety(view, 1, a.number_distribution((0, 1)), frozenset())
    assert got == pytest.approx(2 / 3)  # (0,1) is safe 2/3 of the time, then no unflagged cell is left
    view = View.from_text("11\nf.", mines=1)
    a = analyse(view)
    got = second_order_safety(view, 2, a.number_distribution((1, 0)), frozenset())
    assert got == 0.0  # if (1,0) is safe, (1,1) is the mine, and it is the only next move


def test_a_search_that_picks_a_flagged_cell_unflags_it_first() -> None:
    plain = View.from_text("1...\n....\n....", mines=3)
    chosen = exact(plain)
    assert chosen.action == "reveal" and "layouts that fit" in chosen.reason
    r, c = chosen.pos
    rows = ["1...", "....", "...."]
    rows[r] = rows[r][:c] + "f" + rows[r][c + 1 :]
    move = exact(View.from_text("\n".join(rows), mines=3))
    assert move.action == "flag" and move.pos == chosen.pos
    assert move.reason.startswith(f"unflag ({r},{c}), to reveal it next: ({r},{c}) is a guess")
    # with every other covered cell flagged, the last unflagged one is revealed first
    last = exact(View.from_text("2f\nf.", mines=2))
    assert (last.action, last.pos) == ("reveal", (1, 1)) and "last covered cell" in last.reason
    # and the first click too
    first = exact(View.from_text("...\n.f.\n...", mines=1))
    assert (first.action, first.pos) == ("flag", (1, 1))
