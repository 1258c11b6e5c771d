"""Part V's auditor on the Thompson-sampling policies of issue 35: certified lower bounds on their privacy loss.

Run:  PRIVBANDITS_N_JOBS=1 python benchmarks/run_audit_thompson.py [--quick] [--sweep]

Part V's bandit protocol (``book/part5_audit/audit.py``): K = 2, T = 100, the reward table is the
dataset and neighbouring tables differ in one reward; the output audited is the whole arm sequence.
Two tables: "ones" (every reward 1, Part V's generic table) and "separated" (arm 0 pays 1, arm 1
pays 0). Pairs: arm 0's reward at round 0 flipped (10^5 samples per dataset and phase, level
alpha / 2) and at rounds 25 and 50 (10^4, alpha / 2), so each algorithm's best bound over the three
pairs holds with probability 1 - alpha = 0.95 per table. ``--quick`` divides the samples by 10.

Claims audited: DP-TS and Lazy-DP-TS at eps = 1 (``hu2022near`` Theorems 1 and 3, proven), and
Gaussian Thompson sampling (``agrawal2013further`` Algorithm 2), for which no claim with explicit
constants could be read (``tossou2018differential``: a loss of O(ln^2 T); ``ou2024thompson``:
instance-dependent per-round Gaussian-DP guarantees); it is audited against eps = 1 for the record,
and its certified lower bound is what the run reports.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from privbandits.audit import audit, epsilon_lower_bound, flip_pairs, policy_sampler
from privbandits.environments import bernoulli_instance
from privbandits.policies import DPTS, GaussianTS, LazyDPTS

T, K, ALPHA = 100, 2, 0.05


def tables() -> dict[str, np.ndarray]:
    """The audited reward tables, ``(T, K)``."""
    ones = np.ones((T, K))
    separated = np.zeros((T, K))
    separated[:, 0] = 1.0
    return {"ones": ones, "separated": separated}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a tenth of the samples")
    parser.add_argument("--sweep", action="store_true", help="Gaussian TS only: horizons and sampling scales")
    args = parser.parse_args()
    if args.sweep:
        sweep(10_000 if args.quick else 100_000)
        return
    n = 10_000 if args.quick else 100_000
    instance = bernoulli_instance([0.7, 0.3])  # its means are not used: the table replaces the draws
    policies = [(DPTS(epsilon=1.0), 1.0), (LazyDPTS(epsilon=1.0), 1.0), (GaussianTS(), 1.0)]
    print("| algorithm | table | claimed eps | best lower bound (95%) | pair | event p0, p1 | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for policy, eps in policies:
        sampler = policy_sampler(policy, instance, T)
        for name, table in tables().items():
            start = time.perf_counter()
            first = audit(sampler, flip_pairs(table, [0]), epsilon=eps, n_samples=n, alpha=ALPHA / 2, seed=2, n_jobs=1)
            later = audit(
                sampler,
                flip_pairs(table, [T // 4, T // 2]),
                epsilon=eps,
                n_samples=n // 10,
                alpha=ALPHA / 2,
                seed=3,
                n_jobs=1,
            )
            best, where = (first, "r[0, 0]") if first.epsilon_lower >= later.epsilon_lower else (later, None)
            where = where or f"r[{[T // 4, T // 2][later.pair]}, 0]"
            seconds = time.perf_counter() - start
            print(
                f"| {policy.label} | {name} | {eps:g} | {best.epsilon_lower:.3f} | {where} | "
                f"{best.p0:.4f}, {best.p1:.4f} | {seconds:.0f} |"
            )
    print()
    ceiling = float(epsilon_lower_bound(n, 0, n, 0.0, ALPHA / 2))
    print(
        f"The largest bound the round-0 confirmation can give ({n:,} samples, an event of probability 1 and 0): "
        f"{ceiling:.3f}"
    )


def sweep(n: int) -> None:
    """Gaussian TS on the "ones" table, round-0 flip only (level alpha): the horizon and the scale varied."""
    instance = bernoulli_instance([0.7, 0.3])
    print("| algorithm | T | best lower bound (95%) | event p0, p1 | seconds |")
    print("| --- | --- | --- | --- | --- |")
    for horizon, scale in ((10, 1.0), (30, 1.0), (100, 1.0), (300, 1.0), (100, 2.0), (100, 4.0)):
        policy = GaussianTS(scale=scale)
        start = time.perf_counter()
        sampler = policy_sampler(policy, instance, horizon)
        pairs = flip_pairs(np.ones((horizon, K)), [0])
        r = audit(sampler, pairs, epsilon=1.0, n_samples=n, alpha=ALPHA, seed=4, n_jobs=1)
        label, seconds = f"{policy.name} (scale {scale:g})", time.perf_counter() - start
        print(f"| {label} | {horizon} | {r.epsilon_lower:.3f} | {r.p0:.4f}, {r.p1:.4f} | {seconds:.0f} |", flush=True)


if __name__ == "__main__":
    main()
