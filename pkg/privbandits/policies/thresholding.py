"""Locally private thresholding bandits (``barbara2025thresholding``): which arms have a mean above ``tau``?

Rewards are privatized by PrivBern (Definition 2.1) or, a baseline the paper does not consider, Laplace.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
from numba import njit

from .._validation import check_delta, check_epsilon, check_finite_array, check_probability
from ..environments import BanditInstance, draw_reward
from ..mechanisms import laplace_iid_sum_tail_bound, privbern_draw
from .base import Choice, Custom, Epsilon, Policy, Real, Records, param

__all__ = [
    "FixedBudgetThresholding",
    "FixedConfidenceThresholding",
    "mapped_mean",
    "complexity",
    "complexity_ratio",
    "fixed_budget_upper_bound",
    "fixed_budget_lower_bound",
    "fixed_confidence_lower_bound",
    "classification_error",
]

#: The local mechanism a kernel applies to each reward (``mechanism=`` ``"privbern"`` / ``"laplace"``).
PRIVBERN, LAPLACE = 0, 1
_MECHANISMS = {"privbern": PRIVBERN, "laplace": LAPLACE}


def _shrink(epsilon: float) -> float:
    """``(e^eps - 1)/(e^eps + 1) = tanh(eps/2)``; 1 for eps = inf."""
    return 1.0 if math.isinf(epsilon) else math.tanh(epsilon / 2.0)


def mapped_mean(mu: object, epsilon: float) -> np.ndarray | float:
    """``mu_eps = 1/2 + (2 mu - 1)(e^eps - 1)/(2(e^eps + 1))``, the mean of PrivBern reports (Eqs. (4)-(5)).

    Parameters
    ----------
    mu : float or array_like in [0, 1]
    epsilon : float > 0
        ``inf`` returns ``mu``.

    Returns
    -------
    float or numpy.ndarray
    """
    epsilon = check_epsilon(epsilon, allow_inf=True)
    mu_arr = check_finite_array("mu", mu)
    if mu_arr.size and (mu_arr.min() < 0 or mu_arr.max() > 1):
        raise ValueError("mu must lie in [0, 1]")
    out = 0.5 + (2.0 * mu_arr - 1.0) * _shrink(epsilon) / 2.0
    return float(out) if out.ndim == 0 else out


def complexity(means: object, tau: float, epsilon: float = math.inf, zeta: float = 0.0) -> float:
    """``H_eps = sum_i (|mu_{i,eps} - tau_eps| + zeta_eps)^-2`` (Eq. (8)), which governs Theorems 3.1, 3.2 and 4.2.

    Parameters
    ----------
    means : array_like, 1-D, in [0, 1]
    tau, zeta : float in [0, 1]
    epsilon : float > 0
        ``inf`` gives the non-private ``H``.

    Returns
    -------
    float
    """
    mu = _check_means(means)
    tau = check_probability("tau", tau, closed=True)
    zeta = _UNIT.check("zeta", zeta)
    s = _shrink(check_epsilon(epsilon, allow_inf=True))
    gaps = s * np.abs(mu - tau) + s * zeta  # |mu_eps - tau_eps| + zeta_eps
    if np.any(gaps == 0):
        raise ValueError("an arm with mean exactly tau and zeta = 0 makes the complexity infinite")
    return float(np.sum(gaps**-2.0))


def complexity_ratio(epsilon: object) -> np.ndarray | float:
    """``H_eps / H = ((e^eps + 1)/(e^eps - 1))^2``: the price of PrivBern, the same for every instance.

    Parameters
    ----------
    epsilon : float or array_like, finite, > 0

    Returns
    -------
    float or numpy.ndarray
    """
    eps = check_finite_array("epsilon", epsilon)
    if eps.size and eps.min() <= 0:
        raise ValueError("epsilon must be > 0")
    out = 1.0 / np.tanh(eps / 2.0) ** 2
    return float(out) if out.ndim == 0 else out


def fixed_budget_upper_bound(horizon: object, h_eps: float, n_arms: int) -> np.ndarray:
    """Theorem 3.1: ``E[L(T)] <= exp(-T/(4 H_eps) + 2 K log(log T + 1))`` for Algorithm 1, ``T >= 2K``.

    Parameters
    ----------
    horizon : float or array_like
    h_eps : float
        :func:`complexity`.
    n_arms : int

    Returns
    -------
    numpy.ndarray
    """
    t = np.asarray(horizon, dtype=float)
    return np.exp(-t / (4.0 * h_eps) + 2.0 * n_arms * np.log(np.log(t) + 1.0))


def fixed_budget_lower_bound(horizon: object, h_eps: float, epsilon: float) -> np.ndarray:
    """Theorem 3.2, any eps-LDP policy: ``max_i E_{B^i}[L(T)] >= exp(-8 T (e^eps + 1)^2 min(4, e^2eps) / H_eps) / 4``.

    Parameters
    ----------
    horizon : float or array_like
    h_eps : float
    epsilon : float > 0, finite

    Returns
    -------
    numpy.ndarray
    """
    t = np.asarray(horizon, dtype=float)
    factor = (math.exp(epsilon) + 1.0) ** 2 * min(4.0, math.exp(2.0 * epsilon))
    return 0.25 * np.exp(-8.0 * t * factor / h_eps)


def fixed_confidence_lower_bound(h_eps: float, delta: float, epsilon: float) -> float:
    """Theorem 4.2 up to its unspecified constant: ``H_eps log(1/delta) / (2 min(4, e^(2eps)) (e^eps + 1)^2)``.

    Parameters
    ----------
    h_eps : float
    delta : float in (0, 1)
    epsilon : float > 0, finite

    Returns
    -------
    float
    """
    delta = check_delta(delta)
    return h_eps * math.log(1.0 / delta) / (2.0 * min(4.0, math.exp(2.0 * epsilon)) * (math.exp(epsilon) + 1.0) ** 2)


def classification_error(answer: np.ndarray, means: np.ndarray, tau: float, zeta: float = 0.0) -> np.ndarray:
    """Loss ``L`` of Eq. (2) per run: an arm ``<= tau - zeta`` in the answer, or one ``> tau + zeta`` out of it.

    Parameters
    ----------
    answer : numpy.ndarray of bool
        Arms on the last axis.
    means : numpy.ndarray, shape (K,)
    tau : float
    zeta : float >= 0
        0: the answer differs from ``{i : mu_i >= tau}``.

    Returns
    -------
    numpy.ndarray of bool
    """
    answer = np.asarray(answer, dtype=bool)
    means = np.asarray(means, dtype=float)
    if zeta == 0.0:
        truth = means >= tau
        return np.any(answer != truth, axis=-1)
    wrong_in = answer & (means <= tau - zeta)
    wrong_out = ~answer & (means > tau + zeta)
    return np.any(wrong_in | wrong_out, axis=-1)


def _check_means(means: object) -> np.ndarray:
    mu = check_finite_array("means", means, ndim=1)
    if mu.size and (mu.min() < 0 or mu.max() > 1):
        raise ValueError("means must lie in [0, 1]")
    return mu


_UNIT = Real(0.0, 1.0, "[]")
_EPSILON = Epsilon()  # inf: no privacy
_MECHANISM = Choice(tuple(_MECHANISMS))


def _check_checkpoints(name: str, cps: object) -> tuple[int, ...]:
    """Strictly increasing positive integers, as a tuple."""
    if (
        not isinstance(cps, (tuple, list))
        or not all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) and c > 0 for c in cps)
        or any(b <= a for a, b in zip(cps, cps[1:]))
    ):
        raise ValueError(f"{name} must be a strictly increasing tuple of positive integers, got {cps!r}")
    return tuple(int(c) for c in cps)


@njit(nogil=True, cache=True, inline="always")
def _observe(rng, reward, epsilon, mechanism):  # pragma: no cover - compiled
    """The learner's view of a reward: itself (eps = inf), PrivBern(eps) or reward + Lap(1/eps)."""
    # Inlined into the kernels (numba IR): as a call it cost a pair of atomic reference-count
    # updates of ``rng`` per round.
    # (one exit: rng then stays live to the end on every path, so numba prunes the reference counting of
    # the step functions' arrays around it, benchmarks/README.md, issue 36)
    out = reward
    if np.isinf(epsilon):
        pass
    elif mechanism == PRIVBERN:
        out = privbern_draw(rng, reward, epsilon)
    else:
        out = reward + rng.laplace(0.0, 1.0 / epsilon)
    return out


