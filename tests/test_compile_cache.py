"""numba's on-disk kernel cache under concurrent workers (privbandits._compile_cache).

Two processes compile two signatures of one ``@njit(cache=True)`` function at the same moment into
one cache directory. numba's ``save`` reads the index, then writes it; a one-second sleep before the
write (patched into both processes) makes each read the empty index before the other writes, which
is the window the engine's workers hit by chance on a cold cache. Without the lock one signature is
lost from the index and the surviving entry's data file may hold the other signature's code; with
the lock both entries survive and each names its own code. Deterministic: the sleep is 10x longer
than the spread of the two compile times.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("fcntl")

KERNEL = textwrap.dedent(
    """
    from numba import njit

    @njit(cache=True)
    def plus_one(x):
        return x + 1
    """
)


def _compile(directory: str, value, locked: bool, barrier) -> None:
    sys.path.insert(0, directory)
    import time

    from numba.core.caching import IndexDataCacheFile

    original = IndexDataCacheFile._save_index

    def slow_save_index(self, overloads):
        time.sleep(1.0)  # widen the window between reading and writing the index
        original(self, overloads)

    IndexDataCacheFile._save_index = slow_save_index
    if locked:
        from privbandits import _compile_cache

        assert _compile_cache.install()
    import racy_kernel

    barrier.wait()
    assert racy_kernel.plus_one(value) == value + 1


def _index_entries(directory: Path) -> dict:
    (index,) = (directory / "__pycache__").glob("racy_kernel.plus_one-*.nbi")
    with open(index, "rb") as f:
        pickle.load(f)  # numba's version
        _stamp, overloads = pickle.loads(f.read())
    return overloads


def _race(tmp_path: Path, locked: bool) -> dict:
    (tmp_path / "racy_kernel.py").write_text(KERNEL)
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(2)
    procs = [ctx.Process(target=_compile, args=(str(tmp_path), v, locked, barrier)) for v in (1, 1.5)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    return _index_entries(tmp_path)


def test_concurrent_saves_of_two_signatures_keep_both(tmp_path):
    overloads = _race(tmp_path, locked=True)
    assert len(overloads) == 2, overloads
    assert len(set(overloads.values())) == 2, "two signatures must name two data files"


def test_without_the_lock_numba_loses_a_signature(tmp_path):
    """The control: the harness does reproduce the race the lock prevents (numba 0.68.1, pinned)."""
    overloads = _race(tmp_path, locked=False)
    assert len(overloads) == 1, overloads


def _compile_same(directory: str, locked: bool, barrier, results) -> None:
    """Call ``plus_one(1)`` at the barrier; report whether this process compiled it or loaded it."""
    sys.path.insert(0, directory)
    import time

    from numba.core.caching import IndexDataCacheFile

    original = IndexDataCacheFile._save_index

    def slow_save_index(self, overloads):
        time.sleep(1.0)  # the other process asks for the kernel while this one is still saving it
        original(self, overloads)

    IndexDataCacheFile._save_index = slow_save_index
    if locked:
        from privbandits import _compile_cache

        assert _compile_cache.install()
    import racy_kernel

    barrier.wait()
    assert racy_kernel.plus_one(1) == 2
    stats = racy_kernel.plus_one.stats
    results.put(
        ("compiled" if sum(stats.cache_misses.values()) else "") + ("loaded" if sum(stats.cache_hits.values()) else "")
    )


def _same_kernel(tmp_path: Path, locked: bool) -> list[str]:
    (tmp_path / "racy_kernel.py").write_text(KERNEL)
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_compile_same, args=(str(tmp_path), locked, barrier, results)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    return sorted(results.get(timeout=10) for _ in procs)


def test_two_processes_needing_one_kernel_compile_it_once(tmp_path):
    """Issue 37: processes started together on a cold cache (the build's parallel notebooks) compile a
    kernel they share once; the other process waits for the compile lock and loads the machine code."""
    assert _same_kernel(tmp_path, locked=True) == ["compiled", "loaded"]


def test_without_the_compile_lock_both_processes_compile(tmp_path):
    """The control: numba alone compiles the kernel in both processes."""
    assert _same_kernel(tmp_path, locked=False) == ["compiled", "compiled"]


#: A kernel in one file that inlines a function of another file: the shape of every policy kernel, which
#: inlines ``environments.draw_reward``.
CALLER = textwrap.dedent(
    """
    from numba import njit

    from .callee import value

    @njit(cache=True)
    def kernel():
        return value()
    """
)
CALLEE = 'from numba import njit\n\n\n@njit(cache=True, inline="always")\ndef value():\n    return {}\n'

_RUN = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    from privbandits import _compile_cache
    if sys.argv[2] == "tracked":
        _compile_cache.TRACKED.append(sys.argv[1] + "/twofiles")
    from twofiles.caller import kernel
    print(kernel(), sum(kernel.stats.cache_hits.values()))
    """
)


def _kernel_after_an_edit_of_its_callee(tmp_path: Path, tracked: str) -> list[tuple[int, int]]:
    """``kernel()`` and its cache hits in a fresh process, before and after ``value`` is edited to return 2."""
    package = tmp_path / "twofiles"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text(CALLER)
    seen = []
    for returned in (1, 2):
        (package / "callee.py").write_text(CALLEE.format(returned))
        done = subprocess.run(
            [sys.executable, "-c", _RUN, str(tmp_path), tracked], capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        value, hits = done.stdout.split()
        seen.append((int(value), int(hits)))
    return seen


def test_an_edited_callee_in_a_tracked_folder_recompiles_its_callers(tmp_path):
    """A kernel's disk cache is stamped with every file of its package (``TRACKED``): after its callee's file
    changes, a new process compiles the kernel again (no cache hit) and returns the callee's new value."""
    assert _kernel_after_an_edit_of_its_callee(tmp_path, "tracked") == [(1, 0), (2, 0)]


def test_untracked_numba_keeps_the_callers_stale_code(tmp_path):
    """The control: numba alone stamps a kernel with its own file, so after its callee's file changes the
    next process loads the old machine code from the cache and returns the old value."""
    assert _kernel_after_an_edit_of_its_callee(tmp_path, "untracked") == [(1, 0), (1, 1)]


def test_the_package_kernels_carry_the_package_stamp():
    """Every kernel of the package is defined after ``install``: its cache's stamp holds the package's digest."""
    import privbandits  # noqa: F401  (installs the stamp before the package defines its kernels)
    from privbandits import _compile_cache
    from privbandits.environments import bandit
    from privbandits.policies import ucb

    root = _compile_cache.TRACKED[0]
    for kernel in (bandit.draw_reward_sum, ucb._ucb_kernel):
        stamp = kernel._cache._cache_file._source_stamp
        assert isinstance(stamp, tuple) and stamp[1] == _compile_cache._tree_digest(root)
