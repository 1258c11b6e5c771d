"""Private UCB: the counter-based private versions of UCB1 of Part I, and their bounds and accounting.

* :class:`PrivateUCB`: Algorithm 1 of ``mishra2015nearly``, a binary-tree counter per arm
  (``chan2011private``) at ``eps/k`` and the printed relaxation Gamma; the tail-bound width
  (Chan et al.'s tail bound, ``eps`` per tree) is an option.
* :class:`DPUCBBound`, :class:`DPUCB`, :class:`DPUCBInt`: Algorithms 1-3 of
  ``tossou2016algorithms``, with the hybrid counter of ``chan2011private``.

The paper's hybrid counter gives the whole epsilon to both its parts, so it is only 2 epsilon-DP;
``hybrid_split=True`` splits it. ``bonus="matched"`` evaluates Eq. (2.2) at the counter's own
noise scales (the printed bonus is about half what that noise needs). An argument outside the range
its entry states raises ``ValueError`` naming it.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
from numba import njit
from scipy.special import gammaincc, lambertw, zeta

from .._validation import check_delta, check_epsilon, check_int
from ..environments import draw_reward
from ..mechanisms import (
    binary_counter_insert,
    binary_counter_levels,
    binary_counter_states,
    binary_counter_terms,
    hybrid_counter_insert,
    hybrid_counter_states,
    laplace_iid_sum_tail_bound,
)
from .base import Bool, Choice, Epsilon, Policy, Real, param

__all__ = [
    "PrivateUCB",
    "PER_TREE_BUDGETS",
    "PRIVATE_UCB_WIDTHS",
    "private_ucb_noise_scale",
    "private_ucb_relaxation",
    "BONUS_FORMS",
    "DPUCBBound",
    "DPUCB",
    "DPUCBInt",
    "dp_ucb_bound_bonus",
    "dp_ucb_bound_miscoverage",
    "dp_ucb_bound_theorem_epsilon",
    "dp_ucb_int_input_epsilon",
    "dp_ucb_int_release_counts",
    "dp_ucb_int_privacy",
    "dp_ucb_int_basic_epsilon",
    "dp_ucb_int_release_loss",
    "release_points",
    "lambert_pull_threshold",
    "regret_bound_dp_ucb_bound",
    "regret_bound_dp_ucb",
    "regret_bound_dp_ucb_int",
]


# --------------------------------------------------------------------------------------------
# The indices' per-round terms
# --------------------------------------------------------------------------------------------


@njit(nogil=True, cache=True)
def _bonus_log_term(t):  # pragma: no cover - compiled
    return np.log(4.0 * float(t) ** 4)  # ln(4 / gamma), gamma = t^-4 (Algorithm 1's bonus)


@njit(nogil=True, cache=True)
def _round_terms_kernel(horizon):  # pragma: no cover - compiled
    terms = np.full((3, horizon + 1), np.nan)
    for t in range(1, horizon + 1):
        terms[0, t] = np.log(t)  # the exploration width's ln t
        gamma = float(t) ** -4.0
        terms[1, t] = np.log(2.0 / gamma)  # Private-UCB's ln(2 / gamma)
        terms[2, t] = _bonus_log_term(t)
    return terms


@functools.lru_cache(maxsize=8)
def _round_terms(horizon: int) -> np.ndarray:
    """``[ln t, ln(2/gamma), ln(4 t^4)]`` for ``t = 0 .. horizon`` (``gamma = t^-4``; NaN at 0), read-only."""
    # the indices' logarithms depend on the round only: one table per horizon (at most 8 kept, 24
    # bytes per round) instead of computing them every round saves a quarter to a third of a run
    terms = _round_terms_kernel(horizon)
    terms.flags.writeable = False
    return terms


# --------------------------------------------------------------------------------------------
# Private-UCB (mishra2015nearly)
# --------------------------------------------------------------------------------------------


PER_TREE_BUDGETS = ("eps/k", "eps")
PRIVATE_UCB_WIDTHS = ("printed", "tail_bound")


@njit(nogil=True, cache=True)
def _relaxation(t, horizon, k, epsilon_tree, log_inv_gamma):  # pragma: no cover - compiled
    # Gamma of Algorithm 1, line 7, at per-tree epsilon eps0 = eps/k: log2(T)^2 ln(k T log2(T) / gamma) / eps0;
    # log_inv_gamma = ln(1/gamma), NaN for gamma = t^-4 (ln(1/gamma) = 4 ln t); log2 T as printed,
    # although the trees have floor(log2 T) + 1 levels
    log2_t = np.log2(float(horizon))
    log_inv = 4.0 * np.log(float(t)) if np.isnan(log_inv_gamma) else log_inv_gamma
    return log2_t * log2_t * (np.log(k * float(horizon) * log2_t) + log_inv) / epsilon_tree


@njit(nogil=True, cache=True, inline="always")
def _private_ucb_init(k, horizon, epsilon, per_arm, printed, log_inv_gamma, round_terms):  # pragma: no cover
    epsilon_tree = epsilon / k if per_arm else epsilon  # Algorithm 1, line 1: eps0 = eps/k
    scale = binary_counter_levels(horizon) / epsilon_tree
    # one binary tree with T leaves per arm, the trees' releases r_a, the pulls n_a
    return binary_counter_states(k), np.zeros(k), np.zeros(k, dtype=np.int64), epsilon_tree, scale


# The step functions read the state's arrays by index and read round_terms last (in the arms' loop):
# an array that an inlined step function stops using early is released (an NRT decref) in the middle of
# its body, and that stops numba from pruning the other arrays' reference counting, which then costs
# two atomic operations per array per round (the split kernel ran 20-30 % slower that way).
@njit(nogil=True, cache=True, inline="always")
def _private_ucb_choose(
    rng, state, t, horizon, epsilon, per_arm, printed, log_inv_gamma, round_terms
):  # pragma: no cover - compiled
    private_sums, pulls, epsilon_tree, scale = state[1], state[2], state[3], state[4]
    k = pulls.shape[0]
    r = t + 1  # the paper's round, from 1
    if r <= k:  # lines 2-6: play each arm once
        return r - 1
    relax = log_term = 0.0
    if printed:
        relax = _relaxation(r, horizon, k, epsilon_tree, log_inv_gamma)
    elif np.isnan(log_inv_gamma):
        log_term = round_terms[1, r]  # ln(2 / gamma), gamma = t^-4
    else:
        log_term = np.log(2.0) + log_inv_gamma
    best = -np.inf
    arm = 0
    for a in range(k):  # line 10
        n = pulls[a]
        if printed:
            width = np.sqrt(2.0 * round_terms[0, r] / n) + relax / n
        else:
            # the noisy p-sums in the current release; max(n, 0) is n (n >= 1 here) but lets LLVM drop
            # binary_counter_terms's n < 0 ValueError branch, which kept numba from pruning the reference
            # counting of the state's arrays, round_terms and the reward table in every round (its LLVM IR, issue 37)
            terms = binary_counter_terms(max(n, 0))
            width = np.sqrt(2.0 * round_terms[0, r] / n) + laplace_iid_sum_tail_bound(terms, scale, log_term) / n
        index = private_sums[a] / n + width
        if index > best:
            best = index
            arm = a
    return arm


@njit(nogil=True, cache=True, inline="always")
def _private_ucb_update(
    rng, state, t, arm, reward, horizon, epsilon, per_arm, printed, log_inv_gamma, round_terms
):  # pragma: no cover - compiled
    trees, private_sums, pulls, scale = state[0], state[1], state[2], state[4]
    pulls[arm] += 1
    private_sums[arm] = binary_counter_insert(trees[arm], reward, scale, rng)  # lines 4, 12


@njit(nogil=True, cache=True)
def _private_ucb_kernel(
    rng, kinds, params, table, horizon, epsilon, per_arm, printed, log_inv_gamma, round_terms
):  # pragma: no cover - compiled
    state = _private_ucb_init(kinds.shape[0], horizon, epsilon, per_arm, printed, log_inv_gamma, round_terms)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = _private_ucb_choose(rng, state, t, horizon, epsilon, per_arm, printed, log_inv_gamma, round_terms)
        reward = draw_reward(rng, kinds, params, table, t, arm)
        _private_ucb_update(rng, state, t, arm, reward, horizon, epsilon, per_arm, printed, log_inv_gamma, round_terms)
        arms[t] = arm
    return arms


_PER_TREE = Choice(PER_TREE_BUDGETS)
#: Why Private-UCB and the DP-UCB family refuse epsilon = inf (the non-private limit)
_FINITE = (
    "its noise and confidence width are stated for a finite epsilon only; its non-private limit is UCB1 "
    "(privbandits.policies.UCB), which Part VI runs in its place"
)
_WIDTH = Choice(PRIVATE_UCB_WIDTHS)
_GAMMA = Real(0.0, 1.0, "()", optional=True)


def _epsilon_tree(n_arms: int, epsilon: float, per_tree_budget: str) -> float:
    """The per-tree epsilon: ``epsilon / n_arms`` (``"eps/k"``) or ``epsilon``."""
    return epsilon / n_arms if _PER_TREE.check("per_tree_budget", per_tree_budget) == "eps/k" else epsilon


def private_ucb_noise_scale(horizon: int, n_arms: int, epsilon: float, *, per_tree_budget: str = "eps/k") -> float:
    """Laplace scale of each node of :class:`PrivateUCB`'s trees: ``(floor(log2 T) + 1) / eps0``.

    Parameters
    ----------
    horizon : int >= 1
        ``T``, the leaves of each tree.
    n_arms : int >= 1
    epsilon : float > 0, finite
    per_tree_budget : {"eps/k", "eps"}, keyword-only
        ``eps0 = epsilon / n_arms`` (Algorithm 1, line 1) or ``epsilon``.

    Returns
    -------
    float
    """
    horizon = check_int("horizon", horizon, minimum=1)
    n_arms = check_int("n_arms", n_arms, minimum=1)
    return float(binary_counter_levels(horizon)) / _epsilon_tree(n_arms, check_epsilon(epsilon), per_tree_budget)


def private_ucb_relaxation(
    t: int, horizon: int, n_arms: int, epsilon: float, *, per_tree_budget: str = "eps/k", gamma: float | None = None
) -> float:
    """Gamma of ``mishra2015nearly``, Algorithm 1, line 7: ``k log^2 T log(k T log T / gamma) / eps``.

    Read as ``log2(T)^2 ln(k T log2(T) / gamma) / eps0``: ``log T`` counts tree levels (base 2), the
    outer ``log`` is the Laplace tail's (natural); ``eps0 = eps/k`` gives the printed ``k / eps``.
    ``log2 T`` as printed, although the trees have ``floor(log2 T) + 1`` levels.

    Parameters
    ----------
    t : int in [1, horizon]
        The round (used only when ``gamma`` is None).
    horizon : int >= 2
    n_arms : int >= 1
    epsilon : float > 0, finite
    per_tree_budget : {"eps/k", "eps"}, keyword-only
    gamma : float in (0, 1) or None, keyword-only
        The failure probability; None: ``t^-4`` at round ``t`` (``tossou2016algorithms``, Section 4,
        ran Private-UCB with failure probability ``t^-4``).

    Returns
    -------
    float
    """
    horizon = check_int("horizon", horizon, minimum=2)
    t = check_int("t", t, minimum=1, maximum=horizon)
    n_arms = check_int("n_arms", n_arms, minimum=1)
    gamma = _GAMMA.check("gamma", gamma)
    eps0 = _epsilon_tree(n_arms, check_epsilon(epsilon), per_tree_budget)
    return float(_relaxation(t, horizon, n_arms, eps0, math.nan if gamma is None else -math.log(gamma)))


@dataclasses.dataclass(frozen=True)
class PrivateUCB(Policy):
    """Private-UCB: Algorithm 1 ("Differentially Private UCB Sampling") of ``mishra2015nearly``.

    One binary tree (``chan2011private``) with ``T`` leaves per arm, each node ``Lap((floor(log2 T)
    + 1) / eps0)``, ``eps0 = eps/k`` (line 1); each arm once (lines 2-6); then the arm maximising
    ``r_a/n_a + sqrt(2 ln t / n_a) + Gamma/n_a`` (line 10), ``r_a`` the tree's release, Gamma of
    :func:`private_ucb_relaxation` (line 7; Lemma 5: the trees' error bound w.p. ``1 - gamma``). The
    box takes ``gamma`` as an input and computes Gamma once; its value is a choice. The default
    ``gamma = t^-4`` (the failure probability ``tossou2016algorithms``, Section 4, ran Private-UCB
    with) makes Gamma change every round; a float ``gamma`` gives the box's constant Gamma. ``log``
    has no base in the box: ``sqrt(2 ln t / n_a)`` is UCB1's. ``width="tail_bound"``: the tail bound
    (:func:`~privbandits.mechanisms.laplace_sum_tail_bound`) of the release's ``popcount(n_a)``
    p-sums at ``ln(2/gamma)`` in place of Gamma.

    Privacy: a reward enters one arm's tree only, so the trees compose in parallel: the run is
    ``eps0``-DP (global), i.e. ``eps/k`` with ``"eps/k"`` (eps-DP with room to spare; :meth:`guarantee`
    reports eps, as it does not know ``k``) and eps with ``"eps"``.

    Parameters
    ----------
    epsilon : float > 0, finite
        ``inf``, the non-private limit, is refused: that limit is UCB1 (:class:`~privbandits.policies.ucb.UCB`).
    per_tree_budget : {"eps/k", "eps"}
        Each tree's epsilon: the printed ``eps/k``, or ``eps``.
    width : {"printed", "tail_bound"}
        Gamma of line 7, or the tail bound of the tree's Laplace sums.
    gamma : float in (0, 1) or None
        The failure probability; None: ``t^-4`` at round ``t``.
    """

    epsilon: float = param(spec=Epsilon(ends="[)", finite=_FINITE))
    per_tree_budget: str = param("eps/k", _PER_TREE)
    width: str = param("printed", _WIDTH)
    gamma: float | None = param(None, _GAMMA)

    private = True
    accounting = "one binary tree per arm (chan2011private), parallel composition over the arms"
    _kernel = staticmethod(_private_ucb_kernel)
    _init = staticmethod(_private_ucb_init)
    _choose = staticmethod(_private_ucb_choose)
    _update = staticmethod(_private_ucb_update)
    binding = (
        "epsilon",
        lambda p, h: p.per_tree_budget == "eps/k",
        lambda p, h: p.width == "printed",
        lambda p, h: math.nan if p.gamma is None else -math.log(p.gamma),
        lambda p, h: _round_terms(h),
    )

    @property
    def name(self) -> str:  # type: ignore[override]
        """``"Private-UCB"`` (the printed box), else its options in parentheses, as the registry names them."""
        options = (["tail bound"] if self.width == "tail_bound" else []) + (
            ["eps per tree"] if self.per_tree_budget == "eps" else []
        )
        return f"Private-UCB ({', '.join(options)})" if options else "Private-UCB"

    @classmethod
    def calibrated(cls, epsilon, delta, horizon, **kwargs):
        if horizon is None:  # (cls.name is the instances' property)
            raise ValueError("horizon is required for Private-UCB (its trees have T leaves)")
        policy, params, _ = super().calibrated(epsilon, delta, horizon, **kwargs)
        if policy.per_tree_budget == "eps/k":  # the paper's eps/k per tree: eps/k-DP, within the target
            return policy, params, f"{cls.accounting}: eps/k per tree (the paper's), so eps/k-DP"
        return policy, params, f"{cls.accounting}: eps per tree, so eps-DP"


# --------------------------------------------------------------------------------------------
# Algorithms 1 and 2
# --------------------------------------------------------------------------------------------


BONUS_FORMS = ("matched", "printed")


@njit(nogil=True, cache=True)
def _bonus(n, log_term, epsilon, part, printed):  # pragma: no cover - compiled
    # nu_a of Algorithm 1 for an arm with n pulls at round t, failure probability gamma = t^-4;
    # log_term = ln(4 / gamma) = _bonus_log_term(t).
    # part: the epsilon of each of the counter's two parts (epsilon/2 split, epsilon the paper's).
    power_of_two = n & (n - 1) == 0  # the release comes from the logarithmic part alone
    if printed:  # Algorithm 1 as printed: Eq. (2.2) with the full epsilon and ln n
        c = np.sqrt(8.0) / epsilon * log_term
        if power_of_two:
            return c
        return c * np.log(float(n)) + c
    # matched: Eq. (2.2) at the counter's own Laplace scales, 1/part per logarithmic term and
    # floor(log2 n)/part per tree p-sum (mechanisms.hybrid_counter_insert)
    scale = 1.0 / part
    if not power_of_two:
        k = 0
        while (n >> (k + 1)) > 0:
            k += 1  # floor(log2 n)
        scale += k / part
    return np.sqrt(8.0) * log_term * scale


@njit(nogil=True, cache=True, inline="always")
def _dp_ucb_init(
    k, horizon, epsilon, bound, insert_zeros, hybrid_split, printed, round_terms
):  # pragma: no cover - compiled
    part = epsilon / 2.0 if hybrid_split else epsilon
    # one hybrid mechanism per arm (Alg. 1, line 2), s_a(t) (the counter's latest release), n_{a,t}
    return hybrid_counter_states(k), np.zeros(k), np.zeros(k, dtype=np.int64), part


@njit(nogil=True, cache=True, inline="always")
def _dp_ucb_choose(
    rng, state, t, horizon, epsilon, bound, insert_zeros, hybrid_split, printed, round_terms
):  # pragma: no cover - compiled
    private_sums, pulls, part = state[1], state[2], state[3]
    k = pulls.shape[0]
    r = t + 1  # the paper's round, from 1
    if r <= k:  # lines 4-6: play arm a = t
        return r - 1
    best = -np.inf
    arm = 0
    for a in range(k):  # lines 8-15
        n = pulls[a]
        nu = _bonus(n, round_terms[2, r], epsilon, part, printed) if bound else 0.0
        index = private_sums[a] / n + np.sqrt(2.0 * round_terms[0, r] / n) + nu / n
        if index > best:  # line 16: argmax
            best = index
            arm = a
    return arm


@njit(nogil=True, cache=True, inline="always")
def _dp_ucb_update(
    rng, state, t, arm, reward, horizon, epsilon, bound, insert_zeros, hybrid_split, printed, round_terms
):  # pragma: no cover - compiled
    states, private_sums, pulls, part = state[0], state[1], state[2], state[3]
    pulls[arm] += 1
    private_sums[arm] = hybrid_counter_insert(states[arm], reward, part, part, rng)  # line 18
    if insert_zeros:  # Algorithm 2: a 0 into every other arm's mechanism, n_{a'} unchanged
        for a in range(states.shape[0]):
            if a != arm:
                private_sums[a] = hybrid_counter_insert(states[a], 0.0, part, part, rng)


# error_model="numpy": a division has no ZeroDivisionError branch (no divisor here can be 0: epsilon > 0,
# n >= 1 after the first k rounds); that branch stopped numba pruning the inlined step functions' reference
# counting (+10-50 % per run); the values computed are the same
@njit(nogil=True, cache=True, error_model="numpy")
def _dp_ucb_kernel(
    rng, kinds, params, table, horizon, epsilon, bound, insert_zeros, hybrid_split, printed, round_terms
):  # pragma: no cover
    state = _dp_ucb_init(kinds.shape[0], horizon, epsilon, bound, insert_zeros, hybrid_split, printed, round_terms)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = _dp_ucb_choose(rng, state, t, horizon, epsilon, bound, insert_zeros, hybrid_split, printed, round_terms)
        reward = draw_reward(rng, kinds, params, table, t, arm)
        _dp_ucb_update(
            rng, state, t, arm, reward, horizon, epsilon, bound, insert_zeros, hybrid_split, printed, round_terms
        )
        arms[t] = arm
    return arms


_BONUS = Choice(BONUS_FORMS)
_V = Real(1.0, 1.5, "(]")  # the exponent v of DP-UCB-INT's release series


@njit(nogil=True, cache=True)
def _bonuses(n, log_term, epsilon, part, printed):  # pragma: no cover - compiled
    out = np.empty(n.shape[0])
    for i in range(n.shape[0]):
        out[i] = _bonus(n[i], log_term, epsilon, part, printed)
    return out


def dp_ucb_bound_bonus(
    n: int | np.ndarray, t: int, epsilon: float, *, hybrid_split: bool = True, bonus: str = "matched"
) -> float | np.ndarray:
    """``nu_a`` of DP-UCB-BOUND (``tossou2016algorithms``, Algorithm 1) for an arm pulled ``n`` times at round ``t``.

    ``"printed"``: ``c`` if ``n`` is a power of 2, else ``c ln n + c``, ``c = sqrt(8)/eps ln(4 t^4)``
    (Eq. (2.2) at ``gamma = t^-4``). ``"matched"``: ``sqrt(8) ln(4 t^4) (b_log + b_tree)`` at the
    counter's Laplace scales (``b_tree = 0`` at a power of 2), so that the counter's error exceeds the
    bonus with probability at most ``t^-4`` (Lemma B.2).

    Parameters
    ----------
    n : int or array_like of int >= 1
        The arm's pull count(s).
    t : int >= n
    epsilon : float > 0, finite
    hybrid_split : bool, keyword-only
        Split epsilon between the counter's two parts, or give each the whole of it (the paper's).
    bonus : {"matched", "printed"}, keyword-only

    Returns
    -------
    float or numpy.ndarray
        Of the shape of ``n``.
    """
    if np.ndim(n) == 0:
        n = check_int("n", n, minimum=1)
        t = check_int("t", t, minimum=n)
    else:
        n = np.asarray(n)
        if n.ndim != 1 or n.size == 0 or not np.issubdtype(n.dtype, np.integer) or n.min() < 1:
            raise ValueError("n must be an integer >= 1 or a non-empty 1-d array of them")
        t = check_int("t", t, minimum=int(n.max()))
    epsilon = check_epsilon(epsilon)
    bonus = _BONUS.check("bonus", bonus)
    part = epsilon / 2.0 if hybrid_split else epsilon
    if isinstance(n, np.ndarray):
        return _bonuses(n.astype(np.int64), _bonus_log_term(t), epsilon, part, bonus == "printed")
    return float(_bonus(n, _bonus_log_term(t), epsilon, part, bonus == "printed"))


def dp_ucb_bound_miscoverage(
    n: int, t: int, epsilon: float, *, hybrid_split: bool = True, bonus: str = "matched"
) -> float:
    """Exact ``P(|error| > nu_a)`` of the counter's release after ``n = 2^k`` items at round ``t``.

    Compare with the nominal ``t^-4`` the bonus is meant to achieve; integrated numerically.

    Parameters
    ----------
    n : int, a power of 2
    t : int >= n
    epsilon : float > 0, finite
    hybrid_split, bonus : keyword-only
        As in :func:`dp_ucb_bound_bonus`.

    Returns
    -------
    float
    """
    from scipy.integrate import quad  # here, not at the top: importing scipy.stats takes ~0.5 s
    from scipy.stats import gamma as gamma_dist

    n = check_int("n", n, minimum=1)
    if n & (n - 1):
        raise ValueError(f"n must be a power of 2, got {n}")
    nu = dp_ucb_bound_bonus(n, t, epsilon, hybrid_split=hybrid_split, bonus=bonus)
    m = n.bit_length()  # k + 1 logarithmic terms
    b = 2.0 / epsilon if hybrid_split else 1.0 / epsilon

    def integrand(y: float) -> float:
        return float(gamma_dist.pdf(y, m, scale=b) * gammaincc(m, (nu + y) / b))

    upper, _ = quad(integrand, 0.0, np.inf, limit=400, epsabs=0.0, epsrel=1e-10)
    return 2.0 * upper  # two-sided (the sum is symmetric)


@dataclasses.dataclass(frozen=True)
class _HybridUCB(Policy):
    """Algorithms 1 and 2: one hybrid counter per arm, and their accounting."""

    epsilon: float = param(spec=Epsilon(ends="[)", finite=_FINITE))
    hybrid_split: bool = param(True, Bool())

    private = True
    accounting = "hybrid counter with epsilon split between its parts (Part I)"

    def guarantee(self, horizon, delta=0.0):
        return self.epsilon * (1.0 if self.hybrid_split else 2.0), 0.0, True

    @classmethod
    def calibrated(cls, epsilon, delta, horizon, **kwargs):
        params = {"epsilon": epsilon, "hybrid_split": True}
        return cls(**params, **kwargs), params, cls.accounting


@dataclasses.dataclass(frozen=True)
class DPUCBBound(_HybridUCB):
    """DP-UCB-BOUND, Algorithm 1 of ``tossou2016algorithms``: index ``s_a/n_a + sqrt(2 log t / n_a) + nu_a/n_a``.

    ``s_a`` the hybrid counter's release, ``nu_a`` of :func:`dp_ucb_bound_bonus`. epsilon-DP (global)
    with ``hybrid_split=True``, 2 epsilon without; the bonus does not affect privacy.

    Parameters
    ----------
    epsilon : float > 0, finite
        ``inf``, the non-private limit, is refused: that limit is UCB1 (:class:`~privbandits.policies.ucb.UCB`).
    hybrid_split : bool
        Split epsilon between the counter's two parts, or give each the whole of it (the paper's).
    bonus : {"matched", "printed"}
        Eq. (2.2) at the counter's own noise scales, or Algorithm 1's formula verbatim.
    """

    bonus: str = param("matched", _BONUS)

    name = "DP-UCB-BOUND"
    _kernel = staticmethod(_dp_ucb_kernel)
    _init = staticmethod(_dp_ucb_init)
    _choose = staticmethod(_dp_ucb_choose)
    _update = staticmethod(_dp_ucb_update)
    # epsilon, bound, insert_zeros, hybrid_split, printed, round terms
    binding = ("epsilon", True, False, "hybrid_split", lambda p, h: p.bonus == "printed", lambda p, h: _round_terms(h))


@dataclasses.dataclass(frozen=True)
class DPUCB(_HybridUCB):
    """DP-UCB, Algorithm 2 of ``tossou2016algorithms``: Algorithm 1 with ``nu_a = 0``, zeros into the other counters.

    Parameters
    ----------
    epsilon : float > 0, finite
        ``inf``, the non-private limit, is refused: that limit is UCB1 (:class:`~privbandits.policies.ucb.UCB`).
    hybrid_split : bool
        As in :class:`DPUCBBound`.
    """

    name = "DP-UCB"
    _kernel = staticmethod(_dp_ucb_kernel)
    _init = staticmethod(_dp_ucb_init)
    _choose = staticmethod(_dp_ucb_choose)
    _update = staticmethod(_dp_ucb_update)
    binding = ("epsilon", False, True, "hybrid_split", False, lambda p, h: _round_terms(h))


# --------------------------------------------------------------------------------------------
# Algorithm 3
# --------------------------------------------------------------------------------------------


def release_points(epsilon: float, v: float, horizon: int, *, simplified: bool = False) -> np.ndarray:
    """Pull counts ``W_1 < W_2 < ... <= horizon`` at which DP-UCB-INT releases an arm's mean.

    Lemma B.1: ``W_0 = 0`` and ``W_{n+1}`` is the least ``x >= W_n + 1`` with
    ``sum_{i=W_n+1}^{x} i^(-v/2) >= x^(-v/2) / epsilon``.

    Parameters
    ----------
    epsilon : float > 0, finite
        The algorithm's input epsilon.
    v : float in (1, 1.5]
    horizon : int >= 1
    simplified : bool, keyword-only
        The multiples of ``ceil(1/epsilon)``, as Algorithm 3 prints "for simplicity".

    Returns
    -------
    numpy.ndarray
        Increasing int64 (possibly empty).
    """
    epsilon = check_epsilon(epsilon)
    v = _V.check("v", v)
    horizon = check_int("horizon", horizon, minimum=1)
    return _release_points(epsilon, v, horizon, bool(simplified)).copy()


@functools.lru_cache(maxsize=64)
def _release_points(epsilon: float, v: float, horizon: int, simplified: bool) -> np.ndarray:
    """:func:`release_points`, computed once per argument set (every run of a policy asks for them)."""
    if simplified:
        f = math.ceil(1.0 / epsilon)
        return np.arange(f, horizon + 1, f, dtype=np.int64)
    x = np.arange(1, horizon + 1, dtype=float)
    prefix = np.concatenate([[0.0], np.cumsum(x ** (-v / 2.0))])  # prefix[x] = sum_{i<=x} i^(-v/2)
    # g(x) = prefix[x] - x^(-v/2)/eps is increasing; W_{n+1} = least x >= W_n + 1 with g(x) >= prefix[W_n]
    g = prefix[1:] - x ** (-v / 2.0) / epsilon
    points = []
    w = 0
    while True:
        candidate = int(np.searchsorted(g, prefix[w], side="left")) + 1  # least x with g(x) >= prefix[w]
        w_next = max(w + 1, candidate)
        if w_next > horizon:
            break
        points.append(w_next)
        w = w_next
    return np.asarray(points, dtype=np.int64)


@njit(nogil=True, cache=True, inline="always")
def _dp_ucb_int_init(k, horizon, v, points):  # pragma: no cover - compiled
    sums = np.zeros(k)  # s_a (exact; only released through the noisy means)
    pulls = np.zeros(k, dtype=np.int64)
    next_release = np.zeros(k, dtype=np.int64)  # index into points of each arm's next release
    index = np.zeros(k)  # x_hat (line 2: x_hat <- 0)
    releases = np.zeros(1, dtype=np.int64)
    return sums, pulls, next_release, index, releases


@njit(nogil=True, cache=True, inline="always")
def _dp_ucb_int_choose(rng, state, t, horizon, v, points):  # pragma: no cover - compiled
    sums, pulls, next_release, index, releases = state
    k = pulls.shape[0]
    r = t + 1  # the paper's round, from 1
    f0 = points[0] if points.shape[0] > 0 else horizon  # first interval of the series
    if r <= k * f0:  # lines 4-5: round robin until every arm has f0 pulls
        return (r - 1) % k
    arm = 0
    best = -np.inf
    for a in range(k):
        n = pulls[a]
        if next_release[a] < points.shape[0] and n == points[next_release[a]]:  # lines 7-11
            scale = float(n) ** (v / 2.0 - 1.0)  # Lap(0, 1/n^(1 - v/2))
            index[a] = sums[a] / n + rng.laplace(0.0, scale) + np.sqrt(2.0 * np.log(r) / n)
            next_release[a] += 1
            releases[0] += 1
        # line 13: argmax x_hat, in the same loop (x_hat_a is final once arm a's release is done), so that
        # every array lives to the loop's end and numba prunes their reference counting
        if index[a] > best:
            best = index[a]
            arm = a
    return arm


@njit(nogil=True, cache=True, inline="always")
def _dp_ucb_int_update(rng, state, t, arm, reward, horizon, v, points):  # pragma: no cover - compiled
    sums, pulls = state[0], state[1]
    pulls[arm] += 1
    sums[arm] += reward  # line 14


@njit(nogil=True, cache=True, inline="always")
def _dp_ucb_int_records(state):  # pragma: no cover - compiled
    return (state[4][0],)  # the releases


@njit(nogil=True, cache=True, error_model="numpy")
def _dp_ucb_int_kernel(rng, kinds, params, table, horizon, v, points):  # pragma: no cover - compiled
    state = _dp_ucb_int_init(kinds.shape[0], horizon, v, points)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = _dp_ucb_int_choose(rng, state, t, horizon, v, points)
        reward = draw_reward(rng, kinds, params, table, t, arm)
        _dp_ucb_int_update(rng, state, t, arm, reward, horizon, v, points)
        arms[t] = arm
    return arms, _dp_ucb_int_records(state)[0]


@dataclasses.dataclass(frozen=True)
class DPUCBInt(Policy):
    """DP-UCB-INT, Algorithm 3 of ``tossou2016algorithms``: means released at the points of Lemma B.1.

    An arm's mean is released with ``Lap(n^(v/2 - 1))`` (Lemma 3.1) when its count reaches a point of
    :func:`release_points`; before the first, round robin. Claimed guarantee: (eps', delta')-DP with
    eps' of :func:`dp_ucb_int_privacy` (Corollary 3.1).

    Parameters
    ----------
    epsilon : float in (0, 1]
        The *input* epsilon (:meth:`for_target` gives it for a target). ``inf``, the non-private limit, is refused: that
        limit is UCB1 (:class:`~privbandits.policies.ucb.UCB`).
    v : float in (1, 1.5]
    simplified_intervals : bool
        Release every ``ceil(1/epsilon)`` pulls, as the pseudocode prints.
    """

    epsilon: float = param(spec=Epsilon(high=1.0, finite=_FINITE))  # the input epsilon of Algorithm 3
    v: float = param(1.1, _V)
    simplified_intervals: bool = param(False, Bool())

    name = "DP-UCB-INT"
    private = True
    records = ("arms", "releases")
    accounting = "Corollary 3.1 of tossou2016algorithms"
    _kernel = staticmethod(_dp_ucb_int_kernel)
    _init = staticmethod(_dp_ucb_int_init)
    _choose = staticmethod(_dp_ucb_int_choose)
    _update = staticmethod(_dp_ucb_int_update)
    _step_records = staticmethod(_dp_ucb_int_records)
    binding = (
        "v",
        lambda p, h: release_points(p.epsilon, p.v, h, simplified=p.simplified_intervals),
    )

    @classmethod
    def for_target(cls, epsilon_prime: float, delta_prime: float = math.exp(-10), v: float = 1.1, **kwargs) -> DPUCBInt:
        """The policy with the input epsilon of Corollary 3.2 (:func:`dp_ucb_int_input_epsilon`) for (eps', delta').

        Parameters
        ----------
        epsilon_prime : float > 0, finite
        delta_prime : float in (0, 1)
        v : float in (1, 1.5]
        **kwargs
            Further fields of :class:`DPUCBInt`.

        Returns
        -------
        DPUCBInt
        """
        return cls(dp_ucb_int_input_epsilon(epsilon_prime, delta_prime, v), v, **kwargs)

    def guarantee(self, horizon, delta=0.0):
        # the smaller of Corollary 3.1's two terms, with the delta of the term that gives it
        pure = dp_ucb_int_basic_epsilon(horizon, self.epsilon, self.v)
        if delta > 0.0:
            composed = dp_ucb_int_privacy(horizon, self.epsilon, self.v, delta)
            if composed < pure:  # the advanced-composition term binds: it needs delta
                return composed, delta, True
        return pure, 0.0, True  # the basic-composition term is a pure guarantee

    @classmethod
    def calibrated(cls, epsilon, delta, horizon, **kwargs):
        # the largest input epsilon in (0, 1] whose Corollary 3.1 guarantee meets the target (with
        # delta > 0, the larger of the inversions of its two terms; Corollary 3.2 inverts the second)
        cls._needs_horizon(horizon)
        v = kwargs.pop("v", 1.1)
        params = {"epsilon": _dp_ucb_int_input(epsilon, delta, horizon, v), "v": v}
        policy = cls(**params, **kwargs)
        term = "pure (basic-composition)" if policy.guarantee(horizon, delta)[1] == 0.0 else "advanced-composition"
        return policy, params, f"{cls.accounting}, {term} term"


def dp_ucb_int_release_counts(arms: np.ndarray, points: np.ndarray, n_arms: int) -> tuple[int, int]:
    """How many noisy means DP-UCB-INT releases on the arm sequence ``arms``, under two readings.

    Parameters
    ----------
    arms : numpy.ndarray
        The arm of each round, non-empty 1-d integers in [0, n_arms).
    points : numpy.ndarray
        :func:`release_points`, non-empty, increasing, positive.
    n_arms : int >= 1

    Returns
    -------
    once_per_point : int
        Each arm releases once per point it reaches (the kernel; Theorem 3.4 counts these).
    as_printed : int
        Algorithm 3's test re-applied every round, so an idle arm re-releases each round.
    """
    n_arms = check_int("n_arms", n_arms, minimum=1)
    arms = np.asarray(arms)
    if arms.ndim != 1 or not np.issubdtype(arms.dtype, np.integer) or arms.size == 0:
        raise ValueError("arms must be a non-empty 1-d integer array")
    if arms.min() < 0 or arms.max() >= n_arms:
        raise ValueError(f"arms must lie in [0, n_arms), got values in [{arms.min()}, {arms.max()}]")
    points = np.asarray(points, dtype=np.int64)
    if points.ndim != 1 or points.size == 0 or points[0] < 1 or np.any(np.diff(points) <= 0):
        raise ValueError("points must be a non-empty increasing 1-d array of positive integers")
    horizon, start = arms.size, n_arms * int(points[0])  # rounds t >= start follow the round robin
    once = as_printed = 0
    for a in range(n_arms):
        pulled = np.flatnonzero(arms == a)  # the rounds (0-based) at which arm a was pulled
        n = pulled.size
        reached = points[points <= n]
        # n_{a,t} = p at the start of the rounds after its p-th pull, up to its (p+1)-th pull
        first = pulled[reached - 1] + 1
        last = np.where(reached < n, pulled[np.minimum(reached, n - 1)], horizon - 1)
        rounds = np.maximum(last - np.maximum(first, start) + 1, 0)  # such rounds after the round robin
        as_printed += int(rounds.sum())
        once += int(np.count_nonzero(rounds))
    return once, as_printed


def dp_ucb_int_privacy(t: int, epsilon: float, v: float = 1.1, delta_prime: float = math.exp(-10)) -> float:
    """epsilon' of Corollary 3.1 of ``tossou2016algorithms``: DP-UCB-INT is (epsilon', delta')-DP after ``t`` steps.

    ``min(eps (t^(1-v/2) - v/2)/(1 - v/2), 2 eps zeta(v) + sqrt(2 eps zeta(v) ln(1/delta')))``.

    Parameters
    ----------
    t : int >= 1
    epsilon : float > 0, finite
        The input epsilon.
    v : float in (1, 1.5]
    delta_prime : float in (0, 1)

    Returns
    -------
    float
    """
    t = check_int("t", t, minimum=1)
    epsilon = check_epsilon(epsilon)
    v = _V.check("v", v)
    delta_prime = check_delta(delta_prime)
    z = float(zeta(v))
    first = dp_ucb_int_basic_epsilon(t, epsilon, v)
    second = 2.0 * epsilon * z + math.sqrt(2.0 * epsilon * z * math.log(1.0 / delta_prime))
    return min(first, second)


def dp_ucb_int_input_epsilon(epsilon_prime: float, delta_prime: float = math.exp(-10), v: float = 1.1) -> float:
    """Corollary 3.2 of ``tossou2016algorithms``: the input epsilon of DP-UCB-INT giving (epsilon', delta')-DP.

    ``(sqrt((ln(1/delta') + 4 eps')/(8 zeta(v))) - sqrt(ln(1/delta')/(8 zeta(v))))^2``.

    Parameters
    ----------
    epsilon_prime : float > 0, finite
    delta_prime : float in (0, 1)
    v : float in (1, 1.5]

    Returns
    -------
    float
    """
    epsilon_prime = check_epsilon(epsilon_prime, "epsilon_prime")
    delta_prime = check_delta(delta_prime, "delta_prime")
    v = _V.check("v", v)
    z = float(zeta(v))
    log_term = math.log(1.0 / delta_prime)
    return (math.sqrt((log_term + 4.0 * epsilon_prime) / (8.0 * z)) - math.sqrt(log_term / (8.0 * z))) ** 2


def dp_ucb_int_basic_epsilon(t: int, epsilon: float, v: float = 1.1) -> float:
    """The pure (basic-composition) term of Corollary 3.1: ``eps (t^(1 - v/2) - v/2) / (1 - v/2)``.

    Parameters
    ----------
    t : int >= 1
    epsilon : float > 0, finite
    v : float in (1, 1.5]

    Returns
    -------
    float
    """
    t = check_int("t", t, minimum=1)
    epsilon = check_epsilon(epsilon)
    v = _V.check("v", v)
    return epsilon * (t ** (1.0 - v / 2.0) - v / 2.0) / (1.0 - v / 2.0)


def dp_ucb_int_release_loss(horizon: int, epsilon: float, v: float = 1.1, delta: float = 0.0) -> float:
    """End-to-end epsilon of DP-UCB-INT's actual releases, composed (at most Corollary 3.1's closed form).

    The release at ``W`` is ``e = W^(-v/2)``-DP (Lemma 3.1) and a first-pull reward enters every
    release: the smaller of basic composition and, with ``delta > 0``, heterogeneous advanced
    composition ``sum e_i (exp(e_i) - 1) + sqrt(2 ln(1/delta) sum e_i^2)``.

    Parameters
    ----------
    horizon : int >= 1
    epsilon : float > 0, finite
    v : float in (1, 1.5]
    delta : float in [0, 1)
        0: basic composition only.

    Returns
    -------
    float
        0 if no release happens by ``horizon``.
    """
    horizon = check_int("horizon", horizon, minimum=1)
    epsilon = check_epsilon(epsilon)
    delta = Real(0.0, 1.0, "[)").check("delta", delta)
    per_release = release_points(epsilon, v, horizon).astype(float) ** (-v / 2.0)
    basic = float(per_release.sum())
    if delta == 0.0:
        return basic
    advanced = float(np.sum(per_release * np.expm1(per_release)))
    advanced += math.sqrt(2.0 * math.log(1.0 / delta) * float(np.sum(per_release**2)))
    return min(basic, advanced)


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


# --------------------------------------------------------------------------------------------
# Regret bounds (Theorems 3.2, 3.3, 3.5), as printed
# --------------------------------------------------------------------------------------------


def _gaps(gaps: np.ndarray) -> np.ndarray:
    gaps = np.asarray(gaps, dtype=float)
    if gaps.ndim != 1 or np.any(gaps < 0) or np.any(gaps > 1) or np.any(np.isnan(gaps)):
        raise ValueError("gaps must be a 1-d array of values in [0, 1]")
    return gaps[gaps > 0]


def lambert_pull_threshold(b: np.ndarray) -> np.ndarray:
    """Least real ``n`` with ``exp(n / B) >= e n`` (proof of Theorem 3.2): ``-B W_{-1}(-1 / (e B))``.

    The paper approximates it by ``B (ln B + 7)``; for ``B <= 1`` the threshold ``B`` is returned.

    Parameters
    ----------
    b : array_like, finite, > 0

    Returns
    -------
    numpy.ndarray
    """
    b = np.asarray(b, dtype=float)
    if np.any(~np.isfinite(b)) or np.any(b <= 0):
        raise ValueError("b must be finite and > 0")
    big = b > 1.0
    safe = np.where(big, b, 2.0)
    exact = -safe * lambertw(-1.0 / (np.e * safe), -1).real
    return np.where(big, exact, b)


def dp_ucb_bound_theorem_epsilon(epsilon: float, *, hybrid_split: bool = True, bonus: str = "matched") -> float:
    """The epsilon at which Theorem 3.2's ``h_n`` bounds the bonus of ``DPUCBBound(epsilon, hybrid_split, bonus)``.

    ``"printed"``: ``epsilon``. ``"matched"``: ``eps_part ln 2``, since that bonus is at most
    ``sqrt(8) ln(4/gamma) (ln n + 1) / (eps_part ln 2)``.

    Parameters
    ----------
    epsilon : float > 0, finite
    hybrid_split, bonus : keyword-only
        As in :func:`dp_ucb_bound_bonus`.

    Returns
    -------
    float
    """
    epsilon = check_epsilon(epsilon)
    if _BONUS.check("bonus", bonus) == "printed":
        return epsilon
    return (epsilon / 2.0 if hybrid_split else epsilon) * math.log(2.0)


def regret_bound_dp_ucb_bound(
    t: np.ndarray,
    gaps: np.ndarray,
    epsilon: float,
    lambda0: float | None = None,
    *,
    exact_lambert: bool = False,
    hybrid_split: bool = True,
    bonus: str = "printed",
) -> np.ndarray:
    """Theorem 3.2 of ``tossou2016algorithms``: the regret bound of DP-UCB-BOUND, as printed.

    ``sum_a max(B (ln B + 7), 8 log t / (lambda0^2 Delta_a)) + sum_a (Delta_a + 2 pi^2 Delta_a / 3)``,
    ``B = sqrt(8) ln(4 t^4) / (eps (1 - lambda0))``.

    Parameters
    ----------
    t : array_like
        The horizon(s).
    gaps : array_like, 1-d in [0, 1]
        Zero gaps are dropped.
    epsilon : float > 0, finite
    lambda0 : float in (0, 1) or None
        None: the best on a grid.
    exact_lambert : bool, keyword-only
        :func:`lambert_pull_threshold` in place of ``B (ln B + 7)``.
    hybrid_split : bool, keyword-only
    bonus : {"matched", "printed"}, keyword-only
        The bound for ``DPUCBBound`` as run (at :func:`dp_ucb_bound_theorem_epsilon`), or as stated.

    Returns
    -------
    numpy.ndarray
        Of the shape of ``t``.
    """
    t = np.atleast_1d(np.asarray(t, dtype=float))
    gaps = _gaps(gaps)
    epsilon = dp_ucb_bound_theorem_epsilon(epsilon, hybrid_split=hybrid_split, bonus=bonus)
    grid = np.array([lambda0]) if lambda0 is not None else np.linspace(0.01, 0.99, 99)
    best = np.full(t.shape, np.inf)
    for lam in grid:
        b = np.sqrt(8.0) * np.log(4.0 * t**4) / (epsilon * (1.0 - lam))
        pulls = lambert_pull_threshold(b) if exact_lambert else b * (np.log(b) + 7.0)
        first = np.maximum(pulls[:, None], 8.0 * np.log(t)[:, None] / (lam**2 * gaps[None, :]))
        best = np.minimum(best, first.sum(axis=1))
    return best + np.sum(gaps + 2.0 * np.pi**2 * gaps / 3.0)


def regret_bound_dp_ucb(t: np.ndarray, gaps: np.ndarray, epsilon: float) -> np.ndarray:
    """Theorem 3.3 of ``tossou2016algorithms``: the regret bound of DP-UCB, as printed.

    ``sum_a Delta_a max(C^2 (ln C + 7)^2, 8 log t / Delta_a^2) + sum_a (Delta_a + 4 Delta_a zeta(1.5))``,
    ``C = 56 (2 + sqrt(3.5)) sqrt(log t) / eps``.

    Parameters
    ----------
    t : array_like
    gaps : array_like, 1-d in [0, 1]
    epsilon : float > 0, finite

    Returns
    -------
    numpy.ndarray
        Of the shape of ``t``.
    """
    t = np.atleast_1d(np.asarray(t, dtype=float))
    gaps = _gaps(gaps)
    epsilon = check_epsilon(epsilon)
    c = 56.0 * (2.0 + np.sqrt(3.5)) * np.sqrt(np.log(np.maximum(t, 2.0))) / epsilon
    first = np.maximum((c**2 * (np.log(c) + 7.0) ** 2)[:, None], 8.0 * np.log(t)[:, None] / gaps[None, :] ** 2)
    return (gaps[None, :] * first).sum(axis=1) + np.sum(gaps + 4.0 * gaps * zeta(1.5))


def regret_bound_dp_ucb_int(t: np.ndarray, gaps: np.ndarray, f0: int) -> np.ndarray:
    """Theorem 3.5 of ``tossou2016algorithms``: ``sum_a Delta_a (f0 + 8 log t / Delta_a^2 + 1 + 4 zeta(1.5))``.

    Parameters
    ----------
    t : array_like
    gaps : array_like, 1-d in [0, 1]
    f0 : int >= 1
        The first interval of the release series.

    Returns
    -------
    numpy.ndarray
        Of the shape of ``t``.
    """
    t = np.atleast_1d(np.asarray(t, dtype=float))
    gaps = _gaps(gaps)
    f0 = check_int("f0", f0, minimum=1)
    return (gaps[None, :] * (f0 + 8.0 * np.log(t)[:, None] / gaps[None, :] ** 2 + 1.0 + 4.0 * zeta(1.5))).sum(axis=1)
