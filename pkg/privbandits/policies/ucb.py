"""UCB1 (Auer, Cesa-Bianchi and Fischer 2002): the non-private reference of the book."""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from ..environments import draw_reward
from .base import Policy

__all__ = ["UCB"]


@njit(nogil=True, cache=True, inline="always")
def _ucb_init(k, horizon):  # pragma: no cover - compiled
    return np.zeros(k), np.zeros(k)  # pulls, sums of each arm


@njit(nogil=True, cache=True, inline="always")
def _ucb_choose(rng, state, t, horizon):  # pragma: no cover - compiled
    pulls, sums = state
    k = pulls.shape[0]
    if t < k:  # initialisation: play each arm once
        return t
    arm = 0  # play argmax_j  mean_j + sqrt(2 ln n / n_j), n = plays so far
    best = -np.inf
    log_n = np.log(t)
    for j in range(k):
        index = sums[j] / pulls[j] + np.sqrt(2.0 * log_n / pulls[j])
        if index > best:
            best = index
            arm = j
    return arm


@njit(nogil=True, cache=True, inline="always")
def _ucb_update(rng, state, t, arm, reward, horizon):  # pragma: no cover - compiled
    pulls, sums = state
    pulls[arm] += 1.0
    sums[arm] += reward


@njit(nogil=True, cache=True)
def _ucb_kernel(rng, kinds, params, table, horizon):  # pragma: no cover - compiled
    state = _ucb_init(kinds.shape[0], horizon)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = _ucb_choose(rng, state, t, horizon)
        reward = draw_reward(rng, kinds, params, table, t, arm)
        _ucb_update(rng, state, t, arm, reward, horizon)
        arms[t] = arm
    return arms


@dataclasses.dataclass(frozen=True)
class UCB(Policy):
    """UCB1 of Auer et al. (2002, Figure 1): play each arm once, then the arm maximising
    ``mean_j + sqrt(2 ln n / n_j)``. No privacy guarantee."""

    name = "UCB"
    anytime = True  # never reads the horizon: one run gives every horizon
    _kernel = staticmethod(_ucb_kernel)
    _init = staticmethod(_ucb_init)
    _choose = staticmethod(_ucb_choose)
    _update = staticmethod(_ucb_update)
