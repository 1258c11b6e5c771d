"""Benchmarks of the foundation: UCB simulation and the continual counters.

Run:  python benchmarks/bench_foundation.py
Times are wall-clock seconds, best of 3 repetitions after one warm-up (numba compilation excluded).
"""

from __future__ import annotations

import os

import numpy as np

os.environ.setdefault("PRIVBANDITS_PROGRESS", "0")

from privbandits import bernoulli_instance, mechanisms, simulate  # noqa: E402
from privbandits.policies import UCB  # noqa: E402
from privbandits.policies.ucb import _ucb_kernel  # noqa: E402

from _timing import Stopwatch, best_of  # noqa: E402


def main() -> None:
    instance = bernoulli_instance([0.1] * 9 + [0.5])
    for n_jobs in (1, 2):
        seconds = best_of(lambda j=n_jobs: simulate(UCB(), instance, 100_000, 100, seed=0, n_jobs=j, cache=False))
        print(f"UCB, K=10, T=100,000, 100 runs (10^7 rounds), n_jobs={n_jobs}: {seconds:.2f} s")
    # the same kernel as plain (uncompiled) Python, one run of 10,000 rounds, extrapolated
    kinds, params, table = instance.kernel_args()
    clock = Stopwatch()
    _ucb_kernel.py_func(np.random.default_rng(0), kinds, params, table, 10_000)
    python_seconds = clock.seconds * 1_000
    print(f"UCB as an uncompiled Python loop, extrapolated to 10^7 rounds: {python_seconds:.0f} s")
    stream = np.random.default_rng(0).random(1_000_000)
    rng = np.random.default_rng(1)
    hybrid = best_of(lambda: mechanisms.hybrid_prefix_sums(stream, 1.0, rng))
    print(f"hybrid mechanism, all 10^6 prefix sums: {hybrid:.3f} s")
    binary = best_of(lambda: mechanisms.binary_tree_prefix_sums(stream, 1.0, rng))
    print(f"binary mechanism, all 10^6 prefix sums: {binary:.3f} s")


if __name__ == "__main__":
    main()
