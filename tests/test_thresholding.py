"""Tests for the locally private thresholding bandits of paper 004 (privbandits.policies.thresholding)."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from scipy import stats

from privbandits import bernoulli_instance, mixed_instance, simulate
from privbandits.environments import draw_reward
from privbandits.policies import thresholding
from privbandits.policies.thresholding import (
    FixedBudgetThresholding,
    FixedConfidenceThresholding,
    classification_error,
    complexity,
    complexity_ratio,
    mapped_mean,
)

EASY = bernoulli_instance([0.1, 0.2, 0.8, 0.9])


def test_mapped_quantities_match_hand_computation():
    # eps = log 3: (e^eps - 1)/(e^eps + 1) = 2/4 = 1/2
    eps = math.log(3.0)
    assert mapped_mean(0.9, eps) == pytest.approx(0.5 + 0.8 * 0.5 / 2)  # 0.7
    assert mapped_mean(0.5, eps) == pytest.approx(0.5)
    assert mapped_mean(0.1, eps) == pytest.approx(0.3)
    # H with means (0.1, 0.9), tau = 0.5, zeta = 0.1: 2 / 0.5^2 = 8; H_eps = 8 * 4 = 32
    assert complexity([0.1, 0.9], 0.5, math.inf, 0.1) == pytest.approx(8.0)
    assert complexity([0.1, 0.9], 0.5, eps, 0.1) == pytest.approx(32.0)
    assert complexity_ratio(eps) == pytest.approx(4.0)
    assert mapped_mean(0.3, math.inf) == pytest.approx(0.3)


def test_classification_error():
    means = np.array([0.2, 0.48, 0.8])
    assert not classification_error(np.array([False, True, True]), means, 0.5, 0.05)  # 0.48 in the band
    assert classification_error(np.array([True, False, True]), means, 0.5, 0.05)
    assert classification_error(np.array([False, True, True]), means, 0.5, 0.0)


@pytest.mark.parametrize("eps", [1.0, 4.0, math.inf])
@pytest.mark.parametrize("mechanism", ["privbern", "laplace"])
def test_fixed_budget_correct_on_easy_instance(eps, mechanism):
    # H_eps = 2/0.3^2 + 2/0.4^2 ~ 35 (times coth^2(1/2) ~ 4.7 at eps = 1 for PrivBern, ~165), so
    # T = 3000 >> H_eps and the error probability is far below 0.5%. If it were 0.5%, P(more than 5
    # errors in 200 runs) = binom.sf(5, 200, 0.005) ~ 6e-4: the false-failure probability is < 1e-3.
    res = simulate(
        FixedBudgetThresholding(0.5, 0.0, eps, mechanism), EASY, 3000, 200, seed=1, keep=("answer",), n_jobs=1
    )
    errors = classification_error(res.records["answer"], EASY.means, 0.5).sum()
    assert errors <= 5


@pytest.mark.parametrize("eps", [2.0, math.inf])
def test_fixed_confidence_correct_and_stops(eps):
    pol = FixedConfidenceThresholding(0.5, 0.05, eps, radius_constant=2.0)
    res = simulate(pol, EASY, 200_000, 100, seed=2, keep=("answer", "stop_time", "stopped"), n_jobs=1)
    assert res.records["stopped"].all()
    # delta = 0.05 guarantee (c = 2 makes the proof valid): P(> 15 errors in 100) < 1e-4
    assert classification_error(res.records["answer"], EASY.means, 0.5).sum() <= 15


def test_fixed_confidence_error_rate_below_delta():
    # 1,000 runs at delta = 0.1 with the printed radius on a small instance with an arm close to tau.
    # If the true error rate were 0.1, P(errors > binom.isf(1e-3)) <= 1e-3: false-failure <= 1e-3.
    inst = bernoulli_instance([0.3, 0.45, 0.6, 0.8])
    pol = FixedConfidenceThresholding(0.5, 0.1, 2.0)
    res = simulate(pol, inst, 2_000_000, 1000, seed=3, keep=("answer", "stopped"), n_jobs=1)
    assert res.records["stopped"].all()
    errors = classification_error(res.records["answer"], inst.means, 0.5).sum()
    assert errors <= stats.binom.isf(1e-3, 1000, 0.1), errors


def test_eps_inf_equals_nonprivate_counterpart():
    # eps = inf: PrivBern releases the Bernoulli reward itself; the private algorithm must play exactly
    # as APT / the non-private procedure with the same seed.
    inst = bernoulli_instance([0.2, 0.45, 0.55, 0.7])
    rng_a, rng_b = np.random.default_rng(7), np.random.default_rng(7)
    a = FixedBudgetThresholding(0.5, 0.05, math.inf).run(inst, 500, rng_a)
    b = FixedBudgetThresholding(0.5, 0.05, math.inf, "laplace").run(inst, 500, rng_b)
    np.testing.assert_array_equal(a["arms"], b["arms"])
    np.testing.assert_array_equal(a["answer"], b["answer"])
    # a large finite eps is close to, but not equal to, no privacy: PrivBern draws differ
    r1 = simulate(FixedConfidenceThresholding(0.5, 0.1, math.inf), inst, 100_000, 5, seed=4, n_jobs=1)
    r2 = simulate(
        FixedConfidenceThresholding(0.5, 0.1, math.inf, mechanism="laplace"), inst, 100_000, 5, seed=4, n_jobs=1
    )
    np.testing.assert_array_equal(r1.records["stop_time"], r2.records["stop_time"])
    np.testing.assert_array_equal(r1.records["answer"], r2.records["answer"])


@pytest.mark.parametrize("mechanism", ["privbern", "laplace"])
def test_checkpoints_equal_separate_runs(mechanism):
    # The answer recorded at budget T inside a longer run is the answer of a run with budget T and the
    # same seed (the sampling rule never reads T).
    inst = bernoulli_instance([0.2, 0.45, 0.48, 0.55, 0.7])
    budgets = (10, 37, 200, 1_000)
    long = FixedBudgetThresholding(0.5, 0.05, 1.0, mechanism, checkpoints=budgets)
    for seed in range(20):
        answers = long.run(inst, 1_500, np.random.default_rng(seed))["answers"]
        for i, budget in enumerate(budgets):
            short = FixedBudgetThresholding(0.5, 0.05, 1.0, mechanism).run(inst, budget, np.random.default_rng(seed))
            np.testing.assert_array_equal(answers[i], short["answer"])


def test_fixed_confidence_pulls_add_up_to_stopping_time():
    res = simulate(FixedConfidenceThresholding(0.5, 0.1, 1.0), EASY, 1_000_000, 20, seed=6, n_jobs=1)
    assert "arms" not in res.records
    np.testing.assert_array_equal(res.pull_counts().sum(axis=1), res.records["stop_time"])
    assert (res.pull_counts() >= 1).all()
    with pytest.raises(ValueError, match="no arm sequence"):
        _ = res.arms


#: every branch of the kernels' own reward draw: Bernoulli (0.8), Beta (0.6), two-point (0.3, 0.45), uniform (0.1)
MIXED = mixed_instance([0.1, 0.3, 0.45, 0.6, 0.8])


@pytest.mark.parametrize(
    "policy",
    [
        FixedBudgetThresholding(0.5, 0.05, 1.0, "privbern", checkpoints=(10, 300, 600)),
        FixedBudgetThresholding(0.5, 0.05, 1.0, "laplace"),
        FixedBudgetThresholding(0.5, 0.05),
        FixedConfidenceThresholding(0.5, 0.1, 1.0, radius_constant=2.0),
        FixedConfidenceThresholding(0.5, 0.1, 2.0, mechanism="laplace"),
        FixedConfidenceThresholding(0.5, 0.1),
    ],
    ids=lambda p: p.label,
)
def test_kernels_draw_rewards_as_draw_reward(policy):
    """The kernels read the table and draw Bernoulli rewards themselves (other kinds by a call): the same values
    and draws as ``draw_reward``, which drives the agent here, on every kind of arm and on a table."""
    horizon = 600
    table = np.random.default_rng(3).beta(2.0, 2.0 + np.arange(MIXED.n_arms), size=(horizon, MIXED.n_arms))
    for instance in (MIXED, MIXED.with_table(table)):
        kinds, params, tab = instance.kernel_args()
        for seed in (0, 1):
            rng = np.random.default_rng(seed)
            agent = policy.agent(instance.n_arms, horizon, rng)
            while not agent.done:
                arm = agent.choose()
                agent.update(draw_reward(rng, kinds, params, tab, agent.t, arm))
            run = policy.run(instance, horizon, np.random.default_rng(seed))
            got = agent.records()
            assert set(got) == set(run)
            for name in run:
                np.testing.assert_array_equal(got[name], run[name], err_msg=f"{policy.label}: {name}, seed {seed}")


def test_fixed_confidence_log_table_is_the_rounds_logarithm(monkeypatch):
    """Algorithm 2 reads the radius's logarithm from a table built once per setting and computes it past the
    table's end: the same runs with the table cut to 16 rounds; a pickled policy leaves its table behind."""
    policy = FixedConfidenceThresholding(0.5, 0.1, 1.0, radius_constant=2.0)
    whole = [policy.run(EASY, 1_000_000, np.random.default_rng(s)) for s in range(3)]
    assert len(pickle.dumps(policy)) < 10_000  # not the table's 8 MB
    monkeypatch.setattr(thresholding, "_LOG_TERMS_MAX", 16)
    for s, run in enumerate(whole):
        assert run["stop_time"] > 16  # past the short table's end
        for other in (
            pickle.loads(pickle.dumps(policy)).run(EASY, 1_000_000, np.random.default_rng(s)),
            FixedConfidenceThresholding(0.5, 0.1, 1.0, radius_constant=2.0).run(
                EASY, 1_000_000, np.random.default_rng(s)
            ),
        ):
            for name in run:
                np.testing.assert_array_equal(other[name], run[name])


