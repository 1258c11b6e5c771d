"""Runs folded into ``E[mu_{I_t}]`` per round in O(horizon) memory, for ``simulate_mean_rewards``.

``sum_runs mu_{I_t}`` is kept as ``mu_{top_t} scaled_t``, ``top_t`` the pulled arm of largest mean so
far (``scaled_t >= 1``): exact where means underflow. Episodic runs are folded piece by piece on the
common refinement of their episodes, bit for bit the per-round result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = ["MergeFolds", "fold_runs", "read_fold"]

Arrays = dict[str, np.ndarray]


def fold_runs(policy: Any, instance: Any, horizon: int, seeds: list) -> Arrays:
    """Runs of ``policy``, one per seed sequence, folded into ``sum_runs mu_{I_t}`` (an engine batch).

    Parameters
    ----------
    policy, instance, horizon
        As for :func:`privbandits.simulate.simulate_mean_rewards`.
    seeds : list of numpy.random.SeedSequence

    Returns
    -------
    dict of str to numpy.ndarray
        ``"top"``, ``"scaled"`` per round (per piece from ``"starts"``), other records as ``"record:<name>"``;
        if not episodic, also ``"final_regret"``, each run's cumulative pseudo-regret at ``horizon``.
    """
    log_means = instance.log_means
    ratio = _ratio_table(log_means)
    others: list[Arrays] = []
    if policy.episodic:
        starts = np.zeros(1, dtype=np.int64)
        top = np.full(1, -1, dtype=np.int64)
        scaled = np.zeros(1)
        for s in seeds:
            out = policy.run_episodes(instance, horizon, np.random.default_rng(s))
            episodes = out.pop("episodes")
            starts, top, scaled = _fold_pieces(
                starts, top, scaled, episodes[0], episodes[1], scaled, True, log_means, ratio
            )
            others.append(out)
        fold = {"starts": starts, "top": top, "scaled": scaled}
    else:
        top = np.full(horizon, -1, dtype=np.int64)
        scaled = np.zeros(horizon)
        gaps = instance.gaps
        regrets = np.empty(len(seeds))
        for i, s in enumerate(seeds):
            out = policy.run(instance, horizon, np.random.default_rng(s))
            arms = np.asarray(out["arms"], dtype=np.int64)
            _accumulate(top, scaled, arms, log_means, ratio)
            # summed as privbandits.frontier.final_regrets sums a run's row (numpy's pairwise sum): the same bits
            regrets[i] = gaps[arms].sum()
            others.append({name: np.asarray(value) for name, value in out.items() if name != "arms"})
        fold = {"top": top, "scaled": scaled, "final_regret": regrets}
    for name in others[0]:
        fold[f"record:{name}"] = np.stack([o[name] for o in others])
    return fold


class MergeFolds:
    """The engine's ``combine`` for :func:`fold_runs`: two chunks' folds merged in seed order (picklable).

    Parameters
    ----------
    log_means : numpy.ndarray
    """

    def __init__(self, log_means: np.ndarray) -> None:
        self.log_means = log_means
        self.ratio = _ratio_table(log_means)

    def __call__(self, left: Arrays, right: Arrays) -> Arrays:
        """``right`` (later seeds) merged into ``left``: folds added, final regrets and other records concatenated.

        Parameters
        ----------
        left, right : dict of str to numpy.ndarray

        Returns
        -------
        dict of str to numpy.ndarray
        """
        if "starts" in left:
            pieces = (left["starts"], left["top"], left["scaled"], right["starts"], right["top"], right["scaled"])
            left["starts"], left["top"], left["scaled"] = _fold_pieces(*pieces, False, self.log_means, self.ratio)
        else:
            _merge(left["top"], left["scaled"], right["top"], right["scaled"], self.log_means, self.ratio)
        for name in left:
            if name.startswith("record:") or name == "final_regret":
                left[name] = np.concatenate([left[name], right[name]])
        return left


def read_fold(
    fold: Arrays, log_means: np.ndarray, horizon: int, runs: int, rounds: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """``log E[mu_{I_t}]`` from a fold of ``runs`` runs, at every round or at ``rounds``.

    Parameters
    ----------
    fold : dict of str to numpy.ndarray
    log_means : numpy.ndarray
    horizon, runs : int
    rounds : numpy.ndarray or None
        Sorted distinct 1-based rounds.

    Returns
    -------
    log_mean : numpy.ndarray
    cum_log_mean, cum_mean : numpy.ndarray or None
        With ``rounds``: ``np.cumsum`` of ``log_mean`` and ``exp(log_mean)`` at ``rounds``.
    """
    with np.errstate(divide="ignore"):
        log_mean = log_means[fold["top"]] + np.log(fold["scaled"]) - np.log(runs)
    if "starts" not in fold:
        if rounds is None:
            return log_mean, None, None
        return log_mean[rounds - 1], np.cumsum(log_mean)[rounds - 1], np.cumsum(np.exp(log_mean))[rounds - 1]
    starts = fold["starts"]  # log_mean is per piece
    if rounds is None:
        return np.repeat(log_mean, np.diff(np.r_[starts, horizon])), None, None
    at_value = log_mean[np.searchsorted(starts, rounds - 1, side="right") - 1]
    return (
        at_value,
        _prefix_sums(starts, log_mean, horizon, rounds),
        _prefix_sums(starts, np.exp(log_mean), horizon, rounds),
    )


def _ratio_table(log_means: np.ndarray) -> np.ndarray:
    """``table[a, b] = exp(log mu_a - log mu_b)``, with 1 where both means are 0."""
    with np.errstate(invalid="ignore", over="ignore"):  # ratios above 1 (never read) may overflow
        table = np.exp(log_means[:, None] - log_means[None, :])
    table[np.isnan(table)] = 1.0
    return table


@njit(nogil=True, cache=True)
def _add_run(top, scaled, a, log_means, ratio):  # pragma: no cover - compiled
    """One run's ``mu_a`` added to one round's ``(top, scaled)``: the new pair."""
    if top < 0:
        return a, 1.0
    if log_means[a] > log_means[top]:
        return a, scaled * ratio[top, a] + 1.0
    return top, scaled + ratio[a, top]


@njit(nogil=True, cache=True)
def _add_sum(top, scaled, other_top, other_scaled, log_means, ratio):  # pragma: no cover - compiled
    """A second accumulation's ``(other_top, other_scaled)`` added to one round's ``(top, scaled)``."""
    if log_means[other_top] > log_means[top]:
        return other_top, scaled * ratio[top, other_top] + other_scaled
    return top, scaled + other_scaled * ratio[other_top, top]


@njit(nogil=True, cache=True)
def _accumulate(top, scaled, arms, log_means, ratio):  # pragma: no cover - compiled
    """Add one run's arms to the per-round ``(top, scaled)`` (``top = -1``: no run yet)."""
    for t in range(arms.shape[0]):
        top[t], scaled[t] = _add_run(top[t], scaled[t], arms[t], log_means, ratio)


