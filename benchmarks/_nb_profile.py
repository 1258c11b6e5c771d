"""Kernel side of ``profile_notebooks.py``: CPU seconds by kind of work inside one notebook's kernel.

Imported by a cell the harness puts first (:func:`start`); a cell it puts last writes the record
(:func:`dump`). Work is attributed to the innermost running kind (exclusive CPU time of the thread
that runs it, ``time.thread_time``): ``compile`` (numba's ``numba:compile`` events: a kernel
compiled because numba's cache did not hold it), ``numba cache load``, ``audit`` (the auditor's
sampling and event search, :func:`privbandits.audit.audit`), ``simulation`` (the engine's
``run_repetitions``/``parallel_map`` outside an audit), ``cache I/O`` (``cache.load``/``store``),
``plotting`` (``privbandits.plotting`` and matplotlib's rendering, ``print_figure``), ``imports``
(numpy, scipy, matplotlib, numba, pandas and the package, imported by :func:`start`). The rest of
the process's CPU time is ``other`` (the chapter's own Python, tables, glue, threads not covered).
Not a public tool: a measuring aid for benchmarks/README.md ("Issue 37").
"""

from __future__ import annotations

import functools
import json
import resource
import threading
import time
from typing import Any

_local = threading.local()
_totals: dict[str, float] = {}
_compiles: list[dict[str, Any]] = []
_keys: dict[str, dict[str, Any]] = {}
_cells: list[dict[str, Any]] = []
_start: dict[str, float] = {}
_lock = threading.Lock()
_last_store = [0.0]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _stack() -> list:
    if not hasattr(_local, "stack"):
        _local.stack = []
    return _local.stack


def _push(kind: str) -> None:
    if kind == "simulation" and any(frame[0] == "audit" for frame in _stack()):
        kind = "audit"  # the auditor runs its samplers through the engine
    _stack().append([kind, time.thread_time(), 0.0])


def _pop() -> float:
    kind, t0, children = _stack().pop()
    inclusive = time.thread_time() - t0
    with _lock:
        _totals[kind] = _totals.get(kind, 0.0) + inclusive - children
    if _stack():
        _stack()[-1][2] += inclusive
    return inclusive


def _wrap(function, kind: str):
    if getattr(function, "_nb_profile", False):
        return function

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        _push(kind)
        try:
            return function(*args, **kwargs)
        finally:
            _pop()

    wrapper._nb_profile = True
    return wrapper


def _patch_everywhere(module, name: str, kind: str, replacement=None) -> None:
    """Replace ``module.name`` in every loaded privbandits module that holds the same object."""
    import sys

    original = getattr(module, name)
    new = replacement or _wrap(original, kind)
    for mod_name, mod in list(sys.modules.items()):
        if mod is None or not (mod_name == "privbandits" or mod_name.startswith("privbandits.")):
            continue
        for attr, value in list(vars(mod).items()):
            if value is original:
                setattr(mod, attr, new)


def _compile_listener():
    """A numba listener: ``numba:compile`` events as a ``compile`` kind, each top-level kernel's CPU time."""
    from numba.core.event import Listener

    class CompileListener(Listener):
        def on_start(self, event) -> None:
            _push("compile")

        def on_end(self, event) -> None:
            depth = sum(1 for frame in _stack() if frame[0] == "compile")
            seconds = _pop()
            if depth == 1:
                dispatcher = event.data["dispatcher"]
                py = getattr(dispatcher, "py_func", None)
                name = f"{getattr(py, '__module__', '?')}.{getattr(py, '__qualname__', '?')}"
                with _lock:
                    _compiles.append({"kernel": name, "args": str(event.data.get("args")), "cpu": seconds})

    return CompileListener()


def start() -> None:
    """Record the kernel's start-up CPU, import the heavy modules (timed), install the probes."""
    _start["startup_cpu"] = _cpu()
    _start["wall"] = time.time()
    t0 = _cpu()
    import matplotlib.pyplot  # noqa: F401
    import numba  # noqa: F401
    import numpy  # noqa: F401
    import pandas  # noqa: F401
    import scipy.stats  # noqa: F401

    import privbandits  # noqa: F401
    import privbandits.audit
    import privbandits.cache
    import privbandits.engine
    import privbandits.frontier  # noqa: F401
    import privbandits.plotting
    import privbandits.simulate  # noqa: F401

    _totals["imports"] = _cpu() - t0
    from matplotlib.backend_bases import FigureCanvasBase
    from numba.core import caching, event

    event.register("numba:compile", _compile_listener())
    caching.Cache.load_overload = _wrap(caching.Cache.load_overload, "numba cache load")
    FigureCanvasBase.print_figure = _wrap(FigureCanvasBase.print_figure, "plotting")
    for name in [n for n in vars(privbandits.plotting) if not n.startswith("_")]:
        value = getattr(privbandits.plotting, name)
        ours = getattr(value, "__module__", "") == "privbandits.plotting"
        if callable(value) and ours and not isinstance(value, type):
            _patch_everywhere(privbandits.plotting, name, "plotting")
    _patch_everywhere(privbandits.audit, "audit", "audit")
    _patch_everywhere(privbandits.engine, "run_repetitions", "simulation")
    _patch_everywhere(privbandits.engine, "parallel_map", "simulation")
    _patch_cache(privbandits.cache)
    _start["probes_cpu"] = _cpu()
    ip = get_ipython()  # noqa: F821 - in the kernel
    ip.events.register("pre_run_cell", _pre_cell)
    ip.events.register("post_run_cell", _post_cell)


def _patch_cache(cache) -> None:
    key_of, load, store = cache.cache_key, cache.load, cache.store

    def cache_key(config, depends_on=None):
        key = key_of(config, depends_on)
        with _lock:
            _keys.setdefault(key, {"config": json.dumps(config, sort_keys=True, default=str)[:400]})
        return key

    def load_(key):
        _push("cache I/O")
        try:
            hit = load(key)
        finally:
            _pop()
        with _lock:
            entry = _keys.setdefault(key, {})
            entry.setdefault("loads", []).append("hit" if hit is not None else "miss")
            if hit is None:
                entry.setdefault("miss_cpu", _cpu())
        return hit

    def store_(key, arrays):
        now = _cpu()
        with _lock:
            entry = _keys.setdefault(key, {})
            since = max(entry.get("miss_cpu", now), _last_store[0])
            entry["compute_cpu"] = now - since
            entry["stored"] = True
        _push("cache I/O")
        try:
            return store(key, arrays)
        finally:
            _pop()
            _last_store[0] = _cpu()

    cache.cache_key, cache.load, cache.store = cache_key, load_, store_


def _pre_cell(info) -> None:
    _cells.append(
        {
            "cell": len(_cells),
            "first_line": (info.raw_cell.strip().splitlines() or [""])[0][:80],
            "cpu0": _cpu(),
            "wall0": time.time(),
        }
    )


def _post_cell(result) -> None:
    cell = _cells[-1]
    cell["cpu"] = _cpu() - cell.pop("cpu0")
    cell["wall"] = time.time() - cell.pop("wall0")


def dump(path: str) -> None:
    """Write the record (JSON) to ``path``."""
    total = _cpu()
    kinds = dict(_totals)
    kinds["kernel start-up"] = _start["startup_cpu"]
    kinds["other"] = total - sum(kinds.values())
    record = {
        "total_cpu": total,
        "wall_in_kernel": time.time() - _start["wall"],
        "kinds": kinds,
        "compiles": _compiles,
        "keys": _keys,
        "cells": _cells,
    }
    with open(path, "w") as f:
        json.dump(record, f, indent=1)
