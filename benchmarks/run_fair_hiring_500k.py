"""Part IV beyond the paper: the main comparison (OFUL, Fair-Greedy, Private-Fair-Greedy) to T = 500,000.

Usage (from the repository root; about 10 min on 2 free cores):

    python benchmarks/run_fair_hiring_500k.py [--horizon 500000] [--runs 10] [--rank-refresh 16] [--jobs 2]

Every (algorithm, trial) pair runs as one task of the package's engine
(``privbandits.engine.parallel_map``: threads, or any joblib backend), seeded with
``SeedSequence(seed).spawn(runs)[i]`` exactly as ``simulate_hiring`` does, and its downsampled
result is stored in the engine's disk cache (key = full configuration + the source of Part IV's
modules), so an interrupted run resumes.  The script then writes
``book/part4_fair_hiring/results_500k.npz``: cumulative fair pseudo-regret and cumulative regret of
every trial at ~200 log-spaced rounds, the selection share per group of every trial, and the
configuration (horizon, runs, seed, rank_refresh, the command line, wall time).

``--rank-refresh`` is the ``rank_refresh`` parameter of ``FairGreedy`` / ``PrivateFairGreedy``:
theta-hat and the window scores are recomputed when t~ is a multiple of it (1 = the paper, exact
at every round; see the chapter for its measured effect at T = 50,000).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from privbandits import engine
from privbandits.data import load_census_hiring
from privbandits.policies.fair_hiring import OFUL, FairGreedy, HiringEnvironment, PrivateFairGreedy
from privbandits.provenance import provenance

from _timing import Stopwatch, git_commit

#: the package modules the stored result depends on (its code digest, privbandits.provenance)
DEPENDS_ON = ("privbandits.policies.fair_hiring", "privbandits.data.census", "privbandits.engine")

OUT = Path(__file__).resolve().parents[1] / "book" / "part4_fair_hiring" / "results_500k.npz"
KEYS = {"OFUL": "oful", "Fair-Greedy": "fair_greedy", "Private-Fair-Greedy": "private_fair_greedy"}


def log_points(horizon: int, n: int = 200) -> np.ndarray:
    """~n distinct rounds (1-based), log-spaced from 1 to horizon, horizon included."""
    return np.unique(np.geomspace(1, horizon, n).round().astype(np.int64))


def one_trial(policy, env, horizon, seed_seq, points, n_groups):
    """One (algorithm, trial), downsampled, stored by the engine's cache (an interrupted run resumes)."""

    def compute():
        res = policy.run(env, horizon, np.random.default_rng(seed_seq))
        return {
            "fair": np.cumsum(res["fair_regret"])[points - 1],
            "regret": np.cumsum(res["regret"])[points - 1],
            "share": np.bincount(res["groups"], minlength=n_groups) / horizon,
        }

    config = {
        "kind": "hiring-500k-trial",
        "policy": policy.config(),
        "env": env.fingerprint(),
        "noise_sd": env.noise_sd,
        "horizon": horizon,
        "seed": seed_seq.entropy,
        "spawn_key": list(seed_seq.spawn_key),
        "points": points.tolist(),
    }
    return engine.cached(config, compute, depends_on=[policy, env])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--horizon", type=int, default=500_000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=2025)
    ap.add_argument("--rank-refresh", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=None, help="workers (default: the engine's)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)

    data = load_census_hiring()
    env = HiringEnvironment.from_census(data, noise_sd=0.1)
    policies = [
        OFUL(),
        FairGreedy(rank_refresh=args.rank_refresh),
        PrivateFairGreedy(epsilon=15.0, delta=0.1, alpha_eps=0.9, alpha_delta=0.9, rank_refresh=args.rank_refresh),
    ]
    points = log_points(args.horizon)
    seeds = np.random.SeedSequence(args.seed).spawn(args.runs)
    tasks = [(p, i) for i in range(args.runs) for p in policies]
    clock = Stopwatch()
    outputs = engine.parallel_map(
        one_trial,
        [(p, env, args.horizon, seeds[i], points, data.n_groups) for p, i in tasks],
        n_jobs=args.jobs,
        desc=f"T={args.horizon:,}",
    )
    results = {(p.name, i): rec for (p, i), rec in zip(tasks, outputs)}
    wall = clock.seconds
    arrays = {
        "t": points,
        "horizon": np.int64(args.horizon),
        "runs": np.int64(args.runs),
        "rank_refresh": np.int64(args.rank_refresh),
        "wall_seconds": np.float64(wall),
        "group_names": np.array(data.group_names),
        **provenance(
            DEPENDS_ON,
            "python benchmarks/run_fair_hiring_500k.py " + " ".join(sys.argv[1:] if argv is None else argv),
            args.seed,
            git_commit(),
        ),
    }
    for p in policies:
        k = KEYS[p.name]
        for field in ("fair", "regret", "share"):
            arrays[f"{k}_{field}"] = np.stack([results[(p.name, i)][field] for i in range(args.runs)])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KB) in {wall:.0f} s")
    for p in policies:
        k = KEYS[p.name]
        f = arrays[f"{k}_fair"]
        print(f"{p.name:<22} fair regret at T: {f[:, -1].mean():10.1f} +- {f[:, -1].std():.1f}")


if __name__ == "__main__":
    main()
