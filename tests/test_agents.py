"""Tests of the step API (:meth:`privbandits.policies.base.Policy.agent`, :class:`~privbandits.policies.base.Agent`).

An agent calls its policy's compiled step functions, the body of the whole-run kernel, one round at a
time; driven with the package's own reward draw on the agent's generator it must play the run of
``policy.run`` bit for bit (arms and every other record), on drawn rewards and on a reward table.
A policy that stops on its own (fixed-confidence thresholding) must stop at the round its run stops,
and refuse to play on. An episodic policy's kernel draws an episode's reward sum at once
(``draw_reward_sum``) where its agent is given the episode's rewards one by one: its agent plays
``policy.run`` bit for bit on a reward table, and in distribution on drawn rewards (checked by a
two-sample test).
"""

from __future__ import annotations

import dataclasses
import inspect
import math

import numpy as np
import pytest
from numba import njit

from privbandits import bernoulli_instance, calibration, policies
from privbandits.environments import draw_reward
from privbandits.policies import UCB
from privbandits.policies.base import Agent, Policy

#: Registered (``calibration.REGISTRY``) or exported bandit policy classes whose kernel is not split into
#: step functions yet: this set may only shrink (a class that gains an agent leaves it; a new class comes with
#: its agent, or is added here)
PENDING: set[str] = set()

BANDIT_CLASSES = list(
    dict.fromkeys(
        [
            c
            for c in (getattr(policies, n) for n in policies.__all__)
            if inspect.isclass(c) and issubclass(c, Policy) and not inspect.isabstract(c)
        ]
        + [cls for cls, _ in calibration.REGISTRY.values()]
    )
)


#: Fixed-confidence settings that stop well before the horizon of ``test_agent_plays_the_run_bit_for_bit`` on
#: its drawn rewards (the class's default, tau = 0.5 on an instance with an arm at 0.5, never stops: the cap)
STOPPING_SETTINGS = [
    policies.FixedConfidenceThresholding(tau=0.2, delta=0.1),
    policies.FixedConfidenceThresholding(tau=0.2, delta=0.1, epsilon=4.0),
    policies.FixedConfidenceThresholding(tau=0.9, delta=0.1, epsilon=8.0, mechanism="laplace"),
]


def _settings():
    """Every registered setting (``calibration.REGISTRY`` at epsilon = 1), each exported class's default, the
    readings ``tests/test_simulate.py`` adds, and each class with departures as its authors run it."""
    out = [cls(epsilon=1.0, **fixed) for cls, fixed in calibration.REGISTRY.values()]
    required = {"epsilon": 1.0, "tau": 0.5, "delta": 0.1}
    for cls in BANDIT_CLASSES:
        fields = {f.name: required[f.name] for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING}
        out.append(cls(**fields))
    out += [
        policies.DPUCBBound(epsilon=1.0, bonus="printed"),
        policies.GDPNCB(epsilon=1.0, phase1_rule="sparse_vector"),
        policies.GDPNCB(epsilon=0.5, phase1_rule="sparse_vector", sv_fraction=0.2, phase1_constant=0.05),
        policies.GDPNCB(epsilon=math.inf, phase1_rule="sparse_vector", phase1_constant=0.05),
        # a noisy Phase I that ends within the test's horizons (17-72 rounds on seeds 0-3), then Phase II
        policies.GDPNCB(epsilon=4.0, phase1_rule="sparse_vector", phase1_constant=0.1),
        policies.PrivateUCB(1.0, width="tail_bound"),
        policies.FixedBudgetThresholding(tau=0.5, epsilon=1.0, checkpoints=(10, 40)),
        policies.FixedBudgetThresholding(tau=0.4, zeta=0.05, epsilon=1.0, mechanism="laplace"),
        *STOPPING_SETTINGS,
    ]
    for cls in BANDIT_CLASSES:  # every departure on
        if cls.departures:
            eps = {"epsilon": 1.0} if "epsilon" in {f.name for f in dataclasses.fields(cls)} else {}
            fields = {f.name: required[f.name] for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING}
            out.append(cls.as_run_by_authors(**{**fields, **eps}))
    unique = []
    for p in out:
        if p not in unique:
            unique.append(p)
    return unique


