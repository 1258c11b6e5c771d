"""Simulation of bandit policies: independent seeded runs, in parallel, cached on disk.

Run ``i`` of ``simulate(policy, instance, horizon, runs, seed)`` always uses the Generator built from
``SeedSequence(seed).spawn(runs)[i]``, so results do not depend on ``n_jobs`` or on how runs are
grouped. The runs go through the package's one engine (:func:`privbandits.engine.run_repetitions`):
joblib threads by default (the numba kernels release the GIL), any joblib backend (e.g. a Dask
cluster through ``joblib.parallel_config(backend="dask")``), a tqdm progress bar, and a disk cache
keyed by the configuration and the source of the policy's module, the environments and the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit
from scipy.special import logsumexp

from . import engine
from ._validation import check_int
from .environments import BanditInstance
from .policies.base import Policy

__all__ = ["MeanRewards", "SimulationResult", "run_seeds", "simulate", "simulate_mean_rewards"]


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Records of ``runs`` independent runs of ``policy`` on ``instance``.

    Parameters
    ----------
    policy : Policy
        The policy that was run.
    instance : BanditInstance
        The instance it was run on.
    horizon : int
        Rounds per run.
    runs : int
        Number of runs.
    seed : int
        The seed of :func:`run_seeds` the runs' generators came from.
    records : dict of str to numpy.ndarray
        ``records[name]`` has shape ``(runs, ...)``; ``records["arms"]`` is ``(runs, horizon)``.
    """

    policy: Policy
    instance: BanditInstance
    horizon: int
    runs: int
    seed: int
    records: dict[str, np.ndarray]

    @property
    def arms(self) -> np.ndarray:
        """Arm pulled at each round, shape ``(runs, horizon)``."""
        if "arms" not in self.records:
            raise ValueError(
                f"this result holds no arm sequence ({type(self.policy).__name__} does not record one, or "
                f"simulate(..., keep=...) dropped it); records: {sorted(self.records)}"
            )
        return self.records["arms"]

    def expected_rewards(self) -> np.ndarray:
        """Mean of the arm pulled at each round, ``mu_{I_t}``.

        Returns
        -------
        numpy.ndarray
            Shape ``(runs, horizon)``.

        Raises
        ------
        ValueError
            If the result holds no arm sequence (see :attr:`arms`).
        """
        return self.instance.means[self.arms]

    def log_expected_rewards(self) -> np.ndarray:
        """``log mu_{I_t}``, exact even where the mean underflows.

        Returns
        -------
        numpy.ndarray
            Shape ``(runs, horizon)``.

        Raises
        ------
        ValueError
            If the result holds no arm sequence (see :attr:`arms`).
        """
        return self.instance.log_means[self.arms]

    def log_mean_expected_rewards(self) -> np.ndarray:
        """``log E[mu_{I_t}]``, the expectation estimated by the average over runs.

        Computed in log space (``logsumexp`` over runs).

        Returns
        -------
        numpy.ndarray
            Shape ``(horizon,)``.

        Raises
        ------
        ValueError
            If the result holds no arm sequence (see :attr:`arms`).
        """
        return logsumexp(self.log_expected_rewards(), axis=0) - np.log(self.runs)

    def pull_counts(self) -> np.ndarray:
        """Number of pulls of each arm in each run.

        Returns
        -------
        numpy.ndarray
            Shape ``(runs, K)``: the ``"pulls"`` records of a pure-exploration policy, else counted from
            the arm sequences.

        Raises
        ------
        ValueError
            If the result holds neither pulls nor an arm sequence.
        """
        if "pulls" in self.records and "arms" not in self.records:
            return self.records["pulls"]
        k = self.instance.n_arms
        offsets = np.arange(self.runs)[:, None] * k
        return np.bincount((self.arms + offsets).ravel(), minlength=self.runs * k).reshape(self.runs, k)

    def __repr__(self) -> str:
        return (
            f"SimulationResult({self.policy.label}, {self.instance!r}, horizon={self.horizon}, "
            f"runs={self.runs}, seed={self.seed})"
        )


