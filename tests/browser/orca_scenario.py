"""Orca's scenario, shared by every host it runs in (JupyterLab: tests/browser/test_orca.py; the offline
site: tests/lite/test_lite_orca.py): the phrases Orca must say, the keys pressed step by step, and what it
said after each (issue 55).

:func:`listen` starts Orca's desktop (``orca_desktop.OrcaDesktop``) and a headed Debian Chromium with
``--force-renderer-accessibility`` on it, lets the host open a page of two seeded beginner widgets
(``SOURCE``), then plays the scenario with real keys (``xdotool``, XTEST), which Orca sees as a person's:
Tab onto the first board (Orca goes into focus mode), the arrows, Space, F, A, T, ?, G, Ctrl+C, the scan
keys R, V, J and K, Enter, the arrows, Tab, Shift+Tab and Esc in the picker, Orca's Insert+A and T. The
first game is begun; Tab walks through the first widget's controls (while it is played, so that none is
disabled) to the second board, whose game is lost; Shift+Tab walks back, and the first game is won. The
moves and the phrases are derived from the engine: the same seed in Python, the safe cells, the cells each
move opens. Both widgets have seed 1, the one the issue's game by ear was played on: its first reveal at
(4,4) opens 60. The tests of what was heard are in ``orca_checks``.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from orca_desktop import OrcaDesktop

from chromium import artifacts_dir, chromium_path
from ipyminesweeper import Board, Minesweeper, reveal, toggle_flag
from ipyminesweeper.strategies import next_safe

if TYPE_CHECKING:
    from playwright.sync_api import Page

LEVEL, SEED = "beginner", 1  # the seed the game by ear was played on
FIRST = (4, 4)  # the first reveal: "opened 60 cells"
FLAG = (0, 4)  # a mine next to the opening
AROUND = (0, 3)  # A here: a flag, covered cells and numbers
NUMBERED = (1, 1)  # a cell showing 2 after the first reveal
MINE = (0, 1)  # the loss

# What Orca says, as a regular expression each (re.search on one utterance). Keep them here, in one place.
PHRASES = {
    "table": r"^table with 9 rows 9 columns",
    "focus mode": r"^Focus mode$",
    "browse mode": r"^Browse mode$",
    "opened many": r"^opened {n} cells$",
    "opened one": r"^opened \({r},{c}\): {word}\b",
    "flagged": r"^flagged \({r},{c}\), {left} mines? left$",
    "around": r"^around \({r},{c}\): {words}$",
    "status": r"^{status}: {left} mines? left, \d+ s$",
    "lost": r"^lost: mine at \({r},{c}\)$",
    "won": r"\bwon in \d+ s\b",
    "flag toggle": r"^⚑ Flag toggle button not pressed",
    "stats": r"^Stats collapsed push button",
    "probabilities": r"^Probabilities check box not checked",
    "picker button": r"^Game ▾ collapsed push button",
    # issue 55's fixes: what docs/accessibility.md says Orca says
    "widget name": r"^Minesweeper\.?$",
    "help": r"^Keys: Arrows, Home, End: move the cursor .*; R, V: read the cursor's row, or its column, as a "
    r"line of cells; J: jump to the next number that still has a covered cell around it; K: jump to the next "
    r"cell the exact solver proves safe \(a hint\); .*; Esc: close panels, back to the live game\.$",
    "flag mode on": r"^flag mode on: clicks and taps flag$",
    "flag mode off": r"^flag mode off: clicks and taps reveal$",
    "copied": r"^copied the board as text$",
    "dialog": r"^New game dialog$",
    "level": r"^{level} {rows}\u00d7{cols}, {mines} mines\.?$",  # the picker's 9 times 9, a times sign
    "size field": r"^rows entry {rows}\b",
    "cancel": r"^Cancel push button",
    "any cell": r"^row \d+, column \d+: ",
    "row": r"^row {r}: {words}$",
    "column": r"^column {c}: {words}$",
    "safe hint": r"^Hint: reveal \({r},{c}\) · mine probability 0% · exact — \({r},{c}\) is safe: ",
    "won assisted": r"\bwon in \d+ s \(assisted: 1 hint\)",
    # issue 58: the Review panel of the lost game (2 moves: the first reveal, the mine)
    "review": r"^review: 2 moves, lost: accuracy .*; lost on move 2, .*\. move 1 of 2: reveal \(4,4\): "
    r"the rules make the first click safe$",
    "review move": r"^move 2 of 2: reveal \(0,1\): ",
    "review closed": r"^review closed: back to the game$",
}
CELL = "row {r}, column {c}: {word}"  # the widget's name of a cell (its 0-based coordinates)
JUPYTERLAB_NOISE = re.compile(r"^\d+ percent\.?$")  # JupyterLab's busy bar, not the widget
# What Orca says in place of a cell's 1-based coordinates: the cell's aria-colindextext and aria-rowindextext,
# a space each (silence: the cell's name says its coordinates), which the log keeps as a blank utterance.
BLANK = re.compile(r"^\s*$")
ORCA_NUMBERS = re.compile(
    r"^(?:row (?P<row>\d+)\.?|column (?P<col>\d+)\.?|row (?P<r2>\d+) column (?P<c2>\d+)\.?)$"
)
PHRASE_TIMEOUT = 20.0  # seconds for a move to reach the kernel, come back and be spoken
QUIET = 0.6  # seconds of silence after which Orca is taken to have said all it will


def word(ch: str) -> str:
    return ch if ch.isdigit() and ch != "0" else {"0": "empty", ".": "covered", "f": "flagged"}[ch]


def cell_name(board: Board, pos: tuple[int, int]) -> str:
    return CELL.format(r=pos[0], c=pos[1], word=word(board.view[pos]))


def line_words(chars: str) -> str:
    """js/scan.js lineWords in Python: "1, 2, 3 covered, flagged, 2 empty" (runs counted, numbers alone)."""
    items, i = [], 0
    while i < len(chars):
        j = i + 1
        if not chars[i].isdigit() or chars[i] == "0":
            while j < len(chars) and chars[j] == chars[i]:
                j += 1
        name = word(chars[i])
        items.append(f"{j - i} {name}" if j - i > 1 else name)
        i = j
    return ", ".join(items)


def next_open_number(board: Board, pos: tuple[int, int]) -> tuple[int, int]:
    """js/scan.js nextOpenNumber in Python: the next number (reading order, around) with a covered cell
    around it."""
    cells = list(board.positions())
    start = cells.index(pos)
    for k in range(1, len(cells) + 1):
        p = cells[(start + k) % len(cells)]
        ch = board.view[p]
        if ch.isdigit() and ch != "0" and any(board.view[n] == "." for n in board.neighbours(p)):
            return p
    raise AssertionError("no number with a covered cell around it")


def move_phrase(before: Board, after: Board) -> str:
    """What the widget says a reveal opened (js/announce.js changesSpeech), as a pattern."""
    opened = [p for p in after.positions() if before.view[p] in ".f" and after.view[p] not in ".fFx"]
    if len(opened) == 1:
        r, c = opened[0]
        return PHRASES["opened one"].format(r=r, c=c, word=re.escape(word(after.view[opened[0]])))
    return PHRASES["opened many"].format(n=len(opened))


def around_words(board: Board, pos: tuple[int, int]) -> str:
    """js/announce.js aroundSpeech in Python: "1 flag, 2 covered, numbers 1, 2"."""
    around = [board.view[p] for p in board.neighbours(pos)]
    flags, hidden = around.count("f"), around.count(".")
    numbers = sorted(ch for ch in around if ch.isdigit() and ch != "0")
    parts = []
    if flags:
        parts.append(f"{flags} flag{'s' if flags != 1 else ''}")
    if hidden:
        parts.append(f"{hidden} covered")
    if numbers:
        parts.append(("number " if len(numbers) == 1 else "numbers ") + ", ".join(numbers))
    if around.count("0"):
        parts.append(f"{around.count('0')} empty")
    return ", ".join(parts)


def arrows(start: tuple[int, int], to: tuple[int, int]) -> list[str]:
    """xdotool's keys that walk the cursor from ``start`` to ``to``: rows first, then columns."""
    dr, dc = to[0] - start[0], to[1] - start[1]
    return ["Down" if dr > 0 else "Up"] * abs(dr) + ["Right" if dc > 0 else "Left"] * abs(dc)


