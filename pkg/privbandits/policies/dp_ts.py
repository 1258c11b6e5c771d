"""DP-TS and Lazy-DP-TS of Hu and Hegde (2022), ``hu2022near``: Thompson sampling on optimistic eps-DP means.

Both keep a Beta posterior per arm whose mean is a Laplace-released empirical mean plus an optimism
offset, clipped to [0, 1]. DP-TS uses every observation (a modified logarithmic mechanism and a
bounded binary mechanism, each eps/2-DP); Lazy-DP-TS uses each observation once, in doubling epochs
of fresh rewards with one ``Lap(1/eps)`` each, and matches the ``sum_j ln T / min(eps, Delta_j)``
lower bound in order. Both are anytime. The lines cited are those of Algorithms 1 and 2 of the UAI
paper (PMLR 180, pages 844-852), read in full; ``log`` there is base 2.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numba import njit

from ..environments import draw_reward
from ..mechanisms import binary_counter_insert, binary_counter_states, laplace_draw
from .base import Choice, Epsilon, Policy, param

__all__ = ["DPTS", "LazyDPTS", "dp_ts_offset", "lazy_dp_ts_offset"]


@njit(nogil=True, cache=True)
def _dp_ts_offset(n_obs, t, eps):  # pragma: no cover - compiled
    """DP-TS's optimism ``6 sqrt(8 log2(O + 1) log2(t) / (eps O))`` (Algorithm 1, line 7); 0 at ``eps = inf``."""
    if not np.isfinite(eps):
        return 0.0
    return 6.0 * np.sqrt(8.0 * np.log2(n_obs + 1.0) * np.log2(t) / (eps * n_obs))


#: ``offset_log`` of :class:`LazyDPTS`: the factor that turns ``log2 t`` into the chosen logarithm
#: (``ln t = log2(t) ln 2``); 1.0 leaves the printed offset's arithmetic bit for bit unchanged.
LAZY_OFFSET_LOGS = {"log2": 1.0, "ln": math.log(2.0)}


@njit(nogil=True, cache=True)
def _lazy_offset(n_obs, t, eps, log_factor):  # pragma: no cover - compiled
    """Lazy-DP-TS's optimism ``3 log2(t) log_factor / (eps O)`` (Algorithm 2, line 7); 0 at ``eps = inf``."""
    if not np.isfinite(eps):
        return 0.0
    return 3.0 * (np.log2(t) * log_factor) / (eps * n_obs)


@njit(nogil=True, cache=True)
def _shifted_beta_draw(rng, private_mean, offset, n_obs):  # pragma: no cover - compiled
    """Lines 7-9 of both algorithms: clip ``mu_tilde + offset`` to [0, 1], then ``Beta(mu O + 1, (1 - mu) O + 1)``."""
    mu = max(0.0, min(private_mean + offset, 1.0))
    return rng.beta(mu * n_obs + 1.0, (1.0 - mu) * n_obs + 1.0)


@njit(nogil=True, cache=True, inline="always")
def _thompson_choose(rng, stats, obs_row, mean_row, t, offset, offset_args):  # pragma: no cover - compiled
    """Lines 2-11 of both algorithms; ``offset(O_j, t + 1, *offset_args)`` is each one's line 7."""
    k = stats.shape[1]
    if t < k:  # lines 2-4: pull each arm once
        return t
    best, best_theta = 0, -np.inf  # line 5; the paper's round is t + 1
    for j in range(k):  # lines 6-10
        n_obs = stats[obs_row, j]
        theta = _shifted_beta_draw(rng, stats[mean_row, j], offset(n_obs, t + 1.0, *offset_args), n_obs)
        if theta > best_theta:  # line 11: the first maximiser
            best, best_theta = j, theta
    return best


