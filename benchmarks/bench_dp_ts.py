"""Benchmark of DP-TS, Lazy-DP-TS (``privbandits.policies.dp_ts``) and Gaussian Thompson sampling
(``privbandits.policies.thompson``) on the five frontier instances, against DP-SE.

Run:  python benchmarks/bench_dp_ts.py [--horizon 1000000] [--runs 2]
Milliseconds per run of ``run`` (the arm sequence), best of 3 batches of ``--runs`` runs after a
warm-up that compiles the kernel, at eps = 1. Thompson sampling draws one Beta (or normal) variate
per arm per round, so a run costs O(T K) draws, where DP-SE's Bernoulli epochs cost O(epochs K).
"""

from __future__ import annotations

import argparse

import numpy as np

from privbandits.frontier import frontier_instances
from privbandits.policies import DPSE, DPTS, GaussianTS, LazyDPTS

from _timing import best_of


def _ms_per_run(policy, inst, horizon: int, runs: int) -> float:
    """Milliseconds per ``policy.run(inst, horizon, rng)``, best of 3 batches of ``runs``."""
    rng = np.random.default_rng(0)
    return 1e3 * best_of(lambda: [policy.run(inst, horizon, rng) for _ in range(runs)]) / runs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--horizon", type=int, default=10**6)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    policies = (DPTS(epsilon=1.0), LazyDPTS(epsilon=1.0), GaussianTS(), DPSE(epsilon=1.0))
    print(f"| instance | K | T | {' | '.join(p.label + ' (ms)' for p in policies)} |")
    print("| --- | --- | --- |" + " --- |" * len(policies))
    for name, inst in frontier_instances().items():
        cells = [f"{_ms_per_run(policy, inst, args.horizon, args.runs):.0f}" for policy in policies]
        print(f"| {name} | {inst.n_arms} | {args.horizon:,} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
