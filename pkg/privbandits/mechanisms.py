"""Privacy mechanisms: one-shot mechanisms, Gaussian accounting (``dp-accounting``), continual counters
(numba state machines and checked classes) and their error bounds. Compiled functions do not validate.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit
from numba.np.random.distributions import random_laplace

from ._validation import (
    check_delta,
    check_epsilon,
    check_finite_array,
    check_int,
    check_positive,
    check_probability,
    check_rng,
    check_unit_interval_array,
)

__all__ = [
    "laplace_mechanism",
    "gaussian_mechanism",
    "gaussian_sigma",
    "gaussian_sigma_zcdp",
    "zcdp_to_approx_dp",
    "approx_dp_to_zcdp",
    "gaussian_composition_multiplier",
    "gaussian_composition_epsilon",
    "gaussian_noise_multiplier",
    "randomized_response",
    "privbern",
    "privbern_mean",
    "privbern_draw",
    "laplace_draw",
    "BinaryTreeCounter",
    "HybridCounter",
    "binary_tree_prefix_sums",
    "hybrid_prefix_sums",
    "binary_counter_state",
    "binary_counter_states",
    "binary_counter_insert",
    "binary_counter_levels",
    "binary_counter_terms",
    "hybrid_counter_state",
    "hybrid_counter_states",
    "hybrid_counter_insert",
    "laplace_sum_tail_bound",
    "laplace_iid_sum_tail_bound",
    "binary_counter_error_bound",
    "hybrid_counter_error_bound",
    "tossou_hybrid_error_bound",
]


# --------------------------------------------------------------------------------------------
# One-shot mechanisms
# --------------------------------------------------------------------------------------------


def laplace_mechanism(value: Any, sensitivity: float, epsilon: float, rng: np.random.Generator) -> np.ndarray | float:
    """Release ``value + Lap(sensitivity / epsilon)`` per entry: epsilon-DP (``dwork2006calibrating``).

    Parameters
    ----------
    value : array_like or float, finite
    sensitivity : float > 0
        L1 sensitivity.
    epsilon : float > 0
    rng : numpy.random.Generator

    Returns
    -------
    numpy.ndarray or float
    """
    sensitivity = check_positive("sensitivity", sensitivity)
    epsilon = check_epsilon(epsilon)
    check_rng(rng)
    value_arr = check_finite_array("value", value)
    out = value_arr + rng.laplace(0.0, sensitivity / epsilon, size=value_arr.shape)
    return float(out) if out.ndim == 0 else out


def laplace_logcdf(x: Any, scale: float) -> np.ndarray:
    """``ln P[Lap(scale) <= x]``, without underflow in the left tail.

    Parameters
    ----------
    x : array_like
    scale : float > 0

    Returns
    -------
    numpy.ndarray
    """
    if not (isinstance(scale, (int, float)) and math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must lie in (0, inf), got {scale!r}")
    z = np.asarray(x, dtype=float) / scale
    return np.where(z < 0, math.log(0.5) + np.minimum(z, 0.0), np.log1p(-0.5 * np.exp(-np.maximum(z, 0.0))))


def gaussian_sigma(sensitivity: float, epsilon: float, delta: float) -> float:
    """``sigma = sensitivity sqrt(2 ln(1.25/delta)) / eps``: (eps, delta)-DP if eps < 1 (``dwork2014algorithmic``).

    Parameters
    ----------
    sensitivity : float > 0
        L2 sensitivity.
    epsilon, delta : float in (0, 1)

    Returns
    -------
    float
    """
    sensitivity = check_positive("sensitivity", sensitivity)
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    if epsilon >= 1.0:
        raise ValueError(
            f"epsilon must lie in (0, 1) for the classical Gaussian calibration, got {epsilon}; "
            "use gaussian_sigma_zcdp(sensitivity, approx_dp_to_zcdp(epsilon, delta)) instead"
        )
    return sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon


def gaussian_sigma_zcdp(sensitivity: float, rho: float) -> float:
    """``sigma = sensitivity / sqrt(2 rho)``: the Gaussian mechanism is rho-zCDP (``bun2016concentrated``, Prop. 1.6).

    Parameters
    ----------
    sensitivity : float > 0
        L2 sensitivity.
    rho : float > 0

    Returns
    -------
    float
    """
    return check_positive("sensitivity", sensitivity) / math.sqrt(2.0 * check_positive("rho", rho))


def zcdp_to_approx_dp(rho: float, delta: float) -> float:
    """epsilon implied by rho-zCDP at ``delta``: ``rho + 2 sqrt(rho ln(1/delta))`` (``bun2016concentrated``, Prop. 1.3).

    Parameters
    ----------
    rho : float > 0
    delta : float in (0, 1)

    Returns
    -------
    float
    """
    rho = check_positive("rho", rho)
    delta = check_delta(delta)
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def approx_dp_to_zcdp(epsilon: float, delta: float) -> float:
    """Largest rho with :func:`zcdp_to_approx_dp` <= epsilon: ``(sqrt(L + eps) - sqrt(L))^2``, ``L = ln(1/delta)``.

    Parameters
    ----------
    epsilon : float > 0
    delta : float in (0, 1)

    Returns
    -------
    float
    """
    epsilon = check_epsilon(epsilon)
    log_term = math.log(1.0 / check_delta(delta))
    return (math.sqrt(log_term + epsilon) - math.sqrt(log_term)) ** 2


def _check_multipliers(noise_multipliers: Any) -> np.ndarray:
    """The noise multipliers as a non-empty 1-D array of finite values > 0."""
    s = np.atleast_1d(np.asarray(noise_multipliers, dtype=float))
    if s.ndim != 1 or s.size == 0 or not np.all(np.isfinite(s)) or np.any(s <= 0):
        raise ValueError(f"noise_multipliers must be a non-empty list of finite values > 0, got {noise_multipliers!r}")
    return s


def gaussian_composition_multiplier(noise_multipliers: Any) -> float:
    """Multiplier ``(sum_i s_i^-2)^(-1/2)`` of the one Gaussian equal to a composition (``dong2022gaussian``, Cor. 3.3).

    Parameters
    ----------
    noise_multipliers : array_like, non-empty, each > 0

    Returns
    -------
    float
    """
    s = _check_multipliers(noise_multipliers)
    return float(1.0 / math.sqrt(float(np.sum(s**-2.0))))


def gaussian_composition_epsilon(noise_multipliers: Any, delta: float, *, accountant: str = "analytic") -> float:
    """Smallest epsilon for which a composition of Gaussian mechanisms is (epsilon, delta)-DP.

    Parameters
    ----------
    noise_multipliers : array_like, non-empty, each > 0
        ``s_i = sigma_i / Delta_i``.
    delta : float in (0, 1)
    accountant : {"analytic", "pld"}
        Exact profile (``balle2018improving``, Theorem 8), or ``dp-accounting``'s PLD accountant (safe side).

    Returns
    -------
    float
    """
    s = _check_multipliers(noise_multipliers)
    delta = check_delta(delta)
    import dp_accounting

    if accountant == "analytic":
        return float(dp_accounting.get_epsilon_gaussian(gaussian_composition_multiplier(s), delta))
    if accountant == "pld":
        from dp_accounting.pld import pld_privacy_accountant

        acc = pld_privacy_accountant.PLDAccountant()
        acc.compose(dp_accounting.ComposedDpEvent([dp_accounting.GaussianDpEvent(float(x)) for x in s]))
        return float(acc.get_epsilon(delta))
    raise ValueError(f"accountant must be 'analytic' or 'pld', got {accountant!r}")


def gaussian_noise_multiplier(epsilon: float, delta: float) -> float:
    """Smallest ``sigma / sensitivity`` that is (epsilon, delta)-DP, any epsilon (``balle2018improving``, Algorithm 1).

    Parameters
    ----------
    epsilon : float > 0
    delta : float in (0, 1)

    Returns
    -------
    float
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    import dp_accounting

    s = float(dp_accounting.get_sigma_gaussian(epsilon, delta))
    while dp_accounting.get_epsilon_gaussian(s, delta) > epsilon:
        s *= 1.0 + 1e-12
    return s


