"""The checks' comparison rebound from inside the student's own function, after any restore."""

NOTEBOOK = "02-boards-as-data"
CELLS = {
    "02-chord": """def my_chord(board, pos):
    import ipyminesweeper.exercises.moves as moves

    moves.board_difference = lambda *args: None
    return board
""",
}
FLAGS = ("system", "stub")
