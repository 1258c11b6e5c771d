"""Benchmark of Part IV (fair hiring): seconds per trial on the Adult data, alone and run together.

Usage: PRIVBANDITS_N_JOBS=1 python benchmarks/bench_fair_hiring.py [--brute-max T] [--no-together] [--repeat R]
[--as-run] [horizon ...]

For every horizon: OFUL, Fair-Greedy and Private-Fair-Greedy with the exact histogram rank step
(``rank_refresh=1``, the paper), the same two with ``rank_refresh=16``, and, up to ``--brute-max``
(default 20,000), the brute-force reference rank step (``rank_method="brute"``, O(T^2)). Then, at
the largest horizon, the chapter's 14 Private-Fair-Greedy settings (the main run, ``rank_refresh=16``,
the three noise variants and Figures A.1-A.4's other values) run together in lockstep on one random
stream (:func:`run_together`), against the sum of the same settings run alone. Each line gives wall
and CPU seconds (the CPU time of this process: less sensitive to other jobs on a shared machine).
Runs bypass the cache; numba compilation is excluded by a warm-up run. ``--repeat R`` times each
trial R times (the same seed) and reports the best wall and the best CPU seconds; ``--as-run`` adds
each algorithm as its authors ran it (``as_run_by_authors()``: index lag, jitter, shift per node, ...).
"""

import argparse
import time

import numpy as np

from privbandits.data import load_census_hiring
from privbandits.policies.fair_hiring import (
    OFUL,
    FairGreedy,
    HiringEnvironment,
    PrivateFairGreedy,
    run_together,
)
from privbandits.simulate import simulate_hiring

from _timing import Stopwatch


def chapter_pfg_settings() -> list:
    """The 14 distinct Private-Fair-Greedy settings of the Part IV chapter at T = 50,000."""
    base = dict(epsilon=15.0, delta=0.1, alpha_eps=0.9, alpha_delta=0.9, rank_refresh=16)
    options = [{}, dict(calibration="tight"), dict(l_tilde_rule="norm"), dict(l_tilde_rule="data")]
    options += [{"epsilon": v} for v in (1.0, 5.0, 50.0)] + [{"delta": v} for v in (0.001, 0.01)]
    options += [{p: v} for p in ("alpha_eps", "alpha_delta") for v in (0.5, 0.7)]
    return [PrivateFairGreedy(epsilon=15.0, delta=0.1, alpha_eps=0.9, alpha_delta=0.9)] + [
        PrivateFairGreedy(**{**base, **o}) for o in options
    ]


def timed(fn, *args, **kwargs):
    """(wall seconds, CPU seconds, result) of ``fn(*args, **kwargs)``."""
    clock, cpu = Stopwatch(), time.process_time()
    out = fn(*args, **kwargs)
    return clock.seconds, time.process_time() - cpu, out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("horizons", type=int, nargs="*", default=[10_000, 50_000])
    ap.add_argument("--brute-max", type=int, default=20_000)
    ap.add_argument("--no-together", action="store_true", help="skip the lockstep comparison")
    ap.add_argument("--repeat", type=int, default=1, help="time each trial this many times: the best wall and CPU")
    ap.add_argument("--as-run", action="store_true", help="also each algorithm as its authors ran it")
    args = ap.parse_args(argv)
    env = HiringEnvironment.from_census(load_census_hiring(), noise_sd=0.1)
    fast = [OFUL(), FairGreedy(), PrivateFairGreedy(), FairGreedy(rank_refresh=16), PrivateFairGreedy(rank_refresh=16)]
    if args.as_run:
        fast += [OFUL.as_run_by_authors(), FairGreedy.as_run_by_authors(), PrivateFairGreedy.as_run_by_authors()]
    brute = [FairGreedy(rank_method="brute"), PrivateFairGreedy(rank_method="brute")]
    for p in fast + brute:  # compile
        simulate_hiring(p, env, 50, 1, n_jobs=1, progress=False, use_cache=False)
    for horizon in args.horizons:
        for p in fast + (brute if horizon <= args.brute_max else []):
            times = []
            for _ in range(max(args.repeat, 1)):
                wall, cpu, res = timed(simulate_hiring, p, env, horizon, 1, n_jobs=1, progress=False, use_cache=False)
                times.append((wall, cpu))
            wall, cpu = min(w for w, _ in times), min(c for _, c in times)
            extra = ", ".join(f"{f}={getattr(p, f)}" for f in ("rank_method", "rank_refresh") if hasattr(p, f))
            extra += " (as run)" if p == type(p).as_run_by_authors() else ""
            print(
                f"T={horizon:>7} {p.label:<28} {extra:<40} {wall:7.2f} s wall {cpu:7.2f} s cpu  "
                f"fair regret {res['fair_regret'].sum():9.1f}",
                flush=True,
            )
    if args.no_together:
        return
    horizon, settings = max(args.horizons), chapter_pfg_settings()
    seed = np.random.SeedSequence(2025).spawn(10)[0]  # the chapter's first trial
    wall, cpu, together = timed(run_together, settings, env, horizon, np.random.default_rng(seed))
    print(f"T={horizon:>7} {len(settings)} Private-Fair-Greedy settings together: {wall:7.2f} s wall {cpu:7.2f} s cpu")
    wall_alone = cpu_alone = 0.0
    for p, rec in zip(settings, together):
        w, c, alone = timed(p.run, env, horizon, np.random.default_rng(seed))
        wall_alone, cpu_alone = wall_alone + w, cpu_alone + c
        assert all(np.array_equal(alone[k], rec[k]) for k in rec), f"{p} differs when run together"
    print(f"T={horizon:>7} the same settings one by one:         {wall_alone:7.2f} s wall {cpu_alone:7.2f} s cpu")


if __name__ == "__main__":
    main()
