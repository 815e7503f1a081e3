"""The library's chord reached without writing its name."""

NOTEBOOK = "02-boards-as-data"
CELLS = {"02-chord": 'my_chord = getattr(__import__("ipyminesweeper"), "cho" + "rd")\n'}
FLAGS = ("library", "system")
