"""DP-NCB (``sarkar2026dpncb``, Algorithms 1-3; NCB is ``barman2023fairness``) on one base class and one
set of kernels; also the exact law of GDP-NCB's Phase I leak (Part V) and its repair's budget.
"""

from __future__ import annotations

import dataclasses
import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .._validation import check_epsilon, check_int, check_positive
from ..environments import draw_reward, draw_reward_sum
from ..mechanisms import laplace_draw, laplace_logcdf
from .base import (
    Bool,
    Choice,
    Departure,
    Epsilon,
    Policy,
    Real,
    Records,
    episode_array,
    new_episodes,
    param,
    record_play,
)

__all__ = [
    "NCBFamily",
    "NCB",
    "GDPNCB",
    "LDPNCB",
    "AnytimeDPNCB",
    "phase1_threshold_gdp",
    "SparseVectorBudget",
    "sparse_vector_budget",
    "leading_run_law",
    "anytime_window_run_law",
    "gdp_index",
    "DEFAULT_PHASE1_CONSTANT",
    "PAPER_PHASE1_CONSTANT",
    "NCB_BASE",
    "GDP_BASE",
    "LDP_BASE",
    "NCBConstants",
]

#: The constant printed in the Phase I tests of Algorithms 1 and 2.
PAPER_PHASE1_CONSTANT = 1600.0
#: The book's default (see the Part II chapter for the justification).
DEFAULT_PHASE1_CONSTANT = 1.0

_SV_FRACTION = Real(0.0, 1.0, coerce=False)  # share of epsilon on the sparse-vector stopping rule
_EPSILON = Epsilon()  # inf: no noise

#: Which algorithm a kernel block runs, NCB (no privacy), GDP-NCB (Algorithm 1) or LDP-NCB (Algorithm 2).
NCB_BASE, GDP_BASE, LDP_BASE = 0, 1, 2


class NCBConstants(NamedTuple):
    """The constants every NCB-family kernel reads, under the policies' field names (absent field: its default).

    Attributes
    ----------
    phase1_constant, c, alpha : float
        ``C`` of the Phase I test; ``c`` and ``alpha`` of Eqs. (4)-(5).
    phase1_cap_sqrt, phase1_window_cap, log_window, phase1_noise : bool
    reset_mu_tilde, phase1_noise_as_location, authors_bonus : bool
    """

    phase1_constant: float
    c: float
    alpha: float = 3.1
    phase1_cap_sqrt: bool = False
    phase1_window_cap: bool = False
    log_window: bool = False
    phase1_noise: bool = True
    reset_mu_tilde: bool = False
    phase1_noise_as_location: bool = False
    authors_bonus: bool = False


def phase1_threshold_gdp(horizon: int, epsilon: float, c: float = 3.0, constant: float = 1600.0) -> float:
    """Algorithm 1, line 2: ``constant (c^2 log T + (log T)^2 / eps)``; Phase I lasts about ``k thr / mu*`` rounds.

    Parameters
    ----------
    horizon : int >= 1
    epsilon : float > 0
        ``inf`` drops the privacy term.
    c, constant : float
        ``constant`` is ``C`` (the paper's 1600, :data:`PAPER_PHASE1_CONSTANT`).

    Returns
    -------
    float
    """
    horizon = check_int("horizon", horizon, minimum=1)
    epsilon = check_epsilon(epsilon, allow_inf=True)
    log_t = math.log(horizon)
    return constant * (c * c * log_t + log_t * log_t / epsilon)


class SparseVectorBudget(NamedTuple):
    """Accounting of ``GDPNCB(phase1_rule="sparse_vector")`` at one horizon (Part V's theorem).

    A changed reward enters the stopping rule and at most ``L = releases_per_reward`` Laplace releases of
    sensitivity 1, each of scale ``L / eps_release``; sequential composition adds them.

    Attributes
    ----------
    epsilon, eps_stop, eps_release : float
        The budget, and its parts on the stopping rule and on the releases.
    releases_per_reward : int
    eps_per_release, eps_form : float
        ``eps_form``: where the printed scale ``log T / eps`` equals the release scale (the kernel uses it).
    total, total_at_printed_scale : float
        Composed; and what the releases spend at the printed scale ``log T / eps_release``.
    """

    epsilon: float
    eps_stop: float
    eps_release: float
    releases_per_reward: int
    eps_per_release: float
    eps_form: float
    total: float
    total_at_printed_scale: float


def sparse_vector_budget(horizon: int, epsilon: float, sv_fraction: float = 0.5) -> SparseVectorBudget:
    """Budget of the repaired GDP-NCB told ``T``: ``eps_stop = sv_fraction eps``, ``L = max(1, floor(log2 T))``.

    Parameters
    ----------
    horizon : int >= 1
    epsilon : float > 0, ``inf`` allowed
    sv_fraction : float in (0, 1)

    Returns
    -------
    SparseVectorBudget
    """
    horizon = check_int("horizon", horizon, minimum=1)
    epsilon = check_epsilon(epsilon, allow_inf=True)
    _SV_FRACTION.check("sv_fraction", sv_fraction)
    n_releases = max(1, horizon.bit_length() - 1)  # floor(log2 T), exactly, for integers
    eps_stop = sv_fraction * epsilon
    eps_release = epsilon - eps_stop if math.isfinite(epsilon) else math.inf
    log_t = math.log(horizon)
    # T = 1: no round follows Phase I, nothing is released; any positive value will do
    eps_form = eps_release * log_t / n_releases if horizon > 1 else eps_release
    at_printed = eps_stop + eps_release * n_releases / log_t if horizon > 1 else eps_stop
    return SparseVectorBudget(
        epsilon=float(epsilon),
        eps_stop=float(eps_stop),
        eps_release=float(eps_release),
        releases_per_reward=n_releases,
        eps_per_release=float(eps_release / n_releases),
        eps_form=float(eps_form),
        total=float(eps_stop + n_releases * (eps_release / n_releases)),
        total_at_printed_scale=float(at_printed),
    )


