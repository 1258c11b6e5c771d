"""Benchmark of Part IV (fair hiring): wall time of one trial per algorithm on the Adult data.

Usage: PRIVBANDITS_N_JOBS=1 python benchmarks/bench_fair_hiring.py [--brute-max T] [horizon ...]

For every horizon: OFUL, Fair-Greedy and Private-Fair-Greedy with the exact histogram rank step
(``rank_refresh=1``, the paper), the same two with ``rank_refresh=16``, and, up to ``--brute-max``
(default 20,000), the brute-force reference rank step (``rank_method="brute"``, O(T^2)).
Runs bypass the cache (use_cache=False); numba compilation is excluded by a warm-up run.
"""

import argparse

from privbandits.data import load_census_hiring
from privbandits.policies.fair_hiring import OFUL, FairGreedy, HiringEnvironment, PrivateFairGreedy, simulate_hiring

from _timing import Stopwatch


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("horizons", type=int, nargs="*", default=[10_000, 50_000])
    ap.add_argument("--brute-max", type=int, default=20_000)
    args = ap.parse_args(argv)
    env = HiringEnvironment.from_census(load_census_hiring(), noise_sd=0.1)
    fast = [OFUL(), FairGreedy(), PrivateFairGreedy(), FairGreedy(rank_refresh=16), PrivateFairGreedy(rank_refresh=16)]
    brute = [FairGreedy(rank_method="brute"), PrivateFairGreedy(rank_method="brute")]
    for p in fast + brute:  # compile
        simulate_hiring(p, env, 50, 1, n_jobs=1, progress=False, use_cache=False)
    for horizon in args.horizons:
        for p in fast + (brute if horizon <= args.brute_max else []):
            clock = Stopwatch()
            res = simulate_hiring(p, env, horizon, 1, n_jobs=1, progress=False, use_cache=False)
            extra = ", ".join(f"{f}={getattr(p, f)}" for f in ("rank_method", "rank_refresh") if hasattr(p, f))
            print(
                f"T={horizon:>7} {p.label:<28} {extra:<40} {clock.seconds:7.2f} s  "
                f"fair regret {res['fair_regret'].sum():9.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
