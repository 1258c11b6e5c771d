"""Benchmarks of Part I: time per algorithm per 10^7 rounds on the two Figure 2 instances.

Run:  python benchmarks/bench_private_ucb.py
100 runs x 100,000 rounds (= 10^7 rounds) per algorithm and instance, eps' = 1, best of 2 after a
warm-up (compilation excluded), n_jobs = 1 and 2.
"""

from __future__ import annotations

import os

os.environ.setdefault("PRIVBANDITS_PROGRESS", "0")

from privbandits import bernoulli_instance, simulate  # noqa: E402
from privbandits.policies import UCB  # noqa: E402
from privbandits.policies.private_ucb import (  # noqa: E402
    DPUCB,
    DPUCBBound,
    DPUCBInt,
    PrivateUCB,  # noqa: E402
)

from _timing import best_of  # noqa: E402


def main() -> None:
    instances = {
        "2 arms": bernoulli_instance([0.9, 0.6]),
        "10 arms": bernoulli_instance([0.1] * 8 + [0.2, 0.55]),
    }
    policies = [
        UCB(),
        PrivateUCB(1.0),
        PrivateUCB(1.0, per_tree_budget="eps", width="tail_bound"),
        DPUCBBound(1.0),
        DPUCBBound(1.0, bonus="printed"),
        DPUCB(1.0),
        DPUCBInt.for_target(1.0),
    ]
    print("| algorithm | instance | n_jobs=1 (s / 10^7 rounds) | n_jobs=2 |")
    print("| --- | --- | --- | --- |")
    for policy in policies:
        for name, inst in instances.items():
            times = [
                best_of(
                    lambda p=policy, i=inst, j=j: simulate(p, i, 100_000, 100, seed=0, n_jobs=j, cache=False), repeat=2
                )
                for j in (1, 2)
            ]
            label = policy.name + (" (printed bonus)" if getattr(policy, "bonus", "") == "printed" else "")
            print(f"| {label} | {name} | {times[0]:.2f} | {times[1]:.2f} |")


if __name__ == "__main__":
    main()
