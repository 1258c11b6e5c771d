"""Tests of :mod:`privbandits.cache`: keys follow the configuration and the source of the modules a
result depends on (an edit to one policy module changes its results' keys and no other policy's);
stored arrays round-trip, compressed; a truncated or damaged file reads as a miss; a failed write warns
and leaves no partial file."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from privbandits import bernoulli_instance, cache
from privbandits.policies import GDPNCB, NCB, UCB, DPUCBBound


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVBANDITS_CACHE_DIR", str(tmp_path / "cache"))


def test_store_load_and_clear():
    key = cache.cache_key({"x": 1}, ["privbandits.mechanisms"])
    assert cache.load(key) is None
    arrays = {"a": np.arange(5), "b": np.array(2.5)}
    cache.store(key, arrays)
    loaded = cache.load(key)
    assert set(loaded) == {"a", "b"}
    np.testing.assert_array_equal(loaded["a"], arrays["a"])
    assert loaded["b"] == 2.5
    assert cache.cache_dir() in cache._path(key).parents
    cache._path(key).write_bytes(b"truncated")  # an interrupted write reads as a miss
    assert cache.load(key) is None
    assert cache.clear_cache() == 1 and not cache.cache_dir().exists()
    assert cache.clear_cache() == 0


def test_stored_files_are_compressed_and_exact():
    """A played-arm sequence (one arm most of the time) is stored at a fraction of its raw size and
    read back bit for bit, dtype included."""
    rng = np.random.default_rng(0)
    arms = np.where(rng.random((20, 50_000)) < 0.95, 3, rng.integers(0, 10, (20, 50_000))).astype(np.int16)
    noise = rng.standard_normal(1_000)  # incompressible floats round-trip exactly too
    key = cache.cache_key({"compressed": True})
    cache.store(key, {"arms": arms, "noise": noise})
    assert cache._path(key).stat().st_size < arms.nbytes / 4
    loaded = cache.load(key)
    assert loaded["arms"].dtype == np.int16 and loaded["noise"].dtype == np.float64
    np.testing.assert_array_equal(loaded["arms"], arms)
    np.testing.assert_array_equal(loaded["noise"], noise)
    # a damaged compressed member (bytes flipped inside the archive, headers intact) is a miss
    data = bytearray(cache._path(key).read_bytes())
    middle = len(data) // 3
    data[middle : middle + 64] = bytes(64)
    cache._path(key).write_bytes(bytes(data))
    assert cache.load(key) is None


@pytest.mark.parametrize("error", ["BadZipFile", "zlib.error", "EOFError", "ValueError", "OSError"])
def test_every_kind_of_damaged_file_reads_as_a_miss(monkeypatch, error):
    """What ``np.load`` raises on a damaged archive: a bad CRC or header (``zipfile.BadZipFile``), a
    bad deflate stream (``zlib.error``), a file cut short (``EOFError``, ``ValueError``, ``OSError``)."""
    import zipfile
    import zlib

    kinds = {"BadZipFile": zipfile.BadZipFile, "zlib.error": zlib.error, "EOFError": EOFError}
    exception = {**kinds, "ValueError": ValueError, "OSError": OSError}[error]
    key = cache.cache_key({"damaged": error})
    cache.store(key, {"a": np.arange(3)})

    def damaged(*args, **kwargs):
        raise exception("damaged")

    monkeypatch.setattr(cache.np, "load", damaged)
    assert cache.load(key) is None


def test_an_interrupted_write_leaves_no_partial_file_and_is_not_hidden(monkeypatch):
    """A write stopped by something other than the disk (here Ctrl-C) removes its temporary file and
    lets the interruption through; two threads storing at once each write their own temporary file."""
    import threading

    names = []
    real_write = cache._write_npz

    def interrupted(path, arrays):
        names.append(path.name)
        real_write(path, arrays)
        raise KeyboardInterrupt

    monkeypatch.setattr(cache, "_write_npz", interrupted)
    key = cache.cache_key({"interrupted": True})
    with pytest.raises(KeyboardInterrupt):
        cache.store(key, {"a": np.arange(10)})
    assert not [path for path in cache.cache_dir().rglob("*") if path.is_file()]
    other = threading.Thread(target=lambda: pytest.raises(KeyboardInterrupt, cache.store, key, {"a": np.arange(3)}))
    other.start()
    other.join()
    assert len(names) == 2 and names[0] != names[1], "each thread needs its own temporary file"


def test_an_edit_that_keeps_size_and_time_changes_the_key(tmp_path, monkeypatch):
    """``cp -p``, ``rsync -t`` or ``tar x`` can replace a module by one of the same size and time; the key
    follows the content (a constant changed here), not the file's size and time."""
    import os

    root = Path(cache.__file__).resolve().parent
    copy = tmp_path / "privbandits"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "_ROOT", copy)
    module = copy / "policies" / "ucb.py"
    module.write_text(module.read_text() + "\n_EDITED = 1\n")
    before = cache.cache_key({"x": 1}, ["privbandits.policies.ucb"])
    stat = module.stat()
    module.write_text(module.read_text().replace("_EDITED = 1", "_EDITED = 2"))
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert module.stat().st_size == stat.st_size and module.stat().st_mtime_ns == stat.st_mtime_ns
    assert cache.cache_key({"x": 1}, ["privbandits.policies.ucb"]) != before


