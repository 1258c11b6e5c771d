"""Tests of privbandits.metrics, including hypothesis property tests."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from privbandits import bernoulli_instance, metrics, simulate
from privbandits.policies import UCB

reward_matrices = arrays(
    np.float64,
    st.tuples(st.integers(1, 6), st.integers(1, 40)),
    elements=st.floats(1e-6, 1.0, allow_nan=False, allow_subnormal=False),
)


@settings(max_examples=200, deadline=None)
@given(rewards=reward_matrices, extra=st.floats(0.0, 1.0))
def test_nash_regret_dominates_average_regret_which_is_nonnegative(rewards, extra):
    best = float(rewards.max()) + extra * (1.0 - float(rewards.max()))
    avg = metrics.average_regret_from_rewards(rewards, best)
    nash = metrics.nash_regret_from_log_rewards(np.log(rewards), math.log(best))
    assert avg >= -1e-12
    assert nash >= avg - 1e-12


@settings(max_examples=200, deadline=None)
@given(rewards=reward_matrices)
def test_log_space_nash_regret_equals_direct_formula(rewards):
    best = float(rewards.max())
    direct = best - np.prod(rewards.mean(axis=0)) ** (1.0 / rewards.shape[1])
    assert metrics.nash_regret_from_log_rewards(np.log(rewards), math.log(best)) == pytest.approx(direct, abs=1e-12)


def test_nash_regret_finite_where_direct_formula_underflows():
    horizon = 1000
    log_small = -horizon * math.log(2 * math.e)  # (2e)^-T: exp() underflows to 0
    log_rewards = np.full((3, horizon), 0.0)
    log_rewards[:, :5] = log_small
    value = metrics.nash_regret_from_log_rewards(log_rewards, 0.0)
    assert math.isfinite(value) and 0.0 < value <= 1.0
    expected = 1.0 - math.exp(5 * log_small / horizon)
    assert value == pytest.approx(expected)


def test_metrics_on_a_simulation():
    inst = bernoulli_instance([0.2, 0.5, 0.8])
    res = simulate(UCB(), inst, 1_000, runs=5, seed=0, cache=False, progress=False)
    cumulative = metrics.cumulative_regret(res)
    assert cumulative.shape == (5, 1_000)
    assert np.all(np.diff(cumulative, axis=1) >= 0)
    assert metrics.average_regret(res) == pytest.approx(cumulative[:, -1].mean() / 1_000)
    assert metrics.nash_regret(res) >= metrics.average_regret(res)
    assert metrics.log_nash_social_welfare(res) <= math.log(0.8)


def test_final_regret_is_the_last_cumulative_regret_bit_for_bit():
    # irregular gaps (no two sums agree by accident), K = 5, runs of different arm sequences
    inst = bernoulli_instance([0.91, 0.3, 0.77, 0.123, 0.456])
    res = simulate(UCB(), inst, 3_000, runs=6, seed=4, cache=False, progress=False)
    gaps = inst.gaps
    expected = np.cumsum(gaps[res.arms], axis=1)  # the whole array at once, as before
    assert np.array_equal(metrics.cumulative_regret(res), expected)
    assert np.array_equal(metrics.final_regret(res), expected[:, -1])


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: metrics.average_regret_from_rewards(np.array([[0.5, 1.5]]), 1.0), "expected rewards"),
        (lambda: metrics.average_regret_from_rewards(np.zeros((0, 0)), 1.0), "expected_rewards"),
        (lambda: metrics.average_regret_from_rewards(np.array([0.5]), 1.0), "expected_rewards"),
        (lambda: metrics.nash_regret_from_log_rewards(np.array([[0.1]]), 0.0), "log rewards"),
        (lambda: metrics.nash_regret_from_log_rewards(np.array([[np.nan]]), 0.0), "log rewards"),
        (lambda: metrics.nash_regret_from_log_rewards(np.array([-1.0]), 0.0), "log_expected_rewards"),
    ],
)
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()
