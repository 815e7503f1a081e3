"""Small timing helpers shared by the benchmarks: medians and spreads, never pass/fail."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")  # what setup makes and run takes


@dataclass(frozen=True)
class Timing:
    """Per-call times in seconds: the median and the interquartile spread."""

    name: str
    samples: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def spread(self) -> tuple[float, float]:
        q = statistics.quantiles(self.samples, n=4)
        return (q[0], q[2])

    def line(self, unit: str = "us", target: str = "") -> str:
        scale = {"us": 1e6, "ms": 1e3, "s": 1.0}[unit]
        lo, hi = self.spread
        text = (
            f"{self.name:<44} median {self.median * scale:9.1f} {unit}"
            f"   IQR {lo * scale:8.1f} - {hi * scale:8.1f} {unit}   n={len(self.samples)}"
        )
        return f"{text}   target {target}" if target else text


def measure(name: str, setup: Callable[[], T], run: Callable[[T], object], n: int) -> Timing:
    """Time ``run(setup())`` ``n`` times; setup is not timed."""
    samples = []
    for _ in range(n):
        arg = setup()
        start = time.perf_counter()
        run(arg)
        samples.append(time.perf_counter() - start)
    return Timing(name, tuple(samples))
