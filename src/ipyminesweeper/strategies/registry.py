"""The strategies by name: the built-ins, plus any a user registers for the widget's menu and the CLI."""

from __future__ import annotations

from .exact import exact, exact_flags
from .move import Strategy
from .scored import scored
from .simple import simple

__all__ = ["BUILTINS", "STRATEGIES", "register_strategy", "resolve", "strategy_name"]

STRATEGIES: dict[str, Strategy] = {
    "exact": exact,
    "exact-flags": exact_flags,
    "scored": scored,
    "simple": simple,
}
"""The strategies by name: the built-ins and any added with :func:`register_strategy`."""

BUILTINS: frozenset[str] = frozenset(STRATEGIES)


def register_strategy(name: str, fn: Strategy, *, replace: bool = False) -> Strategy:
    """Add ``fn`` to :data:`STRATEGIES` under ``name`` (the widget's selector lists them).

    Returns ``fn``.

    A built-in cannot be replaced; another name can with ``replace=True``. For parallel benchmarks
    define ``fn`` at the top level of a module so worker processes can import it.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"a strategy name is a non-empty str, not {name!r}")
    if not callable(fn):
        raise TypeError(f"a strategy is a callable view -> Move, not {type(fn).__name__}")
    if name in BUILTINS:
        raise ValueError(f"{name!r} is a built-in strategy; pick another name")
    if name in STRATEGIES and not replace and STRATEGIES[name] is not fn:
        raise ValueError(f"a strategy named {name!r} is already registered; pass replace=True")
    STRATEGIES[name] = fn
    return fn


def resolve(strategy: Strategy | str) -> Strategy:
    """A strategy from itself or its registered name."""
    if isinstance(strategy, str):
        try:
            return STRATEGIES[strategy]
        except KeyError:
            raise ValueError(
                f"unknown strategy {strategy!r}: use one of {', '.join(sorted(STRATEGIES))}"
            ) from None
    if not callable(strategy):
        raise TypeError(f"a strategy is a callable view -> Move, not {type(strategy).__name__}")
    return strategy


def strategy_name(strategy: Strategy | str) -> str:
    """The registered name of a strategy, else its ``__name__`` (or repr)."""
    if isinstance(strategy, str):
        return strategy
    for name, fn in STRATEGIES.items():
        if fn is strategy:
            return name
    return getattr(strategy, "__name__", None) or repr(strategy)
