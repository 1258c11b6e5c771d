"""AdaP-KLUCB (``azize2022privacy``), the eps-global DP KL-UCB of Part VI, with its KL tools and lower bounds."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numba import njit

from .._validation import check_epsilon, check_int
from ..environments import draw_reward, draw_reward_sum
from ..mechanisms import laplace_draw
from .adap_ucb import AdaPUCB
from .base import Epsilon, Policy, Real, param

__all__ = ["AdaPKLUCB", "bernoulli_kl", "kl_ucb_upper", "problem_dependent_lower_bound", "minimax_lower_bound"]

_KL_EPS = 1e-15  # keeps the logarithms of the Bernoulli KL finite at 0 and 1
_BISECTIONS = 50  # q to within 2^-50 of the largest root


@njit(nogil=True, cache=True)
def _kl(p, q):  # pragma: no cover - compiled
    """Bernoulli KL divergence ``d(p, q)``, with ``p, q`` clipped to ``[1e-15, 1 - 1e-15]``."""
    p = min(max(p, _KL_EPS), 1.0 - _KL_EPS)
    q = min(max(q, _KL_EPS), 1.0 - _KL_EPS)
    return p * np.log(p / q) + (1.0 - p) * np.log((1.0 - p) / (1.0 - q))


@njit(nogil=True, cache=True)
def _kl_ucb(p, level):  # pragma: no cover - compiled
    """``max{q in [p, 1] : d(p, q) <= level}`` by bisection (``d(p, .)`` increases on ``[p, 1]``)."""
    if _kl(p, 1.0) <= level:
        return 1.0
    lo = p
    hi = 1.0
    for _ in range(_BISECTIONS):
        mid = 0.5 * (lo + hi)
        if _kl(p, mid) <= level:
            lo = mid
        else:
            hi = mid
    return lo


def bernoulli_kl(p: float, q: float) -> float:
    """Bernoulli KL divergence ``d(p, q) = p log(p/q) + (1-p) log((1-p)/(1-q))``, finite (arguments clipped).

    Parameters
    ----------
    p, q : float in [0, 1]

    Returns
    -------
    float
    """
    for name, x in (("p", p), ("q", q)):
        if not (isinstance(x, (int, float, np.floating)) and 0.0 <= x <= 1.0):
            raise ValueError(f"{name} must lie in [0, 1], got {x!r}")
    return float(_kl(float(p), float(q)))


def kl_ucb_upper(p: float, level: float) -> float:
    """KL-UCB bound ``max{q in [0, 1] : d(p, q) <= level}`` (``garivier2011kl``), by 50 bisections (from below).

    Parameters
    ----------
    p : float in [0, 1]
    level : float >= 0

    Returns
    -------
    float
    """
    if not (isinstance(p, (int, float, np.floating)) and 0.0 <= p <= 1.0):
        raise ValueError(f"p must lie in [0, 1], got {p!r}")
    if not (isinstance(level, (int, float, np.floating)) and 0.0 <= level < math.inf):
        raise ValueError(f"level must be finite and >= 0, got {level!r}")
    return float(_kl_ucb(float(p), float(level)))


#: the rows of the step state, one ``(4, K)`` array (one array to carry keeps the split kernel as fast as the
#: unsplit one, see benchmarks/README.md, issue 36): total pulls N_a; the arm's last episode length
#: f_a = N_a(t_l - 1) / 2 (forgetting); mu_tilde_a; and, in column 0 of the last row, the Laplace releases
_N, _LAST, _MU, _RELEASES = 0, 1, 2, 3


@njit(nogil=True, cache=True, inline="always")
def _adap_klucb_init(k, horizon, epsilon, alpha):  # pragma: no cover - compiled
    return np.zeros((4, k))


@njit(nogil=True, cache=True, inline="always")
def _adap_klucb_choose(rng, state, t, horizon, epsilon, alpha):  # pragma: no cover - compiled
    """The episode to play from round ``t`` (0-based): ``(arm, length)``."""
    k = state.shape[1]
    if t < k:  # line 3: choose each arm once (an episode of one round)
        return t, 1
    private = np.isfinite(epsilon)
    t_l = t + 1.0  # line 5 (1-based)
    log_tl = np.log(t_l)
    best = -np.inf
    a = 0
    for i in range(k):  # line 6: A_l = argmax_a I_a(t_l - 1, alpha), the AdaP-KLUCB index
        f = state[_LAST, i]
        shifted = state[_MU, i] + alpha * log_tl / (epsilon * f) if private else state[_MU, i]
        clipped = min(max(shifted, 0.0), 1.0)  # Clip_{0,1}(mu_tilde + alpha log t_l / (eps f))
        level = alpha * log_tl / f
        # Pinsker, d(p, q) >= 2 (q - p)^2: the index is at most p + sqrt(level / 2); an arm whose
        # bound cannot beat the best so far is skipped (the same argmax, first index on ties)
        if clipped + np.sqrt(0.5 * level) <= best:
            continue
        idx = _kl_ucb(clipped, level)  # max{q : d(clipped, q) <= alpha log t_l / f}
        if idx > best:
            best = idx
            a = i
    # line 7: play A_l until its pull count doubles (N_a new pulls)
    return a, min(int(state[_N, a]), horizon - t)


@njit(nogil=True, cache=True, inline="always")
def _adap_klucb_update(rng, state, t, arm, length, total, horizon, epsilon, alpha):  # pragma: no cover - compiled
    """The episode of ``length`` rounds of ``arm`` from round ``t`` has ended with reward sum ``total``."""
    private = np.isfinite(epsilon)
    state[_N, arm] += length
    state[_LAST, arm] = length  # keep only this episode
    # Lemma 1: the episode's mean plus Lap(1 / (eps * length)) (the paper's Lap(2 / (eps N_a))); for the
    # first pull of line 3, x + Lap(1 / eps) (j - i = 1)
    state[_MU, arm] = total / length + (laplace_draw(rng, 1.0 / (epsilon * length)) if private else 0.0)
    state[_RELEASES, 0] += 1.0 if private else 0.0


@njit(nogil=True, cache=True)
def _adap_klucb_records(state):  # pragma: no cover - compiled
    return (int(state[_RELEASES, 0]),)


# error_model="numpy" (no divisor is 0): a ZeroDivisionError branch would stop numba pruning the inlined
# step functions' reference counting (benchmarks/README.md, issue 36); the values are the same
@njit(nogil=True, cache=True, error_model="numpy")
def _adap_klucb_kernel(rng, kinds, params, table, horizon, epsilon, alpha):  # pragma: no cover - compiled
    k = kinds.shape[0]
    arms = np.empty(horizon, dtype=np.int64)
    state = _adap_klucb_init(k, horizon, epsilon, alpha)
    t = 0
    while t < horizon:  # line 3's single pulls, then line 4: episodes l = 1, 2, ...
        a, length = _adap_klucb_choose(rng, state, t, horizon, epsilon, alpha)
        if t < k:
            s = draw_reward(rng, kinds, params, table, t, a)
        else:
            s = draw_reward_sum(rng, kinds, params, table, t, a, length)
        for u in range(length):
            arms[t + u] = a
        _adap_klucb_update(rng, state, t, a, length, s, horizon, epsilon, alpha)
        t += length
    return arms, int(state[_RELEASES, 0])


@dataclasses.dataclass(frozen=True)
class AdaPKLUCB(Policy):
    """AdaP-KLUCB of ``azize2022privacy``: Algorithm 1 with the KL-UCB index; eps-global DP (Theorems 6, 8).

    At each episode start ``t_l`` (after one pull of each arm) the arm maximising
    ``max{q : d(mu_breve_a, q) <= alpha log(t_l) / f_a}``, ``mu_breve_a = Clip_{0,1}(mu_tilde_a + alpha
    log(t_l) / (eps f_a))``, is played until its pulls double; ``mu_tilde_a`` is its last episode's mean
    plus ``Lap(1 / (eps f_a))``, ``f_a`` that episode's length (Lemma 1). Anytime.

    Parameters
    ----------
    epsilon : float > 0
        ``inf`` runs without noise.
    alpha : float > 0
        The regret bound needs ``alpha > 3``.
    """

    epsilon: float = param(0.2, Epsilon())
    alpha: float = param(3.1, Real())

    name = "AdaP-KLUCB"
    anytime = True  # never reads the horizon: one run gives every horizon
    private = True
    records = ("arms", "releases")
    accounting = AdaPUCB.accounting  # one release per reward, as AdaP-UCB
    _kernel = staticmethod(_adap_klucb_kernel)
    binding = ("epsilon", "alpha")
    _init = staticmethod(_adap_klucb_init)
    _choose = staticmethod(_adap_klucb_choose)
    _update = staticmethod(_adap_klucb_update)
    _step_records = staticmethod(_adap_klucb_records)
    _step_episodes = True


def _check_bernoulli_means(means) -> np.ndarray:
    means = np.asarray(means, dtype=float)
    if means.ndim != 1 or means.size < 2 or np.any(~np.isfinite(means)) or np.any(means < 0) or np.any(means > 1):
        raise ValueError("means must be a 1-d array of at least 2 values in [0, 1]")
    return means


def problem_dependent_lower_bound(means, horizon: int, epsilon: float) -> float:
    """Theorem 3 of ``azize2022privacy``: ``log T sum_{Delta_a > 0} Delta_a / min(d(mu_a, mu*), 6 eps Delta_a)``.

    The theorem is asymptotic (the limit of ``Reg_T / log T``): not a finite-``T`` guarantee.

    Parameters
    ----------
    means : array_like, 1-d, in [0, 1], at least 2
        Bernoulli arms.
    horizon : int >= 2
    epsilon : float > 0
        ``inf``: the Lai-Robbins bound.

    Returns
    -------
    float
    """
    means = _check_bernoulli_means(means)
    horizon = check_int("horizon", horizon, minimum=2)
    epsilon = check_epsilon(epsilon, allow_inf=True)
    best = float(means.max())
    total = 0.0
    for mu in means:
        gap = best - float(mu)
        if gap > 0:
            total += gap / min(float(_kl(float(mu), best)), 6.0 * epsilon * gap)
    return total * math.log(horizon)


def minimax_lower_bound(n_arms: int, horizon: int, epsilon: float) -> float:
    """Theorem 2 of ``azize2022privacy``: ``max(sqrt(T (K - 1)) / 27, (K - 1) / (131 eps))``.

    Parameters
    ----------
    n_arms : int >= 2
    horizon : int >= K - 1
    epsilon : float > 0
        ``inf`` drops the privacy term.

    Returns
    -------
    float
    """
    n_arms = check_int("n_arms", n_arms, minimum=2)
    horizon = check_int("horizon", horizon, minimum=n_arms - 1)
    epsilon = check_epsilon(epsilon, allow_inf=True)
    return max(math.sqrt(horizon * (n_arms - 1)) / 27.0, (n_arms - 1) / (131.0 * epsilon))
