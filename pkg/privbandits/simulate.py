"""Simulation of policies: independent seeded runs (:mod:`privbandits.engine`), in parallel, cached on disk."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import logsumexp

from . import cache as _cache
from . import engine, folding
from ._validation import check_int, check_memory
from .environments import BanditInstance, HiringEnvironment
from .policies.base import ContextualPolicy, Policy

__all__ = ["SimulationResult", "run_seeds", "simulate", "simulate_hiring", "simulate_mean_rewards"]

Arrays = dict[str, np.ndarray]
AnyPolicy = Policy | ContextualPolicy


def simulate(
    policy: AnyPolicy | Sequence[AnyPolicy],
    instance: BanditInstance | HiringEnvironment,
    horizon: int,
    runs: int = 100,
    seed: int = 0,
    *,
    n_jobs: int | None = None,
    cache: bool = True,
    progress: bool | None = None,
    keep: tuple[str, ...] | None = None,
) -> SimulationResult | list[SimulationResult]:
    """Run ``policy`` ``runs`` times for ``horizon`` rounds on ``instance``, cached under configuration and source.

    Several policies each get the runs they would get alone; settings that draw one stream run in lockstep.

    Parameters
    ----------
    policy : Policy, ContextualPolicy, or sequence of them
    instance : BanditInstance or HiringEnvironment
    horizon, runs, seed : int
        At least ``policy.min_horizon(K)``; >= 1; >= 0.
    n_jobs : int or None
        ``None``: :func:`privbandits.engine.default_n_jobs` (1 up to :data:`SMALL_SIMULATION` bandit rounds).
    cache : bool
    progress : bool or None
    keep : tuple of str or None
        The records to keep (``None``: all).

    Returns
    -------
    SimulationResult or list of SimulationResult
    """
    single = isinstance(policy, (Policy, ContextualPolicy))
    policies = [policy] if single else _policy_list(policy)
    horizon, runs, seed = _check_runs(policies, instance, horizon, runs, seed)
    keep = _check_keep(keep)
    _check_record_memory(policies, instance, horizon, runs, keep)
    n_jobs = _workers(n_jobs, runs, horizon, policies)
    options = {"keep": None if keep is None else list(keep)}
    keys = [
        _cache_key(_run_chunk, q, instance, horizon, runs, seed, **options) if cache else j
        for j, q in enumerate(policies)
    ]
    found: dict[Any, Arrays | None] = {}
    first: dict[Any, int] = {}  # equal settings (equal keys) run once
    for j, key in enumerate(keys):
        if key not in first:
            first[key] = j
            found[key] = _cache.load(key) if cache else None
    missing = [key for key in first if found[key] is None]
    while missing:  # computed once across processes: the keys another process computes are waited for
        claims = _claim_keys(missing, found) if cache else dict.fromkeys(missing)
        try:
            for members in _by_stream([first[key] for key in claims], policies, instance, horizon):
                group = [policies[j] for j in members]
                label = group[0].label if len(group) == 1 else f"{group[0].name} ({len(group)} settings)"
                args = (group, instance, horizon, keep)
                stacked = engine.run_repetitions(
                    _run_chunk, args, runs, seed, n_jobs=n_jobs, progress=progress, desc=label
                )
                for s, j in enumerate(members):
                    found[keys[j]] = {n.partition(":")[2]: v for n, v in stacked.items() if n.startswith(f"{s}:")}
                    if cache:
                        _cache.store(keys[j], found[keys[j]])
        finally:
            for held in claims.values():
                if held is not None:
                    held.release()
        missing = [key for key in missing if found[key] is None]
    results = [SimulationResult(q, instance, horizon, runs, seed, found[key]) for q, key in zip(policies, keys)]
    return results[0] if single else results


def simulate_hiring(
    policy: ContextualPolicy | Sequence[ContextualPolicy],
    env: HiringEnvironment,
    horizon: int,
    runs: int,
    seed: int = 0,
    *,
    n_jobs: int | None = None,
    progress: bool | None = None,
    use_cache: bool = True,
) -> Arrays | list[Arrays]:
    """``simulate(policy, env, horizon, runs, seed, cache=use_cache)`` for hiring policies (Part IV), as its records.

    Parameters
    ----------
    policy : HiringPolicy or sequence of HiringPolicy
        :class:`~privbandits.policies.fair_hiring.HiringPolicy` settings; those of one algorithm
        that draw one random stream run in lockstep, each its own run bit for bit.
    env : HiringEnvironment
    horizon, runs, seed, n_jobs, progress
        As for :func:`simulate`.
    use_cache : bool

    Returns
    -------
    dict of numpy.ndarray, or list of them
        Stacked ``fair_regret``, ``regret`` (shape ``(runs, horizon)``) and ``groups``.
    """
    out = simulate(policy, env, horizon, runs, seed, n_jobs=n_jobs, cache=use_cache, progress=progress)
    return [result.records for result in out] if isinstance(out, list) else out.records


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
) -> SimulationResult:
    """:func:`simulate`'s runs folded as made into ``E[mu_{I_t}]``, in O(horizon) memory (equal up to summation order).

    Parameters
    ----------
    policy : Policy
        One that records ``arms``.
    instance : BanditInstance
    horizon, runs, seed, n_jobs, cache, progress
        As for :func:`simulate`.
    at : sequence of int in [1, horizon] or None
        Rounds (1-based) to read at only (O(episodes + len(at)) memory if episodic).

    Returns
    -------
    SimulationResult
    """
    if not isinstance(policy, Policy):
        raise ValueError(f"policy must be a privbandits Policy, got {type(policy).__name__}")
    horizon, runs, seed = _check_runs([policy], instance, horizon, runs, seed)
    if not policy.records_arms:
        raise ValueError(f"{type(policy).__name__} records no arm sequence (records_arms is False)")
    rounds = _check_at(at, horizon)
    fold = _folded(policy, instance, horizon, runs, seed, n_jobs=n_jobs, cache=cache, progress=progress)
    log_mean, cum_log, cum = folding.read_fold(fold, instance.log_means, horizon, runs, rounds)
    records = {name.removeprefix("record:"): v for name, v in fold.items() if name.startswith("record:")}
    return SimulationResult(policy, instance, horizon, runs, seed, records, log_mean, rounds, cum_log, cum)


def _folded(
    policy: Policy,
    instance: BanditInstance,
    horizon: int,
    runs: int,
    seed: int,
    *,
    n_jobs: int | None = None,
    cache: bool = True,
    progress: bool | None = None,
) -> Arrays:
    """The cached fold behind :func:`simulate_mean_rewards` (and ``frontier.final_regrets``), its memory checked."""
    if not policy.episodic:  # a run's arms (int64), the fold's two per-round arrays and their merge
        check_memory(
            f"horizon={horizon} for {type(policy).__name__}",
            4 * 8 * horizon,
            "a policy that is not episodic folds every round of its runs; use a shorter horizon "
            "(an episodic policy, policy.episodic, folds its episodes only)",
        )

    def compute() -> Arrays:
        return engine.run_repetitions(
            folding.fold_runs,
            (policy, instance, horizon),
            runs,
            seed,
            n_jobs=_workers(n_jobs, runs, horizon, [policy]),
            progress=progress,
            desc=policy.label,
            combine=folding.MergeFolds(instance.log_means),
        )

    if cache:  # computed once across processes (cache.compute_once)
        return _cache.compute_once(_cache_key(folding.fold_runs, policy, instance, horizon, runs, seed), compute)
    return compute()


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Records of ``runs`` runs of ``policy`` on ``instance``, read by :mod:`privbandits.metrics`.

    Parameters
    ----------
    policy, instance, horizon, runs, seed
        As for :func:`simulate`.
    records : dict of str to numpy.ndarray
        Shape ``(runs, ...)`` each; ``"arms"`` is ``(runs, horizon)``.
    log_mean : numpy.ndarray or None
        ``log E[mu_{I_t}]`` per round or at ``at`` (``None``: from the arms).
    at : numpy.ndarray or None
        The only rounds (1-based, increasing) it can be evaluated at (``None``: every round).
    cum_log_mean, cum_mean : numpy.ndarray or None
        With ``at``: ``cumsum(log_mean)`` and ``cumsum(exp(log_mean))`` at ``at``.
    """

    policy: AnyPolicy
    instance: BanditInstance | HiringEnvironment
    horizon: int
    runs: int
    seed: int
    records: dict[str, np.ndarray]
    log_mean: np.ndarray | None = None
    at: np.ndarray | None = None
    cum_log_mean: np.ndarray | None = None
    cum_mean: np.ndarray | None = None

    @property
    def arms(self) -> np.ndarray:
        """Arm pulled at each round, shape ``(runs, horizon)``."""
        if "arms" not in self.records:
            raise ValueError(
                f"this result holds no arm sequence ({type(self.policy).__name__} does not record one, or "
                f"simulate(..., keep=...) or simulate_mean_rewards dropped it); records: {sorted(self.records)}"
            )
        return self.records["arms"]

    def expected_rewards(self) -> np.ndarray:
        """``mu_{I_t}``, the mean of the arm pulled, shape ``(runs, horizon)``.

        Returns
        -------
        numpy.ndarray
        """
        return self.instance.means[self.arms]

    def log_expected_rewards(self) -> np.ndarray:
        """``log mu_{I_t}``, exact where the mean underflows, shape ``(runs, horizon)``.

        Returns
        -------
        numpy.ndarray
        """
        return self.instance.log_means[self.arms]

    def log_mean_expected_rewards(self) -> np.ndarray:
        """``log E[mu_{I_t}]`` (average over runs) at every round or at ``at``.

        Returns
        -------
        numpy.ndarray
        """
        if self.log_mean is not None:
            return self.log_mean
        with np.errstate(divide="ignore"):
            return logsumexp(self.log_expected_rewards(), axis=0) - np.log(self.runs)

    def pull_counts(self) -> np.ndarray:
        """Pulls of each arm in each run, shape ``(runs, K)`` (a pure-exploration policy's ``"pulls"``).

        Returns
        -------
        numpy.ndarray
        """
        if "pulls" in self.records and "arms" not in self.records:
            return self.records["pulls"]
        k = self.instance.n_arms
        offsets = np.arange(self.runs)[:, None] * k
        return np.bincount((self.arms + offsets).ravel(), minlength=self.runs * k).reshape(self.runs, k)

    def rounds(self) -> np.ndarray:
        """The rounds (1-based) the result can be evaluated at: every round, or :attr:`at`.

        Returns
        -------
        numpy.ndarray
        """
        return np.arange(1, self.horizon + 1) if self.at is None else self.at

    def mean_reward(self, h: int) -> float:
        """``(1/h) sum_{t <= h} E[mu_{I_t}]``.

        Parameters
        ----------
        h : int
            A round of :meth:`rounds`.

        Returns
        -------
        float
        """
        if self.at is not None:  # the running sum (np.cumsum's order) where np.mean sums pairwise
            return float(self.cum_mean[self._index(h)] / h)
        if self.log_mean is not None:
            return float(np.mean(np.exp(self.log_mean[:h])))
        return float(self.expected_rewards()[:, :h].mean())

    def log_welfare(self, h: int) -> float:
        """``(1/h) sum_{t <= h} log E[mu_{I_t}]``, the log Nash social welfare (may be ``-inf``).

        Parameters
        ----------
        h : int
            A round of :meth:`rounds`.

        Returns
        -------
        float
        """
        if self.at is not None:
            return float(self.cum_log_mean[self._index(h)] / h)
        return float(np.mean(self.log_mean_expected_rewards()[:h]))

    def running_mean_reward(self) -> np.ndarray:
        """:meth:`mean_reward` at every round of :meth:`rounds`.

        Returns
        -------
        numpy.ndarray
        """
        if self.at is not None:
            return self.cum_mean / self.at
        mean = np.exp(self.log_mean_expected_rewards())
        return np.cumsum(mean) / np.arange(1, mean.size + 1)

    def running_log_welfare(self) -> np.ndarray:
        """:meth:`log_welfare` at every round of :meth:`rounds`.

        Returns
        -------
        numpy.ndarray
        """
        if self.at is not None:
            return self.cum_log_mean / self.at
        log_mean = self.log_mean_expected_rewards()
        with np.errstate(invalid="ignore"):
            return np.cumsum(log_mean) / np.arange(1, log_mean.size + 1)

    def _index(self, h: int) -> int:
        """Index of round ``h`` in :attr:`at`; ``ValueError`` if the result was not read there."""
        i = int(np.searchsorted(self.at, h))
        if i == self.at.size or self.at[i] != h:
            raise ValueError(
                f"horizon={h} is not one of the rounds the result was read at (simulate_mean_rewards(at=...))"
            )
        return i

    def __repr__(self) -> str:
        return (
            f"SimulationResult({self.policy.label}, {self.instance!r}, horizon={self.horizon}, "
            f"runs={self.runs}, seed={self.seed})"
        )


