"""The first maximiser of an array where one entry changes at a time, in O(log k) per change.

Index policies whose index uses ``log T`` (the horizon they are told), not ``log t``, change only the
pulled arm's index in a round: NCB, GDP-NCB's and LDP-NCB's Phase II (``sarkar2026dpncb``, Eqs. 3-5).
A linear scan for the argmax costs ``k`` comparisons per round, the update one; a tournament tree
(a complete binary tree whose every node holds the winner of its two children) costs ``log2 k`` for
both. The winner is exactly the linear scan's::

    best, a = -inf, 0
    for i in range(k):
        if values[i] > best:
            best, a = values[i], i

that is, the first index of the largest value, NaN never chosen, and 0 when no value exceeds
``-inf``: a node keeps its left child's winner unless the right child's is strictly larger, and NaN
compares as ``-inf``. ``tests/test_dp_ncb.py`` checks the arms against the scan, bit for bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(nogil=True, cache=True)
def _key(values, i):  # pragma: no cover - compiled
    v = values[i]
    return -np.inf if np.isnan(v) else v


@njit(nogil=True, cache=True)
def _winner(values, left, right):  # pragma: no cover - compiled
    if right < 0:
        return left
    if left < 0:
        return right
    return right if _key(values, right) > _key(values, left) else left


@njit(nogil=True, cache=True)
def build_tree(values):  # pragma: no cover - compiled
    """A tournament tree over ``values``: ``tree[1]`` is the first maximiser.

    Parameters
    ----------
    values : numpy.ndarray
        1-d float array of length ``k >= 1``; later changes are reported with :func:`update_tree`.

    Returns
    -------
    numpy.ndarray
        int64 array of length ``2 * size`` (``size`` the smallest power of two >= k): node ``j``
        holds the winner of nodes ``2j`` and ``2j + 1``, leaf ``size + i`` holds ``i`` (``-1`` pads).
    """
    k = values.shape[0]
    size = 1
    while size < k:
        size *= 2
    tree = np.full(2 * size, -1, dtype=np.int64)
    for i in range(k):
        tree[size + i] = i
    for j in range(size - 1, 0, -1):
        tree[j] = _winner(values, tree[2 * j], tree[2 * j + 1])
    return tree


@njit(nogil=True, cache=True)
def update_tree(tree, values, i):  # pragma: no cover - compiled
    """Replay the matches on the path from leaf ``i`` to the root after ``values[i]`` changed.

    Parameters
    ----------
    tree : numpy.ndarray
        The tree of :func:`build_tree` over ``values``, updated in place.
    values : numpy.ndarray
        The values, of which only entry ``i`` changed since the last build or update.
    i : int
        The changed entry.

    Returns
    -------
    int
        The first maximiser, ``tree[1]``.
    """
    j = (tree.shape[0] // 2 + i) // 2
    while j >= 1:
        tree[j] = _winner(values, tree[2 * j], tree[2 * j + 1])
        j //= 2
    return tree[1]
