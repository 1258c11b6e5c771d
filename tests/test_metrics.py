"""Tests of privbandits.metrics, including hypothesis property tests."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from privbandits import bernoulli_instance, metrics, simulate
from privbandits.policies import GDPNCB, NCB, UCB, AdaPUCB
from privbandits.simulate import simulate_mean_rewards

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


# --- simulate_mean_rewards: the per-round mean accumulated in O(T) memory-----------------------------


def _fig1a_instance(h: int):
    """Figure 1(a) of sarkar2026dpncb: the bad arm's mean (2e)^-h underflows for h > ~250."""
    return bernoulli_instance(log_means=np.array([-h * (1 + math.log(2)), 0.0]))


@pytest.mark.parametrize(
    "policy, instance",
    [
        (GDPNCB(epsilon=0.5), bernoulli_instance(np.random.default_rng(0).uniform(0.01, 1.0, 20))),
        (NCB(), bernoulli_instance(np.random.default_rng(1).uniform(0.01, 1.0, 7))),
        (AdaPUCB(epsilon=0.2), _fig1a_instance(400)),
        (GDPNCB(epsilon=0.2), _fig1a_instance(1000)),
    ],
    ids=["gdp-ncb", "ncb", "adap-ucb-fig1a", "gdp-ncb-fig1a"],
)
def test_mean_rewards_equal_the_metrics_of_the_arms(policy, instance):
    """The streamed per-round mean equals the one computed from simulate's (runs, T) arms, up to
    summation order (1e-12 relative), including where every mean of the bad arm underflows."""
    horizon = 3_000 if instance.n_arms > 2 else 400
    full = simulate(policy, instance, horizon, runs=37, seed=4, cache=False)
    streamed = simulate_mean_rewards(policy, instance, horizon, runs=37, seed=4, cache=False)
    np.testing.assert_allclose(streamed.log_mean, full.log_mean_expected_rewards(), rtol=1e-12, atol=1e-12)
    for h in (None, horizon // 3):
        assert metrics.nash_regret(streamed, h) == pytest.approx(metrics.nash_regret(full, h), rel=1e-12, abs=1e-14)
        assert metrics.average_regret(streamed, h) == pytest.approx(
            metrics.average_regret(full, h), rel=1e-12, abs=1e-14
        )
    for name, value in streamed.records.items():
        np.testing.assert_array_equal(value, full.records[name])


def test_mean_rewards_do_not_depend_on_n_jobs():
    inst = bernoulli_instance([0.2, 0.5, 0.9])
    a = simulate_mean_rewards(NCB(), inst, 2_000, runs=40, seed=3, n_jobs=1, cache=False)
    b = simulate_mean_rewards(NCB(), inst, 2_000, runs=40, seed=3, n_jobs=2, cache=False)
    np.testing.assert_array_equal(a.log_mean, b.log_mean)


def test_running_regret_is_the_regret_of_each_prefix():
    inst = bernoulli_instance([0.3, 0.6, 0.8])
    res = simulate_mean_rewards(AdaPUCB(epsilon=1.0), inst, 1_000, runs=10, seed=0, cache=False)
    nash, avg = metrics.running_nash_regret(res), metrics.running_average_regret(res)
    assert nash.shape == avg.shape == (1_000,)
    for h in (1, 17, 500, 1_000):
        assert nash[h - 1] == pytest.approx(metrics.nash_regret(res, h), rel=1e-12, abs=1e-15)
        assert avg[h - 1] == pytest.approx(metrics.average_regret(res, h), rel=1e-12, abs=1e-15)
    assert np.all(nash >= avg - 1e-12), "AM-GM: Nash regret >= average regret at every t"


def test_an_anytime_run_gives_every_horizon():
    """AdaP-UCB never reads the horizon: the first h rounds of a run of 5,000 rounds are the run of
    horizon h with the same seed (arms identical), so their regrets agree."""
    inst = bernoulli_instance([0.3, 0.6, 0.8, 0.5])
    long = simulate(AdaPUCB(epsilon=0.5), inst, 5_000, runs=8, seed=2, cache=False)
    for h in (100, 1_234, 5_000):
        short = simulate(AdaPUCB(epsilon=0.5), inst, h, runs=8, seed=2, cache=False)
        np.testing.assert_array_equal(long.arms[:, :h], short.arms)
        assert metrics.nash_regret(long, h) == metrics.nash_regret(short)


def test_mean_rewards_bad_input():
    from privbandits.policies import FixedConfidenceThresholding

    inst = bernoulli_instance([0.2, 0.8])
    res = simulate_mean_rewards(NCB(), inst, 100, runs=2, cache=False)
    for bad in (0, 101):
        with pytest.raises(ValueError, match="horizon"):
            metrics.nash_regret(res, bad)
    with pytest.raises(ValueError, match="result"):
        metrics.nash_regret(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="records no arm sequence"):
        simulate_mean_rewards(FixedConfidenceThresholding(tau=0.5, delta=0.1), inst, 100, runs=2)


def test_nash_regret_in_double_precision_underflows_as_the_authors_code():
    """Figure 1(a)'s arm of mean (2e)^-T is 0 as a double from T = 441 on. AdaP-UCB plays it in round 1
    of every run, so scored in double precision (as the DP-NCB authors' code scores it) its Nash regret
    is exactly mu* = 1 there, while the exact (log-space) value is not; at T = 400 the mean is a normal
    double and both agree. Deterministic (fixed seed)."""
    assert np.exp(-441 * (1 + math.log(2))) == 0.0 < np.exp(-440 * (1 + math.log(2)))
    for horizon in (400, 450):
        res = simulate(
            AdaPUCB(epsilon=2.0), _fig1a_instance(horizon), horizon, runs=50, seed=0, progress=False, cache=False
        )
        assert np.all(res.arms[:, 0] == 0)
        folded = simulate_mean_rewards(
            AdaPUCB(epsilon=2.0), _fig1a_instance(horizon), horizon, 50, 0, progress=False, cache=False
        )
        double = [metrics.nash_regret_in_double_precision(r) for r in (res, folded)]
        exact = metrics.nash_regret(res)
        if horizon == 400:
            np.testing.assert_allclose(double, exact, rtol=1e-9)
        else:
            assert double == [1.0, 1.0] and exact < 0.99
    with pytest.raises(ValueError, match="every round"):
        metrics.nash_regret_in_double_precision(
            simulate_mean_rewards(UCB(), _fig1a_instance(20), 20, 5, 0, progress=False, cache=False, at=[10, 20])
        )
