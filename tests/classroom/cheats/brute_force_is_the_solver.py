"""Notebook 04's brute force is the library's exact probabilities."""

NOTEBOOK = "04-probabilities"
CELLS = {"04-brute_force": "from ipyminesweeper import probabilities as brute_force\n"}
FLAGS = ("library",)
