"""The answer put in a cell that carries the id and the mark of one of the course's given cells."""

NOTEBOOK = "02-boards-as-data"
CELLS = {"02-chord": "my_chord = chord\n"}
GIVEN_ID = "02-chord"  # the test gives this exercise's cell the id and metadata of a given cell
FLAGS = ("library",)