def test_a_failed_write_warns_and_leaves_no_partial_file(monkeypatch):
    """A full disk while storing (here: the writer raises ENOSPC midway) must not fail the caller's
    computation: it warns, naming the cache folder, and removes the partial file."""
    import errno

    real_write = cache.np.lib.format.write_array

    def write_then_fail(member, array, **kwargs):
        real_write(member, array[: len(array) // 2], **kwargs)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cache.np.lib.format, "write_array", write_then_fail)
    key = cache.cache_key({"disk": "full"})
    with pytest.warns(RuntimeWarning, match="not cached.*No space left on device"):
        cache.store(key, {"a": np.arange(10_000)})
    assert cache.load(key) is None
    assert not [path for path in cache.cache_dir().rglob("*") if path.is_file()]


def test_belongs_to_package():
    assert cache.belongs_to_package("privbandits.mechanisms")
    assert cache.belongs_to_package(UCB()) and cache.belongs_to_package(cache)
    assert not cache.belongs_to_package(np.mean) and not cache.belongs_to_package("numpy")


def test_cache_key_covers_configuration():
    base = {"policy": UCB().config(), "horizon": 10}
    assert cache.cache_key(base) == cache.cache_key(dict(base))
    assert cache.cache_key(base) != cache.cache_key({**base, "horizon": 11})


def test_module_closure_follows_imports():
    closure = cache.module_closure([GDPNCB(epsilon=1.0)])
    assert "privbandits.policies.dp_ncb" in closure and "privbandits.mechanisms" in closure
    assert "privbandits.policies.private_ucb" not in closure
    assert "privbandits.policies.fair_hiring.kernels" not in closure
    hiring = cache.module_closure(["privbandits.policies.fair_hiring.policies"])
    assert "privbandits.policies.fair_hiring.kernels" in hiring and "privbandits.policies.fair_hiring.tree" in hiring
    with pytest.raises(ValueError, match="depends_on"):
        cache.module_closure([np.mean])


def test_cache_keys_from_many_threads_parse_one_file_at_a_time(monkeypatch):
    """The engine's threads compute cache keys at once; CPython 3.11's ``ast.parse`` is not thread-safe.

    A Part V build failed with "SystemError: AST constructor recursion depth mismatch" from two
    threads parsing at once. With a parse slowed to 20 ms, eight threads computing keys from an
    empty import-graph cache would overlap for certain without the lock; the test records the
    largest number of parses in flight.
    """
    import ast
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    in_flight, peak, guard = [0], [0], threading.Lock()
    real_parse = ast.parse

    def slow_parse(source, *args, **kwargs):
        with guard:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        time.sleep(0.02)
        try:
            return real_parse(source, *args, **kwargs)
        finally:
            with guard:
                in_flight[0] -= 1

    monkeypatch.setattr(cache.ast, "parse", slow_parse)
    cache._direct_imports.cache_clear()
    try:
        with ThreadPoolExecutor(8) as pool:
            keys = list(pool.map(lambda p: cache.cache_key({"i": 0}, [p]), [GDPNCB, NCB, DPUCBBound] * 3))
    finally:
        cache._direct_imports.cache_clear()
    assert peak[0] == 1
    assert len(set(keys)) == 2  # GDPNCB and NCB share a module; each key is computed consistently


def test_editing_one_policy_module_invalidates_only_its_results(tmp_path, monkeypatch):
    """Keys are computed against a copy of the package; editing the copy's ``private_ucb.py`` (its
    code; comments and docstrings do not count) changes DP-UCB-BOUND's simulation key and leaves
    NCB's and GDP-NCB's unchanged; editing ``dp_ncb.py`` does the opposite; editing
    ``mechanisms.py`` (imported by both) changes both."""
    root = Path(cache.__file__).resolve().parent
    copy = tmp_path / "privbandits"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "_ROOT", copy)
    inst = bernoulli_instance([0.2, 0.8])
    policies = {"bound": DPUCBBound(epsilon=1.0), "ncb": NCB(), "gdp": GDPNCB(epsilon=1.0)}

    def keys():
        return {
            name: cache.cache_key({"policy": p.config(), "horizon": 10}, [p, inst, "privbandits.simulate"])
            for name, p in policies.items()
        }

    def edit(relative, text="\n_EDITED = True\n"):
        path = copy / relative
        path.write_text(path.read_text() + text)

    before = keys()
    # documentation is not code: a comment, a reworded docstring or a blank line keeps every key
    edit("policies/private_ucb.py", "\n# a comment\n\n")
    docstring = copy / "policies/private_ucb.py"
    docstring.write_text(docstring.read_text().replace('"""', '"""Reworded. ', 1))
    assert keys() == before
    edit("policies/private_ucb.py")
    after_ucb = keys()
    assert after_ucb["bound"] != before["bound"]
    assert after_ucb["ncb"] == before["ncb"] and after_ucb["gdp"] == before["gdp"]
    edit("policies/dp_ncb.py")
    after_ncb = keys()
    assert after_ncb["bound"] == after_ucb["bound"]
    assert after_ncb["ncb"] != after_ucb["ncb"] and after_ncb["gdp"] != after_ucb["gdp"]
    edit("mechanisms.py")
    after_mech = keys()
    assert all(after_mech[name] != after_ncb[name] for name in policies)
    # a key without depends_on hashes the whole package
    whole = cache.cache_key({"x": 1})
    edit("policies/fair_hiring/kernels.py")
    assert cache.cache_key({"x": 1}) != whole
    assert keys() == after_mech


def test_the_source_parse_waits_for_numbas_compiler_lock():
    """Computing a cache key parses package sources; while numba compiles (holding its compiler lock,
    under which it calls ``ast.parse`` too) the parse waits, so two threads never build AST objects at
    once (CPython 3.11, gh-106905)."""
    import threading

    from numba.core.compiler_lock import global_compiler_lock

    path = cache._module_path("privbandits.metrics")
    parse = cache._direct_imports.__wrapped__  # uncached
    done = []
    worker = threading.Thread(target=lambda: done.append(parse("privbandits.metrics", path, path.read_bytes())))
    with global_compiler_lock:
        worker.start()
        worker.join(timeout=0.5)
        assert worker.is_alive() and not done  # blocked on the lock
    worker.join(timeout=30)
    assert done and "privbandits.simulate" in done[0]


# --- computed once across processes (cache.compute_once, cache.claim) ---------------------------------

_ASKER = r"""
import os, sys, time
from pathlib import Path
import numpy as np
from privbandits import cache

key, log, go = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
Path(str(go) + "." + str(os.getpid())).touch()  # ready
while not go.exists():
    time.sleep(0.01)

def compute():
    with log.open("a") as f:
        f.write(f"{os.getpid()}\n")
    time.sleep(2.0)  # long enough for the other process to find the key missing and wait
    return {"pid": np.array(os.getpid())}

print(int(cache.compute_once(key, compute)["pid"]))
"""

_HOLDER = r"""
import sys, time
from privbandits import cache

held = cache.claim(sys.argv[1])
assert held is not None and held.locked
print("held", flush=True)
time.sleep(600)  # killed by the test while it holds the lock
"""


def _python(code, *args, **popen):
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)], text=True, **popen)


