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


def check_figure_1a_nash_regret_is_finite(policy, horizon: int = 1000) -> None:
    """On Figure 1(a)'s instance (a (2e)^-T arm, which underflows, and a mean-1 arm) the Nash regret
    of 5 runs, computed in log space, is a finite number in [0, 1]."""
    from privbandits.metrics import nash_regret
    from privbandits.simulate import simulate

    inst = bernoulli_instance(log_means=np.array([-horizon * (np.log(2) + 1), 0.0]))
    res = simulate(policy, inst, horizon, runs=5, seed=0, cache=False, progress=False, n_jobs=1)
    nr = nash_regret(res)
    assert np.isfinite(nr) and 0 <= nr <= 1, nr