def test_privacy_slows_down():
    # More privacy, more samples: mean stopping time at eps = 1 above eps = inf (deterministic seeds;
    # the theoretical ratio is ~4.7, so the 1.5 margin leaves a wide gap).
    inst = bernoulli_instance([0.2, 0.8])
    t_priv = simulate(FixedConfidenceThresholding(0.5, 0.1, 1.0), inst, 500_000, 50, seed=5, n_jobs=1).records[
        "stop_time"
    ]
    t_np = simulate(FixedConfidenceThresholding(0.5, 0.1), inst, 500_000, 50, seed=5, n_jobs=1).records["stop_time"]
    assert t_priv.mean() > 1.5 * t_np.mean()


def test_bad_input():
    with pytest.raises(ValueError, match="tau"):
        FixedBudgetThresholding(1.5)
    with pytest.raises(ValueError, match="tau"):
        FixedConfidenceThresholding(-0.1, 0.1)
    for bad in (0.0, 1.0, 1.5, -0.1):
        with pytest.raises(ValueError, match="delta"):
            FixedConfidenceThresholding(0.5, bad)
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError, match="epsilon"):
            FixedBudgetThresholding(0.5, 0.0, bad)
        with pytest.raises(ValueError, match="epsilon"):
            FixedConfidenceThresholding(0.5, 0.1, bad)
    with pytest.raises(ValueError, match="horizon"):
        FixedBudgetThresholding(0.5).run(EASY, 7, np.random.default_rng(0))  # T < 2K = 8
    with pytest.raises(ValueError, match="mechanism"):
        FixedBudgetThresholding(0.5, mechanism="gauss")
    for bad in ((10, 5), (0, 10), (1.5,), "100"):
        with pytest.raises(ValueError, match="checkpoints"):
            FixedBudgetThresholding(0.5, checkpoints=bad)
    with pytest.raises(ValueError, match="checkpoints"):  # beyond the horizon, or below 2K
        FixedBudgetThresholding(0.5, checkpoints=(10, 100)).run(EASY, 50, np.random.default_rng(0))
    with pytest.raises(ValueError, match="checkpoints"):
        FixedBudgetThresholding(0.5, checkpoints=(5, 10)).run(EASY, 50, np.random.default_rng(0))
    with pytest.raises(ValueError, match="radius_constant"):
        FixedConfidenceThresholding(0.5, 0.1, radius_constant=0.0)
