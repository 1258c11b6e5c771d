"""Tests of privbandits.environments.bandit: the stochastic bandit instances."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privbandits import environments as env


def test_same_seed_same_rewards_and_means():
    inst = env.mixed_instance(np.linspace(0.05, 0.95, 12))
    a = inst.reward_table(500, np.random.default_rng(1))
    b = inst.reward_table(500, np.random.default_rng(1))
    np.testing.assert_array_equal(a, b)
    assert a.min() >= 0 and a.max() <= 1
    # each arm's empirical mean within 5 standard errors (rewards in [0,1]: sd <= 1/2);
    # false-failure probability < 12 * 6e-7
    big = inst.reward_table(100_000, np.random.default_rng(2))
    np.testing.assert_array_less(np.abs(big.mean(axis=0) - inst.means), 5 * 0.5 / math.sqrt(100_000))


def test_mixed_instance_laws_follow_the_paper_bands():
    means = np.array([0.9, 0.6, 0.3, 0.1])
    matched = env.mixed_instance(means)
    assert matched.kinds.tolist() == [env.BERNOULLI, env.BETA, env.TWO_POINT, env.UNIFORM]
    np.testing.assert_allclose(matched.means, means)
    literal = env.mixed_instance(means, match_means=False)
    np.testing.assert_allclose(literal.means, [0.9, 0.8, 0.7, 0.5])


def test_log_means_survive_underflow():
    horizon = 1000
    inst = env.bernoulli_instance(log_means=[-horizon * math.log(2 * math.e), 0.0])
    assert inst.means[0] == 0.0 and math.isfinite(inst.log_means[0])
    assert inst.best_arm == 1 and inst.best_mean == 1.0


def test_instance_builders_and_gaps():
    inst = env.bernoulli_instance([0.2, 0.7, 0.5])
    np.testing.assert_allclose(inst.gaps, [0.5, 0.0, 0.2])
    assert env.beta_instance([4.0, 1.0], [1.0, 1.0]).means.tolist() == pytest.approx([0.8, 0.5])
    assert env.uniform_instance([0.0, 0.2], [1.0, 0.4]).means.tolist() == pytest.approx([0.5, 0.3])
    assert env.two_point_instance([0.4, 0.0], [1.0, 1.0], [0.5, 0.25]).means.tolist() == pytest.approx([0.7, 0.25])
    assert "K=3" in repr(inst)


def test_table_instance():
    inst = env.bernoulli_instance([0.2, 0.7])
    table = np.array([[0.0, 1.0], [1.0, 0.0]])
    with_table = inst.with_table(table)
    assert with_table.table.shape == (2, 2)
    assert "table_sha256" in with_table.spec() and "table_sha256" not in inst.spec()
    with pytest.raises(ValueError, match="table"):
        inst.with_table(np.array([[0.0, 2.0]]))
    with pytest.raises(ValueError, match="table"):
        inst.with_table(np.zeros((3, 5)))


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: env.bernoulli_instance([0.5]), "K >= 2"),
        (lambda: env.bernoulli_instance([0.5, 1.2]), "means"),
        (lambda: env.bernoulli_instance([0.5, float("nan")]), "means"),
        (lambda: env.bernoulli_instance([[0.5, 0.2]]), "means"),
        (lambda: env.bernoulli_instance(log_means=[0.1, -1.0]), "log_means"),
        (lambda: env.bernoulli_instance(), "exactly one"),
        (lambda: env.beta_instance([0.0, 1.0], [1.0, 1.0]), "params"),
        (lambda: env.uniform_instance([0.5, 0.0], [0.2, 1.0]), "params"),
        (lambda: env.two_point_instance([0.0, 0.0], [1.0, 1.0], [0.5, 1.5]), "params"),
        (lambda: env.mixed_instance([0.5, -0.1]), "means"),
        (lambda: env.bernoulli_instance([0.1, 0.2]).sample(2, 5, np.random.default_rng()), "arm"),
        (lambda: env.bernoulli_instance([0.1, 0.2]).reward_table(0, np.random.default_rng()), "horizon"),
    ],
)
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()