AGENT_SETTINGS = [p for p in _settings() if p.has_agent]
#: Episodic-step classes whose episodes all last one round: their agents play the run bit for bit on drawn rewards too
ONE_ROUND_EPISODES = {"NCB", "LDPNCB"}


def drive(policy, instance, horizon, seed):
    """A run played one round at a time: ``choose``, the package's reward draw on the agent's generator, ``update``."""
    rng = np.random.default_rng(seed)
    agent = policy.agent(instance.n_arms, horizon, rng)
    kinds, params, table = instance.kernel_args()
    while not agent.done:
        arm = agent.choose()
        agent.update(draw_reward(rng, kinds, params, table, agent.t, arm))
    assert agent.t == horizon or agent.stopped
    return agent


def test_pending_is_exactly_the_classes_without_an_agent():
    without = {c.__name__ for c in BANDIT_CLASSES if c._init is None}
    assert without == PENDING, (
        f"classes that gained an agent (remove from PENDING): {sorted(PENDING - without)}; "
        f"classes without one not in PENDING: {sorted(without - PENDING)}"
    )
    assert AGENT_SETTINGS, "no policy has an agent"


def test_every_setting_has_an_agent():
    """Every registered and exported setting, GDP-NCB's sparse-vector Phase I included, is driven step by step."""
    assert [repr(p) for p in _settings() if not p.has_agent] == []


@pytest.mark.parametrize("policy", AGENT_SETTINGS, ids=lambda p: p.label)
def test_agent_plays_the_run_bit_for_bit(policy):
    inst = bernoulli_instance([0.1, 0.3, 0.5, 0.45, 0.7])
    horizon = max(1500, policy.min_horizon(inst.n_arms))
    # real-valued rewards, a different mean per arm: an episode's sum is then exact only if it is added in
    # the kernel's order
    table = np.random.default_rng(11).beta(2.0, 2.0 + np.arange(inst.n_arms), size=(horizon, inst.n_arms))
    # an episodic agent's per-round draws are not its kernel's one draw of an episode's sum: a table only, but
    # for the policies whose every episode is one round (NCB, LDP-NCB: the kernel draws each reward alone)
    drawn = not policy._step_episodes or type(policy).__name__ in ONE_ROUND_EPISODES
    instances = (inst, inst.with_table(table)) if drawn else (inst.with_table(table),)
    for instance in instances:
        for seed in (0, 1, 2, 3):
            agent = drive(policy, instance, horizon, seed)
            run = policy.run(instance, horizon, np.random.default_rng(seed))
            got = agent.records()
            assert set(got) == set(run)
            for name in run:
                np.testing.assert_array_equal(got[name], run[name], err_msg=f"{policy.label}: {name}, seed {seed}")
                assert got[name].dtype == run[name].dtype, (policy.label, name)
            if policy._step_stops:  # the stop round included
                assert agent.stopped == bool(run["stopped"]) and agent.t == int(run["stop_time"]), policy.label


def test_the_stopping_settings_stop():
    """The settings above stop before the horizon on every seed of the bit-for-bit test (drawn rewards), so
    that test compares the stop round, and the class's default runs to its cap there."""
    inst = bernoulli_instance([0.1, 0.3, 0.5, 0.45, 0.7])
    for policy in STOPPING_SETTINGS:
        for seed in (0, 1, 2, 3):
            run = policy.run(inst, 1500, np.random.default_rng(seed))
            assert run["stopped"] and run["stop_time"] < 1500, (policy.label, seed, run["stop_time"])
    default = policies.FixedConfidenceThresholding(tau=0.5, delta=0.1)
    assert not default.run(inst, 1500, np.random.default_rng(0))["stopped"]