def leading_run_law(
    horizon: int, epsilon: float, phase1_constant: float, c: float = 3.0, alpha: float = 3.1
) -> dict[str, np.ndarray]:
    """Exact law of the first run of arm 0 under printed GDP-NCB on Part V's exposing instance.

    Arm 0 pays 1, arm 1 pays 0 (``D``); ``D'`` zeroes arm 0's round-1 reward. ``P(A_r) = 2^-r
    prod_{j<r} F(thr - S_j)`` (``F`` the Laplace CDF, ``S_j = j`` on D, ``j - 1`` on D').

    Parameters
    ----------
    horizon : int >= 2
    epsilon : float > 0, finite
    phase1_constant : float > 0
    c, alpha : float

    Returns
    -------
    dict of numpy.ndarray
        ``r`` (1..T), ``log_p0``/``log_p1``, ``loss``; the run length's ``p_run0``/``p_run1`` (0..T) and
        logs ``log_p_run0``/``log_p_run1``; ``threshold`` and ``scale``.
    """
    horizon = check_int("horizon", horizon, minimum=2)
    epsilon = check_epsilon(epsilon)
    check_positive("phase1_constant", phase1_constant)
    log_t = math.log(horizon)
    # Phase II's first pick after j >= 1 arm-0 pulls and none of arm 1: every term of Eq. (4) falls
    # with n, so arm 0's largest possible index is at j = 1 (n = 2, clipped mean 1)
    if gdp_index(1.0, 2.0, log_t, epsilon, c, alpha) >= gdp_index(0.0, 1.0, log_t, epsilon, c, alpha):
        raise ValueError("on this instance Phase II may pick arm 0 after Phase I: the closed form does not hold")
    scale = log_t / epsilon
    thr = phase1_threshold_gdp(horizon, epsilon, c=c, constant=phase1_constant)
    r = np.arange(1, horizon + 1)
    j = np.arange(1, horizon)
    log_cont0 = np.concatenate([[0.0], np.cumsum(laplace_logcdf(thr - j, scale))])  # log space: P(A_T) ~ 2^-T
    log_cont1 = np.concatenate([[0.0], np.cumsum(laplace_logcdf(thr - j + 1, scale))])
    log_p0 = -r * math.log(2.0) + log_cont0
    log_p1 = -r * math.log(2.0) + log_cont1
    tail0 = np.concatenate([[1.0], np.exp(log_p0), [0.0]])  # P(R >= r), r = 0..T+1
    tail1 = np.concatenate([[1.0], np.exp(log_p1), [0.0]])

    def log_run(log_tail: np.ndarray) -> np.ndarray:
        # ln P(R = r) = ln(P(R >= r) - P(R >= r + 1)), in log space (P(A_T) ~ 2^-T underflows)
        upper = np.concatenate([[0.0], log_tail])
        lower = np.concatenate([log_tail, [-np.inf]])
        return upper + np.log1p(-np.exp(lower - upper))

    return {
        "r": r,
        "log_p0": log_p0,
        "log_p1": log_p1,
        "loss": log_p1 - log_p0,
        "p_run0": tail0[:-1] - tail0[1:],
        "p_run1": tail1[:-1] - tail1[1:],
        "log_p_run0": log_run(log_p0),
        "log_p_run1": log_run(log_p1),
        "threshold": thr,
        "scale": scale,
    }


def anytime_window_run_law(
    window: int, epsilon: float, phase1_constant: float, c: float = 3.0, alpha: float = 3.1
) -> dict[str, np.ndarray]:
    """Exact law of the first run of arm 0 in window ``W`` of anytime GDP-NCB (Algorithm 3).

    The pair of :func:`leading_run_law` moved to round ``W``: law ``q U + (1 - q) L``, ``q = 1/W^2`` (line 3).

    Parameters
    ----------
    window : int
        ``W``, a power of two >= 2.
    epsilon : float > 0, finite
    phase1_constant : float > 0
    c, alpha : float

    Returns
    -------
    dict of numpy.ndarray
        ``r`` (0..W), ``p_run0``/``p_run1``, their logs, ``loss``, ``uniform_probability``, ``start`` and
        ``horizon`` (the window's first and last rounds).
    """
    window = check_int("window", window, minimum=2)
    if window & (window - 1):
        raise ValueError(f"window must be a power of two (Algorithm 3 doubles from 1), got {window}")
    base = leading_run_law(window, epsilon, phase1_constant, c=c, alpha=alpha)
    q = 1.0 / window**2
    r = np.arange(window + 1)
    log_uniform = -np.minimum(r + 1, window) * math.log(2.0)  # 2^-(r+1) for r < W, 2^-W at r = W

    log_p0, log_p1 = (
        np.logaddexp(math.log(q) + log_uniform, math.log1p(-q) + base[key]) for key in ("log_p_run0", "log_p_run1")
    )
    return {
        "r": r,
        "p_run0": np.exp(log_p0),
        "p_run1": np.exp(log_p1),
        "log_p_run0": log_p0,
        "log_p_run1": log_p1,
        "loss": log_p1 - log_p0,
        "uniform_probability": q,
        "start": window - 1,
        "horizon": 2 * window - 1,
    }


