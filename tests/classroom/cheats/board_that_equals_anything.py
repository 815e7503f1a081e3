"""A Board whose __eq__ always says True, and a tuple whose __eq__ does."""

NOTEBOOK = "02-boards-as-data"
CELLS = {
    "02-toggle_flag": """class Anything(Board):
    def __eq__(self, other):
        return True

    __hash__ = Board.__hash__


def my_toggle_flag(board, pos):
    return Anything(board.rows, board.cols, board.mines, board.states, board.minefield, board.exploded_index)
""",
    "02-replay": """class Everything(tuple):
    def __eq__(self, other):
        return True

    __hash__ = tuple.__hash__


def my_replay(start, moves):
    return Everything((start,))
""",
}
FLAGS = ("stub",)
