"""Privacy mechanisms used across the book.

One-shot mechanisms
    :func:`laplace_mechanism` (epsilon-DP), :func:`gaussian_mechanism` with the classical
    (epsilon, delta) calibration and the zero-concentrated DP (zCDP) accounting of Bun and Steinke
    (2016), :func:`randomized_response` and :func:`privbern` (the Bernoulli mechanism of Ren et al.
    2020, Lemma 5, as Definition 2.1 of ``barbara2025thresholding``), :func:`laplace_ldp` (reward + Lap(1/epsilon)).

Tight accounting of Gaussian mechanisms
    :func:`gaussian_composition_multiplier`, :func:`gaussian_composition_epsilon` and
    :func:`gaussian_noise_multiplier`: the exact (epsilon, delta) curve of an adaptive composition of
    Gaussian mechanisms and the noise that meets a target, through Google's ``dp-accounting``
    (analytic Gaussian of Balle and Wang 2018, or its PLD accountant).

Continual counting (a private prefix sum released after every item of a stream)
    :class:`BinaryTreeCounter` (the binary mechanism of Chan, Shi and Song 2011, for a known horizon)
    and :class:`HybridCounter` (their hybrid mechanism, for unbounded streams, as used in ``tossou2016algorithms``),
    with the released-error bounds :func:`binary_counter_error_bound`,
    :func:`hybrid_counter_error_bound` and Eq. (2.2) of ``tossou2016algorithms``, :func:`tossou_hybrid_error_bound`.

The counters' state lives in a flat float array handled by numba functions
(:func:`binary_counter_insert`, :func:`hybrid_counter_insert`) so that the bandit kernels keep one
counter per arm at O(log n) amortised cost per insert; the classes are thin checked wrappers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from ._validation import (
    check_delta,
    check_epsilon,
    check_finite_array,
    check_int,
    check_positive,
    check_probability,
    check_unit_interval_array,
)

__all__ = [
    "laplace_mechanism",
    "laplace_ldp",
    "gaussian_mechanism",
    "gaussian_sigma",
    "gaussian_sigma_zcdp",
    "gaussian_zcdp_rho",
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
    "binary_counter_insert",
    "hybrid_counter_state",
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
    """Release ``value + Lap(sensitivity / epsilon)`` (``dwork2006calibrating``).

    Guarantee: epsilon-DP for any query whose L1 sensitivity is at most ``sensitivity``.
    Works element-wise on arrays (independent noise per entry).

    Parameters
    ----------
    value : array_like or float
        The query's true answer (finite).
    sensitivity : float
        L1 sensitivity of the query (> 0).
    epsilon : float
        Privacy parameter (> 0).
    rng : numpy.random.Generator
        Source of the noise.

    Returns
    -------
    numpy.ndarray or float
        The noisy release, of the shape of ``value``.

    Raises
    ------
    ValueError
        If ``sensitivity`` or ``epsilon`` is not > 0 and finite, or ``value`` is not finite.
    """
    sensitivity = check_positive("sensitivity", sensitivity)
    epsilon = check_epsilon(epsilon)
    value_arr = check_finite_array("value", value)
    out = value_arr + rng.laplace(0.0, sensitivity / epsilon, size=value_arr.shape)
    return float(out) if out.ndim == 0 else out


def laplace_logcdf(x: Any, scale: float) -> np.ndarray:
    """``ln P[Lap(scale) <= x]`` without underflow.

    ``ln(1/2) + x / scale`` for ``x < 0`` (where the CDF itself underflows below about
    ``-745 scale``), ``log1p(-exp(-x / scale) / 2)`` otherwise.

    Parameters
    ----------
    x : array_like
        Where to evaluate.
    scale : float
        Laplace scale ``b`` (> 0).

    Returns
    -------
    numpy.ndarray
        The log CDF, of the shape of ``x``.

    Raises
    ------
    ValueError
        If ``scale`` is not in (0, inf).
    """
    if not (isinstance(scale, (int, float)) and math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must lie in (0, inf), got {scale!r}")
    z = np.asarray(x, dtype=float) / scale
    return np.where(z < 0, math.log(0.5) + np.minimum(z, 0.0), np.log1p(-0.5 * np.exp(-np.maximum(z, 0.0))))


def laplace_ldp(rewards: Any, epsilon: float, rng: np.random.Generator) -> np.ndarray | float:
    """Local Laplace perturbation of rewards in [0, 1]: ``r + Lap(1 / epsilon)``.

    Guarantee: each released value is epsilon-DP with respect to its reward (sensitivity 1), i.e. an
    algorithm that only sees these values is epsilon-LDP. The output is an unbiased estimate of ``r``.

    Parameters
    ----------
    rewards : array_like or float
        Rewards in [0, 1].
    epsilon : float
        Privacy parameter (> 0).
    rng : numpy.random.Generator
        Source of the noise.

    Returns
    -------
    numpy.ndarray or float
        The perturbed rewards.

    Raises
    ------
    ValueError
        If ``rewards`` has an entry outside [0, 1] or ``epsilon`` is not > 0 and finite.
    """
    rewards_arr = check_unit_interval_array("rewards", rewards)
    return laplace_mechanism(rewards_arr, 1.0, epsilon, rng)


def gaussian_sigma(sensitivity: float, epsilon: float, delta: float) -> float:
    """Classical Gaussian calibration ``sigma = sensitivity * sqrt(2 ln(1.25 / delta)) / epsilon``.

    Guarantee (``dwork2014algorithmic``, Theorem A.1): (epsilon, delta)-DP for epsilon in (0, 1).

    Parameters
    ----------
    sensitivity : float
        L2 sensitivity of the query (> 0).
    epsilon : float
        Privacy parameter, in (0, 1).
    delta : float
        Privacy parameter, in (0, 1).

    Returns
    -------
    float
        The noise standard deviation ``sigma``.

    Raises
    ------
    ValueError
        If ``sensitivity`` is not > 0, ``epsilon`` not in (0, 1) (the message suggests the zCDP
        calibration instead) or ``delta`` not in (0, 1).
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
    """Noise ``sigma = sensitivity / sqrt(2 rho)``: the Gaussian mechanism is then rho-zCDP.

    (``bun2016concentrated``, Proposition 1.6.)

    Parameters
    ----------
    sensitivity : float
        L2 sensitivity of the query (> 0).
    rho : float
        zCDP parameter (> 0).

    Returns
    -------
    float
        The noise standard deviation ``sigma``.

    Raises
    ------
    ValueError
        If ``sensitivity`` or ``rho`` is not > 0 and finite.
    """
    return check_positive("sensitivity", sensitivity) / math.sqrt(2.0 * check_positive("rho", rho))