run_seeds = engine.run_seeds


def _run_chunk(
    policy: Policy, instance: BanditInstance, horizon: int, keep: tuple[str, ...] | None, seeds: list
) -> dict[str, np.ndarray]:
    """Runs ``i = 0 .. len(seeds)-1`` of ``policy``, stacked (the engine's batch function)."""
    outputs = []
    for s in seeds:
        out = policy.run(instance, horizon, np.random.default_rng(s))
        if keep is not None:
            missing = set(keep) - set(out)
            if missing:
                raise ValueError(f"records {sorted(missing)} are not produced by {type(policy).__name__}")
            out = {name: out[name] for name in keep}
        outputs.append(out)
    stacked = {name: np.stack([out[name] for out in outputs]) for name in outputs[0]}
    if "arms" in stacked:
        arm_dtype = np.int16 if instance.n_arms < np.iinfo(np.int16).max else np.int32
        stacked["arms"] = stacked["arms"].astype(arm_dtype)
    return stacked


SMALL_SIMULATION = 200_000
"""Rounds (runs x horizon) up to which a simulation with ``n_jobs=None`` runs in the calling thread.

Starting a pool of workers costs tens of milliseconds, more than such a simulation takes; the result
does not depend on the number of workers, so only the wall time changes."""


def _workers(n_jobs: int | None, runs: int, horizon: int) -> int | None:
    """``n_jobs`` validated; ``None`` becomes 1 for a simulation of at most :data:`SMALL_SIMULATION` rounds."""
    if n_jobs is not None:
        return check_int("n_jobs", n_jobs)
    return 1 if runs * horizon <= SMALL_SIMULATION else None


def _check_runs(
    policy: Policy, instance: BanditInstance, horizon: int, runs: int, seed: int, *, need_arms: bool = False
) -> tuple[int, int, int]:
    """The arguments shared by :func:`simulate` and :func:`simulate_mean_rewards`, validated."""
    if not isinstance(policy, Policy):
        raise ValueError(f"policy must be a privbandits Policy, got {type(policy).__name__}")
    if not isinstance(instance, BanditInstance):
        raise ValueError(f"instance must be a BanditInstance, got {type(instance).__name__}")
    if need_arms and not policy.records_arms:
        raise ValueError(f"{type(policy).__name__} records no arm sequence (records_arms is False)")
    horizon = check_int("horizon", horizon, minimum=policy.min_horizon(instance.n_arms))
    return horizon, check_int("runs", runs, minimum=1), check_int("seed", seed, minimum=0)