def test_stopped_agent_says_so_and_refuses_to_play_on():
    policy = STOPPING_SETTINGS[0]
    agent = drive(policy, bernoulli_instance([0.1, 0.3, 0.5, 0.45, 0.7]), 1500, 0)
    records = agent.records()
    assert agent.done and agent.stopped and records["stopped"] and agent.t == records["stop_time"] < 1500
    with pytest.raises(RuntimeError, match=rf"stopped on its own at round {agent.t} .*records\(\)"):
        agent.choose()
    with pytest.raises(RuntimeError, match="before choose"):
        agent.update(0.5)
    assert agent.records()["pulls"].sum() == agent.t  # nothing changed
    capped = drive(policy, bernoulli_instance([0.1, 0.3, 0.5, 0.45, 0.7]), 100, 0)  # the cap before the stop
    assert capped.done and not capped.stopped and capped.t == 100 and not capped.records()["stopped"]
    with pytest.raises(RuntimeError, match="horizon of 100 rounds"):
        capped.choose()
    fresh = UCB().agent(2, 3, 0)
    assert not fresh.done and not fresh.stopped  # a policy without a stopping rule is done at its horizon only


#: An episodic setting whose play depends on the rewards within a short horizon, per class: (policy, means, horizon)
DISTRIBUTION_CASES = {
    "AdaPKLUCB": (policies.AdaPKLUCB(epsilon=1.0), [0.3, 0.5, 0.6], 400),
    "AdaPUCB": (policies.AdaPUCB(epsilon=1.0), [0.3, 0.5, 0.6], 400),
    "NCB": (policies.NCB(), [0.3, 0.5, 0.6], 400),
    "GDPNCB": (policies.GDPNCB(epsilon=1.0), [0.3, 0.5, 0.6], 2000),
    "LDPNCB": (policies.LDPNCB(epsilon=1.0), [0.3, 0.5, 0.6], 2000),
    "AnytimeDPNCB": (policies.AnytimeDPNCB(epsilon=1.0), [0.3, 0.5, 0.6], 2000),
    "DPSE": (policies.DPSE(epsilon=1.0, beta=0.5), [0.4, 0.55], 2000),  # one epoch of 2 x 443 pulls, then elimination
}


def test_every_episodic_agent_has_a_distribution_case():
    episodic = {type(p).__name__ for p in AGENT_SETTINGS if p._step_episodes}
    assert episodic == set(DISTRIBUTION_CASES)


@pytest.mark.parametrize("name", sorted(DISTRIBUTION_CASES))
def test_episodic_agent_plays_the_run_in_distribution(name):
    """On drawn rewards, the last arm's pulls over 120 agent runs and 120 kernel runs (other seeds) have the
    same distribution: a two-sample Kolmogorov-Smirnov test at level 1e-3, so a correct agent fails with
    probability at most 1e-3 over the choice of seeds (fixed here). An agent that dropped an episode's
    rewards but the last failed it with p = 5e-17 (AdaP-KLUCB), 1e-23 (AdaP-UCB), 3e-26 (GDP-NCB) and 2e-28
    (DP-SE). (NCB's and LDP-NCB's episodes last one round: this test cannot fail for them, and their agents
    are checked bit for bit on drawn rewards by ``test_agent_plays_the_run_bit_for_bit``.)"""
    from scipy import stats

    policy, means, horizon = DISTRIBUTION_CASES[name]
    inst = bernoulli_instance(means)
    best = inst.n_arms - 1
    runs = 120
    agents = [np.sum(drive(policy, inst, horizon, 1000 + i).records()["arms"] == best) for i in range(runs)]
    kernel = [np.sum(policy.run(inst, horizon, np.random.default_rng(5000 + i))["arms"] == best) for i in range(runs)]
    assert stats.ks_2samp(agents, kernel).pvalue > 1e-3, (np.mean(agents), np.mean(kernel))


