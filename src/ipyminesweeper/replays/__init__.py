"""Replay files: :func:`load_replay` and :func:`save_replay`, the format taken from the file's suffix.

- ``.rawvf``: RAWVF, the open text format, read and written in pure Python
  (:mod:`ipyminesweeper.engine.rawvf`), in every host, Pyodide too;
- ``.avf`` (Minesweeper Arbiter), ``.rmv`` (Vienna MineSweeper), ``.mvf`` (Minesweeper Clone) and
  ``.evf`` (the open binary format of ms_toollib and Metasweeper): read through ms_toollib
  (:mod:`.toollib`), the optional extra ``pip install ipyminesweeper[replays]``, a compiled library that
  Pyodide does not have. Only RAWVF is written.

Whatever the format, a file that does not parse or that contradicts itself raises a
:class:`~ipyminesweeper.engine.ReplayError` (a ValueError) that says what is wrong, and nothing is kept.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..engine import Replay, ReplayError
from ..engine.rawvf import MAX_RAWVF, read_rawvf, write_rawvf
from ..engine.replay import as_replay
from .toollib import TOOLLIB_FORMATS, read_video

__all__ = ["FORMATS", "load_replay", "save_replay"]

FORMATS: tuple[str, ...] = (".rawvf", *TOOLLIB_FORMATS)
"""The suffixes :func:`load_replay` reads (:func:`save_replay` writes ``.rawvf``)."""


def _suffix(path: object, what: str) -> tuple[Path, str]:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{what}(path): path is a file name (str or Path), not {type(path).__name__}")
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(
            f"{what}(path): the format is taken from the file's suffix, one of {', '.join(FORMATS)}; "
            f"{file.name!r} has {suffix or 'none'}"
        )
    return file, suffix


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """The game recorded in the replay file at ``path`` (see the module for the formats), as a
    :class:`~ipyminesweeper.engine.Replay`: ``review(load_replay(path))`` reviews it."""
    file, suffix = _suffix(path, "load_replay")
    if suffix != ".rawvf":
        return read_video(file, suffix)
    data = file.read_bytes()
    if len(data) > MAX_RAWVF:
        raise ReplayError(f"{file.name}: a RAWVF replay is at most {MAX_RAWVF:,} bytes, not {len(data):,}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:  # older programs wrote the player's name in a Windows code page
        text = data.decode("latin-1")
    try:
        return read_rawvf(text)
    except ReplayError as error:
        raise ReplayError(f"{file.name}: {error}") from None


def save_replay(game: object, path: str | os.PathLike[str]) -> Path:
    """Write ``game`` (a :class:`~ipyminesweeper.engine.Replay`, what :func:`~ipyminesweeper.play`
    returns or a widget's ``history``) to ``path`` as RAWVF (``.rawvf``). Returns the path. The file is
    written whole or not at all."""
    file, suffix = _suffix(path, "save_replay")
    replay = as_replay(game, "save_replay")
    if suffix != ".rawvf":
        raise ValueError(f"save_replay(path): {suffix} replays are read, not written; write a .rawvf file")
    text = write_rawvf(replay)
    partial = file.with_name(file.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(file)
    return file
