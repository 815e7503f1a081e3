"""A 02 hand-in whose metadata says it is 06, whose answers are the library's."""

NOTEBOOK = "02-boards-as-data"
METADATA = {"ipyminesweeper": {"notebook": "06-the-elm-loop", "edition": "student"}}
CELLS = {"02-chord": "my_chord = chord\n"}
FLAGS = ("library",)
