"""AdaP-UCB (``azize2022privacy``): a global-DP baseline of Part II (Figure 1 of ``sarkar2026dpncb``)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numba import njit

from ..environments import draw_reward, draw_reward_sum
from ..mechanisms import laplace_draw
from .base import Bool, Departure, Epsilon, Policy, Real, episode_array, new_episodes, param, record_play

__all__ = ["AdaPUCB"]


#: the rows of the step state, one ``(4, K)`` array: total pulls N_a; the size of the arm's last episode (the
#: only samples kept: forgetting); mu_tilde_a; and, in column 0 of the last row, the Laplace releases
_N, _LAST, _MU, _RELEASES = 0, 1, 2, 3


@njit(nogil=True, cache=True, inline="always")
def _adap_ucb_init(k, horizon, epsilon, alpha, flags):  # pragma: no cover - compiled
    return np.zeros((4, k))


@njit(nogil=True, cache=True, inline="always")
def _adap_ucb_choose(rng, state, t, horizon, epsilon, alpha, flags):  # pragma: no cover - compiled
    """The episode to play from round ``t`` (0-based): ``(arm, length)``."""
    authors_index, double_last = flags[0], flags[2]
    k = state.shape[1]
    if t < k:  # initialisation: one pull per arm
        return t, 1
    # episode start t_l (1-based, = t + 1): Eq. (7) of azize2022privacy with f = the length of
    # the arm's last episode (N_a / 2 once the arm has had an episode; 1 after the initial pull):
    # a_l = argmax mu_tilde + sqrt(alpha log(2 t_l) / (2 f)) + alpha log(t_l) / (eps f)
    log_t = np.log(t + 1.0)
    log_2t = np.log(2.0 * (t + 1.0))
    best = -np.inf
    a = np.int64(0)  # not 0: see _adap_ucb_play
    for i in range(k):
        f = state[_LAST, i]
        if authors_index:  # authors' code: no 1/2, log t_l, and 2 alpha log t_l / f without 1/eps
            idx = state[_MU, i] + np.sqrt(alpha * log_t / f) + 2.0 * alpha * log_t / f
        else:
            idx = state[_MU, i] + np.sqrt(alpha * log_2t / (2.0 * f))
            if np.isfinite(epsilon):
                idx += alpha * log_t / (epsilon * f)
        if idx > best:
            best = idx
            a = i
    # play a_l until its number of pulls doubles (N_a new pulls), forget older samples
    return a, min(int(2.0 * state[_LAST, a] if double_last else state[_N, a]), horizon - t)


@njit(nogil=True, cache=True, inline="always")
def _adap_ucb_update(rng, state, t, arm, length, total, horizon, epsilon, alpha, flags):  # pragma: no cover - compiled
    """The episode of ``length`` rounds of ``arm`` from round ``t`` has ended with reward sum ``total``."""
    noiseless_init, clip = flags[1], flags[3]
    state[_N, arm] += length
    state[_LAST, arm] = length
    if noiseless_init and t < state.shape[1]:  # authors' code: the first pulls enter the index without noise
        state[_MU, arm] = total
    else:
        # Laplace on the last episode's mean (the first pull: X + Lap(1/eps))
        scale = 1.0 / (epsilon * length) if np.isfinite(epsilon) else 0.0
        state[_MU, arm] = total / length + laplace_draw(rng, scale)
        if clip:  # authors' code (AdaPUCB.py line 123): the release clipped to [0, 1]
            state[_MU, arm] = min(max(state[_MU, arm], 0.0), 1.0)
        state[_RELEASES, 0] += 1.0


@njit(nogil=True, cache=True)
def _adap_ucb_records(state):  # pragma: no cover - compiled
    return (int(state[_RELEASES, 0]),)


# error_model="numpy" (no divisor is 0): a ZeroDivisionError branch would stop numba pruning the inlined
# step functions' reference counting (benchmarks/README.md, issue 36); the values are the same
@njit(nogil=True, cache=True, error_model="numpy")
def _adap_ucb_play(rng, arms, kinds, params, table, horizon, eps, alpha, flags):  # pragma: no cover - compiled
    """One run, its play recorded into ``arms`` (:func:`~privbandits.policies.base.record_play`)."""
    k = kinds.shape[0]
    state = _adap_ucb_init(k, horizon, eps, alpha, flags)
    # np.int64(0), not 0: numba would also compile draw_reward_sum for a round and an arm typed Literal[int](0)
    # while it infers their types (policies/dp_ncb.py, _fixed_kernel)
    t = np.int64(0)
    while t < horizon:  # one pull per arm, then the episodes
        a, length = _adap_ucb_choose(rng, state, t, horizon, eps, alpha, flags)
        if t < k:
            s = draw_reward(rng, kinds, params, table, t, a)
        else:
            s = draw_reward_sum(rng, kinds, params, table, t, a, length)
        record_play(arms, t, a, length)
        _adap_ucb_update(rng, state, t, a, length, s, horizon, eps, alpha, flags)
        t += length
    return arms, int(state[_RELEASES, 0])


@njit(nogil=True, cache=True)
def _adap_ucb_kernel(rng, kinds, params, table, horizon, epsilon, alpha, flags):  # pragma: no cover - compiled
    return _adap_ucb_play(rng, np.empty(horizon, dtype=np.int64), kinds, params, table, horizon, epsilon, alpha, flags)


@njit(nogil=True, cache=True)
def _adap_ucb_episodes(rng, kinds, params, table, horizon, epsilon, alpha, flags):  # pragma: no cover - compiled
    """:func:`_adap_ucb_kernel` with the play recorded as episodes (``Policy.run_episodes``)."""
    out, releases = _adap_ucb_play(rng, new_episodes(), kinds, params, table, horizon, epsilon, alpha, flags)
    return episode_array(out), releases


@dataclasses.dataclass(frozen=True)
class AdaPUCB(Policy):
    """AdaP-UCB of ``azize2022privacy`` (Algorithm 1, index Eq. (7)): eps-global DP (Theorems 6, 7).

    At each episode start ``t_l`` the arm maximising ``mu_tilde_a + sqrt(alpha log(2 t_l) / (2 f_a)) +
    alpha log(t_l) / (eps f_a)`` is played until its pulls double; ``mu_tilde_a`` is its last episode's
    mean plus ``Lap(1 / (eps f_a))``, ``f_a`` that episode's length (1 after the initial pull, Lemma 1).

    Parameters
    ----------
    epsilon : float > 0
        ``inf`` runs without noise.
    alpha : float > 0
        Theorem 7 needs ``alpha > 3``.
    authors_index, noiseless_init, episode_doubles_last, clip_private_mean : bool, keyword-only
        Departures of the authors' code (who also score regret with ``mu* = 1``, ``Expt_1.py`` line 134).
    """

    epsilon: float = param(0.2, Epsilon())
    alpha: float = param(3.1, Real())
    _: dataclasses.KW_ONLY
    authors_index: bool = param(False, Bool())
    noiseless_init: bool = param(False, Bool())
    episode_doubles_last: bool = param(False, Bool())
    clip_private_mean: bool = param(False, Bool())

    name = "AdaP-UCB"
    anytime = True  # never reads the horizon: one run gives every horizon
    private = True
    coerce_params = False  # stored as given, as they always were (their cache keys)
    records = ("arms", "releases")
    departures = (
        Departure(
            "authors_index",
            True,
            "authors' index",
            "AdaPUCB.py lines 88-94: sqrt(alpha log t_l / f) + 2 alpha log t_l / f, no 1/2, no 1/eps",
            "index",
            "as run - index",
        ),
        Departure(
            "noiseless_init",
            True,
            "noiseless first pulls",
            "AdaPUCB.py lines 70-77",
            "init",
            "as run - noiseless pulls",
        ),
        Departure(
            "episode_doubles_last",
            True,
            "episodes double the last",
            "AdaPUCB.py lines 105-107: 2 n_s, n reset per episode (lengths 1, 2, 4, ... not 1, 1, 2, 4, ...)",
            "double",
            "as run - doubling",
        ),
        Departure(
            "clip_private_mean",
            True,
            "clipped private means",
            "AdaPUCB.py line 123; Expt_1.py line 121",
            "clip",
            "as run - clipping",
        ),
    )
    accounting = "Lemma 1 / Theorem 6 of azize2022privacy (one release per reward)"
    _kernel = staticmethod(_adap_ucb_kernel)
    _episode_kernel = staticmethod(_adap_ucb_episodes)
    binding = ("epsilon", "alpha", ("authors_index", "noiseless_init", "episode_doubles_last", "clip_private_mean"))
    _init = staticmethod(_adap_ucb_init)
    _choose = staticmethod(_adap_ucb_choose)
    _update = staticmethod(_adap_ucb_update)
    _step_records = staticmethod(_adap_ucb_records)
    _step_episodes = True

    def guarantee(self, horizon, delta=0.0):
        if self.noiseless_init and self.private:
            # the authors' noiseless first pulls enter the index raw (a departure): no finite epsilon holds
            return math.inf, 0.0, True
        return super().guarantee(horizon, delta)
