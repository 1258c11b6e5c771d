"""The hiring environment of Part IV: per-group candidate pools and a true reward vector.

Setting (``grazzi2022group``; ``an2025privatefairgreedy``, Section 3): in every round one candidate
``X_{k,t}`` is drawn from each of the K groups' pools; the hired candidate's reward is
``<X_{k_t,t}, theta*> + eta_t``, ``eta_t ~ N(0, noise_sd^2)``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
from typing import NamedTuple

import numpy as np

from ..._validation import check_positive

__all__ = ["HiringEnvironment", "HiringArrays", "L_TILDE_RULES"]

#: How :meth:`HiringEnvironment.l_tilde` bounds the regression's leaves (see there)
L_TILDE_RULES = ("sum", "norm", "data")


def check_l_tilde_rule(rule: str) -> str:
    """Raise ``ValueError`` unless ``rule`` is one of :data:`L_TILDE_RULES`; return it.

    Parameters
    ----------
    rule : str
        The value of ``l_tilde_rule`` to check.

    Returns
    -------
    str
        ``rule``.

    Raises
    ------
    ValueError
        If ``rule`` is not ``"sum"``, ``"norm"`` or ``"data"``.
    """
    if rule not in L_TILDE_RULES:
        raise ValueError(f"l_tilde_rule must be 'sum', 'norm' or 'data', got {rule!r}")
    return rule


class HiringArrays(NamedTuple):
    """The environment as the kernels read it (:meth:`HiringEnvironment.arrays`).

    Attributes
    ----------
    pool : numpy.ndarray
        The stacked pools, one row per candidate, group by group, shape ``(rows, d)``.
    offsets : numpy.ndarray
        Where each group's rows start, shape ``(K + 1,)``.
    ell_index : numpy.ndarray
        The pools in ELL form: column indices, shape ``(max non-zeros per row, rows)``.
    ell_value : numpy.ndarray
        The pools in ELL form: values, same shape as ``ell_index``.
    theta_star : numpy.ndarray
        The true parameter, shape ``(d,)``.
    sorted_rewards : numpy.ndarray
        Each group's true rewards, sorted (its CDF), concatenated group by group.
    """

    #: the stacked pools, one row per candidate, group by group, shape (rows, d)
    pool: np.ndarray
    #: where each group's rows start, shape (K + 1,)
    offsets: np.ndarray
    #: the pools in ELL form: column indices and values, shape (max non-zeros per row, rows)
    ell_index: np.ndarray
    ell_value: np.ndarray
    #: the true parameter, shape (d,)
    theta_star: np.ndarray
    #: each group's true rewards, sorted (its CDF), concatenated group by group
    sorted_rewards: np.ndarray


@dataclasses.dataclass(frozen=True, eq=False)
class HiringEnvironment:
    """Contextual hiring environment: per-group candidate pools and a true reward vector.

    Parameters
    ----------
    pools : tuple of numpy.ndarray
        One ``(n_k, d)`` array of candidates per group (at least 2 groups).
    theta_star : numpy.ndarray
        The true parameter, shape ``(d,)``.
    noise_sd : float
        Standard deviation of the reward noise (> 0).
    name : str
        A label.

    Raises
    ------
    ValueError
        If ``noise_sd`` is not > 0 or ``pools`` holds fewer than 2 groups.
    """

    pools: tuple
    theta_star: np.ndarray
    noise_sd: float = 0.1
    name: str = "hiring"

    def __post_init__(self) -> None:
        check_positive("noise_sd", self.noise_sd)
        if len(self.pools) < 2:
            raise ValueError("pools must hold at least 2 groups")

    @classmethod
    def from_census(cls, data, noise_sd: float = 0.1) -> HiringEnvironment:
        """The environment of a :func:`privbandits.data.load_census_hiring` dataset.

        Parameters
        ----------
        data : CensusHiringData
            The preprocessed census instance (its ``pools``, ``theta_star`` and ``source``).
        noise_sd : float
            Standard deviation of the reward noise (> 0).

        Returns
        -------
        HiringEnvironment
            Named ``"census-<source>"``.

        Raises
        ------
        ValueError
            If ``noise_sd`` is not > 0.
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
        """The dense arrays a kernel reads, computed once per environment.

        Returns
        -------
        tuple of numpy.ndarray
            ``(pool, offsets, theta_star, sorted_rewards)``: the stacked pools, where each group's
            rows start, the true parameter and each group's sorted true rewards (its CDF).
        """
        return self._kernel_args

    def arrays(self) -> HiringArrays:
        """Everything a kernel reads, as one :class:`HiringArrays`.

        Returns
        -------
        HiringArrays
            The dense and ELL forms of the pools, the true parameter and the sorted rewards.
        """
        pool, offsets, theta_star, sorted_rewards = self._kernel_args
        ell_index, ell_value = self._sparse_pool
        return HiringArrays(pool, offsets, ell_index, ell_value, theta_star, sorted_rewards)

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
        """The stacked pools in ELL form ``(index, value)``, zero-padded.

        One-hot census rows have 11 non-zeros out of d = 104, so re-scoring the whole pool costs
        11 multiply-adds per row.

        Returns
        -------
        index : numpy.ndarray
            int64 column indices, shape (max non-zeros per row, rows).
        value : numpy.ndarray
            The matching values, same shape.
        """
        return self._sparse_pool

    def l_tilde(self, rule: str = "sum") -> float:
        """A bound L-tilde on the leaf vector [x, y] of the regression, computed FROM THE DATA.

        A release the analysis of ``an2025privatefairgreedy`` does not account for, as it admits.
        Rewards enter the tree clipped to ``[-y_clip(), y_clip()]``.

        * ``"sum"`` (the book's default): max ||x|| + y_clip, the hypothesis ||X|| + |y| <= L of
          Theorem 5.1.  Every clipped leaf of every pool row satisfies it.
        * ``"norm"``: sqrt(max ||x||^2 + y_clip^2), a bound on the norm of [x, y] as the calibration
          text of Section 4.1 says; the sensitivity bound sqrt(2) L^2 of :func:`tree_rho` needs no
          more, and every clipped leaf satisfies it.
        * ``"data"``: max over pool rows of sqrt(||x||^2 + <x, theta*>^2), the rule of the authors'
          experiment code (DP-GMFBandits, ``data.py``, ``load_adult``: the max of
          sqrt(||x||^2 + y^2) over the dataset's (x, y)).  Observed rewards carry noise, so a leaf
          can exceed it: Theorem 5.1's hypothesis then fails and the guarantee does not hold.

        Parameters
        ----------
        rule : {"sum", "norm", "data"}
            Which bound (see above).

        Returns
        -------
        float
            L-tilde.

        Raises
        ------
        ValueError
            If ``rule`` is not one of :data:`L_TILDE_RULES`.
        """
        check_l_tilde_rule(rule)
        x_norm = np.linalg.norm(self._pool, axis=1)
        if rule == "sum":
            return float(x_norm.max() + self.y_clip())
        if rule == "norm":
            return float(math.hypot(x_norm.max(), self.y_clip()))
        rewards = self._pool @ self.theta_star
        return float(np.sqrt(x_norm**2 + rewards**2).max())

    def y_clip(self) -> float:
        """Clip level of observed rewards in the private regression: max |true reward| + 3 noise_sd.

        Returns
        -------
        float
            The clip level.
        """
        return float(np.abs(self._kernel_args[3]).max() + 3 * self.noise_sd)

    def fingerprint(self) -> str:
        """First 16 hex digits of a SHA-256 of the pools and ``theta_star`` (for cache keys).

        Returns
        -------
        str
            16 hexadecimal digits.
        """
        h = hashlib.sha256()
        for p in self.pools:
            h.update(np.ascontiguousarray(p).tobytes())
        h.update(np.asarray(self.theta_star).tobytes())
        return h.hexdigest()[:16]
