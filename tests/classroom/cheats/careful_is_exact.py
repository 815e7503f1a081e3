"""Notebook 03's strategy is the library's exact (a given cell even asserts that exact passes)."""

NOTEBOOK = "03-autoplayer"
CELLS = {"03-careful": "careful = exact\n"}
FLAGS = ("library",)
