"""The one timing helper of the benchmarks (run them as ``python benchmarks/<name>.py``).

:func:`best_of` times a call after a warm-up (numba compilation excluded); :class:`Stopwatch` times
a block of code. Both report wall-clock seconds (``time.perf_counter``). :func:`git_commit` names the
commit a stored run was made at.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["Stopwatch", "best_of", "git_commit"]


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


def git_commit() -> str:
    """The repository's ``HEAD`` commit, or ``"unknown"`` outside a git checkout."""
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, cwd=Path(__file__).parent
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