# --------------------------------------------------------------------------------------------
# numba kernels
# --------------------------------------------------------------------------------------------


class PhaseOneState(NamedTuple):
    """What GDP-NCB's Phase II starts from (per-arm arrays).

    Attributes
    ----------
    mu_hat, mu_tilde, n1, arm_releases : numpy.ndarray
        Phase I means (exact, private) and pulls; Phase II releases.
    """

    mu_hat: np.ndarray
    mu_tilde: np.ndarray
    n1: np.ndarray
    arm_releases: np.ndarray


@njit(nogil=True, cache=True)
def _log_window(big_t):  # pragma: no cover - compiled
    """``log W`` with the authors' window ``W = int(sqrt(T)) + 1``."""
    return np.log(int(np.sqrt(big_t)) + 1.0)


@njit(nogil=True, cache=True)
def _clip01(x):  # pragma: no cover - compiled
    return min(1.0, max(0.0, x))


@njit(nogil=True, cache=True)
def _ncb_block(rng, kinds, params, table, arms, t0, n_play, big_t, k_consts, cap):  # pragma: no cover
    """NCB (Barman et al. 2023) with the data-adaptive Phase I test of Algorithm 1 at eps = inf."""
    # Plays rounds ``t0 .. t0 + n_play - 1``; ``big_t`` is the horizon the algorithm is told.
    # Returns the number of Phase I rounds.
    k = kinds.shape[0]
    const, c, bonus = k_consts.phase1_constant, k_consts.c, k_consts.authors_bonus
    log_t = np.log(big_t)
    thr = const * c * c * log_t
    n = np.zeros(k)
    mean = np.zeros(k)
    t = 0
    # Phase I: uniform exploration until n_i * mu_hat_i > C c^2 log T for some arm
    while t < min(n_play, cap):
        a = rng.integers(0, k)
        x = draw_reward(rng, kinds, params, table, t0 + t, a)
        n[a] += 1.0
        mean[a] += (x - mean[a]) / n[a]
        record_play(arms, t0 + t, a, 1)
        t += 1
        if n[a] * mean[a] > thr:
            break
    phase1 = t
    # Phase II: play argmax NCB(i, t) = mu_hat + 4 sqrt(mu_hat log T / n_i)   (Eq. 3). The index uses
    # log T, not log t, so only the pulled arm's index changes: it is kept per arm and recomputed
    # for that arm alone (the same formula, so the same numbers as recomputing every arm).
    idx = np.empty(k)
    for i in range(k):
        idx[i] = _ncb_index(mean[i], n[i], log_t, c, bonus)
    while t < n_play:
        best = -np.inf
        a = 0
        for i in range(k):
            if idx[i] > best:
                best = idx[i]
                a = i
        x = draw_reward(rng, kinds, params, table, t0 + t, a)
        n[a] += 1.0
        mean[a] += (x - mean[a]) / n[a]
        idx[a] = _ncb_index(mean[a], n[a], log_t, c, bonus)
        record_play(arms, t0 + t, a, 1)
        t += 1
    return phase1, 0


@njit(nogil=True, cache=True)
def _ncb_index(mean, n, log_t, c, authors_bonus):  # pragma: no cover - compiled
    """NCB(i, t) of Eq. (3), ``inf`` for an arm never pulled; ``authors_bonus``: ``2 c sqrt(2 mu log T / n)``."""
    if n == 0.0:
        return np.inf
    if authors_bonus:  # NCBNonPrivate.py line 83 of the authors' code
        return mean + 2.0 * c * np.sqrt(2.0 * mean * log_t / n)
    return mean + 4.0 * np.sqrt(mean * log_t / n)


@njit(nogil=True, cache=True)
def gdp_index(mu_tilde, n, log_t, eps, c, alpha):  # pragma: no cover - compiled
    """GDP-NCB's Phase II index, Eq. (4) of ``sarkar2026dpncb`` (privacy terms vanish at ``eps = inf``).

    Parameters
    ----------
    mu_tilde, n : float
        Private (clipped) mean and pulls.
    log_t, eps, c, alpha : float
    """
    idx = mu_tilde + 2.0 * c * np.sqrt(2.0 * mu_tilde * log_t / n)
    if np.isfinite(eps):
        idx += alpha * log_t * log_t / (eps * n)
        # full version of sarkar2026dpncb: 4 sqrt(2 alpha / eps) (log T)^{3/2} / n; the conference text
        # typesets the sqrt over the whole fraction; the proofs (Lemma D.2, Eq. (20)) use this form
        idx += 4.0 * np.sqrt(2.0 * alpha / eps) * log_t**1.5 / n
    return idx


