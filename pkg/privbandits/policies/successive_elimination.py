"""DP-SE of Sajed and Sheffet (2019), ``sajed2019optimal``: pure eps-DP private successive elimination.

The first pure-DP algorithm whose regret, ``O(sum_a log T / Delta_a + K log T / eps)``, matches the
non-private and Shariff-Sheffet private lower bounds in order. Which description is implemented,
with every constant, is stated in the class docstring.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numba import njit

from .._validation import check_epsilon, check_int
from ..environments import draw_reward_sum
from ..mechanisms import laplace_draw
from .base import Epsilon, Policy, Real, episode_array, new_episodes, param, record_play

__all__ = ["DPSE", "dpse_epoch_length"]


@njit(nogil=True, cache=True)
def _epoch_length(e, n_alive, beta, eps):  # pragma: no cover - compiled
    """``R_e = ceil(max(32 ln(8|S|e^2/beta) / Delta_e^2, 8 ln(4|S|e^2/beta) / (eps Delta_e)))``."""
    gap = 2.0**-e
    r = 32.0 * np.log(8.0 * n_alive * e * e / beta) / (gap * gap)
    if np.isfinite(eps):
        r = max(r, 8.0 * np.log(4.0 * n_alive * e * e / beta) / (eps * gap))
    return int(np.ceil(min(r, 2.0**62)))  # capped: longer than any horizon, and within int64


#: the step state: a ``(2, K)`` array (rows: whether the arm survives, 1.0 or 0.0; its last released epoch
#: mean) and six counters (arms left, epochs completed, this epoch's R_e, the next arm to pull in this
#: epoch, the Laplace releases, the survivor or -1)
_ALIVE, _RELEASED = 0, 1
_N_ALIVE, _EPOCHS, _LENGTH, _NEXT, _RELEASES, _SURVIVOR = 0, 1, 2, 3, 4, 5


@njit(nogil=True, cache=True, inline="always")
def _dpse_init(k, horizon, epsilon, beta):  # pragma: no cover - compiled
    arm_rows = np.zeros((2, k))
    arm_rows[_ALIVE] = 1.0
    counts = np.zeros(6, dtype=np.int64)
    counts[_N_ALIVE] = k
    counts[_SURVIVOR] = 0 if k == 1 else -1
    if k > 1:
        counts[_LENGTH] = _epoch_length(1, k, beta, epsilon)
    return arm_rows, counts


@njit(nogil=True, cache=True, inline="always")
def _dpse_choose(rng, state, t, horizon, epsilon, beta):  # pragma: no cover - compiled
    """The episode from round ``t``: ``R_e`` pulls of the epoch's next surviving arm, or the survivor to the horizon."""
    counts = state[1]
    if counts[_N_ALIVE] == 1:  # the last arm is played to the horizon
        return counts[_SURVIVOR], horizon - t
    # fresh samples: R_e pulls of each surviving arm in turn, older rewards dropped
    return counts[_NEXT], min(counts[_LENGTH], horizon - t)


