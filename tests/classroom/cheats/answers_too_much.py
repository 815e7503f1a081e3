"""An answer far too large to send."""

NOTEBOOK = "02-boards-as-data"
CELLS = {"02-chord": "def my_chord(board, pos):\n    return list(range(10**6))\n"}
FLAGS = ("process",)
