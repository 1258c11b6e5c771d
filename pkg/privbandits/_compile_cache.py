"""A file lock around numba's on-disk cache of compiled kernels.

numba's ``IndexDataCacheFile.save`` writes its index unlocked, so two processes compiling one function
on a cold cache can leave an index naming the wrong machine code (numba issue 10128, reproduced in
``tests/test_compile_cache.py``). :func:`install` takes an exclusive ``flock`` around ``save`` and a
shared one around ``load`` (not on Windows).

Compiled once across processes: numba looks for a kernel in its disk cache only when the kernel is
first called, so processes that start together (the book build's parallel notebooks, the test
command's workers) on a cold cache each compile every kernel they share. :func:`install` also takes
an exclusive ``flock`` per cached function (``<index>.compile.lock``) around ``Dispatcher.compile``:
the first process compiles and saves, the others wait, then load its machine code from the cache.
The lock is taken under numba's own (re-entrant) compiler lock, so threads of one process keep
numba's order; a lock held longer than :data:`COMPILE_WAIT` (a holder alive but stuck) is given up
and the kernel compiled anyway; the operating system releases the lock of a process that ends.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from typing import Any

try:  # POSIX only
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def _locked(method: Callable[..., Any], mode: int) -> Callable[..., Any]:
    """``method`` run under ``flock(mode)`` on a lock file next to the cache index."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any) -> Any:
        try:
            fd = os.open(self._index_path + ".lock", os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:  # read-only cache directory: numba's own behaviour
            return method(self, *args)
        try:
            fcntl.flock(fd, mode)
            return method(self, *args)
        finally:
            os.close(fd)  # closing the descriptor releases the lock

    wrapper._privbandits_locked = True  # type: ignore[attr-defined]
    return wrapper


#: Seconds a process waits for another one compiling the same kernel before compiling it itself.
COMPILE_WAIT = 600.0


def _take(fd: int, wait: float) -> bool:
    """``flock(LOCK_EX)`` on ``fd``, trying for up to ``wait`` seconds; whether it was taken."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        except OSError:  # a file system without flock
            return False


def _compiled_once(compile_: Callable[..., Any]) -> Callable[..., Any]:
    """``Dispatcher.compile`` run under a per-function file lock when the function has a disk cache."""
    from numba.core.compiler_lock import global_compiler_lock

    @functools.wraps(compile_)
    def wrapper(self: Any, sig: Any) -> Any:
        index = getattr(getattr(getattr(self, "_cache", None), "_cache_file", None), "_index_path", None)
        if index is None:  # no disk cache (cache=False): nothing another process could share
            return compile_(self, sig)
        with global_compiler_lock:
            try:
                fd = os.open(index + ".compile.lock", os.O_RDWR | os.O_CREAT, 0o666)
            except OSError:  # read-only cache directory
                return compile_(self, sig)
            try:
                _take(fd, COMPILE_WAIT)  # taken or not, compile (or load what the holder saved)
                return compile_(self, sig)
            finally:
                os.close(fd)

    wrapper._privbandits_locked = True  # type: ignore[attr-defined]
    return wrapper


def install() -> bool:
    """Put the locks around numba's cache index and its compilations (idempotent); return whether they are in place."""
    if fcntl is None:  # pragma: no cover - Windows
        return False
    try:
        from numba.core.caching import IndexDataCacheFile
    except ImportError:  # pragma: no cover - a numba without this class
        return False
    if not all(hasattr(IndexDataCacheFile, name) for name in ("save", "load", "_load_index")):
        return False  # pragma: no cover - a numba whose cache works differently
    if not getattr(IndexDataCacheFile.save, "_privbandits_locked", False):
        IndexDataCacheFile.save = _locked(IndexDataCacheFile.save, fcntl.LOCK_EX)
        IndexDataCacheFile.load = _locked(IndexDataCacheFile.load, fcntl.LOCK_SH)
    from numba.core.dispatcher import Dispatcher

    if not getattr(Dispatcher.compile, "_privbandits_locked", False):
        Dispatcher.compile = _compiled_once(Dispatcher.compile)
    return True
