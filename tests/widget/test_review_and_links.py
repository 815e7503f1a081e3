"""Issue 58 in the widget: the Review panel, the players' metrics of a finished game, replays opened ready
to review, and a game shared by a link (written, read back, every broken link refused with a sentence and
nothing changed)."""

from __future__ import annotations

import base64
import importlib.util
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from _widget_helpers import browser_request

from ipyminesweeper import Board, Minesweeper, exact, load_replay, new_board, play, save_replay
from ipyminesweeper.engine import Replay, ReplayError, game_metrics
from ipyminesweeper.widget import messages as msg
from ipyminesweeper.widget.link import (
    LINK_CELLS,
    MAX_LINK,
    NOTEBOOK,
    LinkError,
    game_code,
    link_url,
    moves_clicks,
    read_link,
)
from ipyminesweeper.widget.runtime_state import IDLE, is_slow
from ipyminesweeper.widget.stats import MemoryStats

FILES = Path(__file__).resolve().parents[1] / "replays" / "files"
HAVE_TOOLLIB = importlib.util.find_spec("ms_toollib") is not None
MINE_CHARS = set("*XFx")


def widget(*args: Any, **kwargs: Any) -> Minesweeper:
    return Minesweeper(*args, stats_store=MemoryStats(), **kwargs)


def finished(seed: int = 3, level: str = "beginner", **kwargs: Any) -> Minesweeper:
    """A game ``exact`` played to its end in the widget."""
    w = widget(level, seed=seed, **kwargs)
    while not w.board.over:
        w.step("exact")
    return w


# --- the review in the widget -----------------------------------------------------------------------------


def test_the_review_waits_for_the_end_of_the_game() -> None:
    w = widget("beginner", seed=3)
    w.reveal(4, 4)
    before = w.session
    with pytest.raises(ValueError, match="once the game is over"):
        w.review()
    assert w.session is before and w.reviewing == {}


@pytest.mark.parametrize("seed", [1, 2, 3, 7])
def test_the_review_panel_steps_through_every_move_showing_views_only(seed: int) -> None:
    """Each move's board is the view before it (never a mine: the game was on), the verdict is the
    review's, and the game's status stays that of the finished game."""
    w = finished(seed)
    status = w.status
    review = w.review()
    assert len(review.rows) == len(w.history) - 1
    assert w.reviewing["index"] == 0 and w.reviewing["count"] == len(review.rows)
    assert "accuracy" in w.reviewing["summary"] and w.reviewing["metrics"].startswith("3BV ")
    for row in review.rows:
        w.review(move=row.number)
        move = w.reviewing["move"]
        assert w.cells == row.view.cells and not MINE_CHARS & set(w.cells)
        assert (move["row"], move["col"], move["kind"]) == (*row.pos, row.kind)
        assert move["text"] == f"move {row.number} of {len(review.rows)}: {row.verdict}"
        assert w.status == status
    w.live()
    assert w.reviewing == {} and w.cells == w.board.view.cells, "back to the game: the finished board"
    assert w.review() is review and w.reviewing["index"] == len(review.rows) - 1, "kept, where it was"


def lost() -> Minesweeper:
    """An expert game lost by revealing the covered cells in reading order after the first click."""
    w = widget("expert", seed=4)
    w.reveal(7, 14)
    while not w.board.over:
        w.reveal(divmod(w.cells.index("."), w.cols))
    assert w.status == "lost"
    return w


def test_a_losing_game_s_review_names_the_losing_move_and_outlines_the_solver_s_cell() -> None:
    w = lost()
    review = w.review()
    last = review.rows[-1]
    assert f"lost on move {last.number}" in w.reviewing["summary"]
    w.review(move=last.number)
    move = w.reviewing["move"]
    assert move["better"] == (not last.good and last.best.pos != last.pos)
    assert (move["best"]["row"], move["best"]["col"]) == last.best.pos
    assert w.reviewing["mistakes"] == [r.number - 1 for r in review.rows if not r.good]


def test_a_review_index_outside_the_game_is_refused_and_changes_nothing() -> None:
    w = finished()
    w.review()
    before = w.session
    with pytest.raises(ValueError, match=r"outside 0\.\."):
        w.send(msg.ShowReview(10_000))
    with pytest.raises(ValueError, match="move is a move number from 1"):
        w.review(move=0)
    assert w.session is before
    for bad in ({"index": -1}, {"index": "2"}, {"index": 1.5}, {"index": True}, {"move": 1}):
        browser_request(w, {"action": "review", **bad})
        assert w.error and w.session.reviewed == before.reviewed


