"""The discordant-board study: where exact and a traced reference solver part, and what kind of difference.

The reference traces here are made up from exact's own moves (Hill's solvers cannot run in CI): the same
certain moves in another order, then a different first guess.
"""

from __future__ import annotations

import pytest
from benchmarks.boards_file import BoardSpec, generate, to_board
from benchmarks.discordant import (
    Divergence,
    classify,
    exact_path,
    first_divergence,
    hill_path,
    parse_js_scores,
)

from ipyminesweeper import exact, play


def _first_guess_board() -> tuple[BoardSpec, list[tuple[int, int]], tuple[int, int], str]:
    """An expert board whose first guess comes after some certain moves: the board, those moves in
    order, exact's first guess and the view before it."""
    for seed in range(100):
        spec = generate(seed, 16, 30, 99, (3, 3), "opening")
        board = to_board(spec)
        certain: list[tuple[int, int]] = []
        while not board.over:
            cells = board.view.cells
            board, (move,) = play(board, exact, max_moves=1)
            if move.is_guess:
                if len(certain) >= 3:
                    return spec, certain, move.pos, cells
                break
            certain.append(move.pos)
    raise AssertionError("no board with certain moves before a guess")


def test_the_first_differing_guess_is_found_whatever_the_order_of_certain_moves() -> None:
    spec, certain, guessed, cells = _first_guess_board()
    other = next(divmod(i, 30) for i, ch in enumerate(cells) if ch == "." and divmod(i, 30) != guessed)
    rest = "expected clears = 1, always clear = 0"
    log = [
        f"Tile ({guessed[1]},{guessed[0]}), secondary safety = 0.5, 50/50 influence = 1,"
        f" blended safety = 0.5, progress = 0.1, {rest}, final score = 0.5",
        f"Tile ({other[1]},{other[0]}), secondary safety = 0.6, 50/50 influence = 1.02,"
        f" blended safety = 0.61, progress = 0.2, {rest}, final score = 0.62",
    ]
    trace = [{"pos": list(p), "p_safe": 1} for p in reversed(certain)] + [
        {"pos": list(other), "p_safe": 0.8, "messages": ["Guessing heuristic suggests ..."], "log": log}
    ]
    d = first_divergence(spec, "hill", trace)
    assert (d.index, d.exact_pos, d.hill_pos) == (0, guessed, other)
    assert d.cells == cells.replace("f", ".")
    assert d.hill_path == "look-ahead" and d.exact_path == exact_path(16, 30, 99, cells)[0]
    assert d.hill_scores["hill"]["influence"] == 1.02 and d.hill_scores["exact"]["score"] == 0.5
    assert 0 < d.p_mine["exact"] < 1 and 0 <= d.p_mine["hill"] <= 1 and d.hill_p_safe == 0.8
    assert d.kind == classify(d)


def test_the_same_guesses_then_a_difference_later() -> None:
    # exact's whole game as a Java-style trace (certain moves included), with its second guess changed
    for seed in range(200):
        spec = generate(seed, 16, 30, 99, (0, 0), "safe")
        board = to_board(spec)
        steps: list[dict[str, object]] = []
        guesses = 0
        while not board.over:
            cells = board.view.cells
            board, (move,) = play(board, exact, max_moves=1)
            guesses += move.is_guess
            if guesses == 2:
                other = next(
                    divmod(i, 30) for i, ch in enumerate(cells) if ch == "." and divmod(i, 30) != move.pos
                )
                steps.append(
                    {"pos": list(other), "p_safe": 0.7, "certain": False, "method": "PROBABILITY_ENGINE"}
                )
                d = first_divergence(spec, "exact", steps)
                assert (d.index, d.exact_pos, d.hill_pos, d.hill_path) == (1, move.pos, other, "look-ahead")
                return
            method = "PROBABILITY_ENGINE" if move.is_guess else "LOCAL"
            steps.append(
                {"pos": list(move.pos), "p_safe": 0.5, "certain": not move.is_guess, "method": method}
            )
    raise AssertionError("no game with two guesses")


