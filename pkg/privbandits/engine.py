"""The run engine: seeded repetitions (:func:`run_seeds`, independent of scheduling), in parallel, with a
progress bar (off if ``$PRIVBANDITS_PROGRESS=0``) and a disk cache.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from tqdm import TqdmWarning

with warnings.catch_warnings():  # a kernel without ipywidgets: tqdm.auto takes the text bar, and says so
    warnings.simplefilter("ignore", TqdmWarning)
    from tqdm.auto import tqdm

from . import cache as _cache
from ._validation import check_int

__all__ = ["cached", "default_n_jobs", "parallel_map", "progress_enabled", "run_repetitions", "run_seeds"]

Arrays = dict[str, np.ndarray]


def default_n_jobs() -> int:
    """The default number of workers: ``$PRIVBANDITS_N_JOBS``, else -1 (every core).

    Returns
    -------
    int
    """
    raw = os.environ.get("PRIVBANDITS_N_JOBS", "-1")
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value == 0:
        raise ValueError(f"PRIVBANDITS_N_JOBS must be a non-zero integer (joblib's n_jobs), got {raw!r}")
    return value


def progress_enabled(progress: bool | None) -> bool:
    """``progress`` if given, else on unless ``$PRIVBANDITS_PROGRESS=0``.

    Parameters
    ----------
    progress : bool or None

    Returns
    -------
    bool
    """
    if progress is not None:
        return bool(progress)
    return os.environ.get("PRIVBANDITS_PROGRESS", "1") != "0"


def run_seeds(seed: int, runs: int) -> list[np.random.SeedSequence]:
    """``SeedSequence(seed).spawn(runs)``: the seeds of runs ``0 .. runs-1``.

    Parameters
    ----------
    seed : int >= 0
    runs : int >= 1

    Returns
    -------
    list of numpy.random.SeedSequence
    """
    seed = check_int("seed", seed, minimum=0)
    runs = check_int("runs", runs, minimum=1)
    return np.random.SeedSequence(seed).spawn(runs)


def parallel_map(
    function: Callable[..., Any],
    tasks: Sequence[tuple],
    *,
    n_jobs: int | None = None,
    progress: bool | None = None,
    desc: str | None = None,
    weights: Sequence[int] | None = None,
) -> list[Any]:
    """``[function(*task) for task in tasks]`` in parallel (joblib threads by default), in order, with a progress bar.

    Parameters
    ----------
    function : callable
        Module-level (pickled when the backend runs processes).
    tasks : sequence of tuple
    n_jobs : int or None
        ``None``: :func:`default_n_jobs`; 1 runs in this thread.
    progress, desc, weights
        Bar on/off (:func:`progress_enabled`), label, progress units per task (``None``: 1 each).

    Returns
    -------
    list
    """
    return list(_ordered_outputs(function, tasks, n_jobs=n_jobs, progress=progress, desc=desc, weights=weights))


def _ordered_outputs(
    function: Callable[..., Any],
    tasks: Sequence[tuple],
    *,
    n_jobs: int | None,
    progress: bool | None,
    desc: str | None,
    weights: Sequence[int] | None,
) -> Iterable[Any]:
    """The outputs of :func:`parallel_map`, yielded in task order as they complete."""
    n_jobs = default_n_jobs() if n_jobs is None else check_int("n_jobs", n_jobs)
    if n_jobs == 0:
        raise ValueError("n_jobs must be a non-zero integer (joblib's n_jobs), got 0")
    tasks = list(tasks)
    weights = [1] * len(tasks) if weights is None else [int(w) for w in weights]
    if len(weights) != len(tasks):
        raise ValueError(f"weights must have one entry per task ({len(tasks)}), got {len(weights)}")
    with tqdm(total=sum(weights), desc=desc, disable=not progress_enabled(progress)) as bar:
        if n_jobs == 1 or len(tasks) <= 1:
            outputs: Iterable[Any] = (function(*task) for task in tasks)
        else:
            outputs = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(
                delayed(function)(*task) for task in tasks
            )
        for weight, output in zip(weights, outputs):
            bar.update(weight)
            yield output


def cached(
    config: dict[str, Any],
    compute: Callable[[], Arrays],
    *,
    depends_on: Iterable[Any] | None,
    cache: bool = True,
) -> Arrays:
    """``compute()`` (a dict of numpy arrays, no object arrays), stored on disk under ``config`` and its source.

    Computed once across processes (:func:`privbandits.cache.compute_once`): a process that needs
    the result while another computes it waits and loads it.

    Parameters
    ----------
    config : dict
        Everything that determines the result (JSON-able).
    compute : callable
    depends_on : iterable or None
        As for :func:`privbandits.cache.cache_key`.
    cache : bool
        ``False`` always computes.

    Returns
    -------
    dict of str to numpy.ndarray
    """
    if not cache:
        return compute()
    return _cache.compute_once(_cache.cache_key(config, depends_on), compute)


def _stack(outputs: list[Arrays]) -> Arrays:
    """The outputs' arrays concatenated along the first axis."""
    return {name: np.concatenate([out[name] for out in outputs]) for name in outputs[0]}


def run_repetitions(
    batch: Callable[..., Arrays],
    args: tuple,
    runs: int,
    seed: int,
    *,
    config: dict[str, Any] | None = None,
    depends_on: Iterable[Any] | None = None,
    n_jobs: int | None = None,
    progress: bool | None = None,
    desc: str | None = None,
    cache: bool = True,
    chunks: int = 32,
    combine: Callable[[Arrays, Arrays], Arrays] | None = None,
) -> Arrays:
    """``runs`` seeded repetitions of ``batch`` in at most ``chunks`` chunks, joined in seed order, cached.

    Parameters
    ----------
    batch : callable
        Module-level ``batch(*args, seeds) -> dict of arrays``, ``len(seeds)`` on the first axis.
    args : tuple
    runs, seed, chunks : int
        >= 1, >= 0, >= 1.
    config : dict or None
        The cache configuration (``runs``, ``seed`` and ``batch``'s name added); ``None``: no cache.
    depends_on, cache
        As for :func:`cached` (``batch``'s module added).
    n_jobs, progress, desc
        As for :func:`parallel_map`.
    combine : callable or None
        ``combine(left, right)`` folds chunks in seed order (``None``: concatenate).

    Returns
    -------
    dict of str to numpy.ndarray
    """
    seeds = run_seeds(seed, runs)
    chunks = check_int("chunks", chunks, minimum=1)

    def compute() -> Arrays:
        parts = [list(c) for c in np.array_split(np.array(seeds, dtype=object), min(runs, chunks))]
        outputs = _ordered_outputs(
            batch,
            [(*args, part) for part in parts],
            n_jobs=n_jobs,
            progress=progress,
            desc=desc,
            weights=[len(p) for p in parts],
        )
        if combine is None:
            return _stack(list(outputs))
        merged = None
        for output in outputs:
            merged = output if merged is None else combine(merged, output)
        return merged

    if config is None:
        return compute()
    modules = None
    if depends_on is not None:
        modules = list(depends_on)
        if _cache.belongs_to_package(batch):
            modules.append(batch)
    name = f"{getattr(batch, '__module__', '')}.{getattr(batch, '__qualname__', repr(batch))}"
    return cached({**config, "batch": name, "runs": runs, "seed": seed}, compute, depends_on=modules, cache=cache)