# --------------------------------------------------------------------------------------------
# Algorithm 1: fixed budget
# --------------------------------------------------------------------------------------------


#: the rows of the step state, one ``(5 + C, K)`` array (C checkpoints): pulls T_k; sums of the observations;
#: B_k = sqrt(T_k) (|tau_eps - mu_hat_k| + zeta_eps) of line 6 (it does not depend on t, so only the pulled
#: arm's changes in a round); in column 0, the checkpoints recorded so far and tau_eps; then one row per
#: checkpoint, its line-9 answer (1.0 / 0.0)
_PULLS, _SUMS, _INDEX, _NEXT, _TAU, _ANSWERS = 0, 1, 2, 3, 4, 5


@njit(nogil=True, cache=True, inline="always")
def _fixed_budget_init(k, horizon, tau_eps, zeta_eps, epsilon, mechanism, checkpoints):  # pragma: no cover
    state = np.zeros((_ANSWERS + checkpoints.shape[0], max(k, 1 + checkpoints.shape[0], 2)))
    state[_TAU, 0] = tau_eps
    state[_TAU, 1] = k
    for i in range(checkpoints.shape[0]):
        state[_NEXT, 1 + i] = checkpoints[i]
    return state


@njit(nogil=True, cache=True, inline="always")
def _fixed_budget_choose(
    rng, state, t, horizon, tau_eps, zeta_eps, epsilon, mechanism, checkpoints
):  # pragma: no cover
    k = int(state[_TAU, 1])
    arm = t  # line 2: pull each arm once
    best = np.inf
    for a in range(0 if t < k else k):  # line 6: argmin_k B_k (a loop, not an early return: see benchmarks/README)
        if state[_INDEX, a] < best:
            best = state[_INDEX, a]
            arm = a
    return arm