def test_the_browser_opens_the_review_and_a_first_review_is_slow_work() -> None:
    w = finished()
    assert is_slow(IDLE, w.session, msg.ShowReview()), "the exact solver rates every move: a worker thread"
    browser_request(w, {"action": "review"})
    assert w.reviewing["index"] == 0 and not w.error
    assert not is_slow(IDLE, w.session, msg.ShowReview(1)), "stepping through a review is quick"
    browser_request(w, {"action": "review", "index": 1})
    assert w.reviewing["index"] == 1
    browser_request(w, {"action": "live"})
    assert w.reviewing == {}


def test_a_new_game_or_an_undo_drops_the_review() -> None:
    w = lost()
    w.review()
    w.undo()
    assert w.session.reviewed is None and w.reviewing == {}
    w = finished()
    w.review()
    w.new_game()
    assert w.session.reviewed is None and w.reviewing == {}


# --- the players' metrics ----------------------------------------------------------------------------------


def test_a_finished_game_has_its_metrics_in_the_stats_and_in_the_widget() -> None:
    """3BV, clicks by kind, the wasted clicks the history does not keep (a chord that cannot open, a flag
    on an open cell), efficiency and the rest, in ``w.metrics``, ``w.stats.last`` and the Stats panel."""
    w = widget("beginner", seed=3)
    w.reveal(4, 4)
    number = next(divmod(i, w.cols) for i, ch in enumerate(w.cells) if ch in "12345678")
    w.chord(number)  # no flag around it: it opens nothing
    w.flag(number)  # a revealed cell: nothing to flag
    assert w.session.idle == (0, 1, 1)
    while not w.board.over:
        w.step("exact")
    m = w.metrics
    assert m is not None and m is w.session.metrics
    plain = game_metrics(Replay.from_boards(w.history))
    assert (m.bbbv, m.solved_bbbv, m.zini) == (plain.bbbv, plain.solved_bbbv, plain.zini)
    assert (m.clicks.chord, m.clicks.right) == (plain.clicks.chord + 1, plain.clicks.right + 1)
    assert m.clicks.effective == plain.clicks.effective and m.correctness is not None and m.correctness < 1
    assert w.stats.last is not None and w.stats.last.metrics == m
    assert w.game_metrics["bbbv"] == m.bbbv and w.game_metrics["text"].startswith(f"3BV {m.bbbv}")
    assert set(w.stats_table[0]) >= {"best_bbbv_per_second", "best_efficiency"}


def test_an_honest_win_sets_the_best_3bv_per_second_and_efficiency() -> None:
    store = MemoryStats()
    w = Minesweeper("beginner", seed=3, stats_store=store)
    while not w.board.over:
        view = w.board.view
        move = exact(view)
        getattr(w, move.action)(move.pos)
    assert w.status == "won" and not w.session.assistance
    row = w.stats.of("beginner", "opening")
    last = w.stats.last
    assert last is not None and row.best_efficiency == last.efficiency is not None
    assert row.best_bbbv_per_second == last.bbbv_per_second
    assert w.stats_table[0]["best_efficiency"] == row.best_efficiency


# --- replays opened in the widget ---------------------------------------------------------------------------


def test_a_rawvf_replay_opens_ready_to_review_and_is_not_recorded(tmp_path: Path) -> None:
    final, moves = play(new_board("expert", seed=5), "exact")
    path = save_replay((final, moves), tmp_path / "game.rawvf")
    store = MemoryStats()
    w = Minesweeper.from_replay(path, stats_store=store)
    assert w.status == final.status and w.board == final and len(w.history) == len(moves) + 1
    assert w.reviewing["index"] == 0 and w.reviewing["count"] == len(moves)
    assert store.load().played == 0, "someone else's game is not the player's statistics"
    assert w.metrics is not None and w.metrics.bbbv == game_metrics(load_replay(path)).bbbv


def test_a_broken_replay_makes_no_widget(tmp_path: Path) -> None:
    broken = tmp_path / "broken.rawvf"
    broken.write_text("RawVF_Version: Rev6\nWidth: 3\nHeight: 3\nMines: 1\nBoard:\n*00\n")
    with pytest.raises(ReplayError, match=r"broken\.rawvf"):
        Minesweeper.from_replay(broken, stats_store=MemoryStats())


@pytest.mark.skipif(not HAVE_TOOLLIB, reason="ms_toollib is not installed")
def test_the_expert_evf_replay_opens_with_its_review_and_3bv() -> None:
    w = Minesweeper.from_replay(FILES / "test_subject.evf", stats_store=MemoryStats())
    assert w.metrics is not None and w.metrics.bbbv == 167
    assert w.reviewing["count"] == len(load_replay(FILES / "test_subject.evf").clicks)
    assert "3BV 167" in w.reviewing["metrics"]


