"""Notebook 06's checkers: a pure update for a mini game session (model, four messages), and its view.
The notebook's solutions pass; updates and views with the usual mistakes fail on a short message sequence
and a small board."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pytest
from _wrong import assert_caught, assert_passes, checked, counterexample_of

from ipyminesweeper import Board, reveal, toggle_flag
from ipyminesweeper.exercises import check_update, check_view
from ipyminesweeper.exercises.generate import Rule

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Game:
    history: tuple[Board, ...]

    @property
    def board(self) -> Board:
        return self.history[-1]


@dataclass(frozen=True)
class Reveal:
    pos: tuple[int, int]


@dataclass(frozen=True)
class Flag:
    pos: tuple[int, int]


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class NewGame:
    board: Board


Message = Reveal | Flag | Undo | NewGame


def solution_update(game: Game, message: Message) -> Game:
    """Notebook 06's folded solution."""
    board = game.board
    match message:
        case Reveal(pos) | Flag(pos):
            if board.over:
                return game
            move = reveal if isinstance(message, Reveal) else toggle_flag
            after = move(board, pos)
            return game if after == board else Game((*game.history, after))
        case Undo():
            return game if len(game.history) == 1 else Game(game.history[:-1])
        case NewGame(new):
            return Game((new,))


def _move(
    game: Game,
    message: Reveal | Flag,
    *,
    ignore_end: bool = True,
    skip_same: bool = True,
    flag_with: Rule = toggle_flag,
) -> Game:
    board = game.board
    if ignore_end and board.over:
        return game
    after = (reveal if isinstance(message, Reveal) else flag_with)(board, message.pos)
    return game if skip_same and after == board else Game((*game.history, after))


def playing_after_the_end(game: Game, message: Message) -> Game:
    """A move on a finished game raises GameOverError."""
    if isinstance(message, (Reveal, Flag)):
        return _move(game, message, ignore_end=False)
    return solution_update(game, message)


def every_move_adds_a_board(game: Game, message: Message) -> Game:
    """A move that changes nothing (a flag on a revealed cell) still grows the history."""
    if isinstance(message, (Reveal, Flag)):
        return _move(game, message, skip_same=False)
    return solution_update(game, message)


def undo_down_to_nothing(game: Game, message: Message) -> Game:
    """Undo at the start leaves an empty history (and the next message fails)."""
    if isinstance(message, Undo):
        return Game(game.history[:-1])
    return solution_update(game, message)


def new_game_keeps_the_old_history(game: Game, message: Message) -> Game:
    if isinstance(message, NewGame):
        return Game((*game.history, message.board))
    return solution_update(game, message)


def flag_reveals(game: Game, message: Message) -> Game:
    """A copy-paste slip: Flag calls reveal."""
    if isinstance(message, Flag):
        return _move(game, message, flag_with=reveal)
    return solution_update(game, message)


@dataclass(init=False)
class ListGame:
    """A model with a list: easy to change in place by mistake."""

    history: list[Board]

    def __init__(self, history: Iterable[Board]) -> None:  # made from the checker's tuple of boards
        self.history = list(history)

    @property
    def board(self) -> Board:
        return self.history[-1]


def appending_in_place(game: ListGame, message: Message) -> ListGame:
    """update changes the model it was given (history.append) instead of making a new one."""
    if isinstance(message, (Reveal, Flag)) and not game.board.over:
        after = (reveal if isinstance(message, Reveal) else toggle_flag)(game.board, message.pos)
        if after != game.board:
            game.history.append(after)
        return game
    if isinstance(message, Undo):
        return ListGame(game.history[:-1]) if len(game.history) > 1 else game
    if isinstance(message, NewGame):
        return ListGame([message.board])
    return game


def undo_drops_two(game: Game, message: Message) -> Game:
    if isinstance(message, Undo):
        return Game(game.history[:-2] or game.history[:1])
    return solution_update(game, message)


WRONG = [
    playing_after_the_end,
    every_move_adds_a_board,
    undo_down_to_nothing,
    new_game_keeps_the_old_history,
    flag_reveals,
    undo_drops_two,
]


def test_the_solution_passes() -> None:
    assert_passes(
        check_update(solution_update, Game, Reveal, Flag, Undo, NewGame), "a history longer than one board"
    )


@pytest.mark.parametrize("wrong", WRONG, ids=lambda f: f.__name__)
def test_a_wrong_update_fails(wrong: Callable[[Game, Message], Game]) -> None:
    assert_caught(check_update(wrong, Game, Reveal, Flag, Undo, NewGame), wrong)


def test_an_update_that_changes_its_model_is_told_so() -> None:
    check = check_update(appending_in_place, ListGame, Reveal, Flag, Undo, NewGame)
    assert_caught(check, appending_in_place)
    assert "update changed the game it was given" in counterexample_of(check).summary


def test_the_placeholder_is_told_its_history_is_one_board_short() -> None:
    """On the first seeded example that breaks it (the same with every Hypothesis version; the shrunk one
    shown first may differ between versions)."""
    check = check_update(lambda game, message: game, Game, Reveal, Flag, Undo, NewGame)
    adds = check.properties[0]
    assert adds.name == "Reveal and Flag add the board after the move" and not adds.held
    assert adds.counterexample is not None
    assert "the history has 1 board; expected 2" in adds.counterexample.summary


