"""The player's and teacher's features, through update (no kernel) and through the widget."""

from __future__ import annotations

import pytest
from _widget_helpers import after, browser_request

from ipyminesweeper import Board, GameOverError, Minesweeper, Move, View, new_board
from ipyminesweeper.solver import analyse
from ipyminesweeper.widget import (
    Flag,
    Hint,
    Live,
    MessageError,
    NextSafe,
    Resume,
    Reveal,
    Scrub,
    Session,
    SetCellSize,
    SetLabels,
    SetQuestionMarks,
    ShowProbabilities,
    Step,
    start,
)
from ipyminesweeper.widget.render import render


def playing(seed: int = 3) -> Session:
    return after(start(new_board(9, 9, 10, seed=seed)), Reveal((4, 4)), now=1_000)


def safe_cell(board: Board) -> tuple[int, int]:
    return next(p for p in board.positions() if board.view[p] == "." and not board.is_mine(p))


# --- hint ------------------------------------------------------------------------------------------


def test_a_hint_shows_the_next_move_without_playing_it() -> None:
    s = playing()
    hinted = after(s, Hint())
    assert hinted.board is s.board and len(hinted.history) == len(s.history)
    stepped = after(s, Step())
    assert hinted.hint is not None and stepped.last_move is not None, "a hint and a step both name a move"
    assert hinted.hint.move is not None and hinted.hint.move == stepped.last_move.move
    assert hinted.assistance.hints == 1 and "1 hint" in hinted.assistance.describe()
    state = render(hinted)
    assert state["hint_move"]["row"] == hinted.hint.move.pos[0] and state["hint_move"]["reason"]
    assert state["labels"] is True, "labels come on once help is used"
    moved = after(hinted, Reveal(safe_cell(hinted.board)))
    assert moved.hint is None and render(moved)["hint_move"] == {}


def test_no_hint_after_the_end_or_while_looking_back() -> None:
    s = start(new_board(9, 9, 10, seed=4, first_click="any"))
    mine = next(p for p in s.board.positions() if s.board.is_mine(p))
    with pytest.raises(GameOverError):
        after(after(s, Reveal(mine)), Hint())
    with pytest.raises(MessageError, match="looking back"):
        after(after(playing(), Scrub(0)), Hint())


# --- the scan key K: the next certainly safe cell, a hint ------------------------------------------


def certainly_safe(board: Board) -> list[int]:
    """The covered cells the exact analysis proves safe, from the player's view, in reading order."""
    cells = board.view.cells
    return sorted(
        r * board.cols + c for r, c in analyse(board.view).safe if cells[r * board.cols + c] in ".f"
    )


def test_next_safe_is_the_first_proved_safe_cell_after_the_cursor_and_a_hint() -> None:
    s = playing()
    safe = certainly_safe(s.board)
    assert len(safe) >= 2, "seed 3's opening leaves several safe cells"
    cursor = divmod(safe[0], 9)
    hinted = after(s, NextSafe(cursor))
    assert hinted.hint is not None and hinted.hint.move is not None and hinted.hint.strategy == "exact"
    move = hinted.hint.move
    assert move.pos == divmod(safe[1], 9), "the next one after the cursor, not the cursor's own cell"
    assert move.action == "reveal" and move.probability == 0.0 and move.reason.startswith(f"({move.pos[0]},")
    assert not s.board.is_mine(move.pos)
    assert hinted.board is s.board, "shown, not played"
    assert hinted.assistance.hints == 1 and "1 hint" in hinted.assistance.describe(), "counted as a hint"
    state = render(hinted)
    assert (state["hint_move"]["row"], state["hint_move"]["col"]) == move.pos
    last = divmod(safe[-1], 9)
    assert after(s, NextSafe(last)).hint.move.pos == divmod(safe[0], 9), "after the last: around to the first"  # type: ignore[union-attr]
    assert after(after(hinted, NextSafe(move.pos)), NextSafe((0, 0))).assistance.hints == 3


def test_next_safe_says_why_not_and_counts_nothing() -> None:
    ready = start(new_board(9, 9, 10, seed=3))
    with pytest.raises(MessageError, match="before the first move"):
        after(ready, NextSafe((0, 0)))
    guess = after(start(new_board(4, 4, 5, seed=0, first_click="safe")), Reveal((0, 0)))
    assert guess.board.view.to_text().startswith("1...") and certainly_safe(guess.board) == []
    with pytest.raises(MessageError, match="no covered cell is certainly safe"):
        after(guess, NextSafe((0, 0)))
    assert guess.assistance.hints == 0
    s = start(new_board(9, 9, 10, seed=4, first_click="any"))
    mine = next(p for p in s.board.positions() if s.board.is_mine(p))
    with pytest.raises(GameOverError):
        after(after(s, Reveal(mine)), NextSafe((0, 0)))
    with pytest.raises(MessageError, match="looking back"):
        after(after(playing(), Scrub(0)), NextSafe((0, 0)))
    with pytest.raises(ValueError):
        after(playing(), NextSafe((9, 0)))


