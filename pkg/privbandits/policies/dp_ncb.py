"""DP-NCB (``sarkar2026dpncb``, Algorithms 1-3; NCB is ``barman2023fairness``) on one base class and one
set of kernels; also the exact law of GDP-NCB's Phase I leak (Part V) and its repair's budget.
"""

from __future__ import annotations

import dataclasses
import math
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.np.random.generator_core import next_uint32

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
    "SV_BASE",
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
#: GDP-NCB with Part V's repaired Phase I (``phase1_rule="sparse_vector"``, NOT in the paper): its kernel block.
SV_BASE = 3


class NCBConstants(NamedTuple):
    """The constants every NCB-family kernel reads, under the policies' field names (absent field: its default).

    Attributes
    ----------
    phase1_constant, c, alpha : float
        ``C`` of the Phase I test; ``c`` and ``alpha`` of Eqs. (4)-(5).
    phase1_cap_sqrt, phase1_window_cap, log_window, phase1_noise : bool
    reset_mu_tilde, phase1_noise_as_location, authors_bonus : bool
    eps_stop : float
        Not a field: the budget of the sparse-vector stopping rule (:data:`SV_BASE` only), from
        :func:`sparse_vector_budget` at the horizon.
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
    eps_stop: float = math.inf


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


@njit(nogil=True, cache=True)
def _log_window(big_t):  # pragma: no cover - compiled
    """``log W`` with the authors' window ``W = int(sqrt(T)) + 1``."""
    return np.log(int(np.sqrt(big_t)) + 1.0)


@njit(nogil=True, cache=True, inline="always")
def _clip01(x):  # pragma: no cover - compiled
    return min(1.0, max(0.0, x))


@njit(nogil=True, cache=True, inline="always")
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


@njit(nogil=True, cache=True, inline="always")
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


# The step functions of NCB (Barman et al. 2023, with the data-adaptive Phase I test of Algorithm 1 at
# eps = inf), GDP-NCB (Algorithm 1) and LDP-NCB (Algorithm 2), ``base`` choosing (:data:`NCB_BASE`,
# :data:`GDP_BASE`, :data:`LDP_BASE`); ``horizon`` is the horizon the algorithm is told. Every round of
# Phase I, and of NCB's and LDP-NCB's Phase II, is an episode of one round; GDP-NCB's Phase II episodes
# are its doubling episodes (lines 12-19). The state is one (7, max(K, 8)) array (one array to carry keeps
# the split kernel as fast as the unsplit one, benchmarks/README.md, issue 36): per-arm rows, then a row
# of scalars.
#: rows: pulls (n, N_1 for GDP-NCB); the exact mean (NCB, GDP-NCB's mu_hat) or LDP-NCB's running mean of
#: privatised rewards; GDP-NCB's mu_tilde; GDP-NCB's N_2; NCB's and LDP-NCB's Phase II index (kept per arm:
#: the index uses log T, so only the pulled arm's changes), which holds the repaired Phase I's reward sums
#: (``_SUM``: GDP-NCB reads no index row); GDP-NCB's Phase II releases of each arm
_N, _MEAN, _TILDE, _N2, _IDX, _REL = 0, 1, 2, 3, 4, 5
_SUM = _IDX
#: scalars: the phase (1 or 2); Phase I rounds so far; the Phase I cap; log T; log T or log W (the index's,
#: GDP-NCB's threshold's, LDP-NCB's last term's); the Phase I threshold (the repaired Phase I's noisy one once
#: drawn); LDP-NCB's noise scale 1/eps; K; the Phase II argmax's arm left out (-1: none), and the first arm
#: with the largest index among the others (-1: none above -inf) and that index (:func:`_ncb_choose2`)
_PHASE, _P1END, _CAP, _LOG_T, _LOG_I, _THR, _NOISE, _K, _OUT, _OTHER, _OTHER_IDX = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
_S = 6  # the row of the scalars


