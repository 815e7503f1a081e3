"""Where two solvers part ways: the first guess that differs, on the boards only one of them wins.

Both solvers play every certain move before they guess, and the cells that certain moves reveal do not
depend on their order, so before each guess both see the same view as long as their earlier guesses
were the same. The first guess where they pick different cells is where their games part: this module
replays ``exact`` (through ``play``) and the other solver's traced moves (``benchmarks/hill``: its
``--trace`` output) on the same board, finds that guess, and records the view, each solver's cell,
its probability, how each chose it (an unavoidable pair or 50/50, the endgame search, an isolated
region, the look-ahead, a cell off the frontier) and what each scored the two cells. :func:`classify`
then names the kind of difference.

    python -m benchmarks versus discordant --boards B --a exact.jsonl --b hill.jsonl --out D.jsonl
    (trace the other solver on D.jsonl, and keep exact's results)
    python -m benchmarks versus study --boards D.jsonl --a exact.jsonl --b hill.jsonl \\
        --trace hill-trace.jsonl --solver js|java --out study.jsonl
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ipyminesweeper import Board, View, analyse, exact, play, reveal
from ipyminesweeper.strategies.endgame import ENDGAME_LAYOUTS, best_endgame_move, best_region_move
from ipyminesweeper.strategies.guess import unavoidable_pair, weigh

from .boards_file import BoardSpec, to_board

__all__ = ["Divergence", "classify", "exact_path", "first_divergence", "hill_path", "parse_js_scores"]

Pos = tuple[int, int]


@dataclass
class Divergence:
    """The first guess where ``exact`` and the other solver (``hill``) pick different cells."""

    seed: int
    winner: str  # "exact" or "hill": who won the board
    index: int  # how many guesses both made before it (0: their first guess differs)
    cells: str  # the view both saw (rows of cells joined, '.' covered)
    rows: int
    cols: int
    exact_pos: Pos | None
    hill_pos: Pos | None
    exact_path: str
    hill_path: str
    p_mine: dict[str, float] = field(default_factory=dict)  # by exact's analysis: "exact", "hill"
    hill_p_safe: float | None = None  # as the other solver reported its own cell
    exact_scores: dict[str, dict[str, Any]] = field(default_factory=dict)  # "exact"/"hill": candidate
    hill_scores: dict[str, dict[str, Any]] = field(default_factory=dict)
    layouts: int = 0  # layouts that fit the view
    note: str = ""
    kind: str = ""


def exact_path(rows: int, cols: int, mines: int, cells: str) -> tuple[str, Pos, dict[Pos, dict[str, Any]]]:
    """How :func:`~ipyminesweeper.exact` guesses on this view: ``"pair"`` (an unavoidable pair),
    ``"endgame"``, ``"region"`` or ``"look-ahead"``, the cell, and the look-ahead's candidates by
    position (empty for the other paths)."""
    view = View(rows, cols, mines, "playing", cells)
    a = analyse(view)
    pair = unavoidable_pair(view, a)
    if pair is not None:
        return "pair", pair[0], {}
    end = best_endgame_move(view, a)
    if end is not None:
        return "endgame", end.pos, {}
    region = best_region_move(view, a)
    if region is not None:
        return "region", region.pos, {}
    ranked = weigh(view, a)
    table = {
        c.pos: {
            "rank": i,
            "p_mine": c.probability,
            "safety": c.safety,
            "score": c.score,
            "progress": c.progress,
            "dead": c.dead,
        }
        for i, c in enumerate(ranked)
    }
    return "look-ahead", ranked[0].pos, table


NEAR_TIE = 0.002  # two look-ahead scores within this (relative) of each other are a near tie

JS_PATHS = (
    ("chance to win the game", "endgame"),
    ("Best follow up move", "endgame"),
    ("chance to solve the isolated edge", "region"),
    ("isolated edge are dead", "region"),
    ("unavoidable 50/50", "fifty-fifty"),
    ("Guessing heuristic", "look-ahead"),
    ("safest guess using the probability engine", "safest"),
    ("best guess is off the edge", "off-edge"),
    ("are dead", "dead"),
)
JAVA_PATHS = {
    "BRUTE_FORCE": "endgame",
    "BRUTE_FORCE_DEEP_ANALYSIS": "endgame",
    "UNAVOIDABLE_GUESS": "fifty-fifty",
    "PROBABILITY_ENGINE": "look-ahead",
    "GUESS": "off-edge",
    "ROLLOUT": "rollout",
    "BOOK": "first-click",
}


def hill_path(move: dict[str, Any]) -> str:
    """How Hill's solver chose a traced guess: from its messages (JS) or the move's method (Java)."""
    if "method" in move:
        method: str = move["method"]
        return JAVA_PATHS.get(method, method.lower())
    for message in reversed(move.get("messages", [])):
        for text, path in JS_PATHS:
            if text in message:
                return path
    return "unknown"


_JS_SCORE = re.compile(
    r"Tile \((\d+),(\d+)\), secondary safety = ([\d.e-]+), 50/50 influence = ([\d.e-]+), "
    r"blended safety = ([\d.e-]+), progress = ([\d.e-]+).*final score = ([\d.e-]+)"
)
_JS_PRUNED = re.compile(r"Tile \((\d+),(\d+)\) is being pruned, +50/50 influence = ([\d.e-]+)")
_JS_DEAD = re.compile(r"Tile \((\d+),(\d+)\) is dead")


def parse_js_scores(log: Iterable[str]) -> dict[Pos, dict[str, Any]]:
    """Each candidate the JS solver scored, from its verbose log (its tiles are (x, y) = (col, row))."""
    out: dict[Pos, dict[str, Any]] = {}
    for line in log:
        if m := _JS_SCORE.search(line):
            x, y = int(m[1]), int(m[2])
            out[(y, x)] = {
                "secondary": float(m[3]),
                "influence": float(m[4]),
                "blended": float(m[5]),
                "progress": float(m[6]),
                "score": float(m[7]),
            }
        elif m := _JS_PRUNED.search(line):
            out.setdefault((int(m[2]), int(m[1])), {"pruned": True, "influence": float(m[3])})
        elif m := _JS_DEAD.search(line):
            out.setdefault((int(m[2]), int(m[1])), {}).update(dead=True)
    return out


def _hill_scores(move: dict[str, Any]) -> dict[Pos, dict[str, Any]]:
    if "evaluated" in move:  # Java: [row, col, P(safe), weight, progress]
        return {(r, c): {"p_safe": p, "score": w, "progress": g} for r, c, p, w, g in move["evaluated"]}
    return parse_js_scores(move.get("log", []))


def _covered(cells: str) -> str:
    return cells.replace("f", ".")


def _exact_guesses(board: Board) -> list[tuple[str, Pos]]:
    """The view before each guess of exact on ``board``, and the cell it guessed."""
    out: list[tuple[str, Pos]] = []
    while not board.over:
        cells = board.view.cells
        board, moves = play(board, exact, max_moves=1)
        if moves[0].is_guess:
            out.append((_covered(cells), moves[0].pos))
    return out


def _hill_guesses(board: Board, moves: Sequence[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The view before each guess of the traced solver on ``board``, and its traced move."""
    out: list[tuple[str, dict[str, Any]]] = []
    for move in moves:  # (the Java trace starts with the first click, already played: skipped below)
        if board.over:
            break
        if move.get("action", "clear") != "clear":
            continue
        certain = move["certain"] if "certain" in move else move["p_safe"] == 1
        r, c = move["pos"]
        if not certain:
            out.append((_covered(board.view.cells), move))
        if board.view.cells[r * board.cols + c] in ".f":
            board = reveal(board, (r, c))
    return out


