"""A game in a link: the game of a widget written into the address of the offline site, and read back.

``w.link()`` gives ``<site>lab/index.html?path=shared-game.ipynb#game=1.<code>``: the offline site
(JupyterLite) opens the notebook :data:`NOTEBOOK`, whose widget (``Minesweeper.from_page()``) reads the
game from the page's address. The game is in the fragment (after ``#``), which a browser never sends to
a server: no server keeps it, nor sees it. ``<code>`` is the game as compact bytes, compressed (zlib)
and written in base64url; ``1.`` is the format's version.

What a link holds, by its **mode**:

- ``"board"``: the kind of game and its **seed**, no move: the same board, from its start (a teacher's
  board for the class);
- ``"moves"``: the start and every click, replayed when the link is opened: the game as it was, to go on
  playing if it is not over;
- ``"review"``: the same, opened with the review (a finished game only).

The start is the game's seed, or, once the game is over, its mines. **What a link reveals.** A link never
holds the mines of a game that is still on: a game not over is linked by its seed, and a game that did not
start from a seed (a board set from code, a replay) is linked only once it is over. The seed is as good
as the mines to whoever decodes the link and runs ``new_board(seed=...)``: sharing a seed has always
shared the board, as a teacher reading a seed out does, and the sender's own kernel holds the mines
anyway. What the widget sends the browser that opens it is the player's view, as for any game. So a
student can learn an unfinished board's mines from a link exactly as from its seed, by running Python on
it; a link opened in the site shows them nothing more than playing shows.

:func:`read_link` checks everything before anything is made: the version, the encoding, the size of
every part (:data:`MAX_LINK` characters, :data:`LINK_CELLS` cells, :data:`MAX_CLICKS` clicks), the
game's kind (the engine's own rules), the mines against their count, mines only for a game that is over,
and every click replayed under the rules (a click off the board or after the end is refused). A broken
link raises a :class:`LinkError` (a ValueError) that says what is wrong.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from ..engine import (
    FIRST_CLICK_POLICIES,
    Board,
    Click,
    GameSpec,
    Minefield,
    Replay,
    ReplayError,
    new_board,
)
from ..engine.cells import COVERED
from ..strategies import Move
from .board_wire import varint

__all__ = [
    "DEFAULT_SITE",
    "FRAGMENT",
    "LINK_CELLS",
    "MAX_CLICKS",
    "MAX_LINK",
    "MODES",
    "NOTEBOOK",
    "LinkError",
    "SharedGame",
    "game_code",
    "link_url",
    "moves_clicks",
    "read_link",
    "share",
]

NOTEBOOK = "shared-game.ipynb"
"""The notebook of the offline site that opens a link's game (``scripts/build_lite.py`` writes it)."""
FRAGMENT = "game="
"""The fragment of a link's address is ``#game=<code>``."""
VERSION = "1."
"""The format's version, in front of every code."""
DEFAULT_SITE = "http://127.0.0.1:8000/"
"""Where ``w.link()`` points by default: ``make serve-lite``'s address (``IPYMINESWEEPER_SITE`` or
``site=`` for another; in the offline site itself, the widget's button uses the page's own)."""
MODES = ("board", "moves", "review")
"""What a link opens: the board from its start, the game's moves, or its review."""
MAX_LINK = 65_536
"""The longest code read, in characters."""
MAX_BYTES = 1 << 20
"""The most bytes a code may decompress to."""
LINK_CELLS = 10_000
"""The biggest board a link holds (100 x 100, say): a link's clicks are replayed when it is opened."""
MAX_CLICKS = 100_000
"""The most clicks a link holds."""
_KINDS = ("left", "right", "chord")
_ACTIONS = {"reveal": "left", "flag": "right", "chord": "chord"}
_CODE = re.compile(r"[A-Za-z0-9_-]*")


class LinkError(ValueError):
    """A link that cannot be made, or read: the message says why. Nothing is changed by it."""


@dataclass(frozen=True)
class SharedGame:
    """A game read from a link: its ``mode`` (see :data:`MODES`), the game as a :class:`Replay` (for a
    ``"board"`` link, its start alone), and its ``seconds`` where the link says them."""

    mode: str
    replay: Replay
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise LinkError(f"a link opens one of {', '.join(MODES)}, not {self.mode!r}")
        if not isinstance(self.replay, Replay):
            raise TypeError(f"a shared game is a Replay, not {type(self.replay).__name__}")


# --- writing -------------------------------------------------------------------------------------------


def _bits(mask: bytes) -> bytes:
    """A mine layout (a byte a cell) as bits, eight cells a byte, the first cell in the lowest bit."""
    return bytes(
        sum(1 << k for k, mine in enumerate(mask[i : i + 8]) if mine) for i in range(0, len(mask), 8)
    )


def moves_clicks(moves: tuple[Move | None, ...]) -> list[Click]:
    """The clicks of a widget's moves (its history's); a LinkError for a board set from code."""
    clicks = []
    for number, move in enumerate(moves, start=1):
        if move is None:
            raise LinkError(f"move {number} set a board from code: a link holds clicks only")
        clicks.append(Click(_ACTIONS[move.action], move.pos))  # type: ignore[arg-type]
    return clicks