run_seeds = engine.run_seeds

#: Rounds (runs x horizon) up to which a bandit simulation with ``n_jobs=None`` runs in this thread
#: (a pool of workers costs tens of milliseconds, more than such a simulation takes).
SMALL_SIMULATION = 200_000
#: The engine's chunks of runs (:func:`privbandits.engine.run_repetitions`'s default), for the memory estimate
_CHUNKS = 32


def _cache_key(batch: Any, policy: AnyPolicy, env: Any, horizon: int, runs: int, seed: int, **options: Any) -> str:
    """The one cache key of ``runs`` runs of ``policy`` made by the engine batch ``batch``."""
    config = {
        "batch": f"{batch.__module__}.{batch.__qualname__}",
        "policy": policy.config(),
        "env": env.spec(),
        "horizon": horizon,
        "runs": runs,
        "seed": seed,
        **options,
    }
    return _cache.cache_key(config, depends_on=(policy, env, batch))


def _run_chunk(group: list, env: Any, horizon: int, keep: tuple[str, ...] | None, seeds: list) -> Arrays:
    """Runs of the policies of ``group``, one per seed, stacked per policy ``s`` as ``"<s>:<record>"``."""
    played = [_play(group, env, horizon, np.random.default_rng(s)) for s in seeds]
    out = {}
    for s, policy in enumerate(group):
        runs = [_kept(run[s], keep, policy) for run in played]
        for name in runs[0]:
            stacked = np.stack([run[name] for run in runs])
            if name == "arms":
                stacked = stacked.astype(np.int16 if env.n_arms < np.iinfo(np.int16).max else np.int32)
            out[f"{s}:{name}"] = stacked
    return out


