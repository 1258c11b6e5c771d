"""Part VI: the privacy-regret frontier at matched guarantees, stored for the chapter.

Usage (from the repository root; see benchmarks/README.md, "Part VI", for the measured time):

    PRIVBANDITS_CACHE_DIR=/tmp/frontier_run_cache nice -n 10 python benchmarks/run_frontier.py [--jobs 2]

Every global-DP algorithm of the book, calibrated for each target epsilon of
``privbandits.frontier.EPSILONS`` by ``privbandits.calibration.calibrate`` (DP-UCB-INT at
``(eps, e^-10)``, every other one pure eps), on each instance of ``frontier_instances()``, at
``T = 10^5`` and ``10^6``; the local-DP algorithms at ``T = 10^5``. Each point is
``privbandits.frontier.frontier_point``: batches of runs through ``simulate_mean_rewards`` (cached,
so an interrupted run resumes), batch ``b`` seeded ``SEED + b``. Runs per point: 100 (10 batches of
10), except the per-round (non-episodic) algorithms at ``T = 10^6`` (Private-UCB, DP-UCB-BOUND,
DP-UCB, DP-UCB-INT, UCB): 20 (4 batches of 5), which would otherwise take hours on 2 cores.
Anytime algorithms run once at ``10^6`` and give ``10^5`` as a prefix. At ``eps = inf`` the
algorithms that need finite noise are replaced by UCB (the row "UCB").

Writes ``book/part6_frontier/results_frontier.npz`` after every algorithm: ``values`` of shape
(algorithm, instance, epsilon, horizon, 6) with the columns of ``privbandits.frontier.STATS`` (NaN
where a point is not defined), ``runs`` (algorithm, instance, epsilon, horizon), the labels, and
the configuration (seed, command line, wall time).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

import numpy as np

from privbandits.calibration import calibrate
from privbandits.frontier import DELTA, EPSILONS, HORIZONS, STATS, frontier_instances, frontier_point
from privbandits.policies import UCB

from _timing import Stopwatch

OUT = Path(__file__).resolve().parents[1] / "book" / "part6_frontier" / "results_frontier.npz"
SEED = 16
GLOBAL = ("AdaP-KLUCB", "AdaP-UCB", "GDP-NCB", "Anytime GDP-NCB", "DP-UCB-INT", "DP-UCB-BOUND", "Private-UCB", "DP-UCB")
LOCAL = ("LDP-UCB", "LDP-NCB", "Anytime LDP-NCB")
ALGORITHMS = ("UCB", *GLOBAL, *LOCAL)
PER_ROUND = ("UCB", "Private-UCB", "DP-UCB-BOUND", "DP-UCB", "DP-UCB-INT")


def policy_for(name: str, eps: float, horizon: int):
    """The calibrated policy, UCB for the row "UCB", or None where the point is not defined."""
    if name == "UCB":
        return UCB() if math.isinf(eps) else None
    if math.isinf(eps) and name in ("Private-UCB", "DP-UCB-BOUND", "DP-UCB", "DP-UCB-INT"):
        return None
    delta = DELTA if name == "DP-UCB-INT" else 0.0
    return calibrate(name, eps, delta, horizon).policy


def main() -> None:
    """Compute the grid and write the .npz (after every algorithm, so partial results are kept)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=None, help="workers (default: the engine's)")
    parser.add_argument("--only", nargs="*", default=None, help="algorithms to (re)compute")
    args = parser.parse_args()
    inst = frontier_instances()
    names = list(inst)
    shape = (len(ALGORITHMS), len(names), len(EPSILONS), len(HORIZONS))
    values = np.full((*shape, len(STATS)), np.nan)
    runs = np.zeros(shape, dtype=np.int64)
    if OUT.exists():  # keep what an earlier (partial) run stored
        old = np.load(OUT)
        if old["values"].shape == values.shape:
            values, runs = old["values"].copy(), old["runs"].copy()
    watch = Stopwatch()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    for i, alg in enumerate(ALGORITHMS):
        if args.only is not None and alg not in args.only:
            continue
        horizons = HORIZONS[:1] if alg in LOCAL else HORIZONS
        for j, iname in enumerate(names):
            for k, eps in enumerate(EPSILONS):
                if alg in PER_ROUND:  # 100 runs at 1e5, 20 at 1e6
                    plans = [((HORIZONS[0],), 10, 10), ((HORIZONS[1],), 4, 5)]
                else:
                    plans = [(horizons, 10, 10)]
                for hs, batches, per in plans:
                    policy = policy_for(alg, eps, max(hs))
                    if policy is None:
                        continue
                    if not policy.anytime and len(hs) > 1:  # horizon-told: one set of runs per horizon
                        for h in hs:
                            p = policy_for(alg, eps, h)
                            pt = frontier_point(
                                p, inst[iname], (h,), batches=batches, runs_per_batch=per, seed=SEED, n_jobs=args.jobs
                            )
                            values[i, j, k, HORIZONS.index(h)] = pt.values[0]
                            runs[i, j, k, HORIZONS.index(h)] = pt.runs
                        continue
                    pt = frontier_point(
                        policy, inst[iname], hs, batches=batches, runs_per_batch=per, seed=SEED, n_jobs=args.jobs
                    )
                    for r, h in enumerate(pt.horizons):
                        values[i, j, k, HORIZONS.index(h)] = pt.values[r]
                        runs[i, j, k, HORIZONS.index(h)] = pt.runs
            print(f"{alg}: done at {watch.seconds:.0f} s", flush=True)
        np.savez_compressed(
            OUT,
            values=values,
            runs=runs,
            algorithms=np.array(ALGORITHMS),
            instances=np.array(names),
            epsilons=np.array(EPSILONS),
            horizons=np.array(HORIZONS),
            stats=np.array(STATS),
            seed=SEED,
            delta=DELTA,
            command=" ".join([os.path.basename(sys.executable), *sys.argv]),
            wall_seconds=watch.seconds,
        )
    print(f"wrote {OUT} in {watch.seconds:.0f} s")


if __name__ == "__main__":
    main()