def _seeded(start: Board) -> bool:
    """Whether ``start`` is the fresh board of its seed (so that the seed alone makes it again)."""
    if start.seed is None:
        return False
    try:
        return start == new_board(GameSpec.of(start))
    except ValueError:  # a no-guess board whose search gives up: not made again by its seed
        return False


def game_code(start: Board, clicks: list[Click], final: Board, mode: str, seconds: float | None) -> str:
    """The code of a game played from ``start`` by ``clicks``, now ``final``, opened in ``mode`` (a board
    link keeps no click). A :class:`LinkError` says why a game cannot be linked (see the module: what a
    link reveals)."""
    if mode not in MODES:
        raise LinkError(f"a link opens one of {', '.join(MODES)}, not {mode!r}")
    cells = start.rows * start.cols
    if cells > LINK_CELLS:
        raise LinkError(f"a link holds a board of at most {LINK_CELLS:,} cells; this one has {cells:,}")
    if mode == "review" and not final.over:
        raise LinkError("a link opens the review of a finished game: finish this one first")
    if start.states.count(COVERED) != cells:
        raise LinkError("this game started from a board with cells open or flagged: a link starts covered")
    clicks = [] if mode == "board" else clicks
    if len(clicks) > MAX_CLICKS:
        raise LinkError(f"a link holds at most {MAX_CLICKS:,} clicks; this game has {len(clicks):,}")
    if _seeded(start):
        head = b"\0" + varint(start.seed or 0)
    elif mode == "board" or not final.over or not isinstance(final.minefield, Minefield):
        raise LinkError(
            "this game has no seed (its board was set from code, or read from a replay): its link would "
            "show its mines, so it can be linked once it is over, with its moves"
        )
    else:
        head = b"\1" + _bits(final.mask)
    return _pack(start, mode, head, clicks, seconds)


def _pack(start: Board, mode: str, head: bytes, clicks: list[Click], seconds: float | None) -> str:
    rule = FIRST_CLICK_POLICIES.index(start.first_click)
    body = bytearray([MODES.index(mode), rule])
    for n in (start.rows, start.cols, start.mines):
        body += varint(n)
    body += head
    body += varint(0 if seconds is None else round(seconds * 1000) + 1)
    body += varint(len(clicks))
    for click in clicks:
        body += varint((click.pos[0] * start.cols + click.pos[1]) * 4 + _KINDS.index(click.kind))
    packed = base64.urlsafe_b64encode(zlib.compress(bytes(body), 9)).rstrip(b"=")
    return VERSION + packed.decode("ascii")


def link_url(code: str, site: str = DEFAULT_SITE) -> str:
    """The address that opens ``code`` in the offline site at ``site`` (its root, ending in ``/``)."""
    if not isinstance(site, str) or not re.fullmatch(r"https?://[^\s#?]+", site):
        raise LinkError(f"a site is an http(s) address of the offline site's root, not {site!r:.80}")
    root = site if site.endswith("/") else site + "/"
    return f"{root}lab/index.html?path={NOTEBOOK}#{FRAGMENT}{code}"


def share(
    start: Board,
    moves: tuple[Move | None, ...],
    final: Board,
    mode: str | None = None,
    seconds: float | None = None,
    site: str = DEFAULT_SITE,
) -> str:
    """The link of a game (see :func:`game_code`); ``mode`` None: its review if it is over, else its
    moves."""
    chosen = mode if mode is not None else "review" if final.over else "moves"
    return link_url(game_code(start, moves_clicks(moves), final, chosen, seconds), site)


# --- reading -------------------------------------------------------------------------------------------


class _Reader:
    """The bytes of a code, read in order; a LinkError names what ends early or is out of range."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, n: int, what: str) -> bytes:
        if self.at + n > len(self.data):
            raise LinkError(f"the game in this link ends early, in its {what}: it was cut short")
        part = self.data[self.at : self.at + n]
        self.at += n
        return part

    def number(self, what: str, highest: int) -> int:
        value, shift = 0, 0
        while True:
            byte = self.take(1, what)[0]
            value |= (byte & 0x7F) << shift
            shift += 7
            if value > highest or shift > 140:
                raise LinkError(f"the game in this link has a {what} above {highest:,}")
            if not byte & 0x80:
                return value

    def choice(self, options: tuple[str, ...], what: str) -> str:
        index = self.take(1, what)[0]
        if index >= len(options):
            raise LinkError(f"the game in this link has an unknown {what} (number {index})")
        return options[index]


def _code_in(text: object) -> str:
    """The code of ``text``: a link's address (the part after ``#game=``), or the code itself."""
    if not isinstance(text, str):
        raise TypeError(f"a link is a str, not {type(text).__name__}")
    if len(text) > MAX_LINK + 2000:
        raise LinkError(f"a link holds at most {MAX_LINK:,} characters of game, not {len(text):,}")
    code = text.strip()
    if "#" in code or "://" in code:
        fragment = code.partition("#")[2]
        found = [part[len(FRAGMENT) :] for part in fragment.split("&") if part.startswith(FRAGMENT)]
        if not found:
            raise LinkError(f"this address holds no game: a shared game's address ends in #{FRAGMENT}...")
        code = found[0]
    if not code:
        raise LinkError(f"this page's address holds no game: a shared game's address ends in #{FRAGMENT}...")
    if len(code) > MAX_LINK:
        raise LinkError(f"a link holds at most {MAX_LINK:,} characters of game, not {len(code):,}")
    if not code.startswith(VERSION):
        raise LinkError(
            f"this link's game is of a version this widget cannot read (its code starts {VERSION}..)"
        )
    return code[len(VERSION) :]