def test_next_safe_from_the_browser_and_from_python() -> None:
    w = Minesweeper("beginner", seed=1)
    w.reveal(4, 4)
    browser_request(w, {"action": "next_safe", "row": 0, "col": 0})
    assert w.error == "" and w.hint_move["strategy"] == "exact" and w.hint_move["probability"] == 0.0
    first = (w.hint_move["row"], w.hint_move["col"])
    assert first == divmod(certainly_safe(w.board)[0], 9)
    assert w.next_safe(first).pos == divmod(certainly_safe(w.board)[1], 9)
    assert w.next_safe(*first) == w.next_safe(first), "w.next_safe(r, c) and w.next_safe((r, c))"
    browser_request(w, {"action": "next_safe", "row": 0})
    assert "next_safe" in w.error or "col" in w.error, w.error


# --- time travel -------------------------------------------------------------------------------------


def test_scrubbing_shows_old_boards_and_never_changes_the_live_one() -> None:
    s = playing()
    for _ in range(5):
        s = after(s, Step("exact"))
    live = s.board
    back = after(s, Scrub(2))
    assert back.board is live and back.viewing == 2
    state = render(back)
    assert state["cells"] == s.history[2].view.cells and state["viewing"] == 2
    assert state["history_length"] == len(s.history) == 7
    assert state["history_step"]["index"] == 2 and state["history_step"]["text"].startswith("exact: reveal")
    assert state["can_undo"] is False and state["last_move"] == {}
    for message in (Reveal(safe_cell(live)), Flag((0, 0)), Step(), Hint()):
        with pytest.raises(MessageError, match="looking back at move 2 of 6"):
            after(back, message)
    assert after(back, Live()).viewing is None
    assert after(back, Scrub(-1)).viewing is None, "the last board is the live game"
    with pytest.raises(MessageError, match="outside"):
        after(s, Scrub(7))


def test_resume_from_here_branches_and_counts_as_help() -> None:
    s = playing()
    for _ in range(4):
        s = after(s, Step("simple"))
    branch = after(after(s, Scrub(2)), Resume(), now=9_000)
    assert len(branch.history) == 3 and branch.board == s.history[2] and branch.viewing is None
    assert branch.assistance.rewinds == 1 and "1 resume from history" in branch.assistance.describe()
    assert tuple(branch.history) == tuple(s.history)[:3], "w.history and the slider read the same data"
    assert after(s, Resume()) is s, "nothing to resume on the live board"


def test_scrubbing_stops_the_autoplayer() -> None:
    from ipyminesweeper.widget import Autoplay

    s = after(playing(), Autoplay())
    assert not after(s, Scrub(0)).autoplaying


# --- question marks ----------------------------------------------------------------------------------


def test_question_marks_cycle_flag_mark_covered_and_never_count_as_flags() -> None:
    s = after(playing(), SetQuestionMarks(True))
    cell = safe_cell(s.board)
    index = s.board.index(cell)
    flagged = after(s, Flag(cell))
    assert flagged.board.view[cell] == "f" and flagged.board.flags_left == 9
    marked = after(flagged, Flag(cell))
    assert marked.board.view[cell] == "." and index in marked.marks
    assert marked.board.flags_left == 10, "a question mark is not a flag"
    assert render(marked)["marks"] == [index] and render(marked)["mines_left"] == 10
    cleared = after(marked, Flag(cell))
    assert index not in cleared.marks and cleared.board == marked.board
    again = after(after(marked, Reveal(cell)), SetQuestionMarks(True))
    assert index not in again.marks, "a revealed cell loses its mark"
    off = after(after(s, Flag(cell)), SetQuestionMarks(False))
    assert after(off, Flag(cell)).board.view[cell] == ".", "without the option: flag and unflag"


# --- labels, zoom ------------------------------------------------------------------------------------


def test_labels_are_automatic_unless_chosen() -> None:
    s = playing()
    assert render(s)["labels"] is False
    assert render(after(s, ShowProbabilities(True)))["labels"] is True
    assert render(after(s, SetLabels(True)))["labels"] is True
    assert render(after(after(s, Step()), SetLabels(False)))["labels"] is False


