"""Tests of Part II's ``policies.dp_ncb``: NCB, GDP-NCB, LDP-NCB and the anytime wrapper (``sarkar2026dpncb``).

The baselines have their own files (``test_adap_ucb.py``, ``test_ldp_ucb.py``); the tests of Part V's
repair of GDP-NCB's Phase I (the sparse-vector rule, its accounting and the leak of the printed rule)
follow the Part II tests below, then the authors' experiment code as options.
"""

from __future__ import annotations

import functools
import hashlib
import math

import numpy as np
import pytest
from _policy_checks import PART2_INSTANCE as INST
from _policy_checks import check_figure_1a_nash_regret_is_finite, check_reproducible, random_instance
from _policy_checks import part2_runs as _arms
from scipy import stats

from privbandits.audit import action_statistic_sampler, audit, flip_pairs, leading_run
from privbandits.environments import bernoulli_instance
from privbandits.policies import LDPUCB, AdaPUCB
from privbandits.policies.dp_ncb import (
    GDPNCB,
    LDPNCB,
    NCB,
    AnytimeDPNCB,
    _ldp_index,
    _ncb_index,
    anytime_window_run_law,
    gdp_index,
    leading_run_law,
    phase1_threshold_gdp,
    sparse_vector_budget,
)

ALL = [NCB(), GDPNCB(), LDPNCB(), AnytimeDPNCB(), AnytimeDPNCB(base="ldp")]


@pytest.mark.parametrize("policy", ALL, ids=lambda p: p.name)
def test_reproducible_given_seed(policy):
    check_reproducible(policy)


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
    inst = random_instance(k=5)
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
    inst = random_instance(k=4)
    table = inst.reward_table(5000, np.random.default_rng(9))
    fixed = inst.with_table(table)
    a = GDPNCB(epsilon=math.inf).run(fixed, 5000, np.random.default_rng(1))
    b = GDPNCB(epsilon=math.inf).run(fixed, 5000, np.random.default_rng(1))
    np.testing.assert_array_equal(a["arms"], b["arms"])
    c = GDPNCB(epsilon=1e9).run(fixed, 5000, np.random.default_rng(1))
    assert c["phase1_end"] >= 1


def test_nash_regret_of_figure_1a_is_finite():
    check_figure_1a_nash_regret_is_finite(GDPNCB())


@pytest.mark.parametrize(
    "make",
    [
        lambda: GDPNCB(epsilon=0),
        lambda: GDPNCB(epsilon=-1),
        lambda: LDPNCB(phase1_constant=0),
        lambda: NCB(c=-1),
        lambda: AnytimeDPNCB(base="x"),
    ],
)
def test_bad_input_raises(make):
    with pytest.raises(ValueError):
        make()


def test_bad_horizon_raises():
    with pytest.raises(ValueError, match="horizon"):
        GDPNCB().run(random_instance(), 0, np.random.default_rng(0))


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


# --------------------------------------------------------------------------------------------------
# Part V: GDP-NCB's Phase I: the leak of the printed stopping rule, seen through events of the
# action sequence, and the repaired sparse-vector variant with its privacy accounting.
#
# Exposing instances of the Part V chapter: K = 2, arm 0 pays 1 every round, arm 1 pays 0,
# epsilon = 1; the neighbouring table flips arm 0's reward at round 0. T = 20, C = 0.2 for the exact
# analysis; T = 5, C = 0.05 for the audit (its events are frequent enough for 10^5 samples).

EPS = 1.0


def _table(horizon):
    table = np.zeros((horizon, 2))
    table[:, 0] = 1.0
    return table


def _audit(rule, seed, horizon=5, constant=0.05, n=100_000):
    policy = GDPNCB(epsilon=EPS, phase1_constant=constant, phase1_rule=rule)
    sampler = action_statistic_sampler(policy, bernoulli_instance([0.5, 0.5]), horizon, leading_run)
    return audit(sampler, flip_pairs(_table(horizon), [0]), epsilon=EPS, n_samples=n, seed=seed, n_jobs=1)