@njit(nogil=True, cache=True, inline="always")
def _fixed_budget_update(
    rng, state, t, arm, reward, horizon, tau_eps, zeta_eps, epsilon, mechanism, checkpoints
):  # pragma: no cover
    k = int(state[_TAU, 1])
    state[_SUMS, arm] += _observe(rng, reward, epsilon, mechanism)  # line 7
    state[_PULLS, arm] += 1.0
    state[_INDEX, arm] = np.sqrt(state[_PULLS, arm]) * (
        abs(tau_eps - state[_SUMS, arm] / state[_PULLS, arm]) + zeta_eps
    )
    # the rule above never reads T, so the answer a budget of t + 1 would have returned is the
    # line-9 set now (checkpoints: the budgets at which to record it)
    nxt = int(state[_NEXT, 0])
    while nxt < state.shape[0] - _ANSWERS and state[_NEXT, 1 + nxt] == t + 1:
        for a in range(k):
            state[_ANSWERS + nxt, a] = 1.0 if state[_SUMS, a] / state[_PULLS, a] > tau_eps else 0.0
        nxt += 1
    state[_NEXT, 0] = nxt


@njit(nogil=True, cache=True, error_model="numpy")
def _fixed_budget_records(state):  # pragma: no cover - compiled
    """``answer`` (line 9: {k : mu_hat_k > tau_eps}; an arm not pulled yet is out) and ``answers``."""
    k = int(state[_TAU, 1])
    answer = np.empty(k, dtype=np.bool_)
    for a in range(k):
        answer[a] = state[_SUMS, a] / state[_PULLS, a] > state[_TAU, 0]
    return answer, state[_ANSWERS:, :k] > 0.5


# error_model="numpy" (no divisor is 0): a ZeroDivisionError branch would stop numba pruning the inlined
# step functions' reference counting (benchmarks/README.md, issue 36); the values are the same
@njit(nogil=True, cache=True, error_model="numpy")
def _fixed_budget_kernel(
    rng, kinds, params, table, horizon, tau_eps, zeta_eps, epsilon, mechanism, checkpoints
):  # pragma: no cover
    state = _fixed_budget_init(kinds.shape[0], horizon, tau_eps, zeta_eps, epsilon, mechanism, checkpoints)
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(horizon):
        arm = _fixed_budget_choose(rng, state, t, horizon, tau_eps, zeta_eps, epsilon, mechanism, checkpoints)
        reward = draw_reward(rng, kinds, params, table, t, arm)
        _fixed_budget_update(rng, state, t, arm, reward, horizon, tau_eps, zeta_eps, epsilon, mechanism, checkpoints)
        arms[t] = arm
    answer, answers = _fixed_budget_records(state)
    return arms, answer, answers


