"""The course's exercise list pointed at the engine's functions, its number of examples cut, the
grader's feedback replaced."""

NOTEBOOK = "02-boards-as-data"
BEFORE = {
    "02-chord": """import ipyminesweeper.classroom.course as course
import ipyminesweeper.classroom.grading as grading

object.__setattr__(course.EXERCISES["02-chord"], "names", ("chord",))
object.__setattr__(course.EXERCISES["02-chord"], "tries", 1)
grading.Course.possible = lambda self, exercise: 18000
""",
}
CELLS = {"02-chord": "def my_chord(board, pos):\n    return board\n"}
FLAGS = ("system",)
