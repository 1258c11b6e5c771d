"""Benchmark of DP-SE (``privbandits.policies.DPSE``) on the five frontier instances.

Run:  python benchmarks/bench_successive_elimination.py
Milliseconds per run (best of 3 batches of 10 runs, after a warm-up that compiles the kernel) at
T = 10^5 and 10^6, eps = 0.1 and 1, for ``run`` (the arm sequence) and ``run_episodes`` (what
``simulate_mean_rewards`` reads).
"""

from __future__ import annotations

import numpy as np

from privbandits.frontier import frontier_instances
from privbandits.policies import DPSE

from _timing import best_of

RUNS = 10


def _ms_per_run(method, inst, horizon: int, rng: np.random.Generator) -> float:
    """Milliseconds per call of ``method(inst, horizon, rng)``, best of 3 batches of :data:`RUNS`."""
    return 1e3 * best_of(lambda: [method(inst, horizon, rng) for _ in range(RUNS)]) / RUNS


def main() -> None:
    print("| instance | T | eps | run (ms) | run_episodes (ms) |")
    print("| --- | --- | --- | --- | --- |")
    for name, inst in frontier_instances().items():
        for horizon in (10**5, 10**6):
            for eps in (0.1, 1.0):
                policy, rng = DPSE(epsilon=eps), np.random.default_rng(0)
                arms = _ms_per_run(policy.run, inst, horizon, rng)
                episodes = _ms_per_run(policy.run_episodes, inst, horizon, rng)
                print(f"| {name} | {horizon:,} | {eps:g} | {arms:.2f} | {episodes:.2f} |")


if __name__ == "__main__":
    main()
