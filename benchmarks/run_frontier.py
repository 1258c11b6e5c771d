"""Part VI: the privacy-regret frontier at matched guarantees, stored for the chapter.

Usage (from the repository root; see benchmarks/README.md, "Part VI", for the measured time):

    PRIVBANDITS_CACHE_DIR=/tmp/frontier_run_cache nice -n 10 python benchmarks/run_frontier.py [--jobs 2]
        [--no-cache] [--only ALGORITHM ...] [--finals ALGORITHM ... [--finals-horizons H ...]]
        [--dask ADDRESS|local]

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

The row "DP-UCB-INT" is calibrated at ``(eps, e^-10)`` (where Corollary 3.1's pure term binds it is
the same policy as the pure one), the row "DP-UCB-INT (pure)" at ``(eps, 0)``, pure eps-DP.

Writes ``book/part6_frontier/results_frontier.npz`` after every algorithm: ``values`` of shape
(algorithm, instance, epsilon, horizon, 6) with the columns of ``privbandits.frontier.STATS`` (NaN
where a point is not defined), ``runs`` (algorithm, instance, epsilon, horizon), ``finals``
(algorithm, instance, epsilon, horizon, run): each run's final cumulative regret, for the rows and
horizons named by ``--finals`` and ``--finals-horizons`` (``privbandits.frontier.final_regrets``:
the same runs replayed with their arms kept; NaN elsewhere), the labels, and the configuration
(seed, command lines, wall time: of every run that made the file's values, added). Rows are kept
from an existing file by name, so a new row is added with ``--only NEW``.

``main(argv, grid)`` computes another :class:`Grid` (``tests/test_frontier.py`` runs a small one with
``--dask local`` and without, and checks that the two files are bit-identical).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from privbandits.calibration import calibrate
from privbandits.frontier import DELTA, EPSILONS, HORIZONS, STATS, final_regrets, frontier_instances, frontier_point
from privbandits.policies import UCB
from privbandits.provenance import check_digest, provenance

from _timing import Stopwatch, git_commit

#: the package modules the stored result depends on (its code digest, privbandits.provenance)
DEPENDS_ON = ("privbandits.calibration", "privbandits.frontier")

OUT = Path(__file__).resolve().parents[1] / "book" / "part6_frontier" / "results_frontier.npz"
SEED = 16
BATCHES, RUNS_PER_BATCH = 10, 10
GLOBAL = (
    "AdaP-KLUCB",
    "AdaP-UCB",
    "DP-SE",
    "DP-TS",
    "Lazy-DP-TS",
    "GDP-NCB",
    "Anytime GDP-NCB",
    "DP-UCB-INT",
    "DP-UCB-INT (pure)",
    "DP-UCB-BOUND",
    "Private-UCB",
    "Private-UCB (eps per tree)",
    "Private-UCB (tail bound, eps per tree)",
    "DP-UCB",
)
LOCAL = ("LDP-UCB", "LDP-NCB", "Anytime LDP-NCB")
ALGORITHMS = ("UCB", *GLOBAL, *LOCAL)


class Grid(NamedTuple):
    """What the run computes: the stored grid (:data:`FULL`), or a small one for a test."""

    instances: dict
    epsilons: tuple[float, ...]
    horizons: tuple[int, ...]
    batches: int = BATCHES
    runs_per_batch: int = RUNS_PER_BATCH


FULL = Grid(frontier_instances(), EPSILONS, HORIZONS)


def policy_for(name: str, eps: float, horizon: int):
    """The calibrated policy, UCB for the row "UCB", or None where the point is not defined."""
    if name == "UCB":
        return UCB() if math.isinf(eps) else None
    if math.isinf(eps) and (name.startswith("Private-UCB") or name.startswith("DP-UCB")):
        return None
    if name == "DP-UCB-INT (pure)":  # Corollary 3.1's basic-composition term: pure eps-DP
        return calibrate("DP-UCB-INT", eps, 0.0, horizon).policy
    delta = DELTA if name == "DP-UCB-INT" else 0.0
    return calibrate(name, eps, delta, horizon).policy


def main(argv: Sequence[str] | None = None, grid: Grid = FULL) -> None:
    """Parse the command line (``argv``, default ``sys.argv``) and compute ``grid``, here or on Dask."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=None, help="workers (default: the engine's)")
    parser.add_argument("--only", nargs="*", default=None, help="algorithms to (re)compute")
    parser.add_argument("--out", type=Path, default=OUT, help="the .npz to write (and to keep values from)")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the simulation cache")
    parser.add_argument(
        "--finals",
        nargs="*",
        default=None,
        help="rows whose per-run final regrets to (re)compute (replayed runs, checked against the stored means)",
    )
    parser.add_argument(
        "--finals-horizons", nargs="*", type=int, default=None, help="horizons of --finals (default: all)"
    )
    parser.add_argument(
        "--dask", default=None, metavar="ADDRESS", help="run on a Dask cluster: a scheduler's address, or 'local'"
    )
    args = parser.parse_args(argv)
    script = sys.argv[0] if argv is None else "benchmarks/run_frontier.py"
    args.command = " ".join([os.path.basename(sys.executable), script, *(sys.argv[1:] if argv is None else argv)])
    if args.dask is None:
        compute(args, grid)
        return
    from dask.distributed import Client, LocalCluster
    from joblib import parallel_config

    with contextlib.ExitStack() as stack:
        address = args.dask
        if address == "local":  # one single-threaded worker process per core, closed on the way out
            address = stack.enter_context(LocalCluster(threads_per_worker=1, dashboard_address=None))
        stack.enter_context(Client(address))
        stack.enter_context(parallel_config(backend="dask"))
        compute(args, grid)


def compute(args: argparse.Namespace, grid: Grid = FULL) -> None:
    """``grid`` for the parsed command line, written to the .npz after every algorithm."""
    inst = grid.instances
    names = list(inst)
    shape = (len(ALGORITHMS), len(names), len(grid.epsilons), len(grid.horizons))
    values = np.full((*shape, len(STATS)), np.nan)
    runs = np.zeros(shape, dtype=np.int64)
    finals = np.full((*shape, grid.batches * grid.runs_per_batch), np.nan)  # per-run final regrets, where computed
    command = args.command
    earlier_seconds = 0.0
    if args.out.exists():  # keep what an earlier (partial) run stored, by row name, and add its command and time
        old = np.load(args.out)
        same_grid = [str(x) for x in old["instances"]] == names and tuple(old["epsilons"]) == grid.epsilons
        same_grid = same_grid and tuple(old["horizons"]) == grid.horizons
        if same_grid and ("finals" not in old.files or old["finals"].shape[-1] == finals.shape[-1]):
            check_digest(old, str(args.out))  # rows kept from a file of other code would be stale
            for r, alg in enumerate(str(a) for a in old["algorithms"]):
                if alg in ALGORITHMS:
                    values[ALGORITHMS.index(alg)] = old["values"][r]
                    runs[ALGORITHMS.index(alg)] = old["runs"][r]
                    if "finals" in old.files:
                        finals[ALGORITHMS.index(alg)] = old["finals"][r]
            command = f"{old['command']}; then {command}"
            earlier_seconds = float(old["wall_seconds"])
    watch = Stopwatch()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for i, alg in enumerate(ALGORITHMS):
        if args.only is None or alg in args.only:
            add_values(args, grid, i, alg, values, runs, watch)
        if args.finals is not None and alg in args.finals:  # after the values: they are checked against them
            add_finals(args, grid, i, alg, values, finals, watch)
        save(args.out, grid, values, runs, finals, command, earlier_seconds + watch.seconds)
    print(f"wrote {args.out} in {watch.seconds:.0f} s")


def point_runs(args, grid) -> dict:
    """The runs of every point: its batches, their seed and the workers; the values and the final
    regrets must be made with the same runs (the finals are checked against the stored means)."""
    return {"batches": grid.batches, "runs_per_batch": grid.runs_per_batch, "seed": SEED, "n_jobs": args.jobs}


def plays(alg: str, eps: float, horizons: tuple, calibrate_at: int) -> list:
    """``(policy, horizons)`` to run for row ``alg`` at ``eps``: an anytime policy (calibrated at
    ``calibrate_at``) once, read at every horizon; else one policy per horizon; none off the grid."""
    policy = policy_for(alg, eps, calibrate_at)
    if policy is None:
        return []
    return [(policy, horizons)] if policy.anytime else [(policy_for(alg, eps, h), (h,)) for h in horizons]


def add_values(args, grid, i, alg, values, runs, watch) -> None:
    """The frontier points of row ``alg`` (every instance, epsilon and horizon)."""
    hz = grid.horizons
    for j, instance in enumerate(grid.instances.values()):
        for k, eps in enumerate(grid.epsilons):
            for p, hs in plays(alg, eps, hz, max(hz)):
                pt = frontier_point(
                    p,
                    instance,
                    hs,
                    **point_runs(args, grid),
                    cache=not args.no_cache,
                )
                for r, h in enumerate(pt.horizons):
                    values[i, j, k, hz.index(h)] = pt.values[r]
                    runs[i, j, k, hz.index(h)] = pt.runs
        print(f"{alg}, {instance.name}: done at {watch.seconds:.0f} s", flush=True)


def add_finals(args, grid, i, alg, values, finals, watch) -> None:
    """Per-run final regrets of row ``alg`` at ``--finals-horizons``, checked against the stored means."""
    wanted = tuple(args.finals_horizons) if args.finals_horizons else grid.horizons
    for j, (iname, instance) in enumerate(grid.instances.items()):
        for k, eps in enumerate(grid.epsilons):
            for p, hs in plays(alg, eps, wanted, max(grid.horizons)):  # anytime: once, to the largest of hs
                f = final_regrets(
                    p,
                    instance,
                    hs,
                    **point_runs(args, grid),
                )
                for r, h in enumerate(sorted(hs)):
                    m = grid.horizons.index(h)
                    stored = values[i, j, k, m, 0]
                    mean = f[r].mean() / h
                    # the same runs as the stored point: their mean is its average regret up to rounding
                    assert abs(mean - stored) <= 1e-6 * max(abs(stored), 1e-12), (alg, iname, eps, h, mean, stored)
                    finals[i, j, k, m] = f[r]
    print(f"{alg}: final regrets done at {watch.seconds:.0f} s", flush=True)


def save(out, grid, values, runs, finals, command, wall_seconds) -> None:
    """Write the grid (every row, computed here or kept) to ``out``."""
    np.savez_compressed(
        out,
        values=values,
        runs=runs,
        finals=finals,
        algorithms=np.array(ALGORITHMS),
        instances=np.array(list(grid.instances)),
        epsilons=np.array(grid.epsilons),
        horizons=np.array(grid.horizons),
        stats=np.array(STATS),
        delta=DELTA,
        wall_seconds=wall_seconds,
        **provenance(DEPENDS_ON, command, SEED, git_commit()),
    )


if __name__ == "__main__":
    main()