def simulate(
    policy: Policy,
    instance: BanditInstance,
    horizon: int,
    runs: int = 100,
    seed: int = 0,
    *,
    n_jobs: int | None = None,
    cache: bool = True,
    progress: bool | None = None,
    keep: tuple[str, ...] | None = None,
) -> SimulationResult:
    """Run ``policy`` ``runs`` times for ``horizon`` rounds on ``instance``.

    Run ``i`` draws its randomness from ``default_rng(run_seeds(seed, runs)[i])``, so the result does
    not depend on ``n_jobs``; results are cached on disk by configuration and by the source of the
    modules they depend on (the policy's module and its imports, the environments, the engine).

    Parameters
    ----------
    policy : Policy
        The algorithm.
    instance : BanditInstance
        The bandit instance.
    horizon : int
        Rounds per run (at least ``policy.min_horizon(instance.n_arms)``).
    runs : int
        Number of independent runs (>= 1).
    seed : int
        Seed of the runs' generators (>= 0).
    n_jobs : int or None
        joblib workers (default :func:`privbandits.engine.default_n_jobs`: ``$PRIVBANDITS_N_JOBS``
        or -1, every core; 1 for at most :data:`SMALL_SIMULATION` rounds in all). Threads are
        preferred; ``joblib.parallel_config`` can select another backend, e.g. a Dask cluster.
    cache : bool
        Read and write the on-disk cache (:mod:`privbandits.cache`).
    progress : bool or None
        Show a tqdm bar (default: on unless ``$PRIVBANDITS_PROGRESS=0``).
    keep : tuple of str or None
        Names of the records to keep (default: all). Pure-exploration runs that only need their
        answer can drop the ``(runs, horizon)`` array of arms this way; ``result.arms`` is then
        unavailable.

    Returns
    -------
    SimulationResult
        The stacked records of all runs.

    Raises
    ------
    ValueError
        If ``policy`` is not a :class:`Policy`, ``instance`` not a :class:`BanditInstance`,
        ``horizon``, ``runs``, ``seed`` or ``n_jobs`` is out of range, or ``keep`` is not a non-empty
        tuple of names the policy records.
    """
    horizon, runs, seed = _check_runs(policy, instance, horizon, runs, seed)
    n_jobs = _workers(n_jobs, runs, horizon)
    if keep is not None:
        if isinstance(keep, str) or not all(isinstance(name, str) for name in keep) or not keep:
            raise ValueError(f"keep must be a non-empty tuple of record names, got {keep!r}")
        keep = tuple(keep)

    config: dict[str, Any] = {
        "kind": "bandit-simulation",
        "policy": policy.config(),
        "instance": instance.spec(),
        "horizon": horizon,
        "keep": None if keep is None else list(keep),
    }
    records = engine.run_repetitions(
        _run_chunk,
        (policy, instance, horizon, keep),
        runs,
        seed,
        config=config,
        depends_on=(policy, instance),
        n_jobs=n_jobs,
        progress=progress,
        desc=policy.label,
        cache=cache,
    )
    return SimulationResult(policy, instance, horizon, runs, seed, records)