def test_an_update_that_returns_a_board_is_told_in_a_whole_sentence() -> None:
    """The message was cut in the middle of a word ("...has no his")."""
    check = check_update(lambda game, message: game.board, Game, Reveal, Flag, Undo, NewGame)
    summary = counterexample_of(check).summary
    assert "the game has no history of boards: Board" in summary and summary.endswith("has no history"), (
        summary
    )


def test_every_property_of_update_is_scored_on_its_own() -> None:
    """Partial credit: an update that only gets undo wrong keeps the other properties."""
    check = check_update(undo_drops_two, Game, Reveal, Flag, Undo, NewGame)
    held = {p.name: p.held for p in check.properties}
    assert held == {name: name != "Undo drops the last board, never the first" for name in held}, held
    assert check.score == (5, 6)


def test_the_classes_must_be_callables() -> None:
    with pytest.raises(TypeError, match="check_update"):
        check_update(solution_update, Game, Reveal, Flag, Undo, None)  # type: ignore[arg-type]  # on purpose


# --- view ------------------------------------------------------------------------------------------------


def boards(n: int) -> str:
    """Notebook 06's helper: "1 board", "2 boards"."""
    return "1 board" if n == 1 else f"{n} boards"


def solution_view(game: Game) -> str:
    """Notebook 06's folded solution."""
    board = game.board
    return f"{board.view.to_text()}\n{board.status}, {boards(len(game.history))}"


def view_showing_the_mines(game: Game) -> str:
    """board.to_text() where board.view.to_text() was meant: the player sees the mines."""
    board = game.board
    return f"{board.to_text()}\n{board.status}, {boards(len(game.history))}"


def view_counting_moves(game: Game) -> str:
    """Counts the moves (len - 1) where the boards were asked for."""
    board = game.board
    return f"{board.view.to_text()}\n{board.status}, {boards(len(game.history) - 1)}"


def view_of_the_first_board(game: Game) -> str:
    """history[0] where history[-1] was meant: the start is shown all game long."""
    board = game.history[0]
    return f"{board.view.to_text()}\n{board.status}, {boards(len(game.history))}"


def view_printing(game: Game) -> None:
    """print() instead of return: the view returns None."""
    board = game.board
    print(f"{board.view.to_text()}\n{board.status}, {boards(len(game.history))}")


def view_with_the_wrong_status(game: Game) -> str:
    """A status of its own: "over" for a lost or won game."""
    board = game.board
    status = "over" if board.over else board.status
    return f"{board.view.to_text()}\n{status}, {boards(len(game.history))}"


def view_with_a_clock(game: Game) -> str:
    """Reads the clock: not a function of the model, the text changes between calls."""
    import time

    return f"{solution_view(game)} at {time.perf_counter_ns()}"


def view_with_1_boards(game: Game) -> str:
    """Always the plural: "ready, 1 boards"."""
    board = game.board
    return f"{board.view.to_text()}\n{board.status}, {len(game.history)} boards"


def view_with_a_newline_at_the_end(game: Game) -> str:
    """One line break too many at the end: the same lines, not the same text."""
    return solution_view(game) + "\n"


WRONG_VIEWS = [
    view_with_1_boards,
    view_with_a_newline_at_the_end,
    view_showing_the_mines,
    view_counting_moves,
    view_of_the_first_board,
    view_printing,
    view_with_the_wrong_status,
    view_with_a_clock,
]


def test_the_view_solution_passes() -> None:
    assert_passes(check_view(solution_view, Game), "a game playing", "a game lost")


@pytest.mark.parametrize("wrong", WRONG_VIEWS, ids=lambda f: f.__name__)
def test_a_wrong_view_fails(wrong: Callable[[Game], object], capsys: pytest.CaptureFixture[str]) -> None:
    assert_caught(checked(check_view, wrong, Game), wrong)


def test_a_view_that_reads_the_clock_is_told_so() -> None:
    check = checked(check_view, view_with_a_clock, Game)
    assert "view gave another answer when called again" in counterexample_of(check).summary


def test_a_view_that_shows_the_mines_is_shown_the_difference() -> None:
    check = checked(check_view, view_showing_the_mines, Game)
    example = counterexample_of(check)
    assert example.summary.startswith("line 1 differs") or "lines" in example.summary, example.summary
    assert [p.caption for p in example.panels][1:] == ["yours", "expected"]


def test_view_messages_count_right_and_say_what_differs() -> None:
    """Wording defects found by a student: "1 boards" was required, and a trailing line break was told
    "yours has 2 lines, expected 2"."""
    plural = counterexample_of(checked(check_view, view_with_1_boards, Game)).summary
    assert "'ready, 1 boards'" in plural and "expected 'ready, 1 board'" in plural, plural
    newline = counterexample_of(checked(check_view, view_with_a_newline_at_the_end, Game)).summary
    assert newline.startswith("the same lines, but not the same text"), newline
    assert "lines, expected" not in newline


def test_an_extra_board_when_nothing_changed_is_told_so_truly() -> None:
    """A move that changes nothing still grows the history: the last board *is* the expected one, and
    the message says so (it said the two equal boards' "mines, seed or exploded cell differ")."""
    check = check_update(every_move_adds_a_board, Game, Reveal, Flag, Undo, NewGame)
    said = [p.counterexample.summary for p in check.properties if p.counterexample is not None]
    extra = [s for s in said if "too many" in s]
    assert extra, said
    assert all("its last board is the expected last board, with 1 board too many" in s for s in extra)
    assert not any("not the same board" in s or "seed or exploded" in s for s in said), said
