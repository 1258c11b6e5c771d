"""The matrix tree mechanism of Private-Fair-Greedy's private regression (``an2025privatefairgreedy``,
Section 4.1): the binary mechanism of ``chan2011private`` (Algorithm 2) over the (p, p) leaves
``[x, y] [x, y]^T``, with symmetrised Gaussian noise per node.

The scalar continual counters of the bandit chapters are in :mod:`privbandits.mechanisms`; this one
sums matrices, draws Gaussian noise and keeps its state in two ``(levels, p, p)`` arrays.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["tree_insert", "tree_prefix", "private_ridge_prefix"]


@njit(nogil=True, cache=True)
def tree_insert(exact, noisy, leaf_index, leaf, sigma, rng):  # pragma: no cover - compiled
    """Insert leaf number ``leaf_index`` (1-based) into the binary tree (CSS11, Algorithm 2).

    ``exact[i]`` / ``noisy[i]`` are the exact / noisy sums of the last node closed at level i; each
    closed node gets fresh symmetrised Gaussian noise Z = (Z' + Z'^T)/sqrt(2), Z'_ij ~ N(0, sigma^2).
    Updates ``exact`` and ``noisy`` in place. The nodes below the new one's level are left as they
    are (not zeroed): they lie inside the new node, and no prefix sum reads them again.

    Parameters
    ----------
    exact : numpy.ndarray
        ``(levels, p, p)`` exact node sums.
    noisy : numpy.ndarray
        ``(levels, p, p)`` noisy node sums.
    leaf_index : int
        The leaf's 1-based number.
    leaf : numpy.ndarray
        The ``(p, p)`` leaf ``[x, y] [x, y]^T``.
    sigma : float
        Standard deviation of the node noise (0: no noise).
    rng : numpy.random.Generator
        The noise stream.
    """
    level = 0
    while (leaf_index >> level) & 1 == 0:
        level += 1
    p = leaf.shape[0]
    # the new node: the leaf plus the nodes below it, added level by level (row-major passes)
    node = exact[level]
    for i in range(p):
        for j in range(p):
            node[i, j] = leaf[i, j]
    for lv in range(level):
        below = exact[lv]
        for i in range(p):
            for j in range(p):
                node[i, j] += below[i, j]
    # the nodes below ``level`` are now inside the new node: stale, never read again (a prefix reads
    # the levels of its binary expansion, and the next node at a lower level is written before that)
    out = noisy[level]
    if sigma > 0.0:
        # Z = (Z' + Z'^T)/sqrt(2): its entries i < j are (Z'_ij + Z'_ji)/sqrt(2) ~ N(0, sigma^2) and
        # independent, Z_ji = Z_ij, and Z_ii = sqrt(2) Z'_ii ~ N(0, 2 sigma^2).  We draw Z in that
        # form (same distribution, half the Gaussian draws).
        for i in range(p):
            out[i, i] = node[i, i] + rng.normal(0.0, sigma * math.sqrt(2.0))
            for j in range(i + 1, p):
                z = rng.normal(0.0, sigma)
                out[i, j] = node[i, j] + z
                out[j, i] = node[j, i] + z
    else:
        for i in range(p):
            for j in range(p):
                out[i, j] = node[i, j]


@njit(nogil=True, cache=True)
def tree_prefix(noisy, count, out):  # pragma: no cover - compiled
    """Noisy prefix sum of leaves 1..count: the nodes of count's binary expansion.

    Parameters
    ----------
    noisy : numpy.ndarray
        ``(levels, p, p)`` noisy node sums (:func:`tree_insert`).
    count : int
        The number of leaves inserted so far.
    out : numpy.ndarray
        ``(p, p)`` buffer overwritten with the prefix sum.
    """
    out[:, :] = 0.0
    level = 0
    while (count >> level) > 0:
        if (count >> level) & 1:
            out += noisy[level]
        level += 1


def private_ridge_prefix(leaves: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Noisy prefix sums M_1..M_n of the (p, p) leaves via the tree mechanism (for tests/figures).

    The regression tree of ``an2025privatefairgreedy``, Section 4.1 (binary mechanism of
    ``chan2011private``, Algorithm 2, with Gaussian noise): each leaf enters at most
    ``levels`` nodes.

    Parameters
    ----------
    leaves : numpy.ndarray
        ``(n, p, p)`` leaves, in insertion order.
    sigma : float
        Standard deviation of the node noise (0: exact prefix sums).
    rng : numpy.random.Generator
        The noise stream.

    Returns
    -------
    numpy.ndarray
        ``(n, p, p)``: the noisy prefix sum after each leaf.
    """
    n, p, _ = leaves.shape
    levels = max(1, int(n).bit_length()) + 1
    exact = np.zeros((levels, p, p))
    noisy = np.zeros((levels, p, p))
    out = np.zeros((n, p, p))
    buf = np.zeros((p, p))
    for s in range(n):
        tree_insert(exact, noisy, s + 1, np.ascontiguousarray(leaves[s], dtype=float), float(sigma), rng)
        tree_prefix(noisy, s + 1, buf)
        out[s] = buf
    return out