# --------------------------------------------------------------------------------------------------
# The scenario: played once, its speech recorded step by step
# --------------------------------------------------------------------------------------------------


@dataclass
class Step:
    name: str
    keys: list[str]
    said: list[str]
    expected: str = ""  # the pattern waited for, if any
    seconds: float = 0.0

    def heard(self, pattern: str) -> bool:
        return any(re.search(pattern, text) for text in self.said)


@dataclass
class Heard:
    steps: list[Step] = field(default_factory=list)
    log: list[str] = field(default_factory=list)  # everything Orca said, in order
    seconds: float = 0.0
    versions: str = ""  # Orca's, Chromium's
    limit: float = 240.0  # seconds the whole scenario may take in its host (test_timing)

    def step(self, name: str) -> Step:
        found = [s for s in self.steps if s.name == name]
        assert found, f"no step {name!r}: the scenario stopped before it ({[s.name for s in self.steps]})"
        return found[0]

    def steps_named(self, prefix: str) -> list[Step]:
        return [s for s in self.steps if s.name.startswith(prefix)]

    def transcript(self) -> str:
        lines = [f"# {self.versions}"]
        for s in self.steps:
            expect = f"  [expect {s.expected}]" if s.expected else ""
            lines.append(f"## {s.name}: {' '.join(s.keys) or '(no key)'}{expect}  ({s.seconds:.1f} s)")
            lines.extend(f"  {text}" for text in s.said)
        return "\n".join(lines) + "\n"