@pytest.mark.parametrize("pixels", [0, 16, 40, 64])
def test_zoom_accepts_fit_or_legible_sizes(pixels: int) -> None:
    assert render(after(playing(), SetCellSize(pixels)))["cell_size"] == pixels


@pytest.mark.parametrize("pixels", [8, 15, 65, -1, 1000])
def test_zoom_refuses_illegible_or_absurd_sizes(pixels: int) -> None:
    with pytest.raises(MessageError, match="0 \\(fit\\) or 16 to 64"):
        after(playing(), SetCellSize(pixels))


# --- a reason's cells travel with the move -------------------------------------------------------------


def test_a_moves_cells_are_synced_on_the_board_only() -> None:
    def pointing(view: View) -> Move:
        i = view.cells.index(".")
        numbers = tuple(view.position(j) for j, ch in enumerate(view.cells) if ch.isdigit())[:2]
        return Move(
            "reveal", view.position(i), "why", numbers=(*numbers, (99, 99)), constrained=((0, 0), (-1, 5))
        )

    state = render(after(playing(), Step(pointing)))["last_move"]
    assert len(state["numbers"]) == 2 and state["constrained"] == [[0, 0]]


def test_scored_reports_a_score_not_a_probability() -> None:
    state = render(after(playing(), Step("scored")))["last_move"]
    assert state["probability"] is None or state["probability"] == 0.0
    assert state["score"] is not None


# --- the widget's methods ------------------------------------------------------------------------------


def test_widget_hint_scrub_resume_and_text() -> None:
    w = Minesweeper("beginner", seed=8)
    w.reveal(4, 4)
    move = w.hint()
    assert w.hint_move["row"] == move.pos[0] and len(w.history) == 2
    w.step()
    w.step()
    assert w.scrub(1) == w.history[1] and w.viewing == 1
    assert w.text == w.history[1].view.to_text()
    with pytest.raises(MessageError):
        w.reveal(0, 0)
    w.live()
    assert w.viewing == -1 and w.text == w.board.view.to_text()
    w.scrub(1)
    assert w.resume() == w.history[1] and len(w.history) == 2


def test_widget_settings_from_python_and_from_the_browser() -> None:
    w = Minesweeper("beginner", seed=8)
    w.cell_size = 32
    w.question_marks = True
    w.labels = True
    assert (w.session.settings.cell_size, w.session.settings.question_marks, w.session.settings.labels) == (
        32,
        True,
        True,
    )
    w.set_state({"cell_size": 20, "labels": False})
    assert w.session.settings.cell_size == 20 and w.labels is False
    w.set_state({"cell_size": 3})
    assert w.session.settings.cell_size == 20 and "16 to 64" in w.error


def test_the_picker_starts_any_game_and_shows_its_settings() -> None:
    w = Minesweeper("beginner", seed=8)
    browser_request(w, {"action": "new_game", "level": "expert", "first_click": "safe"})
    assert (w.level, w.first_click, w.rows, w.cols, w.mines) == ("expert", "safe", 16, 30, 99)
    browser_request(w, {"action": "new_game", "rows": 10, "cols": 12, "mines": 20})
    assert (w.level, w.first_click) == ("10x12/20", "safe")
    before = w.board
    browser_request(w, {"action": "new_game", "rows": 10, "cols": 12, "mines": 200})
    assert w.board is before and "cannot fit" in w.error
    browser_request(w, {"action": "new_game", "rows": "ten", "cols": 12, "mines": 2})
    assert w.board is before and "rows is an int" in w.error
    browser_request(w, {"action": "new_game", "first_click": "no-guess"})
    assert w.first_click == "no-guess" and (w.rows, w.cols, w.mines) == (10, 12, 20)
    w.new_game("beginner", first_click="any")
    assert (w.level, w.first_click) == ("beginner", "any")


def test_an_exact_hint_carries_the_numbers_and_cells_it_rests_on() -> None:
    """exact (the default) fills numbers and constrained for certain moves and for guesses, so a hint
    outlines them; the cells are all on the board and the numbers all revealed."""
    from ipyminesweeper import Minesweeper

    w = Minesweeper("expert", seed=11)
    w.reveal(3, 3)
    seen = 0
    for _ in range(40):
        if w.status != "playing":
            break
        move = w.hint()
        state = w.hint_move
        assert state["numbers"] and all(w.board.view.cells[r * 30 + c].isdigit() for r, c in state["numbers"])
        assert [list(p) for p in move.constrained] == state["constrained"]
        seen += bool(state["constrained"])
        w.step()
    assert seen >= 10