# Records of GDPNCB(epsilon=eps) on bernoulli_instance([0.9, 0.5, 0.2]), T = 500, default_rng(3), as
# the printed Algorithm 1 kernel produced them before the sparse-vector rule existed (pinned: phase1_end,
# releases, and the SHA-256 of the int64 arm sequence).
PRINTED_RECORDS = {
    0.2: (500, 0, "31ee993b69084312"),
    1.0: (268, 14, "9ac5d47c4049f1a1"),
    np.inf: (189, 10, "501bc5babbbb531c"),
}


def test_default_rule_is_the_printed_kernel():
    """The default (phase1_rule="printed") runs the unchanged Algorithm 1 kernel: identical records,
    pinned, and no sparse-vector record."""
    import hashlib

    inst = bernoulli_instance([0.9, 0.5, 0.2])
    for eps, (phase1_end, releases, arms_sha) in PRINTED_RECORDS.items():
        a = GDPNCB(epsilon=eps).run(inst, 500, np.random.default_rng(3))
        b = GDPNCB(epsilon=eps, phase1_rule="printed").run(inst, 500, np.random.default_rng(3))
        assert set(a) == {"arms", "phase1_end", "releases"}
        assert all(np.array_equal(a[k], b[k]) for k in a)
        assert int(a["phase1_end"]) == phase1_end and int(a["releases"]) == releases
        assert hashlib.sha256(np.asarray(a["arms"], dtype=np.int64).tobytes()).hexdigest()[:16] == arms_sha


def test_sparse_vector_equals_printed_without_noise():
    """At epsilon = inf the printed rule tests S_i > thr and the sparse-vector rule max_i S_i >= thr, with
    no noise and no draw; the reward sums are integers and thr is not, so the runs are the same."""
    inst = bernoulli_instance([0.9, 0.5, 0.2])
    a = GDPNCB(epsilon=np.inf, phase1_constant=0.3).run(inst, 400, np.random.default_rng(5))
    b = GDPNCB(epsilon=np.inf, phase1_constant=0.3, phase1_rule="sparse_vector").run(
        inst, 400, np.random.default_rng(5)
    )
    assert np.array_equal(a["arms"], b["arms"]) and a["phase1_end"] == b["phase1_end"]


def test_bad_rule():
    with pytest.raises(ValueError, match="phase1_rule"):
        GDPNCB(phase1_rule="svt")
    with pytest.raises(ValueError, match="sv_fraction"):
        GDPNCB(phase1_rule="sparse_vector", sv_fraction=1.0)
    with pytest.raises(ValueError, match="phase1_cap_sqrt"):
        GDPNCB(phase1_rule="sparse_vector", phase1_cap_sqrt=True)
    with pytest.raises(ValueError, match="sv_fraction"):
        sparse_vector_budget(100, 1.0, sv_fraction=0.0)
    with pytest.raises(ValueError, match="horizon"):
        sparse_vector_budget(0, 1.0)


# ---- accounting of the repair ---------------------------------------------------------------------

HORIZONS = sorted(
    {
        *range(1, 300),
        *(2**k + d for k in range(2, 31) for d in (-1, 0, 1)),
        *np.unique(np.logspace(0, 9, 400).astype(int)).tolist(),
    }
)


@pytest.mark.parametrize("epsilon,fraction", [(1.0, 0.5), (0.2, 0.5), (0.05, 0.3), (5.0, 0.9)])
def test_budget_adds_up_to_epsilon_at_every_horizon(epsilon, fraction):
    """Composition: stopping rule + (releases per reward) x (cost per release) <= epsilon, for every T."""
    for horizon in HORIZONS:
        b = sparse_vector_budget(horizon, epsilon, fraction)
        assert b.releases_per_reward == max(1, math.floor(math.log2(horizon) + 1e-12)), horizon
        spent = b.eps_stop + b.releases_per_reward * b.eps_per_release
        assert spent <= epsilon * (1 + 1e-12) and b.total == pytest.approx(epsilon, rel=1e-12), horizon
        # the release scale the kernel uses, log T / eps_form, is releases_per_reward / eps_release
        if horizon > 1:
            assert math.log(horizon) / b.eps_form == pytest.approx(b.releases_per_reward / b.eps_release, rel=1e-12)