def first_divergence(spec: BoardSpec, winner: str, hill_moves: Sequence[dict[str, Any]]) -> Divergence:
    """Replay both solvers on ``spec`` and describe the first guess where they differ."""
    board = to_board(spec)
    ours = _exact_guesses(board)
    theirs = _hill_guesses(board, hill_moves)
    rows, cols, mines = spec.rows, spec.cols, len(spec.mines)
    k = 0  # the same cells guessed, even if not at the same time, are the same play
    while k < len(ours) and k < len(theirs) and tuple(theirs[k][1]["pos"]) == ours[k][1]:
        k += 1
    if k < len(ours) and k < len(theirs) and ours[k][0] != theirs[k][0]:
        cells = ours[k][0]
        path = exact_path(rows, cols, mines, cells)[0]
        return Divergence(
            spec.seed,
            winner,
            k,
            cells,
            rows,
            cols,
            ours[k][1],
            tuple(theirs[k][1]["pos"]),
            path,
            hill_path(theirs[k][1]),
            hill_p_safe=theirs[k][1]["p_safe"],
            note="Hill guessed before playing every certain move",
            kind=f"timing: Hill guessed ({hill_path(theirs[k][1])}) before the certain moves ran out",
        )
    if k >= len(ours) or k >= len(theirs):
        who = "exact" if k >= len(ours) else "hill"
        cells = theirs[k][0] if k < len(theirs) else ours[k][0] if k < len(ours) else ""
        return Divergence(
            spec.seed,
            winner,
            k,
            cells,
            rows,
            cols,
            None,
            None,
            "",
            "",
            note=f"{who} made no further guess",
            kind="one guessed, the other did not",
        )
    cells = ours[k][0]
    move = theirs[k][1]
    path, pos, table = exact_path(rows, cols, mines, cells)
    assert pos == ours[k][1], (spec.seed, pos, ours[k][1])
    row, col = move["pos"]
    hill_pos: Pos = (row, col)
    a = analyse(View(rows, cols, mines, "playing", cells))
    scores = _hill_scores(move)
    d = Divergence(
        spec.seed,
        winner,
        k,
        cells,
        rows,
        cols,
        pos,
        hill_pos,
        path,
        hill_path(move),
        p_mine={"exact": a.probabilities[pos], "hill": a.probabilities[hill_pos]},
        hill_p_safe=move["p_safe"],
        exact_scores={"exact": table.get(pos, {}), "hill": table.get(hill_pos, {})},
        hill_scores={"exact": scores.get(pos, {}), "hill": scores.get(hill_pos, {})},
        layouts=a.layouts if a.layouts < 10**6 else -1,
    )
    d.kind = classify(d)
    return d


