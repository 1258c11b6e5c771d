"""Tests of Part II: NCB, GDP-NCB, LDP-NCB, anytime wrapper (Sarkar et al. 2026) and baselines."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privbandits.environments import bernoulli_instance
from privbandits.metrics import nash_regret
from privbandits.policies import LDPUCB, AdaPUCB
from privbandits.policies.dp_ncb import (
    GDPNCB,
    LDPNCB,
    NCB,
    AnytimeDPNCB,
    gdp_index,
    phase1_threshold_gdp,
)
from privbandits.simulate import simulate

ALL = [NCB(), GDPNCB(), LDPNCB(), AnytimeDPNCB(), AnytimeDPNCB(base="ldp"), AdaPUCB(), LDPUCB()]


def _instance(k=10, seed=1):
    return bernoulli_instance(np.random.default_rng(seed).uniform(0.005, 1, k))


@pytest.mark.parametrize("policy", ALL, ids=lambda p: p.name)
def test_reproducible_given_seed(policy):
    inst = _instance()
    a = policy.run(inst, 3000, np.random.default_rng(5))
    b = policy.run(inst, 3000, np.random.default_rng(5))
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
    assert a["arms"].min() >= 0 and a["arms"].max() < inst.n_arms


def test_phase1_length_matches_formula_with_paper_constant():
    # On the all-ones instance with eps = inf, mu_tilde = mu_hat = 1 exactly, so Phase I ends at the
    # first round where some arm's count exceeds 1600 c^2 log T; with T small this is deterministic
    # given the uniform arm draws, and at most k * floor(threshold) + 1 rounds.
    k, horizon = 2, 200
    inst = bernoulli_instance(np.ones(k))
    thr = phase1_threshold_gdp(horizon, math.inf, constant=0.01)  # 0.09 log 200 = 0.477
    rec = GDPNCB(epsilon=math.inf, phase1_constant=0.01).run(inst, horizon, np.random.default_rng(0))
    assert rec["phase1_end"] == 1 and thr < 1  # one pull already gives n mu = 1 > thr
    thr = phase1_threshold_gdp(horizon, math.inf, constant=1.0)  # 9 log 200 = 47.7
    rec = GDPNCB(epsilon=math.inf, phase1_constant=1.0).run(inst, horizon, np.random.default_rng(0))
    counts = np.bincount(rec["arms"][: rec["phase1_end"]], minlength=k)
    assert counts.max() == math.floor(thr) + 1, (counts, thr)
    # Under 1600 Phase I fills the horizon: threshold 1600 * 9 * log T >> T.
    rec = GDPNCB(epsilon=math.inf, phase1_constant=1600.0).run(inst, horizon, np.random.default_rng(0))
    assert rec["phase1_end"] == horizon


def test_episodes_double_per_arm_and_releases_are_logarithmic():
    inst = _instance(k=5)
    horizon = 200_000
    rec = GDPNCB(epsilon=0.5).run(inst, horizon, np.random.default_rng(3))
    arms, p1 = rec["arms"], int(rec["phase1_end"])
    phase2 = arms[p1:]
    change = np.flatnonzero(np.diff(phase2)) + 1
    starts = np.r_[0, change]
    lengths = np.diff(np.r_[starts, phase2.size])
    # consecutive episodes of the same arm merge into one run of equal arms; split runs by doubling
    per_arm_expected = {a: 2 for a in range(inst.n_arms)}
    n_episodes = 0
    for s, length in zip(starts, lengths):
        a = phase2[s]
        remaining = length
        while remaining > 0:
            e = per_arm_expected[a]
            take = min(e, remaining)
            assert take == e or s + length == phase2.size, "episode length is not the doubled one"
            per_arm_expected[a] = 2 * e
            remaining -= take
            n_episodes += 1
    # the last episode reaches the horizon: its release would be read by no decision and is skipped
    assert n_episodes - 1 == rec["releases"]
    assert rec["releases"] <= inst.n_arms * (math.log2(horizon) + 1)


def test_eps_inf_removes_noise_and_privacy_terms():
    assert gdp_index(0.5, 100.0, math.log(1000), math.inf, 3.0, 3.1) == pytest.approx(
        0.5 + 6.0 * math.sqrt(2 * 0.5 * math.log(1000) / 100)
    )
    assert gdp_index(0.5, 100.0, math.log(1000), 1.0, 3.0, 3.1) > gdp_index(
        0.5, 100.0, math.log(1000), math.inf, 3.0, 3.1
    )
    # with eps = inf GDP-NCB is deterministic given the arm draws and rewards: two different noise
    # streams cannot matter, since no Laplace variate is drawn; compare against a fixed reward table
    inst = _instance(k=4)
    table = inst.reward_table(5000, np.random.default_rng(9))
    fixed = inst.with_table(table)
    a = GDPNCB(epsilon=math.inf).run(fixed, 5000, np.random.default_rng(1))
    b = GDPNCB(epsilon=math.inf).run(fixed, 5000, np.random.default_rng(1))
    np.testing.assert_array_equal(a["arms"], b["arms"])
    c = GDPNCB(epsilon=1e9).run(fixed, 5000, np.random.default_rng(1))
    assert c["phase1_end"] >= 1


def test_nash_regret_of_figure_1a_is_finite():
    horizon = 1000
    inst = bernoulli_instance(log_means=np.array([-horizon * (math.log(2) + 1), 0.0]))
    for policy in (GDPNCB(), AdaPUCB()):
        res = simulate(policy, inst, horizon, runs=5, seed=0, cache=False, progress=False, n_jobs=1)
        nr = nash_regret(res)
        assert np.isfinite(nr) and 0 <= nr <= 1, (policy.name, nr)


@pytest.mark.parametrize(
    "make",
    [
        lambda: GDPNCB(epsilon=0),
        lambda: GDPNCB(epsilon=-1),
        lambda: LDPNCB(phase1_constant=0),
        lambda: NCB(c=-1),
        lambda: AnytimeDPNCB(base="x"),
        lambda: AdaPUCB(alpha=0),
        lambda: LDPUCB(epsilon=float("nan")),
    ],
)
def test_bad_input_raises(make):
    with pytest.raises(ValueError):
        make()


def test_bad_horizon_raises():
    with pytest.raises(ValueError, match="horizon"):
        GDPNCB().run(_instance(), 0, np.random.default_rng(0))


def test_ncb_finds_best_arm():
    """Statistical: on means (0.9, 0.3) NCB's last 1000 rounds play arm 0 in >= 900 of them in a
    fixed-seed run; failure probability under the seed is 0 (deterministic), a priori < 1e-3."""
    inst = bernoulli_instance(np.array([0.9, 0.3]))
    rec = NCB().run(inst, 20_000, np.random.default_rng(0))
    assert (rec["arms"][-1000:] == 0).mean() >= 0.9


def test_gdp_ncb_plays_every_arm_in_phase2_on_figure_1b():
    # Before the Phase I means were clipped, a negative mu_tilde made Eq. (4) NaN and the arm was
    # never played again: 1 to 5 of the 50 arms per run at T = 10^5 (seeds 0-4). Deterministic
    # given the seeds. Every Phase II index is finite once the means lie in [0, 1].
    means = np.random.default_rng(2026).uniform(0.005, 1.0, 50)
    inst = bernoulli_instance(means)
    for seed in range(5):
        rec = GDPNCB(epsilon=0.2).run(inst, 10**5, np.random.default_rng(seed))
        p1 = int(rec["phase1_end"])
        assert p1 < 10**5
        played = np.unique(rec["arms"][p1:])
        assert played.size == 50, (seed, sorted(set(range(50)) - set(played)))
    mu = np.linspace(0.0, 1.0, 11)
    assert np.all(np.isfinite([gdp_index(m, n, math.log(1e5), 0.2, 3.0, 3.1) for m in mu for n in (1.0, 7.0)]))


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