def test_parse_js_scores_reads_his_tiles_as_column_row() -> None:
    scores = parse_js_scores(
        [
            "Tile (3,1), secondary safety = 0.84, 50/50 influence = 1.0001341, blended safety = 0.8386,"
            " progress = 0.25, expected clears = 1.49, always clear = 0, final score = 0.8388",
            "Tile (2,4) is being pruned,  50/50 influence = 1, max score possible is 0.8485",
            "Tile (7,0) is dead",
            "something else",
        ]
    )
    assert scores[(1, 3)] == {
        "secondary": 0.84,
        "influence": 1.0001341,
        "blended": 0.8386,
        "progress": 0.25,
        "score": 0.8388,
    }
    assert scores[(4, 2)] == {"pruned": True, "influence": 1.0}
    assert scores[(0, 7)] == {"dead": True}


@pytest.mark.parametrize(
    ("move", "path"),
    [
        ({"messages": ["Thinking...", "Tile (1,2) has a 75.00% chance to win the game."]}, "endgame"),
        ({"messages": ["Tile (1,2) is an unavoidable 50/50 guess, or safe."]}, "fifty-fifty"),
        ({"messages": ["Tile (1,2) has a 50.00% chance to solve the isolated edge."]}, "region"),
        ({"messages": ["Guessing heuristic suggests clearing tile (1,2)."]}, "look-ahead"),
        ({"messages": ["The best guess is off the edge."]}, "off-edge"),
        ({"method": "BRUTE_FORCE_DEEP_ANALYSIS"}, "endgame"),
        ({"method": "UNAVOIDABLE_GUESS"}, "fifty-fifty"),
        ({"messages": []}, "unknown"),
    ],
)
def test_hill_path_from_messages_and_methods(move: dict[str, object], path: str) -> None:
    assert hill_path(move) == path


def _divergence(exact_path_: str, hill_path_: str, **fields: object) -> Divergence:
    return Divergence(1, "hill", 0, "", 1, 1, (0, 0), (0, 1), exact_path_, hill_path_, **fields)  # type: ignore[arg-type]


def test_classify_names_each_kind() -> None:
    assert classify(_divergence("endgame", "look-ahead")).startswith("endgame search: size")
    assert classify(_divergence("endgame", "endgame")).startswith("endgame search: same size")
    assert classify(_divergence("look-ahead", "fifty-fifty")) == "pseudo-50/50 handling"
    assert classify(_divergence("pair", "fifty-fifty")).startswith("pseudo-50/50: both")
    assert classify(_divergence("region", "look-ahead")) == "isolated region"
    assert classify(_divergence("look-ahead", "off-edge")) == "other rule (off-edge)"
    ours = {"exact": {"score": 0.80}, "hill": {"score": 0.7995}}
    assert classify(
        _divergence("look-ahead", "look-ahead", exact_scores={"exact": {"score": 0.8}})
    ).startswith("candidate set: exact did not weigh")
    assert classify(
        _divergence("look-ahead", "look-ahead", exact_scores=ours, hill_scores={"hill": {"score": 0.7}})
    ).startswith("candidate set: Hill did not weigh")
    influenced = {"exact": {"score": 0.7, "influence": 1.0}, "hill": {"score": 0.71, "influence": 1.02}}
    assert classify(
        _divergence("look-ahead", "look-ahead", exact_scores=ours, hill_scores=influenced)
    ).startswith("long-term risk")
    plain = {"exact": {"score": 0.7, "influence": 1.0}, "hill": {"score": 0.71, "influence": 1.0}}
    assert classify(_divergence("look-ahead", "look-ahead", exact_scores=ours, hill_scores=plain)).startswith(
        "tie-break"
    )
    apart = {"exact": {"score": 0.80}, "hill": {"score": 0.70}}
    assert classify(
        _divergence("look-ahead", "look-ahead", exact_scores=apart, hill_scores=plain)
    ).startswith("look-ahead scoring: a clear")
