"""Part II, Figure 1(e) beyond 10^6: NCB and GDP-NCB on the instance of Figure 1(b) up to T = 10^7.

Usage (from the repository root; a few minutes on 2 free cores, NCB plays every round over 50 arms):

    python benchmarks/run_dp_ncb_1e7.py [--horizons 1000000 3000000 10000000] [--runs 50] [--jobs 2]

The runs are ``privbandits.simulate.simulate_mean_rewards(policy, instance, T, runs, seed)``: the
same runs as the chapter's (run ``i`` uses ``default_rng(SeedSequence(seed).spawn(runs)[i])``),
reduced by the engine to the per-round mean of ``mu_{I_t}`` over runs as they finish, so memory is
O(T) (a ``(runs, T)`` array of arms would be 1-4 GB at ``T = 10^7``). Nash and average regret come
from ``privbandits.metrics``, exactly as in the chapter. It writes
``book/part2_dp_ncb/results_1e7.npz``: the horizons, the Nash and average regret and the mean
Phase I length (as a fraction of T) of each algorithm at each horizon, and the configuration (runs,
seed, epsilon, instance seed, package source hash, git commit, command line, wall time). The
chapter recomputes the T = 10^6 point itself and checks that it equals the stored one, which
detects a stored file made by a different version of the algorithms.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from tqdm import tqdm

from privbandits.environments import bernoulli_instance
from privbandits.metrics import average_regret, nash_regret
from privbandits.policies.dp_ncb import GDPNCB, NCB
from privbandits.provenance import provenance
from privbandits.simulate import simulate_mean_rewards

from _timing import Stopwatch, git_commit

#: the package modules the stored result depends on (its code digest, privbandits.provenance)
DEPENDS_ON = ("privbandits.policies.dp_ncb", "privbandits.simulate", "privbandits.metrics")

OUT = Path(__file__).resolve().parents[1] / "book" / "part2_dp_ncb" / "results_1e7.npz"
KEYS = {"NCB": "ncb", "GDP-NCB": "gdp_ncb"}


def regrets(policy, instance, horizon, runs, seed, jobs):
    """Nash regret, average regret and mean Phase I length / T of ``runs`` runs (O(T) memory)."""
    res = simulate_mean_rewards(policy, instance, horizon, runs, seed, n_jobs=jobs, cache=False, progress=False)
    phase1 = float(np.mean(res.records.get("phase1_end", np.zeros(runs))))
    return nash_regret(res), average_regret(res), phase1 / horizon


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--horizons", type=int, nargs="+", default=[10**6, 3 * 10**6, 10**7])
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epsilon", type=float, default=0.2)
    ap.add_argument("--jobs", type=int, default=None, help="workers (default: the engine's)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)

    means = np.random.default_rng(2026).uniform(0.005, 1.0, 50)  # the chapter's instance of Figure 1(b)
    instance = bernoulli_instance(means, name="fig1b")
    policies = [NCB(), GDPNCB(epsilon=args.epsilon)]
    horizons = sorted(args.horizons)
    clock = Stopwatch()
    arrays = {"horizons": np.array(horizons, dtype=np.int64)}
    with tqdm(total=len(policies) * len(horizons), unit="setting") as bar:
        for policy in policies:
            rows = []
            for h in horizons:
                rows.append(regrets(policy, instance, h, args.runs, args.seed, args.jobs))
                bar.update()
            k = KEYS[policy.name]
            arrays[f"{k}_nash"], arrays[f"{k}_avg"], arrays[f"{k}_phase1"] = (np.array(col) for col in zip(*rows))
    wall = clock.seconds
    commit = git_commit()
    arrays.update(
        {
            "runs": np.int64(args.runs),
            "epsilon": np.float64(args.epsilon),
            "instance_seed": np.int64(2026),
            "wall_seconds": np.float64(wall),
            **provenance(
                DEPENDS_ON,
                "python benchmarks/run_dp_ncb_1e7.py " + " ".join(sys.argv[1:] if argv is None else argv),
                args.seed,
                commit,
            ),
        }
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {args.out} in {wall:.0f} s")
    for policy in policies:
        k = KEYS[policy.name]
        print(
            f"{policy.name:>8} Nash regret: "
            + "  ".join(f"T={h:.0e}: {v:.5f}" for h, v in zip(horizons, arrays[f"{k}_nash"]))
        )


if __name__ == "__main__":
    main()
