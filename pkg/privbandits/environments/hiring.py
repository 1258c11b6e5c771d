"""The hiring environment of Part IV: per-group candidate pools and a true reward vector."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
from typing import Any, NamedTuple

import numpy as np

from .._validation import check_finite_array, check_positive

__all__ = ["HiringEnvironment", "HiringArrays", "ScoreTree", "L_TILDE_RULES"]

#: How :meth:`HiringEnvironment.l_tilde` bounds the regression's leaves (see there)
L_TILDE_RULES = ("sum", "norm", "data")


def check_l_tilde_rule(rule: str) -> str:
    """``rule`` if it is one of :data:`L_TILDE_RULES`, else ``ValueError``.

    Parameters
    ----------
    rule : str

    Returns
    -------
    str
    """
    if rule not in L_TILDE_RULES:
        raise ValueError(f"l_tilde_rule must be 'sum', 'norm' or 'data', got {rule!r}")
    return rule


class ScoreTree(NamedTuple):
    """The pool rows as a prefix tree of their sparse entries, to score every row with shared sums.

    Rows of a group sharing their first q + 1 entries share the partial sum of ``<x_r, theta>`` (column
    order, the row-by-row sum's floats): level q has one node per distinct prefix; leaves are distinct rows.

    Attributes
    ----------
    parent, entry : numpy.ndarray
        ``(nodes,)`` uint32: each node's parent (numbered in the previous level) and its entry.
    entry_col, entry_value : numpy.ndarray
        ``(entries,)``: each distinct entry's column and value.
    level_offsets : numpy.ndarray
        ``(width + 1,)``: where each level's nodes start.
    unary : numpy.ndarray
        ``(width,)`` bool: level q's nodes are the only children of level q - 1's, in order.
    row_leaf, leaf_offsets : numpy.ndarray
        ``(rows,)`` each pool row's leaf; ``(K + 1,)`` where each group's leaves start.
    """

    parent: np.ndarray
    entry: np.ndarray
    entry_col: np.ndarray
    entry_value: np.ndarray
    level_offsets: np.ndarray
    unary: np.ndarray
    row_leaf: np.ndarray
    leaf_offsets: np.ndarray


class HiringArrays(NamedTuple):
    """The environment as the kernels read it (:meth:`HiringEnvironment.arrays`).

    Attributes
    ----------
    pool, offsets : numpy.ndarray
        ``(rows, d)`` the stacked pools; ``(K + 1,)`` where each group's rows start.
    nz_cols, nz_count : numpy.ndarray
        ``(rows, width)`` each row's non-zero columns (increasing, zero-padded); ``(rows,)`` their number.
    score_tree : ScoreTree
    theta_star : numpy.ndarray
    sorted_rewards : numpy.ndarray
        Each group's sorted true rewards (its CDF), group by group.
    row_reward, row_rank : numpy.ndarray
        Each row's true reward (summed in column order) and relative rank ``F_k`` in its group.
    """

    pool: np.ndarray
    offsets: np.ndarray
    nz_cols: np.ndarray
    nz_count: np.ndarray
    score_tree: ScoreTree
    theta_star: np.ndarray
    sorted_rewards: np.ndarray
    row_reward: np.ndarray
    row_rank: np.ndarray


def _true_rewards(pool: np.ndarray, theta_star: np.ndarray, sorted_rewards: np.ndarray, offsets: np.ndarray):
    """Each row's true reward, summed in column order, and its group CDF value F_k(reward)."""
    # Each row's true reward, summed in column order (``r = 0; r += x_j theta*_j`` for j = 0, 1, ...,
    # elementwise over the rows: the value a loop over the row gives), and its group CDF value F_k(reward).
    reward = np.zeros(pool.shape[0])
    for j in range(pool.shape[1]):
        reward = reward + pool[:, j] * theta_star[j]
    rank = np.zeros(pool.shape[0])
    for k in range(offsets.shape[0] - 1):
        lo, hi = offsets[k], offsets[k + 1]
        rank[lo:hi] = np.searchsorted(sorted_rewards[lo:hi], reward[lo:hi], side="right") / (hi - lo)
    return reward, rank


def _score_tree(index: np.ndarray, value: np.ndarray, offsets: np.ndarray) -> ScoreTree:
    """Build the :class:`ScoreTree` of pools in ELL form ``(index, value)``, shape ``(width, rows)``."""
    width, rows = index.shape
    group = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    bits = value.view(np.int64)  # entries are equal iff their columns and value bits are
    # the distinct entries (column, value bits), and each row's entry numbers
    pairs, entry_of = np.unique(np.stack([index.ravel(), bits.ravel()], axis=1), axis=0, return_inverse=True)
    entry_of = entry_of.reshape(width, rows)
    # sort the rows by (group, entry 0, entry 1, ...): lexsort's last key is the primary one
    order = np.lexsort([entry_of[q] for q in range(width - 1, -1, -1)] + [group])
    new = np.ones(rows, dtype=bool)  # the sorted row starts a new node at the current level
    new[1:] = group[order][1:] != group[order][:-1]
    node_of_row = np.zeros(rows, dtype=np.int64)  # node of each sorted row, within its level
    parent, entry, level_offsets = [], [], [0]
    for q in range(width):
        e = entry_of[q, order]
        new = new.copy()
        new[1:] |= e[1:] != e[:-1]
        parent.append(node_of_row[new] if q > 0 else np.zeros(int(new.sum()), dtype=np.int64))
        entry.append(e[new])
        node_of_row = np.cumsum(new) - 1
        level_offsets.append(level_offsets[-1] + int(new.sum()))
    row_leaf = np.empty(rows, dtype=np.int64)
    row_leaf[order] = node_of_row
    unary = np.array(
        [
            q > 0 and np.array_equal(parent[q], np.arange(len(parent[q]))) and len(parent[q]) == len(parent[q - 1])
            for q in range(width)
        ]
    )
    leaf_group = group[order][new]  # the group of each leaf, in leaf order
    return ScoreTree(
        np.concatenate(parent).astype(np.uint32),
        np.concatenate(entry).astype(np.uint32),
        np.ascontiguousarray(pairs[:, 0], dtype=np.int64),
        np.ascontiguousarray(pairs[:, 1]).view(np.float64),
        np.asarray(level_offsets, dtype=np.int64),
        unary,
        row_leaf,
        np.searchsorted(leaf_group, np.arange(len(offsets)), side="left").astype(np.int64),
    )


@dataclasses.dataclass(frozen=True, eq=False)
class HiringEnvironment:
    """Contextual hiring (``grazzi2022group``; ``an2025privatefairgreedy``, Section 3).

    Each round one candidate ``X_{k,t}`` per group's pool; the hire pays ``<X_{k_t,t}, theta*> + eta_t``,
    ``eta_t ~ N(0, noise_sd^2)``.

    Parameters
    ----------
    pools : tuple of numpy.ndarray
        One ``(n_k, d)`` array per group, at least 2 groups.
    theta_star : numpy.ndarray, shape (d,)
    noise_sd : float > 0
    name : str
    """

    pools: tuple
    theta_star: np.ndarray
    noise_sd: float = 0.1
    name: str = "hiring"

    def __post_init__(self) -> None:
        check_positive("noise_sd", self.noise_sd)
        if not isinstance(self.pools, (tuple, list)):
            raise ValueError(
                f"pools must be a tuple of (n_k, d) arrays (one per group), got {type(self.pools).__name__}"
            )
        if len(self.pools) < 2:
            raise ValueError("pools must hold at least 2 groups")
        d = check_finite_array("theta_star", self.theta_star, ndim=1).size
        for k, pool in enumerate(self.pools):
            shape = check_finite_array(f"pools[{k}]", pool, ndim=2).shape
            if shape[0] == 0 or shape[1] != d:
                raise ValueError(f"pools[{k}] must have shape (n_k >= 1, d = {d}) (d of theta_star), got {shape}")

    @classmethod
    def from_census(cls, data, noise_sd: float = 0.1) -> HiringEnvironment:
        """The environment of a :func:`privbandits.data.load_census_hiring` dataset, named ``"census-<source>"``.

        Parameters
        ----------
        data : CensusHiringData
        noise_sd : float > 0

        Returns
        -------
        HiringEnvironment
        """
        return cls(tuple(data.pools), np.asarray(data.theta_star, float), noise_sd, f"census-{data.source}")

    # The arrays below are derived from the pools once per environment and reused by every run
    # (the pools are not to be modified in place after the environment is built).
    @functools.cached_property
    def _pool(self) -> np.ndarray:
        """The stacked pools, one row per candidate, group by group."""
        return np.ascontiguousarray(np.vstack(self.pools), dtype=float)

    @functools.cached_property
    def _kernel_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        pool = self._pool
        offsets = np.zeros(len(self.pools) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(p) for p in self.pools])
        rewards = pool @ self.theta_star
        sorted_rewards = np.concatenate([np.sort(rewards[offsets[k] : offsets[k + 1]]) for k in range(len(self.pools))])
        return pool, offsets, np.ascontiguousarray(self.theta_star, dtype=float), sorted_rewards

    def kernel_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(pool, offsets, theta_star, sorted_rewards)`` of :class:`HiringArrays`.

        Returns
        -------
        tuple of numpy.ndarray
        """
        return self._kernel_args

    def arrays(self) -> HiringArrays:
        """Everything a kernel reads, computed once per environment.

        Returns
        -------
        HiringArrays
        """
        return self._arrays

    @functools.cached_property
    def _arrays(self) -> HiringArrays:
        pool, offsets, theta_star, sorted_rewards = self._kernel_args
        index, value = self._sparse_pool
        nz_count = (pool != 0).sum(axis=1).astype(np.int64)
        nz_cols = np.ascontiguousarray(index.T)
        row_reward, row_rank = _true_rewards(pool, theta_star, sorted_rewards, offsets)
        tree = _score_tree(index, value, offsets)
        return HiringArrays(pool, offsets, nz_cols, nz_count, tree, theta_star, sorted_rewards, row_reward, row_rank)

    @functools.cached_property
    def _sparse_pool(self) -> tuple[np.ndarray, np.ndarray]:
        pool = self._pool
        nz = pool != 0
        width = max(int(nz.sum(axis=1).max()), 1)
        index = np.zeros((width, pool.shape[0]), dtype=np.int64)
        value = np.zeros((width, pool.shape[0]))
        rows, cols = np.nonzero(nz)  # row-major: the columns of each row in increasing order
        starts = np.concatenate([[0], np.cumsum(nz.sum(axis=1))[:-1]])
        slot = np.arange(len(rows)) - starts[rows]
        index[slot, rows] = cols
        value[slot, rows] = pool[rows, cols]
        return index, value

    def sparse_pool(self) -> tuple[np.ndarray, np.ndarray]:
        """The stacked pools in ELL form, zero-padded (census rows: 11 non-zeros of 104).

        Returns
        -------
        index, value : numpy.ndarray
            Column indices (int64) and values, shape (max non-zeros per row, rows).
        """
        return self._sparse_pool

    def l_tilde(self, rule: str = "sum") -> float:
        """A bound L-tilde on the regression's leaf ``[x, y]`` (rewards clipped at ``y_clip()``), read from the data.

        Reading the data is a release that ``an2025privatefairgreedy``'s analysis does not account for, as it admits.

        Parameters
        ----------
        rule : {"sum", "norm", "data"}
            ``max ||x|| + y_clip`` (Theorem 5.1's ``||X|| + |y| <= L``); ``sqrt(max ||x||^2 + y_clip^2)``
            (Section 4.1); or the authors' code's max over rows of ``sqrt(||x||^2 + <x, theta*>^2)``
            (``data.py``), which noisy rewards can exceed, voiding the guarantee.

        Returns
        -------
        float
        """
        check_l_tilde_rule(rule)
        x_norm_max, data_max = self._leaf_norms
        if rule == "sum":
            return float(x_norm_max + self.y_clip())
        if rule == "norm":
            return float(math.hypot(x_norm_max, self.y_clip()))
        return data_max

    @functools.cached_property
    def _leaf_norms(self) -> tuple[float, float]:
        """max ||x|| over the pool rows, and max sqrt(||x||^2 + <x, theta*>^2) (computed once)."""
        x_norm = np.linalg.norm(self._pool, axis=1)
        rewards = self._pool @ self.theta_star
        return x_norm.max(), float(np.sqrt(x_norm**2 + rewards**2).max())

    def y_clip(self) -> float:
        """Clip level of observed rewards in the private regression: max ``|true reward|`` + 3 noise_sd.

        Returns
        -------
        float
        """
        return float(np.abs(self._kernel_args[3]).max() + 3 * self.noise_sd)

    def spec(self) -> dict[str, Any]:
        """JSON-able identity for cache keys: name, :meth:`fingerprint`, ``noise_sd``.

        Returns
        -------
        dict
        """
        return {"name": self.name, "fingerprint": self.fingerprint(), "noise_sd": self.noise_sd}

    def fingerprint(self) -> str:
        """First 16 hex digits of a SHA-256 of the pools and ``theta_star``.

        Returns
        -------
        str
        """
        h = hashlib.sha256()
        for p in self.pools:
            h.update(np.ascontiguousarray(p).tobytes())
        h.update(np.asarray(self.theta_star).tobytes())
        return h.hexdigest()[:16]