@njit(nogil=True, cache=True)
def _gdp_block(rng, kinds, params, table, arms, t0, n_play, big_t, eps, k_consts, cap):  # pragma: no cover
    """GDP-NCB, Algorithm 1. Returns (Phase I rounds, Phase II Laplace releases)."""
    k = kinds.shape[0]
    const, c = k_consts.phase1_constant, k_consts.c
    log_t = np.log(big_t)
    log_i = _log_window(big_t) if k_consts.log_window else log_t  # log W (authors' code) or log T
    thr = const * (c * c * log_i + (log_i * log_i / eps if np.isfinite(eps) else 0.0))
    # line 1: mu_hat = mu_tilde = 0, N_1 = 0
    mu_hat = np.zeros(k)
    mu_tilde = np.zeros(k)
    n1 = np.zeros(k)
    t = 0
    # line 2: while max_i n_i mu_tilde_i <= thr and t <= T (only the pulled arm's product changes)
    while t < min(n_play, cap):
        a = rng.integers(0, k)  # line 3: I_t ~ Unif([k])
        x = draw_reward(rng, kinds, params, table, t0 + t, a)
        n1[a] += 1.0  # line 4
        mu_hat[a] = (n1[a] - 1.0) / n1[a] * mu_hat[a] + x / n1[a]
        if k_consts.phase1_noise:
            mu_tilde[a] = mu_hat[a] + laplace_draw(rng, log_t / (eps * n1[a]))  # line 5
        else:  # authors' code: no Phase I noise, the test reads the exact mean
            mu_tilde[a] = mu_hat[a]
        record_play(arms, t0 + t, a, 1)
        t += 1  # line 6
        if n1[a] * mu_tilde[a] > thr:
            break
    phase1 = t
    state = PhaseOneState(mu_hat, mu_tilde, n1, np.zeros(k, dtype=np.int64))
    _gdp_phase2(rng, kinds, params, table, arms, t0, t, n_play, log_t, log_i, eps, k_consts, state)
    return phase1, state.arm_releases.sum()


@njit(nogil=True, cache=True)
def _gdp_phase2(rng, kinds, params, table, arms, t0, t, n_play, log_t, log_i, eps, k_consts, state):  # pragma: no cover
    """Phase II of Algorithm 1 (lines 8-22) from round ``t`` on, from the Phase I ``state``."""
    # Counts the Laplace releases of each arm in ``state.arm_releases``. An episode that reaches the last
    # round releases nothing: no later decision would read the release (lines 20-21 after the horizon
    # are dead code), and skipping it keeps the count equal to the releases the privacy accounting of
    # :func:`sparse_vector_budget` pays for. ``log_t`` scales the releases, ``log_i`` (``log T``, or
    # ``log W`` with ``log_window``) enters the index.
    k = kinds.shape[0]
    c, alpha = k_consts.c, k_consts.alpha
    mu_hat, mu_tilde, n1, arm_releases = state
    # The paper clips the private means to [0, 1] "for both algorithms" (line 21 for the Phase II
    # releases); the Phase I means enter Eq. (4) here too, and a negative one would make the
    # sqrt(mu_tilde) term NaN and drop the arm from every argmax. Clipping is post-processing.
    for i in range(k):
        mu_tilde[i] = 0.0 if k_consts.reset_mu_tilde else _clip01(mu_tilde[i])  # reset: authors' code
    n2 = np.ones(k)  # line 8: N_2,i = 1
    while t < n_play:  # line 9: episodes
        best = -np.inf  # line 11: A = argmax NCB_GDP(i, t_l - 1), n_i = N_1,i + N_2,i
        a = 0
        for i in range(k):
            idx = gdp_index(mu_tilde[i], n1[i] + n2[i], log_i, eps, c, alpha)
            if idx > best:
                best = idx
                a = i
        ns = int(n2[a])  # line 12
        # line 13: episode mean restarted from the Phase I mean, N_2,A = 0
        length = min(2 * ns, n_play - t)  # line 14: 2 n_s pulls (truncated at the horizon)
        s = draw_reward_sum(rng, kinds, params, table, t0 + t, a, length)  # lines 15-19 in one draw
        record_play(arms, t0 + t, a, length)  # line 14's 2 n_s pulls of A
        t += length
        n2[a] = length  # line 16
        if t < n_play:  # a release after the last round is read by no decision
            n_a = n2[a] + n1[a]  # line 17
            mu_ep = (n1[a] * mu_hat[a] + s) / n_a  # line 18 unrolled: running mean from mu_hat_A
            mu_tilde[a] = _clip01(mu_ep + laplace_draw(rng, log_t / (eps * n_a)))  # lines 20-21
            arm_releases[a] += 1


