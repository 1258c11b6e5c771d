"""A file lock around numba's on-disk cache of compiled kernels.

numba's ``IndexDataCacheFile.save`` writes its index unlocked, so two processes compiling one function
on a cold cache can leave an index naming the wrong machine code (numba issue 10128, reproduced in
``tests/test_compile_cache.py``). :func:`install` takes an exclusive ``flock`` around ``save`` and a
shared one around ``load`` (not on Windows).
"""

from __future__ import annotations

import functools
import os
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


def install() -> bool:
    """Put the lock around numba's cache index (idempotent); return whether it is in place."""
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
    return True