# Each algorithm's per-arm statistics are the rows of one (rows, K) array, read by the row names below:
# one array for the step functions to carry, so that numba can prune the reference counting of the
# state the inlined steps receive (with one array per statistic the split kernel was 15-25 % slower).
#: DP-TS's rows: O_j; C_j, the modified logarithmic mechanism's noisy sum; B_j, the bounded binary
#: mechanism's noisy sum of Psi_j; r_j; the sum of Psi_j (the observations not yet in C_j);
#: mu_tilde_j = (C_j + B_j) / O_j
_TS_OBS, _TS_LOG_SUM, _TS_TREE_SUM, _TS_EPOCH, _TS_FRESH, _TS_MEAN = range(6)


@njit(nogil=True, cache=True, inline="always")
def _dp_ts_init(k, horizon, epsilon):  # pragma: no cover - compiled
    stats = np.zeros((6, k))  # the rows _TS_*
    trees = binary_counter_states(k)  # each arm's bounded binary mechanism
    return stats, trees


@njit(nogil=True, cache=True, inline="always")
def _dp_ts_choose(rng, state, t, horizon, epsilon):  # pragma: no cover - compiled
    return _thompson_choose(rng, state[0], _TS_OBS, _TS_MEAN, t, _dp_ts_offset, (epsilon,))


@njit(nogil=True, cache=True, inline="always")
def _dp_ts_update(rng, state, t, arm, reward, horizon, epsilon):  # pragma: no cover - compiled
    stats, trees = state
    private = np.isfinite(epsilon)
    half = 0.5 * epsilon
    x = reward
    if t < stats.shape[1]:  # lines 2-4: C_j = X + Lap(1 / (0.5 eps))
        stats[_TS_OBS, arm] = 1.0
        stats[_TS_LOG_SUM, arm] = x + (laplace_draw(rng, 1.0 / half) if private else 0.0)
        stats[_TS_MEAN, arm] = stats[_TS_LOG_SUM, arm] / stats[_TS_OBS, arm]
        return
    stats[_TS_OBS, arm] += 1.0  # line 12
    stats[_TS_FRESH, arm] += x
    if stats[_TS_OBS, arm] == 2.0 ** (stats[_TS_EPOCH, arm] + 2.0) - 1.0:  # line 13: O_j = sum_{s=0}^{r_j+1} 2^s
        noise = laplace_draw(rng, 1.0 / half) if private else 0.0
        stats[_TS_LOG_SUM, arm] += stats[_TS_FRESH, arm] + noise  # line 14
        stats[_TS_FRESH, arm] = 0.0  # line 15
        stats[_TS_EPOCH, arm] += 1.0
        stats[_TS_TREE_SUM, arm] = 0.0
        trees[arm, :] = 0.0  # the next epoch's binary mechanism starts afresh
    elif private:  # line 17: the 2^(r_j+1)-bounded binary mechanism, eps/2-DP (r_j + 1 levels)
        scale = (stats[_TS_EPOCH, arm] + 1.0) / half
        stats[_TS_TREE_SUM, arm] = binary_counter_insert(trees[arm], x, scale, rng)
    else:
        stats[_TS_TREE_SUM, arm] = stats[_TS_FRESH, arm]
    stats[_TS_MEAN, arm] = (stats[_TS_LOG_SUM, arm] + stats[_TS_TREE_SUM, arm]) / stats[_TS_OBS, arm]  # line 19


# error_model="numpy" (no divisor is 0): a ZeroDivisionError branch would stop numba pruning the inlined
# step functions' reference counting
@njit(nogil=True, cache=True, error_model="numpy")
def _dp_ts_kernel(rng, kinds, params, table, horizon, epsilon):  # pragma: no cover - compiled
    state = _dp_ts_init(kinds.shape[0], horizon, epsilon)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = _dp_ts_choose(rng, state, t, horizon, epsilon)
        reward = draw_reward(rng, kinds, params, table, t, arm)
        _dp_ts_update(rng, state, t, arm, reward, horizon, epsilon)
        arms[t] = arm
    return arms


#: Lazy-DP-TS's rows: O_j = 2^r_j, the observations behind mu_tilde_j; r_j; the sum of Psi_j; |Psi_j|;
#: mu_tilde_j; and, in column 0 of the last row, the Laplace releases so far
_LAZY_OBS, _LAZY_EPOCH, _LAZY_FRESH, _LAZY_FRESH_N, _LAZY_MEAN, _LAZY_RELEASES = range(6)