def _play(group: list, env: Any, horizon: int, rng: np.random.Generator) -> list[dict[str, np.ndarray]]:
    """One run of each policy of ``group`` on ``rng``, by their class's ``run_together`` (alone, or in lockstep)."""
    return type(group[0]).run_together(group, env, horizon, rng)


def _stream(policy: AnyPolicy, env: Any, horizon: int, j: int) -> tuple:
    """Which policies may run together: equal ``stream`` of one class, else each alone (``j``)."""
    if hasattr(policy, "stream"):
        return (type(policy).__qualname__, *policy.stream(env, horizon))
    return ("alone", j)


def _kept(records: dict[str, np.ndarray], keep: tuple[str, ...] | None, policy: AnyPolicy) -> dict[str, np.ndarray]:
    """The records named in ``keep`` (all if ``None``)."""
    if keep is None:
        return records
    missing = set(keep) - set(records)
    if missing:
        raise ValueError(f"keep names records {sorted(missing)} that {type(policy).__name__} does not produce")
    return {name: records[name] for name in keep}


def _by_stream(indices: list[int], policies: list, env: Any, horizon: int) -> list[list[int]]:
    """The policies ``indices`` grouped by the random stream they draw (:func:`_stream`), in order."""
    todo: dict[tuple, list[int]] = {}
    for j in indices:
        todo.setdefault(_stream(policies[j], env, horizon, j), []).append(j)
    return list(todo.values())


