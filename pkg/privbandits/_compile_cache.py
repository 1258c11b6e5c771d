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

Stale machine code: numba stamps a kernel's cache with a hash of the kernel's own source file only, so a
kernel that inlines or calls a function of another file (every policy's kernel calls
``environments.draw_reward``) kept the machine code compiled from that file's old version after it was
edited, and a warm cache went on computing the old numbers under a result cache key made from the new
source. :func:`install` adds to the stamp of every kernel in a tracked folder (:data:`TRACKED`: this
package) a hash of every ``.py`` file in that folder, so an edit anywhere in the package recompiles its
kernels, as it already recomputes its cached results (``tests/test_compile_cache.py``).
"""

from __future__ import annotations

import functools
import hashlib
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


#: Folders whose kernels are stamped with every ``.py`` file of the folder (see the module's docstring).
TRACKED: list[str] = [os.path.dirname(os.path.abspath(__file__))]


@functools.cache
def _tree_digest(root: str) -> bytes:
    """SHA-256 of the relative path and bytes of every ``.py`` file under ``root``, sorted (once per process)."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                digest.update(os.path.relpath(path, root).encode() + b"\0")
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.digest()


def _stamped_with_tree(get_source_stamp: Callable[..., Any]) -> Callable[..., Any]:
    """``get_source_stamp`` of numba's cache locators, plus :func:`_tree_digest` for a file in a tracked folder."""

    @functools.wraps(get_source_stamp)
    def wrapper(self: Any) -> Any:
        stamp = get_source_stamp(self)
        path = os.path.abspath(getattr(self, "_py_file", ""))
        for root in TRACKED:
            if path.startswith(root + os.sep):
                return stamp, _tree_digest(root)
        return stamp

    wrapper._privbandits_locked = True  # type: ignore[attr-defined]
    return wrapper


def install() -> bool:
    """Put the package-wide stamp and the locks on numba's kernel cache (idempotent); whether the locks are in place."""
    _stamp_tracked_folders()
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


def _stamp_tracked_folders() -> None:
    """Put :func:`_stamped_with_tree` on numba's source-file cache locators (idempotent; any platform)."""
    try:
        from numba.core.caching import _SourceFileBackedLocatorMixin
    except ImportError:  # pragma: no cover - a numba whose cache works differently
        return
    if not getattr(_SourceFileBackedLocatorMixin.get_source_stamp, "_privbandits_locked", False):
        mixin = _SourceFileBackedLocatorMixin
        mixin.get_source_stamp = _stamped_with_tree(mixin.get_source_stamp)  # type: ignore[method-assign]