@njit(nogil=True, cache=True)
def _merge(top, scaled, other_top, other_scaled, log_means, ratio):  # pragma: no cover - compiled
    """Merge a second per-round ``(top, scaled)`` accumulation into the first."""
    for t in range(top.shape[0]):
        top[t], scaled[t] = _add_sum(top[t], scaled[t], other_top[t], other_scaled[t], log_means, ratio)


@njit(nogil=True, cache=True)
def _fold_pieces(starts, top, scaled, o_starts, o_top, o_scaled, run, log_means, ratio):  # pragma: no cover
    """One fold step on piecewise-constant ``(top, scaled)``: the per-round fold, piece by piece."""
    # Piece ``i`` runs from round ``starts[i]`` to the next start. The second operand is one run's
    # episodes (``run``: ``o_top`` are its arms, :func:`_add_run`) or another accumulation
    # (:func:`_add_sum`). Each piece of the common refinement gets the operation the per-round fold
    # does on each of its rounds, so the values are the per-round fold's, bit for bit. Adjacent
    # equal pieces are joined. Returns the new ``(starts, top, scaled)``.
    n, m = starts.shape[0], o_starts.shape[0]
    out_s = np.empty(n + m, dtype=np.int64)
    out_top = np.empty(n + m, dtype=np.int64)
    out_sc = np.empty(n + m)
    i = 0
    j = 0
    k = 0
    pos = 0
    while True:
        if run:
            b, v = _add_run(top[i], scaled[i], o_top[j], log_means, ratio)
        else:
            b, v = _add_sum(top[i], scaled[i], o_top[j], o_scaled[j], log_means, ratio)
        if k == 0 or b != out_top[k - 1] or v != out_sc[k - 1]:
            out_s[k] = pos
            out_top[k] = b
            out_sc[k] = v
            k += 1
        nxt_a = starts[i + 1] if i + 1 < n else -1
        nxt_b = o_starts[j + 1] if j + 1 < m else -1
        if nxt_a < 0 and nxt_b < 0:
            break
        if nxt_b < 0 or (0 <= nxt_a <= nxt_b):
            pos = nxt_a
        else:
            pos = nxt_b
        if nxt_a == pos:
            i += 1
        if nxt_b == pos:
            j += 1
    return out_s[:k].copy(), out_top[:k].copy(), out_sc[:k].copy()


@njit(nogil=True, cache=True)
def _prefix_sums(starts, values, horizon, at):  # pragma: no cover - compiled
    """``np.cumsum`` of a piecewise-constant sequence read at the rounds ``at``, in O(1) memory."""
    # Added round by round, left to right, as ``np.cumsum`` adds, so the same bits.
    out = np.empty(at.shape[0])
    total = 0.0
    t = 0
    p = 0
    for q in range(at.shape[0]):
        while t < at[q]:
            end = starts[p + 1] if p + 1 < starts.shape[0] else horizon
            stop = min(end, at[q])
            v = values[p]
            while t < stop:
                total += v
                t += 1
            if t == end:
                p += 1
        out[q] = total
    return out
