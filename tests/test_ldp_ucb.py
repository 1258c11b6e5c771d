"""Tests of Part II's baseline ``policies.ldp_ucb``: LDP-UCB-L (``ren2020multi``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _policy_checks import PART2_INSTANCE as INST
from _policy_checks import check_reproducible
from _policy_checks import part2_runs as _arms

from privbandits.environments import bernoulli_instance
from privbandits.policies import LDPUCB


@pytest.mark.parametrize("policy", [LDPUCB()], ids=lambda p: p.name)
def test_reproducible_given_seed(policy):
    check_reproducible(policy)


@pytest.mark.parametrize("make", [lambda: LDPUCB(epsilon=float("nan"))])
def test_bad_input_raises(make):
    with pytest.raises(ValueError):
        make()


def test_ldp_ucb_forces_4_log_t_pulls_per_arm():
    # LDP-UCB-L pulls any arm with N_a <= 4 log t before using the index (the first author's code;
    # the book had no forced pulls, and plain UCB gives a 0-mean arm only about 2 log T pulls).
    # Deterministic: eps = inf and rewards of arms of mean 0 or 1 are constant.
    horizon = 10_000
    rec = LDPUCB(epsilon=math.inf).run(bernoulli_instance(np.array([1.0, 0.0, 0.0])), horizon, np.random.default_rng(0))
    counts = np.bincount(rec["arms"], minlength=3)
    assert np.all(counts[1:] >= 4 * math.log(horizon) - 1), counts
    np.testing.assert_array_equal(rec["arms"][:3], [0, 1, 2])  # the first k rounds: each arm once
    with pytest.raises(ValueError, match="explore"):
        LDPUCB(explore=-1.0)


# --------------------------------------------------------------------------------------------------
# The DP-NCB authors' code as options of LDP-UCB (off by default); deterministic (fixed seeds).


def test_ldp_ucb_clipping_changes_nothing_without_noise_and_something_with_it():
    assert np.array_equal(_arms(LDPUCB(epsilon=math.inf)).arms, _arms(LDPUCB(epsilon=math.inf, clip_rewards=True)).arms)
    assert not np.array_equal(_arms(LDPUCB()).arms, _arms(LDPUCB(clip_rewards=True)).arms)


def test_ldp_ucb_forced_first_pulls_the_lowest_numbered_arm():
    k = INST.n_arms
    base, first = _arms(LDPUCB(), 200), _arms(LDPUCB(forced_first=True), 200)
    assert np.all(first.arms[:, :k] == np.arange(k)) and np.all(base.arms[:, :k] == np.arange(k))
    # round k + 1: every arm has one pull and 1 <= 4 log(k + 2): arm 0 again, where round-robin takes arm 1
    assert np.all(first.arms[:, k + 1] == 0) and np.all(base.arms[:, k + 1] == 1)