@njit(nogil=True, cache=True)
def _gdp_sv_block(
    rng, kinds, params, table, arms, n_play, big_t, eps_stop, eps_form, k_consts, arm_releases
):  # pragma: no cover
    """GDP-NCB with the repaired Phase I (``phase1_rule="sparse_vector"``; NOT in the paper)."""
    # ``eps_stop`` pays for the stopping time: AboveThreshold (Dwork and Roth 2014, Algorithm 1) on the
    # queries ``q_t = max_i N_1,i mu_hat_i`` (the largest reward sum; one changed reward moves it by
    # at most 1): noisy threshold ``thr + Lap(2/eps_stop)`` drawn once, each query ``q_t +
    # Lap(4/eps_stop)``, stop at the first query at or above it. Then the Phase I means are released
    # once, ``mu_hat_i + Lap(log T / (eps_form N_1,i))``, and Phase II is the printed one (lines 8-22);
    # the threshold, the releases and Eq. (4) all use ``eps_form`` in place of the printed eps.
    # :func:`sparse_vector_budget` chooses ``eps_form`` so that the whole run is eps-DP.
    # Returns the number of Phase I rounds; counts the releases of each arm in ``arm_releases``.
    k = kinds.shape[0]
    const, c = k_consts.phase1_constant, k_consts.c
    log_t = np.log(big_t)
    fin = np.isfinite(eps_stop)
    thr = const * (c * c * log_t + (log_t * log_t / eps_form if fin else 0.0))
    mu_hat = np.zeros(k)
    mu_tilde = np.zeros(k)
    n1 = np.zeros(k)
    s_sum = np.zeros(k)
    noisy_thr = thr + laplace_draw(
        rng, 2.0 / eps_stop if fin else 0.0
    )  # AboveThreshold line 1: T_hat = T + Lap(2/eps1)
    t = 0
    while t < n_play:
        a = rng.integers(0, k)  # line 3: I_t ~ Unif([k]) (data-independent)
        x = draw_reward(rng, kinds, params, table, t, a)
        n1[a] += 1.0  # line 4
        s_sum[a] += x
        mu_hat[a] = (n1[a] - 1.0) / n1[a] * mu_hat[a] + x / n1[a]
        arms[t] = a
        t += 1
        q = s_sum.max()  # query f_t(D) = max_i N_1,i mu_hat_i, sensitivity 1
        if (
            q + laplace_draw(rng, 4.0 / eps_stop if fin else 0.0) >= noisy_thr
        ):  # AboveThreshold lines 3-5: halt at the first "above"
            break
    phase1 = t
    if t < n_play:  # one release of the Phase I means (replaces line 5's per-round releases)
        for i in range(k):
            if n1[i] > 0.0:
                mu_tilde[i] = mu_hat[i] + laplace_draw(rng, log_t / (eps_form * n1[i]) if fin else 0.0)
    # Phase II exactly as printed (lines 8-22), at eps_form
    _gdp_phase2(
        rng,
        kinds,
        params,
        table,
        arms,
        0,
        t,
        n_play,
        log_t,
        log_t,
        eps_form,
        k_consts,
        PhaseOneState(mu_hat, mu_tilde, n1, arm_releases),
    )
    return phase1


@njit(nogil=True, cache=True)
def _sv_kernel(rng, kinds, params, table, horizon, eps_stop, eps_form, k_consts):  # pragma: no cover - compiled
    arms = np.empty(horizon, dtype=np.int64)
    arm_releases = np.zeros(kinds.shape[0], dtype=np.int64)
    p1 = _gdp_sv_block(rng, kinds, params, table, arms, horizon, horizon, eps_stop, eps_form, k_consts, arm_releases)
    return arms, p1, arm_releases


@njit(nogil=True, cache=True)
def _ldp_block(rng, kinds, params, table, arms, t0, n_play, big_t, eps, k_consts, cap):  # pragma: no cover
    """LDP-NCB, Algorithm 2. Returns (Phase I rounds, 0)."""
    k = kinds.shape[0]
    const, c, alpha = k_consts.phase1_constant, k_consts.c, k_consts.alpha
    log_t = np.log(big_t)
    log_w = _log_window(big_t) if k_consts.log_window else log_t  # last term of Eq. (5)
    fin = np.isfinite(eps)
    noise = 1.0 / eps if fin else 0.0
    mu_tilde = np.zeros(k)  # line 1 (raw running mean of privatised rewards)
    n = np.zeros(k)
    t = 0
    while t < min(n_play, cap):  # line 2 (max{...} form of Section "Phase I"); only the pulled arm changes
        a = rng.integers(0, k)  # line 3
        if k_consts.phase1_noise_as_location:  # authors' code: 1/eps passed as the location of a Lap(1) draw
            x = draw_reward(rng, kinds, params, table, t0 + t, a) + (noise + laplace_draw(rng, 1.0))
        else:
            x = draw_reward(rng, kinds, params, table, t0 + t, a) + laplace_draw(rng, noise)  # line 4
        n[a] += 1.0  # line 5
        mu_tilde[a] = (n[a] - 1.0) / n[a] * mu_tilde[a] + x / n[a]
        record_play(arms, t0 + t, a, 1)
        t += 1  # line 6
        s_prod = n[a] * mu_tilde[a]
        dev = noise * np.sqrt(8.0 * n[a] * alpha * log_t)  # (1/eps) sqrt(8 n alpha log T)
        if s_prod > dev:
            extra = 0.0
            if fin:
                extra = n[a] * log_t * log_t / ((s_prod - dev) * eps * eps)
            if s_prod >= dev + const * (c * c * log_t + extra):
                break
    phase1 = t
    # The index uses log T, so only the pulled arm's index changes between rounds: kept per arm and
    # recomputed for that arm alone (the same formula, so the same numbers as a full recomputation).
    idx = np.empty(k)
    for i in range(k):
        idx[i] = _ldp_index(mu_tilde[i], n[i], log_t, log_w, eps, c, alpha)
    while t < n_play:  # line 8
        best = -np.inf  # line 9: argmax NCB_LDP (Eq. 5) of the clipped means
        a = 0
        for i in range(k):
            if idx[i] > best:
                best = idx[i]
                a = i
        x = draw_reward(rng, kinds, params, table, t0 + t, a) + laplace_draw(rng, noise)  # line 10
        n[a] += 1.0  # line 11
        mu_tilde[a] = (n[a] - 1.0) / n[a] * mu_tilde[a] + x / n[a]
        idx[a] = _ldp_index(mu_tilde[a], n[a], log_t, log_w, eps, c, alpha)
        record_play(arms, t0 + t, a, 1)
        t += 1  # line 13
    return phase1, 0