def test_printed_scale_overspends():
    """With the printed release scale log T / eps2 (the previous repair) the same structure spends
    eps1 + eps2 floor(log2 T) / ln T: 1.17 eps at T = 20 and 1.19 eps at T = 10^6."""
    for horizon, expected in ((20, 0.5 + 0.5 * 4 / math.log(20)), (10**6, 0.5 + 0.5 * 19 / math.log(10**6))):
        b = sparse_vector_budget(horizon, 1.0)
        assert b.total_at_printed_scale == pytest.approx(expected, rel=1e-12) and b.total_at_printed_scale > 1.16


@pytest.mark.parametrize("horizon", [4, 7, 8, 9, 31, 32, 33, 1000, 1024, 4097])
def test_releases_per_arm_never_exceed_the_accounting(horizon):
    """The kernel releases each arm's mean at most floor(log2 T) - 1 times in Phase II (the Phase I
    release makes floor(log2 T)), and the bound is attained when one arm is played from round 2 on
    (eps = inf: no noise, so Phase I stops after one reward 1 and arm 0 is exploited)."""
    b = sparse_vector_budget(horizon, 1.0)
    tight = GDPNCB(epsilon=math.inf, phase1_constant=1e-3, phase1_rule="sparse_vector")
    table = _table(horizon)
    inst = bernoulli_instance([0.5, 0.5]).with_table(table)
    worst = 0
    for seed in range(8):
        rec = tight.run(inst, horizon, np.random.default_rng(seed))
        worst = max(worst, int(rec["arm_releases"].max()))
    assert worst == b.releases_per_reward - 1
    noisy = bernoulli_instance([0.95, 0.6, 0.1])
    for eps in (0.5, 5.0):
        for seed in range(5):
            rec = GDPNCB(epsilon=eps, phase1_constant=0.01, phase1_rule="sparse_vector").run(
                noisy, horizon, np.random.default_rng(seed)
            )
            assert rec["arm_releases"].max() <= b.releases_per_reward - 1


# ---- the leak, on events of the action sequence ---------------------------------------------------


def test_leading_run_law_is_the_telescoped_product():
    """ln P_D'(A_r) / P_D(A_r) = ln F(thr) / F(thr - r + 1) on the T = 20 instance: above epsilon from
    r = 10 on and growing by about eps / ln T per round (4.59 at r = T, the single outcome 'arm 0 in
    every round')."""
    horizon, constant = 20, 0.2
    law = leading_run_law(horizon, EPS, constant)
    thr, scale = phase1_threshold_gdp(horizon, EPS, constant=constant), math.log(horizon) / EPS
    r = law["r"]
    expected = stats.laplace.logcdf(thr, scale=scale) - stats.laplace.logcdf(thr - r + 1, scale=scale)
    np.testing.assert_allclose(law["loss"], expected, rtol=1e-10, atol=1e-12)
    assert np.all(np.diff(law["loss"]) > 0) and law["loss"][9] > EPS and law["loss"][8] < EPS
    assert law["loss"][-1] > 4.5 * EPS
    for key in ("p_run0", "p_run1"):
        assert law[key].sum() == pytest.approx(1.0, abs=1e-12) and np.all(law[key] >= 0)


