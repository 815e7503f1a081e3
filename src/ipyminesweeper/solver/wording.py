"""How the solver words its reasons: plurals and lists of cells, in one place."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

Pos = tuple[int, int]

__all__ = ["ReasonsByCell", "join_words", "percent", "plural"]


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


class ReasonsByCell(Mapping[Pos, str]):
    """Reasons by position, each worked out when it is first read (a strategy reads one of many)."""

    __slots__ = ("_done", "_keys", "_one")

    def __init__(self, keys: Iterable[Pos], one: Callable[[Pos], str]) -> None:
        self._keys = dict.fromkeys(keys)  # ordered, and a set
        self._one = one
        self._done: dict[Pos, str] = {}

    def __getitem__(self, key: Pos) -> str:
        got = self._done.get(key)
        if got is None:
            if key not in self._keys:
                raise KeyError(key)
            got = self._done[key] = self._one(key)
        return got

    def __iter__(self) -> Iterator[Pos]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return repr(dict(self.items()))