# --- links -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("first_click", ["opening", "safe", "any"])
@pytest.mark.parametrize("seed", [1, 2, 11])
def test_a_game_goes_into_a_link_and_comes_back_the_same(first_click: str, seed: int) -> None:
    w = widget("intermediate", seed=seed, first_click=first_click)
    for _ in range(12):
        if w.board.over:
            break
        w.step("exact")
    url = w.link()
    assert url.startswith(f"http://127.0.0.1:8000/lab/index.html?path={NOTEBOOK}#game=1.")
    again = Minesweeper.from_link(url, stats_store=MemoryStats())
    assert tuple(again.history) == tuple(w.history) and again.status == w.status
    again.live()  # a finished game's link opens on its review
    assert again.cells == w.cells


def test_an_unfinished_game_s_link_holds_its_seed_never_its_mines() -> None:
    """What a link reveals (docs/features.md): a game still on goes by its seed; the bytes of the link
    hold no layout, and the board it opens is pending until the first click, as any seeded game."""
    w = widget("expert", seed=8)
    game = read_link(w.link("board"))
    assert game.mode == "board" and not game.replay.start.placed and game.replay.start.seed == 8
    w.reveal(7, 14)
    opened = read_link(w.link())
    assert opened.mode == "moves" and not opened.replay.start.placed
    code = w.link().split("#game=1.")[1]
    data = zlib.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))
    assert data[5:6] == b"\0", "the start is a seed (0), not a layout (1)"


def test_a_game_without_a_seed_is_linked_only_once_it_is_over() -> None:
    board = Board.from_text("*....\n.....\n.....\n....*\n.....")
    w = widget(board=board)
    w.reveal(2, 2)
    assert w.status == "playing"
    before = w.session
    with pytest.raises(LinkError, match="no seed"):
        w.link()
    with pytest.raises(LinkError, match="no seed"):
        w.link("board")
    assert w.session is before
    while not w.board.over:
        w.step("exact")
    again = Minesweeper.from_link(w.link(), stats_store=MemoryStats())
    assert tuple(again.history) == tuple(w.history) and again.reviewing["count"] == len(w.history) - 1


def test_a_review_link_of_a_game_still_on_is_refused() -> None:
    w = widget("beginner", seed=3)
    w.reveal(4, 4)
    with pytest.raises(LinkError, match="finished game"):
        w.link("review")
    browser_request(w, {"action": "link", "mode": "review"})
    assert "finished game" in w.error and w.shared_link == {}
    browser_request(w, {"action": "link"})
    assert w.shared_link["mode"] == "moves" and w.shared_link["url"].startswith("http://127.0.0.1:8000/")


def test_a_game_opened_from_a_link_and_finished_counts_as_helped() -> None:
    w = widget("beginner", seed=3)
    w.reveal(4, 4)
    store = MemoryStats()
    other = Minesweeper.from_link(w.link(), stats_store=store)
    assert store.load().played == 0
    while not other.board.over:
        other.step("exact")
    last = store.load().last
    assert last is not None and "opened from a link or a replay" in last.assisted


def forged(body: bytes) -> str:
    return "1." + base64.urlsafe_b64encode(zlib.compress(body)).rstrip(b"=").decode()


def code_of(w: Minesweeper, mode: str | None = None) -> str:
    return w.link(mode).split("#game=")[1]


def beginner_body(start: bytes, clicks: bytes = b"\0", mode: int = 1) -> bytes:
    """A link's bytes: a beginner game (mode, rule "opening", 9x9 with 10 mines), its start, no time."""
    return bytes([mode, 0, 9, 9, 10]) + start + b"\0" + clicks