class Player:
    """Presses keys on the desktop and records what Orca says after each step."""

    def __init__(self, desktop: OrcaDesktop, heard: Heard) -> None:
        self.desktop = desktop
        self.heard = heard

    def do(
        self, name: str, *keys: str, expect: str = "", quiet: float = QUIET, timeout: float = PHRASE_TIMEOUT
    ) -> Step:
        """Press ``keys``; wait for ``expect`` (a pattern; not found: recorded, the tests fail on it), then
        for Orca to fall quiet."""
        mark, started = self.desktop.mark(), time.monotonic()
        if keys:
            self.desktop.key(*keys)
        if expect:
            with contextlib.suppress(AssertionError):
                self.desktop.wait_for_phrase(expect, timeout, since=mark)
        self.desktop.settle(quiet)
        step = Step(name, list(keys), self.desktop.said_since(mark), expect, time.monotonic() - started)
        self.heard.steps.append(step)
        return step

    def tab_until(self, name: str, pattern: str, most: int = 30, key: str = "Tab") -> Step:
        """Tab (or ``key``) until Orca says ``pattern``: one step with every press's speech."""
        mark, presses, started = self.desktop.mark(), 0, time.monotonic()
        while presses < most:
            self.desktop.key(key)
            presses += 1
            self.desktop.settle(QUIET)
            if any(re.search(pattern, text) for text in self.desktop.said_since(mark)):
                break
        step = Step(name, [key] * presses, self.desktop.said_since(mark), pattern, time.monotonic() - started)
        self.heard.steps.append(step)
        # the keys that follow would go to whatever has focus (JupyterLab's own shortcuts): stop here
        assert step.heard(pattern), (
            f"{name}: {presses} presses of {key}, no {pattern!r}; Orca said {step.said!r}"
        )
        return step


