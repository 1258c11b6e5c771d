"""Tests of Part IV's step API (:meth:`ContextualPolicy.agent`, :class:`~privbandits.policies.fair_hiring.HiringAgent`).

An agent calls its policy's compiled round steps, the body of the lockstep kernel, on one setting's
state. Driven by an environment that shares its generator (the candidates drawn before ``choose``, the
reward's standard normal after it), it makes the kernel's draws in the kernel's order
and must play ``policy.run``'s trial bit for bit, in every record, with drawn or fixed candidates.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from _policy_checks import one_hot_hiring_env, synthetic_hiring_env

from privbandits import bernoulli_instance
from privbandits.policies.base import ContextualPolicy
from privbandits.policies.fair_hiring import OFUL, FairGreedy, HiringAgent, PrivateFairGreedy

CLASSES = (OFUL, FairGreedy, PrivateFairGreedy)


def _settings():
    """Each class's default, as its authors ran it, each departure alone, and the other options."""
    out = []
    for cls in CLASSES:
        out += [cls(), cls.as_run_by_authors()]
        out += [cls(**{d.field: d.value}) for d in cls.departures]
    out += [
        OFUL(reg=2.0, delta=0.2, theta_norm=0.5, bonus_scale=3.0),
        FairGreedy(rank_refresh=4, index_lag=True),
        FairGreedy(rank_method="brute", reg=0.3),
        FairGreedy(theta_jitter=0.5, rank_refresh=3),
        PrivateFairGreedy(noise=False),
        PrivateFairGreedy(index_lag=True, rank_refresh=3),
        PrivateFairGreedy(epsilon=1.0, calibration="tight", rank_method="brute"),
        PrivateFairGreedy(l_tilde=2.0, l_tilde_rule="norm", alpha_eps=0.5),
    ]
    unique = []
    for p in out:
        if p not in unique:
            unique.append(p)
    return unique


SETTINGS = _settings()


def _id(policy):
    changed = [
        f"{f.name}={getattr(policy, f.name)!r}"
        for f in dataclasses.fields(policy)
        if getattr(policy, f.name) != f.default
    ]
    return f"{type(policy).__name__}({', '.join(changed)})"


def drive(policy, env, horizon, seed, fixed=None, *, extra_draw_at=None, reward_first=False):
    """A trial played one round at a time by an environment that shares the agent's generator.

    Each round: the candidates (``rng.integers(0, n_k)`` per group, or the row of ``fixed``), the
    agent's choice, the hire's reward ``row_reward + noise_sd * rng.standard_normal()``, the update.
    ``extra_draw_at`` (a round) and ``reward_first`` (the normal drawn before ``choose``) break the
    kernel's order, for the test that the comparison catches it.
    """
    rng = np.random.default_rng(seed)
    agent = policy.agent(env, horizon, rng)
    arrays = env.arrays()
    sizes = np.diff(arrays.offsets)
    for t in range(horizon):
        cand = [int(rng.integers(0, n)) for n in sizes] if fixed is None else fixed[t]
        if t == extra_draw_at:
            rng.random()
        z = rng.standard_normal() if reward_first else None
        group = agent.choose(cand)
        if z is None:
            z = rng.standard_normal()
        agent.update(arrays.row_reward[arrays.offsets[group] + cand[group]] + env.noise_sd * z)
    return agent, rng


def _assert_same(got, run, label):
    assert got.keys() == run.keys(), label
    for name in run:
        assert got[name].dtype == run[name].dtype, (label, name)
        np.testing.assert_array_equal(got[name], run[name], err_msg=f"{label}: {name}")


@pytest.mark.parametrize("policy", SETTINGS, ids=_id)
def test_agent_plays_the_run_bit_for_bit(policy):
    """Horizons of one block of rounds and a part (150) and several (333), three seeds, drawn and fixed
    candidates: every record equal, and the generator left where the kernel leaves it."""
    env = one_hot_hiring_env()
    for horizon in (150, 333):
        fixed = np.random.default_rng(2).integers(0, 300, size=(horizon, 3))
        for seed in (0, 1, 2):
            for candidates in (None, fixed):
                agent, rng = drive(policy, env, horizon, seed, candidates)
                run_rng = np.random.default_rng(seed)
                run = policy.run(env, horizon, run_rng, candidates=candidates)
                label = f"{_id(policy)}, T={horizon}, seed {seed}, fixed={candidates is not None}"
                _assert_same(agent.records(), run, label)
                assert rng.random() == run_rng.random(), label  # the same number of draws


