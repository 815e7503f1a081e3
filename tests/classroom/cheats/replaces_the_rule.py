"""The engine's chord itself rewritten to do nothing, so that a stub agrees with it."""

NOTEBOOK = "02-boards-as-data"
CELLS = {
    "02-chord": "chord.__code__ = (lambda board, pos: board).__code__\n\n\n"
    "def my_chord(board, pos):\n    return board\n",
}
FLAGS = ("system", "stub")
