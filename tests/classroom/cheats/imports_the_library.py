"""The library's chord, imported under the exercise's name."""

NOTEBOOK = "02-boards-as-data"
CELLS = {"02-chord": "from ipyminesweeper.engine.rules import chord as my_chord\n"}
FLAGS = ("library",)