def test_episodic_agent_holds_the_arm_for_the_episode():
    policy = policies.AdaPKLUCB(epsilon=1.0)
    agent = policy.agent(2, 40, 0)
    for _ in range(2):  # line 3: one pull of each arm
        agent.update(0.0 if agent.choose() == 0 else 1.0)
    arm = agent.choose()  # the first episode: the arm's pulls double, one round
    agent.update(1.0)
    arms = []
    for _ in range(2):  # the next episode of that arm, if chosen again, lasts two rounds
        arms.append(agent.choose())
        agent.update(0.5)
    assert agent.records()["arms"].tolist()[:3] == [0, 1, arm]
    assert arms[0] != arm or arms[1] == arm


@pytest.mark.parametrize("policy", AGENT_SETTINGS, ids=lambda p: p.label)
def test_agent_records_and_guarantee(policy):
    agent = policy.agent(3, max(50, policy.min_horizon(3)), 5)
    played = "arms" if policy.records_arms else "pulls"  # a stopping rule records its pulls
    assert agent.records()[played].tolist() == ([] if policy.records_arms else [0, 0, 0])
    arm = agent.choose()
    assert 0 <= arm < 3
    agent.update(1.0)
    expected = [arm] if policy.records_arms else [int(a == arm) for a in range(3)]
    assert agent.t == 1 and agent.records()[played].tolist() == expected
    assert agent.guarantee() == policy.guarantee(agent.horizon)
    assert isinstance(agent, Agent) and "t=1" in repr(agent)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"n_arms": 0}, "n_arms"),
        ({"n_arms": 2.5}, "n_arms"),
        ({"horizon": 2}, "horizon"),  # below min_horizon (one pull of each of 3 arms)
        ({"rng": "seed"}, "rng"),
        ({"rng": -1}, "rng"),
        ({"rng": True}, "rng"),
    ],
)
def test_agent_bad_arguments(kwargs, name):
    args = {"n_arms": 3, "horizon": 10, "rng": 0, **kwargs}
    with pytest.raises(ValueError, match=name):
        UCB().agent(**args)


@pytest.mark.parametrize(
    "reward", [1.5, -0.1, math.nan, math.inf, "1", None, True, np.True_, np.float64("nan"), np.array([0.5])]
)
def test_update_refuses_a_reward_outside_the_unit_interval(reward):
    agent = UCB().agent(2, 10, 0)
    agent.choose()
    with pytest.raises(ValueError, match="reward"):
        agent.update(reward)
    agent.update(0.5)  # the round stayed open
    assert agent.t == 1


@pytest.mark.parametrize("reward", [0, 1, np.int64(1), np.float64(0.5), np.float32(0.25), np.array(0.75), -0.0])
def test_update_takes_any_real_number_in_the_unit_interval(reward):
    agent = UCB().agent(2, 10, 0)
    arm = agent.choose()
    agent.update(reward)
    assert agent.t == 1 and agent.records()["arms"].tolist() == [arm]


def test_agent_made_directly_checks_its_arguments():
    with pytest.raises(ValueError, match="horizon"):
        Agent(UCB(), 3, 2, 0)  # below min_horizon
    with pytest.raises(NotImplementedError, match="no step agent"):
        Agent(_Unsplit(), 3, 1000, 0)
    with pytest.raises(TypeError, match="policy"):
        Agent("UCB", 3, 10, 0)
    with pytest.raises(ValueError, match="rng"):
        Agent(UCB(), 3, 10, -1)


@pytest.mark.parametrize("delta", [math.nan, -0.1, 1.5, "0"])
def test_guarantee_refuses_a_bad_delta(delta):
    with pytest.raises(ValueError, match="delta"):
        policies.DPUCBInt(epsilon=1.0).agent(2, 100, 0).guarantee(delta)


