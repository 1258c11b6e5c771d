"""Matched guarantees (Part VI): each private bandit's parameters for a target end-to-end (eps, delta).

Every algorithm of the book states its privacy in its own currency: Private-UCB and AdaP-UCB an
eps for the whole run, DP-UCB-BOUND and DP-UCB an eps per part of the hybrid counter (the book's
finding: the paper's counter spends eps in each part, so it is 2 eps-DP; ``hybrid_split=True`` splits
it), DP-UCB-INT an input eps whose end-to-end guarantee is the smaller of Corollary 3.1's two terms
(:func:`~privbandits.policies.private_ucb.dp_ucb_int_privacy`): a pure eps' (basic composition) or
a composed (eps', delta') (advanced composition), the repaired GDP-NCB a split between
a sparse-vector stopping rule and its releases
(:func:`~privbandits.policies.dp_ncb.sparse_vector_budget`). :func:`calibrate` turns a target
end-to-end ``(epsilon, delta)`` at horizon ``T`` into each algorithm's parameters with that
algorithm's proven accounting, and :func:`guarantee` recomputes the end-to-end guarantee of a
constructed policy from its parameters with the same accounting functions, so that a calibration
can be checked independently of how it was found.

Algorithms whose printed guarantee the book refutes (GDP-NCB with the printed Phase I, and the
anytime wrapper over it) are calibrated at their *claimed* guarantee with ``proven=False``.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from scipy.special import zeta

from ._validation import check_epsilon, check_int
from .policies import DPUCB, GDPNCB, LDPNCB, LDPUCB, AdaPUCB, AnytimeDPNCB, DPUCBBound, DPUCBInt, Policy, PrivateUCB
from .policies.adap_klucb import AdaPKLUCB
from .policies.dp_ncb import sparse_vector_budget
from .policies.private_ucb import dp_ucb_int_privacy, release_points

__all__ = [
    "Calibration",
    "GLOBAL_ALGORITHMS",
    "LOCAL_ALGORITHMS",
    "calibrate",
    "guarantee",
    "dp_ucb_int_basic_epsilon",
    "dp_ucb_int_release_loss",
]

#: The global-DP algorithms :func:`calibrate` knows, by their policies' names.
GLOBAL_ALGORITHMS = (
    "Private-UCB",
    "DP-UCB-BOUND",
    "DP-UCB",
    "DP-UCB-INT",
    "AdaP-UCB",
    "AdaP-KLUCB",
    "GDP-NCB",
    "Anytime GDP-NCB",
)
#: The local-DP algorithms (their epsilon is per reward, released at once, so no composition).
LOCAL_ALGORITHMS = ("LDP-UCB", "LDP-NCB", "Anytime LDP-NCB")


class Calibration(NamedTuple):
    """A policy calibrated for a target guarantee, and the guarantee its accounting gives.

    Attributes
    ----------
    policy : Policy
        The constructed policy.
    params : dict
        The constructor parameters that differ from the defaults or carry the budget.
    epsilon : float
        The end-to-end epsilon of :func:`guarantee` (<= the target).
    delta : float
        The end-to-end delta (<= the target).
    proven : bool
        Whether the accounting is proven (False: the paper's claim, refuted by the book).
    accounting : str
        Which result gives the guarantee.
    """

    policy: Policy
    params: dict[str, Any]
    epsilon: float
    delta: float
    proven: bool
    accounting: str


def dp_ucb_int_basic_epsilon(t: int, epsilon: float, v: float = 1.1) -> float:
    """The first (pure, basic-composition) term of Corollary 3.1 of ``tossou2016algorithms``.

    ``eps (t^(1 - v/2) - v/2) / (1 - v/2)``: DP-UCB-INT with input ``eps`` is eps'-DP (delta = 0)
    after ``t`` steps with this eps'. :func:`~privbandits.policies.private_ucb.dp_ucb_int_privacy`
    is the minimum of it and the advanced-composition term (which needs delta' > 0).

    Parameters
    ----------
    t : int
        The number of steps (>= 1).
    epsilon : float
        The input epsilon (> 0, finite).
    v : float
        The exponent ``v``, in (1, 1.5].

    Returns
    -------
    float
        The pure epsilon'.

    Raises
    ------
    ValueError
        If an argument is out of range.
    """
    t = check_int("t", t, minimum=1)
    epsilon = check_epsilon(epsilon)
    if not (isinstance(v, (int, float)) and 1.0 < v <= 1.5):
        raise ValueError(f"v must lie in (1, 1.5], got {v!r}")
    return epsilon * (t ** (1.0 - v / 2.0) - v / 2.0) / (1.0 - v / 2.0)


def dp_ucb_int_release_loss(horizon: int, epsilon: float, v: float = 1.1, delta: float = 0.0) -> float:
    """End-to-end epsilon of DP-UCB-INT's actual releases, composed, against Corollary 3.1's closed form.

    An arm's mean is released at the pull counts ``W_1 < W_2 < ... <= horizon`` of Lemma B.1
    (:func:`~privbandits.policies.private_ucb.release_points`) with ``Lap(W^(v/2 - 1))`` noise on a
    mean of ``W`` rewards, an ``W^(-v/2)``-DP release (Lemma 3.1 of ``tossou2016algorithms``); a
    reward of the arm's first pull enters every release. Composing those per-release epsilons
    ``e_i``: basic composition gives ``sum e_i`` (pure); with ``delta > 0`` the heterogeneous
    advanced composition of Dwork, Rothblum and Vadhan gives
    ``sum e_i (exp(e_i) - 1) + sqrt(2 ln(1/delta) sum e_i^2)``, and the smaller of the two is
    returned. Corollary 3.1 bounds the same sums by closed forms over all ``n`` (not only the release
    points), so this is at most :func:`guarantee`'s epsilon: it is the accounting the calibration is
    *not* tight to.

    Parameters
    ----------
    horizon : int
        The number of steps (>= 1); no arm is pulled more often.
    epsilon : float
        The input epsilon (> 0, finite).
    v : float
        The exponent ``v``, in (1, 1.5].
    delta : float
        The delta of the advanced composition, in [0, 1) (0: basic composition only).

    Returns
    -------
    float
        The composed epsilon (0 if no release happens by ``horizon``).

    Raises
    ------
    ValueError
        If an argument is out of range.
    """
    horizon = check_int("horizon", horizon, minimum=1)
    epsilon = check_epsilon(epsilon)
    if not (isinstance(delta, (int, float)) and 0.0 <= delta < 1.0):
        raise ValueError(f"delta must lie in [0, 1), got {delta!r}")
    per_release = release_points(epsilon, v, horizon).astype(float) ** (-v / 2.0)
    basic = float(per_release.sum())
    if delta == 0.0:
        return basic
    advanced = float(np.sum(per_release * np.expm1(per_release)))
    advanced += math.sqrt(2.0 * math.log(1.0 / delta) * float(np.sum(per_release**2)))
    return min(basic, advanced)


def _check_target(epsilon: float, delta: float, horizon: int | None) -> tuple[float, float, int | None]:
    epsilon = check_epsilon(epsilon, allow_inf=True)
    if not (isinstance(delta, (int, float)) and 0.0 <= delta < 1.0):
        raise ValueError(f"delta must lie in [0, 1), got {delta!r}")
    if horizon is not None:
        horizon = check_int("horizon", horizon, minimum=2)
    return epsilon, float(delta), horizon


def guarantee(policy: Policy, horizon: int, delta: float = 0.0) -> tuple[float, float, bool]:
    """End-to-end ``(epsilon, delta, proven)`` of a policy run for ``horizon`` steps, from its parameters.

    Each algorithm's own accounting: Private-UCB, AdaP-UCB, AdaP-KLUCB: ``epsilon``; DP-UCB-BOUND
    and DP-UCB: ``epsilon`` with ``hybrid_split=True``, ``2 epsilon`` without (the hybrid counter
    spends epsilon in each of its two parts); DP-UCB-INT: the minimum of Corollary 3.1's two terms,
    reported with the delta of the term that gives it: the pure basic-composition term
    :func:`dp_ucb_int_basic_epsilon` with ``delta = 0`` (always for ``delta = 0``, and for
    ``delta > 0`` wherever it is no larger), the advanced-composition term
    ``dp_ucb_int_privacy(T, eps, v, delta)`` with ``delta`` where it is smaller; GDP-NCB with
    ``phase1_rule="sparse_vector"``: ``sparse_vector_budget(T, eps).total``;
    GDP-NCB with the printed Phase I and the anytime wrapper over it: the claimed ``epsilon`` with
    ``proven=False``; LDP-UCB, LDP-NCB, Anytime LDP-NCB: their local ``epsilon``.

    Parameters
    ----------
    policy : Policy
        One of the algorithms of :data:`GLOBAL_ALGORITHMS` or :data:`LOCAL_ALGORITHMS`.
    horizon : int
        The number of steps (>= 2).
    delta : float
        The delta at which to state a composed guarantee (DP-UCB-INT only), in [0, 1).

    Returns
    -------
    tuple of (float, float, bool)
        ``(epsilon, delta, proven)``; ``delta`` is 0 for pure guarantees (DP-UCB-INT's included
        where its basic-composition term binds).

    Raises
    ------
    ValueError
        If ``policy`` is not one of the calibrated algorithms, or ``horizon`` or ``delta`` is out of range.
    """
    _, delta, horizon = _check_target(1.0, delta, horizon)
    if isinstance(policy, (PrivateUCB, AdaPUCB, AdaPKLUCB, LDPUCB, LDPNCB)):
        return float(policy.epsilon), 0.0, True
    if isinstance(policy, (DPUCBBound, DPUCB)):
        return float(policy.epsilon) * (1.0 if policy.hybrid_split else 2.0), 0.0, True
    if isinstance(policy, DPUCBInt):
        pure = dp_ucb_int_basic_epsilon(horizon, policy.epsilon, policy.v)
        if delta > 0.0:
            composed = dp_ucb_int_privacy(horizon, policy.epsilon, policy.v, delta)
            if composed < pure:  # the advanced-composition term binds: it needs delta
                return composed, delta, True
        return pure, 0.0, True  # the basic-composition term is a pure guarantee
    if isinstance(policy, GDPNCB):
        if policy.phase1_rule == "sparse_vector":
            return sparse_vector_budget(horizon, policy.epsilon, policy.sv_fraction).total, 0.0, True
        return float(policy.epsilon), 0.0, False
    if isinstance(policy, AnytimeDPNCB):
        return float(policy.epsilon), 0.0, policy.base == "ldp"
    raise ValueError(f"policy must be one of {GLOBAL_ALGORITHMS + LOCAL_ALGORITHMS}, got {type(policy).__name__}")


def calibrate(
    algorithm: str, epsilon: float, delta: float = 0.0, horizon: int | None = None, **kwargs: Any
) -> Calibration:
    """Parameters of ``algorithm`` for a target end-to-end ``(epsilon, delta)`` over ``horizon`` steps.

    The largest privacy parameter each algorithm's accounting allows (so as little noise as the
    guarantee permits): the target epsilon itself where the accounting is exact (Private-UCB,
    AdaP-UCB, AdaP-KLUCB, DP-UCB-BOUND and DP-UCB with the split hybrid counter, the repaired
    GDP-NCB, and the local algorithms); for DP-UCB-INT the input epsilon whose Corollary 3.1 guarantee
    at ``T`` meets the target: with ``delta > 0``, the larger of the inversions of its two terms
    (Corollary 3.2 inverts the second; the minimum meets the target if either term does), capped at
    the algorithm's limit 1; with ``delta = 0``, the inversion of the pure term. Where the pure term
    is the larger inversion the policy is the ``delta = 0`` one and its guarantee is reported pure
    (``delta = 0``). Tight to Corollary 3.1's closed forms, not to the composition of the releases the
    mechanism actually makes (:func:`dp_ucb_int_release_loss`, smaller). ``"GDP-NCB"``
    returns the repaired ``phase1_rule="sparse_vector"``; ``"Anytime GDP-NCB"`` its claimed
    (refuted) guarantee with ``proven=False``.

    Parameters
    ----------
    algorithm : str
        One of :data:`GLOBAL_ALGORITHMS` or :data:`LOCAL_ALGORITHMS`.
    epsilon : float
        Target end-to-end epsilon (> 0; ``inf`` for the algorithms that run without noise).
    delta : float
        Target delta, in [0, 1) (only DP-UCB-INT uses it; the others are pure).
    horizon : int, optional
        ``T`` (>= 2); needed by DP-UCB-INT, Private-UCB and GDP-NCB, whose accounting depends on it
        (the others are anytime).
    **kwargs
        Further constructor arguments (e.g. ``v`` for DP-UCB-INT, ``sv_fraction`` for GDP-NCB).

    Returns
    -------
    Calibration
        The policy, its parameters and the guarantee :func:`guarantee` gives it.

    Raises
    ------
    ValueError
        If ``algorithm`` is unknown, ``epsilon``, ``delta`` or ``horizon`` is out of range, a needed
        ``horizon`` is missing, or ``epsilon = inf`` for an algorithm that needs finite noise.
    """
    epsilon, delta, horizon = _check_target(epsilon, delta, horizon)
    if algorithm not in GLOBAL_ALGORITHMS + LOCAL_ALGORITHMS:
        raise ValueError(f"algorithm must be one of {GLOBAL_ALGORITHMS + LOCAL_ALGORITHMS}, got {algorithm!r}")
    if algorithm in ("DP-UCB-INT", "Private-UCB", "GDP-NCB") and horizon is None:
        raise ValueError(f"horizon is required for {algorithm} (its accounting depends on T)")
    finite_only = ("Private-UCB", "DP-UCB-BOUND", "DP-UCB", "DP-UCB-INT")
    if algorithm in finite_only and not math.isfinite(epsilon):
        raise ValueError(f"epsilon must be finite for {algorithm}, got {epsilon}")
    proven = True
    if algorithm == "Private-UCB":
        params: dict[str, Any] = {"epsilon": epsilon}
        policy: Policy = PrivateUCB(**params, **kwargs)
        accounting = "binary tree calibrated for T items per arm (chan2011private)"
    elif algorithm in ("DP-UCB-BOUND", "DP-UCB"):
        params = {"epsilon": epsilon, "hybrid_split": True}
        policy = (DPUCBBound if algorithm == "DP-UCB-BOUND" else DPUCB)(**params, **kwargs)
        accounting = "hybrid counter with epsilon split between its parts (Part I)"
    elif algorithm == "DP-UCB-INT":
        v = kwargs.pop("v", 1.1)
        params = {"epsilon": _dp_ucb_int_input(epsilon, delta, horizon, v), "v": v}
        policy = DPUCBInt(**params, **kwargs)
        accounting = "Corollary 3.1 of tossou2016algorithms"  # which term: set below from the guarantee
    elif algorithm in ("AdaP-UCB", "AdaP-KLUCB"):
        params = {"epsilon": epsilon}
        policy = (AdaPUCB if algorithm == "AdaP-UCB" else AdaPKLUCB)(**params, **kwargs)
        accounting = "Lemma 1 / Theorem 6 of azize2022privacy (one release per reward)"
    elif algorithm == "GDP-NCB":
        eps_run = epsilon
        sv = kwargs.get("sv_fraction", 0.5)
        while math.isfinite(eps_run) and sparse_vector_budget(horizon, eps_run, sv).total > epsilon:
            eps_run = math.nextafter(eps_run, 0.0)  # rounding of the split: at most a few ulps
        params = {"epsilon": eps_run, "phase1_rule": "sparse_vector"}
        policy = GDPNCB(**params, **kwargs)
        accounting = "sparse-vector Phase I + releases at floor(log2 T) / eps2 (Part V)"
    elif algorithm == "Anytime GDP-NCB":
        params = {"base": "gdp", "epsilon": epsilon}
        policy = AnytimeDPNCB(**params, **kwargs)
        proven = False
        accounting = "claimed (Theorem 2 + parallel composition); the printed Phase I leaks (Part V)"
    else:  # local algorithms
        params = {"epsilon": epsilon}
        if algorithm == "Anytime LDP-NCB":
            params = {"base": "ldp", "epsilon": epsilon}
        cls = {"LDP-UCB": LDPUCB, "LDP-NCB": LDPNCB, "Anytime LDP-NCB": AnytimeDPNCB}[algorithm]
        policy = cls(**params, **kwargs)
        accounting = "local: each reward released once with Lap(1/eps)"
    if not math.isfinite(epsilon):
        return Calibration(policy, params, math.inf, 0.0, proven, "no privacy (epsilon = inf)")
    eps_got, delta_got, proven_got = guarantee(policy, horizon if horizon is not None else 2, delta)
    if algorithm == "DP-UCB-INT":
        accounting += ", pure (basic-composition) term" if delta_got == 0.0 else ", advanced-composition term"
    return Calibration(policy, params, eps_got, delta_got, proven and proven_got, accounting)


def _dp_ucb_int_input(target: float, delta: float, horizon: int, v: float) -> float:
    """The largest input epsilon in (0, 1] whose Corollary 3.1 guarantee at ``horizon`` is <= ``target``."""
    best = target / dp_ucb_int_basic_epsilon(horizon, 1.0, v)  # the pure term is linear in eps
    if delta > 0.0:
        # the second term, 2 eps z + sqrt(2 eps z L) with z = zeta(v), L = ln(1/delta), is quadratic in
        # x = sqrt(eps): 2 z x^2 + sqrt(2 z L) x = target (its root is Corollary 3.2's formula)
        zv, log_term = float(zeta(v)), math.log(1.0 / delta)
        a, b = 2.0 * zv, math.sqrt(2.0 * zv * log_term)
        x = (-b + math.sqrt(b * b + 4.0 * a * target)) / (2.0 * a)
        best = max(best, x * x)
    best = min(best, 1.0)

    # rounding: step down by ulps until the recomputed guarantee is <= target
    def spent(e: float) -> float:
        if delta > 0.0:
            return dp_ucb_int_privacy(horizon, e, v, delta)
        return dp_ucb_int_basic_epsilon(horizon, e, v)

    while spent(best) > target:
        best = math.nextafter(best, 0.0)
    return best