def _keeps_mean(mechanism: str, epsilon: float) -> bool:
    """Whether the learner's observations keep the reward's mean (Laplace reports, or no privacy)."""
    return mechanism == "laplace" or math.isinf(epsilon)


def _tau_eps(tau: float, epsilon: float, mechanism: str) -> float:
    """The threshold the learner compares its estimates with: ``tau`` mapped as its reports' mean (Eq. 5)."""
    return tau if _keeps_mean(mechanism, epsilon) else mapped_mean(tau, epsilon)


@dataclasses.dataclass(frozen=True)
class FixedBudgetThresholding(Policy):
    """Algorithm 1 of ``barbara2025thresholding`` (fixed budget): epsilon-LDP; APT for ``epsilon = inf``.

    Each arm once, then the arm minimising ``sqrt(T_k) (|tau_eps - mu_hat_k| + zeta_eps)``; answers
    ``{k : mu_hat_k > tau_eps}``.

    Parameters
    ----------
    tau, zeta : float in [0, 1]
    epsilon : float > 0
        ``inf`` runs APT without privacy.
    mechanism : {"privbern", "laplace"}
    checkpoints : tuple of int
        Strictly increasing budgets in ``[2K, T]`` whose answers are recorded (the rule never reads ``T``).
    """

    tau: float = param(spec=_UNIT)
    zeta: float = param(0.0, _UNIT)
    epsilon: float = param(math.inf, _EPSILON)
    mechanism: str = param("privbern", _MECHANISM)
    checkpoints: tuple[int, ...] = param((), Custom(_check_checkpoints))

    private = True
    records = ("arms", "answer", "answers")
    _kernel = staticmethod(_fixed_budget_kernel)
    _init = staticmethod(_fixed_budget_init)
    _choose = staticmethod(_fixed_budget_choose)
    _update = staticmethod(_fixed_budget_update)
    _step_records = staticmethod(_fixed_budget_records)

    @property
    def name(self) -> str:  # type: ignore[override]
        """``"APT"`` without privacy, else ``"Alg. 1 (PrivBern)"`` or ``"Alg. 1 (Laplace)"``."""
        if math.isinf(self.epsilon):
            return "APT"
        return "Alg. 1 (PrivBern)" if self.mechanism == "privbern" else "Alg. 1 (Laplace)"

    def min_horizon(self, n_arms: int) -> int:
        return 2 * n_arms  # Theorem 3.1 assumes T >= 2K

    def mapped_threshold(self) -> tuple[float, float]:
        """``(tau_eps, zeta_eps)`` of Eqs. (5)-(6) for PrivBern; ``(tau, zeta)`` otherwise.

        Returns
        -------
        tuple of float
        """
        zeta_eps = self.zeta if _keeps_mean(self.mechanism, self.epsilon) else _shrink(self.epsilon) * self.zeta
        return _tau_eps(self.tau, self.epsilon, self.mechanism), zeta_eps

    @functools.cached_property
    def _kernel_constants(self) -> tuple[np.ndarray, float, float]:
        # once per policy, not once per run (a chapter's point has 2,000 runs of 10^4 rounds)
        return np.asarray(self.checkpoints, dtype=np.int64), *self.mapped_threshold()

    def _step_args(self, n_arms: int, horizon: int) -> tuple:
        checkpoints, tau_eps, zeta_eps = self._kernel_constants
        if checkpoints.size and (checkpoints[0] < self.min_horizon(n_arms) or checkpoints[-1] > horizon):
            raise ValueError(
                f"checkpoints must lie in [2K, horizon] = [{self.min_horizon(n_arms)}, {horizon}], "
                f"got {self.checkpoints}"
            )
        return (tau_eps, zeta_eps, self.epsilon, _MECHANISMS[self.mechanism], checkpoints)

    def _kernel_call(self, instance: BanditInstance, horizon: int):
        return self._kernel, (*instance.kernel_args(), horizon, *self._step_args(instance.n_arms, horizon))

    def _records(self, raw) -> Records:
        records = super()._records(raw)
        if not self.checkpoints:
            del records["answers"]
        return records


