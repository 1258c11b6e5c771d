"""Regret measures: cumulative pseudo-regret, average regret and Nash regret (``barman2023fairness``).

``R_A(T) = mu* - (1/T) sum_t E[mu_{I_t}]``, ``R_N(T) = mu* - (prod_t E[mu_{I_t}])^(1/T) >= R_A``;
``E[mu_{I_t}]`` is the average over runs (as in ``sarkar2026dpncb``), the welfare computed in log space.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from scipy.special import logsumexp

from ._validation import check_finite_array, check_int
from .simulate import SimulationResult

__all__ = [
    "cumulative_regret",
    "final_regret",
    "average_regret",
    "nash_regret",
    "nash_regret_in_double_precision",
    "running_average_regret",
    "running_nash_regret",
    "log_nash_social_welfare",
    "nash_regret_from_log_rewards",
    "average_regret_from_rewards",
]


def cumulative_regret(result: SimulationResult) -> np.ndarray:
    """Cumulative pseudo-regret ``sum_{s<=t} (mu* - mu_{I_s})`` of every run, shape ``(runs, horizon)``.

    Parameters
    ----------
    result : SimulationResult
        Runs with their arms.

    Returns
    -------
    numpy.ndarray
    """
    gaps = result.instance.gaps
    arms = result.arms
    out = np.empty(arms.shape)
    for run in range(arms.shape[0]):  # one run at a time: the same sums, without a second (runs, horizon) array
        np.cumsum(gaps[arms[run]], out=out[run])
    return out


def final_regret(result: SimulationResult) -> np.ndarray:
    """``cumulative_regret(result)[:, -1]``, without the ``(runs, horizon)`` array.

    Parameters
    ----------
    result : SimulationResult

    Returns
    -------
    numpy.ndarray
    """
    return _final_regret(result.instance.gaps, result.arms)


@njit(nogil=True, cache=True)
def _final_regret(gaps, arms):  # pragma: no cover - compiled
    """Each run's sum of gaps, added left to right as ``np.cumsum`` adds."""
    out = np.empty(arms.shape[0])
    for run in range(arms.shape[0]):
        total = 0.0
        for t in range(arms.shape[1]):
            total += gaps[arms[run, t]]
        out[run] = total
    return out


def average_regret(result: SimulationResult, horizon: int | None = None) -> float:
    """Average regret ``R_A(T)``.

    Parameters
    ----------
    result : SimulationResult
    horizon : int or None
        One of ``result.rounds()`` (``None``: all).

    Returns
    -------
    float
    """
    h = _prefix(result, horizon)
    return float(result.instance.best_mean - result.mean_reward(h))


def nash_regret(result: SimulationResult, horizon: int | None = None) -> float:
    """Nash regret ``R_N(T)``, in log space.

    Parameters
    ----------
    result : SimulationResult
    horizon : int or None
        One of ``result.rounds()`` (``None``: all).

    Returns
    -------
    float
    """
    h = _prefix(result, horizon)
    return float(np.exp(result.instance.log_best_mean) - np.exp(result.log_welfare(h)))


def running_average_regret(result: SimulationResult) -> np.ndarray:
    """``R_A(t)`` at every round of ``result.rounds()``.

    Parameters
    ----------
    result : SimulationResult

    Returns
    -------
    numpy.ndarray
    """
    _prefix(result, None)
    return result.instance.best_mean - result.running_mean_reward()


def running_nash_regret(result: SimulationResult) -> np.ndarray:
    """``R_N(t)`` at every round of ``result.rounds()`` (the curve ``sarkar2026dpncb`` plots).

    Parameters
    ----------
    result : SimulationResult

    Returns
    -------
    numpy.ndarray
    """
    _prefix(result, None)
    with np.errstate(invalid="ignore"):
        return np.exp(result.instance.log_best_mean) - np.exp(result.running_log_welfare())


def log_nash_social_welfare(result: SimulationResult) -> float:
    """``log`` of the Nash social welfare ``(prod_t E[mu_{I_t}])^(1/T)`` (may be ``-inf``).

    Parameters
    ----------
    result : SimulationResult

    Returns
    -------
    float
    """
    h = _prefix(result, None)
    return result.log_welfare(h)


def nash_regret_in_double_precision(result: SimulationResult, horizon: int | None = None) -> float:
    """Nash regret ``mu* - exp(mean_t log(double(E[mu_{I_t}])))``, as ``sarkar2026dpncb``'s ``Expt_1.py`` (l. 137-147).

    An underflow to 0 (Figure 1(a), ``T >= 441``) makes it ``mu*``, as published; :func:`nash_regret` is the measure.

    Parameters
    ----------
    result : SimulationResult
        Read at every round.
    horizon : int or None

    Returns
    -------
    float
    """
    h = _prefix(result, horizon)
    if result.at is not None:
        raise ValueError("nash_regret_in_double_precision needs every round: simulate_mean_rewards without at=")
    mean = np.exp(result.log_mean_expected_rewards()[:h])  # the per-round mean as a double: 0 where it underflows
    with np.errstate(divide="ignore"):
        log_welfare = np.mean(np.log(mean))
    return float(np.exp(result.instance.log_best_mean) - np.exp(log_welfare))


def average_regret_from_rewards(expected_rewards: Any, best_mean: float) -> float:
    """``mu* - mean`` of a ``(runs, T)`` array of expected rewards ``mu_{I_t}``.

    Parameters
    ----------
    expected_rewards : array_like, shape (runs, T), in [0, 1]
    best_mean : float in [0, 1]

    Returns
    -------
    float
    """
    rewards = check_finite_array("expected_rewards", expected_rewards, ndim=2)
    if rewards.size == 0:
        raise ValueError("expected_rewards must not be empty")
    if rewards.min() < 0 or rewards.max() > 1 or not 0 <= best_mean <= 1:
        raise ValueError("expected rewards and best_mean must lie in [0, 1]")
    return float(best_mean - rewards.mean())


def nash_regret_from_log_rewards(log_expected_rewards: Any, log_best_mean: float) -> float:
    """Nash regret from a ``(runs, T)`` array of ``log mu_{I_t}``: finite even when every mean underflows.

    Parameters
    ----------
    log_expected_rewards : array_like, shape (runs, T), in [-inf, 0]
    log_best_mean : float <= 0

    Returns
    -------
    float
    """
    log_rewards = np.asarray(log_expected_rewards, dtype=float)
    if log_rewards.ndim != 2 or log_rewards.size == 0:
        raise ValueError(f"log_expected_rewards must be a non-empty (runs, T) array, got shape {log_rewards.shape}")
    if np.any(np.isnan(log_rewards)) or np.any(log_rewards > 0) or np.isnan(log_best_mean) or log_best_mean > 0:
        raise ValueError("log rewards must lie in [-inf, 0] (rewards in [0, 1]) and contain no NaN")
    with np.errstate(divide="ignore"):
        log_mean = logsumexp(log_rewards, axis=0) - np.log(log_rewards.shape[0])
    return float(np.exp(log_best_mean) - np.exp(float(np.mean(log_mean))))


def _prefix(result: SimulationResult, horizon: int | None) -> int:
    """The number of rounds to evaluate, ``horizon`` validated (default: all)."""
    if not isinstance(result, SimulationResult):
        raise ValueError(f"result must be a SimulationResult, got {type(result).__name__}")
    return result.horizon if horizon is None else check_int("horizon", horizon, minimum=1, maximum=result.horizon)