def test_two_processes_asking_for_one_key_compute_it_once(tmp_path):
    """Two processes find one key missing at the same moment (a barrier releases both): one computes,
    the other waits for its lock and loads the same result."""
    import subprocess
    import time

    key = cache.cache_key({"asked": "twice"})
    log, go = tmp_path / "computed.log", tmp_path / "go"
    askers = [_python(_ASKER, key, log, go, stdout=subprocess.PIPE) for _ in range(2)]
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("go.*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    go.touch()
    outputs = [asker.communicate(timeout=120)[0].strip() for asker in askers]
    assert [asker.returncode for asker in askers] == [0, 0]
    computed = log.read_text().split()
    assert len(computed) == 1, f"computed by {computed}"
    assert outputs == [computed[0], computed[0]]  # both return the one stored result
    assert int(cache.load(key)["pid"]) == int(computed[0])


def test_a_lock_left_by_a_killed_process_is_taken_over(tmp_path):
    """A process killed (SIGKILL) while it holds a key's lock leaves the lock file on disk, but not
    the lock: the next process takes it at once and computes the missing result."""
    import signal
    import subprocess
    import time

    key = cache.cache_key({"holder": "killed"})
    holder = _python(_HOLDER, key, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert cache.claim(key) is None  # held by a live process: not taken without waiting
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    assert cache._lock_path(key).exists()
    start = time.monotonic()
    result = cache.compute_once(key, lambda: {"x": np.arange(3)}, timeout=60)
    assert time.monotonic() - start < 10
    np.testing.assert_array_equal(result["x"], np.arange(3))
    np.testing.assert_array_equal(cache.load(key)["x"], np.arange(3))


def test_a_waiter_loads_what_the_holder_stored_and_does_not_compute():
    """Locks exclude threads too: while one thread holds the key and then stores it, another thread's
    compute_once waits and returns the stored result without computing."""
    import threading
    import time

    key = cache.cache_key({"holder": "thread"})
    held = cache.claim(key)
    assert held is not None and held.locked

    def finish():
        time.sleep(0.5)
        cache.store(key, {"x": np.array(7)})
        held.release()

    thread = threading.Thread(target=finish)
    thread.start()
    calls = []
    result = cache.compute_once(key, lambda: calls.append(1) or {"x": np.array(0)}, timeout=60)
    thread.join()
    assert calls == [] and int(result["x"]) == 7


def test_a_wait_past_the_timeout_warns_and_computes():
    """A holder alive but slower than the timeout does not hang the waiter: it warns and computes."""
    key = cache.cache_key({"holder": "slow"})
    with cache.claim(key) as held:
        assert held.locked
        with pytest.warns(RuntimeWarning, match="computing it here too"):
            result = cache.compute_once(key, lambda: {"x": np.array(5)}, timeout=0.3)
    assert int(result["x"]) == 5 and int(cache.load(key)["x"]) == 5
    with cache.claim(key) as again:  # released on leaving the block
        assert again.locked


def test_claim_bad_wait():
    with pytest.raises(ValueError, match="wait"):
        cache.claim("ab" * 32, wait=-1)
