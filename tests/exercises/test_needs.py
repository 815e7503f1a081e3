"""``needs``: while a function has not passed its check, an error in the block is one sentence and no
traceback; once it has passed, an error is a real one and propagates. Each check records its verdict
for the function it was given, the latest one winning."""

from __future__ import annotations

import functools

import pytest

from ipyminesweeper import Board, toggle_flag
from ipyminesweeper.exercises import check_toggle_flag, needs
from ipyminesweeper.exercises.needs import has_passed

pytestmark = pytest.mark.slow


def stub(board: Board, pos: tuple[int, int]) -> Board:
    return board


def test_an_unfinished_function_stops_the_block_with_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert not check_toggle_flag(stub) and not has_passed(stub)
    capsys.readouterr()
    ran_after = False
    with needs(stub):
        raise StopIteration  # what next() over the stub's short history raised in notebook 02
    ran_after = True
    out = capsys.readouterr().out
    assert ran_after
    assert out == (
        "This cell needs `stub`, which has not passed its check yet: finish that exercise first, "
        "then run this cell again.\n"
    )


def test_a_finished_function_lets_a_real_error_through(capsys: pytest.CaptureFixture[str]) -> None:
    mine = functools.partial(toggle_flag)  # no weak reference: remembered by identity
    assert check_toggle_flag(mine) and has_passed(mine)
    with pytest.raises(AssertionError), needs(mine):
        raise AssertionError("a real mistake in the cell")
    assert "This cell needs" not in capsys.readouterr().out


def test_several_functions_name_the_unfinished_ones_and_a_quiet_block_says_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    never_checked = lambda board, pos: board  # noqa: E731  (a name the sentence shows)
    assert check_toggle_flag(toggle_flag)
    with needs(toggle_flag, never_checked):
        pass
    assert capsys.readouterr().out == ""
    with needs(toggle_flag, never_checked, stub):
        raise ValueError
    assert "needs `<lambda>` and `stub`, which have not passed their check yet" in capsys.readouterr().out


def test_the_latest_check_wins_and_base_exceptions_are_not_held() -> None:
    broken = [False]

    def flips(board: Board, pos: tuple[int, int]) -> Board:
        return board if broken[0] else toggle_flag(board, pos)

    assert check_toggle_flag(flips) and has_passed(flips)
    broken[0] = True
    assert not check_toggle_flag(flips) and not has_passed(flips)
    with pytest.raises(KeyboardInterrupt), needs(stub):
        raise KeyboardInterrupt  # a student's interrupt still stops the cell