def test_leading_run_law_matches_simulation():
    """Monte Carlo frequency of A_r on D' (T = 20) for r = 3..7 against the exact law: 200,000 runs,
    each frequency within 5 standard errors (false failure < 5 x 6e-7)."""
    horizon, constant = 20, 0.2
    table = flip_pairs(_table(horizon), [0])[0][1]
    sampler = action_statistic_sampler(
        GDPNCB(epsilon=EPS, phase1_constant=constant), bernoulli_instance([0.5, 0.5]), horizon, leading_run
    )
    run = sampler(table, np.random.default_rng(0), 200_000)[:, 0]
    law = leading_run_law(horizon, EPS, constant)
    for r in range(3, 8):
        p = math.exp(law["log_p1"][r - 1])
        assert abs(np.mean(run >= r) - p) < 5 * math.sqrt(p * (1 - p) / 200_000), r


def test_leading_run_law_refuses_instances_where_it_does_not_hold():
    """With tiny privacy terms (alpha) Phase II may pick arm 0 after Phase I: the closed form fails."""
    with pytest.raises(ValueError, match="Phase II may pick arm 0"):
        leading_run_law(20, EPS, 0.2, alpha=1e-4)


def test_anytime_window_run_law_is_the_mixture():
    """Window W of Algorithm 3: with probability 1/W^2 uniform play (P(R = r) = 2^-(r+1), 2^-W at
    r = W), else the printed GDP-NCB told W; both laws sum to 1, and the uniform part dilutes the
    leak of the base algorithm (loss of the window below the base's at every r, but still above
    epsilon on the pair Part VI audits)."""
    window, eps, constant = 8, 0.5, 0.075
    law = anytime_window_run_law(window, eps, constant)
    base = leading_run_law(window, eps, constant)
    q = 1 / window**2
    uniform = np.array([2.0 ** -(r + 1) for r in range(window)] + [2.0**-window])
    assert uniform.sum() == pytest.approx(1.0, abs=1e-15)
    for key in ("p_run0", "p_run1"):
        np.testing.assert_allclose(law[key], q * uniform + (1 - q) * base[key], rtol=1e-12)
        assert law[key].sum() == pytest.approx(1.0, abs=1e-12)
    base_loss = np.log(base["p_run1"] / base["p_run0"])
    assert np.all(np.abs(law["loss"]) <= np.abs(base_loss) + 1e-12)
    assert law["loss"].max() > 1.2 * eps
    assert (law["start"], law["horizon"], law["uniform_probability"]) == (7, 15, q)
    np.testing.assert_allclose(np.exp(law["log_p_run1"]), law["p_run1"], rtol=1e-12)
    deep = anytime_window_run_law(2**19, 1.0, 1600.0)  # the paper's C: P(R = r) underflows, its log does not
    top = int(np.argmax(deep["loss"]))
    assert deep["p_run1"][top] == 0.0 and np.isfinite(deep["log_p_run1"][top]) and deep["loss"][top] > 1.0
    for bad in (1, 6, 12):
        with pytest.raises(ValueError, match="window"):
            anytime_window_run_law(bad, eps, constant)


def test_anytime_window_run_law_matches_simulation():
    """The anytime wrapper's first run of arm 0 in window 8 (rounds 8-15) on D and D' (arm 0's reward
    in round 8 flipped) against the exact law: 200,000 runs each; every frequency P(R = r) within 5
    standard errors (false failure 3.8e-5: the exact binomial tails of the 18 cells, summed)."""
    window, eps, constant, n = 8, 0.5, 0.075, 200_000
    law = anytime_window_run_law(window, eps, constant)
    d0, d1 = flip_pairs(_table(law["horizon"]), [law["start"]])[0]
    sampler = action_statistic_sampler(
        AnytimeDPNCB(epsilon=eps, phase1_constant=constant),
        bernoulli_instance([0.5, 0.5]),
        law["horizon"],
        functools.partial(leading_run, start=law["start"]),
    )
    for seed, (table, key) in enumerate(((d0, "p_run0"), (d1, "p_run1"))):
        run = sampler(table, np.random.default_rng(seed), n)[:, 0]
        freq = np.bincount(run, minlength=window + 1) / n
        p = law[key]
        assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / n)), (key, freq, p)


