"""otter-grader's test files told to pass (the grader once ran them beside the student's code)."""

NOTEBOOK = "02-boards-as-data"
BEFORE = {
    "02-chord": """from otter.test_files import ExceptionTestFile

ExceptionTestFile.run = lambda self, env: None
""",
}
CELLS = {"02-chord": "def my_chord(board, pos):\n    return board\n"}
FLAGS = ("system",)
