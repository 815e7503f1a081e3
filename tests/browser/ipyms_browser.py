"""Shared helpers for the Minesweeper browser tests: notebooks, DOM reads, engine predictions."""

from __future__ import annotations

from typing import Any

from ipyminesweeper import Board, new_board, reveal

SEED = 2024
SIZE, MINES = 16, 40


def game_cells(widget: str) -> list[str]:
    """A test notebook: cell 0 shows ``widget``, cell 1 prints the Python side as a PROBE line."""
    return [
        f"from ipyminesweeper import Minesweeper\nw = {widget}\nw",
        "import json\n"
        "print('PROBE ' + json.dumps({'board': w.board.to_text(), 'status': w.status,\n"
        "    'cells': w.board.view.cells, 'history': len(w.history), 'seed': w.board.seed,\n"
        "    'mines_left': w.mines_left, 'autoplaying': w.autoplaying}))",
    ]


def cell(page: Any, r: int, c: int) -> Any:
    return page.locator(f'.ipyms-cell[data-row="{r}"][data-col="{c}"]')


def dom_cells(page: Any) -> str:
    """The board as the DOM shows it, in the view alphabet (row-major, from each cell's data-state)."""
    return str(
        page.evaluate(
            """() => {
              const cs = [...document.querySelectorAll('.ipyms-cell')];
              const b = document.querySelector('.ipyms-board');
              const cols = +b.dataset.cols;
              const out = new Array(cs.length);
              for (const c of cs) out[+c.dataset.row * cols + +c.dataset.col] = c.dataset.state;
              return out.join('');
            }"""
        )
    )


def wait_dom_cells(page: Any, expected: str, timeout: int = 30_000) -> None:
    page.wait_for_function(
        """expected => {
          const b = document.querySelector('.ipyms-board');
          if (!b) return false;
          const cols = +b.dataset.cols;
          const cs = document.querySelectorAll('.ipyms-cell');
          if (cs.length !== expected.length) return false;
          for (const c of cs) {
            if (c.dataset.state !== expected[+c.dataset.row * cols + +c.dataset.col]) return false;
          }
          return true;
        }""",
        arg=expected,
        timeout=timeout,
    )


def wait_status(page: Any, status: str, timeout: int = 30_000) -> None:
    page.wait_for_selector(f'.ipyms-root[data-status="{status}"]', timeout=timeout)


def start_board(first: tuple[int, int]) -> Board:
    """What the engine says the notebook's board is after the first click at ``first``."""
    return reveal(new_board(SIZE, SIZE, MINES, seed=SEED), first)


def winning_clicks(board: Board) -> list[tuple[int, int]]:
    """A scripted move list from a board whose mines are placed: reveal each safe cell still covered
    (cascades make most of them unnecessary). Returns the clicks in order."""
    clicks = []
    for pos in board.positions():
        if board.status != "playing":
            break
        if not board.is_mine(pos) and board.view[pos] in ".f":
            clicks.append(pos)
            board = reveal(board, pos)
    assert board.status == "won"
    return clicks


def win_by_clicks(page: Any, board: Board) -> Board:
    """Reveal every safe cell still covered, in reading order, with real clicks, waiting after each for
    the page to show what the engine says. Returns the final board."""
    for pos in board.positions():
        if board.status != "playing":
            break
        if not board.is_mine(pos) and board.view[pos] == ".":
            board = reveal(board, pos)
            cell(page, *pos).click()
            wait_dom_cells(page, board.view.cells)
    return board


def a_mine(board: Board) -> tuple[int, int]:
    return next(p for p in board.positions() if board.is_mine(p) and board.view[p] == ".")
