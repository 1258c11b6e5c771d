"""Tests of the simulation engine, the cache, and UCB as the reference policy."""

from __future__ import annotations

import numpy as np
import pytest

from privbandits import bernoulli_instance, cache, simulate
from privbandits.policies import UCB


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PRIVBANDITS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PRIVBANDITS_PROGRESS", "0")


def test_reproducible_and_independent_of_n_jobs():
    inst = bernoulli_instance([0.3, 0.5, 0.6])
    a = simulate(UCB(), inst, 2_000, runs=12, seed=5, n_jobs=1, cache=False)
    b = simulate(UCB(), inst, 2_000, runs=12, seed=5, n_jobs=2, cache=False)
    c = simulate(UCB(), inst, 2_000, runs=12, seed=6, n_jobs=1, cache=False)
    np.testing.assert_array_equal(a.arms, b.arms)
    assert not np.array_equal(a.arms, c.arms)
    assert a.arms.shape == (12, 2_000) and a.arms.min() >= 0 and a.arms.max() < 3
    # the first runs do not depend on how many runs are asked for
    d = simulate(UCB(), inst, 2_000, runs=5, seed=5, n_jobs=1, cache=False)
    np.testing.assert_array_equal(a.arms[:5], d.arms)


def test_cache_round_trip_and_clear():
    inst = bernoulli_instance([0.3, 0.5])
    first = simulate(UCB(), inst, 500, runs=4, seed=1)
    assert len(list(cache.cache_dir().rglob("*.npz"))) == 1
    second = simulate(UCB(), inst, 500, runs=4, seed=1)
    np.testing.assert_array_equal(first.arms, second.arms)
    simulate(UCB(), inst, 500, runs=4, seed=2)  # a different configuration: a new entry
    assert len(list(cache.cache_dir().rglob("*.npz"))) == 2
    assert cache.clear_cache() == 2
    assert not cache.cache_dir().exists()


def test_ucb_finds_the_best_arm_on_an_easy_instance():
    """Gap 0.5: UCB pulls the best arm in > 90% of 5,000 rounds in every one of 20 runs (its expected
    number of suboptimal pulls is O(log T / gap^2) ~ a few dozen)."""
    res = simulate(UCB(), bernoulli_instance([0.25, 0.75]), 5_000, runs=20, seed=3, cache=False)
    counts = res.pull_counts()
    assert counts.sum(axis=1).tolist() == [5_000] * 20
    assert np.all(counts[:, 1] > 0.9 * 5_000)


def test_result_helpers():
    inst = bernoulli_instance([0.2, 0.8])
    res = simulate(UCB(), inst, 100, runs=3, seed=0, cache=False)
    np.testing.assert_allclose(res.expected_rewards(), inst.means[res.arms])
    np.testing.assert_allclose(np.exp(res.log_mean_expected_rewards()), res.expected_rewards().mean(axis=0))
    assert "UCB" in repr(res)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"horizon": 1}, "horizon"),
        ({"horizon": 10.0}, "horizon"),
        ({"runs": 0}, "runs"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_input(kwargs, name):
    args = {"horizon": 10, "runs": 2, "seed": 0, **kwargs}
    with pytest.raises(ValueError, match=name):
        simulate(UCB(), bernoulli_instance([0.2, 0.8]), **args)


def test_bad_policy_or_instance():
    with pytest.raises(ValueError, match="policy"):
        simulate("UCB", bernoulli_instance([0.2, 0.8]), 10)
    with pytest.raises(ValueError, match="instance"):
        simulate(UCB(), [0.2, 0.8], 10)
    with pytest.raises(ValueError, match="rng"):
        UCB().run(bernoulli_instance([0.2, 0.8]), 10, 0)


def _every_arm_recording_policy():
    from privbandits.policies import (
        DPUCB,
        GDPNCB,
        LDPNCB,
        LDPUCB,
        NCB,
        AdaPUCB,
        AnytimeDPNCB,
        DPUCBBound,
        DPUCBInt,
        FixedBudgetThresholding,
        PrivateUCB,
    )

    return [
        UCB(),
        PrivateUCB(epsilon=1.0),
        DPUCBBound(epsilon=1.0),
        DPUCBBound(epsilon=1.0, bonus="printed"),
        DPUCB(epsilon=1.0),
        DPUCBInt(epsilon=1.0),
        AdaPUCB(epsilon=1.0),
        LDPUCB(epsilon=1.0),
        NCB(),
        GDPNCB(epsilon=1.0),
        GDPNCB(epsilon=1.0, phase1_rule="sparse_vector"),
        LDPNCB(epsilon=1.0),
        AnytimeDPNCB(epsilon=1.0),
        AnytimeDPNCB(base="ldp", epsilon=1.0),
        FixedBudgetThresholding(tau=0.5, epsilon=1.0, checkpoints=(20, 60)),
    ]


@pytest.mark.parametrize("policy", _every_arm_recording_policy(), ids=lambda p: p.label)
def test_sample_arms_equals_successive_runs(policy):
    """The compiled loop over runs of ``sample_arms`` consumes the generator exactly as ``n``
    successive ``run`` calls do: bit-identical arm sequences, on drawn rewards and on a table."""
    inst = bernoulli_instance([0.7, 0.3, 0.5])
    table = (np.random.default_rng(1).random((60, 3)) < 0.5).astype(float)
    for instance in (inst, inst.with_table(table)):
        batch = policy.sample_arms(instance, 60, np.random.default_rng(9), 7)
        rng = np.random.default_rng(9)
        loop = np.stack([policy.run(instance, 60, rng)["arms"] for _ in range(7)])
        assert batch.shape == (7, 60) and batch.dtype == np.int64
        np.testing.assert_array_equal(batch, loop)


def test_sample_arms_bad_input():
    from privbandits.policies import FixedConfidenceThresholding

    with pytest.raises(ValueError, match="n"):
        UCB().sample_arms(bernoulli_instance([0.2, 0.8]), 10, np.random.default_rng(0), 0)
    with pytest.raises(ValueError, match="records no arm sequence"):
        FixedConfidenceThresholding(tau=0.5, delta=0.1, epsilon=1.0).sample_arms(
            bernoulli_instance([0.2, 0.8]), 10, np.random.default_rng(0), 2
        )


@pytest.mark.parametrize("policy", [p for p in _every_arm_recording_policy() if p.anytime], ids=lambda p: p.label)
def test_anytime_policies_play_the_same_prefix_at_every_horizon(policy):
    """A policy that declares ``anytime`` plays, in the first h rounds of a run of 4,000 rounds,
    exactly its run of horizon h with the same generator (so one run gives every horizon), also
    when h cuts an episode or a doubling window."""
    inst = bernoulli_instance([0.7, 0.3, 0.5, 0.45])
    long = policy.run(inst, 4_000, np.random.default_rng(5))["arms"]
    for h in (policy.min_horizon(inst.n_arms), 37, 500, 1_023, 1_024, 1_025, 3_999):
        short = policy.run(inst, h, np.random.default_rng(5))["arms"]
        np.testing.assert_array_equal(long[:h], short, err_msg=f"prefix of horizon {h}")


def test_the_anytime_flag_is_set_where_the_book_relies_on_it():
    from privbandits.policies import GDPNCB, LDPUCB, AdaPUCB, AnytimeDPNCB

    assert UCB.anytime and AdaPUCB.anytime and LDPUCB.anytime and AnytimeDPNCB.anytime
    assert not GDPNCB.anytime, "GDP-NCB's thresholds and index read log T"