def gaussian_zcdp_rho(sensitivity: float, sigma: float) -> float:
    """The zCDP parameter ``rho = sensitivity^2 / (2 sigma^2)`` of the Gaussian mechanism.

    Parameters
    ----------
    sensitivity : float
        L2 sensitivity of the query (> 0).
    sigma : float
        Noise standard deviation (> 0).

    Returns
    -------
    float
        ``rho``.

    Raises
    ------
    ValueError
        If ``sensitivity`` or ``sigma`` is not > 0 and finite.
    """
    sensitivity = check_positive("sensitivity", sensitivity)
    sigma = check_positive("sigma", sigma)
    return sensitivity**2 / (2.0 * sigma**2)


def zcdp_to_approx_dp(rho: float, delta: float) -> float:
    """rho-zCDP implies (epsilon, delta)-DP with ``epsilon = rho + 2 sqrt(rho ln(1/delta))``.

    (``bun2016concentrated``, Proposition 1.3.)

    Parameters
    ----------
    rho : float
        zCDP parameter (> 0).
    delta : float
        Privacy parameter, in (0, 1).

    Returns
    -------
    float
        ``epsilon``.

    Raises
    ------
    ValueError
        If ``rho`` is not > 0 and finite or ``delta`` not in (0, 1).
    """
    rho = check_positive("rho", rho)
    delta = check_delta(delta)
    return rho + 2.0 * math.sqrt(rho * math.log(1.0 / delta))


def approx_dp_to_zcdp(epsilon: float, delta: float) -> float:
    """The largest rho whose conversion by :func:`zcdp_to_approx_dp` gives at most ``epsilon``.

    Solves ``rho + 2 sqrt(rho L) = epsilon`` with ``L = ln(1/delta)``:
    ``rho = (sqrt(L + epsilon) - sqrt(L))^2``.

    Parameters
    ----------
    epsilon : float
        Privacy parameter (> 0).
    delta : float
        Privacy parameter, in (0, 1).

    Returns
    -------
    float
        ``rho``.

    Raises
    ------
    ValueError
        If ``epsilon`` is not > 0 and finite or ``delta`` not in (0, 1).
    """
    epsilon = check_epsilon(epsilon)
    log_term = math.log(1.0 / check_delta(delta))
    return (math.sqrt(log_term + epsilon) - math.sqrt(log_term)) ** 2


def _check_multipliers(noise_multipliers: Any) -> np.ndarray:
    s = np.atleast_1d(np.asarray(noise_multipliers, dtype=float))
    if s.ndim != 1 or s.size == 0 or not np.all(np.isfinite(s)) or np.any(s <= 0):
        raise ValueError(f"noise_multipliers must be a non-empty list of finite values > 0, got {noise_multipliers!r}")
    return s