@njit(nogil=True, cache=True, inline="always")
def _lazy_dp_ts_init(k, horizon, epsilon, log_factor):  # pragma: no cover - compiled
    return (np.zeros((6, k)),)  # the rows _LAZY_*


@njit(nogil=True, cache=True, inline="always")
def _lazy_dp_ts_choose(rng, state, t, horizon, epsilon, log_factor):  # pragma: no cover - compiled
    return _thompson_choose(rng, state[0], _LAZY_OBS, _LAZY_MEAN, t, _lazy_offset, (epsilon, log_factor))


@njit(nogil=True, cache=True, inline="always")
def _lazy_dp_ts_update(rng, state, t, arm, reward, horizon, epsilon, log_factor):  # pragma: no cover - compiled
    stats = state[0]
    private = np.isfinite(epsilon)
    x = reward
    if t < stats.shape[1]:  # lines 2-4: mu_tilde_j = X + Lap(1 / eps)
        stats[_LAZY_OBS, arm] = 1.0
        stats[_LAZY_MEAN, arm] = x + (laplace_draw(rng, 1.0 / epsilon) if private else 0.0)
        stats[_LAZY_RELEASES, 0] += 1.0 if private else 0.0
        return
    stats[_LAZY_FRESH, arm] += x  # line 12
    stats[_LAZY_FRESH_N, arm] += 1.0
    if stats[_LAZY_FRESH_N, arm] == 2.0 ** (stats[_LAZY_EPOCH, arm] + 1.0):  # line 13
        # line 14: the fresh batch alone, one Lap(1 / eps)
        stats[_LAZY_OBS, arm] = 2.0 ** (stats[_LAZY_EPOCH, arm] + 1.0)
        noise = laplace_draw(rng, 1.0 / epsilon) if private else 0.0
        stats[_LAZY_MEAN, arm] = (stats[_LAZY_FRESH, arm] + noise) / stats[_LAZY_OBS, arm]
        stats[_LAZY_RELEASES, 0] += 1.0 if private else 0.0
        stats[_LAZY_EPOCH, arm] += 1.0  # line 15: Psi_j is dropped
        stats[_LAZY_FRESH, arm] = 0.0
        stats[_LAZY_FRESH_N, arm] = 0.0


@njit(nogil=True, cache=True, inline="always")
def _lazy_dp_ts_records(state):  # pragma: no cover - compiled
    return (int(state[0][_LAZY_RELEASES, 0]),)  # the releases


@njit(nogil=True, cache=True, error_model="numpy")
def _lazy_dp_ts_kernel(rng, kinds, params, table, horizon, epsilon, log_factor):  # pragma: no cover - compiled
    state = _lazy_dp_ts_init(kinds.shape[0], horizon, epsilon, log_factor)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = _lazy_dp_ts_choose(rng, state, t, horizon, epsilon, log_factor)
        reward = draw_reward(rng, kinds, params, table, t, arm)
        _lazy_dp_ts_update(rng, state, t, arm, reward, horizon, epsilon, log_factor)
        arms[t] = arm
    return arms, _lazy_dp_ts_records(state)[0]


def _check_arguments(n_obs: float, t: float) -> None:
    """``ValueError`` unless ``n_obs >= 1`` and ``t >= 1``."""
    for name, value in (("n_obs", n_obs), ("t", t)):
        real = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
        if not (real and 1 <= value < math.inf):
            raise ValueError(f"{name} must be a real number >= 1, got {value!r}")


def dp_ts_offset(n_obs: float, t: float, epsilon: float) -> float:
    """DP-TS's optimism ``upsilon = 6 sqrt(8 log2(O + 1) log2(t) / (eps O))`` (``hu2022near``, Algorithm 1, line 7).

    Parameters
    ----------
    n_obs : float >= 1
        ``O_j``, the arm's observations.
    t : float >= 1
        The round (1-based).
    epsilon : float >= EPSILON_MIN
        ``inf`` gives 0.

    Returns
    -------
    float
    """
    _check_arguments(n_obs, t)
    epsilon = DPTS.check_param("epsilon", epsilon)
    return float(_dp_ts_offset(float(n_obs), float(t), epsilon))


