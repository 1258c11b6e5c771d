"""The simulation engine: independent seeded runs of a policy, in parallel, cached on disk.

Run ``i`` of ``simulate(policy, instance, horizon, runs, seed)`` always uses the Generator built from
``SeedSequence(seed).spawn(runs)[i]``, so results do not depend on ``n_jobs`` or on how runs are
grouped. Runs are executed by joblib (threads by default: the numba kernels release the GIL; any
joblib backend, e.g. a Dask cluster through ``joblib.parallel_config(backend="dask")``, can be used)
with a tqdm progress bar, and the stacked records are cached (see :mod:`privbandits.cache`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from scipy.special import logsumexp
from tqdm import tqdm

from . import cache as _cache
from ._validation import check_int
from .environments import BanditInstance
from .policies.base import Policy, Records

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


def run_seeds(seed: int, runs: int) -> list[np.random.SeedSequence]:
    """The independent seed sequences of runs ``0 .. runs-1``: ``SeedSequence(seed).spawn(runs)``.

    Parameters
    ----------
    seed : int
        The seed of the whole simulation.
    runs : int
        Number of runs.

    Returns
    -------
    list of numpy.random.SeedSequence
        One per run; run ``i`` uses ``numpy.random.default_rng(seeds[i])``.
    """
    return np.random.SeedSequence(seed).spawn(runs)


def _run_chunk(
    policy: Policy, instance: BanditInstance, horizon: int, seeds: list, keep: tuple[str, ...] | None
) -> list[Records]:
    outputs = []
    for s in seeds:
        out = policy.run(instance, horizon, np.random.default_rng(s))
        if keep is not None:
            missing = set(keep) - set(out)
            if missing:
                raise ValueError(f"records {sorted(missing)} are not produced by {type(policy).__name__}")
            out = {name: out[name] for name in keep}
        outputs.append(out)
    return outputs


def _stack(outputs: list[Records], n_arms: int) -> dict[str, np.ndarray]:
    stacked = {name: np.stack([out[name] for out in outputs]) for name in outputs[0]}
    if "arms" in stacked:
        arm_dtype = np.int16 if n_arms < np.iinfo(np.int16).max else np.int32
        stacked["arms"] = stacked["arms"].astype(arm_dtype)
    return stacked


def _default_n_jobs() -> int:
    return int(os.environ.get("PRIVBANDITS_N_JOBS", "-1"))


def _progress_enabled(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return os.environ.get("PRIVBANDITS_PROGRESS", "1") != "0"


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
    not depend on ``n_jobs``; results are cached on disk by configuration and package source.

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
        joblib workers (default ``$PRIVBANDITS_N_JOBS`` or -1, all cores). Threads are preferred.
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
    n_jobs = _default_n_jobs() if n_jobs is None else check_int("n_jobs", n_jobs)
    if keep is not None:
        if isinstance(keep, str) or not all(isinstance(name, str) for name in keep) or not keep:
            raise ValueError(f"keep must be a non-empty tuple of record names, got {keep!r}")
        keep = tuple(keep)

    config: dict[str, Any] = {
        "kind": "bandit-simulation",
        "policy": policy.config(),
        "instance": instance.spec(),
        "horizon": horizon,
        "runs": runs,
        "seed": seed,
        "keep": None if keep is None else list(keep),
    }
    key = _cache.cache_key(config)
    records = _cache.load(key) if cache else None
    if records is None:
        seeds = run_seeds(seed, runs)
        n_chunks = min(runs, 32)
        chunks = [list(c) for c in np.array_split(np.array(seeds, dtype=object), n_chunks)]
        outputs: list[Records] = []
        with tqdm(total=runs, desc=policy.label, unit="run", disable=not _progress_enabled(progress)) as bar:
            if n_jobs == 1:
                for chunk in chunks:
                    outputs.extend(_run_chunk(policy, instance, horizon, chunk, keep))
                    bar.update(len(chunk))
            else:
                parallel = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")
                for chunk_out in parallel(delayed(_run_chunk)(policy, instance, horizon, c, keep) for c in chunks):
                    outputs.extend(chunk_out)
                    bar.update(len(chunk_out))
        records = _stack(outputs, instance.n_arms)
        if cache:
            _cache.store(key, records)
    return SimulationResult(policy, instance, horizon, runs, seed, records)
