"""Tests of the run engine (:mod:`privbandits.engine`); the cache's keys are tested in ``test_cache.py``.

* one ``n_jobs`` default, progress and validation;
* :func:`run_repetitions` does not depend on chunking or ``n_jobs``, and caches;
* a cached simulation survives an edit to a module it does not depend on;
* every entry point (``simulate``, ``simulate_hiring``, ``audit``) runs unchanged on a Dask cluster
  (``distributed.LocalCluster`` with 2 worker processes) and returns bit-identical results.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from privbandits import audit, bernoulli_instance, cache, engine, simulate
from privbandits.policies import GDPNCB, NCB


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


def test_simulate_cache_survives_an_unrelated_edit(tmp_path, monkeypatch):
    """End to end: a cached NCB simulation is found again after an edit to Part IV's kernels, and
    after a comment added to NCB's module; an edit to NCB's code recomputes it."""
    root = Path(cache.__file__).resolve().parent
    copy = tmp_path / "privbandits"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "_ROOT", copy)
    inst = bernoulli_instance([0.3, 0.6])
    simulate(NCB(), inst, 200, runs=3, seed=0)
    kernels = copy / "policies" / "fair_hiring" / "kernels.py"
    kernels.write_text(kernels.read_text() + "\n_EDITED = True\n")
    simulate(NCB(), inst, 200, runs=3, seed=0)
    assert len(list(cache.cache_dir().rglob("*.npz"))) == 1, "the edit must not invalidate NCB's result"
    ncb = copy / "policies" / "dp_ncb.py"
    ncb.write_text(ncb.read_text() + "\n# a comment is not code\n")
    simulate(NCB(), inst, 200, runs=3, seed=0)
    assert len(list(cache.cache_dir().rglob("*.npz"))) == 1, "a comment in NCB's module must not"
    ncb.write_text(ncb.read_text() + "\n_EDITED = True\n")
    simulate(NCB(), inst, 200, runs=3, seed=0)
    assert len(list(cache.cache_dir().rglob("*.npz"))) == 2, "an edit to NCB's code must"


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

    from privbandits.policies.fair_hiring import FairGreedy, HiringEnvironment
    from privbandits.simulate import simulate_hiring

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
