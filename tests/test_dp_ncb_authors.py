"""Tests of the departure options of Part II's policies: the authors' experiment code as options.

Every departure of the DP-NCB authors' public experiment code (``NP-Hardest/DP-NCB``) from the
printed algorithms is a flag, off by default. These tests check that (1) with every flag off the
runs are bit-identical to the package before the flags existed (digests recorded from that version),
and (2) each flag changes what it should and nothing else. All tests are deterministic (fixed seeds).
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

from privbandits.environments import bernoulli_instance
from privbandits.policies import LDPUCB, AdaPUCB
from privbandits.policies.dp_ncb import GDPNCB, LDPNCB, NCB, AnytimeDPNCB, _ldp_index, _ncb_index
from privbandits.simulate import simulate

INST = bernoulli_instance(np.random.default_rng(2026).uniform(0.005, 1, 10))


def _arms(policy, horizon=20000, runs=3, seed=5, instance=INST):
    return simulate(policy, instance, horizon, runs=runs, seed=seed, progress=False, cache=False)


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


def test_ldp_ucb_clipping_changes_nothing_without_noise_and_something_with_it():
    assert np.array_equal(_arms(LDPUCB(epsilon=math.inf)).arms, _arms(LDPUCB(epsilon=math.inf, clip_rewards=True)).arms)
    assert not np.array_equal(_arms(LDPUCB()).arms, _arms(LDPUCB(clip_rewards=True)).arms)


def test_ldp_ucb_forced_first_pulls_the_lowest_numbered_arm():
    k = INST.n_arms
    base, first = _arms(LDPUCB(), 200), _arms(LDPUCB(forced_first=True), 200)
    assert np.all(first.arms[:, :k] == np.arange(k)) and np.all(base.arms[:, :k] == np.arange(k))
    # round k + 1: every arm has one pull and 1 <= 4 log(k + 2): arm 0 again, where round-robin takes arm 1
    assert np.all(first.arms[:, k + 1] == 0) and np.all(base.arms[:, k + 1] == 1)


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
