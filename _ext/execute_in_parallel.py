"""Execute the book's notebooks several at a time, before Sphinx reads them one by one.

myst-nb executes each notebook when Sphinx reads it, so a build runs one notebook at a time and,
on a 2-core machine, leaves a core idle whenever a chapter is in serial code (plotting, numba's
compilation, the chapter's own Python). With ``execute_notebooks: cache`` (``_config.yml``) this
extension executes every notebook Sphinx is about to read, ``execution_processes`` at a time,
before reading starts (the ``env-before-read-docs`` event), and stores each executed notebook in
myst-nb's jupyter-cache. myst-nb then finds every notebook in the cache and renders it.

Nothing is skipped: every notebook Sphinx reads is executed on this build, whatever the cache
holds (as ``execute_notebooks: force`` does), because a notebook's outputs also depend on the
package, which jupyter-cache does not hash. A notebook whose execution fails is not stored, so
myst-nb executes it again while reading and reports the error as it always does (with
``raise_on_error``, the build fails).

Set ``execution_processes: 1`` (``sphinx: config:`` in ``_config.yml``) to execute one notebook at
a time; the default is one more than the number of CPUs. ``execution_first`` lists the documents to
start first on a cold build (the longest: a short one started last finishes with the rest).

A page is a static document: an executed notebook is stored without its widget outputs (a progress
bar drawn by ``tqdm.auto`` when ``ipywidgets`` is installed) and without the widget state, so that
no page embeds a widget or loads the scripts that render one (myst-nb adds ``require.js`` and the
ipywidgets HTML manager from CDNs to any page whose notebook carries widget state). Progress bars
still show in a terminal and in live Jupyter; text bars go to stderr, which the book removes.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import nbformat
from sphinx.util import logging

logger = logging.getLogger(__name__)


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def strip_widgets(nb) -> int:
    """Remove every output that shows a widget, and the notebook's widget state; return how many outputs."""
    removed = 0
    for cell in nb.cells:
        outputs = cell.get("outputs")
        if outputs:
            kept = [out for out in outputs if WIDGET_VIEW not in out.get("data", {})]
            removed += len(outputs) - len(kept)
            cell["outputs"] = kept
    nb.metadata.pop("widgets", None)
    return removed


def _execute(path: str, timeout: int | None, allow_errors: bool) -> tuple[str, dict, float, str | None]:
    """Execute one notebook in its own folder, as myst-nb does; runs in a worker process."""
    from jupyter_cache.executors.utils import single_nb_execution

    nb = nbformat.read(path, as_version=4)
    result = single_nb_execution(
        nb, cwd=str(Path(path).parent), timeout=timeout, allow_errors=allow_errors, meta_override=True
    )
    strip_widgets(nb)
    return path, nb, result.time, result.exc_string if result.err is not None else None


def _previous_runtimes(cache) -> dict[str, float]:
    """Each notebook's last execution time in the cache (to start the longest first)."""
    times: dict[str, float] = {}
    for record in cache.list_cache_records():
        seconds = (record.data or {}).get("execution_seconds")
        if seconds is not None:
            times[record.uri] = float(seconds)
    return times


def execute_notebooks(app, env, docnames: list[str]) -> None:
    """Execute the notebooks among ``docnames`` in parallel and store them in myst-nb's cache."""
    config = env.mystnb_config  # myst-nb's settings, with its resolved cache path
    if config.execution_mode != "cache" or not docnames:
        return
    paths = [str(env.doc2path(d)) for d in docnames if str(env.doc2path(d)).endswith(".ipynb")]
    paths = [p for p in paths if not any(Path(p).match(pattern) for pattern in config.execution_excludepatterns)]
    if not paths:
        return
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(config.execution_cache_path)
    previous = _previous_runtimes(cache)
    # Longest first, so that the short ones fill the end: by the last build's times if the cache has
    # them all; on a cold build, the notebooks named in `execution_first` (in that order), then the
    # rest by file size (the chapters before the labs).
    if all(p in previous for p in paths):
        paths.sort(key=lambda p: -previous[p])
    else:
        first = [str(env.doc2path(d)) for d in app.config.execution_first]
        paths.sort(key=lambda p: (first.index(p) if p in first else len(first), -Path(p).stat().st_size))
    # One more notebook than CPUs: each notebook spends part of its time in serial code (plotting,
    # numba compiling), and the extra one keeps the cores busy then (benchmarks/README.md).
    processes = max(1, min(int(app.config.execution_processes or (os.cpu_count() or 1) + 1), len(paths)))
    logger.info(f"executing {len(paths)} notebooks, {processes} at a time")
    start = time.perf_counter()
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no state forked from Sphinx
    with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        futures = {pool.submit(_execute, p, config.execution_timeout, config.execution_allow_errors): p for p in paths}
        for future in as_completed(futures):
            try:
                path, nb, seconds, error = future.result()
            except Exception as exc:  # e.g. a kernel that died: myst-nb's own execution reports it
                path, error = futures[future], repr(exc)
            if error is not None:  # myst-nb executes it again while reading and reports the error
                logger.info(f"{path}: execution failed; it is executed again while it is read")
                continue
            cache.cache_notebook_bundle(
                CacheBundleIn(nb, path, data={"execution_seconds": seconds}), check_validity=False, overwrite=True
            )
            logger.info(f"{path}: Executed notebook in {seconds:.2f} seconds")
    logger.info(f"executed {len(paths)} notebooks in {time.perf_counter() - start:.1f} s of wall time")


def setup(app):
    """Register the config value and the hook."""
    app.add_config_value("execution_processes", 0, "env")
    app.add_config_value("execution_first", [], "env")
    app.connect("env-before-read-docs", execute_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
