"""Play Minesweeper in marimo: `marimo edit notebooks/marimo/01-play.py` (or `marimo run`)."""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    from ipyminesweeper import Minesweeper

    return Minesweeper, mo


@app.cell(hide_code=True)
def _(mo):
    mo.md(
        r"""
        # Minesweeper in marimo

        The same widget as in `notebooks/01-play.ipynb`, wrapped with `mo.ui.anywidget`. Left click (or
        tap) reveals, right click (or hold) flags, clicking a number chords; the keyboard works once the
        board has focus: arrows, Space, F, C, N, G (flag mode).

        Every move in the browser writes the widget's synced `requests` traitlet, so marimo re-runs the
        cells that read `game`: the cell below the board follows the game as you play.
        """
    )
    return


@app.cell
def _(Minesweeper, mo):
    w = Minesweeper("beginner", seed=2024)
    game = mo.ui.anywidget(w)
    game
    return (game,)


@app.cell
def _(game, mo):
    # `game.value` is the widget's synced state (a dict); `game.board` is the immutable Board itself.
    state = game.value
    moves = len(game.history) - 1
    mo.vstack(
        [
            mo.md(f"**status:** {state['status']} · **moves:** {moves} · **mines left:** {state['mines_left']}"),
            mo.plain_text(game.board.view.to_text()),
        ]
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(
        r"""
        ## The board is a value

        `game.board` is an immutable `Board`: try `from ipyminesweeper import reveal` and
        `reveal(game.board, (0, 0))` in a new cell. It returns a new board and leaves the game alone.
        """
    )
    return


if __name__ == "__main__":
    app.run()