def test_guarantee_follows_the_departures_that_change_it():
    # AdaP-UCB's noiseless first pulls (authors' code) enter the index raw: no finite epsilon
    assert policies.AdaPUCB(epsilon=1.0).agent(2, 100, 0).guarantee() == (1.0, 0.0, True)
    assert policies.AdaPUCB(epsilon=1.0, noiseless_init=True).agent(2, 100, 0).guarantee() == (math.inf, 0.0, True)
    # LDP-NCB's Phase I X + 1/eps + Lap(1) (authors' code) is 1-LDP: max(eps, 1)
    as_run = policies.LDPNCB(epsilon=0.25, phase1_noise_as_location=True)
    assert as_run.agent(2, 100, 0).guarantee() == (1.0, 0.0, True)
    assert policies.LDPNCB(epsilon=0.25).agent(2, 100, 0).guarantee() == (0.25, 0.0, True)
    assert policies.LDPNCB(epsilon=2.0, phase1_noise_as_location=True).agent(2, 100, 0).guarantee() == (2.0, 0.0, True)
    # the printed GDP-NCB is not proven private (its Phase I leaks, Part V)
    assert policies.GDPNCB(epsilon=1.0).agent(2, 100, 0).guarantee()[2] is False


def test_agent_refuses_calls_out_of_order():
    agent = UCB().agent(2, 2, np.random.default_rng(0))
    with pytest.raises(RuntimeError, match="before choose"):
        agent.update(0.5)
    agent.choose()
    with pytest.raises(RuntimeError, match="twice"):
        agent.choose()
    agent.update(0.5)
    agent.choose()
    agent.update(0.0)
    with pytest.raises(RuntimeError, match="horizon of 2 rounds"):
        agent.choose()


def test_policy_without_an_agent_says_so():
    if PENDING:
        cls = next(c for c in BANDIT_CLASSES if c.__name__ in PENDING)
        fields = {f.name: 0.5 for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING}
        policy = cls(**fields)
    else:  # every policy of the package has an agent: one declared without step functions
        policy = _Unsplit()
    assert not policy.has_agent
    with pytest.raises(NotImplementedError, match="no step agent"):
        policy.agent(3, 1000, 0)


@njit
def _kernel(rng, kinds, params, table, horizon, scale):  # pragma: no cover - compiled
    return np.zeros(horizon, dtype=np.int64)


@njit
def _init(k, horizon, scale):  # pragma: no cover - compiled
    return (np.zeros(k),)


@njit
def _choose(rng, state, t, horizon, scale):  # pragma: no cover - compiled
    return 0


class _Unsplit(Policy):
    """A policy whose kernel is not split into step functions: no agent."""

    _kernel = staticmethod(_kernel)
    binding = (1.0,)


@njit
def _update_episode(rng, state, t, arm, length, total, horizon, scale):  # pragma: no cover - compiled
    pass


@njit
def _update_wrong(rng, state, t, arm, reward, horizon, width):  # pragma: no cover - compiled
    pass


def test_binding_check_covers_the_step_functions():
    with pytest.raises(TypeError, match="_update _update_wrong"):

        class Wrong(Policy):  # noqa: F841
            _kernel = staticmethod(_kernel)
            binding = (1.0,)
            _init = staticmethod(_init)
            _choose = staticmethod(_choose)
            _update = staticmethod(_update_wrong)

    with pytest.raises(TypeError, match="declare all three"):

        class Partial(Policy):  # noqa: F841
            _kernel = staticmethod(_kernel)
            binding = (1.0,)
            _init = staticmethod(_init)

    with pytest.raises(TypeError, match="_step_stops and _step_episodes"):

        class Both(Policy):  # noqa: F841
            _kernel = staticmethod(_kernel)
            binding = (1.0,)
            _init = staticmethod(_init)
            _choose = staticmethod(_choose)
            _update = staticmethod(_update_episode)
            _step_episodes = True
            _step_stops = True
