"""A profile function that makes every function of the checks return True."""

NOTEBOOK = "02-boards-as-data"
BEFORE = {
    "02-chord": """import sys


def always(frame, event, arg):
    if event == "return" and "exercises" in frame.f_code.co_filename:
        frame.f_locals["result"] = True
    return always


sys.setprofile(always)
""",
}
CELLS = {"02-chord": "def my_chord(board, pos):\n    return board\n"}
FLAGS = ("system",)
