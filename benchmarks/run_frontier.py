"""Part VI: the privacy-regret frontier at matched guarantees, stored for the chapter.

Usage (from the repository root; see benchmarks/README.md, "Part VI", for the measured time):

    PRIVBANDITS_CACHE_DIR=/tmp/frontier_run_cache nice -n 10 python benchmarks/run_frontier.py [--jobs 2]
        [--no-cache] [--only ALGORITHM ...] [--dask ADDRESS|local]

With ``--dask``, every simulation runs on a Dask cluster through joblib's ``dask`` backend (README,
"Running on a cluster"): the same seeds, the same numbers, bit for bit; ``--jobs`` then sets how many
tasks each simulation is split into.

Every global-DP algorithm of the book, calibrated for each target epsilon of
``privbandits.frontier.EPSILONS`` by ``privbandits.calibration.calibrate`` (DP-UCB-INT at
``(eps, e^-10)``, every other one pure eps), on each instance of ``frontier_instances()``, at
``T = 10^5`` and ``10^6``, and the local-DP algorithms on their own frontier at the same horizons.
Each point is ``privbandits.frontier.frontier_point``: batches of runs through
``simulate_mean_rewards`` (cached unless ``--no-cache``, so an interrupted run resumes), batch ``b``
seeded ``SEED + b``. Runs per point: 100 (10 batches of 10) everywhere. Anytime algorithms run once
at ``10^6`` and give ``10^5`` as a prefix. The cache holds 16 MB per batch at ``10^6``: the whole
grid is about 20 GB, hence ``--no-cache`` (and ``--only`` to recompute some rows). At ``eps = inf`` the
algorithms that need finite noise are replaced by UCB (the row "UCB").

Writes ``book/part6_frontier/results_frontier.npz`` after every algorithm: ``values`` of shape
(algorithm, instance, epsilon, horizon, 6) with the columns of ``privbandits.frontier.STATS`` (NaN
where a point is not defined), ``runs`` (algorithm, instance, epsilon, horizon), the labels, and
the configuration (seed, command lines, wall time: of every run that made the file's values, added).
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


def policy_for(name: str, eps: float, horizon: int):
    """The calibrated policy, UCB for the row "UCB", or None where the point is not defined."""
    if name == "UCB":
        return UCB() if math.isinf(eps) else None
    if math.isinf(eps) and name in ("Private-UCB", "DP-UCB-BOUND", "DP-UCB", "DP-UCB-INT"):
        return None
    delta = DELTA if name == "DP-UCB-INT" else 0.0
    return calibrate(name, eps, delta, horizon).policy


def main() -> None:
    """Parse the command line and compute the grid, here or on a Dask cluster (``--dask``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=None, help="workers (default: the engine's)")
    parser.add_argument("--only", nargs="*", default=None, help="algorithms to (re)compute")
    parser.add_argument("--out", type=Path, default=OUT, help="the .npz to write (and to keep values from)")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the simulation cache")
    parser.add_argument(
        "--dask", default=None, metavar="ADDRESS", help="run on a Dask cluster: a scheduler's address, or 'local'"
    )
    args = parser.parse_args()
    if args.dask is None:
        compute(args)
        return
    from dask.distributed import Client, LocalCluster
    from joblib import parallel_config

    with Client(LocalCluster() if args.dask == "local" else args.dask), parallel_config(backend="dask"):
        compute(args)


def compute(args: argparse.Namespace) -> None:
    """The grid for the parsed command line, written to the .npz after every algorithm."""
    inst = frontier_instances()
    names = list(inst)
    shape = (len(ALGORITHMS), len(names), len(EPSILONS), len(HORIZONS))
    values = np.full((*shape, len(STATS)), np.nan)
    runs = np.zeros(shape, dtype=np.int64)
    command = " ".join([os.path.basename(sys.executable), *sys.argv])
    earlier_seconds = 0.0
    if args.out.exists():  # keep what an earlier (partial) run stored, and add its command and time
        old = np.load(args.out)
        if old["values"].shape == values.shape:
            values, runs = old["values"].copy(), old["runs"].copy()
            command = f"{old['command']}; then {command}"
            earlier_seconds = float(old["wall_seconds"])
    watch = Stopwatch()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for i, alg in enumerate(ALGORITHMS):
        if args.only is not None and alg not in args.only:
            continue
        for j, iname in enumerate(names):
            for k, eps in enumerate(EPSILONS):
                policy = policy_for(alg, eps, max(HORIZONS))
                if policy is None:
                    continue
                # an anytime policy: one set of runs, read at every horizon; else one set per horizon
                plays = [(policy, HORIZONS)] if policy.anytime else [(policy_for(alg, eps, h), (h,)) for h in HORIZONS]
                for p, hs in plays:
                    pt = frontier_point(
                        p,
                        inst[iname],
                        hs,
                        batches=10,
                        runs_per_batch=10,
                        seed=SEED,
                        n_jobs=args.jobs,
                        cache=not args.no_cache,
                    )
                    for r, h in enumerate(pt.horizons):
                        values[i, j, k, HORIZONS.index(h)] = pt.values[r]
                        runs[i, j, k, HORIZONS.index(h)] = pt.runs
            print(f"{alg}: done at {watch.seconds:.0f} s", flush=True)
        np.savez_compressed(
            args.out,
            values=values,
            runs=runs,
            algorithms=np.array(ALGORITHMS),
            instances=np.array(names),
            epsilons=np.array(EPSILONS),
            horizons=np.array(HORIZONS),
            stats=np.array(STATS),
            seed=SEED,
            delta=DELTA,
            command=command,
            wall_seconds=earlier_seconds + watch.seconds,
        )
    print(f"wrote {args.out} in {watch.seconds:.0f} s")


if __name__ == "__main__":
    main()
