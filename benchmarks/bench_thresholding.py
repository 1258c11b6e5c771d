"""Benchmarks of Part III: locally private thresholding bandits.

Run:  PRIVBANDITS_N_JOBS=2 python benchmarks/bench_thresholding.py
Times (warm numba cache, simulation cache bypassed) of
* experiment 1 at the chapter's scale: 2,000 runs per point, 12 budgets T in [100, 10^4], 5 eps, 2
  instances, PrivBern (the chapter also runs the Laplace variant for finite eps), measured two ways:
  one run per seed with ``checkpoints`` (what the chapter does) and one run per (seed, budget), the
  way it was first written;
* Algorithm 2 (fixed confidence, 300 runs, dose-finding) at eps = 1 and 0.5, delta = 0.01, c = 2.
"""

from __future__ import annotations

import math
import os

import numpy as np

os.environ.setdefault("PRIVBANDITS_PROGRESS", "0")

from privbandits import bernoulli_instance, simulate  # noqa: E402
from privbandits.policies.thresholding import FixedBudgetThresholding, FixedConfidenceThresholding  # noqa: E402

from _timing import Stopwatch  # noqa: E402

BUDGETS = (100, 200, 300, 500, 700, 1_000, 1_500, 2_000, 3_000, 5_000, 7_000, 10_000)
INSTANCES = [
    bernoulli_instance(np.linspace(0.1, 0.9, 10)),
    bernoulli_instance([0.1, 0.3, 0.4, 0.44, 0.47, 0.53, 0.56, 0.6, 0.7, 0.9]),
]
EPSILONS = (0.5, 1.0, 2.0, 4.0, math.inf)


def main() -> None:
    simulate(
        FixedBudgetThresholding(0.5, 0.05, 1.0, checkpoints=(20, 40)), INSTANCES[0], 200, 2, cache=False
    )  # compile
    simulate(FixedConfidenceThresholding(0.5, 0.1, 1.0), INSTANCES[0], 10_000, 2, cache=False)
    clock = Stopwatch()
    for inst in INSTANCES:
        for eps in EPSILONS:
            policy = FixedBudgetThresholding(0.5, 0.05, eps, checkpoints=BUDGETS)
            simulate(policy, inst, BUDGETS[-1], 2_000, seed=1, keep=("answers",), cache=False)
    print(f"experiment 1, checkpoints (10 configurations x 2,000 runs x 10^4 rounds): {clock.seconds:.1f} s")
    clock = Stopwatch()
    for inst in INSTANCES:
        for eps in EPSILONS:
            for horizon in BUDGETS:
                simulate(
                    FixedBudgetThresholding(0.5, 0.05, eps), inst, horizon, 2_000, seed=1, keep=("answer",), cache=False
                )
    print(f"experiment 1, one run per budget (120 points x 2,000 runs): {clock.seconds:.1f} s")
    for eps in (1.0, 0.5):
        clock = Stopwatch()
        res = simulate(
            FixedConfidenceThresholding(0.5, 0.01, eps, radius_constant=2.0),
            INSTANCES[0],
            5_000_000,
            300,
            seed=1,
            cache=False,
        )
        rounds = res.records["stop_time"].sum()
        elapsed = clock.seconds
        print(
            f"Algorithm 2, eps = {eps}, delta = 0.01, c = 2, 300 runs: {elapsed:.1f} s "
            f"({rounds:,} rounds, {1e9 * elapsed / rounds:.0f} ns per round)"
        )


if __name__ == "__main__":
    main()