def test_printed_phase1_is_caught():
    """Audit of the first run of arm 0 (a function of the actions) on the T = 5 instance, 10^5
    samples per dataset and phase, fixed seed: the printed rule violates epsilon = 1 (exact loss of
    'run >= 4' is 1.68)."""
    assert leading_run_law(5, EPS, 0.05)["loss"][3] > 1.6
    r = _audit("printed", seed=0)
    assert r.violation, r.verdict


def test_sparse_vector_is_consistent():
    """The repaired rule on the same pair and statistic: no violation (fixed seed)."""
    r = _audit("sparse_vector", seed=0)
    assert not r.violation and r.epsilon_lower < 0.5, r.verdict


def test_leak_does_not_need_a_small_constant():
    """With the paper's C = 1600 the same event still costs more than epsilon once T is large enough
    (loss of A_T at T = 10^6 is about (T - thr) / b, finite in log space), on an event of
    probability about 2^-T."""
    law = leading_run_law(10**6, EPS, 1600.0)
    assert np.isfinite(law["loss"][-1]) and law["loss"][-1] > 1000 * EPS
    assert law["log_p1"][-1] < -(10**6) * math.log(2) * 0.99


# --------------------------------------------------------------------------------------------------
# The authors' experiment code as options (Part II). Every departure of the DP-NCB authors' public
# code (``NP-Hardest/DP-NCB``) from the printed algorithms is a flag, off by default. These tests
# check that (1) with every flag off the runs are bit-identical to the package before the flags
# existed (digests recorded from that version), and (2) each flag changes what it should and nothing
# else. All deterministic (fixed seeds). The flags of the baselines are tested in test_adap_ucb.py and
# test_ldp_ucb.py.


def _digest(arms):
    return hashlib.sha256(np.ascontiguousarray(arms, dtype=np.int64).tobytes()).hexdigest()[:16]


# digests of simulate(policy, INST, 20000, runs=3, seed=5).arms, recorded before the flags existed
BEFORE = [
    (NCB(), "ff618c6d2b5d8539"),
    (GDPNCB(), "496e3b5a6c0fddfe"),
    (LDPNCB(), "0cdc36515cb8e390"),
    (GDPNCB(phase1_cap_sqrt=True), "5918ae3aab384e51"),
    (LDPNCB(epsilon=2.0), "7125de3c10a9c8b2"),
    (AnytimeDPNCB(), "4dc9213dfd6c2152"),
    (AnytimeDPNCB(base="ldp"), "fceb16bcbf66cbe3"),
    (GDPNCB(phase1_rule="sparse_vector"), "64888a0882d19c70"),
    (AdaPUCB(), "15c1110549fafcb2"),
    (LDPUCB(), "020283df2706dc4e"),
]


@pytest.mark.parametrize(("policy", "digest"), BEFORE, ids=lambda x: getattr(x, "name", x))
def test_flags_off_runs_are_bit_identical_to_before(policy, digest):
    assert _digest(_arms(policy).arms) == digest


@pytest.mark.parametrize(
    "make",
    [
        lambda: NCB(authors_bonus=1),
        lambda: GDPNCB(phase1_noise="no"),
        lambda: GDPNCB(phase1_window_cap=True, phase1_cap_sqrt=True),
        lambda: GDPNCB(phase1_rule="sparse_vector", log_window=True),
        lambda: LDPNCB(log_window=None),
        lambda: AdaPUCB(noiseless_init=0),
        lambda: AdaPUCB(clip_private_mean=1.0),
        lambda: LDPUCB(clip_rewards="yes"),
    ],
)
def test_bad_flags_raise(make):
    with pytest.raises(ValueError):
        make()


