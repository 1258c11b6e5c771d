"""Tests of :mod:`privbandits.frontier` (Part VI's frontier points, tails, lock-in and ties)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from privbandits.calibration import calibrate
from privbandits.environments import bernoulli_instance
from privbandits.policies import AdaPKLUCB

E10 = math.exp(-10)

# --------------------------------------------------------------------------------------------
# frontier points
# --------------------------------------------------------------------------------------------


def test_frontier_point_anytime_prefix_and_bands():
    from privbandits.frontier import frontier_point
    from privbandits.metrics import average_regret
    from privbandits.simulate import simulate_mean_rewards

    inst = bernoulli_instance([0.7, 0.5, 0.3])
    pol = AdaPKLUCB(epsilon=1.0)
    both = frontier_point(pol, inst, (2000, 500), batches=3, runs_per_batch=4, seed=5, cache=False, n_jobs=1)
    short = frontier_point(pol, inst, (500,), batches=3, runs_per_batch=4, seed=5, cache=False, n_jobs=1)
    assert both.horizons == (500, 2000) and both.runs == 12
    np.testing.assert_allclose(both.values[0], short.values[0], rtol=1e-12)  # the prefix of the longer runs
    avg = np.mean(
        [average_regret(simulate_mean_rewards(pol, inst, 2000, 4, 5 + b, cache=False, n_jobs=1)) for b in range(3)]
    )
    assert both.values[1, 0] == pytest.approx(avg, rel=1e-12)  # pooled average = mean of the batches
    for row in both.values:
        assert row[1] <= row[0] <= row[2] and row[4] <= row[3] <= row[5]


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"batches": 1}, "batches"), ({"runs_per_batch": 0}, "runs_per_batch"), ({"seed": -1}, "seed")],
)
def test_frontier_point_bad_input(kwargs, name):
    from privbandits.frontier import frontier_point

    with pytest.raises(ValueError, match=name):
        frontier_point(AdaPKLUCB(), bernoulli_instance([0.5, 0.4]), (100,), **kwargs)
    with pytest.raises(ValueError, match="horizons"):
        frontier_point(AdaPKLUCB(), bernoulli_instance([0.5, 0.4]), (1,))


# --------------------------------------------------------------------------------------------
# tails, lock-in and ties
# --------------------------------------------------------------------------------------------


def test_dp_ucb_int_locks_in_and_final_regrets_are_the_frontier_runs():
    # DP-UCB-INT's index is frozen between releases: at (2, e^-10), T = 10^5 on Tossou's 2 arms, with the
    # frontier's 10 batches of 10 runs (seeds 16..25), some runs never pull the best arm again (regret
    # ~ T * 0.3) while the median run has a few tens. The seeds are fixed, so the outcome is
    # deterministic (no false failure); the stored grid's mean there, 675 with a batch-means band from
    # -222, says about 2 runs lock in. AdaP-KLUCB with the same seeds locks in none.
    from privbandits.frontier import final_regrets, frontier_instances, frontier_point, lock_in_threshold, tail_summary

    inst = frontier_instances()["2 arms (Tossou)"]
    pol = calibrate("DP-UCB-INT", 2.0, E10, 10**5).policy
    f = final_regrets(pol, inst, (10**5,), batches=10, runs_per_batch=10, seed=16, n_jobs=1)
    assert f.shape == (1, 100)
    tail = tail_summary(f[0], inst, 10**5)
    assert tail.locked_in >= 0.02 and tail.maximum >= lock_in_threshold(inst, 10**5)
    assert tail.median < 0.01 * lock_in_threshold(inst, 10**5)
    pt = frontier_point(pol, inst, (10**5,), batches=10, runs_per_batch=10, seed=16, n_jobs=1, cache=False)
    assert f[0].mean() / 10**5 == pytest.approx(pt.values[0, 0], rel=1e-9)
    # the batch-means band is not a valid interval here: heavy tail
    assert pt.values[0, 1] < 0.5 * pt.values[0, 0]
    kl = calibrate("AdaP-KLUCB", 2.0, 0.0, 10**5).policy
    assert tail_summary(final_regrets(kl, inst, (10**5,), seed=16, n_jobs=1)[0], inst, 10**5).locked_in == 0.0


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_final_regrets_from_the_fold_are_the_replayed_sums_bit_for_bit(tmp_path, monkeypatch, n_jobs):
    # A policy that is not episodic, at a horizon it is run at alone, has its runs' final regrets read from
    # simulate_mean_rewards' cached fold: they must be the sums of the replayed runs' gaps, bit for bit
    # (numpy's pairwise sum of each run's row). The means are not dyadic, so a different summation order
    # would show in the last bits. Deterministic (fixed seeds): no false failure.
    from privbandits.frontier import final_regrets
    from privbandits.policies import DPSE, DPTS, UCB, GaussianTS, LazyDPTS
    from privbandits.simulate import simulate

    monkeypatch.setenv("PRIVBANDITS_CACHE_DIR", str(tmp_path))
    inst = bernoulli_instance([0.71, 0.55, 0.3, 0.213])

    def replayed(policy, run_horizon, h):
        """final_regrets' replay: batches of 3 runs, seeds 4 and 5, read at round h."""
        runs = [simulate(policy, inst, run_horizon, 3, 4 + b, cache=False, n_jobs=1).arms for b in range(2)]
        return np.concatenate([inst.gaps[arms[:, :h]].sum(axis=1) for arms in runs])

    not_anytime = calibrate("DP-UCB-INT", 1.0, 0.0, 3000).policy
    assert not not_anytime.anytime and not not_anytime.episodic and DPSE().episodic
    for policy in (LazyDPTS(epsilon=1.0), DPTS(epsilon=math.inf), GaussianTS(), UCB(), not_anytime, DPSE()):
        horizons = (3000,) if policy.anytime else (1000, 3000)
        got = final_regrets(policy, inst, horizons, batches=2, runs_per_batch=3, seed=4, n_jobs=n_jobs)
        want = np.array([replayed(policy, h, h) for h in horizons])
        np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
    assert any(tmp_path.rglob("*.npz"))  # the folds were cached
    # an anytime policy at two horizons: played again at the longer, read at both
    lazy = LazyDPTS(epsilon=1.0)
    got = final_regrets(lazy, inst, (1000, 3000), batches=2, runs_per_batch=3, seed=4, n_jobs=n_jobs)
    want = np.array([replayed(lazy, 3000, h) for h in (1000, 3000)])
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))