def play(player: Player, first: Board, second: Board, enter_most: int = 8) -> None:
    """The whole scenario. ``first`` and ``second`` are the two widgets' boards as the engine has them: the
    first game is begun, the second lost, the first then won (its controls are heard while it is played)."""
    do = player.do
    # the first widget: a game begun
    player.tab_until("enter the first board", PHRASES["table"], most=enter_most)
    cursor, board = (0, 0), first
    do("walk to the first reveal", *arrows(cursor, FIRST), expect=re.escape(cell_name(board, FIRST)))
    cursor = FIRST
    after = reveal(board, FIRST)
    do("first reveal", "space", expect=move_phrase(board, after), quiet=1.2)
    board = after
    before_numbered = (NUMBERED[0], NUMBERED[1] + 1)
    do("walk near a numbered cell", *arrows(cursor, before_numbered))
    do("onto a numbered cell", "Left", expect=re.escape(cell_name(board, NUMBERED)))
    cursor = NUMBERED
    do("walk to a mine", *arrows(cursor, FLAG), expect=re.escape(cell_name(board, FLAG)))
    cursor = FLAG
    board = toggle_flag(board, FLAG)
    do("flag", "f", expect=PHRASES["flagged"].format(r=FLAG[0], c=FLAG[1], left=board.flags_left), quiet=1.2)
    do("walk to around", *arrows(cursor, AROUND), expect=re.escape(cell_name(board, AROUND)))
    cursor = AROUND
    words = around_words(board, AROUND)
    do("around", "a", expect=PHRASES["around"].format(r=AROUND[0], c=AROUND[1], words=re.escape(words)))
    do("status", "t", expect=PHRASES["status"].format(status="playing", left=board.flags_left))
    do("help", "question", expect=PHRASES["help"])
    do("close help", "Escape")
    do("flag mode on", "g", expect=PHRASES["flag mode on"])
    do("flag mode off", "g", expect=PHRASES["flag mode off"])
    do("copy", "ctrl+c", expect=PHRASES["copied"])
    cursor = scan(player, board, cursor)

    # its picker, and its controls (while it is played: none is disabled) on the way to the second widget
    player.tab_until("tab to the picker", PHRASES["picker button"], most=6)
    picker(player)
    do("close the picker", "Escape", expect=re.escape(cell_name(board, cursor)))
    player.tab_until("tab to the second board", PHRASES["table"])

    # the second widget: a game lost
    cursor2, board2 = (0, 0), second
    do(
        "second: walk to the first reveal",
        *arrows(cursor2, FIRST),
        expect=re.escape(cell_name(board2, FIRST)),
    )
    cursor2 = FIRST
    after = reveal(board2, FIRST)
    do("second: first reveal", "space", expect=move_phrase(board2, after), quiet=1.2)
    board2 = after
    do("second: walk to a mine", *arrows(cursor2, MINE), expect=re.escape(cell_name(board2, MINE)))
    do("lose", "space", expect=PHRASES["lost"].format(r=MINE[0], c=MINE[1]), quiet=1.2)
    # its review (issue 58): opened, the next move, closed, each said once
    do("review", "e", expect=PHRASES["review"], quiet=1.5)
    do("review: the next move", "bracketright", expect=PHRASES["review move"], quiet=1.2)
    do("close the review", "Escape", expect=PHRASES["review closed"], quiet=1.2)

    # back to the first widget, and its game won
    player.tab_until("shift+tab back to the first board", PHRASES["table"], key="shift+Tab")
    for n, pos in enumerate(winning_reveals(board), 1):
        after = reveal(board, pos)
        expect = PHRASES["won"] if after.status == "won" else move_phrase(board, after)
        do(f"win move {n}: {pos}", *arrows(cursor, pos), "space", expect=expect, quiet=0.3)
        cursor, board = pos, after
    assert board.status == "won"

    # browse mode, Orca's next table (the second widget's), focus mode again: is keyboard focus where Orca is?
    do("browse mode", "Insert+a", expect=PHRASES["browse mode"])
    do("next table in browse mode", "t", expect=PHRASES["table"])
    do("focus mode again", "Insert+a", expect=PHRASES["focus mode"])
    do("arrow after browse mode", "Right", expect=PHRASES["any cell"])
    do("status after browse mode", "t", expect=PHRASES["status"].format(status="lost", left=10))


def scan(player: Player, board: Board, cursor: tuple[int, int]) -> tuple[int, int]:
    """The scan keys on ``board`` from ``cursor``: R and V read its row and column, J jumps to the next number
    with a covered cell around it, K to the next cell the exact solver proves safe (a hint). Returns the
    cursor after them."""
    r, c = cursor
    row = PHRASES["row"].format(r=r, words=re.escape(line_words("".join(board.view[r, k] for k in range(9)))))
    player.do("read the row", "r", expect=row)
    column = line_words("".join(board.view[k, c] for k in range(9)))
    player.do("read the column", "v", expect=PHRASES["column"].format(c=c, words=re.escape(column)))
    cursor = next_open_number(board, cursor)
    player.do("next number", "j", expect="^" + re.escape(cell_name(board, cursor)))
    move = next_safe(board.view, cursor)
    assert move is not None and not board.is_mine(move.pos)
    r, c = move.pos
    player.do("next safe cell", "k", expect=PHRASES["safe hint"].format(r=r, c=c), quiet=1.2)
    return move.pos