def lazy_dp_ts_offset(n_obs: float, t: float, epsilon: float, offset_log: str = "log2") -> float:
    """Lazy-DP-TS's optimism ``3 log2(t) / (eps O)`` (``hu2022near``, Algorithm 2, line 7).

    Parameters
    ----------
    n_obs : float >= 1
        ``O_j = 2^r_j``, the observations behind the arm's private mean.
    t : float >= 1
        The round (1-based).
    epsilon : float >= EPSILON_MIN
        ``inf`` gives 0.
    offset_log : {"log2", "ln"}
        The logarithm of ``t``, as for :class:`LazyDPTS`: ``"log2"`` as printed, ``"ln"`` natural.

    Returns
    -------
    float
    """
    _check_arguments(n_obs, t)
    epsilon = LazyDPTS.check_param("epsilon", epsilon)
    offset_log = LazyDPTS.check_param("offset_log", offset_log)
    return float(_lazy_offset(float(n_obs), float(t), epsilon, LAZY_OFFSET_LOGS[offset_log]))


@dataclasses.dataclass(frozen=True)
class DPTS(Policy):
    """DP-TS of ``hu2022near`` (Algorithm 1): Beta Thompson sampling on an eps-DP mean of all observations.

    Each arm is pulled once (lines 2-4). In round ``t`` every arm draws ``theta_j ~ Beta(mu_j O_j + 1,
    (1 - mu_j) O_j + 1)`` with ``mu_j = clip(mu_tilde_j + 6 sqrt(8 log2(O_j + 1) log2(t) / (eps O_j)),
    0, 1)`` and the largest is pulled (lines 6-11). The private mean is ``mu_tilde_j = (C_j + B_j) /
    O_j``: the observations are cut into epochs of ``2^(r+1)`` (``2^0`` for the first); ``C_j``, the
    modified logarithmic mechanism, adds each completed epoch's sum plus one ``Lap(2 / eps)`` (lines
    13-15), and ``B_j`` is the current epoch's sum so far from a ``2^(r+1)``-bounded binary mechanism
    at ``eps/2``, ``Lap((r + 1) / (eps/2))`` on each p-sum (line 17; the epoch's last observation
    goes to ``C_j`` instead, so the tree holds at most ``2^(r+1) - 1`` items, ``r + 1`` levels,
    ``chan2011private``, Theorem 3.5). "Invoke" is read as the online mechanism: one tree per arm and
    epoch, each p-sum's noise drawn once and reused (re-running it with fresh noise every round
    would release each reward up to ``2^(r+1)`` times, and Theorem 1's proof would not apply).
    Logarithms are base 2 as in the paper. At ``epsilon = inf``
    it is Beta Thompson sampling (Agrawal and Goyal's Algorithm 1, ``agrawal2013further``) on the
    rewards themselves; rewards in [0, 1] that are not Bernoulli enter the posterior by their value,
    as the paper's line 8 writes it.

    Privacy (Theorem 1, eps-DP, instance-free, for every horizon): a reward enters ``C_j`` once, in
    the sum of its epoch (sensitivity 1, ``Lap(2/eps)``: eps/2-DP), and the binary tree of its epoch
    only (eps/2-DP over at most ``2^(r+1) - 1`` items); epochs hold disjoint rewards, so the internal
    mean is eps-DP by basic composition, and the arms are post-processing. Neighbouring: reward
    sequences differing in one round's reward vector. Regret (Theorem 2): ``sum_j O(max(log T /
    Delta_j, log T / eps log(log T / (eps Delta_j))))``.

    Parameters
    ----------
    epsilon : float >= EPSILON_MIN
        ``inf`` runs without noise and without optimism.
    """

    epsilon: float = param(1.0, Epsilon())

    name = "DP-TS"
    private = True
    anytime = True
    accounting = "hu2022near Theorem 1: eps/2 logarithmic mechanism on epoch sums + eps/2 bounded binary mechanism"
    _kernel = staticmethod(_dp_ts_kernel)
    _init = staticmethod(_dp_ts_init)
    _choose = staticmethod(_dp_ts_choose)
    _update = staticmethod(_dp_ts_update)
    binding = ("epsilon",)