def gaussian_composition_multiplier(noise_multipliers: Any) -> float:
    """The one Gaussian mechanism equivalent to an adaptive composition of Gaussian mechanisms.

    A Gaussian mechanism of L2 sensitivity ``Delta`` and noise ``sigma`` has noise multiplier
    ``s = sigma / Delta``; it is ``(1/s)``-GDP (Gaussian differential privacy).  The adaptive
    composition of ``mu_i``-GDP mechanisms is exactly ``sqrt(sum mu_i^2)``-GDP (Dong, Roth and Su
    2022, ``dong2022gaussian``, Corollary 3.3), i.e. one Gaussian mechanism with
    ``s = (sum_i s_i^-2)^(-1/2)``.  Exact, not a bound: both directions of the tradeoff function
    coincide.  (In zCDP terms, ``rho = 1/(2 s^2)`` and the rhos add, ``bun2016concentrated``,
    Lemma 2.3; what zCDP loses is only its conversion to (epsilon, delta).)

    Parameters
    ----------
    noise_multipliers : array_like
        The multipliers ``s_i = sigma_i / Delta_i`` of the composed mechanisms (each > 0).

    Returns
    -------
    float
        The multiplier ``s`` of the equivalent mechanism.

    Raises
    ------
    ValueError
        If ``noise_multipliers`` is empty or has an entry that is not > 0 and finite.
    """
    s = _check_multipliers(noise_multipliers)
    return float(1.0 / math.sqrt(float(np.sum(s**-2.0))))


def gaussian_composition_epsilon(noise_multipliers: Any, delta: float, *, accountant: str = "analytic") -> float:
    """The smallest epsilon such that the composition is (epsilon, delta)-DP: the tight guarantee.

    ``accountant="analytic"``: the exact privacy profile of the equivalent Gaussian mechanism
    (:func:`gaussian_composition_multiplier`), ``balle2018improving``, Theorem 8, solved for epsilon by
    ``dp_accounting.get_epsilon_gaussian``.  ``accountant="pld"``: ``dp_accounting``'s privacy-loss
    distribution accountant on the composed ``GaussianDpEvent`` s (no closed form used; its
    discretisation errs on the safe side, by about 1e-6 here).  The two agree (tests).

    ``dp-accounting`` is imported here, not at module level: only the accounting needs it.

    Parameters
    ----------
    noise_multipliers : array_like
        The multipliers ``s_i = sigma_i / Delta_i`` of the composed mechanisms (each > 0).
    delta : float
        Privacy parameter, in (0, 1).
    accountant : {"analytic", "pld"}
        Which accountant computes epsilon.

    Returns
    -------
    float
        The smallest epsilon.

    Raises
    ------
    ValueError
        If ``noise_multipliers`` has an entry that is not > 0 and finite, ``delta`` is not in (0, 1),
        or ``accountant`` is neither ``"analytic"`` nor ``"pld"``.
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
    """The smallest noise multiplier ``s`` whose Gaussian mechanism is (epsilon, delta)-DP, exactly.

    Analytic Gaussian calibration (``balle2018improving``, Algorithm 1) by
    ``dp_accounting.get_sigma_gaussian``, nudged up by relative steps of 1e-12 until
    :func:`gaussian_composition_epsilon` is at most ``epsilon`` (the root finder may land on either
    side).  Valid for every epsilon > 0, unlike the classical calibration of :func:`gaussian_sigma`.

    Parameters
    ----------
    epsilon : float
        Privacy parameter (> 0).
    delta : float
        Privacy parameter, in (0, 1).

    Returns
    -------
    float
        ``s = sigma / sensitivity``.

    Raises
    ------
    ValueError
        If ``epsilon`` is not > 0 and finite or ``delta`` not in (0, 1).
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    import dp_accounting

    s = float(dp_accounting.get_sigma_gaussian(epsilon, delta))
    while dp_accounting.get_epsilon_gaussian(s, delta) > epsilon:
        s *= 1.0 + 1e-12
    return s


def gaussian_mechanism(value: Any, sensitivity: float, rng: np.random.Generator, *, sigma: float) -> np.ndarray | float:
    """Release ``value + N(0, sigma^2)`` element-wise.

    Guarantee: rho-zCDP with ``rho = sensitivity^2 / (2 sigma^2)`` for a query of L2 sensitivity
    ``sensitivity``; choose ``sigma`` with :func:`gaussian_sigma` or :func:`gaussian_sigma_zcdp`.

    Parameters
    ----------
    value : array_like or float
        The query's true answer (finite).
    sensitivity : float
        L2 sensitivity of the query (> 0).
    rng : numpy.random.Generator
        Source of the noise.
    sigma : float
        Noise standard deviation (> 0).

    Returns
    -------
    numpy.ndarray or float
        The noisy release, of the shape of ``value``.

    Raises
    ------
    ValueError
        If ``sensitivity`` or ``sigma`` is not > 0 and finite, or ``value`` is not finite.
    """
    check_positive("sensitivity", sensitivity)
    sigma = check_positive("sigma", sigma)
    value_arr = check_finite_array("value", value)
    out = value_arr + rng.normal(0.0, sigma, size=value_arr.shape)
    return float(out) if out.ndim == 0 else out


