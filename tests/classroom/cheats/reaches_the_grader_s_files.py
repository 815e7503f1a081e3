"""The test files overwritten (once read by a relative path), the folder changed, the answer key and the
other hand-ins read."""

NOTEBOOK = "02-boards-as-data"
BEFORE = {
    "02-chord": """import os

os.makedirs("autograder/tests", exist_ok=True)
with open("autograder/tests/02-chord.py", "w") as out:
    out.write("def property_1(env): pass\\n")
for path in (
    "{teacher}/02-boards-as-data.ipynb",
    "{handins}/ada--02-boards-as-data.ipynb",
    "{autograder}/course.json",
):
    try:
        open(path).read()
    except OSError:
        pass
os.chdir("/")
""",
}
CELLS = {"02-chord": "def my_chord(board, pos):\n    return board\n"}
FLAGS = ("files", "system")
