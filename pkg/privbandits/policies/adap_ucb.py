"""AdaP-UCB (``azize2022privacy``): a global-DP baseline of Part II (Figure 1 of ``sarkar2026dpncb``)."""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from ..environments import draw_reward, draw_reward_sum
from ..mechanisms import laplace_draw
from .base import Bool, Departure, Epsilon, Policy, Real, episode_array, new_episodes, param, record_play

__all__ = ["AdaPUCB"]


@njit(nogil=True, cache=True)
def _adap_ucb_play(rng, arms, kinds, params, table, horizon, eps, alpha, flags):  # pragma: no cover - compiled
    """One run, its play recorded into ``arms`` (:func:`~privbandits.policies.base.record_play`)."""
    authors_index, noiseless_init, double_last, clip = flags
    k = kinds.shape[0]
    n = np.zeros(k)  # total pulls N_a
    last = np.zeros(k)  # size of the arm's last episode (the only samples kept: forgetting)
    mu_tilde = np.zeros(k)
    noise1 = 1.0 if np.isfinite(eps) else 0.0
    t = 0
    releases = 0
    # initialisation: one pull per arm, released as X + Lap(1/eps)
    for a in range(min(k, horizon)):
        x = draw_reward(rng, kinds, params, table, t, a)
        record_play(arms, t, a, 1)
        t += 1
        n[a] = 1.0
        last[a] = 1.0
        if noiseless_init:  # authors' code: the first pulls enter the index without noise
            mu_tilde[a] = x
        else:
            mu_tilde[a] = x + laplace_draw(rng, noise1 / eps if noise1 > 0 else 0.0)
            if clip:  # authors' code: every release clipped to [0, 1]
                mu_tilde[a] = min(max(mu_tilde[a], 0.0), 1.0)
            releases += 1
    while t < horizon:
        # episode start t_l (1-based, = t + 1): Eq. (7) of azize2022privacy with f = the length of
        # the arm's last episode (N_a / 2 once the arm has had an episode; 1 after the initial pull):
        # a_l = argmax mu_tilde + sqrt(alpha log(2 t_l) / (2 f)) + alpha log(t_l) / (eps f)
        log_t = np.log(t + 1.0)
        log_2t = np.log(2.0 * (t + 1.0))
        best = -np.inf
        a = 0
        for i in range(k):
            f = last[i]
            if authors_index:  # authors' code: no 1/2, log t_l, and 2 alpha log t_l / f without 1/eps
                idx = mu_tilde[i] + np.sqrt(alpha * log_t / f) + 2.0 * alpha * log_t / f
            else:
                idx = mu_tilde[i] + np.sqrt(alpha * log_2t / (2.0 * f))
                if np.isfinite(eps):
                    idx += alpha * log_t / (eps * f)
            if idx > best:
                best = idx
                a = i
        # play a_l until its number of pulls doubles (N_a new pulls), forget older samples
        length = min(int(2.0 * last[a] if double_last else n[a]), horizon - t)
        s = draw_reward_sum(rng, kinds, params, table, t, a, length)
        record_play(arms, t, a, length)
        t += length
        n[a] += length
        last[a] = length
        scale = 1.0 / (eps * length) if np.isfinite(eps) else 0.0
        mu_tilde[a] = s / length + laplace_draw(rng, scale)  # Laplace on the last episode's mean
        if clip:  # authors' code (AdaPUCB.py line 123): the release clipped to [0, 1]
            mu_tilde[a] = min(max(mu_tilde[a], 0.0), 1.0)
        releases += 1
    return arms, releases


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