# --------------------------------------------------------------------------------------------
# Algorithm 2: fixed confidence
# --------------------------------------------------------------------------------------------


@njit(nogil=True, cache=True, inline="always")
def _log_term(t, k, delta, epsilon, mechanism):  # pragma: no cover - compiled
    """The logarithm in rad_t(i) at round ``t``: ``log(4 K t^3 / delta)``; ``log(8 K t^3 / delta)`` for Laplace."""
    if mechanism == LAPLACE and not np.isinf(epsilon):
        return np.log(8.0 * k * float(t) ** 3 / delta)  # failure probability delta / (8 K t^3), twice
    return np.log(4.0 * k * float(t) ** 3 / delta)


#: the longest table of the logarithms by round (16 MB): a later round's logarithm is computed in its round
_LOG_TERMS_MAX = 1 << 21


@njit(nogil=True, cache=True, inline="always")
def _radius(n, log_term, radius_constant, epsilon, mechanism):  # pragma: no cover - compiled
    """rad_t(i) of an arm pulled ``n`` times, from the round's ``_log_term`` (increasing in it)."""
    if mechanism == LAPLACE and not np.isinf(epsilon):
        # Laplace reports are unbounded: Hoeffding for the rewards plus the Laplace-sum tail bound,
        # each at half the failure probability
        return np.sqrt(log_term / (2.0 * n)) + laplace_iid_sum_tail_bound(n, 1.0 / epsilon, log_term + np.log(2.0)) / n
    return np.sqrt(log_term / (radius_constant * n))  # line 17


@njit(nogil=True, cache=True, inline="always")
def _undecided(mean, radius, tau_eps):  # pragma: no cover - compiled
    """Whether the arm is in the symmetric difference of S_t and S~_t (lines 5-14)."""
    in_s = mean >= tau_eps  # line 5: S_t
    shifted = mean - radius if in_s else mean + radius  # lines 8-12
    return in_s != (shifted >= tau_eps)  # line 14: S~_t


# The step functions of Algorithm 2 (``_log_term``, ``_radius`` and ``_undecided`` inlined into them). Lines
# 5-14 test every arm at every round. An arm's mean and count
# change only when it is pulled, and its radius grows with t in between, so the outcome of the test moves
# one way only: an arm in the symmetric difference stays in it until it is pulled, and an arm outside it at
# round u was outside it at every round since its last pull. ``_choose`` therefore tests an arm only when
# that outcome can have changed (the round after its pull, and for an arm outside the difference, the round
# after the last round it has been shown to be outside it: each time it is, it is tested at a round twice as
# far ahead). Every round's S_t, S~_t, the arm pulled and the stopping time are those of testing every arm at
# every round. The state is one (7, K) array (one array to carry keeps the split kernel as fast as the
# unsplit one, benchmarks/README.md, issue 36).
#: rows: pulls T_i; sums of the observations; S_t (1.0: in it); in the symmetric difference of S_t and S~_t
#: (1.0: undecided); the next round at which to test the arm; the step to the round after that; in column 0,
#: whether the policy has stopped (1.0)
_FC_PULLS, _FC_SUMS, _FC_ANSWER, _FC_UNDECIDED, _FC_TEST_AT, _FC_STEP, _FC_STOPPED = 0, 1, 2, 3, 4, 5, 6


@njit(nogil=True, cache=True, inline="always")
def _fixed_confidence_init(
    k, horizon, tau_eps, delta, radius_constant, epsilon, mechanism, log_terms
):  # pragma: no cover
    state = np.zeros((_FC_STOPPED + 1, k))
    state[_FC_TEST_AT, :] = k  # every arm tested at round K, the first of line 4
    state[_FC_STEP, :] = 1.0
    return state


