"""The widget: an Elm-style shell around the engine (see :mod:`.session` and :mod:`.widget`)."""

from .widget import Minesweeper

__all__ = ["Minesweeper"]
