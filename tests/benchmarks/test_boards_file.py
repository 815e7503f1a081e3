"""The boards file of ``benchmarks versus``: reading, writing, drawing, and the board a strategy gets."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from benchmarks.boards_file import (
    BoardsFileError,
    BoardSpec,
    generate,
    mulberry32,
    read_boards,
    to_board,
    write_boards,
)

GOOD = {"seed": 7, "rows": 3, "cols": 4, "first": [0, 0], "mines": [[2, 3], [1, 2]]}


def _file(tmp_path: Path, *lines: object) -> Path:
    path = tmp_path / "boards.jsonl"
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return path


def test_reads_a_board_with_its_mines_sorted(tmp_path: Path) -> None:
    (board,) = read_boards(_file(tmp_path, GOOD, ""))
    assert board == BoardSpec(7, 3, 4, (0, 0), ((1, 2), (2, 3)))


def test_write_then_read_gives_the_same_boards(tmp_path: Path) -> None:
    boards = [generate(s, 16, 30, 99, (3, 3), "opening") for s in range(5)]
    path = tmp_path / "out.jsonl"
    assert write_boards(path, boards) == 5
    assert read_boards(path) == boards


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"mines": [[0, 0]]}, "first click [0, 0] is a mine"),
        ({"mines": [[1, 1], [1, 1]]}, "listed twice"),
        ({"mines": [[3, 0]]}, "a mine must be [row, col] inside the 3x4 board"),
        ({"first": [0, 4]}, "first must be [row, col]"),
        ({"first": [0]}, "first must be [row, col]"),
        ({"rows": "3"}, "must be ints"),
        ({"seed": 1.5}, "must be ints"),
        ({"mines": "none"}, "mines must be a list"),
    ],
)
def test_a_bad_board_is_refused_naming_its_line(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    with pytest.raises(
        BoardsFileError, match=r"line 2: .*" + message.replace("[", r"\[").replace("]", r"\]")
    ):
        read_boards(_file(tmp_path, {**GOOD, "seed": 1}, {**GOOD, **change}))


def test_missing_fields_bad_json_and_a_repeated_seed_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BoardsFileError, match="line 1: missing first, mines"):
        read_boards(_file(tmp_path, {"seed": 1, "rows": 2, "cols": 2}))
    with pytest.raises(BoardsFileError, match="line 1: "):
        read_boards(_file(tmp_path, "{not json"))
    with pytest.raises(BoardsFileError, match="line 1: a board is a JSON object"):
        read_boards(_file(tmp_path, [1, 2]))
    with pytest.raises(BoardsFileError, match=r"line 3: seed 7 again \(first on line 1\)"):
        read_boards(_file(tmp_path, GOOD, {**GOOD, "seed": 8}, GOOD))


def test_mulberry32_gives_the_javascript_numbers() -> None:
    # node: const r = mulberry32(1); [r(), r(), r()] (the harness's boards.js); and from the top seed
    draw = mulberry32(1)
    assert [next(draw) for _ in range(3)] == [0.6270739405881613, 0.002735721180215478, 0.5274470399599522]
    draw = mulberry32(4294967295)
    assert [next(draw) for _ in range(2)] == [0.8964226141106337, 0.189478256739676]


def test_generate_draws_the_javascript_harness_boards() -> None:
    # node: makeBoard(123456, 9, 9, 10, [0, 0], "safe") and makeBoard(3000000000, 9, 9, 10, [4, 4], "opening")
    safe = generate(123456, 9, 9, 10, (0, 0), "safe")
    assert [list(m) for m in safe.mines] == [
        [0, 1],
        [1, 7],
        [2, 2],
        [2, 5],
        [3, 4],
        [4, 6],
        [5, 7],
        [6, 2],
        [7, 1],
        [8, 8],
    ]
    opening = generate(3000000000, 9, 9, 10, (4, 4), "opening")
    assert [list(m) for m in opening.mines] == [
        [1, 3],
        [1, 4],
        [2, 1],
        [2, 8],
        [3, 0],
        [4, 0],
        [5, 6],
        [5, 8],
        [7, 0],
        [8, 7],
    ]


def test_generated_boards_keep_the_start_free_and_spread_mines_evenly() -> None:
    hits: Counter[tuple[int, int]] = Counter()
    for seed in range(600):
        safe = generate(seed, 9, 9, 10, (0, 0), "safe")
        opening = generate(seed, 9, 9, 10, (4, 4), "opening")
        assert len(set(safe.mines)) == 10 and (0, 0) not in safe.mines
        assert opening.opening() and len(set(opening.mines)) == 10
        hits.update(safe.mines)
    # 6,000 mines over 80 cells: 75 expected per cell; a uniform draw stays well inside 40..110
    assert len(hits) == 80 and min(hits.values()) > 40 and max(hits.values()) < 110


def test_generate_refuses_impossible_requests() -> None:
    with pytest.raises(ValueError, match="start is one of"):
        generate(1, 9, 9, 10, (0, 0), "any")
    with pytest.raises(ValueError, match="unsigned 32-bit"):
        generate(-1, 9, 9, 10, (0, 0), "safe")
    with pytest.raises(ValueError, match="off the"):
        generate(1, 9, 9, 10, (9, 0), "safe")
    with pytest.raises(ValueError, match="do not fit"):
        generate(1, 3, 3, 1, (1, 1), "opening")


def test_to_board_places_the_mines_and_reveals_the_first_click() -> None:
    spec = generate(42, 16, 30, 99, (3, 3), "opening")
    board = to_board(spec)
    assert board.status == "playing"
    assert {p for p in board.positions() if board.is_mine(p)} == set(spec.mines)
    assert board.view.cells[3 * 30 + 3] == "0"
