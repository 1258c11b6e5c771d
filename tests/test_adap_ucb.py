"""Tests of Part II's baseline ``policies.adap_ucb``: AdaP-UCB (``azize2022privacy``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _policy_checks import check_figure_1a_nash_regret_is_finite, check_reproducible

from privbandits.environments import bernoulli_instance
from privbandits.policies import AdaPUCB


@pytest.mark.parametrize("policy", [AdaPUCB()], ids=lambda p: p.name)
def test_reproducible_given_seed(policy):
    check_reproducible(policy)


def test_nash_regret_of_figure_1a_is_finite():
    check_figure_1a_nash_regret_is_finite(AdaPUCB())


@pytest.mark.parametrize("make", [lambda: AdaPUCB(alpha=0)])
def test_bad_input_raises(make):
    with pytest.raises(ValueError):
        make()


def _adap_ucb_reference(means01, horizon, alpha):
    """Algorithm 1 of azize2022privacy with the AdaP-UCB index Eq. (7), eps = inf, rewards equal to
    the (0/1) means: a plain-Python transcription, used to check the kernel's constants."""
    k = len(means01)
    n, last, mu, arms = [0] * k, [0] * k, [0.0] * k, []
    for a in range(k):  # line 3: each arm once
        arms.append(a)
        n[a], last[a], mu[a] = 1, 1, float(means01[a])
    t = k
    while t < horizon:
        t_l = t + 1  # line 5
        index = [mu[i] + math.sqrt(alpha * math.log(2 * t_l) / (2 * last[i])) for i in range(k)]  # Eq. (7)
        a = int(np.argmax(index))
        length = min(n[a], horizon - t)  # line 7: until N_a doubles
        arms += [a] * length
        t += length
        n[a] += length
        last[a], mu[a] = length, float(means01[a])
    return np.array(arms)


def test_adap_ucb_follows_eq_7_of_azize_basu():
    # Eq. (7) has log(2 t_l) in the square root (the book had log(t_l) before). Deterministic:
    # eps = inf draws no noise and the rewards of arms of mean 0 or 1 are constant.
    means01 = np.array([1.0, 0.0, 0.0, 1.0, 0.0])
    for alpha in (3.1, 4.0):
        rec = AdaPUCB(epsilon=math.inf, alpha=alpha).run(bernoulli_instance(means01), 20_000, np.random.default_rng(0))
        np.testing.assert_array_equal(rec["arms"], _adap_ucb_reference(means01, 20_000, alpha))