@njit(nogil=True, cache=True)
def _ldp_index(mu_tilde, n, log_t, log_w, eps, c, alpha):  # pragma: no cover - compiled
    """NCB_LDP(i, t) of Eq. (5) on the clipped mean (line 12), ``inf`` for an arm never pulled."""
    # ``log_w`` enters the last term (``log T`` as printed; ``log W`` in the authors' code).
    if n == 0.0:
        return np.inf
    m = _clip01(mu_tilde)  # line 12 (clipping applied to the value the index uses)
    idx = m + 2.0 * c * np.sqrt(2.0 * m * log_t / n)
    if np.isfinite(eps):
        idx += np.sqrt(8.0 * alpha * log_t / n) / eps
        idx += 4.0 * c * (2.0 * alpha) ** 0.25 * log_w**0.75 / (np.sqrt(eps) * n**0.75)
    return idx


@njit(nogil=True, cache=True)
def _block(base, rng, kinds, params, table, arms, t0, n_play, big_t, eps, k_consts):  # pragma: no cover
    """Rounds ``t0 .. t0 + n_play - 1`` of the algorithm ``base`` told the horizon ``big_t``."""
    # Rounds ``t0 .. t0 + n_play - 1`` of the algorithm ``base`` (:data:`NCB_BASE`, :data:`GDP_BASE`
    # or :data:`LDP_BASE`) told the horizon ``big_t``. Returns (Phase I rounds, Laplace releases).
    # cap_sqrt: optional cap of Phase I at ceil(sqrt(T)) + 1 rounds (NOT in the paper's pseudocode)
    cap = int(np.ceil(np.sqrt(big_t))) + 1 if k_consts.phase1_cap_sqrt else n_play
    if k_consts.phase1_window_cap:  # the authors' window W = int(sqrt T) + 1: W rounds, W + 1 for LDP-NCB (t <= W)
        w = int(np.sqrt(big_t)) + 1
        cap = w + 1 if base == LDP_BASE else w
    if base == NCB_BASE:
        return _ncb_block(rng, kinds, params, table, arms, t0, n_play, big_t, k_consts, cap)
    if base == GDP_BASE:
        return _gdp_block(rng, kinds, params, table, arms, t0, n_play, big_t, eps, k_consts, cap)
    return _ldp_block(rng, kinds, params, table, arms, t0, n_play, big_t, eps, k_consts, cap)


@njit(nogil=True, cache=True)
def _fixed_play(rng, out, kinds, params, table, horizon, base, eps, k_consts):  # pragma: no cover
    """One run told the horizon, its play recorded into ``out`` (:func:`~privbandits.policies.base.record_play`)."""
    p1, rel = _block(base, rng, kinds, params, table, out, 0, horizon, horizon, eps, k_consts)
    return out, p1, rel


@njit(nogil=True, cache=True)
def _fixed_kernel(rng, kinds, params, table, horizon, base, epsilon, constants):  # pragma: no cover
    return _fixed_play(rng, np.empty(horizon, dtype=np.int64), kinds, params, table, horizon, base, epsilon, constants)


@njit(nogil=True, cache=True)
def _fixed_episodes(rng, kinds, params, table, horizon, base, epsilon, constants):  # pragma: no cover
    """:func:`_fixed_kernel` with the play recorded as episodes (``Policy.run_episodes``)."""
    out, p1, rel = _fixed_play(rng, new_episodes(), kinds, params, table, horizon, base, epsilon, constants)
    return episode_array(out), p1, rel


@njit(nogil=True, cache=True)
def _anytime_kernel(rng, kinds, params, table, horizon, base, epsilon, constants):  # pragma: no cover
    """Algorithm 3: windows W = 1, 2, 4, ...; uniform with probability 1/W^2, else DP-NCB(k, W, epsilon)."""
    k = kinds.shape[0]
    arms = np.empty(horizon, dtype=np.int64)
    t = 0
    w = 1  # line 1
    n_uniform = 0
    while t < horizon:  # line 2
        n_play = min(w, horizon - t)
        if rng.random() < 1.0 / (w * w):  # line 3: flag = UNIFORM
            for u in range(n_play):  # lines 5-7 (rewards observed, not used)
                a = rng.integers(0, k)
                draw_reward(rng, kinds, params, table, t + u, a)
                arms[t + u] = a
            n_uniform += 1
        else:  # line 9: a fresh DP-NCB told the horizon W
            _block(base, rng, kinds, params, table, arms, t, n_play, w, epsilon, constants)
        t += n_play
        w *= 2  # line 11
    return arms, n_uniform


# --------------------------------------------------------------------------------------------
# policies
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class NCBFamily(Policy):
    """Base class of the NCB family: shared fields, checks and horizon rule (any ``T >= 1``, even ``T < K``).

    Unlike the other policies, which need one pull of every arm, these accept a horizon shorter than
    the number of arms: Algorithm 3 of ``sarkar2026dpncb`` runs a fresh DP-NCB told the horizon
    ``W = 1, 2, 4, ...`` in each window, so the play at ``T < K`` (Phase I's uniform exploration,
    ended early only by its test) is part of the algorithm, and the anytime algorithm can be stopped
    at any round.

    Parameters
    ----------
    phase1_constant : float > 0, keyword-only
        ``C`` of Phase I (the paper's 1600; default :data:`DEFAULT_PHASE1_CONSTANT`).
    c : float > 0, keyword-only
    phase1_cap_sqrt : bool, keyword-only
        Stop Phase I after ceil(sqrt(T)) + 1 rounds (not in the paper).
    """

    _: dataclasses.KW_ONLY
    phase1_constant: float = param(DEFAULT_PHASE1_CONSTANT, Real())
    c: float = param(3.0, Real())
    phase1_cap_sqrt: bool = param(False, Bool())

    records = ("arms", "phase1_end")

    def min_horizon(self, n_arms: int) -> int:
        return 1

    @property
    def _constants(self) -> NCBConstants:
        """The kernels' constants: the fields of :class:`NCBConstants` this policy has."""
        return NCBConstants(**{name: getattr(self, name) for name in NCBConstants._fields if hasattr(self, name)})

    def _check_together(self) -> None:
        if getattr(self, "phase1_window_cap", False) and self.phase1_cap_sqrt:
            raise ValueError("phase1_window_cap and phase1_cap_sqrt are two caps: choose one")


