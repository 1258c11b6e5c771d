"""Checks shared by the policy test files (imported by name: pytest puts tests/ on sys.path)."""

from __future__ import annotations

import numpy as np

from privbandits.environments import BanditInstance, bernoulli_instance


def random_instance(k: int = 10, seed: int = 1) -> BanditInstance:
    """Bernoulli arms with means drawn uniformly from (0.005, 1), the range of DP-NCB's Figure 1(b)."""
    return bernoulli_instance(np.random.default_rng(seed).uniform(0.005, 1, k))


def check_reproducible(policy, horizon: int = 3000) -> None:
    """Two runs from the same seed give identical records, and every arm index is valid."""
    inst = random_instance()
    a = policy.run(inst, horizon, np.random.default_rng(5))
    b = policy.run(inst, horizon, np.random.default_rng(5))
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
    assert a["arms"].min() >= 0 and a["arms"].max() < inst.n_arms