# --------------------------------------------------------------------------------------------
# The mean expected reward per round, accumulated over runs in O(T) memory
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MeanRewards:
    """``E[mu_{I_t}]`` at every round, estimated by the average over ``runs`` runs, without the runs' arms.

    What Nash and average regret need (:mod:`privbandits.metrics` accepts it wherever it accepts a
    :class:`SimulationResult`), in ``O(horizon)`` memory. Made by :func:`simulate_mean_rewards`.

    Parameters
    ----------
    policy : Policy
        The policy that was run.
    instance : BanditInstance
        The instance it was run on.
    horizon : int
        Rounds per run.
    runs : int
        Number of runs.
    seed : int
        The seed of :func:`run_seeds` the runs' generators came from.
    log_mean : numpy.ndarray
        Shape ``(horizon,)``: ``log((1/runs) sum_runs mu_{I_t})``, exact where the means underflow;
        with ``at``, shape ``(len(at),)``: its values at the rounds ``at``.
    records : dict of str to numpy.ndarray
        Every record but ``arms``, stacked over runs (``records[name]`` has shape ``(runs, ...)``).
    at : numpy.ndarray or None
        ``None``: every round. Else the rounds (1-based, increasing) the result was read at
        (``simulate_mean_rewards(..., at=...)``), and only there can the metrics be evaluated.
    cum_log_mean, cum_mean : numpy.ndarray or None
        With ``at``: ``np.cumsum(log_mean)`` and ``np.cumsum(exp(log_mean))`` of the per-round
        sequence at the rounds ``at`` (the same additions in the same order, so the same numbers).
    """

    policy: Policy
    instance: BanditInstance
    horizon: int
    runs: int
    seed: int
    log_mean: np.ndarray
    records: dict[str, np.ndarray]
    at: np.ndarray | None = None
    cum_log_mean: np.ndarray | None = None
    cum_mean: np.ndarray | None = None

    def log_mean_expected_rewards(self) -> np.ndarray:
        """``log E[mu_{I_t}]``, the expectation estimated by the average over runs.

        Returns
        -------
        numpy.ndarray
            Shape ``(horizon,)``, or ``(len(at),)`` (the rounds :attr:`at`) for a result read at ``at``.
        """
        return self.log_mean

    def __repr__(self) -> str:
        return (
            f"MeanRewards({self.policy.label}, {self.instance!r}, horizon={self.horizon}, "
            f"runs={self.runs}, seed={self.seed})"
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
    """Add one run to the running ``(top, scaled)`` form of ``sum_runs mu_{I_t}`` (a log-sum-exp)."""
    # ``sum_runs mu_{I_t} = mu_{top_t} * scaled_t`` with ``top_t`` the pulled arm of largest mean so far
    # (-1: no run yet), so ``scaled_t >= 1`` and no exponential is taken: the ratios of two means come
    # from ``ratio[a, b] = mu_a / mu_b``.
    for t in range(arms.shape[0]):
        top[t], scaled[t] = _add_run(top[t], scaled[t], arms[t], log_means, ratio)


@njit(nogil=True, cache=True)
def _merge(top, scaled, other_top, other_scaled, log_means, ratio):  # pragma: no cover - compiled
    """Merge a second ``(top, scaled)`` accumulation into the first."""
    for t in range(top.shape[0]):
        top[t], scaled[t] = _add_sum(top[t], scaled[t], other_top[t], other_scaled[t], log_means, ratio)


@njit(nogil=True, cache=True)
def _fold_pieces(starts, top, scaled, o_starts, o_top, o_scaled, run, log_means, ratio):  # pragma: no cover
    """One fold step on piecewise-constant ``(top, scaled)``: the per-round fold, piece by piece."""
    # ``(top, scaled)`` kept piecewise constant (piece ``i`` from round ``starts[i]`` to the next
    # start), plus a second piecewise-constant operand: one run's episodes (``run``: ``o_top`` are
    # its arms, :func:`_add_run`) or another accumulation (:func:`_add_sum`). Each piece of the common
    # refinement gets the very operation :func:`_accumulate` / :func:`_merge` does on each of its
    # rounds, so the values are those of the per-round fold, bit for bit. Adjacent equal pieces are
    # joined. Returns the new ``(starts, top, scaled)``.
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
    """``cumsum`` over rounds of a piecewise-constant sequence, read at the rounds ``at``."""
    # ``cumsum`` over rounds of a piecewise-constant sequence, read at the rounds ``at`` (1-based,
    # increasing): added round by round, left to right, as ``np.cumsum`` adds, so the same bits,
    # with O(1) memory instead of a ``(horizon,)`` array.
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


def _mean_reward_chunk(policy: Policy, instance: BanditInstance, horizon: int, seeds: list) -> dict[str, np.ndarray]:
    """Runs of ``policy`` folded into ``(top, scaled)``; other records stacked (the engine's batch)."""
    log_means = instance.log_means
    ratio = _ratio_table(log_means)
    top = np.full(horizon, -1, dtype=np.int64)
    scaled = np.zeros(horizon)
    others: list[dict[str, np.ndarray]] = []
    for s in seeds:
        out = policy.run(instance, horizon, np.random.default_rng(s))
        _accumulate(top, scaled, np.asarray(out["arms"], dtype=np.int64), log_means, ratio)
        others.append({name: np.asarray(value) for name, value in out.items() if name != "arms"})
    stacked = {f"record:{name}": np.stack([o[name] for o in others]) for name in others[0]}
    return {"top": top, "scaled": scaled, **stacked}


class _MergeFor:
    """``combine`` for :func:`privbandits.engine.run_repetitions`, bound to an instance's log means (picklable)."""

    # Merges two chunks' ``(top, scaled)`` accumulations and concatenates their other records; the
    # ratio table is made once here, not once per merge.

    def __init__(self, log_means: np.ndarray) -> None:
        self.log_means = log_means
        self.ratio = _ratio_table(log_means)

    def __call__(self, left: dict[str, np.ndarray], right: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        _merge(left["top"], left["scaled"], right["top"], right["scaled"], self.log_means, self.ratio)
        for name in left:
            if name.startswith("record:"):
                left[name] = np.concatenate([left[name], right[name]])
        return left


def _episode_chunk(policy: Policy, instance: BanditInstance, horizon: int, seeds: list) -> dict[str, np.ndarray]:
    """Runs of an episodic ``policy`` folded piece by piece (:func:`_fold_pieces`); other records stacked."""
    log_means = instance.log_means
    ratio = _ratio_table(log_means)
    starts = np.zeros(1, dtype=np.int64)
    top = np.full(1, -1, dtype=np.int64)
    scaled = np.zeros(1)
    others: list[dict[str, np.ndarray]] = []
    for s in seeds:
        out = policy.run_episodes(instance, horizon, np.random.default_rng(s))
        episodes = out.pop("episodes")
        starts, top, scaled = _fold_pieces(
            starts, top, scaled, episodes[0], episodes[1], scaled, True, log_means, ratio
        )
        others.append(out)
    result = {"starts": starts, "top": top, "scaled": scaled}
    for name in others[0]:
        result[f"record:{name}"] = np.stack([o[name] for o in others])
    return result


class _MergePiecesFor(_MergeFor):
    """:class:`_MergeFor` for the piecewise-constant accumulations of :func:`_episode_chunk`."""

    def __call__(self, left: dict[str, np.ndarray], right: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        pieces = (left["starts"], left["top"], left["scaled"], right["starts"], right["top"], right["scaled"])
        left["starts"], left["top"], left["scaled"] = _fold_pieces(*pieces, False, self.log_means, self.ratio)
        for name in left:
            if name.startswith("record:"):
                left[name] = np.concatenate([left[name], right[name]])
        return left


def _check_at(at: Any, horizon: int) -> np.ndarray | None:
    """``at`` as a sorted array of distinct rounds in ``[1, horizon]`` (or ``None``)."""
    if at is None:
        return None
    rounds = np.asarray(at)
    if rounds.ndim != 1 or rounds.size == 0 or not np.issubdtype(rounds.dtype, np.integer):
        raise ValueError(f"at must be a non-empty 1-D sequence of integer rounds, got {at!r}")
    if rounds.min() < 1 or rounds.max() > horizon:
        raise ValueError(f"at must lie in [1, horizon={horizon}], got rounds from {rounds.min()} to {rounds.max()}")
    return np.unique(rounds.astype(np.int64))


def simulate_mean_rewards(
    policy: Policy,
    instance: BanditInstance,
    horizon: int,
    runs: int = 100,
    seed: int = 0,
    *,
    n_jobs: int | None = None,
    cache: bool = True,
    progress: bool | None = None,
    at: Any = None,
) -> MeanRewards:
    """The runs of :func:`simulate`, reduced on the fly to ``E[mu_{I_t}]`` per round: O(horizon) memory.

    The same runs as ``simulate(policy, instance, horizon, runs, seed)`` (run ``i`` uses
    ``default_rng(run_seeds(seed, runs)[i])``), but no ``(runs, horizon)`` array of arms is ever
    formed: each chunk of runs folds its arms into ``sum_runs mu_{I_t}``, kept as the largest pulled
    mean times a sum of ratios (a log-sum-exp that takes no exponential, so means that underflow, as
    in ``sarkar2026dpncb`` Figure 1(a), stay exact), and the chunks are merged in seed order
    (:func:`privbandits.engine.run_repetitions` with ``combine``). Nash and average regret at every
    round then cost O(horizon) (:mod:`privbandits.metrics`). The result equals the one computed from
    ``simulate``'s arms up to rounding (a different summation order: relative differences of order
    1e-16, see ``tests/test_metrics.py``).

    An :attr:`~privbandits.policies.base.Policy.episodic` policy (GDP-NCB, AdaP-UCB) gives its runs
    as episodes (:meth:`~privbandits.policies.base.Policy.run_episodes`), and the fold then works
    on piecewise-constant sequences: each piece of the common refinement of the runs' episodes gets
    the operation the per-round fold does on each of its rounds, so the result is the same, bit for
    bit, in O(runs x episodes) work (``tests/test_simulate_episodes.py``). With ``at``, the result
    is read at those rounds only: O(episodes + len(at)) memory, no ``(horizon,)`` array (800 MB at
    10^8); the running sums the metrics need are added round by round (the order of ``np.cumsum``,
    so the same numbers: O(horizon) additions, O(1) memory).

    Parameters
    ----------
    policy : Policy
        The algorithm (it must record ``arms``).
    instance : BanditInstance
        The bandit instance.
    horizon : int
        Rounds per run (at least ``policy.min_horizon(instance.n_arms)``).
    runs : int
        Number of independent runs (>= 1).
    seed : int
        Seed of the runs' generators (>= 0).
    n_jobs : int or None
        Workers (default :func:`privbandits.engine.default_n_jobs`; 1 for at most
        :data:`SMALL_SIMULATION` rounds in all).
    cache : bool
        Read and write the on-disk cache.
    progress : bool or None
        Show a progress bar.
    at : sequence of int or None
        Rounds (1-based, in ``[1, horizon]``) to read the result at (default: every round).

    Returns
    -------
    MeanRewards
        ``log E[mu_{I_t}]`` per round (or at the rounds ``at``) and the runs' other records.

    Raises
    ------
    ValueError
        As :func:`simulate`; also if the policy records no arm sequence, or ``at`` is not a
        non-empty sequence of integer rounds in ``[1, horizon]``.
    """
    horizon, runs, seed = _check_runs(policy, instance, horizon, runs, seed, need_arms=True)
    rounds = _check_at(at, horizon)
    episodic = policy.episodic
    n_jobs = _workers(n_jobs, runs, horizon)
    config = {
        "kind": "mean-rewards",
        "policy": policy.config(),
        "instance": instance.spec(),
        "horizon": horizon,
    }
    out = engine.run_repetitions(
        _episode_chunk if episodic else _mean_reward_chunk,
        (policy, instance, horizon),
        runs,
        seed,
        config=config,
        depends_on=(policy, instance),
        n_jobs=n_jobs,
        progress=progress,
        desc=policy.label,
        cache=cache,
        combine=(_MergePiecesFor if episodic else _MergeFor)(instance.log_means),
    )
    with np.errstate(divide="ignore"):
        log_mean = instance.log_means[out["top"]] + np.log(out["scaled"]) - np.log(runs)
    records = {name.removeprefix("record:"): value for name, value in out.items() if name.startswith("record:")}
    if not episodic:
        if rounds is None:
            return MeanRewards(policy, instance, horizon, runs, seed, log_mean, records)
        cum_log, cum = np.cumsum(log_mean)[rounds - 1], np.cumsum(np.exp(log_mean))[rounds - 1]
        return MeanRewards(policy, instance, horizon, runs, seed, log_mean[rounds - 1], records, rounds, cum_log, cum)
    starts = out["starts"]  # log_mean is per piece
    if rounds is None:
        log_mean = np.repeat(log_mean, np.diff(np.r_[starts, horizon]))
        return MeanRewards(policy, instance, horizon, runs, seed, log_mean, records)
    cum_log = _prefix_sums(starts, log_mean, horizon, rounds)
    cum = _prefix_sums(starts, np.exp(log_mean), horizon, rounds)
    at_value = log_mean[np.searchsorted(starts, rounds - 1, side="right") - 1]
    return MeanRewards(policy, instance, horizon, runs, seed, at_value, records, rounds, cum_log, cum)
