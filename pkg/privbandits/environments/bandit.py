"""Stochastic bandit instances: ``K`` arms, each a reward law on [0, 1], with exact (log) means.

Kernels draw with :func:`draw_reward` and :func:`draw_reward_sum`, or read a fixed reward table
``table[t, arm]`` (a *dataset* in the sense of differential privacy, as the auditor uses it).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit
from numba.np.random.distributions import random_beta
from numba.np.random.generator_core import next_double

from .._validation import check_bool, check_finite_array, check_int, check_unit_interval_array

__all__ = [
    "BERNOULLI",
    "BETA",
    "TWO_POINT",
    "UNIFORM",
    "BanditInstance",
    "bernoulli_instance",
    "beta_instance",
    "two_point_instance",
    "uniform_instance",
    "mixed_instance",
    "draw_reward",
    "draw_reward_sum",
]

#: Kind codes (used inside numba kernels). Parameters per kind, in ``params[arm, :3]``:
BERNOULLI = 0  #: reward 1 with probability p, else 0; parameters (p, -, -)
BETA = 1  #: Beta(a, b); parameters (a, b, -)
TWO_POINT = 2  #: reward ``high`` with probability p, else ``low``; parameters (low, high, p)
UNIFORM = 3  #: Uniform(low, high); parameters (low, high, -)

_KIND_NAMES = {BERNOULLI: "Bernoulli", BETA: "Beta", TWO_POINT: "two-point", UNIFORM: "uniform"}


def _kind_mean(kind: int, p: np.ndarray) -> float:
    """The mean of an arm of kind ``kind`` with parameters ``p``."""
    if kind == BERNOULLI:
        return float(p[0])
    if kind == BETA:
        return float(p[0] / (p[0] + p[1]))
    if kind == TWO_POINT:
        return float(p[0] + p[2] * (p[1] - p[0]))
    if kind == UNIFORM:
        return float((p[0] + p[1]) / 2.0)
    raise ValueError(f"unknown arm kind {kind}; allowed: {sorted(_KIND_NAMES)}")


def _check_kind_params(arm: int, kind: int, p: np.ndarray) -> None:
    """``ValueError`` naming the arm unless ``p`` are valid parameters of ``kind``."""
    where = f"params[{arm}] (arm {arm}, {_KIND_NAMES.get(kind, kind)})"
    if kind == BERNOULLI:
        if not 0.0 <= p[0] <= 1.0:
            raise ValueError(f"{where}: p must lie in [0, 1], got {p[0]}")
    elif kind == BETA:
        if not (p[0] > 0 and p[1] > 0):
            raise ValueError(f"{where}: a and b must be > 0, got {p[0]}, {p[1]}")
    elif kind in (TWO_POINT, UNIFORM):
        if not 0.0 <= p[0] <= p[1] <= 1.0:
            raise ValueError(f"{where}: need 0 <= low <= high <= 1, got {p[0]}, {p[1]}")
        if kind == TWO_POINT and not 0.0 <= p[2] <= 1.0:
            raise ValueError(f"{where}: p_high must lie in [0, 1], got {p[2]}")
    else:
        raise ValueError(f"kinds[{arm}] = {kind} is not an arm kind; allowed: {sorted(_KIND_NAMES)}")


@dataclass(frozen=True, eq=False)
class BanditInstance:
    """A stochastic ``K``-armed bandit with rewards in [0, 1]; build one with :func:`bernoulli_instance` and friends.

    Parameters
    ----------
    kinds : numpy.ndarray, shape (K,), K >= 2
        Kind codes (:data:`BERNOULLI`, :data:`BETA`, :data:`TWO_POINT`, :data:`UNIFORM`).
    params : numpy.ndarray, shape (K, 3)
    log_means : numpy.ndarray, shape (K,), in [-inf, 0]
        The authority on the means (``means`` is its exponential).
    name : str
        Part of the cache key.
    table : numpy.ndarray, shape (horizon, K), in [0, 1]
        If not empty, read instead of sampling.
    """

    kinds: np.ndarray
    params: np.ndarray
    log_means: np.ndarray
    name: str = ""
    table: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    def __post_init__(self) -> None:
        kinds = np.ascontiguousarray(self.kinds, dtype=np.int64)
        params = np.ascontiguousarray(check_finite_array("params", self.params, ndim=2), dtype=np.float64)
        log_means = np.asarray(self.log_means, dtype=np.float64)
        if kinds.ndim != 1 or kinds.size < 2:
            raise ValueError(f"kinds must be a 1-d array of K >= 2 arm kinds, got shape {kinds.shape}")
        k = kinds.size
        if params.shape != (k, 3):
            raise ValueError(f"params must have shape (K, 3) = ({k}, 3), got {params.shape}")
        if log_means.shape != (k,) or np.any(np.isnan(log_means)) or np.any(log_means > 0):
            raise ValueError("log_means must be K values in [-inf, 0] (log of means in [0, 1])")
        for arm in range(k):
            _check_kind_params(arm, int(kinds[arm]), params[arm])
        table = np.ascontiguousarray(self.table, dtype=np.float64)
        if table.size:
            check_unit_interval_array("table", table, ndim=2)
            if table.shape[1] != k:
                raise ValueError(f"table must have shape (horizon, K={k}), got {table.shape}")
        else:
            table = np.zeros((0, k))
        for attr, value in (("kinds", kinds), ("params", params), ("log_means", log_means), ("table", table)):
            value.setflags(write=False)
            object.__setattr__(self, attr, value)

    @property
    def n_arms(self) -> int:
        """Number of arms ``K``."""
        return int(self.kinds.size)

    @property
    def means(self) -> np.ndarray:
        """Arm means (may contain exact zeros where a mean underflows; see ``log_means``)."""
        return np.exp(self.log_means)

    @property
    def best_arm(self) -> int:
        """Index of an arm of largest mean (the first one)."""
        return int(np.argmax(self.log_means))

    @property
    def log_best_mean(self) -> float:
        """``log mu*``, the largest log mean."""
        return float(self.log_means.max())

    @property
    def best_mean(self) -> float:
        """``mu*``, the largest mean."""
        return float(np.exp(self.log_best_mean))

    @property
    def gaps(self) -> np.ndarray:
        """Suboptimality gaps ``mu* - mu_a``."""
        return self.best_mean - self.means

    def kernel_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(kinds, params, table)``: what a numba kernel needs to draw rewards.

        Returns
        -------
        tuple of numpy.ndarray
        """
        return self.kinds, self.params, self.table

    def with_table(self, table: np.ndarray) -> BanditInstance:
        """The same arms, with rewards read from ``table[t, arm]``.

        Parameters
        ----------
        table : numpy.ndarray, shape (horizon, K), in [0, 1]

        Returns
        -------
        BanditInstance
        """
        return BanditInstance(self.kinds, self.params, self.log_means, self.name, np.asarray(table))

    def reward_table(self, horizon: int, rng: np.random.Generator) -> np.ndarray:
        """A table of independent rewards, shape ``(horizon, K)``.

        Parameters
        ----------
        horizon : int >= 1
        rng : numpy.random.Generator

        Returns
        -------
        numpy.ndarray
        """
        horizon = check_int("horizon", horizon, minimum=1)
        return _draw_table(rng, self.kinds, self.params, horizon)

    def sample(self, arm: int, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` independent rewards of one arm.

        Parameters
        ----------
        arm : int in [0, K - 1]
        size : int >= 0
        rng : numpy.random.Generator

        Returns
        -------
        numpy.ndarray
        """
        arm = check_int("arm", arm, minimum=0, maximum=self.n_arms - 1)
        size = check_int("size", size, minimum=0)
        return _draw_table(rng, self.kinds[arm : arm + 1], self.params[arm : arm + 1], size)[:, 0]

    def spec(self) -> dict[str, Any]:
        """JSON-able identity for cache keys: name, kinds, parameters, log means, and the table's SHA-256 if any.

        Returns
        -------
        dict
        """
        spec: dict[str, Any] = {
            "name": self.name,
            "kinds": self.kinds.tolist(),
            "params": self.params.tolist(),
            "log_means": [float(v) for v in self.log_means],
        }
        if self.table.shape[0]:
            spec["table_sha256"] = hashlib.sha256(self.table.tobytes()).hexdigest()
        return spec

    def __repr__(self) -> str:
        kinds = sorted({_KIND_NAMES[int(k)] for k in self.kinds})
        label = f"{self.name!r}, " if self.name else ""
        return f"BanditInstance({label}K={self.n_arms}, kinds={kinds}, best mean={self.best_mean:.4g})"


def _arms(name: str, values: Any, *, unit: bool = False) -> np.ndarray:
    """One value per arm: a 1-d float array of K >= 2 finite values (in [0, 1] if ``unit``), checked by ``name``."""
    array = (check_unit_interval_array if unit else check_finite_array)(name, values, ndim=1)
    if array.size < 2:
        raise ValueError(
            f"{name} must hold one value per arm, K >= 2 of them (a bandit needs two arms), got {array.size}"
        )
    return array


def _instance(kinds: np.ndarray, params: np.ndarray, name: str) -> BanditInstance:
    params = np.asarray(params, dtype=float)
    for arm in range(len(kinds)):
        _check_kind_params(arm, int(kinds[arm]), params[arm])
    with np.errstate(divide="ignore"):
        log_means = np.log([_kind_mean(int(k), p) for k, p in zip(kinds, params)])
    return BanditInstance(np.asarray(kinds), params, log_means, name)


def _per_arm_instance(kind: int, name: str, **per_arm: Any) -> BanditInstance:
    """Arms of one ``kind`` whose parameters (``params`` columns, in order) are given one value per arm."""
    arrays = [_arms(n, v) for n, v in per_arm.items()]
    if len({a.shape for a in arrays}) != 1:
        shapes = " and ".join(str(a.shape) for a in arrays)
        raise ValueError(f"{' and '.join(per_arm)} must have the same shape, got {shapes}")
    params = np.zeros((arrays[0].size, 3))
    params[:, : len(arrays)] = np.stack(arrays, axis=1)
    return _instance(np.full(arrays[0].size, kind), params, name)


def bernoulli_instance(means: Any = None, *, log_means: Any = None, name: str = "") -> BanditInstance:
    """Bernoulli arms from means, or from log means where a mean underflows (Nash regret uses the exact logs).

    Parameters
    ----------
    means : array_like, shape (K,), K >= 2, in [0, 1], or None
    log_means : array_like, shape (K,), finite, <= 0, or None
        Give exactly one of the two.
    name : str

    Returns
    -------
    BanditInstance
    """
    if (means is None) == (log_means is None):
        raise ValueError("give exactly one of means and log_means")
    if log_means is not None:
        logs = _arms("log_means", log_means)
        if np.any(logs > 0):
            raise ValueError("log_means must be <= 0 (means in [0, 1])")
        means_arr = np.exp(logs)
    else:
        means_arr = _arms("means", means, unit=True)
        with np.errstate(divide="ignore"):
            logs = np.log(means_arr)
    k = means_arr.size
    params = np.zeros((k, 3))
    params[:, 0] = means_arr
    return BanditInstance(np.full(k, BERNOULLI), params, logs, name)


def beta_instance(a: Any, b: Any, *, name: str = "") -> BanditInstance:
    """Beta(a_i, b_i) arms.

    Parameters
    ----------
    a, b : array_like, shape (K,), > 0
    name : str

    Returns
    -------
    BanditInstance
    """
    return _per_arm_instance(BETA, name, a=a, b=b)


def two_point_instance(low: Any, high: Any, p_high: Any, *, name: str = "") -> BanditInstance:
    """Arms worth ``high`` with probability ``p_high``, else ``low``.

    Parameters
    ----------
    low, high : array_like, shape (K,), 0 <= low <= high <= 1
    p_high : array_like, shape (K,), in [0, 1]
    name : str

    Returns
    -------
    BanditInstance
    """
    return _per_arm_instance(TWO_POINT, name, low=low, high=high, p_high=p_high)


def uniform_instance(low: Any, high: Any, *, name: str = "") -> BanditInstance:
    """Uniform(low_i, high_i) arms.

    Parameters
    ----------
    low, high : array_like, shape (K,), 0 <= low <= high <= 1
    name : str

    Returns
    -------
    BanditInstance
    """
    return _per_arm_instance(UNIFORM, name, low=low, high=high)


def mixed_instance(means: Any, *, match_means: bool = True, name: str = "mixed") -> BanditInstance:
    """The heterogeneous instance of ``sarkar2026dpncb``, Figure 1(f): each arm's law chosen by its mean.

    Bernoulli for ``mu >= 0.75``, Beta on ``[0.5, 0.75)``, two-point on ``[0.25, 0.5)``, uniform below.

    Parameters
    ----------
    means : array_like, shape (K,), in [0, 1]
    match_means : bool
        Rescale each law to mean ``mu`` (Beta(5 mu, 5 (1 - mu)), {0.4 s, s} with s = mu / 0.7, Uniform(0,
        2 mu)); ``False``: the laws as printed (Beta(4, 1), {0.4, 1}, Uniform(0, 1)), whose means differ.
    name : str

    Returns
    -------
    BanditInstance
    """
    mu = _arms("means", means, unit=True)
    match_means = check_bool("match_means", match_means)
    k = mu.size
    kinds = np.empty(k, dtype=np.int64)
    params = np.zeros((k, 3))
    for i, m in enumerate(mu):
        if m >= 0.75:
            kinds[i], params[i] = BERNOULLI, (m, 0.0, 0.0)
        elif m >= 0.5:
            kinds[i] = BETA
            params[i] = (5.0 * m, 5.0 * (1.0 - m), 0.0) if match_means else (4.0, 1.0, 0.0)
        elif m >= 0.25:
            kinds[i] = TWO_POINT
            scale = m / 0.7 if match_means else 1.0
            params[i] = (0.4 * scale, scale, 0.5)
        else:
            kinds[i] = UNIFORM
            params[i] = (0.0, 2.0 * m, 0.0) if match_means else (0.0, 1.0, 0.0)
    return _instance(kinds, params, name)


# --------------------------------------------------------------------------------------------
# numba samplers, called from the policies' kernels
# --------------------------------------------------------------------------------------------


# The draws are made from the generator's bit generator (``rng.bit_generator``) with numba's own
# functions for rng.random() and rng.beta(a, b) (``next_double`` and ``random_beta``, which those methods
# call on it): the same numbers from the same stream. draw_reward reads the arm's kind and parameters and
# the bit generator before it branches, and passes no function the generator or an array: its
# arguments are then last used in one straight-line block, where numba removes the atomic reference-count
# updates (an increment and a decrement per array and per generator) that its inlining puts around every
# draw; left in the branches, they cost most of a round of Part I's and Part II's kernels (UCB on two arms
# 70 -> 27 ns per round; benchmarks/README.md, session 19). The Bernoulli draw is written out in it, the
# other laws are a call (not inlined: inlined, they added ~0.5 CPU s to the compilation of every kernel).
@njit(nogil=True, cache=True)
def _draw_bits(bits, kind, p0, p1, p2):  # pragma: no cover - compiled
    """A reward of the law ``kind`` with parameters ``(p0, p1, p2)`` from the bit generator ``bits``."""
    if kind == BERNOULLI:
        return 1.0 if np.float64(next_double(bits)) < p0 else 0.0  # rng.random() < p
    if kind == BETA:
        return random_beta(bits, p0, p1)  # rng.beta(a, b)
    if kind == TWO_POINT:
        return p1 if np.float64(next_double(bits)) < p2 else p0
    return p0 + (p1 - p0) * np.float64(next_double(bits))


@njit(nogil=True, cache=True)
def _draw_one(rng, kind, p):  # pragma: no cover - compiled
    return _draw_bits(rng.bit_generator, kind, p[0], p[1], p[2])


@njit(nogil=True, cache=True, inline="always")
def draw_reward(rng, kinds, params, table, t, arm):  # pragma: no cover - compiled
    """Reward of ``arm`` at round ``t`` (0-based): ``table[t, arm]`` if given, else a draw (compiled, unchecked).

    Parameters
    ----------
    rng : numpy.random.Generator
    kinds, params, table : numpy.ndarray
        From :meth:`BanditInstance.kernel_args`.
    t, arm : int
    """
    kind, p0, p1, p2 = kinds[arm], params[arm, 0], params[arm, 1], params[arm, 2]
    bits = rng.bit_generator
    if table.shape[0] > 0:
        return table[t, arm]
    if kind == BERNOULLI:
        return 1.0 if np.float64(next_double(bits)) < p0 else 0.0  # rng.random() < p
    return _draw_bits(bits, kind, p0, p1, p2)


@njit(nogil=True, cache=True)
def draw_reward_sum(rng, kinds, params, table, t, arm, n):  # pragma: no cover - compiled
    """Sum of ``n`` rewards of ``arm`` from round ``t``; O(1) for a Bernoulli arm (compiled, unchecked).

    Parameters
    ----------
    rng : numpy.random.Generator
    kinds, params, table : numpy.ndarray
    t, arm, n : int
    """
    if table.shape[0] > 0:
        s = 0.0
        for u in range(t, t + n):
            s += table[u, arm]
        return s
    if kinds[arm] == BERNOULLI:
        return float(rng.binomial(n, params[arm, 0]))
    s = 0.0
    for _ in range(n):
        s += _draw_one(rng, kinds[arm], params[arm])
    return s


@njit(nogil=True, cache=True)
def _draw_table(rng, kinds, params, horizon):  # pragma: no cover - compiled
    k = kinds.shape[0]
    out = np.empty((horizon, k))
    for t in range(horizon):
        for a in range(k):
            out[t, a] = _draw_one(rng, kinds[a], params[a])
    return out