def classify(d: Divergence) -> str:
    """The kind of difference at a divergence (see docs/research/exact.md, the discordant-board study)."""
    if d.kind:
        return d.kind
    paths = {d.exact_path, d.hill_path}
    if d.exact_path != d.hill_path or "look-ahead" not in paths:
        if paths & {"endgame"}:
            if d.exact_path == d.hill_path:
                return "endgame search: same size, a different cell (ties)"
            return "endgame search: size (one searched, the other did not)"
        if paths & {"pair", "fifty-fifty"}:
            if d.exact_path == "pair" and d.hill_path == "fifty-fifty":
                return "pseudo-50/50: both took one, a different cell"
            return "pseudo-50/50 handling"
        if paths & {"region"}:
            return "isolated region"
        if paths & {"off-edge", "safest", "dead"}:
            return f"other rule ({d.hill_path})"
        return f"other ({d.exact_path} / {d.hill_path})"
    ours_of_theirs = d.exact_scores.get("hill", {})
    theirs_of_ours = d.hill_scores.get("exact", {})
    if not ours_of_theirs:
        return "candidate set: exact did not weigh Hill's cell"
    if not theirs_of_ours or theirs_of_ours.get("dead"):
        return "candidate set: Hill did not weigh exact's cell"
    if any(abs(d.hill_scores.get(w, {}).get("influence", 1.0) - 1.0) > 1e-9 for w in ("exact", "hill")):
        return "long-term risk: Hill's 50/50 influence"
    if theirs_of_ours.get("pruned"):
        return "look-ahead scoring: Hill pruned exact's cell"
    ours = d.exact_scores["exact"].get("score") or 0.0
    other = ours_of_theirs.get("score") or 0.0
    if ours and other and other >= ours * (1 - NEAR_TIE):
        return "tie-break: a near tie in exact's look-ahead"
    return "look-ahead scoring: a clear difference"


def study(
    specs: Sequence[BoardSpec], winners: dict[int, str], traces: dict[int, list[dict[str, Any]]]
) -> list[Divergence]:
    """The first divergence on each board of ``specs`` (a board of ``winners`` with a trace)."""
    return [first_divergence(s, winners[s.seed], traces[s.seed]) for s in specs if s.seed in traces]


def read_traces(path: str | Path) -> dict[int, list[dict[str, Any]]]:
    """A trace file of ``benchmarks/hill`` by board seed."""
    out: dict[int, list[dict[str, Any]]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                data = json.loads(line)
                out[data["seed"]] = data["moves"]
    return out


def summary(found: Sequence[Divergence]) -> list[str]:
    """A table of kinds: boards won by the other solver only, by exact only."""
    counts: Counter[tuple[str, str]] = Counter((d.kind, d.winner) for d in found)
    kinds = sorted({d.kind for d in found}, key=lambda k: -(counts[(k, "hill")] + counts[(k, "exact")]))
    lines = ["| kind | boards | won by Hill only | won by exact only |", "|---|---:|---:|---:|"]
    for kind in kinds:
        h, e = counts[(kind, "hill")], counts[(kind, "exact")]
        lines.append(f"| {kind} | {h + e} | {h} | {e} |")
    h, e = sum(d.winner == "hill" for d in found), sum(d.winner == "exact" for d in found)
    lines.append(f"| all | {h + e} | {h} | {e} |")
    return lines


def to_json(d: Divergence) -> str:
    data = asdict(d)
    for side in ("exact_scores", "hill_scores"):
        data[side] = {k: v for k, v in data[side].items()}
    return json.dumps(data)


__all__ += ["ENDGAME_LAYOUTS", "read_traces", "study", "summary", "to_json"]
