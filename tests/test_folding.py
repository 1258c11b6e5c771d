"""Tests of privbandits.folding: runs folded into the mean expected reward per round.

GDP-NCB and AdaP-UCB record their play either per round or as episodes, from one kernel
(``record_play``); the fold works on the episodes piece by piece. Every check here is an exact
equality with the per-round path (same bits), on several seeds, horizons and variants.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from privbandits import metrics
from privbandits.environments import bernoulli_instance
from privbandits.folding import _accumulate, _fold_pieces, _prefix_sums, _ratio_table
from privbandits.policies import AdaPUCB
from privbandits.policies.base import record_play
from privbandits.policies.dp_ncb import GDPNCB, LDPNCB, NCB
from privbandits.simulate import simulate_mean_rewards

INSTANCE = bernoulli_instance(np.random.default_rng(2026).uniform(0.005, 1.0, 12))

POLICIES = {
    "gdp-printed": GDPNCB(epsilon=0.2),
    "gdp-as-run": GDPNCB.as_run_by_authors(0.2),
    "gdp-eps2": GDPNCB(epsilon=2.0, phase1_cap_sqrt=True),
    "adap-printed": AdaPUCB(epsilon=0.2),
    "adap-as-run": AdaPUCB.as_run_by_authors(0.2),
    "adap-inf": AdaPUCB(epsilon=float("inf")),
}


def per_round(policy):
    """The same policy with ``episodic`` off: ``simulate_mean_rewards`` then folds per round."""
    cls = dataclasses.dataclass(frozen=True)(
        type(f"PerRound{type(policy).__name__}", (type(policy),), {"episodic": False, "__module__": __name__})
    )
    return cls(**{f.name: getattr(policy, f.name) for f in dataclasses.fields(policy)})


def expand(episodes: np.ndarray, horizon: int) -> np.ndarray:
    return np.repeat(episodes[1], np.diff(np.r_[episodes[0], horizon]))


@pytest.mark.parametrize("name", sorted(POLICIES))
@pytest.mark.parametrize("horizon, seed", [(12, 0), (13, 1), (100, 2), (5_000, 3), (200_000, 4)])
def test_episodes_are_the_run(name, horizon, seed):
    """``run_episodes`` is ``run``: the same arms round for round (an episode boundary off by one
    would move one round to the wrong arm) and the same other records."""
    policy = POLICIES[name]
    run = policy.run(INSTANCE, horizon, np.random.default_rng(seed))
    ep = policy.run_episodes(INSTANCE, horizon, np.random.default_rng(seed))
    episodes = ep.pop("episodes")
    assert episodes.dtype == np.int64 and episodes.shape[0] == 2 and episodes[0, 0] == 0
    assert np.all(np.diff(episodes[0]) > 0) and episodes[0, -1] < horizon
    assert np.all(episodes[1, 1:] != episodes[1, :-1]), "consecutive episodes of one arm are joined"
    np.testing.assert_array_equal(expand(episodes, horizon), run.pop("arms"))
    assert ep.keys() == run.keys()
    for key in run:
        np.testing.assert_array_equal(ep[key], run[key])


def test_episodes_are_few():
    """The point of it: at 10^6 rounds the runs are a few hundred episodes (plus Phase I rounds)."""
    for name in ("gdp-as-run", "adap-printed", "adap-as-run"):
        ep = POLICIES[name].run_episodes(INSTANCE, 10**6, np.random.default_rng(0))
        assert ep["episodes"].shape[1] < 3_000, name


def test_non_episodic_policies_refuse():
    for policy in (NCB(), LDPNCB(), GDPNCB(phase1_rule="sparse_vector")):
        assert not policy.episodic
        with pytest.raises(ValueError, match="episodic"):
            policy.run_episodes(INSTANCE, 100, np.random.default_rng(0))
    with pytest.raises(NotImplementedError):
        record_play(np.zeros(3, dtype=np.int64), 0, 1, 1)


@pytest.mark.parametrize("name", sorted(POLICIES))
@pytest.mark.parametrize("horizon, runs, seed", [(50, 3, 0), (3_000, 7, 1), (40_000, 33, 2)])
def test_episode_fold_equals_the_per_round_fold(name, horizon, runs, seed):
    """Same bits as the per-round fold, per round, and read at ``at`` (values and running sums)."""
    policy = POLICIES[name]
    a = simulate_mean_rewards(policy, INSTANCE, horizon, runs, seed, cache=False)
    b = simulate_mean_rewards(per_round(policy), INSTANCE, horizon, runs, seed, cache=False)
    assert a.log_mean.shape == (horizon,)
    np.testing.assert_array_equal(a.log_mean, b.log_mean)
    at = np.unique(np.r_[1, 2, np.random.default_rng(seed).integers(1, horizon + 1, 30), horizon])
    c = simulate_mean_rewards(policy, INSTANCE, horizon, runs, seed, cache=False, at=at)
    np.testing.assert_array_equal(c.at, at)
    np.testing.assert_array_equal(c.log_mean, b.log_mean[at - 1])
    np.testing.assert_array_equal(metrics.running_nash_regret(c), metrics.running_nash_regret(b)[at - 1])
    np.testing.assert_array_equal(metrics.running_average_regret(c), metrics.running_average_regret(b)[at - 1])
    assert metrics.nash_regret(c) == metrics.running_nash_regret(b)[-1]
    for key in b.records:
        np.testing.assert_array_equal(c.records[key], b.records[key])


def test_fold_of_pieces_equals_the_fold_of_rounds():
    """Random episodes (lengths 1 to 5, boundaries shared or not between runs) on an instance whose
    means span 300 orders of magnitude: the piecewise fold expanded is the per-round fold."""
    rng = np.random.default_rng(7)
    log_means = np.array([-700.0, -3.0, -0.5, 0.0, -1e-3])
    ratio = _ratio_table(log_means)
    horizon = 400
    for _ in range(20):
        runs = []
        for _ in range(rng.integers(1, 6)):
            lengths = rng.integers(1, 6, horizon)
            starts = np.r_[0, np.cumsum(lengths)]
            starts = starts[starts < horizon]
            arms = rng.integers(0, 5, starts.size)
            keep = np.r_[True, arms[1:] != arms[:-1]]
            runs.append(np.stack([starts[keep], arms[keep]]))
        top, scaled = np.full(horizon, -1, dtype=np.int64), np.zeros(horizon)
        p_starts, p_top, p_scaled = np.zeros(1, dtype=np.int64), np.full(1, -1, dtype=np.int64), np.zeros(1)
        for ep in runs:
            _accumulate(top, scaled, expand(ep, horizon), log_means, ratio)
            p_starts, p_top, p_scaled = _fold_pieces(
                p_starts, p_top, p_scaled, ep[0], ep[1], p_scaled, True, log_means, ratio
            )
        np.testing.assert_array_equal(expand(np.stack([p_starts, p_top]), horizon), top)
        np.testing.assert_array_equal(np.repeat(p_scaled, np.diff(np.r_[p_starts, horizon])), scaled)


def test_an_episode_boundary_moved_by_one_round_is_seen():
    """Two runs identical but for one boundary (round 10 instead of 11): the folds differ at that round only."""
    log_means = np.log(np.array([0.2, 0.9]))
    ratio = _ratio_table(log_means)
    horizon = 20
    base = np.array([[0, 11], [0, 1]])
    moved = np.array([[0, 10], [0, 1]])
    out = []
    for second in (base, moved):
        s, top, sc = np.zeros(1, dtype=np.int64), np.full(1, -1, dtype=np.int64), np.zeros(1)
        for ep in (base, second):
            s, top, sc = _fold_pieces(s, top, sc, ep[0], ep[1], sc, True, log_means, ratio)
        out.append(np.exp(log_means[expand(np.stack([s, top]), horizon)]) * np.repeat(sc, np.diff(np.r_[s, horizon])))
    differs = np.flatnonzero(out[0] != out[1])
    np.testing.assert_array_equal(differs, [10])
    assert out[0][10] == pytest.approx(0.4) and out[1][10] == pytest.approx(1.1)


def test_prefix_sums_are_cumsum():
    rng = np.random.default_rng(3)
    horizon = 1_000
    starts = np.unique(np.r_[0, rng.integers(1, horizon, 60)])
    values = rng.normal(size=starts.size)
    values[5] = -np.inf if starts.size > 10 else values[5]
    full = np.repeat(values, np.diff(np.r_[starts, horizon]))
    edges = np.clip(np.r_[starts, starts + 1, starts + 2], 1, horizon)
    at = np.unique(np.r_[1, edges, horizon])
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(_prefix_sums(starts, values, horizon, at), np.cumsum(full)[at - 1])
