"""Two solvers' results on the same boards, paired game by game: win rates, their difference, speed.

A results file holds one JSON line per game: ``{"seed", "won", "cpu_s", ...}`` (``moves`` and
``guesses`` when the solver reports them; Hill's JS harness writes ``clicks`` instead). ``cpu_s`` is
the CPU time of the thread that played; ``process_cpu_s``, when given, is the whole process's over the
same game: for Hill's Java harness, every thread's (his solver's watchdog threads, the garbage
collector's, the JIT compiler's). For a solver that runs in one thread, as ``exact`` does, the two are
the same. Games pair by seed, the name of the board they were played on.

The paired difference of win rates, A minus B, is ``(b - c) / n`` where ``b`` boards were won by A only
and ``c`` by B only, out of ``n`` paired boards. Its 95% interval is the Wald interval of paired
proportions: ``d ± 1.96 * sqrt(((b + c) / n - d**2) / n)``. Boards both solvers won, or both lost, say
nothing about which is stronger, so the interval is much narrower than that of two independent runs.
The exact sign test (McNemar's) asks whether ``b`` and ``c`` differ more than chance would make them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ipyminesweeper.arena import wilson

__all__ = [
    "GameResult",
    "Paired",
    "ResultsFileError",
    "pair",
    "paired_difference",
    "parse_result",
    "read_results",
    "sign_test",
]

Z95 = 1.959964


class ResultsFileError(ValueError):
    """A results line that cannot be read, or results that cannot be paired; the message says where."""


@dataclass(frozen=True)
class GameResult:
    """One game of one solver: the board's seed, whether it was won, its CPU seconds."""

    seed: int
    won: bool
    cpu_s: float
    moves: int | None = None
    guesses: int | None = None
    process_cpu_s: float | None = None

    @property
    def whole_cpu_s(self) -> float:
        """The whole process's CPU seconds for the game: ``process_cpu_s``, or ``cpu_s`` if not given."""
        return self.cpu_s if self.process_cpu_s is None else self.process_cpu_s

    def to_json(self) -> str:
        """The game as one line of a results file."""
        return json.dumps(
            {
                "seed": self.seed,
                "won": self.won,
                "cpu_s": round(self.cpu_s, 6),
                "moves": self.moves,
                "guesses": self.guesses,
            }
            | ({} if self.process_cpu_s is None else {"process_cpu_s": round(self.process_cpu_s, 6)})
        )


def parse_result(line: str) -> GameResult:
    """One results line; ``ValueError`` naming what is wrong."""
    data = json.loads(line)
    if not isinstance(data, dict):
        raise ValueError("a result is a JSON object")
    seed, won, cpu = data.get("seed"), data.get("won"), data.get("cpu_s")
    if type(seed) is not int:
        raise ValueError(f"seed must be an int, not {seed!r}")
    if type(won) is not bool:
        raise ValueError(f"won must be true or false, not {won!r}")
    cpu_s = _seconds("cpu_s", cpu)
    process_s = _seconds("process_cpu_s", data["process_cpu_s"]) if "process_cpu_s" in data else None
    counts = [data.get(k, data.get("clicks") if k == "moves" else None) for k in ("moves", "guesses")]
    if any(c is not None and type(c) is not int for c in counts):
        raise ValueError("moves and guesses must be ints when given")
    return GameResult(seed, won, cpu_s, counts[0], counts[1], process_s)


def _seconds(name: str, value: object) -> float:
    """``value`` as CPU seconds: a finite number >= 0 (not a bool), else ValueError naming ``name``."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
    ):
        raise ValueError(f"{name} must be a number of seconds >= 0, not {value!r}")
    return float(value)


def read_results(paths: str | Path | Iterable[str | Path]) -> list[GameResult]:
    """Every game of one solver, from one results file or several (shards of one run), in file order.

    Raises :class:`ResultsFileError` naming the file and line of a malformed result, or a seed played
    twice.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    games: list[GameResult] = []
    seen: dict[int, str] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                where = f"{path}, line {number}"
                try:
                    game = parse_result(line)
                except ValueError as error:
                    raise ResultsFileError(f"{where}: {error}") from None
                if game.seed in seen:
                    raise ResultsFileError(f"{where}: seed {game.seed} again (first at {seen[game.seed]})")
                seen[game.seed] = where
                games.append(game)
    return games


