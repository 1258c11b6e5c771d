"""DP-UCB-BOUND, DP-UCB and DP-UCB-INT of Tossou and Dimitrakakis (AAAI 2016), paper ``002``.

* :class:`DPUCBBound` (Algorithm 1): one hybrid counter per arm; the bound ``nu_a`` of Eq. (2.2) on
  the counter's error, with failure probability ``gamma = t^-4``, added to the UCB index.
* :class:`DPUCB` (Algorithm 2): as Algorithm 1 with ``nu_a = 0``, and a 0 inserted into every other
  arm's counter at each round so that all counters carry noise of the same scale.
* :class:`DPUCBInt` (Algorithm 3): each arm's mean is released only when its pull count reaches the
  next point ``W_k`` of the interval series of Lemma B.1, with ``Lap(n^(v/2 - 1))`` noise.

Privacy. Algorithms 1 and 2 are as private as one hybrid counter (each reward enters the counter
of the arm that produced it; zeros and the action choice are data-independent post-processing).
The paper's hybrid mechanism gives the whole epsilon to both its logarithmic and its tree part;
an item enters both, so that counter is 2 epsilon-DP. ``hybrid_split=True`` (default) splits the
budget as Chan, Shi and Song do, making the algorithms epsilon-DP; ``hybrid_split=False`` is the
paper's variant. Algorithm 3 claims (epsilon', delta')-DP with epsilon' from Theorem 3.4 /
Corollary 3.1 (:func:`dp_ucb_int_privacy`); :func:`dp_ucb_int_input_epsilon` inverts it
(Corollary 3.2).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numba import njit
from scipy.special import lambertw, zeta

from .._validation import check_delta, check_epsilon, check_int, check_positive
from ..environments import BanditInstance, draw_reward
from ..mechanisms import _HYB_SIZE, hybrid_counter_insert
from .base import Policy, Records

__all__ = [
    "DPUCBBound",
    "DPUCB",
    "DPUCBInt",
    "dp_ucb_int_input_epsilon",
    "dp_ucb_int_privacy",
    "release_points",
    "lambert_pull_threshold",
    "regret_bound_dp_ucb_bound",
    "regret_bound_dp_ucb",
    "regret_bound_dp_ucb_int",
]


# --------------------------------------------------------------------------------------------
# Algorithms 1 and 2
# --------------------------------------------------------------------------------------------


@njit(nogil=True, cache=True)
def _dp_ucb_kernel(rng, kinds, params, table, horizon, epsilon, bound, insert_zeros, split):  # pragma: no cover
    k = kinds.shape[0]
    part = epsilon / 2.0 if split else epsilon
    states = np.zeros((k, _HYB_SIZE))  # one hybrid mechanism per arm (Alg. 1, line 2)
    private_sums = np.zeros(k)  # s_a(t): the counter's latest release
    pulls = np.zeros(k)  # n_{a,t}
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(1, horizon + 1):
        if t <= k:  # lines 4-6: play arm a = t
            arm = t - 1
        else:
            log_t = np.log(t)
            c = np.sqrt(8.0) / epsilon * np.log(4.0 * float(t) ** 4)  # Eq. (2.2) with gamma = t^-4
            best = -np.inf
            arm = 0
            for a in range(k):  # lines 8-15
                nu = 0.0
                if bound:
                    n = int(pulls[a])
                    if n & (n - 1) == 0:  # n_{a,t} is a power of 2
                        nu = c
                    else:
                        nu = c * np.log(pulls[a]) + c
                index = private_sums[a] / pulls[a] + np.sqrt(2.0 * log_t / pulls[a]) + nu / pulls[a]
                if index > best:  # line 16: argmax
                    best = index
                    arm = a
        reward = draw_reward(rng, kinds, params, table, t - 1, arm)
        pulls[arm] += 1.0
        private_sums[arm] = hybrid_counter_insert(states[arm], reward, part, part, rng)  # line 18
        if insert_zeros:  # Algorithm 2: a 0 into every other arm's mechanism, n_{a'} unchanged
            for a in range(k):
                if a != arm:
                    private_sums[a] = hybrid_counter_insert(states[a], 0.0, part, part, rng)
        arms[t - 1] = arm
    return arms


@dataclasses.dataclass(frozen=True)
class DPUCBBound(Policy):
    """DP-UCB-BOUND, Algorithm 1 of Tossou and Dimitrakakis (2016).

    Index ``s_a/n_a + sqrt(2 log t / n_a) + nu_a/n_a`` with ``s_a`` the hybrid counter's release and
    ``nu_a`` Eq. (2.2) at ``gamma = t^-4`` (``sqrt(8)/eps * log(4 t^4)`` when ``n_a`` is a power of 2,
    times ``(log n_a + 1)`` otherwise). Guarantee: epsilon-DP (global model) with
    ``hybrid_split=True``; 2 epsilon-DP for the paper's counter (``hybrid_split=False``).
    """

    epsilon: float
    hybrid_split: bool = True

    name = "DP-UCB-BOUND"
    private = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))

    def _run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        arms = _dp_ucb_kernel(rng, *instance.kernel_args(), horizon, self.epsilon, True, False, self.hybrid_split)
        return {"arms": arms}


@dataclasses.dataclass(frozen=True)
class DPUCB(Policy):
    """DP-UCB, Algorithm 2 of Tossou and Dimitrakakis (2016): Algorithm 1 with ``nu_a = 0`` and a 0
    inserted into the counters of all arms not played, so every counter has seen ``t`` items.
    Guarantee: as :class:`DPUCBBound`."""

    epsilon: float
    hybrid_split: bool = True

    name = "DP-UCB"
    private = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))

    def _run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        arms = _dp_ucb_kernel(rng, *instance.kernel_args(), horizon, self.epsilon, False, True, self.hybrid_split)
        return {"arms": arms}


# --------------------------------------------------------------------------------------------
# Algorithm 3
# --------------------------------------------------------------------------------------------


def release_points(epsilon: float, v: float, horizon: int, *, simplified: bool = False) -> np.ndarray:
    """Pull counts ``W_1 < W_2 < ...  <= horizon`` at which DP-UCB-INT releases an arm's mean.

    Lemma B.1 (first expression): ``W_0 = 0`` and ``W_{n+1}`` is the least ``x >= W_n + 1`` with
    ``sum_{i=W_n+1}^{x} i^(-v/2) >= x^(-v/2) / epsilon``; the intervals are ``f_n = W_{n+1} - W_n``.
    ``simplified=True`` gives the multiples of ``ceil(1/epsilon)`` that Algorithm 3 prints "for
    simplicity".
    """
    epsilon = check_epsilon(epsilon)
    v = _check_v(v)
    horizon = check_int("horizon", horizon, minimum=1)
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


def _check_v(v: float) -> float:
    v = check_positive("v", v)
    if not 1.0 < v <= 1.5:
        raise ValueError(f"v must lie in (1, 1.5], got {v}")
    return v


@njit(nogil=True, cache=True)
def _dp_ucb_int_kernel(rng, kinds, params, table, horizon, v, points):  # pragma: no cover - compiled
    k = kinds.shape[0]
    f0 = points[0] if points.shape[0] > 0 else horizon  # first interval of the series
    sums = np.zeros(k)  # s_a (exact; only released through the noisy means)
    pulls = np.zeros(k, dtype=np.int64)
    next_release = np.zeros(k, dtype=np.int64)  # index into points of each arm's next release
    index = np.zeros(k)  # x_hat (line 2: x_hat <- 0)
    arms = np.empty(horizon, dtype=np.int64)
    releases = 0
    for t in range(1, horizon + 1):
        if t <= k * f0:  # lines 4-5: round robin until every arm has f0 pulls
            arm = (t - 1) % k
        else:
            for a in range(k):  # lines 7-11
                n = pulls[a]
                if next_release[a] < points.shape[0] and n == points[next_release[a]]:
                    scale = float(n) ** (v / 2.0 - 1.0)  # Lap(0, 1/n^(1 - v/2))
                    index[a] = sums[a] / n + rng.laplace(0.0, scale) + np.sqrt(2.0 * np.log(t) / n)
                    next_release[a] += 1
                    releases += 1
            arm = 0
            best = -np.inf
            for a in range(k):  # line 13: argmax x_hat
                if index[a] > best:
                    best = index[a]
                    arm = a
        reward = draw_reward(rng, kinds, params, table, t - 1, arm)
        pulls[arm] += 1
        sums[arm] += reward  # line 14
        arms[t - 1] = arm
    return arms, releases


@dataclasses.dataclass(frozen=True)
class DPUCBInt(Policy):
    """DP-UCB-INT, Algorithm 3 of Tossou and Dimitrakakis (2016).

    ``epsilon`` is the algorithm's *input* epsilon in (0, 1]; to target an overall
    (epsilon', delta') use :meth:`for_target` (Corollary 3.2). Each arm's mean is released, with
    ``Lap(n^(v/2 - 1))`` noise (Lemma 3.1: n^(-v/2)-DP), only when its pull count reaches a point of
    the Lemma B.1 series (``simplified_intervals=True``: every ``ceil(1/epsilon)`` pulls, as the
    pseudocode prints); before the first release all arms are played round robin.
    Claimed guarantee: (epsilon', delta')-DP with epsilon' of :func:`dp_ucb_int_privacy`.
    """

    epsilon: float
    v: float = 1.1
    simplified_intervals: bool = False

    name = "DP-UCB-INT"
    private = True

    def __post_init__(self) -> None:
        eps = check_epsilon(self.epsilon)
        if eps > 1.0:
            raise ValueError(f"epsilon (the input epsilon of Algorithm 3) must lie in (0, 1], got {eps}")
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "v", _check_v(self.v))

    @classmethod
    def for_target(cls, epsilon_prime: float, delta_prime: float = math.exp(-10), v: float = 1.1, **kwargs) -> "DPUCBInt":
        """The algorithm run with the input epsilon of Corollary 3.2 for a target (eps', delta')."""
        return cls(dp_ucb_int_input_epsilon(epsilon_prime, delta_prime, v), v, **kwargs)

    def _run(self, instance: BanditInstance, horizon: int, rng: np.random.Generator) -> Records:
        points = release_points(self.epsilon, self.v, horizon, simplified=self.simplified_intervals)
        arms, releases = _dp_ucb_int_kernel(rng, *instance.kernel_args(), horizon, self.v, points)
        return {"arms": arms, "releases": np.asarray(releases)}


def dp_ucb_int_privacy(t: int, epsilon: float, v: float = 1.1, delta_prime: float = math.exp(-10)) -> float:
    """epsilon' of Corollary 3.1: DP-UCB-INT with input ``epsilon`` is (epsilon', delta')-DP after
    ``t`` steps, ``epsilon' = min(eps (t^(1-v/2) - v/2)/(1 - v/2), 2 eps zeta(v) + sqrt(2 eps zeta(v) ln(1/delta')))``.
    """
    t = check_int("t", t, minimum=1)
    epsilon = check_epsilon(epsilon)
    v = _check_v(v)
    delta_prime = check_delta(delta_prime)
    z = float(zeta(v))
    first = epsilon * (t ** (1.0 - v / 2.0) - v / 2.0) / (1.0 - v / 2.0)
    second = 2.0 * epsilon * z + math.sqrt(2.0 * epsilon * z * math.log(1.0 / delta_prime))
    return min(first, second)


def dp_ucb_int_input_epsilon(epsilon_prime: float, delta_prime: float = math.exp(-10), v: float = 1.1) -> float:
    """Corollary 3.2: the input epsilon giving (epsilon', delta')-DP,
    ``(sqrt((ln(1/delta') + 4 eps')/(8 zeta(v))) - sqrt(ln(1/delta')/(8 zeta(v))))^2``."""
    epsilon_prime = check_epsilon(epsilon_prime, "epsilon_prime")
    delta_prime = check_delta(delta_prime, "delta_prime")
    v = _check_v(v)
    z = float(zeta(v))
    log_term = math.log(1.0 / delta_prime)
    return (math.sqrt((log_term + 4.0 * epsilon_prime) / (8.0 * z)) - math.sqrt(log_term / (8.0 * z))) ** 2


# --------------------------------------------------------------------------------------------
# Regret bounds (Theorems 3.2, 3.3, 3.5), as printed
# --------------------------------------------------------------------------------------------


def _gaps(gaps: np.ndarray) -> np.ndarray:
    gaps = np.asarray(gaps, dtype=float)
    if gaps.ndim != 1 or np.any(gaps < 0) or np.any(gaps > 1) or np.any(np.isnan(gaps)):
        raise ValueError("gaps must be a 1-d array of values in [0, 1]")
    return gaps[gaps > 0]


def lambert_pull_threshold(b: np.ndarray) -> np.ndarray:
    """Least real ``n`` with ``exp(n / B) >= e n`` (proof of Theorem 3.2, appendix of the paper):
    ``n = -B W_{-1}(-1 / (e B))``, ``W_{-1}`` the lower branch of Lambert's W (``scipy.special.lambertw``).

    The paper replaces it by the approximation ``B (ln B + 7)`` (Barry et al. 2000, Section 3.1).
    For ``B <= 1`` the inequality holds for every ``n >= B`` and ``B`` is returned (a sufficient
    threshold; at ``B = 1`` it is exact, ``W_{-1}(-1/e) = -1``)."""
    b = np.asarray(b, dtype=float)
    if np.any(~np.isfinite(b)) or np.any(b <= 0):
        raise ValueError("b must be finite and > 0")
    big = b > 1.0
    safe = np.where(big, b, 2.0)
    exact = -safe * lambertw(-1.0 / (np.e * safe), -1).real
    return np.where(big, exact, b)


def regret_bound_dp_ucb_bound(
    t: np.ndarray, gaps: np.ndarray, epsilon: float, lambda0: float | None = None, *, exact_lambert: bool = False
) -> np.ndarray:
    """Theorem 3.2: ``sum_a max(B (ln B + 7), 8 log t / (lambda0^2 Delta_a)) + sum_a (Delta_a + 2 pi^2 Delta_a / 3)``
    with ``B = sqrt(8) ln(4 t^4) / (eps (1 - lambda0))``; ``lambda0=None`` takes, at each t, the
    best lambda0 on a grid of (0, 1). ``exact_lambert=True`` uses the exact solution
    ``-B W_{-1}(-1/(e B))`` of the proof's inequality (:func:`lambert_pull_threshold`) in place of
    the printed approximation ``B (ln B + 7)``."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    gaps = _gaps(gaps)
    epsilon = check_epsilon(epsilon)
    grid = np.array([lambda0]) if lambda0 is not None else np.linspace(0.01, 0.99, 99)
    best = np.full(t.shape, np.inf)
    for lam in grid:
        b = np.sqrt(8.0) * np.log(4.0 * t**4) / (epsilon * (1.0 - lam))
        pulls = lambert_pull_threshold(b) if exact_lambert else b * (np.log(b) + 7.0)
        first = np.maximum(pulls[:, None], 8.0 * np.log(t)[:, None] / (lam**2 * gaps[None, :]))
        best = np.minimum(best, first.sum(axis=1))
    return best + np.sum(gaps + 2.0 * np.pi**2 * gaps / 3.0)


def regret_bound_dp_ucb(t: np.ndarray, gaps: np.ndarray, epsilon: float) -> np.ndarray:
    """Theorem 3.3: ``sum_a Delta_a max(C^2 (ln C + 7)^2, 8 log t / Delta_a^2) + sum_a (Delta_a + 4 Delta_a zeta(1.5))``
    with ``C = 56 (2 + sqrt(3.5)) sqrt(log t) / eps``."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    gaps = _gaps(gaps)
    epsilon = check_epsilon(epsilon)
    c = 56.0 * (2.0 + np.sqrt(3.5)) * np.sqrt(np.log(np.maximum(t, 2.0))) / epsilon
    first = np.maximum((c**2 * (np.log(c) + 7.0) ** 2)[:, None], 8.0 * np.log(t)[:, None] / gaps[None, :] ** 2)
    return (gaps[None, :] * first).sum(axis=1) + np.sum(gaps + 4.0 * gaps * zeta(1.5))


def regret_bound_dp_ucb_int(t: np.ndarray, gaps: np.ndarray, f0: int) -> np.ndarray:
    """Theorem 3.5: ``sum_a Delta_a (f0 + 8 log t / Delta_a^2 + 1 + 4 zeta(1.5))``, ``f0`` the first
    interval of the Lemma B.1 series."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    gaps = _gaps(gaps)
    f0 = check_int("f0", f0, minimum=1)
    return (gaps[None, :] * (f0 + 8.0 * np.log(t)[:, None] / gaps[None, :] ** 2 + 1.0 + 4.0 * zeta(1.5))).sum(axis=1)