def randomized_response(bits: Any, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """Warner's randomized response (``warner1965randomized``): keep each bit with probability ``e^eps / (1 + e^eps)``.

    Guarantee: epsilon-DP (local) for each bit.

    Parameters
    ----------
    bits : array_like
        Bits, each 0 or 1.
    epsilon : float
        Privacy parameter (> 0).
    rng : numpy.random.Generator
        Source of the noise.

    Returns
    -------
    numpy.ndarray
        The released bits (``int8``), of the shape of ``bits``.

    Raises
    ------
    ValueError
        If ``bits`` has an entry other than 0 or 1, or ``epsilon`` is not > 0 and finite.
    """
    epsilon = check_epsilon(epsilon)
    bits_arr = np.asarray(bits)
    if bits_arr.size and not np.all((bits_arr == 0) | (bits_arr == 1)):
        raise ValueError("bits must be 0 or 1")
    keep = rng.random(bits_arr.shape) < 1.0 / (1.0 + math.exp(-epsilon))
    return np.where(keep, bits_arr, 1 - bits_arr).astype(np.int8)


def privbern_mean(mu: Any, epsilon: float) -> np.ndarray | float:
    """Mean of PrivBern's output: ``1/2 + (2 mu - 1)(e^eps - 1) / (2 (e^eps + 1))`` (``barbara2025thresholding`` Eq. 4).

    ``epsilon = inf`` gives ``mu`` back (no privacy).

    Parameters
    ----------
    mu : array_like or float
        Mean reward(s), in [0, 1].
    epsilon : float
        Privacy parameter (> 0, ``inf`` allowed).

    Returns
    -------
    numpy.ndarray or float
        The mean of the released bit(s).

    Raises
    ------
    ValueError
        If ``mu`` has an entry outside [0, 1] or ``epsilon`` is not > 0.
    """
    epsilon = check_epsilon(epsilon, allow_inf=True)
    mu_arr = check_unit_interval_array("mu", mu)
    factor = 1.0 if math.isinf(epsilon) else math.tanh(epsilon / 2.0)  # (e^eps - 1)/(e^eps + 1)
    out = 0.5 + (2.0 * mu_arr - 1.0) * factor / 2.0
    return float(out) if out.ndim == 0 else out


def privbern(rewards: Any, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """The Bernoulli mechanism PrivBern(epsilon) (``ren2020multi`` Lemma 5; ``barbara2025thresholding`` Def. 2.1).

    Each reward ``r in [0, 1]`` is replaced by one draw of
    ``Bernoulli((r e^eps + (1 - r)) / (1 + e^eps))``. Guarantee: epsilon-DP per reward (epsilon-LDP).

    Parameters
    ----------
    rewards : array_like
        Rewards in [0, 1].
    epsilon : float
        Privacy parameter (> 0).
    rng : numpy.random.Generator
        Source of the noise.

    Returns
    -------
    numpy.ndarray
        The released bits, of the shape of ``rewards``.

    Raises
    ------
    ValueError
        If ``rewards`` has an entry outside [0, 1] or ``epsilon`` is not > 0 and finite.
    """
    epsilon = check_epsilon(epsilon)
    r = check_unit_interval_array("rewards", rewards)
    p = (r * math.exp(epsilon) + (1.0 - r)) / (1.0 + math.exp(epsilon)) if epsilon < 700 else r
    return (rng.random(r.shape) < p).astype(np.int8)


@njit(nogil=True, cache=True)
def privbern_draw(rng, reward, epsilon):  # pragma: no cover - compiled
    """One PrivBern(epsilon) release of ``reward`` inside a numba kernel.

    ``epsilon = inf``: the mechanism is replaced by a Bernoulli(reward) draw, which has the same mean
    as the reward. Compiled (``nogil``); does not validate.

    Parameters
    ----------
    rng : numpy.random.Generator
        The kernel's random stream.
    reward : float
        The reward, in [0, 1].
    epsilon : float
        Privacy parameter (> 0, ``inf`` allowed).

    Returns
    -------
    float
        The released bit, 0.0 or 1.0.
    """
    if np.isinf(epsilon):
        p = reward
    else:
        e = np.exp(-epsilon)  # stable form of (r e^eps + 1 - r) / (1 + e^eps)
        p = (reward + (1.0 - reward) * e) / (1.0 + e)
    return 1.0 if rng.random() < p else 0.0


@njit(nogil=True, cache=True)
def laplace_draw(rng, scale):  # pragma: no cover - compiled
    """One ``Lap(scale)`` draw inside a numba kernel (the noise of the Laplace mechanism).

    Parameters
    ----------
    rng : numpy.random.Generator
        The kernel's random stream.
    scale : float
        Laplace scale ``b = sensitivity / epsilon``; ``scale <= 0`` (``epsilon = inf``) returns
        exactly 0 without consuming randomness.

    Returns
    -------
    float
        The draw.
    """
    if scale <= 0.0:
        return 0.0
    return rng.laplace(0.0, scale)


# --------------------------------------------------------------------------------------------
# Continual counting: numba state machines
# --------------------------------------------------------------------------------------------

_LEVELS = 64  # enough for any stream length representable in int64
# binary counter state: [t, current release, alpha_0..alpha_63, alpha_hat_0..alpha_hat_63]
_BIN_SIZE = 2 + 2 * _LEVELS
# hybrid state: [t, log_release, exact_since_power_of_two, k = floor(log2 t), tree state...]
_HYB_SIZE = 4 + _BIN_SIZE


@njit(nogil=True, cache=True)
def binary_counter_state():  # pragma: no cover - compiled
    """A fresh binary-mechanism state (a flat float array)."""
    return np.zeros(_BIN_SIZE)


@njit(nogil=True, cache=True, inline="always")
def _tree_insert(state, offset, x, scale, rng):  # pragma: no cover - compiled
    # Chan, Shi, Song (2011), Algorithm 2: item t goes into the p-sum of its lowest set bit i,
    # which absorbs the exact p-sums of the levels below; only that p-sum gets fresh noise.
    # The release (the noisy p-sums of the set bits of t) is kept up to date incrementally: going
    # from t - 1 to t clears bits 0..i-1 and sets bit i, so the work is amortised O(1) per item.
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
    state[alpha_hat + i] = total + rng.laplace(0.0, scale)
    state[offset + 1] += state[alpha_hat + i] - removed
    return state[offset + 1]


@njit(nogil=True, cache=True, inline="always")
def binary_counter_insert(state, x, scale, rng):  # pragma: no cover - compiled
    """Insert ``x`` and return the noisy prefix sum; every p-sum gets ``Lap(scale)`` noise.

    For epsilon-DP over a stream of at most ``n`` items in [0, 1] use
    ``scale = levels(n) / epsilon`` with ``levels(n) = floor(log2 n) + 1`` (each item lies in that
    many p-sums; ``chan2011private``, Theorem 3.5). Amortised O(1) work per insert. Compiled
    (``nogil``); does not validate.

    Parameters
    ----------
    state : numpy.ndarray
        The counter's state, from :func:`binary_counter_state` (updated in place).
    x : float
        The item.
    scale : float
        Laplace scale of each p-sum's noise.
    rng : numpy.random.Generator
        The kernel's random stream.

    Returns
    -------
    float
        The noisy sum of all items inserted so far.
    """
    return _tree_insert(state, 0, x, scale, rng)


@njit(nogil=True, cache=True)
def hybrid_counter_state():  # pragma: no cover - compiled
    """A fresh hybrid-mechanism state (a flat float array)."""
    return np.zeros(_HYB_SIZE)


@njit(nogil=True, cache=True, inline="always")
def hybrid_counter_insert(state, x, epsilon_log, epsilon_tree, rng):  # pragma: no cover - compiled
    """Insert ``x`` into a hybrid counter and return the noisy prefix sum (``chan2011private``, Sec. 4).

    At ``t = 2^k`` the logarithmic mechanism releases the prefix sum, adding ``Lap(1/epsilon_log)``
    to its previous release plus the items since; for ``2^k < t < 2^(k+1)`` the release is that value
    plus a binary mechanism over the items after ``2^k`` (at most ``2^k - 1`` of them, so ``k`` levels,
    noise ``Lap(k / epsilon_tree)`` per p-sum). An item enters both parts, so the counter is
    ``(epsilon_log + epsilon_tree)``-DP; :class:`HybridCounter` uses ``epsilon / 2`` for each.
    Amortised O(1) work per insert. Compiled (``nogil``); does not validate.

    Parameters
    ----------
    state : numpy.ndarray
        The counter's state, from :func:`hybrid_counter_state` (updated in place).
    x : float
        The item.
    epsilon_log : float
        Privacy parameter of the logarithmic part.
    epsilon_tree : float
        Privacy parameter of each block's binary tree.
    rng : numpy.random.Generator
        The kernel's random stream.

    Returns
    -------
    float
        The noisy sum of all items inserted so far.
    """
    t = int(state[0]) + 1
    state[0] = t
    if t & (t - 1) == 0:  # t = 2^k: logarithmic mechanism, and a new block for the tree
        state[1] += state[2] + x + rng.laplace(0.0, 1.0 / epsilon_log)
        state[2] = 0.0
        state[3] = 0.0 if t == 1 else state[3] + 1.0
        state[4:] = 0.0
        return state[1]
    state[2] += x
    return state[1] + _tree_insert(state, 4, x, state[3] / epsilon_tree, rng)


@njit(nogil=True, cache=True)
def _binary_prefix_sums(stream, scale, rng):  # pragma: no cover - compiled
    state = binary_counter_state()
    out = np.empty(stream.shape[0])
    for t in range(stream.shape[0]):
        out[t] = binary_counter_insert(state, stream[t], scale, rng)
    return out


@njit(nogil=True, cache=True)
def _hybrid_prefix_sums(stream, epsilon_log, epsilon_tree, rng):  # pragma: no cover - compiled
    state = hybrid_counter_state()
    out = np.empty(stream.shape[0])
    for t in range(stream.shape[0]):
        out[t] = hybrid_counter_insert(state, stream[t], epsilon_log, epsilon_tree, rng)
    return out


@njit(nogil=True, cache=True)
def _binary_prefix_sums_runs(stream, scale, rng, runs):  # pragma: no cover - compiled
    out = np.empty((runs, stream.shape[0]))
    for i in range(runs):
        out[i] = _binary_prefix_sums(stream, scale, rng)
    return out


@njit(nogil=True, cache=True)
def _hybrid_prefix_sums_runs(stream, epsilon_log, epsilon_tree, rng, runs):  # pragma: no cover - compiled
    out = np.empty((runs, stream.shape[0]))
    for i in range(runs):
        out[i] = _hybrid_prefix_sums(stream, epsilon_log, epsilon_tree, rng)
    return out


def _levels(horizon: int) -> int:
    """Number of p-sums an item of a stream of length ``horizon`` belongs to: floor(log2 n) + 1."""
    return int(horizon).bit_length()


def binary_tree_prefix_sums(
    stream: Any, epsilon: float, rng: np.random.Generator, horizon: int | None = None, *, runs: int | None = None
) -> np.ndarray:
    """All noisy prefix sums of ``stream`` (items in [0, 1]) by the binary mechanism.

    Guarantee: epsilon-DP with respect to changing one item (``chan2011private``, Theorem 3.5).

    Parameters
    ----------
    stream : array_like
        Shape ``(n,)``, items in [0, 1].
    epsilon : float
        Privacy parameter (> 0).
    rng : numpy.random.Generator
        Source of the noise.
    horizon : int or None
        The stream length the noise is calibrated for (default: the stream's length; at least it).
    runs : int or None
        If given (>= 1), that many independent releases of the whole stream, drawn one after the
        other from ``rng`` in compiled code (equal to stacking ``runs`` calls).

    Returns
    -------
    numpy.ndarray
        Shape ``(n,)`` (or ``(runs, n)``): the noisy sum of the first ``t + 1`` items at index ``t``.

    Raises
    ------
    ValueError
        If ``stream`` is not a 1-D array in [0, 1], ``epsilon`` is not > 0 and finite,
        ``horizon`` is shorter than the stream, or ``runs`` < 1.
    """
    stream_arr = check_unit_interval_array("stream", stream, ndim=1)
    epsilon = check_epsilon(epsilon)
    horizon = check_int("horizon", stream_arr.size if horizon is None else horizon, minimum=max(1, stream_arr.size))
    stream_arr = np.ascontiguousarray(stream_arr)
    if runs is not None:
        return _binary_prefix_sums_runs(stream_arr, _levels(horizon) / epsilon, rng, check_int("runs", runs, minimum=1))
    return _binary_prefix_sums(stream_arr, _levels(horizon) / epsilon, rng)


def hybrid_prefix_sums(
    stream: Any, epsilon: float, rng: np.random.Generator, *, split: bool = True, runs: int | None = None
) -> np.ndarray:
    """All noisy prefix sums of ``stream`` (items in [0, 1]) by the hybrid mechanism.

    Guarantee: epsilon-DP for a stream of any length (epsilon/2 to each of the logarithmic and the
    binary part; ``chan2011private``, Section 4). ``split=False`` is the variant of
    ``tossou2016algorithms`` (epsilon to each part), which is only 2 epsilon-DP; see
    :class:`HybridCounter`.

    Parameters
    ----------
    stream : array_like
        Shape ``(n,)``, items in [0, 1].
    epsilon : float
        Privacy parameter (> 0).
    rng : numpy.random.Generator
        Source of the noise.
    split : bool
        Split epsilon between the two parts (the DP variant).
    runs : int or None
        If given (>= 1), that many independent releases of the whole stream, drawn one after the
        other from ``rng`` in compiled code (equal to stacking ``runs`` calls).

    Returns
    -------
    numpy.ndarray
        Shape ``(n,)`` (or ``(runs, n)``): the noisy sum of the first ``t + 1`` items at index ``t``.

    Raises
    ------
    ValueError
        If ``stream`` is not a 1-D array in [0, 1], ``epsilon`` is not > 0 and finite, or
        ``runs`` < 1.
    """
    stream_arr = np.ascontiguousarray(check_unit_interval_array("stream", stream, ndim=1))
    epsilon = check_epsilon(epsilon)
    part = epsilon / 2.0 if split else epsilon
    if runs is not None:
        return _hybrid_prefix_sums_runs(stream_arr, part, part, rng, check_int("runs", runs, minimum=1))
    return _hybrid_prefix_sums(stream_arr, part, part, rng)


class BinaryTreeCounter:
    """Online binary mechanism for a stream of at most ``horizon`` items in [0, 1].

    ``insert(x)`` returns the noisy sum of all items so far. Each p-sum carries
    ``Lap(levels / epsilon)`` noise with ``levels = floor(log2 horizon) + 1``; each item enters at most
    ``levels`` p-sums, so the whole output sequence is epsilon-DP (Chan, Shi and Song 2011,
    ``chan2011private``, Theorem 3.5). Cost: O(log t) per insert.

    Parameters
    ----------
    epsilon : float
        Privacy parameter (> 0).
    horizon : int
        The largest number of items (>= 1).
    rng : numpy.random.Generator
        Source of the noise.

    Raises
    ------
    ValueError
        If ``epsilon`` is not > 0 and finite or ``horizon`` < 1.
    """

    def __init__(self, epsilon: float, horizon: int, rng: np.random.Generator) -> None:
        self.epsilon = check_epsilon(epsilon)
        self.horizon = check_int("horizon", horizon, minimum=1)
        self.scale = _levels(self.horizon) / self.epsilon
        self._rng = rng
        self._state = binary_counter_state()

    @property
    def count(self) -> int:
        """Number of items inserted."""
        return int(self._state[0])

    def insert(self, x: float) -> float:
        """Insert one item and return the noisy sum of all items so far.

        Parameters
        ----------
        x : float
            The item, in [0, 1].

        Returns
        -------
        float
            The noisy prefix sum.

        Raises
        ------
        ValueError
            If ``x`` is not a number in [0, 1], or the counter already holds ``horizon`` items.
        """
        check_unit_interval_array("x", x, ndim=0)
        if self.count >= self.horizon:
            raise ValueError(f"the counter was calibrated for horizon={self.horizon} items; it is full")
        return float(binary_counter_insert(self._state, float(x), self.scale, self._rng))


class HybridCounter:
    """Online hybrid mechanism (Chan, Shi and Song 2011, ``chan2011private``), for streams of unknown length.

    epsilon-DP for streams of any length: ``epsilon / 2`` to the logarithmic part, ``epsilon / 2``
    to the binary trees of each block ``(2^k, 2^(k+1))``. Cost: O(log t) per insert.

    ``split=False`` gives ``epsilon`` to both parts, as ``tossou2016algorithms`` (Tossou and Dimitrakakis 2016,
    Section 2.3) describes; an item then enters two epsilon-DP releases and the counter is only
    2 epsilon-DP by basic composition.

    Parameters
    ----------
    epsilon : float
        Privacy parameter (> 0).
    rng : numpy.random.Generator
        Source of the noise.
    split : bool
        Split epsilon between the two parts (the DP variant).

    Raises
    ------
    ValueError
        If ``epsilon`` is not > 0 and finite.
    """

    def __init__(self, epsilon: float, rng: np.random.Generator, *, split: bool = True) -> None:
        self.epsilon = check_epsilon(epsilon)
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
        """Insert one item and return the noisy sum of all items so far.

        Parameters
        ----------
        x : float
            The item, in [0, 1].

        Returns
        -------
        float
            The noisy prefix sum.

        Raises
        ------
        ValueError
            If ``x`` is not a number in [0, 1].
        """
        check_unit_interval_array("x", x, ndim=0)
        return float(hybrid_counter_insert(self._state, float(x), self.epsilon_log, self.epsilon_tree, self._rng))


# --------------------------------------------------------------------------------------------
# Error bounds
# --------------------------------------------------------------------------------------------


def laplace_sum_tail_bound(scales: Any, gamma: float) -> float:
    """A value ``B`` with ``P(|sum_i Y_i| > B) <= gamma`` for independent ``Y_i ~ Lap(scales_i)``.

    ``chan2011private``, Corollary 2.9: with
    ``nu = max(sqrt(sum b_i^2), max_i b_i * sqrt(ln(2/gamma)))``, ``B = nu * sqrt(8 ln(2/gamma))``.

    Parameters
    ----------
    scales : array_like
        Shape ``(n,)``: the Laplace scales ``b_i`` (> 0).
    gamma : float
        Failure probability, in (0, 1).

    Returns
    -------
    float
        ``B``.

    Raises
    ------
    ValueError
        If ``scales`` is not a finite 1-D array of positive scales or ``gamma`` is not in (0, 1).
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
    """:func:`laplace_sum_tail_bound` for ``n_terms`` i.i.d. ``Lap(scale)``, inside a numba kernel.

    Parameters
    ----------
    n_terms : float
        Number of Laplace terms in the sum.
    scale : float
        Their common scale ``b``.
    log_term : float
        ``ln(2 / gamma)``, ``gamma`` the failure probability.

    Returns
    -------
    float
        ``b max(sqrt(n_terms), sqrt(ln(2/gamma))) sqrt(8 ln(2/gamma))`` (Chan, Shi and Song 2011,
        Corollary 2.9, ``chan2011private``): the sum exceeds it in absolute value with
        probability at most ``gamma``.
    """
    return scale * max(np.sqrt(n_terms), np.sqrt(log_term)) * np.sqrt(8.0 * log_term)


def _popcount(x: int) -> int:
    return bin(x).count("1")


def binary_counter_error_bound(t: int, epsilon: float, horizon: int, gamma: float) -> float:
    """The binary mechanism's error at time ``t``, with probability >= 1 - gamma.

    The release at time ``t`` carries ``popcount(t)`` Laplace terms of scale
    ``levels(horizon) / epsilon`` (:func:`laplace_sum_tail_bound`).

    Parameters
    ----------
    t : int
        The time, in [1, horizon].
    epsilon : float
        Privacy parameter (> 0).
    horizon : int
        The stream length the counter is calibrated for (>= 1).
    gamma : float
        Failure probability, in (0, 1).

    Returns
    -------
    float
        A bound on ``|release - true prefix sum|`` that holds with probability >= 1 - gamma.

    Raises
    ------
    ValueError
        If ``horizon``, ``t``, ``epsilon`` or ``gamma`` is out of range.
    """
    horizon = check_int("horizon", horizon, minimum=1)
    t = check_int("t", t, minimum=1, maximum=horizon)
    epsilon = check_epsilon(epsilon)
    scale = _levels(horizon) / epsilon
    return laplace_sum_tail_bound(np.full(_popcount(t), scale), gamma)


def hybrid_counter_error_bound(t: int, epsilon: float, gamma: float) -> float:
    """:class:`HybridCounter`'s error at time ``t``, with probability >= 1 - gamma.

    The release holds ``k + 1`` logarithmic-mechanism terms ``Lap(2/eps)`` (one per power of two up
    to ``2^k <= t``) and, if ``t`` is not a power of two, ``popcount(t - 2^k)`` tree terms
    ``Lap(2k/eps)`` (:func:`laplace_sum_tail_bound`).

    Parameters
    ----------
    t : int
        The time (>= 1).
    epsilon : float
        Privacy parameter (> 0).
    gamma : float
        Failure probability, in (0, 1).

    Returns
    -------
    float
        A bound on ``|release - true prefix sum|`` that holds with probability >= 1 - gamma.

    Raises
    ------
    ValueError
        If ``t``, ``epsilon`` or ``gamma`` is out of range.
    """
    t = check_int("t", t, minimum=1)
    epsilon = check_epsilon(epsilon)
    k = t.bit_length() - 1
    scales = [2.0 / epsilon] * (k + 1)
    if t != 1 << k:
        scales += [2.0 * k / epsilon] * _popcount(t - (1 << k))
    return laplace_sum_tail_bound(np.asarray(scales), gamma)


def tossou_hybrid_error_bound(n: Any, epsilon: float, gamma: float) -> np.ndarray | float:
    """Eq. (2.2) of ``tossou2016algorithms`` (Tossou and Dimitrakakis 2016, Lemma B.2).

    The hybrid mechanism's error after ``n`` items is at most
    ``sqrt(8)/eps * ln(4/gamma) * ln(n) + sqrt(8)/eps * ln(4/gamma)`` with probability >= 1 - gamma,
    stated for ``gamma <= n^-b``, b > 0 (logs natural).

    Parameters
    ----------
    n : array_like or float
        Number of items (>= 1).
    epsilon : float
        Privacy parameter (> 0).
    gamma : float
        Failure probability, in (0, 1).

    Returns
    -------
    numpy.ndarray or float
        The bound, of the shape of ``n``.

    Raises
    ------
    ValueError
        If ``n`` has an entry < 1, or ``epsilon`` or ``gamma`` is out of range.
    """
    n_arr = check_finite_array("n", n)
    if n_arr.size and n_arr.min() < 1:
        raise ValueError("n must be >= 1")
    epsilon = check_epsilon(epsilon)
    gamma = check_probability("gamma", gamma)
    c = math.sqrt(8.0) / epsilon * math.log(4.0 / gamma)
    out = c * np.log(n_arr) + c
    return float(out) if out.ndim == 0 else out
