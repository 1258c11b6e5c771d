"""Tests of :mod:`privbandits.cache`: keys follow the configuration and the source of the modules a
result depends on (an edit to one policy module changes its results' keys and no other policy's);
stored arrays round-trip; a truncated file reads as a miss."""

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
    """Keys are computed against a copy of the package; editing the copy's ``private_ucb.py``
    changes DP-UCB-BOUND's simulation key and leaves NCB's and GDP-NCB's unchanged; editing
    ``dp_ncb.py`` does the opposite; editing ``mechanisms.py`` (imported by both) changes both."""
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

    def edit(relative):
        path = copy / relative
        path.write_text(path.read_text() + "\n# an edit\n")

    before = keys()
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
    worker = threading.Thread(target=lambda: done.append(parse("privbandits.metrics", path, 0)))
    with global_compiler_lock:
        worker.start()
        worker.join(timeout=0.5)
        assert worker.is_alive() and not done  # blocked on the lock
    worker.join(timeout=30)
    assert done and "privbandits.simulate" in done[0]