MINES = bytes([0b1111111, 0b111]) + bytes(9)  # ten mines in the first cells (11 bytes: 81 cells)
BROKEN = [
    ("", "holds no game"),
    ("http://127.0.0.1:8000/lab/index.html?path=x.ipynb", "holds no game"),
    ("2.abcd", "of a version this widget cannot read"),
    ("1.not base64!", "not base64url"),
    ("1.AAAA", "does not decompress"),
    ("1." + "A" * (MAX_LINK + 10), "at most 65,536 characters"),
    (forged(b""), "ends early"),
    (forged(bytes([7, 0, 9, 9, 10])), "unknown mode"),
    (forged(bytes([1, 9, 9, 9, 10])), "unknown first-click rule"),
    (forged(beginner_body(b"\0\1") + b"\0"), "bytes too many"),
    (forged(bytes([1, 0, 0, 9, 10, 0, 1, 0, 0])), "not a game: rows"),
    (forged(bytes([1, 0, 0xC8, 1, 0xC8, 1, 10])), "at most 10,000 cells"),
    (forged(bytes([1, 0, 9, 9, 90, 0, 1, 0, 0])), "not a game"),
    (forged(beginner_body(b"\0" + b"\xff" * 18 + b"\x7f")), "seed above"),
    (forged(beginner_body(b"\1" + MINES)), "only once it is over"),
    (forged(beginner_body(b"\1" + bytes([0b1111111, 0b11]) + bytes(9))), "says 10 mines but places 9"),
    (forged(beginner_body(b"\1" + MINES[:-1] + b"\x80")), "mines off its board"),
    (forged(beginner_body(b"\0\1", b"\1" + bytes([0xCB, 0x02]))), "above"),
    (forged(beginner_body(b"\0\1", b"\1\3")), "unknown kind"),
    (forged(beginner_body(b"\0\1", b"\2\x90\x02\x90\x02", mode=0)), "a board link holds no moves"),
    (forged(beginner_body(b"\1" + MINES, b"\0", mode=0)), "never mines"),
    (forged(beginner_body(b"\0\1", b"\0", mode=2)), "review link holds a finished game"),
    ("1." + base64.urlsafe_b64encode(zlib.compress(bytes(2 << 20))).decode().rstrip("="), "bigger than"),
]


@pytest.mark.parametrize(("link", "says"), BROKEN)
def test_a_broken_or_forged_link_is_refused_with_a_sentence_and_changes_nothing(link: str, says: str) -> None:
    with pytest.raises(LinkError, match=says):
        read_link(link)
    w = widget("beginner", seed=3)
    w.reveal(4, 4)
    before = w.session
    with pytest.raises(LinkError, match=says):
        w.open_link(link)
    assert w.session is before
    browser_request(w, {"action": "open_link", "code": link})
    assert w.error.startswith(("cannot open this link", "a request's fields are short strings"))
    assert replace(w.session, problem=None) == before


def test_clicks_that_do_not_fit_the_board_are_refused() -> None:
    """A click after the end of the game: the moves must be those of the board."""
    final, moves = play(new_board("beginner", seed=3), "exact")
    start = new_board("beginner", seed=3)
    clicks = [*moves_clicks(moves), *moves_clicks(moves[:1])]
    code = game_code(start, clicks, final, "moves", None)
    with pytest.raises(LinkError, match=r"do not fit its board: click .* after the game was"):
        read_link(code)


def test_a_link_s_game_is_long_in_a_request_and_nothing_else_is() -> None:
    w = finished(level="expert")
    code = code_of(w)
    assert len(code) > 100
    other = widget("beginner", seed=9)
    browser_request(other, {"action": "open_link", "code": code})
    assert not other.error and other.reviewing["count"] == len(w.history) - 1
    browser_request(other, {"action": "link", "mode": "m" * 150})
    assert "short strings" in other.error


def test_a_link_names_its_site_and_refuses_another_kind_of_address() -> None:
    assert link_url("1.x", "https://school.example/minesweeper").startswith(
        "https://school.example/minesweeper/lab/index.html?path=shared-game.ipynb#game=1.x"
    )
    with pytest.raises(LinkError, match="http"):
        link_url("1.x", "javascript:alert(1)//")
    big = widget(rows=101, cols=100, mines=100, seed=1)
    with pytest.raises(LinkError, match=f"at most {LINK_CELLS:,} cells"):
        big.link("board")


def test_the_page_s_widget_opens_the_game_the_browser_sends_once() -> None:
    w = Minesweeper.from_page(stats_store=MemoryStats())
    assert w.awaits_link
    browser_request(w, {"action": "open_link", "code": ""})
    assert "this page's address holds no game" in w.error and w.awaits_link
    game = finished()
    browser_request(w, {"action": "open_link", "code": code_of(game, "moves")})
    assert not w.error and not w.awaits_link and tuple(w.history) == tuple(game.history)
    assert w.reviewing == {}, "a moves link opens on the game, not its review"


@pytest.mark.skipif(not HAVE_TOOLLIB, reason="ms_toollib is not installed")
def test_a_replay_s_game_has_no_seed_and_goes_into_a_link_with_its_mines() -> None:
    w = Minesweeper.from_replay(FILES / "test_subject.evf", stats_store=MemoryStats())
    game = read_link(w.link())
    clicks = [(c.kind, c.pos) for c in load_replay(FILES / "test_subject.evf").clicks]
    assert game.mode == "review" and [(c.kind, c.pos) for c in game.replay.clicks] == clicks


def test_a_replay_error_inside_a_link_is_a_link_error() -> None:
    assert issubclass(LinkError, ValueError) and not issubclass(ReplayError, LinkError)