def test_window_cap_stops_phase1_at_the_authors_window():
    horizon = 20000  # W = int(sqrt T) + 1 = 142; C = 1600 keeps the test from firing first
    w = int(math.sqrt(horizon)) + 1
    gdp = _arms(GDPNCB(phase1_constant=1600.0, phase1_window_cap=True), horizon)
    ldp = _arms(LDPNCB(phase1_constant=1600.0, phase1_window_cap=True), horizon)
    assert np.all(gdp.records["phase1_end"] == w)  # GDPNCB.py: t < W
    assert np.all(ldp.records["phase1_end"] == w + 1)  # LDPNCB.py: t <= W


def test_gdp_without_phase1_noise_draws_phase1_like_ncb():
    """No Phase I noise: Phase I consumes only the arm and reward draws, exactly like NCB's Phase I."""
    horizon = 20000
    w = int(math.sqrt(horizon)) + 1
    ncb = _arms(NCB(phase1_constant=1e9), horizon).arms[:, :w]  # never stops: uniform throughout
    quiet = _arms(GDPNCB(phase1_constant=1600.0, phase1_window_cap=True, phase1_noise=False), horizon).arms
    noisy = _arms(GDPNCB(phase1_constant=1600.0, phase1_window_cap=True), horizon).arms
    assert np.array_equal(quiet[:, :w], ncb)
    assert not np.array_equal(noisy[:, :w], ncb)  # the Phase I noise draws shift the stream


def test_gdp_reset_starts_phase2_at_the_least_explored_arm():
    """mu_tilde = 0 for every arm: Eq. (4) is then decreasing in n, so Phase II opens on argmin N_1."""
    res = _arms(GDPNCB(phase1_constant=1600.0, phase1_window_cap=True, reset_mu_tilde=True), 20000)
    k = INST.n_arms
    for arms, p1 in zip(res.arms, res.records["phase1_end"]):
        counts = np.bincount(arms[:p1], minlength=k)
        assert arms[p1] == int(np.argmin(counts))
    base = _arms(GDPNCB(phase1_constant=1600.0, phase1_window_cap=True), 20000)
    assert np.array_equal(base.arms[:, : base.records["phase1_end"][0]], res.arms[:, : res.records["phase1_end"][0]])
    assert not np.array_equal(base.arms, res.arms)


@pytest.mark.parametrize("cls", [GDPNCB, LDPNCB])
def test_log_window_changes_phase2_only(cls):
    kw = {"phase1_constant": 1600.0, "phase1_window_cap": True, "epsilon": 1.0}
    base, logw = _arms(cls(**kw)), _arms(cls(**kw, log_window=True))
    p1 = int(base.records["phase1_end"][0])
    assert np.array_equal(base.records["phase1_end"], logw.records["phase1_end"])
    assert np.array_equal(base.arms[:, :p1], logw.arms[:, :p1])
    assert not np.array_equal(base.arms, logw.arms)


def test_index_formulas_of_the_departures():
    mean, n, log_t, log_w, c, alpha, eps = 0.5, 10.0, math.log(10**6), math.log(1001), 3.0, 3.1, 0.2
    assert _ncb_index(mean, n, log_t, c, False) == pytest.approx(mean + 4 * math.sqrt(mean * log_t / n), rel=1e-14)
    assert _ncb_index(mean, n, log_t, c, True) == pytest.approx(
        mean + 2 * c * math.sqrt(2 * mean * log_t / n), rel=1e-14
    )
    printed = _ldp_index(mean, n, log_t, log_t, eps, c, alpha)
    authors = _ldp_index(mean, n, log_t, log_w, eps, c, alpha)
    last = 4 * c * (2 * alpha) ** 0.25 / (math.sqrt(eps) * n**0.75)
    assert printed - authors == pytest.approx(last * (log_t**0.75 - log_w**0.75), rel=1e-12)


