"""Benchmarks of Part III: locally private thresholding bandits.

Run:  PRIVBANDITS_N_JOBS=2 python benchmarks/bench_thresholding.py
Times (warm numba cache, simulation cache bypassed by a fresh seed) of
* experiment 1 at the chapter's scale: 2,000 runs per point, T in {200, ..., 10^4}, 5 eps, 2 instances
  (PrivBern only; the chapter also runs the Laplace variant for finite eps);
* one fixed-confidence point: 500 runs of Algorithm 2 at eps = 1, delta = 0.1, on dose-finding.
"""

from __future__ import annotations

import math
import os
import time

import numpy as np

os.environ.setdefault("PRIVBANDITS_PROGRESS", "0")

from privbandits import bernoulli_instance, simulate  # noqa: E402
from privbandits.policies.thresholding import FixedBudgetThresholding, FixedConfidenceThresholding  # noqa: E402

SEED = int(time.time())  # a fresh seed: nothing comes from the disk cache
INSTANCES = [
    bernoulli_instance(np.linspace(0.1, 0.9, 10)),
    bernoulli_instance([0.1, 0.3, 0.4, 0.44, 0.47, 0.53, 0.56, 0.6, 0.7, 0.9]),
]


def main() -> None:
    simulate(FixedBudgetThresholding(0.5, 0.05, 1.0), INSTANCES[0], 200, 2, seed=SEED)  # warm-up
    start = time.perf_counter()
    for inst in INSTANCES:
        for eps in (0.5, 1.0, 2.0, 4.0, math.inf):
            for horizon in (200, 500, 1_000, 2_000, 5_000, 10_000):
                simulate(FixedBudgetThresholding(0.5, 0.05, eps), inst, horizon, 2_000, seed=SEED, keep=("answer",))
    print(f"experiment 1 (60 points x 2,000 runs, PrivBern): {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    res = simulate(FixedConfidenceThresholding(0.5, 0.1, 1.0), INSTANCES[0], 5_000_000, 500, seed=SEED,
                   keep=("stop_time",))
    print(f"Algorithm 2, eps = 1, delta = 0.1, 500 runs (mean stop {res.records['stop_time'].mean():,.0f}): "
          f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