@dataclasses.dataclass(frozen=True)
class LazyDPTS(Policy):
    """Lazy-DP-TS of ``hu2022near`` (Algorithm 2): Beta Thompson sampling on fresh, Laplace-released epoch means.

    Each arm is pulled once and its mean released as ``X + Lap(1/eps)`` (lines 2-4, ``O_j = 1``). In
    round ``t`` every arm draws ``theta_j ~ Beta(mu_j O_j + 1, (1 - mu_j) O_j + 1)`` with ``mu_j =
    clip(mu_tilde_j + 3 log2(t) / (eps O_j), 0, 1)`` and the largest is pulled (lines 6-11). The
    pulled arm's reward joins its buffer ``Psi_j``; when the buffer holds ``2^(r_j+1)`` rewards the
    private mean is replaced by their mean plus ``Lap(1/eps) / 2^(r_j+1)``, ``O_j = 2^(r_j+1)``, and the
    buffer is dropped (lines 12-16): ``mu_tilde_j`` always rests on the last epoch's fresh rewards
    and one Laplace draw. Logarithms are base 2 as in the paper (but see ``offset_log``). Records: ``releases`` (Laplace
    draws, one per arm per completed epoch).

    Privacy (Theorem 3, eps-DP, instance-free, for every horizon): each reward enters at most one
    release (those still in the last, incomplete buffer enter none), a sum of sensitivity 1 with
    ``Lap(1/eps)``; releases of disjoint rewards compose in parallel, and the arms are
    post-processing. Regret (Theorem 4): ``sum_j O(log T / min(eps,
    Delta_j))``, which matches the lower bound in order.

    Departure (not of the authors' code, which could not be read; a reading of the paper): the paper
    states that ``log`` is base 2 (p. 847), the default ``offset_log="log2"``. Its regret curves
    (Figures 5 to 7 of the supplement) lie closer to runs with the natural logarithm in line 7's offset,
    ``offset_log="ln"`` (``3 ln(t) / (eps O_j)``, a smaller offset by the factor ``ln 2``). The option
    changes the offset only: noise, epochs and draws are as printed, and so is the privacy guarantee
    (the offset is a function of ``t`` and ``O_j`` alone, post-processing).

    Parameters
    ----------
    epsilon : float >= EPSILON_MIN
        ``inf`` runs without noise and without optimism (Thompson sampling on doubling epochs).
    offset_log : {"log2", "ln"}
        The logarithm of ``t`` in line 7's offset: ``"log2"`` as printed (the default), ``"ln"`` natural.
    """

    epsilon: float = param(1.0, Epsilon())
    offset_log: str = param("log2", Choice(tuple(LAZY_OFFSET_LOGS)))

    name = "Lazy-DP-TS"
    private = True
    anytime = True
    records = ("arms", "releases")
    accounting = "hu2022near Theorem 3: one Lap(1/eps) per epoch sum of fresh rewards (parallel composition)"
    _kernel = staticmethod(_lazy_dp_ts_kernel)
    _init = staticmethod(_lazy_dp_ts_init)
    _choose = staticmethod(_lazy_dp_ts_choose)
    _update = staticmethod(_lazy_dp_ts_update)
    _step_records = staticmethod(_lazy_dp_ts_records)
    binding = ("epsilon", "_log_factor")

    @property
    def _log_factor(self) -> float:
        """The factor of ``log2 t`` in the offset: 1 for ``"log2"``, ``ln 2`` for ``"ln"``."""
        return LAZY_OFFSET_LOGS[self.offset_log]
