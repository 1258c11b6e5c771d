"""Tests of privbandits.simulate: simulate, its results and its cache path (UCB as the vehicle)."""

from __future__ import annotations

import numpy as np
import pytest

from privbandits import bernoulli_instance, cache, simulate
from privbandits.policies import NCB, UCB


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
    """Every algorithm of the registry (``calibration.REGISTRY``, so a new one is covered when it is
    registered) at epsilon = 1, plus the non-private baselines and the readings kept outside it."""
    from privbandits.calibration import REGISTRY
    from privbandits.policies import GDPNCB, NCB, DPUCBBound, FixedBudgetThresholding

    registered = [cls(epsilon=1.0, **fixed) for cls, fixed in REGISTRY.values()]
    return registered + [
        UCB(),
        NCB(),
        DPUCBBound(epsilon=1.0, bonus="printed"),
        GDPNCB(epsilon=1.0, phase1_rule="sparse_vector"),
        FixedBudgetThresholding(tau=0.5, epsilon=1.0, checkpoints=(20, 60)),
    ]


@pytest.mark.parametrize("policy", _every_arm_recording_policy(), ids=lambda p: p.label)
def test_sample_arms_equals_successive_runs(policy):
    """The compiled loop over runs of ``sample_arms`` consumes the generator exactly as ``n``
    successive ``run`` calls do: bit-identical arm sequences, on drawn rewards and on a table.
    The horizon is 60 rounds, or the policy's own ``min_horizon`` if that is longer (a registered
    policy declares the horizon it needs; the test does not assume one)."""
    inst = bernoulli_instance([0.7, 0.3, 0.5])
    horizon = max(60, policy.min_horizon(inst.n_arms))
    table = (np.random.default_rng(1).random((horizon, 3)) < 0.5).astype(float)
    for instance in (inst, inst.with_table(table)):
        batch = policy.sample_arms(instance, horizon, np.random.default_rng(9), 7)
        rng = np.random.default_rng(9)
        loop = np.stack([policy.run(instance, horizon, rng)["arms"] for _ in range(7)])
        assert batch.shape == (7, horizon) and batch.dtype == np.int64
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


# --- simulate_mean_rewards read at some rounds ---------------------------------------------------


def test_read_at_rounds_for_a_per_round_policy_and_bad_input():
    """Read ``at`` some rounds, the metrics are the every-round ones at those rounds, bit for bit."""
    from privbandits import metrics
    from privbandits.policies import NCB, AdaPUCB
    from privbandits.simulate import simulate_mean_rewards

    inst = bernoulli_instance(np.random.default_rng(2026).uniform(0.005, 1.0, 12))
    a = simulate_mean_rewards(NCB(), inst, 2_000, 5, 1, cache=False)
    at = np.array([1, 10, 777, 2_000])
    b = simulate_mean_rewards(NCB(), inst, 2_000, 5, 1, cache=False, at=[2_000, 10, 1, 777, 10])
    np.testing.assert_array_equal(b.at, at)
    np.testing.assert_array_equal(b.rounds(), at)
    np.testing.assert_array_equal(metrics.running_nash_regret(b), metrics.running_nash_regret(a)[at - 1])
    np.testing.assert_array_equal(metrics.running_average_regret(b), metrics.running_average_regret(a)[at - 1])
    assert metrics.average_regret(b, 777) == metrics.running_average_regret(a)[776]
    with pytest.raises(ValueError, match="horizon=778"):
        metrics.nash_regret(b, 778)
    for bad in ([], [0, 5], [5, 2_001], [1.5], [[1, 2]]):
        with pytest.raises(ValueError, match="at must"):
            simulate_mean_rewards(AdaPUCB(), inst, 2_000, 2, 0, cache=False, at=bad)


# --- contextual policies: one simulate, one cache ------------------------------------------------


def _hiring_env():
    """Three groups of 40 candidates in 4 dimensions."""
    from privbandits.environments import HiringEnvironment

    rng = np.random.default_rng(0)
    theta = rng.normal(size=4) / 2
    pools = tuple(rng.normal(size=(40, 4)) * 0.3 + 0.2 * g for g in range(3))
    return HiringEnvironment(pools, theta, noise_sd=0.1)