def picker(player: Player) -> None:
    """Game ▾'s dialog: it takes the focus, Expert fills the size fields, Tab and Shift+Tab stay inside it."""
    do = player.do
    do("open the picker", "Return", expect=PHRASES["dialog"])
    expert = PHRASES["level"].format(level="Expert", rows=16, cols=30, mines=99)
    do("picker: expert", "Down", "Down", expect=expert)
    do("picker: the size fields", "Tab", expect=PHRASES["size field"].format(rows=16))
    do("picker: shift+tab past the first control", "shift+Tab", "shift+Tab", expect=PHRASES["cancel"])
    do("picker: tab past the last control", "Tab", expect=expert)


def winning_reveals(board: Board) -> list[tuple[int, int]]:
    """Each safe cell still covered, in reading order, revealed until the game is won."""
    out = []
    for pos in board.positions():
        if board.status != "playing":
            break
        if not board.is_mine(pos) and board.view[pos] == ".":
            out.append(pos)
            board = reveal(board, pos)
    return out


def engine_boards() -> tuple[Board, Board]:
    board = Minesweeper(LEVEL, seed=SEED).board
    after = reveal(board, FIRST)
    assert after.is_mine(FLAG) and after.is_mine(MINE) and not after.is_mine(AROUND)
    assert after.view[NUMBERED] == "2" and after.view[(NUMBERED[0], NUMBERED[1] + 1)].isdigit()
    return board, board


SOURCE = (
    "from ipyminesweeper import Minesweeper\n"
    f"first = Minesweeper({LEVEL!r}, seed={SEED})\n"
    f"second = Minesweeper({LEVEL!r}, seed={SEED})\n"
    "display(first, second)"
)
"""The cell that shows the two widgets, in one line per statement."""


@dataclass
class Opened:
    """A host's page with the two widgets shown: how to picture it (when the scenario fails) and how to check
    it afterwards (no page error, no request off the machine, ...)."""

    screenshot: Callable[[str], object]
    check: Callable[[], None]


def listen(
    base: Path,
    out: str,
    open_widgets: Callable[[Page], Opened],
    *,
    args: Sequence[str] = (),
    enter_most: int = 8,
) -> Heard:
    """Orca's desktop under ``base``, Chromium on it (with ``args`` besides the usual), the host's page
    (``open_widgets``), the scenario played: what Orca said, step by step. The speech, the steps and Orca's
    debug log go to ``artifacts_dir(out)``."""
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    folder = artifacts_dir(out)
    result = Heard()
    desktop = OrcaDesktop(base)
    desktop.start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium_path(),
                headless=False,  # Orca reads a real window, through AT-SPI
                env=dict(desktop.env),
                args=[*BROWSER_ARGS, *args],
            )
            result.versions = f"{desktop.versions()}, Chromium {browser.version}"
            page = browser.new_context(no_viewport=True).new_page()
            try:
                opened = open_widgets(page)
                # Orca reads the page it loaded for a while (01-play in the offline site: 50 cells); a key
                # pressed meanwhile is spoken late, or only echoed ("tab"): the Tab onto the board is lost
                desktop.settle(2.0, timeout=30.0)
                result.steps.append(Step("load", [], desktop.said()))
                first, second = engine_boards()
                try:
                    play(Player(desktop, result), first, second, enter_most)
                except BaseException:
                    opened.screenshot("FAILED-orca")
                    raise
                opened.check()
            finally:
                browser.close()
    finally:
        result.log = desktop.said()
        desktop.save_log(folder / "orca-speech.txt")
        desktop.stop()
        (folder / "orca-steps.txt").write_text(result.transcript())
        result.seconds = time.monotonic() - started
        print(f"Orca's speech and steps: {folder} ({result.seconds:.0f} s)")
    return result


BROWSER_ARGS = (
    "--force-renderer-accessibility",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
    "--window-position=0,0",
    "--window-size=1280,1000",
)
