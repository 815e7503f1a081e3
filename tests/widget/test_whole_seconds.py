"""Times are whole seconds completed, as the browser's LED timer counts them (js/helpers.js
``elapsedSeconds``): a game of 27.9 s shows 027 on the LED, and Python's message and statistics say 27 s
(js/helpers.test.js checks the LED side)."""

from __future__ import annotations

from _widget_helpers import after

from ipyminesweeper import new_board
from ipyminesweeper.widget.messages import Reveal, Step
from ipyminesweeper.widget.session_update import start
from ipyminesweeper.widget.stats import LevelStats, Stats


def test_the_end_message_counts_the_seconds_the_led_shows() -> None:
    s = after(start(new_board(9, 9, 10, seed=3)), Reveal((4, 4)), now=1_000)
    while not s.board.over:
        s = after(s, Step("exact"), now=28_900)  # 27.9 s after the first reveal: the LED shows 027
    assert s.seconds == 27.9
    assert s.summary.startswith(("won in 27 s", "lost after 27 s")), s.summary


def test_the_statistics_table_counts_whole_seconds_too() -> None:
    shown = Stats((LevelStats("beginner", "opening", 1, 1, 27.9, 27.9, 1, 1),))._repr_markdown_()
    assert "| 27 s | 27 s |" in shown, shown
