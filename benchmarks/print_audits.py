"""Audits on fixed seeds, each ``AuditResult`` printed with ``repr``: run under two package trees and diff.

Issue 37's check that a change of the auditor leaves every result the same, bit for bit (no cache)::

    PYTHONPATH=/path/to/old/pkg PRIVBANDITS_N_JOBS=1 python benchmarks/print_audits.py > old.txt
    PYTHONPATH=pkg PRIVBANDITS_N_JOBS=1 python benchmarks/print_audits.py > new.txt
    cmp old.txt new.txt

61 audits (about 30 CPU s): the twelve mechanism targets, correct and broken, at three levels
(quantile and joint-bin features); DP-UCB, GDP-NCB (printed and sparse-vector Phase I), AdaP-UCB and
Private-UCB on Part V's round-0 pair and its rounds-25/50 pairs at two levels; GDP-NCB's Phase I
statistic (leading run, T = 5) with both rules at two levels; a sampler whose outputs are all
distinct (no searchable feature).
"""

import os
import sys

import numpy as np

from privbandits.audit import (
    action_statistic_sampler,
    audit,
    flip_pairs,
    leading_run,
    mechanism_targets,
    policy_sampler,
)
from privbandits.environments import bernoulli_instance
from privbandits.policies import DPUCB, GDPNCB, AdaPUCB, PrivateUCB


def main() -> None:
    os.environ.setdefault("PRIVBANDITS_PROGRESS", "0")
    out = []
    for broken in (False, True):
        for name, t in mechanism_targets(1.0, broken=broken).items():
            n = 20_000 if "counter" in name else 100_000
            for alpha in (0.05, 0.025, 0.2):
                r = audit(
                    t["sampler"],
                    t["pairs"],
                    epsilon=t["epsilon"],
                    delta=t["delta"],
                    features=t["features"],
                    n_samples=n,
                    alpha=alpha,
                    seed=1,
                    n_jobs=1,
                )
                out.append((name, broken, alpha, r))
    instance, horizon = bernoulli_instance([0.7, 0.3]), 100
    table = np.ones((horizon, 2))
    policies = (
        DPUCB(epsilon=1.0),
        GDPNCB(epsilon=1.0, phase1_rule="sparse_vector"),
        AdaPUCB(epsilon=1.0),
        PrivateUCB(epsilon=1.0),
        GDPNCB(epsilon=1.0),
    )
    for policy in policies:
        sampler = policy_sampler(policy, instance, horizon)
        for pairs, n in ((flip_pairs(table, [0]), 20_000), (flip_pairs(table, [25, 50]), 5_000)):
            for alpha in (0.05, 0.025):
                r = audit(sampler, pairs, epsilon=1.0, n_samples=n, alpha=alpha, seed=2, n_jobs=1)
                out.append((policy.label, alpha, r))
    short = np.zeros((5, 2))
    short[:, 0] = 1.0
    for rule in ("printed", "sparse_vector"):
        policy = GDPNCB(epsilon=1.0, phase1_constant=0.05, phase1_rule=rule)
        sampler = action_statistic_sampler(policy, bernoulli_instance([0.5, 0.5]), 5, leading_run)
        for alpha in (0.05, 0.01):
            r = audit(sampler, flip_pairs(short, [0]), epsilon=1.0, n_samples=50_000, alpha=alpha, seed=0, n_jobs=1)
            out.append((rule, alpha, r))

    def distinct(x, rng, n):
        return rng.integers(0, 2**40, size=n)

    out.append(("distinct", audit(distinct, [(0.0, 1.0)], epsilon=1.0, n_samples=2_000, seed=0, n_jobs=1)))
    for row in out:
        print(repr(row))
    print(f"{len(out)} audits", file=sys.stderr)


if __name__ == "__main__":
    main()
