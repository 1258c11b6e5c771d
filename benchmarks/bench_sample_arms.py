"""CPU seconds of each audited policy's first ``sample_arms`` call in a process: what the auditor's loop over runs
costs to compile (or to load from numba's cache) per process, per policy (issue 37).

Usage (from the repository root): run it twice on one fresh numba cache; the first process compiles
everything, the second shows what every later process (a notebook, a test worker) pays::

    export NUMBA_CACHE_DIR=$(mktemp -d)
    PYTHONPATH=pkg python benchmarks/bench_sample_arms.py    # cold: compiles the kernels and the loops
    PYTHONPATH=pkg python benchmarks/bench_sample_arms.py    # warm

The policies are Part V's audited bandit algorithms and its three Thompson-sampling ones, on Part V's
instance (K = 2, T = 100); each draws 500 runs, which must equal 500 calls of ``run`` on one generator
(checked: the script fails otherwise).
"""

import time

import numpy as np

from privbandits.environments import bernoulli_instance
from privbandits.policies import (
    DPTS,
    DPUCB,
    GDPNCB,
    LDPNCB,
    LDPUCB,
    AdaPUCB,
    AnytimeDPNCB,
    DPUCBBound,
    DPUCBInt,
    FixedBudgetThresholding,
    GaussianTS,
    LazyDPTS,
    PrivateUCB,
)

POLICIES = [
    DPUCBBound(epsilon=1.0),
    DPUCB(epsilon=1.0),
    DPUCBInt(epsilon=1.0),
    PrivateUCB(epsilon=1.0),
    GDPNCB(epsilon=1.0),
    GDPNCB(epsilon=1.0, phase1_rule="sparse_vector"),
    AnytimeDPNCB(epsilon=1.0),
    LDPNCB(epsilon=1.0),
    AnytimeDPNCB(base="ldp", epsilon=1.0),
    AdaPUCB(epsilon=1.0),
    LDPUCB(epsilon=1.0),
    FixedBudgetThresholding(tau=0.5, epsilon=1.0),
    DPTS(epsilon=1.0),
    LazyDPTS(epsilon=1.0),
    GaussianTS(),
]


def main() -> None:
    instance = bernoulli_instance([0.7, 0.3])
    total = 0.0
    for policy in POLICIES:
        start = time.process_time()
        arms = policy.sample_arms(instance, 100, np.random.default_rng(3), 500)
        seconds = time.process_time() - start
        total += seconds
        rng = np.random.default_rng(3)
        runs = np.stack([policy.run(instance, 100, rng)["arms"] for _ in range(500)])
        assert np.array_equal(arms, runs), f"{policy.label}: sample_arms differs from run"
        print(f"{seconds:7.2f} s CPU  {policy.label} (records {', '.join(policy.records)})")
    print(f"{total:7.2f} s CPU in all, first sample_arms call of each policy")


if __name__ == "__main__":
    main()
