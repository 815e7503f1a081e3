"""builtins.__import__ replaced, and a module in sys.modules with a property of its own."""

NOTEBOOK = "02-boards-as-data"
BEFORE = {
    "02-chord": """import builtins, sys, types

real = builtins.__import__
builtins.__import__ = lambda name, *args, **kwargs: real(name, *args, **kwargs)


class Passing(types.ModuleType):
    @property
    def run_check(self):
        return lambda *args, **kwargs: None


sys.modules["ipyminesweeper.exercises.search"] = Passing("ipyminesweeper.exercises.search")
""",
}
CELLS = {"02-chord": "def my_chord(board, pos):\n    return board\n"}
FLAGS = ("system",)
