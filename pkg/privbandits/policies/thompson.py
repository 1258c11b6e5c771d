"""Thompson sampling with Gaussian priors (Agrawal and Goyal, ``agrawal2013further``, Algorithm 2), unchanged.

The algorithm that ``tossou2018differential`` and ``ou2024thompson`` claim is differentially private
as it stands. Neither claim is a proven, instance-free pure-DP guarantee that this package can state
(see the class docstring), so the policy is not private here (``guarantee`` gives ``epsilon = inf``)
and is not among the calibrated algorithms; Part V's auditor measures what it leaks.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numba import njit

from ..environments import draw_reward
from .base import Policy, Real, param

__all__ = ["GaussianTS"]


@njit(nogil=True, cache=True, inline="always")
def _gaussian_ts_init(k, horizon, scale):  # pragma: no cover - compiled
    # k_i, and the sum of arm i's rewards; mu_hat_i = sums / (k_i + 1)
    return np.zeros(k), np.zeros(k)


@njit(nogil=True, cache=True, inline="always")
def _gaussian_ts_choose(rng, state, t, horizon, scale):  # pragma: no cover - compiled
    pulls, sums = state
    best, best_theta = 0, -np.inf
    for i in range(pulls.shape[0]):  # theta_i ~ N(mu_hat_i, v^2 / (k_i + 1)), independently
        theta = rng.normal(sums[i] / (pulls[i] + 1.0), scale / np.sqrt(pulls[i] + 1.0))
        if theta > best_theta:  # arg max (the first maximiser)
            best, best_theta = i, theta
    return best


@njit(nogil=True, cache=True, inline="always")
def _gaussian_ts_update(rng, state, t, arm, reward, horizon, scale):  # pragma: no cover - compiled
    pulls, sums = state
    sums[arm] += reward  # the posterior of the N(0, 1) prior and N(mu, 1) likelihood
    pulls[arm] += 1.0


# error_model="numpy" (no divisor is 0): a ZeroDivisionError branch would stop numba pruning the inlined
# step functions' reference counting
@njit(nogil=True, cache=True, error_model="numpy")
def _gaussian_ts_kernel(rng, kinds, params, table, horizon, scale):  # pragma: no cover - compiled
    state = _gaussian_ts_init(kinds.shape[0], horizon, scale)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = _gaussian_ts_choose(rng, state, t, horizon, scale)
        reward = draw_reward(rng, kinds, params, table, t, arm)
        _gaussian_ts_update(rng, state, t, arm, reward, horizon, scale)
        arms[t] = arm
    return arms


@dataclasses.dataclass(frozen=True)
class GaussianTS(Policy):
    """Thompson sampling with Gaussian priors, ``agrawal2013further`` Algorithm 2 (``scale = 1``).

    With ``k_i`` the pulls of arm ``i`` so far and ``mu_hat_i = (sum of its rewards) / (k_i + 1)``
    (the text's definition, Section 1.2; ``mu_hat_i = 0`` before any pull), every round draws
    ``theta_i ~ N(mu_hat_i, scale^2 / (k_i + 1))`` independently and pulls the largest. The update
    line of Algorithm 2 as printed, ``(mu_hat_i k_i + r) / (k_i + 2)``, does not keep that definition
    (it would need ``mu_hat_i (k_i + 1)``); this follows the definition, which is the posterior of a
    ``N(0, 1)`` prior with ``N(mu_i, 1)`` likelihood. ``scale > 1`` inflates the sampling standard
    deviation (the knob of ``tossou2018differential``'s Theorem 2 and of ``ou2024thompson``'s
    modified algorithm, which also pre-pulls every arm; that variant is not implemented here).

    Privacy, as claimed (only the abstracts could be read here): ``tossou2018differential`` state
    that this algorithm is differentially private with a loss of ``O(ln^2 T)`` after ``T`` rounds
    (their Theorem 1) and that inflating the posterior variance reaches any target eps at an extra
    regret of ``O(ln^2 T / eps)`` (Theorem 2); ``ou2024thompson`` state per-round guarantees that
    depend on the problem's parameters, composed over ``T`` rounds (in Gaussian DP, by a third-party
    summary), and tunable ones for the variant that pre-pulls every arm ``b`` times and scales the
    sampling variance by ``c``. Neither, as far as could be read, is an instance-free pure eps-DP
    guarantee with explicit constants, so :meth:`guarantee` reports none (``epsilon = inf``) and
    ``calibrate`` does not know this policy. Part V's auditor bounds its loss from below
    (``benchmarks/run_audit_thompson.py``).

    Parameters
    ----------
    scale : float > 0
        Multiplies the sampling standard deviation (1: the printed algorithm).
    """

    scale: float = param(1.0, Real(0.0, math.inf, "()"))

    name = "Gaussian TS"
    anytime = True
    _kernel = staticmethod(_gaussian_ts_kernel)
    _init = staticmethod(_gaussian_ts_init)
    _choose = staticmethod(_gaussian_ts_choose)
    _update = staticmethod(_gaussian_ts_update)
    binding = ("scale",)