def paired_difference(b: int, c: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """A's win rate minus B's on ``n`` paired boards, ``b`` won by A only, ``c`` by B only.

    Returns ``(difference, low, high)``: the Wald interval of paired proportions (95% by default).
    """
    if n <= 0 or b < 0 or c < 0 or b + c > n:
        raise ValueError(f"need 0 <= b, c and b + c <= n > 0, not b={b}, c={c}, n={n}")
    d = (b - c) / n
    half = z * math.sqrt(max(0.0, (b + c) / n - d * d) / n)
    return d, d - half, d + half


def sign_test(b: int, c: int) -> float:
    """Two-sided exact sign test (McNemar's exact test) of ``b`` against ``c`` discordant boards."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return min(1.0, 2 * tail / (1 << n))


@dataclass(frozen=True)
class Paired:
    """Two solvers on the same boards: ``a[i]`` and ``b[i]`` are games on the same seed."""

    name_a: str
    name_b: str
    a: tuple[GameResult, ...]
    b: tuple[GameResult, ...]
    unpaired_a: int = 0
    unpaired_b: int = 0

    @property
    def boards(self) -> int:
        return len(self.a)

    @property
    def wins(self) -> tuple[int, int]:
        return sum(g.won for g in self.a), sum(g.won for g in self.b)

    @property
    def only(self) -> tuple[list[int], list[int]]:
        """The seeds of the boards only A won, and of those only B won."""
        only_a = [x.seed for x, y in zip(self.a, self.b, strict=True) if x.won and not y.won]
        only_b = [x.seed for x, y in zip(self.a, self.b, strict=True) if y.won and not x.won]
        return only_a, only_b

    @property
    def difference(self) -> tuple[float, float, float]:
        """A's win rate minus B's, with its 95% interval."""
        only_a, only_b = self.only
        return paired_difference(len(only_a), len(only_b), self.boards)

    @property
    def cpu(self) -> tuple[float, float]:
        return sum(g.cpu_s for g in self.a), sum(g.cpu_s for g in self.b)

    @property
    def speed(self) -> tuple[float, float]:
        """Games per CPU-second of A and of B, each counting the thread that played."""
        return self._per_second(self.cpu)

    @property
    def process_speed(self) -> tuple[float, float]:
        """Games per CPU-second of A and of B, each counting its whole process (``whole_cpu_s``)."""
        return self._per_second((sum(g.whole_cpu_s for g in self.a), sum(g.whole_cpu_s for g in self.b)))

    def _per_second(self, cpu: tuple[float, float]) -> tuple[float, float]:
        ca, cb = cpu
        return (self.boards / ca if ca else math.inf), (self.boards / cb if cb else math.inf)

    def summary(self) -> dict[str, object]:
        """Every figure, JSON-ready (rates and differences as fractions)."""
        n = self.boards
        (wa, wb), (only_a, only_b), (d, lo, hi) = self.wins, self.only, self.difference
        sa, sb = self.speed
        pa, pb = self.process_speed
        return {
            "boards": n,
            "seeds": f"{min(g.seed for g in self.a)}..{max(g.seed for g in self.a)}",
            "unpaired": {self.name_a: self.unpaired_a, self.name_b: self.unpaired_b},
            self.name_a: {"wins": wa, "win_rate": wa / n, "ci95": wilson(wa, n), "games_per_cpu_s": sa},
            self.name_b: {"wins": wb, "win_rate": wb / n, "ci95": wilson(wb, n), "games_per_cpu_s": sb},
            "difference": {"value": d, "ci95": [lo, hi], "of": f"{self.name_a} - {self.name_b}"},
            "only": {self.name_a: len(only_a), self.name_b: len(only_b)},
            "sign_test_p": sign_test(len(only_a), len(only_b)),
            "speed_ratio": sa / sb if sb else math.inf,
            "process_speed_ratio": pa / pb if pb else math.inf,
        }

    def report(self) -> list[str]:
        """The comparison as readable lines."""
        n = self.boards
        (wa, wb), (only_a, only_b), (d, lo, hi) = self.wins, self.only, self.difference
        sa, sb = self.speed
        width = max(len(self.name_a), len(self.name_b))
        lines = [f"{n:,} paired boards (seeds {self.summary()['seeds']})"]
        if self.unpaired_a or self.unpaired_b:
            lines.append(
                f"  not paired (played by one only): {self.name_a} {self.unpaired_a}, "
                f"{self.name_b} {self.unpaired_b}"
            )
        for name, wins, speed in ((self.name_a, wa, sa), (self.name_b, wb, sb)):
            low, high = wilson(wins, n)
            lines.append(
                f"  {name:<{width}}  won {wins:>6}/{n} = {wins / n:7.2%}  (95% CI {low:.2%} to {high:.2%})"
                f"  {speed:8.2f} games/CPU-s"
            )
        lines += [
            f"  {self.name_a} - {self.name_b}: {100 * d:+.2f} pp (95% CI {100 * lo:+.2f} to {100 * hi:+.2f}, "
            f"± {100 * (hi - lo) / 2:.2f}); boards won by {self.name_a} only {len(only_a)}, "
            f"by {self.name_b} only {len(only_b)}; sign test p = {sign_test(len(only_a), len(only_b)):.3g}",
            f"  speed: {self.name_a} {sa:.2f} / {self.name_b} {sb:.2f} games per CPU-second = "
            f"{sa / sb if sb else math.inf:.3f}x",
        ]
        pa, pb = self.process_speed
        if (pa, pb) != (sa, sb):
            lines.append(
                f"  speed, whole processes (every thread counted): "
                f"{self.name_a} {pa:.2f} / {self.name_b} {pb:.2f} games per CPU-second = "
                f"{pa / pb if pb else math.inf:.3f}x"
            )
        return lines


def pair(a: Sequence[GameResult], b: Sequence[GameResult], name_a: str = "A", name_b: str = "B") -> Paired:
    """Pair two solvers' games by seed (in A's order); games on a seed only one played are counted apart.

    Raises :class:`ResultsFileError` when no seed is common to both.
    """
    by_seed = {g.seed: g for g in b}
    common = [g for g in a if g.seed in by_seed]
    if not common:
        raise ResultsFileError(f"{name_a} and {name_b} played no board in common (no seed in both)")
    return Paired(
        name_a,
        name_b,
        tuple(common),
        tuple(by_seed[g.seed] for g in common),
        len(a) - len(common),
        len(b) - len(common),
    )