@pytest.mark.parametrize("cls", CLASSES)
def test_agent_plays_the_run_on_another_environment(cls):
    env = synthetic_hiring_env(seed=4, d=5, k=4, n=50)  # four groups, dense rows
    agent, _ = drive(cls.as_run_by_authors(), env, 200, 9)
    _assert_same(agent.records(), cls.as_run_by_authors().run(env, 200, np.random.default_rng(9)), cls.__name__)


@pytest.mark.parametrize("cls", CLASSES)
def test_records_so_far_are_the_run_s_first_rounds(cls):
    env = one_hot_hiring_env()
    run = cls().run(env, 200, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    agent = cls().agent(env, 200, rng)
    assert all(v.shape == (0,) for v in agent.records().values())
    arrays, sizes = env.arrays(), np.diff(env.arrays().offsets)
    for _ in range(77):
        cand = [int(rng.integers(0, n)) for n in sizes]
        group = agent.choose(cand)
        agent.update(arrays.row_reward[arrays.offsets[group] + cand[group]] + env.noise_sd * rng.standard_normal())
    assert agent.t == 77
    _assert_same(agent.records(), {k: v[:77] for k, v in run.items()}, cls.__name__)


@pytest.mark.parametrize("cls", CLASSES)
def test_the_comparison_catches_a_draw_out_of_order(cls):
    """One extra random number at round 100 shifts every later candidate and noise draw: the records differ."""
    env = one_hot_hiring_env()
    run = cls().run(env, 333, np.random.default_rng(0))
    agent, _ = drive(cls(), env, 333, 0, extra_draw_at=100)
    got = agent.records()
    assert np.array_equal(got["groups"][:100], run["groups"][:100])
    assert not all(np.array_equal(got[k], run[k]) for k in run)


@pytest.mark.parametrize("cls", [FairGreedy, PrivateFairGreedy])
def test_the_reward_normal_is_drawn_after_the_policy_noise(cls):
    """The greedy policies draw their rank step's numbers in ``choose``: an environment that draws the
    reward's normal before it gets a different trial (OFUL draws nothing, so the order is moot there)."""
    env = one_hot_hiring_env()
    run = cls().run(env, 333, np.random.default_rng(0))
    agent, _ = drive(cls(), env, 333, 0, reward_first=True)
    assert not np.array_equal(agent.records()["groups"], run["groups"])


def test_private_agent_clips_rewards_as_its_kernel_does():
    """Private-Fair-Greedy's tree takes ``clip(y, -y_clip, y_clip)``: rewards far above the clip give the
    play of rewards at the clip, bit for bit; unclipped (the authors' code) they do not."""
    env = one_hot_hiring_env()
    clip = env.y_clip()
    fixed = np.random.default_rng(2).integers(0, 300, size=(300, 3))

    def play(policy, reward):
        agent = policy.agent(env, 300, 4)
        for t in range(300):
            agent.choose(fixed[t])
            agent.update(reward)
        return agent.records()["groups"]

    clipped = PrivateFairGreedy(epsilon=50.0)
    np.testing.assert_array_equal(play(clipped, 1e6 * clip), play(clipped, clip))
    unclipped = PrivateFairGreedy(epsilon=50.0, clip_rewards=False)
    assert not np.array_equal(play(unclipped, 1e6 * clip), play(unclipped, clip))


@pytest.mark.parametrize("policy", [OFUL(), FairGreedy(), PrivateFairGreedy(), PrivateFairGreedy(noise=False)], ids=_id)
def test_agent_guarantee_is_the_policy_s_at_its_horizon(policy):
    agent = policy.agent(one_hot_hiring_env(), 500, 0)
    assert agent.guarantee() == policy.guarantee(500)
    assert agent.guarantee(0.01) == policy.guarantee(500, 0.01)
    for bad in (math.nan, -0.1, 1.5, "0"):
        with pytest.raises(ValueError, match="delta"):
            agent.guarantee(bad)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"horizon": 0}, "horizon"),
        ({"horizon": 2.5}, "horizon"),
        ({"horizon": True}, "horizon"),
        ({"rng": -1}, "rng"),
        ({"rng": "0"}, "rng"),
        ({"rng": True}, "rng"),
        ({"rng": 1.5}, "rng"),
        ({"env": None}, "env"),
        ({"env": bernoulli_instance([0.2, 0.5])}, "env"),
    ],
)
def test_agent_bad_arguments(kwargs, name):
    args = {"env": one_hot_hiring_env(), "horizon": 10, "rng": 0, **kwargs}
    with pytest.raises(ValueError, match=name):
        FairGreedy().agent(**args)


