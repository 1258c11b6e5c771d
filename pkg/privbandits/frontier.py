"""The privacy-regret frontier of Part VI: regret of a policy at several horizons, with confidence bands.

:func:`frontier_point` puts a 95% batch-means Student-t band around the pooled average and Nash
regret (the Nash band is an approximation). The band assumes roughly normal batch means, which
fails for a policy whose runs sometimes lock in; :func:`tail_summary` flags such points.
An argument outside the range its entry states raises ``ValueError`` naming it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy import stats

from ._validation import _is_real, check_epsilon, check_finite_array, check_int
from .environments import BERNOULLI, BanditInstance
from .metrics import average_regret, nash_regret
from .policies import Policy
from .simulate import SimulationResult, _folded, simulate, simulate_mean_rewards

__all__ = [
    "FrontierPoint",
    "STATS",
    "EPSILONS",
    "HORIZONS",
    "DELTA",
    "TIE_RTOL",
    "LEARNED_FRACTION",
    "Tail",
    "frontier_point",
    "final_regrets",
    "lock_in_threshold",
    "tail_summary",
    "is_tie",
    "ranking",
    "pooled",
    "frontier_instances",
    "private_lower_bound",
]

#: The columns of :attr:`FrontierPoint.values`.
STATS = ("average", "average_lo", "average_hi", "nash", "nash_lo", "nash_hi")


class FrontierPoint(NamedTuple):
    """Regret of one policy on one instance at several horizons.

    Attributes
    ----------
    horizons : tuple of int
        Ascending.
    values : numpy.ndarray
        Shape ``(len(horizons), 6)``: the columns of :data:`STATS` (estimates and 95% band ends).
    runs : int
    """

    horizons: tuple[int, ...]
    values: np.ndarray
    runs: int


def pooled(parts: Sequence[SimulationResult]) -> SimulationResult:
    """The :class:`SimulationResult` of equally many runs in each part, pooled (mean of the mean curves).

    Parameters
    ----------
    parts : sequence of SimulationResult
        Same policy, instance, horizon and number of runs.

    Returns
    -------
    SimulationResult
        ``seed`` is the first part's.

    Raises
    ------
    ValueError
        If ``parts`` is empty, differs in horizon or runs, or was read at some rounds only.
    """
    if not parts or len({(p.horizon, p.runs) for p in parts}) != 1:
        raise ValueError("parts must be non-empty with equal horizons and runs")
    if any(p.at is not None for p in parts):
        raise ValueError("parts must hold every round (made without simulate_mean_rewards(at=...))")
    logs = np.stack([p.log_mean for p in parts])
    top = logs.max(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        log_mean = top + np.log(np.mean(np.exp(logs - top), axis=0))
    log_mean[~np.isfinite(top)] = -np.inf
    first = parts[0]
    return SimulationResult(
        first.policy, first.instance, first.horizon, first.runs * len(parts), first.seed, {}, log_mean
    )


def _band(center: float, values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """The Student-t interval of the mean of ``values`` at ``level``, centred on ``center``."""
    half = stats.t.ppf(0.5 + level / 2, values.size - 1) * values.std(ddof=1) / np.sqrt(values.size)
    return float(center - half), float(center + half)


def _horizon_list(horizons: Sequence[int]) -> list[int]:
    """``horizons`` as a non-empty list of integers >= 2 (one integer alone is a list of one)."""
    try:
        values = np.atleast_1d(horizons).tolist()
    except ValueError:  # ragged nesting
        values = [horizons]
    if not values:
        raise ValueError("horizons must not be empty")
    return [check_int("horizons", h, minimum=2) for h in values]


def _check_instance(instance: object) -> BanditInstance:
    """``instance`` if it is a :class:`BanditInstance`."""
    if not isinstance(instance, BanditInstance):
        raise ValueError(f"instance must be a BanditInstance, got {type(instance).__name__}")
    return instance


def _check_rtol(rtol: float) -> float:
    """``rtol`` if it is a finite real number >= 0 (not a bool)."""
    if isinstance(rtol, bool) or not (isinstance(rtol, (int, float)) and 0.0 <= rtol < np.inf):
        raise ValueError(f"rtol must be finite and >= 0, got {rtol!r}")
    return float(rtol)


def _check_batches(horizons: Sequence[int], batches: int, runs_per_batch: int, seed: int):
    """The arguments :func:`frontier_point` and :func:`final_regrets` share, checked; horizons ascending."""
    horizons = tuple(sorted(_horizon_list(horizons)))
    batches = check_int("batches", batches, minimum=2)
    runs_per_batch = check_int("runs_per_batch", runs_per_batch, minimum=1)
    return horizons, batches, runs_per_batch, check_int("seed", seed, minimum=0)


def frontier_point(
    policy: Policy,
    instance: BanditInstance,
    horizons: Sequence[int],
    *,
    batches: int = 10,
    runs_per_batch: int = 10,
    seed: int = 0,
    n_jobs: int | None = None,
    cache: bool = True,
) -> FrontierPoint:
    """Average and Nash regret of ``policy`` at each horizon, with 95% batch-means bands.

    Parameters
    ----------
    policy : Policy
        An anytime policy runs once at the largest horizon.
    instance : BanditInstance
    horizons : sequence of int >= 2
    batches : int >= 2
        Batch ``b`` uses seed ``seed + b``.
    runs_per_batch : int >= 1
    seed : int >= 0
    n_jobs : int or None
    cache : bool

    Returns
    -------
    FrontierPoint
    """
    if not isinstance(policy, Policy):
        raise ValueError(f"policy must be a privbandits Policy, got {type(policy).__name__}")
    _check_instance(instance)
    horizons, batches, runs_per_batch, seed = _check_batches(horizons, batches, runs_per_batch, seed)
    plan = [horizons[-1]] if policy.anytime else list(horizons)
    rows = {}
    for run_horizon in plan:
        parts = [
            simulate_mean_rewards(
                policy, instance, run_horizon, runs_per_batch, seed + b, n_jobs=n_jobs, cache=cache, progress=False
            )
            for b in range(batches)
        ]
        whole = pooled(parts)
        for h in horizons if policy.anytime else [run_horizon]:
            avg = np.array([average_regret(p, h) for p in parts])
            nash = np.array([nash_regret(p, h) for p in parts])
            a, n = average_regret(whole, h), nash_regret(whole, h)
            rows[h] = [a, *_band(a, avg), n, *_band(n, nash)]
    values = np.array([rows[h] for h in horizons])
    return FrontierPoint(horizons, values, batches * runs_per_batch)


def final_regrets(
    policy: Policy,
    instance: BanditInstance,
    horizons: Sequence[int],
    *,
    batches: int = 10,
    runs_per_batch: int = 10,
    seed: int = 0,
    n_jobs: int | None = None,
) -> np.ndarray:
    """Every run's cumulative pseudo-regret at each horizon: the runs of :func:`frontier_point`, one by one.

    A run's regret is the sum of the gaps of its arms (numpy's sum of the run's row). A policy that is
    not episodic, at a horizon it is run at alone (a single horizon, or not anytime), has it read from
    the cached fold of :func:`~privbandits.simulate.simulate_mean_rewards` (which keeps each run's
    sum, made the same way; the fold is computed and cached if missing); otherwise the runs are played
    again with their arms kept (not cached). Their mean over the horizon is :func:`frontier_point`'s
    average regret, up to rounding.

    Parameters
    ----------
    policy, instance, horizons, batches, runs_per_batch, seed, n_jobs
        As :func:`frontier_point`.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(horizons), batches * runs_per_batch)``, runs in seed order.
    """
    if not isinstance(policy, Policy):
        raise ValueError(f"policy must be a privbandits Policy, got {type(policy).__name__}")
    _check_instance(instance)
    horizons, batches, runs_per_batch, seed = _check_batches(horizons, batches, runs_per_batch, seed)
    gaps = instance.gaps
    out = np.empty((len(horizons), batches * runs_per_batch))
    plan = [(horizons[-1], horizons)] if policy.anytime else [(h, (h,)) for h in horizons]
    for run_horizon, read in plan:
        for b in range(batches):
            where = slice(b * runs_per_batch, (b + 1) * runs_per_batch)
            if read == (run_horizon,) and policy.records_arms and not policy.episodic:  # the fold keeps them
                fold = _folded(policy, instance, run_horizon, runs_per_batch, seed + b, n_jobs=n_jobs, progress=False)
                out[horizons.index(run_horizon), where] = fold["final_regret"]
                continue
            arms = simulate(
                policy, instance, run_horizon, runs_per_batch, seed + b, n_jobs=n_jobs, cache=False, progress=False
            ).arms
            for h in read:
                out[horizons.index(h), where] = gaps[arms[:, :h]].sum(axis=1)
            del arms
    return out


def lock_in_threshold(instance: BanditInstance, horizon: int) -> float:
    """The cumulative regret ``T Delta_min / 2`` from which a run's regret counts as linear.

    Parameters
    ----------
    instance : BanditInstance
    horizon : int >= 1

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If every arm is optimal.
    """
    horizon = check_int("horizon", horizon, minimum=1)
    gaps = _check_instance(instance).gaps[instance.gaps > 0]
    if gaps.size == 0:
        raise ValueError("instance must have a suboptimal arm (every gap is 0)")
    return float(horizon * gaps.min() / 2.0)


class Tail(NamedTuple):
    """The right tail of a point's final regrets (:func:`tail_summary`).

    Attributes
    ----------
    locked_in : float
        Fraction of runs locked in.
    median, q90, maximum : float
        The runs' median, 90% quantile and largest cumulative regret.
    """

    locked_in: float
    median: float
    q90: float
    maximum: float


#: A run has learned when its regret is below this fraction of :func:`lock_in_threshold`.
LEARNED_FRACTION = 0.5


def tail_summary(finals: np.ndarray, instance: BanditInstance, horizon: int) -> Tail:
    """Lock-in fraction and quantiles of one point's final regrets (a row of :func:`final_regrets`).

    A run is locked in when its regret reaches :func:`lock_in_threshold` while some run of the same
    point has learned (regret below :data:`LEARNED_FRACTION` times the threshold); where none has
    learned, none counts (the point is slow, not heavy-tailed).

    Parameters
    ----------
    finals : numpy.ndarray, 1-D, finite, non-empty
    instance : BanditInstance
    horizon : int >= 1

    Returns
    -------
    Tail
    """
    finals = check_finite_array("finals", finals, ndim=1)
    if finals.size == 0:
        raise ValueError("finals must be a non-empty finite 1-D array")
    threshold = lock_in_threshold(instance, horizon)
    learned = bool(np.any(finals < LEARNED_FRACTION * threshold))
    return Tail(
        float(np.mean(finals >= threshold)) if learned else 0.0,
        float(np.median(finals)),
        float(np.quantile(finals, 0.9)),
        float(finals.max()),
    )


#: Relative difference below which two regrets are an exact tie (same runs, rounding apart).
TIE_RTOL = 1e-9


def is_tie(a: float, b: float, rtol: float = TIE_RTOL) -> bool:
    """Whether two regrets are equal up to ``rtol`` relative to the larger: ``|a - b| <= rtol max(|a|, |b|)``.

    Parameters
    ----------
    a, b : float
    rtol : float >= 0, finite

    Returns
    -------
    bool
    """
    rtol = _check_rtol(rtol)
    return bool(abs(a - b) <= rtol * max(abs(a), abs(b)))


def ranking(means: dict[str, float], rtol: float = TIE_RTOL) -> tuple[list[str], str | None]:
    """The best entries of ``means`` (all tied with the smallest, by :func:`is_tie`) and the runner-up.

    Parameters
    ----------
    means : dict of str to float
        Regret by algorithm; NaN entries are left out, at least one must be finite.
    rtol : float

    Returns
    -------
    tuple of (list of str, str or None)
        The tied best, in the order of ``means``, and the best of the rest (None if none).
    """
    rtol = _check_rtol(rtol)
    if not isinstance(means, dict) or not all(_is_real(v) or isinstance(v, np.floating) for v in means.values()):
        raise ValueError(f"means must be a dict of algorithm names to real numbers, got {means!r}")
    finite = {a: float(v) for a, v in means.items() if np.isfinite(v)}
    if not finite:
        raise ValueError("means must hold at least one finite value")
    low = min(finite.values())
    best = [a for a, v in finite.items() if is_tie(v, low, rtol)]
    rest = [a for a in finite if a not in best]
    return best, (min(rest, key=finite.get) if rest else None)


#: The privacy levels of the frontier (``inf`` is no privacy).
EPSILONS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0, float("inf"))
#: The horizons of the frontier.
HORIZONS = (10**5, 10**6)
#: delta of DP-UCB-INT's composed guarantee, :math:`\delta = e^{-10} \approx 4.54 \cdot 10^{-5}`
#: (Part I's value); every other algorithm is pure.
DELTA = float(np.exp(-10))


def frontier_instances() -> dict[str, BanditInstance]:
    """The five instances of the Part VI frontier, by name.

    The two scenarios of ``tossou2016algorithms``, the 50-arm instance of ``sarkar2026dpncb``
    Figure 1(b), Beta arms with the means of ``azize2022privacy`` Figure 2 (the paper's arms are
    Bernoulli), and a small-gap instance (0.5 and four arms at 0.475).

    Returns
    -------
    dict of str to BanditInstance
    """
    from .environments import bernoulli_instance, beta_instance

    beta_means = np.array([0.75, 0.625, 0.5, 0.375, 0.25])
    return {
        "2 arms (Tossou)": bernoulli_instance([0.9, 0.6], name="2 arms (Tossou)"),
        "10 arms (Tossou)": bernoulli_instance([0.1] * 8 + [0.2, 0.55], name="10 arms (Tossou)"),
        "50 arms (DP-NCB)": bernoulli_instance(
            np.random.default_rng(2026).uniform(0.005, 1.0, 50), name="50 arms (DP-NCB)"
        ),
        "Beta, 5 arms": beta_instance(2 * beta_means / (1 - beta_means), np.full(5, 2.0), name="Beta, 5 arms"),
        "small gap, 5 arms": bernoulli_instance([0.5] + [0.475] * 4, name="small gap, 5 arms"),
    }


def private_lower_bound(instance: BanditInstance, horizons: Sequence[int], epsilon: float) -> np.ndarray:
    """The eps-global-DP regret lower bound drawn on the frontier: Theorem 3 of ``azize2022privacy``.

    ``log T * sum_{a: Delta_a > 0} Delta_a / min(d(mu_a, mu*), 6 eps Delta_a)`` for Bernoulli arms
    (:func:`~privbandits.policies.adap_klucb.problem_dependent_lower_bound`), in cumulative regret
    (divide by ``T`` for average regret). The theorem is asymptotic: this is its rate times ``log T``.
    It refines ``shariff2018differentially``'s ``Omega(sum_a log T / Delta_a + K log T / eps)``, whose
    constant could not be read here; Theorem 3 states its constant.

    Parameters
    ----------
    instance : BanditInstance
        Bernoulli arms only (the theorem's KL and TV are those of Bernoulli laws).
    horizons : sequence of int >= 2
    epsilon : float > 0
        ``inf``: the Lai-Robbins bound.

    Returns
    -------
    numpy.ndarray
        One value per horizon.
    """
    from .policies.adap_klucb import problem_dependent_lower_bound

    if np.any(_check_instance(instance).kinds != BERNOULLI):
        raise ValueError(f"instance must have Bernoulli arms only (Theorem 3's Bernoulli form), got {instance.name!r}")
    epsilon = check_epsilon(epsilon, allow_inf=True)
    horizons = _horizon_list(horizons)
    return np.array([problem_dependent_lower_bound(instance.means, h, epsilon) for h in horizons])