@njit(nogil=True, cache=True, inline="always")
def _dpse_update(rng, state, t, arm, length, total, horizon, epsilon, beta):  # pragma: no cover - compiled
    """The release of a complete epoch block, then, after the epoch's last arm, the elimination."""
    arm_rows, counts = state
    k = arm_rows.shape[1]
    r = counts[_LENGTH]
    # the survivor's play, or an epoch cut by the horizon (length < R_e): no release, no elimination
    if counts[_N_ALIVE] > 1 and length == r:
        private = np.isfinite(epsilon)
        # one release per arm per epoch: the epoch mean (sensitivity 1 / R_e) plus Lap(1 / (eps R_e))
        arm_rows[_RELEASED, arm] = total / r + (laplace_draw(rng, 1.0 / (epsilon * r)) if private else 0.0)
        counts[_RELEASES] += 1 if private else 0
        nxt = arm + 1
        while nxt < k and arm_rows[_ALIVE, nxt] == 0.0:
            nxt += 1
        counts[_NEXT] = nxt
        if nxt == k:  # the epoch is complete: eliminate
            n_alive = counts[_N_ALIVE]
            e = counts[_EPOCHS] + 1
            counts[_EPOCHS] = e
            h = np.sqrt(np.log(8.0 * n_alive * e * e / beta) / (2.0 * r))
            c = np.log(4.0 * n_alive * e * e / beta) / (epsilon * r) if private else 0.0
            best = -np.inf
            for a in range(k):
                if arm_rows[_ALIVE, a] == 1.0 and arm_rows[_RELEASED, a] > best:
                    best = arm_rows[_RELEASED, a]
            first = k
            for a in range(k):
                if arm_rows[_ALIVE, a] == 1.0:
                    if best - arm_rows[_RELEASED, a] > 2.0 * (h + c):
                        arm_rows[_ALIVE, a] = 0.0
                        n_alive -= 1
                    else:
                        first = min(first, a)
                        counts[_SURVIVOR] = a  # kept only if it is alone
            counts[_N_ALIVE] = n_alive
            counts[_NEXT] = first
            if n_alive > 1:
                counts[_SURVIVOR] = -1
                counts[_LENGTH] = _epoch_length(e + 1, n_alive, beta, epsilon)


@njit(nogil=True, cache=True)
def _dpse_records(state):  # pragma: no cover - compiled
    counts = state[1]
    return counts[_RELEASES], counts[_EPOCHS], counts[_SURVIVOR]


# error_model="numpy" (no divisor is 0): a ZeroDivisionError branch would stop numba pruning the inlined
# step functions' reference counting (benchmarks/README.md, issue 36); the values are the same
@njit(nogil=True, cache=True, error_model="numpy")
def _dpse_play(rng, arms, kinds, params, table, horizon, eps, beta):  # pragma: no cover - compiled
    """One run, its play recorded into ``arms`` (:func:`~privbandits.policies.base.record_play`)."""
    state = _dpse_init(kinds.shape[0], horizon, eps, beta)
    t = 0
    while t < horizon:  # epochs of R_e pulls of each surviving arm, then the survivor to the horizon
        a, length = _dpse_choose(rng, state, t, horizon, eps, beta)
        s = draw_reward_sum(rng, kinds, params, table, t, a, length)
        record_play(arms, t, a, length)
        _dpse_update(rng, state, t, a, length, s, horizon, eps, beta)
        t += length
    counts = state[1]
    return arms, counts[_RELEASES], counts[_EPOCHS], counts[_SURVIVOR]


@njit(nogil=True, cache=True)
def _dpse_kernel(rng, kinds, params, table, horizon, epsilon, beta):  # pragma: no cover - compiled
    return _dpse_play(rng, np.empty(horizon, dtype=np.int64), kinds, params, table, horizon, epsilon, beta)


@njit(nogil=True, cache=True)
def _dpse_episodes(rng, kinds, params, table, horizon, epsilon, beta):  # pragma: no cover - compiled
    """:func:`_dpse_kernel` with the play recorded as episodes (``Policy.run_episodes``)."""
    out, releases, epochs, survivor = _dpse_play(rng, new_episodes(), kinds, params, table, horizon, epsilon, beta)
    return episode_array(out), releases, epochs, survivor


def _beta(policy: DPSE, horizon: int) -> float:
    """The confidence ``beta``: the policy's, or ``1 / T``."""
    return float(policy.beta) if policy.beta is not None else 1.0 / horizon


def dpse_epoch_length(epoch: int, surviving: int, epsilon: float, beta: float) -> int:
    """DP-SE's epoch length ``R_e`` (pulls of each surviving arm in epoch ``e``).

    ``ceil(max(32 ln(8 |S| e^2 / beta) / Delta_e^2, 8 ln(4 |S| e^2 / beta) / (eps Delta_e)))`` with
    ``Delta_e = 2^-e``; the second term is dropped at ``epsilon = inf``.

    Parameters
    ----------
    epoch : int >= 1
    surviving : int >= 2
        ``|S|``, the arms left at the epoch's start.
    epsilon : float > 0
        ``inf`` allowed.
    beta : float in (0, 1)

    Returns
    -------
    int
    """
    epoch = check_int("epoch", epoch, minimum=1)
    surviving = check_int("surviving", surviving, minimum=2)
    epsilon = check_epsilon(epsilon, allow_inf=True)
    beta = DPSE.check_param("beta", beta)
    if beta is None:
        raise ValueError("beta must be a real number in (0, 1), got None")
    return int(_epoch_length(epoch, surviving, beta, epsilon))


