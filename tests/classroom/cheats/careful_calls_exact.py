"""A strategy that asks the library's exact for every move."""

NOTEBOOK = "03-autoplayer"
CELLS = {"03-careful": "def careful(view):\n    return exact(view)\n"}
FLAGS = ("library",)