def gaussian_mechanism(value: Any, sensitivity: float, rng: np.random.Generator, *, sigma: float) -> np.ndarray | float:
    """Release ``value + N(0, sigma^2)`` per entry: rho-zCDP with ``rho = sensitivity^2 / (2 sigma^2)``.

    Parameters
    ----------
    value : array_like or float, finite
    sensitivity : float > 0
        L2 sensitivity.
    rng : numpy.random.Generator
    sigma : float > 0
        From :func:`gaussian_sigma` or :func:`gaussian_sigma_zcdp`.

    Returns
    -------
    numpy.ndarray or float
    """
    check_positive("sensitivity", sensitivity)
    sigma = check_positive("sigma", sigma)
    check_rng(rng)
    value_arr = check_finite_array("value", value)
    out = value_arr + rng.normal(0.0, sigma, size=value_arr.shape)
    return float(out) if out.ndim == 0 else out


def randomized_response(bits: Any, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """Keep each bit with probability ``e^eps / (1 + e^eps)``: epsilon-LDP (``warner1965randomized``).

    Parameters
    ----------
    bits : array_like of 0 and 1
    epsilon : float > 0
    rng : numpy.random.Generator

    Returns
    -------
    numpy.ndarray of int8
    """
    epsilon = check_epsilon(epsilon)
    check_rng(rng)
    bits_arr = np.asarray(bits)
    if bits_arr.size and not np.all((bits_arr == 0) | (bits_arr == 1)):
        raise ValueError("bits must be 0 or 1")
    keep = rng.random(bits_arr.shape) < 1.0 / (1.0 + math.exp(-epsilon))
    return np.where(keep, bits_arr, 1 - bits_arr).astype(np.int8)


def privbern_mean(mu: Any, epsilon: float) -> np.ndarray | float:
    """Mean of PrivBern's bit, ``1/2 + (2 mu - 1) tanh(eps/2) / 2`` (``barbara2025thresholding``, Eq. 4).

    Parameters
    ----------
    mu : array_like or float in [0, 1]
    epsilon : float > 0 or inf

    Returns
    -------
    numpy.ndarray or float
    """
    epsilon = check_epsilon(epsilon, allow_inf=True)
    mu_arr = check_unit_interval_array("mu", mu)
    factor = 1.0 if math.isinf(epsilon) else math.tanh(epsilon / 2.0)  # (e^eps - 1)/(e^eps + 1)
    out = 0.5 + (2.0 * mu_arr - 1.0) * factor / 2.0
    return float(out) if out.ndim == 0 else out


def privbern(rewards: Any, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """PrivBern: ``r`` becomes a ``Bernoulli((r e^eps + 1 - r) / (1 + e^eps))`` bit: eps-LDP (``ren2020multi``, L. 5).

    Parameters
    ----------
    rewards : array_like in [0, 1]
    epsilon : float > 0
    rng : numpy.random.Generator

    Returns
    -------
    numpy.ndarray of int8
    """
    epsilon = check_epsilon(epsilon)
    check_rng(rng)
    r = check_unit_interval_array("rewards", rewards)
    p = (r * math.exp(epsilon) + (1.0 - r)) / (1.0 + math.exp(epsilon)) if epsilon < 700 else r
    return (rng.random(r.shape) < p).astype(np.int8)


@njit(nogil=True, cache=True, inline="always")  # inlined: a call in a kernel's loop keeps reference counting there
def privbern_draw(rng, reward, epsilon):  # pragma: no cover - compiled
    """One PrivBern bit (0.0 or 1.0) in a numba kernel; ``epsilon = inf`` gives a Bernoulli(reward) bit.

    Parameters
    ----------
    rng : numpy.random.Generator
    reward : float in [0, 1]
    epsilon : float > 0 or inf
    """
    if np.isinf(epsilon):
        p = reward
    else:
        e = np.exp(-epsilon)  # stable form of (r e^eps + 1 - r) / (1 + e^eps)
        p = (reward + (1.0 - reward) * e) / (1.0 + e)
    return 1.0 if rng.random() < p else 0.0


@njit(nogil=True, cache=True)
def laplace_draw(rng, scale):  # pragma: no cover - compiled
    """One ``Lap(scale)`` draw in a numba kernel; ``scale <= 0`` returns 0 without drawing.

    Parameters
    ----------
    rng : numpy.random.Generator
    scale : float
    """
    # rng.laplace(0.0, scale) is random_laplace on the bit generator: read first, the generator is last used
    # before the branch, where numba removes its reference-count updates (environments.bandit._draw_bits)
    bits = rng.bit_generator
    if scale <= 0.0:
        return 0.0
    return random_laplace(bits, 0.0, scale)


# --------------------------------------------------------------------------------------------
# Continual counting: numba state machines
# --------------------------------------------------------------------------------------------

_LEVELS = 64  # enough for any stream length representable in int64
# binary counter state: [t, current release, alpha_0..alpha_63, alpha_hat_0..alpha_hat_63]
_BIN_SIZE = 2 + 2 * _LEVELS
# hybrid state: [t, log_release, exact_since_power_of_two, k = floor(log2 t), tree state...]
_HYB_SIZE = 4 + _BIN_SIZE


@njit(nogil=True, cache=True)
def _check_count(n):  # pragma: no cover - compiled
    """``ValueError`` unless the count ``n`` (of counters, or of items) is >= 0."""
    if n < 0:
        raise ValueError("n must be an integer >= 0")


@njit(nogil=True, cache=True)
def binary_counter_state():  # pragma: no cover - compiled
    """A fresh binary-mechanism state (a flat float array)."""
    return np.zeros(_BIN_SIZE)


@njit(nogil=True, cache=True)
def binary_counter_states(n):  # pragma: no cover - compiled
    """``n`` fresh binary-mechanism states, one per row (e.g. one counter per arm), for :func:`binary_counter_insert`.

    Each row is an independent counter; its privacy is that of :func:`binary_counter_insert` on
    its own stream (the rows of disjoint streams compose in parallel).

    Parameters
    ----------
    n : int >= 0

    Returns
    -------
    numpy.ndarray, shape (n, state length), float64

    Raises
    ------
    ValueError
        If ``n < 0``.
    """
    _check_count(n)
    return np.zeros((n, _BIN_SIZE))


@njit(nogil=True, cache=True, inline="always")
def _tree_insert(state, offset, x, scale, bits):  # pragma: no cover - compiled
    # Chan, Shi, Song (2011), Algorithm 2: item t goes into the p-sum of its lowest set bit i,
    # which absorbs the exact p-sums of the levels below; only that p-sum gets fresh noise.
    # The release (the noisy p-sums of the set bits of t) is kept up to date incrementally: going
    # from t - 1 to t clears bits 0..i-1 and sets bit i, so the work is amortised O(1) per item.
    # The noise is rng.laplace(0.0, scale), drawn from the generator's bit generator ``bits`` (see laplace_draw).
    t = int(state[offset]) + 1
    state[offset] = t
    alpha = offset + 2
    alpha_hat = offset + 2 + _LEVELS
    i = 0
    while (t >> i) & 1 == 0:
        i += 1
    total = x
    removed = 0.0
    for j in range(i):
        total += state[alpha + j]
        removed += state[alpha_hat + j]
        state[alpha + j] = 0.0
        state[alpha_hat + j] = 0.0
    state[alpha + i] = total
    state[alpha_hat + i] = total + random_laplace(bits, 0.0, scale)
    state[offset + 1] += state[alpha_hat + i] - removed
    return state[offset + 1]


@njit(nogil=True, cache=True, inline="always")
def binary_counter_insert(state, x, scale, rng):  # pragma: no cover - compiled
    """Insert ``x`` into a binary counter (``Lap(scale)`` per p-sum); return the noisy prefix sum, amortised O(1).

    ``scale = (floor(log2 n) + 1) / epsilon`` is epsilon-DP over ``n`` items in [0, 1] (``chan2011private``, Th. 3.5).

    Parameters
    ----------
    state : numpy.ndarray
        From :func:`binary_counter_state`, updated in place.
    x, scale : float
    rng : numpy.random.Generator
    """
    return _tree_insert(state, 0, x, scale, rng.bit_generator)


@njit(nogil=True, cache=True)
def hybrid_counter_state():  # pragma: no cover - compiled
    """A fresh hybrid-mechanism state (a flat float array)."""
    return np.zeros(_HYB_SIZE)


@njit(nogil=True, cache=True)
def hybrid_counter_states(n):  # pragma: no cover - compiled
    """``n`` fresh hybrid-mechanism states for :func:`hybrid_counter_insert`, as :func:`binary_counter_states`.

    Parameters
    ----------
    n : int >= 0

    Returns
    -------
    numpy.ndarray, shape (n, state length), float64
    """
    _check_count(n)
    return np.zeros((n, _HYB_SIZE))


@njit(nogil=True, cache=True, inline="always")
def hybrid_counter_insert(state, x, epsilon_log, epsilon_tree, rng):  # pragma: no cover - compiled
    """Insert ``x`` into a hybrid counter; return the noisy prefix sum (amortised O(1)).

    ``chan2011private``, Section 4: ``Lap(1/epsilon_log)`` at ``t = 2^k``, and a tree over each block with
    ``Lap(k / epsilon_tree)`` per p-sum: ``(epsilon_log + epsilon_tree)``-DP.

    Parameters
    ----------
    state : numpy.ndarray
        From :func:`hybrid_counter_state`, updated in place.
    x, epsilon_log, epsilon_tree : float
    rng : numpy.random.Generator
    """
    # One exit, the state last read after both branches, the generator before them: numba then removes
    # the reference-count updates of both (see laplace_draw); the release is the same as with a return
    # in each branch. rng.laplace(0.0, b) is random_laplace(bits, 0.0, b).
    bits = rng.bit_generator
    t = int(state[0]) + 1
    state[0] = t
    power_of_two = t & (t - 1) == 0
    tree = 0.0
    if power_of_two:  # t = 2^k: logarithmic mechanism, and a new block for the tree
        state[1] += state[2] + x + random_laplace(bits, 0.0, 1.0 / epsilon_log)
        state[2] = 0.0
        state[3] = 0.0 if t == 1 else state[3] + 1.0
        state[4:] = 0.0
    else:
        state[2] += x
        tree = _tree_insert(state, 4, x, state[3] / epsilon_tree, bits)
    log_release = state[1]
    return log_release if power_of_two else log_release + tree


@njit(nogil=True, cache=True)
def _binary_prefix_sums(stream, scale, rng, runs):  # pragma: no cover - compiled
    """``runs`` releases of the stream's prefix sums, one after another on ``rng``, shape ``(runs, n)``."""
    out = np.empty((runs, stream.shape[0]))
    for i in range(runs):
        state = binary_counter_state()
        for t in range(stream.shape[0]):
            out[i, t] = binary_counter_insert(state, stream[t], scale, rng)
    return out


@njit(nogil=True, cache=True)
def _hybrid_prefix_sums(stream, epsilon_log, epsilon_tree, rng, runs):  # pragma: no cover - compiled
    """As :func:`_binary_prefix_sums`, by the hybrid mechanism."""
    out = np.empty((runs, stream.shape[0]))
    for i in range(runs):
        state = hybrid_counter_state()
        for t in range(stream.shape[0]):
            out[i, t] = hybrid_counter_insert(state, stream[t], epsilon_log, epsilon_tree, rng)
    return out


@njit(nogil=True, cache=True)
def binary_counter_levels(horizon):  # pragma: no cover - compiled
    """The levels of the binary mechanism's tree over ``horizon`` items: ``floor(log2 horizon) + 1``.

    Each item lies in this many p-sums, so a counter that adds ``Lap(levels / epsilon)`` to each
    p-sum is epsilon-DP over the whole stream (``chan2011private``, Theorem 3.5): this is the
    noise scale of :func:`binary_counter_insert` for a stream of at most ``horizon`` items.
    Compiled; callable from Python and from kernels.

    Parameters
    ----------
    horizon : int >= 1

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``horizon < 1``.
    """
    if horizon < 1:
        raise ValueError("horizon must be an integer >= 1")
    levels = 0
    while (horizon >> levels) > 0:
        levels += 1
    return levels


def binary_tree_prefix_sums(
    stream: Any, epsilon: float, rng: np.random.Generator, horizon: int | None = None, *, runs: int | None = None
) -> np.ndarray:
    """Noisy prefix sums (index ``t``: ``t + 1`` items), binary mechanism: epsilon-DP (``chan2011private``, Th. 3.5).

    Parameters
    ----------
    stream : array_like, shape (n,), in [0, 1]
    epsilon : float > 0
    rng : numpy.random.Generator
    horizon : int >= n, optional
        The length the noise is calibrated for (default ``n``).
    runs : int >= 1, optional
        That many independent releases, shape ``(runs, n)``.

    Returns
    -------
    numpy.ndarray
    """
    stream_arr = check_unit_interval_array("stream", stream, ndim=1)
    epsilon = check_epsilon(epsilon)
    check_rng(rng)
    horizon = check_int("horizon", stream_arr.size if horizon is None else horizon, minimum=max(1, stream_arr.size))
    stream_arr = np.ascontiguousarray(stream_arr)
    n_runs = 1 if runs is None else check_int("runs", runs, minimum=1)
    out = _binary_prefix_sums(stream_arr, binary_counter_levels(horizon) / epsilon, rng, n_runs)
    return out[0] if runs is None else out


def hybrid_prefix_sums(
    stream: Any, epsilon: float, rng: np.random.Generator, *, split: bool = True, runs: int | None = None
) -> np.ndarray:
    """All noisy prefix sums of a stream of any length by the hybrid mechanism (``chan2011private``, Section 4).

    Parameters
    ----------
    stream, rng, runs
        As for :func:`binary_tree_prefix_sums`.
    epsilon : float > 0
    split : bool
        epsilon/2 to each part: epsilon-DP; ``False``: epsilon to each (``tossou2016algorithms``), 2 epsilon-DP.

    Returns
    -------
    numpy.ndarray
    """
    stream_arr = np.ascontiguousarray(check_unit_interval_array("stream", stream, ndim=1))
    epsilon = check_epsilon(epsilon)
    check_rng(rng)
    part = epsilon / 2.0 if split else epsilon
    out = _hybrid_prefix_sums(stream_arr, part, part, rng, 1 if runs is None else check_int("runs", runs, minimum=1))
    return out[0] if runs is None else out


class BinaryTreeCounter:
    """Online binary mechanism for at most ``horizon`` items in [0, 1]: epsilon-DP (``chan2011private``, Theorem 3.5).

    Parameters
    ----------
    epsilon : float > 0
    horizon : int >= 1
    rng : numpy.random.Generator
    """

    def __init__(self, epsilon: float, horizon: int, rng: np.random.Generator) -> None:
        self.epsilon = check_epsilon(epsilon)
        self.horizon = check_int("horizon", horizon, minimum=1)
        check_rng(rng)
        self.scale = binary_counter_levels(self.horizon) / self.epsilon
        self._rng = rng
        self._state = binary_counter_state()

    @property
    def count(self) -> int:
        """Number of items inserted."""
        return int(self._state[0])

    def insert(self, x: float) -> float:
        """Insert one item (``ValueError`` when full); return the noisy sum so far.

        Parameters
        ----------
        x : float in [0, 1]

        Returns
        -------
        float
        """
        check_unit_interval_array("x", x, ndim=0)
        if self.count >= self.horizon:
            raise ValueError(f"the counter was calibrated for horizon={self.horizon} items; it is full")
        return float(binary_counter_insert(self._state, float(x), self.scale, self._rng))


class HybridCounter:
    """Online hybrid mechanism for a stream of unknown length (``chan2011private``).

    Parameters
    ----------
    epsilon : float > 0
    rng : numpy.random.Generator
    split : bool
        epsilon/2 to each part: epsilon-DP; ``False``: 2 epsilon-DP (``tossou2016algorithms``, Section 2.3).
    """

    def __init__(self, epsilon: float, rng: np.random.Generator, *, split: bool = True) -> None:
        self.epsilon = check_epsilon(epsilon)
        check_rng(rng)
        self.split = bool(split)
        part = self.epsilon / 2.0 if split else self.epsilon
        self.epsilon_log = self.epsilon_tree = part
        self._rng = rng
        self._state = hybrid_counter_state()

    @property
    def count(self) -> int:
        """Number of items inserted."""
        return int(self._state[0])

    def insert(self, x: float) -> float:
        """Insert one item; return the noisy sum so far.

        Parameters
        ----------
        x : float in [0, 1]

        Returns
        -------
        float
        """
        check_unit_interval_array("x", x, ndim=0)
        return float(hybrid_counter_insert(self._state, float(x), self.epsilon_log, self.epsilon_tree, self._rng))


# --------------------------------------------------------------------------------------------
# Error bounds
# --------------------------------------------------------------------------------------------


def laplace_sum_tail_bound(scales: Any, gamma: float) -> float:
    """``B`` with ``P(|sum_i Y_i| > B) <= gamma`` for independent ``Y_i ~ Lap(b_i)`` (``chan2011private``, Cor. 2.9).

    Parameters
    ----------
    scales : array_like, shape (n,), each > 0
    gamma : float in (0, 1)

    Returns
    -------
    float
    """
    b = check_finite_array("scales", scales, ndim=1)
    if b.size == 0:
        return 0.0
    if np.any(b <= 0):
        raise ValueError("scales must be > 0")
    gamma = check_probability("gamma", gamma)
    log_term = math.log(2.0 / gamma)
    nu = max(math.sqrt(float(np.sum(b**2))), float(b.max()) * math.sqrt(log_term))
    return nu * math.sqrt(8.0 * log_term)


@njit(nogil=True, cache=True)
def laplace_iid_sum_tail_bound(n_terms, scale, log_term):  # pragma: no cover - compiled
    """:func:`laplace_sum_tail_bound` for ``n_terms`` i.i.d. ``Lap(scale)``, in a numba kernel.

    Parameters
    ----------
    n_terms, scale : float
    log_term : float
        ``ln(2 / gamma)``.
    """
    return scale * max(np.sqrt(n_terms), np.sqrt(log_term)) * np.sqrt(8.0 * log_term)


@njit(nogil=True, cache=True)
def binary_counter_terms(n):  # pragma: no cover - compiled
    """The noisy p-sums in the binary mechanism's release after ``n`` items: the set bits of ``n``.

    The release's error is the sum of this many independent Laplace draws (one per p-sum, of the
    counter's scale), which is what a confidence width built on the counter must cover
    (:func:`laplace_iid_sum_tail_bound`; ``chan2011private``, Section 3). Compiled; callable from
    Python and from kernels.

    Parameters
    ----------
    n : int >= 0

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``n < 0``.
    """
    _check_count(n)
    count = 0
    while n > 0:
        count += n & 1
        n >>= 1
    return count


def binary_counter_error_bound(t: int, epsilon: float, horizon: int, gamma: float) -> float:
    """Bound on the binary counter's error at time ``t``, with probability ``1 - gamma``.

    Parameters
    ----------
    t : int in [1, horizon]
    epsilon : float > 0
    horizon : int >= 1
        The length the counter is calibrated for.
    gamma : float in (0, 1)

    Returns
    -------
    float
    """
    horizon = check_int("horizon", horizon, minimum=1)
    t = check_int("t", t, minimum=1, maximum=horizon)
    epsilon = check_epsilon(epsilon)
    scale = binary_counter_levels(horizon) / epsilon
    return laplace_sum_tail_bound(np.full(binary_counter_terms(t), scale), gamma)


def hybrid_counter_error_bound(t: int, epsilon: float, gamma: float) -> float:
    """Bound on :class:`HybridCounter`'s error at time ``t``, with probability ``1 - gamma``.

    Parameters
    ----------
    t : int >= 1
    epsilon : float > 0
    gamma : float in (0, 1)

    Returns
    -------
    float
    """
    t = check_int("t", t, minimum=1)
    epsilon = check_epsilon(epsilon)
    k = t.bit_length() - 1
    scales = [2.0 / epsilon] * (k + 1)
    if t != 1 << k:
        scales += [2.0 * k / epsilon] * binary_counter_terms(t - (1 << k))
    return laplace_sum_tail_bound(np.asarray(scales), gamma)


def tossou_hybrid_error_bound(n: Any, epsilon: float, gamma: float) -> np.ndarray | float:
    """The hybrid counter's bound ``sqrt(8)/eps ln(4/gamma) (ln n + 1)`` (``tossou2016algorithms``, Eq. 2.2).

    Parameters
    ----------
    n : array_like or float >= 1
    epsilon : float > 0
    gamma : float in (0, 1)
        Stated for ``gamma <= n^-b``, ``b > 0``.

    Returns
    -------
    numpy.ndarray or float
    """
    n_arr = check_finite_array("n", n)
    if n_arr.size and n_arr.min() < 1:
        raise ValueError("n must be >= 1")
    epsilon = check_epsilon(epsilon)
    gamma = check_probability("gamma", gamma)
    c = math.sqrt(8.0) / epsilon * math.log(4.0 / gamma)
    out = c * np.log(n_arr) + c
    return float(out) if out.ndim == 0 else out
