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
from scipy.special import logsumexp

from . import engine
from ._validation import check_int
from .environments import BanditInstance
from .policies.base import Policy

__all__ = ["SimulationResult", "simulate", "run_seeds"]


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
        or -1, every core). Threads are preferred; ``joblib.parallel_config`` can select another
        backend, e.g. a Dask cluster.
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
    if not isinstance(policy, Policy):
        raise ValueError(f"policy must be a privbandits Policy, got {type(policy).__name__}")
    if not isinstance(instance, BanditInstance):
        raise ValueError(f"instance must be a BanditInstance, got {type(instance).__name__}")
    horizon = check_int("horizon", horizon, minimum=policy.min_horizon(instance.n_arms))
    runs = check_int("runs", runs, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    if n_jobs is not None:
        n_jobs = check_int("n_jobs", n_jobs)
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
