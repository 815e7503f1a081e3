"""Every property holds: PropertyResult.held and Check.__bool__ patched, the stubs left as they are."""

NOTEBOOK = "02-boards-as-data"
BEFORE = {
    "02-toggle_flag": """from ipyminesweeper.exercises.report import Check, PropertyResult

PropertyResult.held = property(lambda self: True)
Check.__bool__ = lambda self: True
""",
}
CELLS = {"02-chord": "def my_chord(board, pos):\n    return board\n"}
FLAGS = ("system",)