@njit(nogil=True, cache=True, inline="always")
def _fixed_confidence_choose(
    rng, state, t, horizon, tau_eps, delta, radius_constant, epsilon, mechanism, log_terms
):  # pragma: no cover
    """Round ``t``'s arm: line 2's, or line 18's; -1 at lines 15-16 (S_t = S~_t: the policy stops)."""
    # One loop and one exit, the state written last on every path (an early return, or a loop per line of
    # the algorithm, kept an atomic reference-count pair of the state in the kernel's round loop: +16 %,
    # benchmarks/README.md, issue 36)
    k = state.shape[1]
    arm = t if t < k else -1  # line 2: pull each arm once
    fewest = np.inf
    # line 4: for t = K, K+1, ...; the round's logarithm is kept in the setting's table (NaN: not computed yet) by
    # the first run that reaches the round, and read by the others (computed in the round past the table's end).
    # Written out here and for the "later" test below: as one inlined helper taking the table, the round cost
    # 70 ns instead of 61 (reference counting of the table came back; session 19's review, records the same)
    n_logs = log_terms.shape[0]
    log_term = log_terms[t] if t < n_logs else np.nan
    if np.isnan(log_term):
        log_term = _log_term(max(t, 1), k, delta, epsilon, mechanism)
        if t < n_logs:
            log_terms[t] = log_term
    for i in range(0 if t < k else k):
        pulls = state[_FC_PULLS, i]
        if state[_FC_TEST_AT, i] <= t:  # lines 5-14 for arm i (its own entries only)
            mean = state[_FC_SUMS, i] / pulls
            state[_FC_ANSWER, i] = 1.0 if mean >= tau_eps else 0.0  # line 5: S_t
            undecided = _undecided(mean, _radius(pulls, log_term, radius_constant, epsilon, mechanism), tau_eps)
            state[_FC_UNDECIDED, i] = 1.0 if undecided else 0.0
            test_at = horizon  # undecided: stays so until pulled
            if not undecided:
                step = state[_FC_STEP, i]
                later = min(t + int(step), horizon - 1)
                log_later = log_terms[later] if later < n_logs else np.nan
                if np.isnan(log_later):
                    log_later = _log_term(later, k, delta, epsilon, mechanism)
                    if later < n_logs:
                        log_terms[later] = log_later
                radius_later = _radius(pulls, log_later, radius_constant, epsilon, mechanism)
                if later > t and not _undecided(mean, radius_later, tau_eps):
                    test_at = later + 1
                    state[_FC_STEP, i] = 2.0 * step
                else:
                    test_at = t + 1
                    state[_FC_STEP, i] = max(step // 4.0, 1.0)
            state[_FC_TEST_AT, i] = test_at
        # line 18: the undecided arm of largest radius rad_t(i), which is the one with the fewest pulls (the
        # radius strictly decreases with T_i(t) at a given t; ties go to the lowest index)
        if state[_FC_UNDECIDED, i] == 1.0 and pulls < fewest:
            fewest = pulls
            arm = i
    state[_FC_STOPPED, 0] = 1.0 if arm < 0 else 0.0  # lines 15-16: S_t = S~_t, stop and answer S_t
    return arm


@njit(nogil=True, cache=True, inline="always")
def _fixed_confidence_update(
    rng, state, t, arm, reward, horizon, tau_eps, delta, radius_constant, epsilon, mechanism, log_terms
):  # pragma: no cover
    state[_FC_SUMS, arm] += _observe(rng, reward, epsilon, mechanism)  # line 20 (line 2's pulls too)
    state[_FC_PULLS, arm] += 1.0  # line 21
    state[_FC_TEST_AT, arm] = t + 1  # its test may have changed: tested next round
    state[_FC_STEP, arm] = 1.0


@njit(nogil=True, cache=True)
def _fixed_confidence_records(state):  # pragma: no cover - compiled
    """``pulls``, ``answer`` (S_t), ``stop_time`` (the rounds played: one pull each) and ``stopped``."""
    pulls = state[_FC_PULLS].astype(np.int64)
    return pulls, state[_FC_ANSWER] > 0.5, np.int64(pulls.sum()), state[_FC_STOPPED, 0] == 1.0


# error_model="numpy" (no divisor is 0: every arm is pulled before its first test): a ZeroDivisionError
# branch would stop numba pruning the inlined step functions' reference counting (benchmarks/README.md,
# issue 36); the values are the same
@njit(nogil=True, cache=True, error_model="numpy")
def _fixed_confidence_kernel(
    rng, kinds, params, table, horizon, tau_eps, delta, radius_constant, epsilon, mechanism, log_terms
):  # pragma: no cover
    state = _fixed_confidence_init(
        kinds.shape[0], horizon, tau_eps, delta, radius_constant, epsilon, mechanism, log_terms
    )
    for t in range(horizon):  # the horizon is a cap
        arm = _fixed_confidence_choose(
            rng, state, t, horizon, tau_eps, delta, radius_constant, epsilon, mechanism, log_terms
        )
        if arm < 0:  # stopped (lines 15-16)
            break
        reward = draw_reward(rng, kinds, params, table, t, arm)  # line 19
        _fixed_confidence_update(
            rng, state, t, arm, reward, horizon, tau_eps, delta, radius_constant, epsilon, mechanism, log_terms
        )
    return _fixed_confidence_records(state)


@dataclasses.dataclass(frozen=True)
class FixedConfidenceThresholding(Policy):
    """Algorithm 2 of ``barbara2025thresholding`` (fixed confidence): epsilon-LDP; non-private for ``epsilon = inf``.

    Stops when every interval ``mu_hat_i +- rad_t(i)``, ``rad_t(i) = sqrt(log(4 K t^3/delta) / (radius_constant
    T_i(t)))``, lies on one side of ``tau_eps``, else pulls the widest undecided arm; the horizon is a cap.
    ``"laplace"`` adds the Laplace-sum tail bound to the radius (``chan2011private``, Corollary 2.9).
    Driven one round at a time (:meth:`~privbandits.policies.base.Policy.agent`), it stops on its own too: the
    agent's ``done`` turns True at the round :meth:`run` stops at, and its ``records()`` hold the answer.

    Parameters
    ----------
    tau : float in [0, 1]
    delta : float in (0, 1)
    epsilon : float > 0
        ``inf`` (the default) runs without privacy.
    radius_constant : float > 0, finite
        8 as printed; 2 is what Hoeffding needs for Theorem 4.1's proof.
    mechanism : {"privbern", "laplace"}
    """

    tau: float = param(spec=_UNIT)
    delta: float = param(spec=Real(0.0, 1.0))
    epsilon: float = param(math.inf, _EPSILON)
    radius_constant: float = param(8.0, Real())
    mechanism: str = param("privbern", _MECHANISM)

    private = True
    records_arms = False
    records = ("pulls", "answer", "stop_time", "stopped")
    _kernel = staticmethod(_fixed_confidence_kernel)
    _init = staticmethod(_fixed_confidence_init)
    _choose = staticmethod(_fixed_confidence_choose)
    _update = staticmethod(_fixed_confidence_update)
    _step_records = staticmethod(_fixed_confidence_records)
    _step_stops = True  # _choose returns -1 at lines 15-16

    @property
    def name(self) -> str:  # type: ignore[override]
        """``"Alg. 2 (PrivBern), c=8"`` and the like; ``"non-private, c=..."`` without privacy."""
        base = "Alg. 2" if not math.isinf(self.epsilon) else "non-private"
        mech = "" if math.isinf(self.epsilon) else (" (PrivBern)" if self.mechanism == "privbern" else " (Laplace)")
        return f"{base}{mech}, c={self.radius_constant:g}"

    def min_horizon(self, n_arms: int) -> int:
        return n_arms  # line 2 pulls each arm once

    @functools.cached_property
    def _log_tables(self) -> dict[tuple[int, int], np.ndarray]:
        # the logarithm of rad_t(i) by round, once per (K, length) and policy, not once per round of every run
        # (a chapter's point has 300 runs of up to 10^6 rounds); computed in the kernel's round by the first run
        # that needs it (a table computed apart, in a loop the compiler may vectorize, could round differently)
        return {}

    def __getstate__(self) -> dict:
        # a pickled policy (a process backend) leaves its log tables behind: rebuilt where it runs
        state = dict(self.__dict__)
        state.pop("_log_tables", None)
        return state

    def _step_args(self, n_arms: int, horizon: int) -> tuple:
        mechanism = _MECHANISMS[self.mechanism]
        size = (n_arms, min(horizon, _LOG_TERMS_MAX))
        if size not in self._log_tables:  # filled by the runs, each round's logarithm by the first to reach it
            self._log_tables[size] = np.full(size[1], np.nan)
        tau_eps = _tau_eps(self.tau, self.epsilon, self.mechanism)
        return (
            tau_eps,
            float(self.delta),
            float(self.radius_constant),
            float(self.epsilon),
            mechanism,
            self._log_tables[size],
        )

    def _kernel_call(self, instance: BanditInstance, horizon: int):
        return self._kernel, (*instance.kernel_args(), horizon, *self._step_args(instance.n_arms, horizon))
