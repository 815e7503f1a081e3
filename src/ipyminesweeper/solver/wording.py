"""How the solver words its reasons: plurals and lists of cells, in one place."""

from __future__ import annotations

__all__ = ["join_words", "percent", "plural"]


def plural(n: int, word: str) -> str:
    """``"1 mine"``, ``"2 mines"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def join_words(words: list[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def percent(p: float) -> str:
    """A probability as a percentage: ``"12.5%"``, and two significant digits below 0.1%."""
    if 0 < p < 0.001:
        return f"{p * 100:.2g}%"
    return f"{p * 100:.1f}%"
