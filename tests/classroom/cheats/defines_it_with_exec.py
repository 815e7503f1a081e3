"""The answer defined where no reading of the code finds it."""

NOTEBOOK = "02-boards-as-data"
CELLS = {"02-chord": 'exec("def my_chord(board, pos):\\n    return chord(board, pos)\\n")\n'}
FLAGS = ("system",)
