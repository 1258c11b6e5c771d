"""Tests of Part I: Private-UCB (Mishra-Thakurta) and DP-UCB-BOUND / DP-UCB / DP-UCB-INT (Tossou-Dimitrakakis)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privbandits import bernoulli_instance, simulate
from privbandits.policies.mishra2015 import PrivateUCB
from privbandits.policies.tossou2016 import (
    DPUCB,
    DPUCBBound,
    DPUCBInt,
    dp_ucb_int_input_epsilon,
    dp_ucb_int_privacy,
    lambert_pull_threshold,
    regret_bound_dp_ucb,
    regret_bound_dp_ucb_bound,
    regret_bound_dp_ucb_int,
    release_points,
)

POLICIES = [PrivateUCB(1.0), DPUCBBound(1.0), DPUCBBound(1.0, hybrid_split=False), DPUCB(1.0), DPUCBInt(0.05)]


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: f"{p.name}-{p.config()}")
def test_reproducible_and_in_range(policy):
    inst = bernoulli_instance([0.3, 0.5, 0.45])
    a = policy.run(inst, 3_000, np.random.default_rng(4))["arms"]
    b = policy.run(inst, 3_000, np.random.default_rng(4))["arms"]
    np.testing.assert_array_equal(a, b)
    assert a.min() >= 0 and a.max() < 3


@pytest.mark.parametrize("policy", [PrivateUCB(2.0), DPUCBBound(2.0), DPUCB(2.0), DPUCBInt.for_target(1.0)],
                         ids=lambda p: p.name)
def test_best_arm_dominates_on_an_easy_instance(policy):
    """Gap 0.5, T = 20,000, 20 runs: the best arm gets more than half of the pulls in every run.
    (Expected suboptimal pulls are at most a few thousand for every algorithm at this epsilon: the
    margin is large; a failure would mean a broken index.)"""
    res = simulate(policy, bernoulli_instance([0.25, 0.75]), 20_000, runs=20, seed=11, cache=False, progress=False)
    assert np.all(res.pull_counts()[:, 1] > 10_000)


def test_release_points_hand_computed():
    # eps = 1/4, v = 1.5: W_1 = 3 (1 + 2^-.75 + 3^-.75 = 2.033 >= 4 * 3^-.75 = 1.755, and x = 2 fails),
    # W_2 = 7 (4^-.75 + ... + 7^-.75 = 1.146 >= 4 * 7^-.75 = 0.929; x = 6: 0.914 < 1.044),
    # W_3 = 11 (8^-.75 + ... + 11^-.75 = 0.746 >= 4 * 11^-.75 = 0.662; x = 10: 0.581 < 0.711)
    assert release_points(0.25, 1.5, 11).tolist() == [3, 7, 11]
    assert release_points(0.25, 1.5, 10).tolist() == [3, 7]
    assert release_points(0.25, 1.5, 20, simplified=True).tolist() == [4, 8, 12, 16, 20]
    points = release_points(0.01, 1.1, 50_000)
    assert np.all(np.diff(points) <= math.ceil(1 / 0.01))  # Lemma B.1: f_n <= ceil(1/eps)


def test_dp_ucb_int_releases_at_the_release_points():
    """Every release happens when an arm's count is a release point: the number of releases equals
    the number of release points each arm's final count has passed, less at most one (an arm that
    reaches a point on the very last pull is not released)."""
    inst = bernoulli_instance([0.4, 0.6, 0.5])
    policy = DPUCBInt(0.05, 1.2)
    out = policy.run(inst, 5_000, np.random.default_rng(0))
    counts = np.bincount(out["arms"], minlength=3)
    points = release_points(0.05, 1.2, 5_000)
    passed = sum(int(np.sum(points <= c)) for c in counts)
    assert passed - 1 <= int(out["releases"]) <= passed
    # the round robin phase: the first K * f0 rounds cycle through the arms
    f0 = int(points[0])
    np.testing.assert_array_equal(out["arms"][: 3 * f0], np.tile(np.arange(3), f0))


def test_dp_ucb_int_noise_scale_lemma_3_1():
    """Lemma 3.1: a release at n pulls adds Lap(n^(v/2 - 1)) to the mean. With a reward table where
    arm 0 always pays 0 and arm 1 always pays 1, the first releases (both at n = f0, same t) differ by
    1 + (L1 - L0), L_i ~ Lap(b), b = f0^(v/2 - 1), so the first pull after round robin goes to arm 0
    with probability P(L0 - L1 > 1) = exp(-1/b) (1 + 1/(2b)) / 2. Checked over 4,000 runs within 5
    standard errors (false-failure probability < 6e-7); a scale off by a factor 2 moves the
    probability by more than 10 standard errors."""
    v = 1.2
    f0 = int(release_points(0.05, v, 400)[0])
    b = f0 ** (v / 2 - 1)
    expected = 0.5 * math.exp(-1 / b) * (1 + 1 / (2 * b))
    table = np.zeros((400, 2))
    table[:, 1] = 1.0
    inst = bernoulli_instance([0.5, 0.5]).with_table(table)
    policy = DPUCBInt(0.05, v)
    n = 4_000
    chose_zero = np.mean([policy.run(inst, 2 * f0 + 1, np.random.default_rng(s))["arms"][-1] == 0 for s in range(n)])
    assert abs(chose_zero - expected) < 5 * math.sqrt(expected * (1 - expected) / n)
    half = 0.5 * math.exp(-2 / b) * (1 + 1 / b)  # what a halved scale would give
    assert abs(half - expected) > 10 * math.sqrt(expected * (1 - expected) / n)


def test_corollary_3_2_inverted_by_corollary_3_1():
    for eps_prime in (0.01, 0.1, 0.5, 1.0):
        for delta_prime in (math.exp(-10), 1e-3, 0.5):
            eps = dp_ucb_int_input_epsilon(eps_prime, delta_prime, 1.1)
            assert dp_ucb_int_privacy(10**12, eps, 1.1, delta_prime) == pytest.approx(eps_prime, rel=1e-9)
    # for short horizons the first (t-dependent) term of the minimum is smaller
    eps = dp_ucb_int_input_epsilon(1.0)
    assert dp_ucb_int_privacy(100, eps) < 1.0


def test_regret_bounds_are_positive_and_increasing():
    t = np.array([10, 100, 1_000, 10_000])
    gaps = np.array([0.0, 0.3])
    for bound in (regret_bound_dp_ucb_bound(t, gaps, 1.0), regret_bound_dp_ucb(t, gaps, 1.0), regret_bound_dp_ucb_int(t, gaps, 50)):
        assert np.all(bound > 0) and np.all(np.diff(bound) >= 0)


def test_lambert_threshold_solves_the_proof_inequality():
    """n = -B W_{-1}(-1/(eB)) is the root of exp(n/B) = e n above B: the inequality holds at n and
    fails just below it; it is below the paper's approximation B (ln B + 7) for these B."""
    b = np.array([1.5, 4.0, 100.0, 1e4, 1e8])
    n = lambert_pull_threshold(b)
    assert np.all(n > b)
    np.testing.assert_allclose(n / b - np.log(np.e * n), 0.0, atol=1e-9)
    below = 0.999 * n
    assert np.all(below / b < np.log(np.e * below))
    assert np.all(n < b * (np.log(b) + 7.0))
    t = np.array([100, 10_000])
    assert np.all(regret_bound_dp_ucb_bound(t, [0.3], 1.0, exact_lambert=True) <= regret_bound_dp_ucb_bound(t, [0.3], 1.0))


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: DPUCBBound(0.0), "epsilon"),
        (lambda: DPUCB(-1.0), "epsilon"),
        (lambda: PrivateUCB(float("nan")), "epsilon"),
        (lambda: DPUCBInt(0.1, v=1.0), "v"),
        (lambda: DPUCBInt(0.1, v=1.6), "v"),
        (lambda: DPUCBInt(1.5), "epsilon"),
        (lambda: DPUCBInt.for_target(0.0), "epsilon_prime"),
        (lambda: DPUCBInt.for_target(1.0, 1.0), "delta_prime"),
        (lambda: bernoulli_instance([0.5]), "K >= 2"),
        (lambda: DPUCB(1.0).run(bernoulli_instance([0.2, 0.4, 0.6]), 2, np.random.default_rng()), "horizon"),
        (lambda: release_points(0.1, 1.1, 0), "horizon"),
        (lambda: regret_bound_dp_ucb_int([10], [0.5], 0), "f0"),
        (lambda: lambert_pull_threshold([0.0]), "b"),
    ],
)
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()
