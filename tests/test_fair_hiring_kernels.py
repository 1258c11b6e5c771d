"""Tests of privbandits.policies.fair_hiring.kernels: the rank step and the pools' score tree."""

import numpy as np
import pytest
from _policy_checks import one_hot_hiring_env, synthetic_hiring_env

from privbandits.policies.fair_hiring import FairGreedy, PrivateFairGreedy


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
