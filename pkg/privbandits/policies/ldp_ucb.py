"""LDP-UCB (``ren2020multi``, Laplace version): a local-DP baseline of Part II (Figure 1 of ``sarkar2026dpncb``)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numba import njit

from ..environments import draw_reward
from ..mechanisms import laplace_draw
from .base import Bool, Departure, Epsilon, Policy, Real, param

__all__ = ["LDPUCB"]


@njit(nogil=True, cache=True, inline="always")
def _ldp_ucb_init(k, horizon, epsilon, explore, flags):  # pragma: no cover - compiled
    n = np.zeros(k)
    s = np.zeros(k)
    width = np.zeros(k)  # sqrt(2 / n_a) + sqrt(32 / (eps^2 n_a)): the screen's per-arm factor
    approx = np.empty(k)
    return n, s, width, approx


@njit(nogil=True, cache=True, inline="always")
def _ldp_ucb_choose(rng, state, t, horizon, epsilon, explore, flags):  # pragma: no cover - compiled
    n, s, width, approx = state
    forced_first = flags[1]
    k = n.shape[0]
    fin = np.isfinite(epsilon)
    log_t = np.log(t + 1.0)  # t + 1 = the 1-based round
    # forced exploration: the least-pulled arm with N_a <= explore * log t (covers the first k
    # rounds, where every N_a = 0), before the Laplace part of the width is a valid bound
    a = -1
    if forced_first and t < k:  # authors' code: arms 0..k-1 in turn, then the first arm under the threshold
        a = t
    else:
        for i in range(k):
            if n[i] <= explore * log_t and (a < 0 or (not forced_first and n[i] < n[a])):
                a = i
                if forced_first:
                    break
    # (a loop of at most one turn, not an `if`: the state's arrays then stay live to the end on both paths,
    # so numba prunes their reference counting in the kernel that inlines this function)
    for _ in range(1 if a < 0 else 0):
        # argmax of the index s_i / n_i + sqrt(2 log t / n_i) + sqrt(32 log t / (eps^2 n_i)). Every
        # index changes with log t, so a screen first: approx_i = s_i / n_i + sqrt(log t) w_i with
        # w_i = sqrt(2 / n_i) + sqrt(32 / (eps^2 n_i)) kept per arm, within `slack` of the exact
        # index (a few ulps; the slack is 1e-9 of the terms' size). Only arms whose approx is within 2 slack of
        # the largest can be the exact argmax; their exact indices are computed in arm order, so
        # the arm chosen is exactly the first maximiser of the full scan.
        root = np.sqrt(log_t)
        top = -np.inf
        size = 0.0  # the largest magnitude of an index's terms: the slack is relative to it
        for i in range(k):
            mean = s[i] / n[i]
            approx[i] = mean + root * width[i]
            top = max(top, approx[i])
            size = max(size, abs(mean) + root * width[i])
        cut = top - 2.0 * 1e-9 * (1.0 + size)
        best = -np.inf
        for i in range(k):
            if approx[i] >= cut:
                idx = s[i] / n[i] + np.sqrt(2.0 * log_t / n[i])
                if fin:
                    idx += np.sqrt(32.0 * log_t / (epsilon * epsilon * n[i]))
                if idx > best:
                    best = idx
                    a = i
    return a


@njit(nogil=True, cache=True, inline="always")
def _ldp_ucb_update(rng, state, t, arm, reward, horizon, epsilon, explore, flags):  # pragma: no cover - compiled
    n, s, width = state[0], state[1], state[2]
    clip_rewards = flags[0]
    fin = np.isfinite(epsilon)
    x = reward + laplace_draw(rng, 1.0 / epsilon if fin else 0.0)  # user-side Lap(1/eps)
    if clip_rewards:  # authors' code: the privatised reward clipped to [0, 1]
        x = min(1.0, max(0.0, x))
    n[arm] += 1.0
    s[arm] += x
    width[arm] = np.sqrt(2.0 / n[arm]) + (np.sqrt(32.0 / (epsilon * epsilon * n[arm])) if fin else 0.0)


# error_model="numpy": no ZeroDivisionError branch (no divisor can be 0 where it is used), which would stop
# numba pruning the inlined step functions' reference counting; the values computed are the same
@njit(nogil=True, cache=True, error_model="numpy")
def _ldp_ucb_kernel(rng, kinds, params, table, horizon, epsilon, explore, flags):  # pragma: no cover - compiled
    state = _ldp_ucb_init(kinds.shape[0], horizon, epsilon, explore, flags)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = _ldp_ucb_choose(rng, state, t, horizon, epsilon, explore, flags)
        reward = draw_reward(rng, kinds, params, table, t, arm)
        _ldp_ucb_update(rng, state, t, arm, reward, horizon, epsilon, explore, flags)
        arms[t] = arm
    return arms


@dataclasses.dataclass(frozen=True)
class LDPUCB(Policy):
    """LDP-UCB-L of ``ren2020multi``: eps-local DP (each reward reaches the learner as ``X + Lap(1/eps)``).

    Round ``t``: the least-pulled arm with ``N_a <= explore log t`` if any, else the argmax of the private
    mean plus ``sqrt(2 log t / N_a) + sqrt(32 log t / (eps^2 N_a))``; 2, 32 and 4 are the first author's
    code's (``DPclass.py``; the paper's text was not available), as in the DP-NCB authors' ``LDPUCB.py``.

    Parameters
    ----------
    epsilon : float > 0
        ``inf`` runs without noise.
    explore : float >= 0, finite
    clip_rewards, forced_first : bool, keyword-only
        Departures of the authors' code.
    """

    epsilon: float = param(0.2, Epsilon())
    explore: float = param(4.0, Real(0.0, math.inf, "[)"))
    _: dataclasses.KW_ONLY
    clip_rewards: bool = param(False, Bool())
    forced_first: bool = param(False, Bool())

    name = "LDP-UCB"
    anytime = True  # never reads the horizon: one run gives every horizon
    private = True
    coerce_params = False  # stored as given, as they always were (their cache keys)
    departures = (
        Departure("clip_rewards", True, "clipped rewards", "LDPUCB.py lines 64, 93", "clip"),
        Departure(
            "forced_first",
            True,
            "arms 0..k-1 first, then the lowest-numbered arm under the threshold",
            "LDPUCB.py lines 60-79",
            "forced",
            plus=False,
        ),
    )
    accounting = "local: each reward released once with Lap(1/eps)"
    _kernel = staticmethod(_ldp_ucb_kernel)
    _init = staticmethod(_ldp_ucb_init)
    _choose = staticmethod(_ldp_ucb_choose)
    _update = staticmethod(_ldp_ucb_update)
    binding = ("epsilon", "explore", ("clip_rewards", "forced_first"))