def test_agent_made_directly_checks_its_policy():
    with pytest.raises(TypeError, match="policy must be a HiringPolicy"):
        HiringAgent("OFUL", one_hot_hiring_env(), 10, 0)

    @dataclasses.dataclass(frozen=True)
    class MyGreedy(FairGreedy):  # a subclass may have other steps: no agent rather than Fair-Greedy's
        pass

    with pytest.raises(NotImplementedError, match="MyGreedy has no step agent"):
        MyGreedy().agent(one_hot_hiring_env(), 10, 0)
    agent = HiringAgent(OFUL(), one_hot_hiring_env(), 10, np.random.default_rng(0))
    assert "t=0" in repr(agent) and agent.horizon == 10


@pytest.mark.parametrize(
    "candidates",
    [
        [0, 0],  # one group short
        [0, 0, 0, 0],
        [[0, 0, 0]],  # 2-d
        [0.0, 1.0, 2.0],  # floats
        [True, False, True],  # bools
        ["0", "1", "2"],
        [0, [1], 2],  # ragged
        None,
        [0, -1, 2],  # a row below 0
        [0, 300, 2],  # past group 1's pool (300 rows)
        np.array([0, 1, 2**40], dtype=np.uint64),
    ],
)
def test_choose_refuses_bad_candidates_and_keeps_the_round(candidates):
    agent = PrivateFairGreedy().agent(one_hot_hiring_env(), 10, 0)
    state = agent.rng.bit_generator.state
    with pytest.raises(ValueError, match="candidates"):
        agent.choose(candidates)
    assert agent.t == 0 and agent.rng.bit_generator.state == state  # nothing drawn
    group = agent.choose(np.array([5, 6, 7], dtype=np.int32))  # any integer dtype
    agent.update(0.5)
    assert agent.records()["groups"].tolist() == [group]


@pytest.mark.parametrize("reward", [math.nan, math.inf, -math.inf, "1", None, True, np.True_, np.float64("nan"), [0.5]])
def test_update_refuses_a_reward_that_is_not_a_finite_real(reward):
    agent = OFUL().agent(one_hot_hiring_env(), 10, 0)
    agent.choose([0, 1, 2])
    with pytest.raises(ValueError, match="reward"):
        agent.update(reward)
    assert agent.t == 0
    agent.update(0.5)  # the round stayed open
    assert agent.t == 1


@pytest.mark.parametrize("reward", [0, -3, 1e6, np.int64(1), np.float32(0.25), np.array(0.75), -0.0])
def test_update_takes_any_finite_real(reward):
    agent = FairGreedy().agent(one_hot_hiring_env(), 10, 0)
    group = agent.choose([0, 1, 2])
    agent.update(reward)
    assert agent.t == 1 and agent.records()["groups"].tolist() == [group]


def test_agent_refuses_calls_out_of_order():
    agent = FairGreedy().agent(one_hot_hiring_env(), 2, 0)
    with pytest.raises(RuntimeError, match="before choose"):
        agent.update(0.5)
    agent.choose([0, 1, 2])
    with pytest.raises(RuntimeError, match="twice"):
        agent.choose([0, 1, 2])
    agent.update(0.5)
    assert not agent.done and not agent.stopped
    agent.choose([3, 4, 5])
    agent.update(0.0)
    assert agent.done and not agent.stopped  # the horizon is played; a hiring policy never stops itself
    with pytest.raises(RuntimeError, match="horizon of 2 rounds"):
        agent.choose([0, 1, 2])


def test_a_contextual_policy_without_an_agent_says_so():
    @dataclasses.dataclass(frozen=True)
    class Plain(ContextualPolicy):
        def run(self, env, horizon, rng, **kwargs):
            return {}

    with pytest.raises(NotImplementedError, match="no step agent"):
        Plain().agent(one_hot_hiring_env(), 10, 0)