def test_ldp_noise_as_location_shifts_phase1_rewards_by_one_over_eps():
    """At eps = 1 the scale is the same (1), so the draws are identical and Phase I arms coincide;
    the +1 shift in every Phase I reward then changes Phase II."""
    kw = {"phase1_constant": 1600.0, "phase1_window_cap": True, "epsilon": 1.0}
    base, loc = _arms(LDPNCB(**kw)), _arms(LDPNCB(**kw, phase1_noise_as_location=True))
    p1 = int(base.records["phase1_end"][0])
    assert np.array_equal(base.arms[:, :p1], loc.arms[:, :p1])
    assert not np.array_equal(base.arms, loc.arms)


def test_ncb_authors_bonus_changes_phase2_only():
    base, bonus = _arms(NCB()), _arms(NCB(authors_bonus=True))
    assert np.array_equal(base.records["phase1_end"], bonus.records["phase1_end"])
    p1 = int(base.records["phase1_end"].min())
    assert np.array_equal(base.arms[:, :p1], bonus.arms[:, :p1])
    assert not np.array_equal(base.arms, bonus.arms)


@pytest.mark.parametrize("cls", [NCB, GDPNCB, LDPNCB, AdaPUCB, LDPUCB])
def test_as_run_by_authors_sets_every_flag(cls):
    policy = cls.as_run_by_authors()
    flags = {
        NCB: ["authors_bonus"],
        GDPNCB: ["reset_mu_tilde", "log_window", "phase1_window_cap"],
        LDPNCB: ["phase1_noise_as_location", "log_window", "phase1_window_cap"],
        AdaPUCB: ["authors_index", "noiseless_init", "episode_doubles_last", "clip_private_mean"],
        LDPUCB: ["clip_rewards", "forced_first"],
    }[cls]
    assert all(getattr(policy, f) is True for f in flags)
    if cls is GDPNCB:
        assert policy.phase1_noise is False and policy.phase1_constant == 1600.0


@pytest.mark.parametrize("policy", ALL + [GDPNCB(phase1_rule="sparse_vector")], ids=lambda p: p.label)
def test_a_horizon_shorter_than_the_number_of_arms_is_played(policy):
    """The NCB family accepts ``T < K`` (Algorithm 3's first windows are such runs; see ``NCBFamily``):
    through ``simulate`` too, ``T`` arms in range, Phase I ending within the run where it is recorded."""
    from privbandits.simulate import simulate

    inst = bernoulli_instance([0.9, 0.5, 0.2])
    assert policy.min_horizon(inst.n_arms) == 1
    for horizon in (1, 2):
        result = simulate(policy, inst, horizon, runs=5, seed=3, cache=False)
        assert result.arms.shape == (5, horizon) and result.arms.min() >= 0 and result.arms.max() < inst.n_arms
        if "phase1_end" in result.records:
            assert np.all((result.records["phase1_end"] >= 1) & (result.records["phase1_end"] <= horizon))


def test_uniform_arm_is_generator_integers():
    """The kernels' ``_uniform_arm(rng, k)`` draws what ``rng.integers(0, k)`` draws, from the same stream."""
    from numba import njit

    from privbandits.policies.dp_ncb import _uniform_arm

    @njit
    def ours(rng, k, n):  # pragma: no cover - compiled
        out = np.empty(n, dtype=np.int64)
        for i in range(n):
            out[i] = _uniform_arm(rng, k)
        return out

    @njit
    def numbas(rng, k, n):  # pragma: no cover - compiled
        out = np.empty(n, dtype=np.int64)
        for i in range(n):
            out[i] = rng.integers(0, k)
        return out

    for k in (1, 2, 3, 10, 1000, 2**31 + 7, 2**32):
        got = ours(np.random.default_rng(k), k, 5000)
        np.testing.assert_array_equal(got, numbas(np.random.default_rng(k), k, 5000), err_msg=f"k = {k}")
        np.testing.assert_array_equal(got, np.random.default_rng(k).integers(0, k, 5000), err_msg=f"k = {k}")
