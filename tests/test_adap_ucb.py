"""Tests of Part II's baseline ``policies.adap_ucb``: AdaP-UCB (``azize2022privacy``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _policy_checks import PART2_INSTANCE as INST
from _policy_checks import check_figure_1a_nash_regret_is_finite, check_reproducible
from _policy_checks import part2_runs as _arms

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


# --------------------------------------------------------------------------------------------------
# The DP-NCB authors' code as options of AdaP-UCB (off by default); deterministic (fixed seeds).


def test_adap_ucb_noiseless_init_releases_k_fewer():
    k = INST.n_arms
    base, quiet = _arms(AdaPUCB()), _arms(AdaPUCB(noiseless_init=True))
    assert np.all(base.arms[:, :k] == np.arange(k)) and np.all(quiet.arms[:, :k] == np.arange(k))
    # same episode structure (lengths double the arm's pulls), k releases fewer per run
    assert np.all(quiet.records["releases"] == np.asarray([_episodes(a, k, False) for a in quiet.arms]) - k)
    assert not np.array_equal(base.arms, quiet.arms)


def _episodes(arms, k, double_last):
    """Number of releases the episode structure implies: k initial ones plus one per episode."""
    counts = np.bincount(arms, minlength=k)
    total = k
    for c in counts:
        n, last = 1, 1
        while n < c:
            length = 2 * last if double_last else n
            n += length
            last = length
            total += 1
    return total


@pytest.mark.parametrize("authors_index", [False, True])
def test_adap_ucb_episode_lengths(authors_index):
    """Default: an episode doubles the arm's pulls, so an arm whose last episode was not cut by the
    horizon has a power-of-2 count; doubling the last episode gives 2^j - 1 instead."""
    for double_last in (False, True):
        res = _arms(AdaPUCB(epsilon=math.inf, authors_index=authors_index, episode_doubles_last=double_last))
        for arms in res.arms:
            counts = np.bincount(arms, minlength=INST.n_arms)
            for a, cnt in enumerate(counts):
                if a == arms[-1]:
                    continue  # the episode cut by the horizon
                target = cnt + 1 if double_last else cnt
                assert target & (target - 1) == 0, (a, cnt)


def test_adap_ucb_authors_index_changes_the_choices():
    assert not np.array_equal(_arms(AdaPUCB()).arms, _arms(AdaPUCB(authors_index=True)).arms)


def test_adap_ucb_clipping_changes_nothing_without_noise_and_something_with_it():
    """Without noise every release is an empirical mean, already in [0, 1]: clipping is idle (same
    arms, bit for bit). With the noise of eps = 0.2, the clipped releases change the play."""
    for flags in ({}, {"noiseless_init": True}):
        plain = _arms(AdaPUCB(epsilon=math.inf, **flags)).arms
        assert np.array_equal(plain, _arms(AdaPUCB(epsilon=math.inf, clip_private_mean=True, **flags)).arms)
    assert not np.array_equal(_arms(AdaPUCB()).arms, _arms(AdaPUCB(clip_private_mean=True)).arms)
