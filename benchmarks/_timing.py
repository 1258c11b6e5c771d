"""The one timing helper of the benchmarks (run them as ``python benchmarks/<name>.py``).

:func:`best_of` times a call after a warm-up (numba compilation excluded); :class:`Stopwatch` times
a block of code. Both report wall-clock seconds (``time.perf_counter``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["Stopwatch", "best_of"]


class Stopwatch:
    """Wall-clock seconds since construction (or the last :meth:`restart`)."""

    def __init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """Start counting again from now."""
        self._start = time.perf_counter()

    @property
    def seconds(self) -> float:
        """Seconds elapsed."""
        return time.perf_counter() - self._start


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best wall-clock time of ``repeat`` calls of ``fn`` after one warm-up call (compilation)."""
    fn()
    times = []
    for _ in range(repeat):
        clock = Stopwatch()
        fn()
        times.append(clock.seconds)
    return min(times)