def _claim_keys(missing: list[str], found: dict[Any, Arrays | None]) -> dict[str, Any]:
    """The missing keys to compute now, claimed (any held elsewhere and stored meanwhile go to ``found``)."""
    claims = {}
    for key in missing:
        held = _cache.claim(key)
        if held is None:
            continue
        found[key] = _cache.load(key)
        if found[key] is None:
            claims[key] = held
        else:
            held.release()
    unresolved = [key for key in missing if found[key] is None and key not in claims]
    if claims or not unresolved:
        return claims
    held = _cache.wait_for(unresolved[0])
    found[unresolved[0]] = _cache.load(unresolved[0])
    if found[unresolved[0]] is None:
        return {unresolved[0]: held}
    held.release()
    return {}


def _policy_list(policy: Any) -> list:
    """A sequence of policies as a non-empty list."""
    if isinstance(policy, (str, bytes)) or not isinstance(policy, Sequence) or not policy:
        raise ValueError(f"policy must be a privbandits policy or a non-empty sequence of them, got {policy!r}")
    return list(policy)


def _check_runs(policies: list, env: Any, horizon: int, runs: int, seed: int) -> tuple[int, int, int]:
    """The policies' kind of environment checked; ``horizon``, ``runs`` and ``seed`` validated."""
    minimum = 1
    for q in policies:
        if isinstance(q, Policy):
            if not isinstance(env, BanditInstance):
                raise ValueError(f"instance must be a BanditInstance, got {type(env).__name__}")
            minimum = max(minimum, q.min_horizon(env.n_arms))
        elif isinstance(q, ContextualPolicy):
            if not isinstance(env, HiringEnvironment):
                raise ValueError(f"instance must be a HiringEnvironment, got {type(env).__name__}")
        else:
            raise ValueError(f"policy must be a privbandits Policy or ContextualPolicy, got {type(q).__name__}")
    horizon = check_int("horizon", horizon, minimum=minimum)
    return horizon, check_int("runs", runs, minimum=1), check_int("seed", seed, minimum=0)