def test_ties_are_not_wins():
    from privbandits.frontier import is_tie, ranking

    a = 0.0123
    assert is_tie(a, a + 4 * np.spacing(a)) and not is_tie(a, a * (1 + 1e-6))
    assert ranking({"AdaP-UCB": a + np.spacing(a), "AdaP-KLUCB": a, "GDP-NCB": 2 * a}) == (
        ["AdaP-UCB", "AdaP-KLUCB"],
        "GDP-NCB",
    )
    assert ranking({"x": 1.0, "y": float("nan")}) == (["x"], None)
    with pytest.raises(ValueError, match="rtol"):
        is_tie(1.0, 1.0, rtol=-1.0)
    with pytest.raises(ValueError, match="means"):
        ranking({"x": float("nan")})


def test_tail_bad_input():
    from privbandits.frontier import lock_in_threshold, tail_summary

    with pytest.raises(ValueError, match="instance"):
        lock_in_threshold(bernoulli_instance([0.5, 0.5]), 100)
    with pytest.raises(ValueError, match="horizon"):
        lock_in_threshold(bernoulli_instance([0.5, 0.4]), 0)
    with pytest.raises(ValueError, match="finals"):
        tail_summary(np.array([]), bernoulli_instance([0.5, 0.4]), 100)


def test_lock_in_needs_linear_regret_and_a_learned_run():
    from privbandits.frontier import tail_summary

    inst = bernoulli_instance([0.5, 0.4])  # linear from T * 0.1 / 2 = 50 at T = 1000, learned below 25
    learned = np.r_[np.full(98, 4.0), 60.0, 100.0]  # two linear runs among learned ones
    assert tail_summary(learned, inst, 1000).locked_in == 0.02
    majority = np.r_[np.full(58, 55.0), np.full(42, 4.0)]  # most runs locked in: the median is linear too
    assert tail_summary(majority, inst, 1000).locked_in == 0.58
    slow = np.r_[np.full(98, 55.0), 60.0, 30.0]  # nobody has learned (all >= 25): slow, none locked in
    assert tail_summary(slow, inst, 1000).locked_in == 0.0
    outlier = np.r_[np.full(99, 1.0), 30.0]  # 30 times the median but not linear
    assert tail_summary(outlier, inst, 1000).locked_in == 0.0


# --------------------------------------------------------------------------------------------
# benchmarks/run_frontier.py on a Dask cluster
# --------------------------------------------------------------------------------------------


def test_run_frontier_on_a_local_dask_cluster_is_bit_identical(tmp_path, monkeypatch):
    # run_frontier.py's own code path (--dask local: a LocalCluster of worker processes, every task
    # pickled) on a small grid, one anytime row (AdaP-UCB: one set of runs read at both horizons) and
    # one told the horizon (DP-UCB-BOUND: a set per horizon, none at eps = inf), with their final
    # regrets; the file must equal the same grid computed here with joblib, array for array.
    pytest.importorskip("distributed")
    from privbandits.frontier import frontier_instances

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    monkeypatch.setenv("PRIVBANDITS_PROGRESS", "0")
    import run_frontier

    inst = frontier_instances()
    grid = run_frontier.Grid({k: inst[k] for k in ("2 arms (Tossou)",)}, (1.0, float("inf")), (500, 2000), 2, 3)
    rows = ["AdaP-UCB", "DP-UCB-BOUND"]
    backends, compute = [], run_frontier.compute

    def compute_and_record(args, grid):
        from joblib.parallel import get_active_backend

        backends.append(type(get_active_backend()[0]).__name__)
        compute(args, grid)

    monkeypatch.setattr(run_frontier, "compute", compute_and_record)
    files = {}
    for how in ("joblib", "dask"):
        files[how] = tmp_path / f"{how}.npz"
        argv = ["--jobs", "2", "--no-cache", "--only", *rows, "--finals", *rows, "--out", str(files[how])]
        run_frontier.main(argv + (["--dask", "local"] if how == "dask" else []), grid)
    assert backends[1] == "DaskDistributedBackend" and backends[0] != backends[1]
    here, there = np.load(files["joblib"]), np.load(files["dask"])
    done = [run_frontier.ALGORITHMS.index(a) for a in rows]
    assert np.all(here["runs"][done[0]] == 6) and np.all(here["runs"][done[1], :, 0] == 6)
    # AdaP-UCB at 2 epsilons, DP-UCB-BOUND at 1 (none at inf); 2 horizons, 6 runs each
    assert np.isfinite(here["finals"][done]).sum() == 3 * 2 * 6
    for key in ("values", "runs", "finals", "algorithms", "instances", "epsilons", "horizons"):
        np.testing.assert_array_equal(here[key], there[key], err_msg=key)
    assert str(there["command"]).endswith("--dask local")
