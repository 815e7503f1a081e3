"""The check's expected board, read from the frames above the student's function."""

NOTEBOOK = "02-boards-as-data"
CELLS = {
    "02-chord": """import sys


def my_chord(board, pos):
    frame = sys._getframe(1)
    while frame is not None:
        if "expected" in frame.f_locals:
            return frame.f_locals["expected"]
        frame = frame.f_back
    return board
""",
}
FLAGS = ("system", "stub")