@dataclasses.dataclass(frozen=True)
class NCB(NCBFamily):
    """Nash Confidence Bound (``barman2023fairness``), non-private; records ``arms`` and ``phase1_end``.

    Phase I: uniform exploration until ``n_i mu_hat_i > phase1_constant * c^2 log T`` for some arm;
    Phase II: the arm maximising ``mu_hat_i + 4 sqrt(mu_hat_i log T / n_i)`` (Eq. (3) of
    ``sarkar2026dpncb``).

    Parameters
    ----------
    authors_bonus : bool, keyword-only
        Phase II bonus ``2 c sqrt(2 mu_hat log T / n)`` (Eq. (4)'s first term) instead of Eq. (3)'s.
    """

    _: dataclasses.KW_ONLY
    authors_bonus: bool = param(False, Bool())

    name = "NCB"
    departures = (
        Departure(
            "authors_bonus", True, "bonus 2c sqrt(2 mu log T/n)", "NCBNonPrivate.py line 83", "bonus", plus=False
        ),
    )
    _kernel = staticmethod(_fixed_kernel)
    binding = (NCB_BASE, math.inf, "_constants")


@dataclasses.dataclass(frozen=True)
class GDPNCB(NCBFamily):
    """GDP-NCB, Algorithm 1 of ``sarkar2026dpncb``: epsilon-global DP claimed (Theorem 2), refuted in Part V.

    Phase I (lines 2-7): uniform pulls, ``mu_tilde = mu_hat + Lap(log T / (eps N_1))``, until ``n_i mu_tilde_i``
    passes :func:`phase1_threshold_gdp`: a stopping time the actions show (:func:`leading_run_law`).
    Phase II (lines 8-22): doubling episodes on the argmax of Eq. (4), each released with ``Lap(log T / (eps n_A))``.

    Parameters
    ----------
    epsilon : float > 0
        ``inf`` runs without noise.
    alpha : float > 0
    phase1_rule : {"printed", "sparse_vector"}
        As printed, or Part V's repair: AboveThreshold on ``sv_fraction epsilon`` (:func:`sparse_vector_budget`).
    sv_fraction : float in (0, 1)
    phase1_noise, reset_mu_tilde, log_window, phase1_window_cap : bool, keyword-only
        Departures of the authors' code (printed rule only).
    """

    epsilon: float = param(0.2, _EPSILON)
    alpha: float = param(3.1, Real())
    phase1_rule: str = param("printed", Choice(("printed", "sparse_vector")))
    sv_fraction: float = param(0.5, _SV_FRACTION)
    _: dataclasses.KW_ONLY
    phase1_noise: bool = param(True, Bool())
    reset_mu_tilde: bool = param(False, Bool())
    log_window: bool = param(False, Bool())
    phase1_window_cap: bool = param(False, Bool())

    name = "GDP-NCB"
    private = True
    records = ("arms", "phase1_end", "releases")
    departures = (
        Departure("phase1_window_cap", True, "Phase I capped at W", "GDPNCB.py line 77 (t < W)", "cap", "as run - cap"),
        Departure("phase1_noise", False, "no Phase I noise", "GDPNCB.py lines 77-85", "nonoise", "as run - no noise"),
        Departure("reset_mu_tilde", True, "mu_tilde reset to 0", "GDPNCB.py line 93", "reset", "as run - reset"),
        Departure(
            "log_window",
            True,
            "log W (index and Phase I threshold)",
            "GDPNCB.py lines 76, 105-107, 149",
            "logw",
            "as run - log W",
        ),
        Departure(
            "phase1_constant",
            PAPER_PHASE1_CONSTANT,
            "C = 1600",
            "GDPNCB.py line 76",
            "c1600",
            "as run with C = 1",
            plus=False,
        ),
    )
    accounting = "sparse-vector Phase I + releases at floor(log2 T) / eps2 (Part V)"
    _kernel = staticmethod(_fixed_kernel)
    binding = (GDP_BASE, "epsilon", "_constants")
    _episode_kernel = staticmethod(_fixed_episodes)

    def _check_together(self) -> None:
        super()._check_together()
        flags = [d for d in self.departures if d.field != "phase1_constant"]
        if self.phase1_rule == "sparse_vector" and any(getattr(self, d.field) == d.value for d in flags):
            raise ValueError("the departure flags apply to phase1_rule='printed' only")
        if self.phase1_rule == "sparse_vector" and self.phase1_cap_sqrt:
            raise ValueError("phase1_cap_sqrt is not available with phase1_rule='sparse_vector'")

    @property
    def episodic(self) -> bool:
        """True for the printed Phase I rule (:meth:`run_episodes` records its Phase II episodes as such)."""
        return self.phase1_rule == "printed"

    def _kernel_call(self, instance, horizon):
        if self.phase1_rule == "sparse_vector":
            budget = sparse_vector_budget(horizon, self.epsilon, self.sv_fraction)
            return _sv_kernel, (*instance.kernel_args(), horizon, budget.eps_stop, budget.eps_form, self._constants)
        return super()._kernel_call(instance, horizon)

    def _records(self, raw) -> Records:
        if self.phase1_rule == "printed":
            return super()._records(raw)
        arms, p1, arm_rel = raw
        return {
            "arms": arms,
            "phase1_end": np.asarray(p1),
            "releases": np.asarray(arm_rel.sum()),
            "arm_releases": arm_rel,
        }

    def guarantee(self, horizon, delta=0.0):
        if self.phase1_rule == "sparse_vector":
            return sparse_vector_budget(horizon, self.epsilon, self.sv_fraction).total, 0.0, True
        return float(self.epsilon), 0.0, False

    @classmethod
    def calibrated(cls, epsilon, delta, horizon, **kwargs):
        cls._needs_horizon(horizon)
        eps_run = epsilon
        sv = kwargs.get("sv_fraction", 0.5)
        while math.isfinite(eps_run) and sparse_vector_budget(horizon, eps_run, sv).total > epsilon:
            eps_run = math.nextafter(eps_run, 0.0)  # rounding of the split: at most a few ulps
        params = {"epsilon": eps_run, "phase1_rule": "sparse_vector"}
        return cls(**params, **kwargs), params, cls.accounting


