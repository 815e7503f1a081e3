"""Benchmarks: run them all with ``python -m benchmarks`` (or ``make bench``). They print figures."""
