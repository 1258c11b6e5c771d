"""Tests of privbandits.environments.hiring: the hiring environment of Part IV."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _policy_checks import small_hiring_env

from privbandits import environments as env
from privbandits.policies.fair_hiring import PrivateFairGreedy


def _hiring(noise_sd=0.1, shift=0.0):
    rng = np.random.default_rng(3)
    pools = tuple(rng.normal(size=(30, 4)) + shift for _ in range(3))
    return env.HiringEnvironment(pools, rng.normal(size=4), noise_sd=noise_sd)


def test_hiring_environment_joins_the_family_and_keeps_its_old_paths():
    from privbandits.policies import fair_hiring
    from privbandits.policies.fair_hiring import environment as old

    assert fair_hiring.HiringEnvironment is old.HiringEnvironment is env.HiringEnvironment
    assert fair_hiring.ScoreTree is env.ScoreTree and fair_hiring.HiringArrays is env.HiringArrays
    assert old.check_l_tilde_rule("norm") == "norm"


def test_hiring_spec_identifies_the_data_and_the_noise():
    a = _hiring()
    assert a.spec() == _hiring().spec()  # equal data: equal spec (and cache key)
    assert a.spec() != _hiring(noise_sd=0.2).spec()
    assert a.spec() != _hiring(shift=1e-9).spec()
    arrays = a.arrays()
    assert arrays.offsets.tolist() == [0, 30, 60, 90] and arrays.pool.shape == (90, 4)


def test_hiring_bad_input():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="noise_sd"):
        env.HiringEnvironment((rng.normal(size=(3, 2)),) * 2, np.ones(2), noise_sd=0.0)
    with pytest.raises(ValueError, match="pools"):
        env.HiringEnvironment((rng.normal(size=(3, 2)),), np.ones(2))
    with pytest.raises(ValueError, match="l_tilde_rule"):
        _hiring().l_tilde("max")


def test_l_tilde_rules():
    env = small_hiring_env()
    pool = np.vstack(env.pools)
    x_norm, y_clip = np.linalg.norm(pool, axis=1), env.y_clip()
    assert env.l_tilde() == env.l_tilde("sum") == pytest.approx(x_norm.max() + y_clip)
    assert env.l_tilde("norm") == pytest.approx(math.sqrt(x_norm.max() ** 2 + y_clip**2))
    assert env.l_tilde("data") == pytest.approx(np.sqrt(x_norm**2 + (pool @ env.theta_star) ** 2).max())
    # "sum" and "norm" bound the norm of every clipped leaf [x, y]; "data" does not
    worst = np.sqrt(x_norm**2 + y_clip**2).max()
    assert worst <= env.l_tilde("norm") + 1e-12 <= env.l_tilde("sum") + 1e-12
    assert worst > env.l_tilde("data")
    for rule in ("sum", "norm", "data"):
        assert PrivateFairGreedy(l_tilde_rule=rule).calibration_values(env, 100)["l_tilde"] == env.l_tilde(rule)
    assert PrivateFairGreedy(l_tilde=3.0, l_tilde_rule="data").calibration_values(env, 100)["l_tilde"] == 3.0
