"""Tournaments: several strategies on the same seeded boards, one benchmark each, in one table."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine.escape import markdown_text
from ..strategies import Strategy, strategy_name
from .bench import BenchResult, RunOptions, benchmark, check_options, executor_for
from .games import Level

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["Table", "tournament"]


@dataclass(frozen=True)
class Table:
    """The results of a :func:`tournament`: one row per strategy, on the same boards."""

    results: tuple[BenchResult, ...]

    @property
    def rows(self) -> list[dict[str, Any]]:
        """One dict per strategy (ready for ``pandas.DataFrame(table.rows)`` or a plot)."""
        return [r.as_dict() for r in self.results]

    def __iter__(self) -> Iterator[BenchResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def head_to_head(self, a: str, b: str) -> tuple[int, int]:
        """Paired comparison: (boards ``a`` won and ``b`` lost, boards ``b`` won and ``a`` lost)."""
        ra = next(r for r in self.results if r.strategy == a)
        rb = next(r for r in self.results if r.strategy == b)
        only_a = sum(1 for x, y in zip(ra.outcomes, rb.outcomes, strict=True) if x and not y)
        only_b = sum(1 for x, y in zip(ra.outcomes, rb.outcomes, strict=True) if y and not x)
        return only_a, only_b

    def to_markdown(self) -> str:
        """The table as Markdown; a strategy's name shows as text (:func:`markdown_text`)."""
        lines = [
            "| strategy | level | first click | games | win rate | 95% CI | games/s | moves | guesses |",
            "|---|---|---|---:|---:|---|---:|---:|---:|",
        ]
        for r in self.results:
            low, high = r.ci
            lines.append(
                f"| {markdown_text(r.strategy)} | {r.level} | {r.first_click} {r.first_move} | {r.games} | "
                f"{r.win_rate:.2%} | {low:.2%} to {high:.2%} | {r.games_per_second:.1f} | "
                f"{r.mean_moves:.1f} | {r.mean_guesses:.2f} |"
            )
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def __str__(self) -> str:
        return self.to_markdown()


def tournament(
    strategies: Mapping[str, Strategy | str] | Sequence[Strategy | str] | Iterable[Strategy | str],
    level: Level = "beginner",
    games: int = 1000,
    seed: int = 0,
    first_click: str = "opening",
    **options: Unpack[RunOptions],
) -> Table:
    """Race strategies on the same boards (same seeds): a :class:`Table` with a row per strategy.

    ``strategies``: names, callables, or a dict ``{label: strategy}``. The other arguments are those of
    :func:`~.bench.benchmark`, the same for every strategy; one process pool serves them all.
    """
    check_options(options, "tournament()")
    if isinstance(strategies, Mapping):
        entries = list(strategies.items())
    else:
        entries = [(strategy_name(s), s) for s in strategies]
    if not entries:
        raise ValueError("a tournament needs at least one strategy")
    given = options.get("executor")
    own = executor_for(games, options.get("jobs")) if given is None else None
    shared: RunOptions = {**options, "executor": given or own}
    try:
        results = [
            benchmark(strat, level, games, seed, first_click, label=label, **shared)
            for label, strat in entries
        ]
    finally:
        if own is not None:
            own.shutdown()
    return Table(tuple(results))