@njit(nogil=True, cache=True, inline="always")
def _uniform_arm(rng, k):  # pragma: no cover - compiled
    """``rng.integers(0, k)`` for ``1 <= k <= 2^32``, the same draw from the same stream, without its checks."""
    # numba's ``Generator.integers`` allocates a one-element array and checks its bounds (a path that raises)
    # on every call: inlined into a kernel, either stops numba pruning the reference counting of the step
    # functions' arrays (benchmarks/README.md, issue 36). The draw is the one numpy and numba make for a
    # range below 2^32: a 32-bit word ``x`` (``next_uint32`` of the generator's bit generator), ``m = x * k``,
    # kept if its low 32 bits are at least ``2^32 mod k`` (Lemire's rejection), the result ``m >> 32``.
    # ``tests/test_dp_ncb.py`` checks it against ``integers``.
    if k == 1:
        return 0
    span = np.uint64(k)
    m = np.uint64(next_uint32(rng.bit_generator)) * span
    low = m & np.uint64(0xFFFFFFFF)
    if low < span:
        threshold = (np.uint64(0xFFFFFFFF) - (span - np.uint64(1))) % span
        while low < threshold:
            m = np.uint64(next_uint32(rng.bit_generator)) * span
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@njit(nogil=True, cache=True, inline="always")
def _ncb_init(k, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    state = np.zeros((7, max(k, 11)))
    state[_S, _K] = k
    state[_S, _PHASE] = 1.0
    state[_S, _OUT] = -1.0
    # cap_sqrt: optional cap of Phase I at ceil(sqrt(T)) + 1 rounds (NOT in the paper's pseudocode)
    cap = int(np.ceil(np.sqrt(horizon))) + 1 if constants.phase1_cap_sqrt else horizon
    if constants.phase1_window_cap:  # the authors' window W = int(sqrt T) + 1: W rounds, W + 1 for LDP-NCB (t <= W)
        w = int(np.sqrt(horizon)) + 1
        cap = w + 1 if base == LDP_BASE else w
    state[_S, _CAP] = cap
    const, c = constants.phase1_constant, constants.c
    log_t = np.log(horizon)
    log_i = _log_window(horizon) if constants.log_window else log_t  # log W (authors' code) or log T
    state[_S, _LOG_T] = log_t
    state[_S, _LOG_I] = log_i
    fin = np.isfinite(epsilon)
    if base == NCB_BASE:  # n_i mu_hat_i > C c^2 log T
        state[_S, _THR] = const * c * c * log_t
    elif base == GDP_BASE or base == SV_BASE:  # Algorithm 1, line 2 (at eps_form for the repair)
        state[_S, _THR] = const * (c * c * log_i + (log_i * log_i / epsilon if fin else 0.0))
    state[_S, _NOISE] = 1.0 / epsilon if fin else 0.0
    return state


@njit(nogil=True, cache=True, inline="always")
def _ncb_phase2(state, base, epsilon, constants):  # pragma: no cover - compiled
    """Phase I has ended: Phase II's per-arm quantities from the Phase I state."""
    k = int(state[_S, _K])
    state[_S, _PHASE] = 2.0
    state[_S, _OUT] = -1.0  # every index is new: the argmax scans them all
    for i in range(k):
        if base == NCB_BASE:
            state[_IDX, i] = _ncb_index(
                state[_MEAN, i], state[_N, i], state[_S, _LOG_T], constants.c, constants.authors_bonus
            )
        elif base == LDP_BASE:
            state[_IDX, i] = _ldp_index(
                state[_MEAN, i],
                state[_N, i],
                state[_S, _LOG_T],
                state[_S, _LOG_I],
                epsilon,
                constants.c,
                constants.alpha,
            )
        else:
            # The paper clips the private means to [0, 1] "for both algorithms" (line 21 for the Phase II
            # releases); the Phase I means enter Eq. (4) here too, and a negative one would make the
            # sqrt(mu_tilde) term NaN and drop the arm from every argmax. Clipping is post-processing.
            state[_TILDE, i] = 0.0 if constants.reset_mu_tilde else _clip01(state[_TILDE, i])  # reset: authors' code
            state[_N2, i] = 1.0  # line 8: N_2,i = 1


# Each phase has its own step functions, and the kernel a loop per phase (one loop whose body holds both
# phases was 20-40 % slower: the phase is read from the state every round); the agent's steps
# (``_ncb_choose``, ``_ncb_update``, ...) call the phase's function.


@njit(nogil=True, cache=True, inline="always")
def _phase1_choose(rng, state, t, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    """Phase I of the three: line 3, ``I_t ~ Unif([k])``."""
    return _uniform_arm(rng, int(state[_S, _K]))


@njit(nogil=True, cache=True, inline="always")
def _first_max(state, out):  # pragma: no cover - compiled
    """The first arm other than ``out`` with the largest index above -inf (-1 if none), and that index."""
    a = -1
    best = -np.inf
    for i in range(int(state[_S, _K])):
        if i != out and state[_IDX, i] > best:
            best = state[_IDX, i]
            a = i
    return a, best


@njit(nogil=True, cache=True, inline="always")
def _ncb_choose2(rng, state, t, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    """NCB's and LDP-NCB's Phase II: argmax NCB(i, t) (Eq. 3), NCB_LDP (Eq. 5, line 9), kept per arm."""
    # The arm a scan in arm order picks (the first with the largest index; arm 0 if none is above -inf),
    # without scanning every round: a round changes the pulled arm's index only, so the state keeps the
    # scan's result over the other arms (_OTHER, _OTHER_IDX) while that arm (_OUT) is pulled, and the
    # choice is between the two; the others are scanned again when the choice moves to another arm
    # (a share of the rounds that falls with T: 7 % of NCB's at T = 10^6 on Figure 1(b)).
    out = int(state[_S, _OUT])
    if out < 0:  # the first round of Phase II
        a, _ = _first_max(state, -1)
    else:
        x, other, v = state[_IDX, out], int(state[_S, _OTHER]), state[_S, _OTHER_IDX]
        if other < 0:  # no other index above -inf
            a = out if x > -np.inf else 0
        elif x > v:
            a = out
        elif x == v:
            a = min(out, other)
        else:  # x < v, or x is NaN
            a = other
    a = max(a, 0)
    if a != out:
        other, v = _first_max(state, a)
        state[_S, _OUT] = a
        state[_S, _OTHER] = other
        state[_S, _OTHER_IDX] = v
    return a


@njit(nogil=True, cache=True, inline="always")
def _gdp_choose2(rng, state, t, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    """GDP-NCB's Phase II episode from round ``t``: ``(arm, length)``."""
    a = np.int64(0)  # not 0: see _fixed_kernel
    best = -np.inf
    for i in range(int(state[_S, _K])):  # line 11: A = argmax NCB_GDP(i, t_l - 1), n_i = N_1,i + N_2,i
        idx = gdp_index(
            state[_TILDE, i], state[_N, i] + state[_N2, i], state[_S, _LOG_I], epsilon, constants.c, constants.alpha
        )
        if idx > best:
            best = idx
            a = i
    # lines 12-14: 2 n_s pulls (truncated at the horizon), the episode mean restarted from the Phase I mean
    return a, min(2 * int(state[_N2, a]), horizon - t)


@njit(nogil=True, cache=True, inline="always")
def _ncb_update1(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """NCB's Phase I: uniform exploration until n_i * mu_hat_i > C c^2 log T (or the cap)."""
    state[_N, arm] += 1.0
    state[_MEAN, arm] += (total - state[_MEAN, arm]) / state[_N, arm]
    state[_S, _P1END] = t + 1
    if state[_N, arm] * state[_MEAN, arm] > state[_S, _THR] or t + 1 >= state[_S, _CAP]:
        _ncb_phase2(state, base, epsilon, constants)


@njit(nogil=True, cache=True, inline="always")
def _ncb_update2(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """NCB's Phase II: the pulled arm's NCB(i, t) = mu_hat + 4 sqrt(mu_hat log T / n_i) (Eq. 3)."""
    state[_N, arm] += 1.0
    state[_MEAN, arm] += (total - state[_MEAN, arm]) / state[_N, arm]
    state[_IDX, arm] = _ncb_index(
        state[_MEAN, arm], state[_N, arm], state[_S, _LOG_T], constants.c, constants.authors_bonus
    )
    if arm != state[_S, _OUT]:  # not the arm _ncb_choose2 chose: its kept scan of the others is stale
        state[_S, _OUT] = -1.0


@njit(nogil=True, cache=True, inline="always")
def _ldp_update1(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """LDP-NCB's Phase I: the reward released with Lap(1/eps) (line 4), the running mean, the test (line 2)."""
    a = arm
    noise = state[_S, _NOISE]
    if constants.phase1_noise_as_location:  # authors' code: 1/eps passed as the location of a Lap(1) draw
        x = total + (noise + laplace_draw(rng, 1.0))
    else:
        x = total + laplace_draw(rng, noise)  # line 4
    state[_N, a] += 1.0  # line 5
    state[_MEAN, a] = (state[_N, a] - 1.0) / state[_N, a] * state[_MEAN, a] + x / state[_N, a]
    state[_S, _P1END] = t + 1
    # line 2 (max{...} form of Section "Phase I"); only the pulled arm changes
    log_t = state[_S, _LOG_T]
    s_prod = state[_N, a] * state[_MEAN, a]
    dev = noise * np.sqrt(8.0 * state[_N, a] * constants.alpha * log_t)  # (1/eps) sqrt(8 n alpha log T)
    stop = False
    if s_prod > dev:
        extra = 0.0
        if np.isfinite(epsilon):
            extra = state[_N, a] * log_t * log_t / ((s_prod - dev) * epsilon * epsilon)
        stop = s_prod >= dev + constants.phase1_constant * (constants.c * constants.c * log_t + extra)
    if stop or t + 1 >= state[_S, _CAP]:  # the test, or the Phase I cap reached at the next round
        _ncb_phase2(state, base, epsilon, constants)


@njit(nogil=True, cache=True, inline="always")
def _ldp_update2(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """LDP-NCB's Phase II: the reward released with Lap(1/eps) (line 10), the pulled arm's index (Eq. 5)."""
    a = arm
    x = total + laplace_draw(rng, state[_S, _NOISE])  # line 10
    state[_N, a] += 1.0  # line 11
    state[_MEAN, a] = (state[_N, a] - 1.0) / state[_N, a] * state[_MEAN, a] + x / state[_N, a]
    state[_IDX, a] = _ldp_index(
        state[_MEAN, a], state[_N, a], state[_S, _LOG_T], state[_S, _LOG_I], epsilon, constants.c, constants.alpha
    )
    if a != state[_S, _OUT]:  # as in _ncb_update2
        state[_S, _OUT] = -1.0


@njit(nogil=True, cache=True, inline="always")
def _gdp_update1(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """GDP-NCB's Phase I: lines 4-5, the test of line 2 (or the cap)."""
    a = arm
    state[_S, _P1END] = t + 1
    state[_N, a] += 1.0  # line 4
    state[_MEAN, a] = (state[_N, a] - 1.0) / state[_N, a] * state[_MEAN, a] + total / state[_N, a]
    if constants.phase1_noise:  # line 5
        state[_TILDE, a] = state[_MEAN, a] + laplace_draw(rng, state[_S, _LOG_T] / (epsilon * state[_N, a]))
    else:  # authors' code: no Phase I noise, the test reads the exact mean
        state[_TILDE, a] = state[_MEAN, a]
    if state[_N, a] * state[_TILDE, a] > state[_S, _THR] or t + 1 >= state[_S, _CAP]:
        _ncb_phase2(state, base, epsilon, constants)


@njit(nogil=True, cache=True, inline="always")
def _gdp_update2(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """GDP-NCB's Phase II: the episode of ``arm`` from round ``t`` ended with reward sum ``total`` (lines 16-21)."""
    a = arm
    state[_N2, a] = length  # line 16
    # An episode that reaches the last round releases nothing: no later decision would read the release
    # (lines 20-21 after the horizon are dead code), and skipping it keeps the count equal to the releases
    # the privacy accounting of :func:`sparse_vector_budget` pays for
    if t + length < horizon:
        n_a = state[_N2, a] + state[_N, a]  # line 17
        mu_ep = (state[_N, a] * state[_MEAN, a] + total) / n_a  # line 18 unrolled: running mean from mu_hat_A
        state[_TILDE, a] = _clip01(mu_ep + laplace_draw(rng, state[_S, _LOG_T] / (epsilon * n_a)))  # lines 20-21
        state[_REL, a] += 1.0


# GDP-NCB with the repaired Phase I (``phase1_rule="sparse_vector"``, :data:`SV_BASE`; NOT in the paper).
# ``eps_stop`` pays for the stopping time: AboveThreshold (Dwork and Roth 2014, Algorithm 1) on the queries
# ``q_t = max_i N_1,i mu_hat_i`` (the largest reward sum; one changed reward moves it by at most 1): noisy
# threshold ``thr + Lap(2/eps_stop)`` drawn once, before the first pull, each query ``q_t + Lap(4/eps_stop)``,
# stop at the first query at or above it. Then the Phase I means are released once, ``mu_hat_i + Lap(log T /
# (eps_form N_1,i))``, and Phase II is the printed one (lines 8-22, GDP-NCB's own step functions); the
# threshold, the releases and Eq. (4) all use ``eps_form`` (the ``epsilon`` the steps are given) in place of
# the printed eps. :func:`sparse_vector_budget` chooses ``eps_stop`` and ``eps_form`` so that the whole run
# is eps-DP.


@njit(nogil=True, cache=True, inline="always")
def _sv_choose1(rng, state, t, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    """The repaired Phase I's round ``t``: line 3, ``I_t ~ Unif([k])``, after AboveThreshold's line 1 at ``t = 0``."""
    if t == 0:  # AboveThreshold line 1: T_hat = T + Lap(2/eps_stop)
        eps_stop = constants.eps_stop
        state[_S, _THR] += laplace_draw(rng, 2.0 / eps_stop if np.isfinite(eps_stop) else 0.0)
    return _uniform_arm(rng, int(state[_S, _K]))


@njit(nogil=True, cache=True, inline="always")
def _sv_update1(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """The repaired Phase I's update: line 4, AboveThreshold's query; at its first "above", the release, Phase II."""
    a = arm
    x = total
    k = int(state[_S, _K])
    state[_S, _P1END] = t + 1
    state[_N, a] += 1.0  # line 4
    state[_SUM, a] += x
    state[_MEAN, a] = (state[_N, a] - 1.0) / state[_N, a] * state[_MEAN, a] + x / state[_N, a]
    q = state[_SUM, 0]  # query f_t(D) = max_i N_1,i mu_hat_i, sensitivity 1
    for i in range(1, k):
        q = max(q, state[_SUM, i])
    eps_stop = constants.eps_stop
    fin = np.isfinite(eps_stop)
    if q + laplace_draw(rng, 4.0 / eps_stop if fin else 0.0) >= state[_S, _THR]:  # AboveThreshold lines 3-5
        if t + 1 < horizon:  # one release of the Phase I means (replaces line 5's per-round releases)
            for i in range(k):
                if state[_N, i] > 0.0:
                    scale = state[_S, _LOG_T] / (epsilon * state[_N, i]) if fin else 0.0
                    state[_TILDE, i] = state[_MEAN, i] + laplace_draw(rng, scale)
        _ncb_phase2(state, base, epsilon, constants)  # Phase II exactly as printed, at eps_form


@njit(nogil=True, cache=True)
def _ncb_choose(rng, state, t, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    """NCB's and LDP-NCB's round ``t`` (the agent's step): ``(arm, 1)``."""
    if state[_S, _PHASE] == 1.0:
        return _phase1_choose(rng, state, t, horizon, base, epsilon, constants), 1
    return _ncb_choose2(rng, state, t, horizon, base, epsilon, constants), 1


@njit(nogil=True, cache=True)
def _gdp_choose(rng, state, t, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    """GDP-NCB's episode from round ``t`` (the agent's step): ``(arm, length)``, one round in Phase I."""
    if state[_S, _PHASE] == 1.0 and base == SV_BASE:
        return _sv_choose1(rng, state, t, horizon, base, epsilon, constants), 1
    if state[_S, _PHASE] == 1.0:
        return _phase1_choose(rng, state, t, horizon, base, epsilon, constants), 1
    return _gdp_choose2(rng, state, t, horizon, base, epsilon, constants)


@njit(nogil=True, cache=True)
def _ncb_update(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """NCB's update of round ``t`` (the agent's step)."""
    if state[_S, _PHASE] == 1.0:
        _ncb_update1(rng, state, t, arm, length, total, horizon, base, epsilon, constants)
    else:
        _ncb_update2(rng, state, t, arm, length, total, horizon, base, epsilon, constants)


@njit(nogil=True, cache=True)
def _ldp_update(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """LDP-NCB's update of round ``t`` (the agent's step)."""
    if state[_S, _PHASE] == 1.0:
        _ldp_update1(rng, state, t, arm, length, total, horizon, base, epsilon, constants)
    else:
        _ldp_update2(rng, state, t, arm, length, total, horizon, base, epsilon, constants)


@njit(nogil=True, cache=True)
def _gdp_update(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """GDP-NCB's update at the end of the episode from round ``t`` (the agent's step)."""
    if state[_S, _PHASE] == 1.0 and base == SV_BASE:
        _sv_update1(rng, state, t, arm, length, total, horizon, base, epsilon, constants)
    elif state[_S, _PHASE] == 1.0:
        _gdp_update1(rng, state, t, arm, length, total, horizon, base, epsilon, constants)
    else:
        _gdp_update2(rng, state, t, arm, length, total, horizon, base, epsilon, constants)


@njit(nogil=True, cache=True)
def _ncb_records(state):  # pragma: no cover - compiled
    return int(state[_S, _P1END]), int(state[_REL, : int(state[_S, _K])].sum())


# error_model="numpy" (no divisor is 0): a ZeroDivisionError branch would stop numba pruning the inlined
# step functions' reference counting (benchmarks/README.md, issue 36); the values are the same.
# GDP-NCB's rounds are a function of their own, _gdp_rounds, inlined into _block and into the episode kernel
# (GDP-NCB's alone), which then compiles GDP-NCB's steps only (compiling NCB's and LDP-NCB's steps with them
# cost a cold process about 3 CPU s).
@njit(nogil=True, cache=True, error_model="numpy")
def _block(base, rng, kinds, params, table, arms, t0, n_play, big_t, eps, k_consts):  # pragma: no cover
    """Rounds ``t0 .. t0 + n_play - 1`` of the algorithm ``base`` told the horizon ``big_t``."""
    # Returns (Phase I rounds, Laplace releases).
    if base == GDP_BASE:
        return _gdp_rounds(rng, kinds, params, table, arms, t0, n_play, big_t, eps, k_consts)
    state = _ncb_init(kinds.shape[0], big_t, base, eps, k_consts)
    t = 0
    while t < n_play and state[_S, _PHASE] == 1.0:  # Phase I (lines 2-7)
        a = _phase1_choose(rng, state, t, big_t, base, eps, k_consts)
        x = draw_reward(rng, kinds, params, table, t0 + t, a)
        record_play(arms, t0 + t, a, 1)
        if base == NCB_BASE:
            _ncb_update1(rng, state, t, a, 1, x, big_t, base, eps, k_consts)
        else:
            _ldp_update1(rng, state, t, a, 1, x, big_t, base, eps, k_consts)
        t += 1
    if base == NCB_BASE:
        while t < n_play:
            a = _ncb_choose2(rng, state, t, big_t, base, eps, k_consts)
            x = draw_reward(rng, kinds, params, table, t0 + t, a)
            record_play(arms, t0 + t, a, 1)
            _ncb_update2(rng, state, t, a, 1, x, big_t, base, eps, k_consts)
            t += 1
    else:
        while t < n_play:  # line 8
            a = _ncb_choose2(rng, state, t, big_t, base, eps, k_consts)
            x = draw_reward(rng, kinds, params, table, t0 + t, a)
            record_play(arms, t0 + t, a, 1)
            _ldp_update2(rng, state, t, a, 1, x, big_t, base, eps, k_consts)
            t += 1
    return _ncb_records(state)


@njit(nogil=True, cache=True, inline="always")
def _gdp_rounds(rng, kinds, params, table, arms, t0, n_play, big_t, eps, k_consts):  # pragma: no cover
    """:func:`_block` of GDP-NCB (Algorithm 1)."""
    base = GDP_BASE
    state = _ncb_init(kinds.shape[0], big_t, base, eps, k_consts)
    t = 0
    while t < n_play and state[_S, _PHASE] == 1.0:  # Phase I (lines 2-7)
        a = _phase1_choose(rng, state, t, big_t, base, eps, k_consts)
        x = draw_reward(rng, kinds, params, table, t0 + t, a)
        record_play(arms, t0 + t, a, 1)
        _gdp_update1(rng, state, t, a, 1, x, big_t, base, eps, k_consts)
        t += 1
    while t < n_play:  # line 9: episodes
        a, length = _gdp_choose2(rng, state, t, big_t, base, eps, k_consts)
        length = min(length, n_play - t)  # an anytime window cut by the horizon
        x = draw_reward_sum(rng, kinds, params, table, t0 + t, a, length)  # lines 15-19 in one draw
        record_play(arms, t0 + t, a, length)  # line 14's 2 n_s pulls of A
        _gdp_update2(rng, state, t, a, length, x, big_t, base, eps, k_consts)
        t += length
    return _ncb_records(state)


# The first round is np.int64(0), not 0: numba compiles a function called with a literal 0 for the type
# Literal[int](0), apart from its int64 version, and does so too while it infers the type of a variable
# first set to 0 and later to an int64 (a loop's round, an argmax's arm): _block was compiled twice that
# way (about 5 CPU s in a cold process), draw_reward_sum three times.
@njit(nogil=True, cache=True)
def _fixed_kernel(rng, kinds, params, table, horizon, base, epsilon, constants):  # pragma: no cover
    arms = np.empty(horizon, dtype=np.int64)
    p1, rel = _block(base, rng, kinds, params, table, arms, np.int64(0), horizon, horizon, epsilon, constants)
    return arms, p1, rel


@njit(nogil=True, cache=True, error_model="numpy")  # as _block's
def _fixed_episodes(rng, kinds, params, table, horizon, base, epsilon, constants):  # pragma: no cover
    """:func:`_fixed_kernel` of GDP-NCB (``base`` is GDP_BASE), its play as episodes (``Policy.run_episodes``)."""
    out = new_episodes()
    p1, rel = _gdp_rounds(rng, kinds, params, table, out, np.int64(0), horizon, horizon, epsilon, constants)
    return episode_array(out), p1, rel


@njit(nogil=True, cache=True)
def _gdp_records(state):  # pragma: no cover - compiled
    """:func:`_ncb_records` and each arm's releases (int64; the repaired GDP-NCB records them)."""
    p1, releases = _ncb_records(state)
    return p1, releases, state[_REL, : int(state[_S, _K])].astype(np.int64)


# The repaired GDP-NCB's kernel, a loop of its own (its Phase I's steps as a branch of :func:`_block`'s
# loop cost the other NCB kernels 9-36 %): the repaired Phase I, then Phase II with the printed GDP-NCB's
# steps. error_model="numpy": no divisor is 0 (see :func:`_block`).
@njit(nogil=True, cache=True, error_model="numpy")
def _sv_kernel(rng, kinds, params, table, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    state = _ncb_init(kinds.shape[0], horizon, base, epsilon, constants)
    arms = np.empty(horizon, dtype=np.int64)
    t = 0
    while t < horizon and state[_S, _PHASE] == 1.0:  # the repaired Phase I
        a = _sv_choose1(rng, state, t, horizon, base, epsilon, constants)
        x = draw_reward(rng, kinds, params, table, t, a)
        arms[t] = a
        _sv_update1(rng, state, t, a, 1, x, horizon, base, epsilon, constants)
        t += 1
    while t < horizon:  # line 9: episodes
        a, length = _gdp_choose2(rng, state, t, horizon, base, epsilon, constants)
        x = draw_reward_sum(rng, kinds, params, table, t, a, length)  # lines 15-19 in one draw
        record_play(arms, t, a, length)  # line 14's 2 n_s pulls of A
        _gdp_update2(rng, state, t, a, length, x, horizon, base, epsilon, constants)
        t += length
    p1, releases, arm_releases = _gdp_records(state)
    return arms, p1, releases, arm_releases


#: the anytime wrapper's agent: the scalars of its second state array: the window W, its first round, whether
#: it is uniform (1.0) or a DP-NCB block (0.0), the uniform windows so far
_W, _START, _UNIFORM, _N_UNIFORM = 0, 1, 2, 3


@njit(nogil=True, cache=True)
def _anytime_init(k, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    return _ncb_init(k, 1, base, epsilon, constants), np.zeros(4)


# Algorithm 3's window bookkeeping, written once for the kernel and the agent's steps: windows W = 1, 2, 4,
# ... (lines 1-2, 11), the one starting at round W - 1; line 3's flag; the rounds of a window cut by the horizon.


@njit(nogil=True, cache=True, inline="always")
def _anytime_window(rng, win, t):  # pragma: no cover - compiled
    """Window ``W = t + 1`` opens at round ``t`` (``t + 1`` a power of two): its flag (line 3), True for UNIFORM."""
    w = t + 1
    win[_W] = w
    win[_START] = t
    uniform = rng.random() < 1.0 / (w * w)  # line 3: flag = UNIFORM with probability 1/W^2
    win[_UNIFORM] = 1.0 if uniform else 0.0
    win[_N_UNIFORM] += 1.0 if uniform else 0.0
    return uniform


@njit(nogil=True, cache=True, inline="always")
def _anytime_rounds(win, horizon):  # pragma: no cover - compiled
    """The open window's rounds: ``W``, or fewer if the horizon cuts it."""
    return min(int(win[_W]), horizon - int(win[_START]))


@njit(nogil=True, cache=True)
def _anytime_choose(rng, state, t, horizon, base, epsilon, constants):  # pragma: no cover - compiled
    """Algorithm 3 at round ``t`` (the agent's step): a new window's draw (line 3), then its episode from ``t``."""
    # The window's rounds are those of :func:`_anytime_kernel`; a DP-NCB window runs the block's own steps
    # (:func:`_block`), told the horizon W, on the window's rounds u = t - start.
    block, win = state
    k = int(block[_S, _K])
    if t & (t + 1) == 0 and not _anytime_window(rng, win, t):  # a window starts; line 9: a fresh DP-NCB told W
        block[:] = _ncb_init(k, t + 1, base, epsilon, constants)
    if win[_UNIFORM] == 1.0:  # lines 5-7 (rewards observed, not used)
        return _uniform_arm(rng, k), 1
    start, w = int(win[_START]), int(win[_W])
    u = t - start
    if block[_S, _PHASE] == 1.0:
        return _phase1_choose(rng, block, u, w, base, epsilon, constants), 1
    if base == GDP_BASE:
        a, length = _gdp_choose2(rng, block, u, w, base, epsilon, constants)
        return a, min(length, _anytime_rounds(win, horizon) - u)  # a window cut by the horizon
    return _ncb_choose2(rng, block, u, w, base, epsilon, constants), 1


@njit(nogil=True, cache=True)
def _anytime_update(rng, state, t, arm, length, total, horizon, base, epsilon, constants):  # pragma: no cover
    """Algorithm 3's update of the episode from round ``t`` (the agent's step): the DP-NCB block's, if any."""
    block, win = state
    if win[_UNIFORM] == 0.0:
        u = t - int(win[_START])
        w = int(win[_W])
        phase1 = block[_S, _PHASE] == 1.0
        if base == GDP_BASE and phase1:
            _gdp_update1(rng, block, u, arm, length, total, w, base, epsilon, constants)
        elif base == GDP_BASE:
            _gdp_update2(rng, block, u, arm, length, total, w, base, epsilon, constants)
        elif phase1:
            _ldp_update1(rng, block, u, arm, length, total, w, base, epsilon, constants)
        else:
            _ldp_update2(rng, block, u, arm, length, total, w, base, epsilon, constants)


@njit(nogil=True, cache=True)
def _anytime_records(state):  # pragma: no cover - compiled
    return (int(state[1][_N_UNIFORM]),)


@njit(nogil=True, cache=True)
def _anytime_kernel(rng, kinds, params, table, horizon, base, epsilon, constants):  # pragma: no cover
    """Algorithm 3: windows W = 1, 2, 4, ...; uniform with probability 1/W^2, else DP-NCB(k, W, epsilon)."""
    k = kinds.shape[0]
    arms = np.empty(horizon, dtype=np.int64)
    win = np.zeros(4)  # the agent's window state (its block state is _block's own here)
    t = np.int64(0)  # not 0: see _fixed_kernel
    while t < horizon:  # line 2
        uniform = _anytime_window(rng, win, t)  # window W = t + 1 and its flag
        n_play = _anytime_rounds(win, horizon)
        if uniform:
            for u in range(n_play):  # lines 5-7 (rewards observed, not used)
                a = _uniform_arm(rng, k)
                draw_reward(rng, kinds, params, table, t + u, a)
                arms[t + u] = a
        else:  # line 9: a fresh DP-NCB told the horizon W
            _block(base, rng, kinds, params, table, arms, t, n_play, t + 1, epsilon, constants)
        t += n_play
    return arms, int(win[_N_UNIFORM])


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
    _init = staticmethod(_ncb_init)
    _choose = staticmethod(_ncb_choose)
    _update = staticmethod(_ncb_update)
    _step_records = staticmethod(_ncb_records)
    _step_episodes = True  # GDP-NCB's Phase II episodes; every other round an episode of one


@dataclasses.dataclass(frozen=True)
class GDPNCB(NCBFamily):
    """GDP-NCB, Algorithm 1 of ``sarkar2026dpncb``: epsilon-global DP claimed (Theorem 2), refuted in Part V.

    Phase I (lines 2-7): uniform pulls, ``mu_tilde = mu_hat + Lap(log T / (eps N_1))``, until ``n_i mu_tilde_i``
    passes :func:`phase1_threshold_gdp`: a stopping time the actions show (:func:`leading_run_law`).
    Phase II (lines 8-22): doubling episodes on the argmax of Eq. (4), each released with ``Lap(log T / (eps n_A))``.
    Both Phase I rules have an agent (:meth:`~privbandits.policies.base.Policy.agent`), the repair's told its
    budget at the agent's horizon (:func:`sparse_vector_budget`), as a run is.

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
    _init = staticmethod(_ncb_init)
    _choose = staticmethod(_gdp_choose)
    _update = staticmethod(_gdp_update)
    _step_records = staticmethod(_gdp_records)
    _step_episodes = True  # GDP-NCB's Phase II episodes; every other round an episode of one

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

    def _step_args(self, n_arms, horizon):
        if self.phase1_rule == "printed":
            return super()._step_args(n_arms, horizon)
        # the repaired Phase I's block, told its budget at this horizon: eps_form for the threshold, the
        # releases and Eq. (4), eps_stop for the stopping rule
        budget = sparse_vector_budget(horizon, self.epsilon, self.sv_fraction)
        return SV_BASE, budget.eps_form, self._constants._replace(eps_stop=budget.eps_stop)

    def _kernel_call(self, instance, horizon):
        if self.phase1_rule == "printed":
            return super()._kernel_call(instance, horizon)
        return _sv_kernel, (*instance.kernel_args(), horizon, *self._step_args(instance.n_arms, horizon))

    def _records(self, raw) -> Records:
        records = super()._records(raw)
        if self.phase1_rule == "sparse_vector":
            records["arm_releases"] = np.asarray(raw[3])
        return records

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
    _init = staticmethod(_ncb_init)
    _choose = staticmethod(_ncb_choose)
    _update = staticmethod(_ldp_update)
    _step_records = staticmethod(_ncb_records)
    _step_episodes = True  # GDP-NCB's Phase II episodes; every other round an episode of one

    def guarantee(self, horizon, delta=0.0):
        if self.phase1_noise_as_location and math.isfinite(self.epsilon):
            # the authors' Phase I releases X + 1/eps + Lap(1) (a departure): 1-LDP for those rewards,
            # eps-LDP for the rest, each reward released once
            return max(float(self.epsilon), 1.0), 0.0, True
        return super().guarantee(horizon, delta)


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
    _init = staticmethod(_anytime_init)
    _choose = staticmethod(_anytime_choose)
    _update = staticmethod(_anytime_update)
    _step_records = staticmethod(_anytime_records)
    _step_episodes = True  # GDP-NCB's Phase II episodes; every other round an episode of one

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
