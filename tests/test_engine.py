"""Tests of the run engine (:mod:`privbandits.engine`) and of the cache's dependency keys.

* one ``n_jobs`` default, progress and validation;
* :func:`run_repetitions` does not depend on chunking or ``n_jobs``, and caches;
* cache keys follow the source of the modules a result depends on: an edit to one policy module
  changes its results' keys and no other policy's;
* every entry point (``simulate``, ``simulate_hiring``, ``audit``) runs unchanged on a Dask cluster
  (``distributed.LocalCluster`` with 2 worker processes) and returns bit-identical results.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from privbandits import audit, bernoulli_instance, cache, engine, simulate
from privbandits.policies import GDPNCB, NCB, DPUCBBound


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVBANDITS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PRIVBANDITS_PROGRESS", "0")


def _uniforms(count: int, seeds: list) -> dict[str, np.ndarray]:
    """A batch function: ``count`` uniforms per repetition."""
    return {"u": np.stack([np.random.default_rng(s).random(count) for s in seeds])}


def test_default_n_jobs(monkeypatch):
    monkeypatch.delenv("PRIVBANDITS_N_JOBS", raising=False)
    assert engine.default_n_jobs() == -1
    monkeypatch.setenv("PRIVBANDITS_N_JOBS", "3")
    assert engine.default_n_jobs() == 3
    for bad in ("0", "two"):
        monkeypatch.setenv("PRIVBANDITS_N_JOBS", bad)
        with pytest.raises(ValueError, match="PRIVBANDITS_N_JOBS"):
            engine.default_n_jobs()


def test_run_repetitions_independent_of_chunks_and_jobs():
    a = engine.run_repetitions(_uniforms, (5,), 13, 7, n_jobs=1, chunks=1)["u"]
    b = engine.run_repetitions(_uniforms, (5,), 13, 7, n_jobs=2, chunks=4)["u"]
    c = engine.run_repetitions(_uniforms, (5,), 13, 7, n_jobs=2, chunks=13)["u"]
    assert a.shape == (13, 5)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)
    # repetition i is default_rng(SeedSequence(7).spawn(13)[i])
    np.testing.assert_array_equal(a[4], np.random.default_rng(np.random.SeedSequence(7).spawn(13)[4]).random(5))


def test_run_repetitions_caches_by_configuration():
    calls = []

    def compute_once(count, seeds):
        calls.append(len(seeds))
        return _uniforms(count, seeds)

    first = engine.run_repetitions(compute_once, (3,), 4, 0, config={"test": 1}, depends_on=[engine], n_jobs=1)
    again = engine.run_repetitions(compute_once, (3,), 4, 0, config={"test": 1}, depends_on=[engine], n_jobs=1)
    assert sum(calls) == 4, "the second call must come from the cache"
    np.testing.assert_array_equal(first["u"], again["u"])
    engine.run_repetitions(compute_once, (3,), 4, 1, config={"test": 1}, depends_on=[engine], n_jobs=1)
    assert sum(calls) == 8, "another seed is another result"


@pytest.mark.parametrize(
    "kwargs, name",
    [({"runs": 0}, "runs"), ({"seed": -1}, "seed"), ({"chunks": 0}, "chunks"), ({"n_jobs": 0}, "n_jobs")],
)
def test_run_repetitions_bad_input(kwargs, name):
    args = {"runs": 3, "seed": 0, **kwargs}
    with pytest.raises(ValueError, match=name):
        engine.run_repetitions(_uniforms, (2,), **args)


def test_parallel_map_keeps_order():
    assert engine.parallel_map(pow, [(2, k) for k in range(10)], n_jobs=2) == [2**k for k in range(10)]
    with pytest.raises(ValueError, match="weights"):
        engine.parallel_map(pow, [(2, 1)], weights=[1, 2])


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


def test_simulate_cache_survives_an_unrelated_edit(tmp_path, monkeypatch):
    """End to end: a cached NCB simulation is found again after an edit to Part IV's kernels."""
    root = Path(cache.__file__).resolve().parent
    copy = tmp_path / "privbandits"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "_ROOT", copy)
    inst = bernoulli_instance([0.3, 0.6])
    simulate(NCB(), inst, 200, runs=3, seed=0)
    kernels = copy / "policies" / "fair_hiring" / "kernels.py"
    kernels.write_text(kernels.read_text() + "\n# an edit\n")
    simulate(NCB(), inst, 200, runs=3, seed=0)
    assert len(list(cache.cache_dir().rglob("*.npz"))) == 1, "the edit must not invalidate NCB's result"
    ncb = copy / "policies" / "dp_ncb.py"
    ncb.write_text(ncb.read_text() + "\n# an edit\n")
    simulate(NCB(), inst, 200, runs=3, seed=0)
    assert len(list(cache.cache_dir().rglob("*.npz"))) == 2, "an edit to NCB's module must"


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_entry_points_are_bit_identical_on_a_dask_cluster(dask_cluster):
    """``simulate``, ``simulate_hiring`` and ``audit`` inside ``parallel_config(backend="dask")``
    (2 worker processes: every task and argument is pickled) equal the local threaded result."""
    from joblib import parallel_config

    from privbandits.policies.fair_hiring import FairGreedy, HiringEnvironment, simulate_hiring

    inst = bernoulli_instance([0.3, 0.5, 0.7])
    rng = np.random.default_rng(0)
    pools = rng.normal(size=(100, 3)) / np.sqrt(3)
    env = HiringEnvironment((pools[:50], pools[50:]), np.array([0.5, 0.3, 0.2]), 0.1)
    table = (np.random.default_rng(0).random((12, 3)) < 0.5).astype(float)
    sampler = audit.policy_sampler(GDPNCB(epsilon=1.0), inst, 12)
    pairs = audit.flip_pairs(table, [0, 6], 0)

    def run_all():
        return (
            simulate(GDPNCB(epsilon=0.5), inst, 3_000, runs=6, seed=4, cache=False, n_jobs=2).records,
            simulate_hiring(FairGreedy(), env, 100, 4, seed=2, use_cache=False),
            audit.audit(sampler, pairs, epsilon=1.0, n_samples=500, seed=3),
        )

    local = run_all()
    from distributed import get_task_stream

    with get_task_stream(dask_cluster) as stream, parallel_config(backend="dask"):
        remote = run_all()
    assert len(dask_cluster.scheduler_info()["workers"]) == 2
    assert len({task["worker"] for task in stream.data}) == 2, "the tasks must have run on both workers"
    for a, b in zip(local[:2], remote[:2]):
        assert a.keys() == b.keys()
        for name in a:
            np.testing.assert_array_equal(a[name], b[name])
    assert local[2] == remote[2]
