"""Tests of privbandits.policies.fair_hiring.tree: the matrix tree mechanism's prefix sums and node noise."""

import numpy as np

from privbandits.policies.fair_hiring import private_ridge_prefix


def test_tree_without_noise_equals_exact_prefix_sums():
    rng = np.random.default_rng(1)
    rows = rng.normal(size=(37, 4))
    leaves = np.einsum("ni,nj->nij", rows, rows)
    prefixes = private_ridge_prefix(rows, 0.0, np.random.default_rng(2))
    np.testing.assert_allclose(prefixes, np.cumsum(leaves, axis=0), atol=1e-10)
    # ridge from the noiseless tree equals ridge regression
    x, y = rows[:, :3], rows[:, 3]
    m = prefixes[-1]
    theta = np.linalg.solve(m[:3, :3] + np.eye(3), m[:3, 3])
    np.testing.assert_allclose(theta, np.linalg.solve(x.T @ x + np.eye(3), x.T @ y), atol=1e-10)


def test_tree_node_noise_variance():
    # one leaf = one node: off-diagonal variance sigma^2, diagonal 2 sigma^2 (symmetrised noise)
    sigma, reps = 1.5, 4000
    rng = np.random.default_rng(3)
    draws = np.array([private_ridge_prefix(np.zeros((1, 3)), sigma, rng)[0] for _ in range(reps)])
    off, diag = draws[:, 0, 1].var(), draws[:, 0, 0].var()
    # var estimates over 4000 draws have relative sd ~ sqrt(2/4000) = 2.2%; 15% is > 6 sd
    assert abs(off / sigma**2 - 1) < 0.15, off
    assert abs(diag / (2 * sigma**2) - 1) < 0.15, diag
    np.testing.assert_allclose(draws[:, 0, 1], draws[:, 1, 0])
