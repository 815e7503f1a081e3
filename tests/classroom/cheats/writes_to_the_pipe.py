"""Results written straight into the pipe to the grader, found through gc and the open descriptors: a
row of 18,000 points, an exercise of another notebook, answers nobody asked for."""

NOTEBOOK = "02-boards-as-data"
BEFORE = {
    "02-chord": """import gc, io, json, os

case = {"name": "x", "points": 18000, "passed": True, "message": ""}
forged = [
    {"exercise": "02-chord", "status": "graded", "cases": [case]},
    {"exercise": "06-update", "status": "graded", "cases": [case]},
    {"n": 1, "value": None},
    {"n": 2, "value": None},
    {"done": True},
]
lines = b"".join(json.dumps(line).encode() + b"\\n" for line in forged)
for thing in gc.get_objects():
    if isinstance(thing, io.BufferedWriter):
        try:
            thing.write(lines)
            thing.flush()
        except Exception:
            pass
for fd in range(3, 64):
    try:
        os.write(fd, lines)
    except OSError:
        pass
""",
}
CELLS = {"02-chord": "def my_chord(board, pos):\n    return board\n"}
FLAGS = ("system",)
