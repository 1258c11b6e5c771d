"""Tests of privbandits.policies.fair_hiring.kernels: the rank step, the score tree, the authors' departures."""

import math

import numpy as np
import pytest
from _policy_checks import one_hot_hiring_env, synthetic_hiring_env

from privbandits.policies.fair_hiring import OFUL, FairGreedy, HiringEnvironment, PrivateFairGreedy


@pytest.mark.parametrize("policy", [FairGreedy(), PrivateFairGreedy(), PrivateFairGreedy(rank_refresh=3)])
def test_fast_rank_equals_brute_force_counting(policy):
    """The histogram rank step (no noise: the traced counts are taken before the Gaussian of eq. (1))
    equals counting the window entry by entry with numpy dot products, in every round."""
    env = synthetic_hiring_env(seed=2, d=4, k=3, n=60)  # small pools: many repeated rows in the window
    horizon = 500
    res = policy.run(env, horizon, np.random.default_rng(7), trace=True)
    cand = res["candidates"]
    for t in range(2, horizon + 1):
        t_tilde = (t - 1) // 2
        theta = res["theta"][t - 1]
        for k in range(len(env.pools)):
            scores = env.pools[k] @ theta  # one product per pool row, so equal rows tie exactly
            window, value = scores[cand[t_tilde : t - 1, k]], scores[cand[t - 1, k]]
            assert res["rank_counts"][t - 1, k] == np.sum(window <= value), (t, k)


@pytest.mark.parametrize("cls", [FairGreedy, PrivateFairGreedy])
def test_histogram_and_brute_rank_give_identical_runs(cls):
    env = synthetic_hiring_env(seed=3)
    a = cls().run(env, 1500, np.random.default_rng(11))
    b = cls(rank_method="brute").run(env, 1500, np.random.default_rng(11))
    for key in ("fair_regret", "regret", "groups"):
        np.testing.assert_array_equal(a[key], b[key])


def test_score_tree_gives_the_row_by_row_scores_bit_for_bit():
    """The prefix tree of the pools' sparse rows (shared partial sums) scores every distinct row with
    the very operations of the row-by-row sum over its non-zero entries, in column order."""
    from privbandits.policies.fair_hiring.kernels import _score_pool

    env = one_hot_hiring_env()
    tree = env.arrays().score_tree
    pool = np.vstack(env.pools)
    assert tree.leaf_offsets[-1] == len(np.unique(pool, axis=0)) < len(pool)  # equal rows share a leaf
    theta = np.random.default_rng(1).normal(size=pool.shape[1])
    work, products = np.zeros(tree.parent.shape[0]), np.zeros(tree.entry_col.shape[0])
    leaf_scores = np.zeros(tree.leaf_offsets[-1])
    _score_pool(tree, theta, work, products, leaf_scores)
    for r, row in enumerate(pool):
        s = 0.0
        for c in np.flatnonzero(row):
            s = s + float(row[c]) * float(theta[c])  # IEEE double, in column order
        assert leaf_scores[tree.row_leaf[r]] == s, r


# --- the authors' departures replayed (DP-GMFBandits, commit 73ab664) -----------------------------


