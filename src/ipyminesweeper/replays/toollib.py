"""AVF, RMV, MVF and EVF replays, read through ms_toollib (the optional extra ``ipyminesweeper[replays]``).

ms_toollib parses the binary formats of Minesweeper Arbiter (``.avf``), Vienna MineSweeper (``.rmv``),
Minesweeper Clone (``.mvf``) and its own EVF (``.evf``). It is a compiled (Rust) library: Pyodide does
not have it, and where it is missing :func:`read_video` says how to get it.

A malformed file makes ms_toollib 1.5 stop the whole process (a Rust panic that aborts), so it is read
in a child process: the child hands back the mine layout and the mouse events as JSON, or dies, and a
file that kills it is a :class:`~ipyminesweeper.engine.ReplayError`, with this process untouched. The
mouse events become clicks here, by the same rules as RAWVF (:mod:`ipyminesweeper.engine.mouse`), and
the board they lead to must be the one ms_toollib ends on.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..engine import Board, Minefield, Replay, ReplayError
from ..engine.mouse import MouseEvent, replay_from_mouse

__all__ = ["MISSING", "TIMEOUT", "TOOLLIB_FORMATS", "read_video"]

TOOLLIB_FORMATS: tuple[str, ...] = (".avf", ".rmv", ".mvf", ".evf")

TIMEOUT = 60.0
"""Seconds the child process may take to parse one file."""

MISSING = (
    "reading {suffix} replays needs ms_toollib, the optional extra: pip install 'ipyminesweeper[replays]'. "
    "It is a compiled library that Pyodide (JupyterLite) does not have; RAWVF replays (.rawvf) are read "
    "everywhere."
)

_CHILD = r"""
import json, sys
import ms_toollib
path, kind = sys.argv[1], sys.argv[2]
video = getattr(ms_toollib, kind)(path)
video.parse()
video.analyse()
video.current_time = 1e9
events = []
for recorded in video.events:
    event = recorded.event
    if event.is_mouse():
        mouse = event.unwrap_mouse()
        events.append([recorded.time, mouse.mouse, mouse.x, mouse.y])
json.dump({
    "rows": video.row, "cols": video.column, "mines": video.mine_num, "pix": video.pix_size,
    "board": [list(row) for row in video.board], "final": [list(row) for row in video.game_board],
    "events": events, "rtime": video.rtime, "player": str(video.player_identifier),
    "software": str(video.software),
}, sys.stdout)
"""

_KINDS = {".avf": "AvfVideo", ".rmv": "RmvVideo", ".mvf": "MvfVideo", ".evf": "EvfVideo"}


def _parsed(path: Path, suffix: str) -> dict[str, Any]:
    """What ms_toollib reads in ``path``, from a child process (see the module)."""
    if importlib.util.find_spec("ms_toollib") is None:
        raise ModuleNotFoundError(MISSING.format(suffix=suffix), name="ms_toollib")
    if not path.is_file():
        raise FileNotFoundError(f"no replay file {str(path)!r}")
    try:  # in a folder of its own: a panicking ms_toollib writes a crash.log where it runs
        with tempfile.TemporaryDirectory() as folder:
            done = subprocess.run(
                [sys.executable, "-c", _CHILD, str(path.resolve()), _KINDS[suffix]],
                capture_output=True,
                timeout=TIMEOUT,
                check=False,
                cwd=folder,
            )
    except subprocess.TimeoutExpired:
        raise ReplayError(f"{path.name}: ms_toollib took over {TIMEOUT:.0f} s to read it") from None
    if done.returncode != 0:
        raise ReplayError(
            f"{path.name}: ms_toollib cannot read it as a {suffix} replay (it stopped with exit code "
            f"{done.returncode}): the file is broken or of another format"
        )
    try:
        data: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        raise ReplayError(f"{path.name}: ms_toollib's reading of it is not JSON") from None
    return data


def _start(data: dict[str, Any], name: str) -> Board:
    """The covered board of the layout ms_toollib read (mines are -1), checked."""
    rows, cols, grid = data["rows"], data["cols"], data["board"]
    if not (isinstance(rows, int) and isinstance(cols, int) and rows > 0 and cols > 0):
        raise ReplayError(f"{name}: the replay's board has no size ({rows!r} x {cols!r})")
    if len(grid) != rows or any(len(row) != cols for row in grid):
        raise ReplayError(f"{name}: the replay's board is not {rows} rows of {cols} cells")
    mask = bytes(1 if cell == -1 else 0 for row in grid for cell in row)
    if mask.count(1) != data["mines"]:
        raise ReplayError(f"{name}: the board holds {mask.count(1)} mines; the replay says {data['mines']}")
    # the programs these files come from make the first click safe
    field = Minefield(rows, cols, mask, first_click="safe")
    start = Board(rows, cols, mask.count(1), bytes(rows * cols), field)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell != -1 and cell != start.counts[r * cols + c]:
                truth = start.counts[r * cols + c]
                raise ReplayError(
                    f"{name}: the cell at row {r}, column {c} shows {cell}; its mines make it {truth}"
                )
    return start


def read_video(path: Path, suffix: str) -> Replay:
    """The game of the ``.avf``, ``.rmv``, ``.mvf`` or ``.evf`` replay at ``path``, through ms_toollib."""
    data = _parsed(path, suffix)
    start = _start(data, path.name)
    pix = data["pix"]
    if not isinstance(pix, int) or pix <= 0:
        raise ReplayError(f"{path.name}: the replay's cell size is {pix!r} pixels")
    events = [
        MouseEvent(float(time), str(action), int(y) // pix, int(x) // pix, f"{path.name}, event {n}")
        for n, (time, action, x, y) in enumerate(data["events"], start=1)
    ]
    replay = replay_from_mouse(
        start, events, player=data["player"], program=data["software"], duration=float(data["rtime"])
    )
    revealed = bytes(1 if cell not in (10, 11, 12) else 0 for row in data["final"] for cell in row)
    ours = bytes(1 if state == 2 else 0 for state in replay.final.states)
    if replay.final.status != "lost" and revealed != ours:
        raise ReplayError(f"{path.name}: its clicks open other cells here than in ms_toollib")
    return replay
