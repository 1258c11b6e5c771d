"""Benchmark of Part IV (fair hiring): wall time of one trial per algorithm on the Adult data.

Usage: PRIVBANDITS_N_JOBS=1 python benchmarks/bench_fair_hiring.py [horizon ...]
Runs bypass the cache (use_cache=False); numba compilation is excluded by a warm-up run.
"""

import sys
import time

from privbandits.data import load_census_hiring
from privbandits.policies.fair_hiring import OFUL, FairGreedy, HiringEnvironment, PrivateFairGreedy, simulate_hiring


def main(horizons):
    env = HiringEnvironment.from_census(load_census_hiring(), noise_sd=0.1)
    policies = [OFUL(), FairGreedy(), PrivateFairGreedy()]
    for p in policies:  # compile
        simulate_hiring(p, env, 50, 1, n_jobs=1, progress=False, use_cache=False)
    for horizon in horizons:
        for p in policies:
            start = time.perf_counter()
            res = simulate_hiring(p, env, horizon, 1, n_jobs=1, progress=False, use_cache=False)
            print(f"T={horizon:>7} {p.label:<28} {time.perf_counter() - start:7.2f} s  "
                  f"fair regret {res['fair_regret'].sum():9.1f}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [5000, 10000, 20000])