def _tiny_noise_env(seed=3, d=3, k=2, n=60):
    """Rewards observed with noise 1e-9: the regression's input is the true reward to 1e-9."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=d)
    pools = tuple(rng.normal(size=(n, d)) * 0.5 + 0.2 * g for g in range(k))
    return HiringEnvironment(pools, theta, noise_sd=1e-9)


def _hired_rows(env, rec):
    """Pool rows (global index) of the hired candidates, and their true rewards."""
    arrays = env.arrays()
    rows = arrays.offsets[rec["groups"]] + rec["candidates"][np.arange(len(rec["groups"])), rec["groups"]]
    return arrays.pool[rows], arrays.row_reward[rows]


@pytest.mark.parametrize("lag", [False, True])
@pytest.mark.parametrize("shift", ["once", "per_node"])
def test_private_theta_lag_and_shift(lag, shift):
    """theta-hat at t = (X^T X + 2 Gamma c I)^-1 X^T y on the first t~ hires (lagged or not), c = 1 or popcount(t~).

    The tree's noise is 1e-6 per entry (L~ chosen for it), so theta-hat is the shifted ridge to ~1e-6,
    while the two shifts differ by 2 Gamma (popcount - 1) ~ 1e-3 in the Gram matrix.
    """
    env, horizon = _tiny_noise_env(), 96
    base = PrivateFairGreedy(l_tilde=1.0)
    sigma1 = base.calibration_values(env, horizon)["sigma_noise"]  # proportional to L~^2
    policy = PrivateFairGreedy(l_tilde=math.sqrt(1e-6 / sigma1), index_lag=lag, tree_shift=shift, clip_rewards=False)
    gamma = policy.calibration_values(env, horizon)["gamma"]
    rec = policy.run(env, horizon, np.random.default_rng(7), trace=True)
    x, y = _hired_rows(env, rec)
    d = x.shape[1]
    checked = 0
    for t in range(3, horizon + 1):
        n = (t - 2) // 2 if lag else (t - 1) // 2
        c = bin(n).count("1") if shift == "per_node" else 1
        if n < 2 * d:
            continue
        gram = x[:n].T @ x[:n]
        expected = np.linalg.solve(gram + 2 * gamma * c * np.eye(d), x[:n].T @ y[:n])
        other = np.linalg.solve(gram + 2 * gamma * (bin(n).count("1") + 1 - c) * np.eye(d), x[:n].T @ y[:n])
        got = rec["theta"][t - 1]
        assert np.abs(got - expected).max() < 1e-4, (t, got, expected)
        if bin(n).count("1") > 1:
            assert np.abs(got - other).max() > 3 * np.abs(got - expected).max()
        checked += 1
    assert checked > 60


@pytest.mark.parametrize("cls", [FairGreedy, PrivateFairGreedy])
def test_index_lag_window_and_update_rounds(cls):
    """Lagged: theta-hat changes on even t (never odd), and the rank counts the window D_{t~+1:t-1}."""
    env, horizon = _tiny_noise_env(), 80
    for lag in (False, True):
        rec = cls(index_lag=lag, rank_method="brute").run(env, horizon, np.random.default_rng(2), trace=True)
        theta = rec["theta"]
        changed = {t % 2 for t in range(3, horizon + 1) if not np.array_equal(theta[t - 1], theta[t - 2])}
        assert changed == ({0} if lag else {1})
        arrays = env.arrays()
        for t in range(2, horizon + 1):
            n = (t - 2) // 2 if lag else (t - 1) // 2
            for k in range(2):
                rows = arrays.offsets[k] + rec["candidates"][n : t - 1, k]
                scores = arrays.pool[rows] @ theta[t - 1]
                own = arrays.pool[arrays.offsets[k] + rec["candidates"][t - 1, k]] @ theta[t - 1]
                # brute counts in the kernel's order; allow ties broken by rounding only
                low, high = np.sum(scores < own - 1e-12), np.sum(scores <= own + 1e-12)
                assert low <= rec["rank_counts"][t - 1, k] <= high


def test_fair_greedy_lag_theta_is_ridge_on_fewer_hires():
    env, horizon = _tiny_noise_env(), 60
    policy = FairGreedy(reg=0.01, index_lag=True)
    rec = policy.run(env, horizon, np.random.default_rng(4), trace=True)
    x, y = _hired_rows(env, rec)
    for t in range(3, horizon + 1, 2):  # odd t: one hire fewer than the printed t~ = (t - 1) / 2
        n = (t - 2) // 2
        expected = np.linalg.solve(0.01 * np.eye(x.shape[1]) + x[:n].T @ x[:n], x[:n].T @ y[:n])
        np.testing.assert_allclose(rec["theta"][t - 1], expected, atol=1e-6)


def test_fair_greedy_jitter():
    """theta-hat + jitter/(d sqrt t) z (policies.py lines 129-131): its own stream, a perturbation of that size."""
    env, horizon = _tiny_noise_env(), 40
    plain, jit = FairGreedy(), FairGreedy(theta_jitter=1e-3)
    assert plain.stream(env, horizon) != jit.stream(env, horizon)
    rec = jit.run(env, horizon, np.random.default_rng(5), trace=True)
    x, y = _hired_rows(env, rec)
    d = x.shape[1]
    for t in range(3, horizon + 1):
        n = (t - 1) // 2
        ridge = np.linalg.solve(np.eye(d) + x[:n].T @ x[:n], x[:n].T @ y[:n])
        dev = np.abs(rec["theta"][t - 1] - ridge).max()
        assert 0 < dev < 5 * 1e-3 / (d * math.sqrt(t))  # 5 sd: P(fail) < 6e-7 per entry


@pytest.mark.parametrize("radius, scale", [("code", 0.01), ("code", 1.0), ("theorem2", 1.0)])
def test_oful_index_replayed(radius, scale):
    """Every choice is the argmax of <x, theta> + scale * beta_t ||x||_{V^-1}, beta_t as the code's or Theorem 2's."""
    env, horizon, reg = _tiny_noise_env(), 60, 0.01
    policy = OFUL(reg=reg, radius=radius, bonus_scale=scale)
    rec = policy.run(env, horizon, np.random.default_rng(6), trace=True)
    x, y = _hired_rows(env, rec)
    arrays, d = env.arrays(), x.shape[1]
    margins = []
    for t in range(1, horizon + 1):
        v = reg * np.eye(d) + x[: t - 1].T @ x[: t - 1]
        theta = np.linalg.solve(v, x[: t - 1].T @ y[: t - 1])
        if radius == "code":  # policies.py lines 67-69, 168-185: sqrt(2 log det ratio), times sqrt(log t)
            logdet = np.linalg.slogdet(v)[1] - d * np.log(reg)
            beta = scale * np.sqrt(2 * logdet) * np.sqrt(np.log(t))
        else:
            beta = scale * (
                np.sqrt(env.noise_sd**2 * d * np.log((1 + (t - 1) / reg) / policy.delta))
                + np.sqrt(reg) * policy.theta_norm
            )
        cands = arrays.pool[arrays.offsets[:-1] + rec["candidates"][t - 1]]
        ucb = cands @ theta + beta * np.sqrt(np.einsum("kd,de,ke->k", cands, np.linalg.inv(v), cands))
        order = np.sort(ucb)
        margins.append(order[-1] - order[-2])
        if order[-1] - order[-2] > 1e-9:
            assert rec["groups"][t - 1] == np.argmax(ucb), t
    assert np.mean(np.array(margins) > 1e-9) > 0.9
