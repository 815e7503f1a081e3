"""Minesweeper examples for the checks and for your own properties: mine layouts, positions reached by play,
views, games.

Every board is one a real game can reach, made with the engine's own rules: a layout of mines (written in
the text notation, or a new game whose mines the first reveal places), then flags, safe reveals that
cascade (flags stop a cascade), and flags changed afterwards, so a covered cell may sit next to a revealed
0. Each kind is written once, as a function of a :class:`~.draws.Source` (``draw_layout``, ``draw_board``,
``draw_situation``...), and offered two ways: as a Hypothesis strategy (``boards()``...), which shrinks
what it draws towards fewer rows and columns, fewer mines, reveals and flags; and as the seeded examples
a check tries (:func:`~.draws.seeded_examples`).

>>> from hypothesis import given
>>> @given(boards())
... def test_counter(board):
...     assert board.flags_left == board.mines - board.flags
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

from hypothesis import strategies as st

from ..engine import Board, CellState, Position, View, chord, max_mines, new_board, reveal, toggle_flag
from .draws import Source, strategy_of

__all__ = [
    "MOVES",
    "Rule",
    "boards",
    "draw_board",
    "draw_game",
    "draw_layout",
    "draw_position",
    "draw_situation",
    "draw_view",
    "every_board_in_play",
    "games",
    "layouts",
    "positions",
    "positions_on",
    "situations",
    "views",
]

Rule = Callable[[Board, Position], Board]
"""A move as a function: a board and a position in, the next board out."""

MOVES: tuple[Rule, ...] = (reveal, toggle_flag, chord)
"""The three moves, as the functions a game folds over a board."""


def _scaled(cells: frozenset[Position], size: tuple[int, int], board: Board) -> list[Position]:
    """``cells`` of the largest grid (``size``) mapped onto ``board``'s smaller one, in reading order.

    Scaling keeps a drawing's density and shape when Hypothesis shrinks the board, so a smaller board
    still shows what a bigger one did."""
    rows, cols = size
    return sorted({(r * board.rows // rows, c * board.cols // cols) for r, c in cells})


def draw_layout(source: Source, max_rows: int = 6, max_cols: int = 6, pending: bool = True) -> Board:
    """A board before its first move (status ``"ready"``): mines written as text, about one cell in
    four at most; with ``pending``, now and then a new game instead (``new_board``), whose mines the
    first reveal places from a seed and a first-click rule."""
    rows = source.integer(1, max_rows)
    cols = source.integer(1, max_cols)
    n = rows * cols
    drawn = source.cells(max_rows, max_cols, max_rows * max_cols // 4, least=max_rows * max_cols // 12)
    mines = {(r * rows // max_rows, c * cols // max_cols) for r, c in drawn}
    if len(mines) == n:  # a board keeps at least one safe cell
        mines.discard((0, 0))
    # Drawn last, so that shrinking a new game into a written layout only drops the last draws.
    if pending and source.one_in(6):
        first_click = source.choice(("safe", "opening", "any"))
        count = min(len(mines), max_mines(rows, cols, first_click))
        return new_board(rows, cols, count, seed=source.integer(0, 1000), first_click=first_click)
    return Board.from_text(
        "\n".join("".join("*" if (r, c) in mines else "." for c in range(cols)) for r in range(rows))
    )


def draw_board(source: Source, max_rows: int = 6, max_cols: int = 6) -> Board:
    """A board still in play (``"ready"`` or ``"playing"``), reached from a layout by: flagging some
    cells, revealing some safe cells (each cascades through zeros, stopped by the flags), then putting
    the flags where they end up (right or wrong, taken back or new)."""
    board = source.part(draw_layout, max_rows, max_cols)
    size = (max_rows, max_cols)
    early_flags = _scaled(source.cells(max_rows, max_cols, 4), size, board)
    clicks = _scaled(source.cells(max_rows, max_cols, 4, least=1), size, board)
    flags = set(_scaled(source.cells(max_rows, max_cols, 6), size, board))
    for cell in early_flags:
        board = toggle_flag(board, cell)
    for click in clicks:
        safe = _safe_cell_from(board, click)
        if safe is None:
            break
        after = reveal(board, safe)
        if after.over:  # the cascade won the game: reveal a number instead, which opens one cell
            numbers = [p for p in board.covered() if board.placed and not board.is_mine(p) and board.count(p)]
            after = reveal(board, numbers[0]) if numbers else board
        if not after.over:  # the game stays on
            board = after
    for pos in board.positions():
        if board.state(pos) is not CellState.REVEALED and (board.state(pos) is CellState.FLAGGED) != (
            pos in flags
        ):
            board = toggle_flag(board, pos)
    return board


def _safe_cell_from(board: Board, pos: Position) -> Position | None:
    """The first covered cell from ``pos`` on, in reading order (wrapping), that is not a mine."""
    n = board.rows * board.cols
    start = pos[0] * board.cols + pos[1]
    for k in range(n):
        cell = divmod((start + k) % n, board.cols)
        if board.state(cell) is CellState.COVERED and not (board.placed and board.is_mine(cell)):
            return cell
    return None


def every_board_in_play(most_cells: int) -> Iterator[Board]:
    """Every board still in play of at most ``most_cells`` cells, fewest cells first: each shape, each
    layout of its mines (fewest first), each set of revealed safe cells (not all of them), each set of
    flags on the covered cells. Each is reached by the rules: the cells kept covered are flagged while
    the others are revealed, so no cascade goes past them, then the flags are put where they end up."""
    shapes = sorted(
        ((rows, cols) for rows in range(1, most_cells + 1) for cols in range(1, most_cells // rows + 1)),
        key=lambda shape: (shape[0] * shape[1], shape),
    )
    for rows, cols in shapes:
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        for mines in _subsets(cells, len(cells) - 1):
            start = Board.from_text(
                "\n".join("".join("*" if (r, c) in mines else "." for c in range(cols)) for r in range(rows))
            )
            safe = [pos for pos in cells if pos not in mines]
            for shown in _subsets(safe, len(safe) - 1):
                covered = [pos for pos in cells if pos not in shown]
                flagged = _toggled(start, covered)
                for pos in shown:
                    flagged = reveal(flagged, pos)
                bare = _toggled(flagged, covered)
                for flags in _subsets(covered, len(covered)):
                    yield _toggled(bare, flags)


def _subsets(items: Sequence[Position], most: int) -> Iterator[tuple[Position, ...]]:
    """The subsets of ``items`` of at most ``most`` items, smallest first."""
    for size in range(most + 1):
        yield from combinations(items, size)


def _toggled(board: Board, cells: Sequence[Position]) -> Board:
    for pos in cells:
        board = toggle_flag(board, pos)
    return board


def positions_on(rows: int, cols: int) -> st.SearchStrategy[Position]:
    """Any ``(row, col)`` of a ``rows x cols`` grid."""
    return st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))


def draw_position(source: Source, board: Board | View) -> Position:
    """A position on ``board``: half the time a revealed number, where the moves have most to do."""
    cells = board.view.cells if isinstance(board, Board) else board.cells
    numbers = [divmod(i, board.cols) for i, ch in enumerate(cells) if "1" <= ch <= "8"]
    if len(numbers) > 0 and source.one_in(2):
        return source.choice(numbers)
    return source.integer(0, board.rows - 1), source.integer(0, board.cols - 1)


def draw_situation(source: Source) -> tuple[Board, Position]:
    """A board in play and a position. Most of the time the position is a number (revealed, or still
    covered) with a covered cell left around it and about as many flags as it says (the right number,
    one short or one too many, some maybe on safe cells), or a revealed 0 next to a covered cell: where
    a chord or a second reveal has work to do, and mistakes show."""
    board = source.part(draw_board)
    view = board.view
    ready = []  # cells with a number (shown, or under a covered safe cell) and room for flags around
    for i, ch in enumerate(view.cells):
        pos = divmod(i, board.cols)
        around = [p for p in view.neighbours(pos) if view[p] in ".f"]
        if ch in "12345678" or (ch == "." and board.placed and not board.is_mine(pos) and board.count(pos)):
            if board.count(pos) < len(around):
                ready.append((pos, around, board.count(pos)))
        elif ch == "0" and around:  # a 0 next to a flag taken back after its cascade: chord does nothing
            ready.append((pos, around, 0))
    if not ready or source.one_in(4):
        return board, source.part(draw_position, board)
    pos, around, number = source.choice(ready)
    count = source.choice((number, number - 1, number + 1))  # right, one short, one too many
    count = max(0, min(count, len(around) - 1))
    flags = source.subset(around, count)
    for p in around:
        if (view[p] == "f") != (p in flags):
            board = toggle_flag(board, p)
    return board, pos


def draw_view(source: Source, max_rows: int = 6, max_cols: int = 6, max_unknown: int | None = None) -> View:
    """What a player sees of a board in play (see :func:`draw_board`); with ``max_unknown``, at most that
    many covered or flagged cells (few enough to try every layout of the mines)."""
    view = source.part(draw_board, max_rows, max_cols).view
    if max_unknown is not None and sum(ch in ".f" for ch in view.cells) > max_unknown:
        source.reject()
    return view


def draw_game(
    source: Source, max_rows: int = 5, max_cols: int = 5, max_moves: int = 8
) -> tuple[Board, list[tuple[Rule, Position]]]:
    """A start board (see :func:`draw_layout`) and the moves of a game, as ``(function, position)`` pairs.

    The moves are drawn blindly, so games often end early (on a mine) and later moves come after the
    end.
    """
    start = source.part(draw_layout, max_rows, max_cols)
    count = source.integer(0, max_moves)
    moves = [
        (source.choice(MOVES), (source.integer(0, start.rows - 1), source.integer(0, start.cols - 1)))
        for _ in range(count)
    ]
    return start, moves


def layouts(max_rows: int = 6, max_cols: int = 6, pending: bool = True) -> st.SearchStrategy[Board]:
    """Boards before their first move (see :func:`draw_layout`)."""
    return strategy_of(draw_layout, max_rows, max_cols, pending)


def boards(max_rows: int = 6, max_cols: int = 6) -> st.SearchStrategy[Board]:
    """Boards still in play (see :func:`draw_board`)."""
    return strategy_of(draw_board, max_rows, max_cols)


def positions(board: Board | View) -> st.SearchStrategy[Position]:
    """Positions on ``board``, half the time a revealed number (see :func:`draw_position`)."""
    return strategy_of(draw_position, board)


def situations() -> st.SearchStrategy[tuple[Board, Position]]:
    """A board in play and a position where the moves have work to do (see :func:`draw_situation`)."""
    return strategy_of(draw_situation)


def views(max_rows: int = 6, max_cols: int = 6, max_unknown: int | None = None) -> st.SearchStrategy[View]:
    """What a player sees of boards in play (see :func:`draw_view`)."""
    return strategy_of(draw_view, max_rows, max_cols, max_unknown)


def games(
    max_rows: int = 5, max_cols: int = 5, max_moves: int = 8
) -> st.SearchStrategy[tuple[Board, list[tuple[Rule, Position]]]]:
    """Start boards and blindly drawn moves (see :func:`draw_game`)."""
    return strategy_of(draw_game, max_rows, max_cols, max_moves)
