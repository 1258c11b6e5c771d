"""The run engine: seeded repetitions of a compiled kernel, in parallel, with a progress bar and a cache.

Everything in the package that repeats a randomised computation goes through this module:
:func:`~privbandits.simulate.simulate`, the fair-hiring trials of Part IV, the auditor's pairs and
the chapters' summary caches. It provides three pieces that compose:

* :func:`run_seeds`: repetition ``i`` of a computation seeded ``seed`` uses the generator
  ``default_rng(SeedSequence(seed).spawn(runs)[i])``, so a result never depends on how repetitions
  are grouped or scheduled.
* :func:`parallel_map`: ordered map over tasks with joblib (threads by default: the numba kernels
  release the GIL) and a tqdm bar. Any joblib backend can run it: inside
  ``joblib.parallel_config(backend="dask")`` the tasks go to a Dask cluster (they are pickled, so
  they must be module-level functions and picklable arguments; closures travel by cloudpickle).
* :func:`cached`: a computation stored on disk under its configuration and the source of the
  package modules it depends on (:func:`privbandits.cache.cache_key`).

:func:`run_repetitions` is the three together: ``runs`` seeded repetitions of a batch function,
cut into chunks that run in parallel, stacked in seed order, cached.

Environment: ``$PRIVBANDITS_N_JOBS`` (default -1, every core) is the one default for ``n_jobs``;
``$PRIVBANDITS_PROGRESS=0`` turns progress bars off.

Progress bars are tqdm's: a widget in a Jupyter kernel that has ``ipywidgets``, text on stderr
elsewhere (a terminal, or a kernel without ``ipywidgets``, where tqdm's warning about the missing
widgets is silenced: the text bar is the intended fallback). The book build removes both kinds
from its pages (``_ext/execute_in_parallel.py`` and ``execute: stderr_output: remove``).
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
    """The engine's one default number of workers: ``$PRIVBANDITS_N_JOBS``, else -1 (every core).

    Returns
    -------
    int
        A joblib ``n_jobs`` value.

    Raises
    ------
    ValueError
        If ``$PRIVBANDITS_N_JOBS`` is not an integer other than 0.
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
    """Whether to show a progress bar: ``progress`` if given, else on unless ``$PRIVBANDITS_PROGRESS=0``.

    Parameters
    ----------
    progress : bool or None
        The caller's choice.

    Returns
    -------
    bool
        The decision.
    """
    if progress is not None:
        return bool(progress)
    return os.environ.get("PRIVBANDITS_PROGRESS", "1") != "0"


def run_seeds(seed: int, runs: int) -> list[np.random.SeedSequence]:
    """The independent seed sequences of runs ``0 .. runs-1``: ``SeedSequence(seed).spawn(runs)``.

    Parameters
    ----------
    seed : int
        The seed of the whole computation (>= 0).
    runs : int
        Number of runs (>= 1).

    Returns
    -------
    list of numpy.random.SeedSequence
        One per run; run ``i`` uses ``numpy.random.default_rng(seeds[i])``.

    Raises
    ------
    ValueError
        If ``seed`` < 0 or ``runs`` < 1.
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
    """``[function(*task) for task in tasks]``, in parallel, in order, with a progress bar.

    Parameters
    ----------
    function : callable
        A module-level function (it is pickled when the backend runs processes or a cluster).
    tasks : sequence of tuple
        The argument tuples.
    n_jobs : int or None
        joblib workers (default :func:`default_n_jobs`); 1 runs in this thread without joblib.
        Threads are preferred; a backend set with ``joblib.parallel_config`` (e.g. ``"dask"``) wins.
    progress : bool or None
        Show a tqdm bar (see :func:`progress_enabled`).
    desc : str or None
        The bar's label.
    weights : sequence of int or None
        Progress units per task (e.g. runs per chunk; default 1 each).

    Returns
    -------
    list
        The results, in the order of ``tasks``.

    Raises
    ------
    ValueError
        If ``n_jobs`` is 0 or not an integer, or ``weights`` has the wrong length.
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
    """``compute()``, stored on disk under ``config`` and the source of the modules it depends on.

    Parameters
    ----------
    config : dict
        Everything that determines the result (JSON-able).
    compute : callable
        Returns a dict of numpy arrays (no object arrays).
    depends_on : iterable or None
        Package modules, or objects defined in them (a policy, an environment, a kernel), whose
        source (with everything they import) determines the result; ``None``: the whole package.
        See :func:`privbandits.cache.cache_key`.
    cache : bool
        Read and write the disk cache; ``False`` always computes.

    Returns
    -------
    dict of str to numpy.ndarray
        The stored or computed arrays.
    """
    if not cache:
        return compute()
    key = _cache.cache_key(config, depends_on)
    hit = _cache.load(key)
    if hit is None:
        hit = compute()
        _cache.store(key, hit)
    return hit


def _stack(outputs: list[Arrays]) -> Arrays:
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
    """``runs`` seeded repetitions of a batch function, in parallel chunks, stacked, cached.

    ``batch(*args, seeds)`` plays one repetition per seed sequence of ``seeds`` (run ``i`` with
    ``default_rng(seeds[i])``; a compiled kernel may loop over them itself) and returns a dict of
    arrays whose first axis has ``len(seeds)`` entries. The seeds are ``run_seeds(seed, runs)``, cut
    into at most ``chunks`` contiguous chunks run by :func:`parallel_map`; the chunks' outputs are
    concatenated in seed order, so the result is the same for every ``n_jobs``, chunking and backend.

    Parameters
    ----------
    batch : callable
        Module-level function ``batch(*args, seeds) -> dict of arrays``.
    args : tuple
        Its leading arguments (picklable).
    runs : int
        Number of repetitions (>= 1).
    seed : int
        Seed of the repetitions (>= 0).
    config : dict or None
        The result's cache configuration; ``None`` does not cache. ``runs`` and ``seed`` are added.
    depends_on : iterable or None
        Modules the result depends on (see :func:`cached`), ``batch``'s own module added when it is
        one of the package's; ``None``: the whole package. ``batch``'s name is part of the key.
    n_jobs : int or None
        Workers (default :func:`default_n_jobs`).
    progress : bool or None
        Show a progress bar counting repetitions.
    desc : str or None
        The bar's label.
    cache : bool
        Use the disk cache (when ``config`` is given).
    chunks : int
        Upper bound on the number of parallel tasks (>= 1).
    combine : callable or None
        ``combine(left, right)`` merges two chunks' outputs (e.g. sums over runs); the chunks are
        then folded in seed order as they complete, so memory holds one merged result instead of
        every run's arrays. Default: concatenate along the first axis. The chunking depends on
        ``runs`` and ``chunks`` only, so a fold gives the same bits for every ``n_jobs`` and backend.

    Returns
    -------
    dict of str to numpy.ndarray
        Every output array with ``runs`` entries on its first axis (or the fold of ``combine``).

    Raises
    ------
    ValueError
        If ``runs``, ``seed``, ``n_jobs`` or ``chunks`` is out of range.
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