def test_settings_together_cached_one_by_one(monkeypatch):
    """A list of settings returns what each gives alone; each is stored under its own key, so a later
    call with one of them (or a repeated one) computes nothing; ``simulate_hiring`` is its records."""
    from privbandits.policies.fair_hiring import FairGreedy, PrivateFairGreedy
    from privbandits.simulate import simulate_hiring

    env = _hiring_env()
    settings = [PrivateFairGreedy(), PrivateFairGreedy(epsilon=1.0), PrivateFairGreedy(noise=False), FairGreedy()]
    kwargs = dict(seed=3, n_jobs=1, progress=False)
    together = simulate(settings + [PrivateFairGreedy()], env, 120, 2, **kwargs)
    assert len(together) == 5 and len(list(cache.cache_dir().rglob("*.npz"))) == 4
    alone = [simulate(q, env, 120, 2, cache=False, **kwargs).records for q in settings]
    for a, b in zip(together, alone + alone[:1]):
        assert a.records.keys() == b.keys() == {"fair_regret", "regret", "groups"}
        for key in b:
            np.testing.assert_array_equal(a.records[key], b[key])

    def refuse(*args):
        raise AssertionError("the cache should have answered")

    monkeypatch.setattr(PrivateFairGreedy, "_kernel", staticmethod(refuse))
    monkeypatch.setattr(FairGreedy, "_kernel", staticmethod(refuse))
    for q, b in zip(settings, alone):
        np.testing.assert_array_equal(simulate_hiring(q, env, 120, 2, **kwargs)["fair_regret"], b["fair_regret"])
    records = simulate_hiring(settings[:2], env, 120, 2, **kwargs)
    np.testing.assert_array_equal(records[1]["groups"], alone[1]["groups"])
    with pytest.raises(ValueError, match="policy"):
        simulate_hiring([], env, 120, 2, **kwargs)


def test_each_policy_needs_its_kind_of_environment():
    from privbandits.policies.fair_hiring import OFUL

    env, inst = _hiring_env(), bernoulli_instance([0.2, 0.8])
    with pytest.raises(ValueError, match="HiringEnvironment"):
        simulate(OFUL(), inst, 10, 2)
    with pytest.raises(ValueError, match="BanditInstance"):
        simulate(UCB(), env, 10, 2)
    with pytest.raises(ValueError, match="horizon"):
        simulate(OFUL(), env, 0, 2)
    with pytest.raises(ValueError, match="policy"):
        simulate([], inst, 10, 2)


def test_several_bandit_policies_are_each_run_alone():
    inst = bernoulli_instance([0.3, 0.5, 0.6])
    from privbandits.policies import NCB

    both = simulate([UCB(), NCB()], inst, 300, runs=3, seed=1, n_jobs=1, cache=False)
    for policy, result in zip([UCB(), NCB()], both):
        assert result.policy == policy
        np.testing.assert_array_equal(result.arms, simulate(policy, inst, 300, 3, 1, cache=False).arms)


def test_two_callers_of_one_simulation_compute_it_once(tmp_path, monkeypatch):
    """Two threads (each its own lock file descriptor, as two processes) simulate the same two settings
    at once: each setting is run once, and both callers get the runs bit for bit as uncached."""
    import threading
    import time

    from privbandits import engine

    monkeypatch.setenv("PRIVBANDITS_CACHE_DIR", str(tmp_path / "once"))
    instance = bernoulli_instance([0.9, 0.5, 0.4])
    policies = [UCB(), NCB()]
    reference = simulate(policies, instance, 200, runs=3, seed=5, cache=False)
    real = engine.run_repetitions
    runs = []

    def slow(batch, args, *a, **k):
        runs.append([q.name for q in args[0]])
        time.sleep(0.5)  # both callers find the keys missing before either stores
        return real(batch, args, *a, **k)

    monkeypatch.setattr(engine, "run_repetitions", slow)
    out = [None, None]

    def call(i):
        out[i] = simulate(policies, instance, 200, runs=3, seed=5)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(name for group in runs for name in group) == sorted(q.name for q in policies)
    for result in out:
        for got, want in zip(result, reference):
            np.testing.assert_array_equal(got.arms, want.arms)
