"""Timings of privbandits.audit, and the offline many-seed check of its false-violation rate.

    PRIVBANDITS_N_JOBS=1 python benchmarks/bench_audit.py             # timings (no cache)
    PRIVBANDITS_N_JOBS=1 python benchmarks/bench_audit.py --false-rate 200

Timings: one mechanism (Laplace) at 10^6 samples per dataset and phase; one bandit algorithm
(DP-UCB, K = 2, T = 100) at 10^5 samples per dataset and phase; GDP-NCB's Phase I audit of the
Part V chapter (first run of arm 0, T = 5) at 10^5.

``--false-rate S``: S audits (seeds 0..S-1) of the exact-scale Laplace mechanism (claimed epsilon = 1,
true loss 1) at 10^5 samples per dataset and phase, level alpha = 0.05. The number of false
violations must be consistent with a rate <= 0.05: the script prints the count and the one-sided
Clopper-Pearson 95% upper bound on the rate.
"""

import sys

import numpy as np

from privbandits.audit import (
    action_statistic_sampler,
    audit,
    clopper_pearson,
    flip_pairs,
    leading_run,
    mechanism_targets,
    policy_sampler,
)
from privbandits.environments import bernoulli_instance
from privbandits.policies.dp_ncb import GDPNCB
from privbandits.policies.private_ucb import DPUCB

from _timing import Stopwatch


def timings() -> None:
    t = mechanism_targets(1.0)["Laplace"]
    clock = Stopwatch()
    r = audit(t["sampler"], t["pairs"], epsilon=1.0, n_samples=1_000_000, seed=0)
    print(f"Laplace, 1e6 samples/dataset/phase: {clock.seconds:.2f} s, bound {r.epsilon_lower:.3f}")

    T = 100
    table = np.ones((T, 2))
    clock = Stopwatch()
    r = audit(
        policy_sampler(DPUCB(epsilon=1.0), bernoulli_instance([0.7, 0.3]), T),
        flip_pairs(table, [0]),
        epsilon=1.0,
        n_samples=100_000,
        seed=0,
        n_jobs=1,
    )
    print(f"DP-UCB T=100, 1e5 samples/dataset/phase, 1 pair: {clock.seconds:.2f} s, bound {r.epsilon_lower:.3f}")

    table = np.zeros((5, 2))
    table[:, 0] = 1.0
    clock = Stopwatch()
    sampler = action_statistic_sampler(
        GDPNCB(epsilon=1.0, phase1_constant=0.05), bernoulli_instance([0.5, 0.5]), 5, leading_run
    )
    r = audit(sampler, flip_pairs(table, [0]), epsilon=1.0, n_samples=100_000, seed=0, n_jobs=1)
    print(
        f"GDP-NCB Phase I T=5, 1e5 samples/dataset/phase: {clock.seconds:.2f} s, "
        f"bound {r.epsilon_lower:.3f} ({r.verdict})"
    )


def false_rate(seeds: int) -> None:
    t = mechanism_targets(1.0)["Laplace"]
    clock = Stopwatch()
    bounds = np.array(
        [
            audit(t["sampler"], t["pairs"], epsilon=1.0, n_samples=100_000, seed=s, n_jobs=1).epsilon_lower
            for s in range(seeds)
        ]
    )
    k = int((bounds > 1.0).sum())
    _, hi = clopper_pearson(k, seeds, 0.05)
    print(
        f"exact Laplace, {seeds} seeds: {k} false violations (rate {k / seeds:.3f}, 95% upper bound {float(hi):.3f});"
        f" largest bound {bounds.max():.3f}, median {np.median(bounds):.3f}; {clock.seconds:.1f} s"
    )


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--false-rate":
        false_rate(int(sys.argv[2]))
    else:
        timings()
