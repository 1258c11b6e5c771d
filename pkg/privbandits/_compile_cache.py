"""A file lock around numba's on-disk cache of compiled kernels.

Every kernel of the package is ``@njit(cache=True)``: the first process that compiles it writes the
machine code next to the source (``__pycache__/<module>.<function>-<line>.py311.nbi`` for the index,
``...<n>.nbc`` for each compiled signature), and later processes load it. Several *processes* can
compile the same function at once on a cold cache: Dask workers (the engine on a cluster), a test run
beside a book build, two notebooks. (The engine's own workers are threads of one process, which
numba's compiler lock serialises.) numba 0.68's ``IndexDataCacheFile.save`` reads the index, picks a
data file name, writes the index, then the data, without a lock: when two processes compile
*different* signatures of one function (``dp_ncb._block`` has three, one per record layout), both read
the empty index, both choose data file 1, and the index that survives can name the other signature's
code. A later process then loads machine code compiled for other argument types: a crash or wrong
numbers (numba issue 10128 describes the race; ``tests/test_compile_cache.py`` reproduces it).

:func:`install` wraps ``save`` (read the index, write index and data) in an exclusive ``flock`` and
``load`` in a shared one, on a lock file next to the index, so that saves are serialised and a load
never sees an index whose data file is being written. It is installed when :mod:`privbandits` is
imported, which every worker does before it runs a kernel. Where ``fcntl`` is missing (Windows) or
the lock file cannot be created, the cache works as numba ships it.
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
    """Put the lock around numba's cache index (idempotent).

    Returns
    -------
    bool
        Whether the lock is in place (False where ``fcntl`` or numba's ``IndexDataCacheFile`` is missing).
    """
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