def _check_record_memory(policies: list, env: Any, horizon: int, runs: int, keep: tuple[str, ...] | None) -> None:
    """Refuse, before any run, arm records of ``runs x horizon`` rounds that cannot fit in memory."""
    # Their peak: one chunk of runs in flight (int64) next to the chunks made (int16 or int32), or the
    # chunks and their concatenation, whichever is larger.
    if not isinstance(env, BanditInstance):
        return
    itemsize = 2 if env.n_arms < np.iinfo(np.int16).max else 4
    in_flight = -(-runs // min(runs, _CHUNKS)) * 8
    kept = runs * itemsize if keep is None or "arms" in keep else 0
    per_round = sum(max(in_flight + kept, 2 * kept) for q in policies if isinstance(q, Policy) and q.records_arms)
    check_memory(
        f"horizon={horizon} with runs={runs}",
        per_round * horizon,
        "use fewer runs, keep=(...) without 'arms' to keep the other records only, or "
        "simulate_mean_rewards, which folds the runs into mean curves as it makes them (an episodic "
        "policy, policy.episodic, in memory of the order of its episodes)",
    )


def _check_keep(keep: Any) -> tuple[str, ...] | None:
    """``keep`` as a non-empty tuple of names (or ``None``)."""
    if keep is None:
        return None
    if (
        isinstance(keep, str)
        or not isinstance(keep, (tuple, list))
        or not keep
        or not all(isinstance(name, str) for name in keep)
    ):
        raise ValueError(f"keep must be a non-empty tuple of record names, got {keep!r}")
    return tuple(keep)


def _workers(n_jobs: int | None, runs: int, horizon: int, policies: list) -> int | None:
    """``n_jobs`` validated; ``None`` becomes 1 for a bandit simulation of at most :data:`SMALL_SIMULATION` rounds."""
    if n_jobs is not None:
        return check_int("n_jobs", n_jobs)
    small = runs * horizon <= SMALL_SIMULATION and all(isinstance(q, Policy) for q in policies)
    return 1 if small else None


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