@dataclasses.dataclass(frozen=True)
class LDPNCB(NCBFamily):
    """LDP-NCB, Algorithm 2 of ``sarkar2026dpncb``: epsilon-local DP (Theorem 3).

    Every reward is released as ``X + Lap(1/eps)`` (lines 4, 10). Phase I stops at the first arm with
    ``n mu_tilde >= max{A, A + C (c^2 log T + n (log T)^2 / ((n mu_tilde - A) eps^2))}``,
    ``A = sqrt(8 n alpha log T) / eps``; Phase II plays the argmax of Eq. (5) on the clipped mean.

    Parameters
    ----------
    epsilon : float > 0
        ``inf`` runs without noise.
    alpha : float > 0
    phase1_noise_as_location, log_window, phase1_window_cap : bool, keyword-only
        Departures of the authors' code.
    """

    epsilon: float = param(0.2, _EPSILON)
    alpha: float = param(3.1, Real())
    _: dataclasses.KW_ONLY
    phase1_noise_as_location: bool = param(False, Bool())
    log_window: bool = param(False, Bool())
    phase1_window_cap: bool = param(False, Bool())

    name = "LDP-NCB"
    private = True
    departures = (
        Departure("phase1_window_cap", True, "Phase I capped at W + 1", "LDPNCB.py line 82 (t <= W)", "cap"),
        Departure(
            "phase1_noise_as_location",
            True,
            "Phase I rewards X + 1/eps + Lap(1)",
            "LDPNCB.py line 92 (1/eps passed as np.random.laplace's location)",
            "loc",
            "as run - noise as location",
            plus=False,
        ),
        Departure(
            "log_window",
            True,
            "log W in the last term of Eq. (5)",
            "LDPNCB.py lines 113, 138",
            "logw",
            "as run - log W",
            plus=False,
        ),
        Departure("phase1_constant", PAPER_PHASE1_CONSTANT, "C = 1600", "LDPNCB.py line 62", "c1600", plus=False),
    )
    accounting = "local: each reward released once with Lap(1/eps)"
    _kernel = staticmethod(_fixed_kernel)
    binding = (LDP_BASE, "epsilon", "_constants")


@dataclasses.dataclass(frozen=True)
class AnytimeDPNCB(NCBFamily):
    """Algorithm 3 of ``sarkar2026dpncb``: the anytime (doubling) wrapper over GDP-NCB or LDP-NCB.

    Windows ``W = 1, 2, 4, ...``: uniform with probability ``1/W^2``, else a fresh ``base`` run told ``W``;
    each reward is used in one window, so the base's privacy (and leak) carries over.

    Parameters
    ----------
    base : {"gdp", "ldp"}
    epsilon : float > 0
        ``inf`` runs without noise.
    alpha : float > 0
    """

    base: str = param("gdp", Choice(("gdp", "ldp")))
    epsilon: float = param(0.2, _EPSILON)
    alpha: float = param(3.1, Real())

    private = True
    anytime = True  # never reads the horizon: one run gives every horizon
    records = ("arms", "uniform_windows")
    _kernel = staticmethod(_anytime_kernel)
    binding = (lambda p, h: GDP_BASE if p.base == "gdp" else LDP_BASE, "epsilon", "_constants")

    @property
    def name(self) -> str:  # type: ignore[override]
        """``"Anytime GDP-NCB"`` or ``"Anytime LDP-NCB"``, after ``base``."""
        return "Anytime GDP-NCB" if self.base == "gdp" else "Anytime LDP-NCB"

    def guarantee(self, horizon, delta=0.0):
        return float(self.epsilon), 0.0, self.base == "ldp"

    @classmethod
    def calibrated(cls, epsilon, delta, horizon, base="gdp", **kwargs):
        params = {"base": base, "epsilon": epsilon}
        claimed = "claimed (Theorem 2 + parallel composition); the printed Phase I leaks (Part V)"
        return cls(**params, **kwargs), params, LDPNCB.accounting if base == "ldp" else claimed