@dataclasses.dataclass(frozen=True)
class DPSE(Policy):
    """DP-SE of ``sajed2019optimal``: successive elimination on fresh, Laplace-released epoch means; eps-DP.

    Epochs ``e = 1, 2, ...`` with ``Delta_e = 2^-e``. Each surviving arm ``i`` of ``S`` is pulled
    ``R_e`` times in a row (:func:`dpse_epoch_length`; ``|S|`` at the epoch's start), on fresh rewards
    (earlier epochs' are discarded), and its epoch mean is released once as
    ``mu_tilde_i = mean + Lap(1 / (eps R_e))``. With ``h_e = sqrt(ln(8|S|e^2/beta) / (2 R_e))`` and
    ``c_e = ln(4|S|e^2/beta) / (eps R_e)``, every arm with ``max_S mu_tilde - mu_tilde_i > 2 (h_e + c_e)``
    is eliminated; once one arm is left it is pulled to the horizon. ``R_e`` makes ``h_e, c_e <=
    Delta_e / 8``, and by Hoeffding, the Laplace tail and a union bound over arms and epochs
    (``sum 1/(2 e^2) < 1``) the best arm survives with probability at least ``1 - beta``.

    Source: the paper's text could not be read here (only its abstract). The constants (``32``, ``8``,
    the ``8|S|e^2`` and ``4|S|e^2`` confidence splits, the margin ``2 (h_e + c_e)``) are those of two
    independent public implementations (``keirp/private-bandits``, ``dp_successive_elimination.py``,
    and a DP best-arm baseline), which agree on all of them. They set ``R_e = max(...) + 1`` and compute
    ``h_e, c_e`` with it; this code pulls ``ceil(max(...))`` times and uses that count (a relative
    difference below ``1/R_e``). It pulls each arm's ``R_e`` in one block (the second implementation
    does; ``keirp/private-bandits`` interleaves the arms round-robin); the order does not change what
    is released (each arm's mean of ``R_e`` fresh rewards). ``beta = 1/T`` is the regret
    theorem's choice. An epoch cut by the horizon releases nothing.

    Privacy: each reward enters exactly one release (fresh samples per epoch, one mean per arm per
    epoch), each release is eps-DP (a mean of ``R_e`` rewards in [0, 1] has sensitivity ``1/R_e``), so the
    run is eps-DP by parallel composition; the arm sequence is post-processing of the releases.
    Records: ``releases``, ``epochs`` (completed), ``survivor`` (the arm left alone, -1 if several).

    Parameters
    ----------
    epsilon : float > 0
        ``inf`` runs without noise (non-private successive elimination with ``h_e`` alone).
    beta : float in (0, 1) or None
        Confidence; ``None``: ``1 / T``.
    """

    epsilon: float = param(1.0, Epsilon())
    beta: float | None = param(None, Real(0.0, 1.0, "()", optional=True))

    name = "DP-SE"
    private = True
    records = ("arms", "releases", "epochs", "survivor")
    accounting = "parallel composition: fresh rewards per epoch, one Laplace mean per arm per epoch (sensitivity 1/R_e)"
    _kernel = staticmethod(_dpse_kernel)
    _episode_kernel = staticmethod(_dpse_episodes)
    binding = ("epsilon", _beta)
    _init = staticmethod(_dpse_init)
    _choose = staticmethod(_dpse_choose)
    _update = staticmethod(_dpse_update)
    _step_records = staticmethod(_dpse_records)
    _step_episodes = True
