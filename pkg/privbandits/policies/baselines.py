"""Private baselines of Part II: AdaP-UCB (Azize and Basu 2022) and LDP-UCB (Ren et al. 2020).

Both are the baselines of Figure 1 of Sarkar, Pandey and Ray Chowdhury (2026).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from .._validation import check_epsilon, check_positive
from ..environments import BanditInstance, draw_reward, draw_reward_sum
from .base import Policy, Records
from .sarkar2026 import _lap

__all__ = ["AdaPUCB", "LDPUCB"]


@njit(nogil=True, cache=True)
def _adap_ucb_kernel(rng, kinds, params, table, horizon, eps, alpha):  # pragma: no cover - compiled
    k = kinds.shape[0]
    arms = np.empty(horizon, dtype=np.int64)
    n = np.zeros(k)  # total pulls N_a
    last = np.zeros(k)  # size of the arm's last episode (the only samples kept: forgetting)
    mu_tilde = np.zeros(k)
    noise1 = 1.0 if np.isfinite(eps) else 0.0
    t = 0
    releases = 0
    # initialisation: one pull per arm, released as X + Lap(1/eps)
    for a in range(min(k, horizon)):
        x = draw_reward(rng, kinds, params, table, t, a)
        arms[t] = a
        t += 1
        n[a] = 1.0
        last[a] = 1.0
        mu_tilde[a] = x + _lap(rng, noise1 / eps if noise1 > 0 else 0.0)
        releases += 1
    while t < horizon:
        # episode start t_l: a_l = argmax mu_tilde + sqrt(alpha log t_l / (2 f)) + alpha log t_l / (eps f)
        log_t = np.log(t + 1.0)
        best = -np.inf
        a = 0
        for i in range(k):
            f = last[i]
            idx = mu_tilde[i] + np.sqrt(alpha * log_t / (2.0 * f))
            if np.isfinite(eps):
                idx += alpha * log_t / (eps * f)
            if idx > best:
                best = idx
                a = i
        # play a_l until its number of pulls doubles (N_a new pulls), forget older samples
        length = min(int(n[a]), horizon - t)
        s = draw_reward_sum(rng, kinds, params, table, t, a, length)
        for u in range(length):
            arms[t + u] = a
        t += length
        n[a] += length
        last[a] = length
        scale = 1.0 / (eps * length) if np.isfinite(eps) else 0.0
        mu_tilde[a] = s / length + _lap(rng, scale)  # Laplace on the last episode's mean
        releases += 1
    return arms, releases


@njit(nogil=True, cache=True)
def _ldp_ucb_kernel(rng, kinds, params, table, horizon, eps):  # pragma: no cover - compiled
    k = kinds.shape[0]
    arms = np.empty(horizon, dtype=np.int64)
    n = np.zeros(k)
    s = np.zeros(k)
    fin = np.isfinite(eps)
    b = 1.0 / eps if fin else 0.0
    for t in range(horizon):
        if t < k:
            a = t
        else:
            log_t = np.log(t + 1.0)
            best = -np.inf
            a = 0
            for i in range(k):
                idx = s[i] / n[i] + np.sqrt(2.0 * log_t / n[i])
                if fin:
                    idx += np.sqrt(32.0 * log_t / (eps * eps * n[i]))
                if idx > best:
                    best = idx
                    a = i
        x = draw_reward(rng, kinds, params, table, t, a) + _lap(rng, b)  # user-side Lap(1/eps)
        n[a] += 1.0
        s[a] += x
        arms[t] = a
    return arms


@dataclasses.dataclass(frozen=True)
class AdaPUCB(Policy):
    """AdaP-UCB of Azize and Basu (2022): epsilon-global DP by adaptive episodes.

    Each arm is pulled once; then at each episode start ``t_l`` the arm maximising
    ``mu_tilde_a + sqrt(alpha log t_l / (2 f_a)) + alpha log t_l / (eps f_a)`` is played until its
    count doubles, ``f_a`` being the length of its last episode. Only the last episode's rewards are
    kept (forgetting) and their mean is released once with ``Lap(1 / (eps f_a))``: each reward enters
    one release, so the algorithm is eps-DP. ``alpha > 3`` (default 3.1, as in ``000``'s experiments).
    Records: ``arms``, ``releases``.
    """

    epsilon: float = 0.2
    alpha: float = 3.1
    name = "AdaP-UCB"
    private = True

    def __post_init__(self) -> None:
        check_epsilon(self.epsilon, allow_inf=True)
        check_positive("alpha", self.alpha)

    def _run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        arms, rel = _adap_ucb_kernel(rng, *instance.kernel_args(), horizon, float(self.epsilon), float(self.alpha))
        return {"arms": arms, "releases": np.asarray(rel)}


@dataclasses.dataclass(frozen=True)
class LDPUCB(Policy):
    """LDP-UCB of Ren, Zhou, Liu and Shroff (2020), Laplace version: eps-local DP.

    Each reward reaches the learner as ``X + Lap(1/eps)``; the learner plays UCB on the privatised
    means with width ``sqrt(2 log t / n) + sqrt(32 log t / (eps^2 n))`` (reward part plus a
    sub-exponential bound for the Laplace part). Records: ``arms``.
    """

    epsilon: float = 0.2
    name = "LDP-UCB"
    private = True

    def __post_init__(self) -> None:
        check_epsilon(self.epsilon, allow_inf=True)

    def _run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        return {"arms": _ldp_ucb_kernel(rng, *instance.kernel_args(), horizon, float(self.epsilon))}
