"""The matrix tree mechanism of Private-Fair-Greedy's private regression (``an2025privatefairgreedy``, Section 4.1).

The binary mechanism of ``chan2011private`` (Algorithm 2) over the (p, p) leaves ``[x, y] [x, y]^T``,
with symmetrised Gaussian noise per node. Every matrix here is symmetric, so a node is stored as its
upper triangle, row by row (``M[0, 0], M[0, 1], ..., M[1, 1], ...``), entry for entry the same numbers.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["draw_node_noise", "packed_size", "tree_insert", "tree_prefix", "private_ridge_prefix"]


@njit(nogil=True, cache=True)
def packed_size(p):  # pragma: no cover - compiled
    """Entries of a packed symmetric ``(p, p)`` matrix (and standard normals of one node): ``p (p + 1) / 2``.

    Parameters
    ----------
    p : int

    Returns
    -------
    int
    """
    return p * (p + 1) // 2


def _unpack(packed: np.ndarray, p: int) -> np.ndarray:
    rows, cols = np.triu_indices(p)
    out = np.zeros((*packed.shape[:-1], p, p))
    out[..., rows, cols] = packed
    out[..., cols, rows] = packed
    return out


@njit(nogil=True, cache=True)
def draw_node_noise(rng, out):  # pragma: no cover - compiled
    """Draw one node's standard normals, in the packed order :func:`tree_insert` reads them.

    Parameters
    ----------
    rng : numpy.random.Generator
    out : numpy.ndarray
        Buffer of :func:`packed_size` entries (or 0 entries: no noise, nothing drawn).
    """
    for e in range(out.shape[0]):
        out[e] = rng.standard_normal()


@njit(nogil=True, cache=True)
def tree_insert(exact, noisy, leaf_index, v, sigma, noise):  # pragma: no cover - compiled
    """Insert leaf number ``leaf_index`` (1-based), the matrix ``v v^T``, into the binary tree (updated in place).

    The new node is ``v v^T`` plus the nodes below its level; each closed node gets fresh symmetrised
    Gaussian noise Z = (Z' + Z'^T)/sqrt(2), Z'_ij ~ N(0, sigma^2): ``Z_ij = 0 + sigma noise_e``
    (``sigma sqrt(2)`` on the diagonal), the very value of ``rng.normal(0, sigma)`` with the same draw.

    Parameters
    ----------
    exact, noisy : numpy.ndarray
        ``(levels, p (p + 1) / 2)``: the exact and noisy sums of the last node closed at each level.
    leaf_index : int
    v : numpy.ndarray
        ``(p,)``: the regression's ``[x, y]``.
    sigma : float
        Standard deviation of the node noise (0: no noise).
    noise : numpy.ndarray
        The node's :func:`packed_size` standard normals (read only if ``sigma`` > 0).
    """
    level = 0
    while (leaf_index >> level) & 1 == 0:
        level += 1
    p = v.shape[0]
    # Z = (Z' + Z'^T)/sqrt(2): its entries i < j are (Z'_ij + Z'_ji)/sqrt(2) ~ N(0, sigma^2) and
    # independent, Z_ji = Z_ij, and Z_ii = sqrt(2) Z'_ii ~ N(0, 2 sigma^2).  We draw Z in that form
    # (same distribution, half the Gaussian draws).
    diag = sigma * math.sqrt(2.0)
    e = 0
    for i in range(p):  # row i of the triangle: entries (i, i), (i, i + 1), ..., (i, p - 1)
        width = p - i
        node, out = exact[level, e : e + width], noisy[level, e : e + width]
        for j in range(width):
            node[j] = v[i] * v[i + j]
        for lv in range(level):
            below = exact[lv, e : e + width]
            for j in range(width):
                node[j] += below[j]
        if sigma > 0.0:
            z = noise[e : e + width]
            out[0] = node[0] + (0.0 + diag * z[0])
            for j in range(1, width):
                out[j] = node[j] + (0.0 + sigma * z[j])
        else:
            for j in range(width):
                out[j] = node[j]
        e += width


@njit(nogil=True, cache=True)
def tree_prefix(noisy, count, out):  # pragma: no cover - compiled
    """Noisy prefix sum of leaves 1..count: the nodes of count's binary expansion, lowest level first.

    Parameters
    ----------
    noisy : numpy.ndarray
        ``(levels, p (p + 1) / 2)`` noisy node sums (:func:`tree_insert`).
    count : int
    out : numpy.ndarray
        Packed buffer overwritten with the prefix sum.
    """
    out[:] = 0.0
    level = 0
    while (count >> level) > 0:
        if (count >> level) & 1:
            node = noisy[level]
            for e in range(out.shape[0]):
                out[e] += node[e]
        level += 1


def private_ridge_prefix(rows: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Noisy prefix sums M_1..M_n of the leaves ``v_s v_s^T`` via the tree mechanism (for tests and figures).

    Parameters
    ----------
    rows : numpy.ndarray
        ``(n, p)``: the leaves' vectors ``v_s``, in insertion order.
    sigma : float
        Standard deviation of the node noise (0: exact prefix sums).
    rng : numpy.random.Generator

    Returns
    -------
    numpy.ndarray
        ``(n, p, p)``: the noisy prefix sum after each leaf.
    """
    rows = np.ascontiguousarray(rows, dtype=float)
    n, p = rows.shape
    levels = max(1, int(n).bit_length()) + 1
    size = packed_size(p)
    exact = np.zeros((levels, size))
    noisy = np.zeros((levels, size))
    out = np.zeros((n, size))
    noise = np.zeros(size if sigma > 0 else 0)
    for s in range(n):
        draw_node_noise(rng, noise)
        tree_insert(exact, noisy, s + 1, rows[s], float(sigma), noise)
        tree_prefix(noisy, s + 1, out[s])
    return _unpack(out, p)