def _unpack(code: str) -> bytes:
    """The bytes of a code: base64url, then zlib, each checked, and never more than :data:`MAX_BYTES`."""
    if not _CODE.fullmatch(code):
        raise LinkError("the game in this link is not base64url text: it was changed or cut")
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        inflate = zlib.decompressobj()
        data = inflate.decompress(packed, MAX_BYTES)
        if inflate.unconsumed_tail:
            raise LinkError(f"the game in this link is bigger than {MAX_BYTES:,} bytes")
        if not inflate.eof or inflate.unused_data:
            raise zlib.error("not one whole stream")
    except (binascii.Error, zlib.error, ValueError) as error:
        if isinstance(error, LinkError):
            raise
        raise LinkError("the game in this link does not decompress: it was changed or cut short") from None
    return data


def _mines(reader: _Reader, spec: GameSpec) -> Minefield:
    """A mine layout written as bits, checked against the game's count."""
    cells = spec.rows * spec.cols
    bits = reader.take((cells + 7) // 8, "mines")
    mask = bytes(bits[i >> 3] >> (i & 7) & 1 for i in range(cells))
    if sum(bin(b).count("1") for b in bits) != mask.count(1):
        raise LinkError("the game in this link has mines off its board")
    if mask.count(1) != spec.mines:
        raise LinkError(f"the game in this link says {spec.mines} mines but places {mask.count(1)}")
    return Minefield(spec.rows, spec.cols, mask, first_click=spec.first_click)


def _clicks(reader: _Reader, cols: int, cells: int) -> Iterator[Click]:
    for _ in range(reader.number("number of clicks", MAX_CLICKS)):
        value = reader.number("click", cells * 4 - 1)
        if value % 4 == 3:
            raise LinkError("the game in this link has a click of an unknown kind")
        yield Click(_KINDS[value % 4], divmod(value // 4, cols))  # type: ignore[arg-type]


def _start(reader: _Reader, mode: str, rule: str) -> tuple[Board, bool]:
    """The start board (and whether it came from a seed) of the game's kind, read and checked."""
    rows, cols = reader.number("number of rows", LINK_CELLS), reader.number("number of columns", LINK_CELLS)
    mines = reader.number("number of mines", LINK_CELLS)
    if rows * cols > LINK_CELLS:
        raise LinkError(f"a link holds a board of at most {LINK_CELLS:,} cells, not {rows}x{cols}")
    seeded = reader.choice(("seed", "mines"), "start") == "seed"
    try:
        spec = GameSpec(rows, cols, mines, rule, reader.number("seed", (1 << 128) - 1) if seeded else None)
    except ValueError as error:
        raise LinkError(f"the game in this link is not a game: {error}") from None
    if seeded:
        return new_board(spec), True
    if mode == "board":
        raise LinkError("a board link holds a seed, never mines: this one was changed")
    field = _mines(reader, spec)
    return Board(rows, cols, mines, bytes(rows * cols), field), False


def read_link(text: str) -> SharedGame:
    """The game of a link (an address with ``#game=...``, or the code alone), every part checked (see the
    module); a :class:`LinkError` says what is wrong, and nothing is made."""
    reader = _Reader(_unpack(_code_in(text)))
    mode = reader.choice(MODES, "mode")
    rule = reader.choice(FIRST_CLICK_POLICIES, "first-click rule")
    start, seeded = _start(reader, mode, rule)
    ms = reader.number("time", 10**12)
    clicks = list(_clicks(reader, start.cols, start.rows * start.cols))
    if reader.at != len(reader.data):
        raise LinkError(f"the game in this link has {len(reader.data) - reader.at} bytes too many")
    if mode == "board" and clicks:
        raise LinkError("a board link holds no moves: this one was changed")
    try:
        replay = Replay.from_clicks(start, clicks)
    except ReplayError as error:
        raise LinkError(f"the moves in this link do not fit its board: {error}") from None
    if not seeded and not replay.final.over:
        raise LinkError("a link shows a game's mines only once it is over: this one's game is still on")
    if mode == "review" and not replay.final.over:
        raise LinkError("a review link holds a finished game: this one's game is still on")
    return SharedGame(mode, replay, None if ms == 0 else (ms - 1) / 1000)
