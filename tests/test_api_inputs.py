"""Every public entry point answers bad input with a clear error (issue #39): a property test over the API.

For each public callable of the package's reference (every policy and every one of its options, the
environments' builders, ``simulate``, ``calibrate`` and ``guarantee``, the audit helpers, the frontier
helpers) and each of its parameters, hypothesis draws bad values (negative, zero, NaN, infinity, the
wrong type, the wrong shape, empty, too large, strings): each must raise ``ValueError`` or ``TypeError``
whose message names the parameter, never another exception, a hang (``deadline``) or a result. Good
values drawn from each policy option's declared range must construct and run. Examples are
derandomized and bounded, so the file runs in seconds and CI is reproducible; there is no statistical
test here (no false failures).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _policy_checks import synthetic_hiring_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import privbandits.policies as policies_module
from privbandits import _validation, audit, calibration, frontier, mechanisms
from privbandits.environments import (
    BanditInstance,
    HiringEnvironment,
    bernoulli_instance,
    beta_instance,
    mixed_instance,
    two_point_instance,
    uniform_instance,
)
from privbandits.policies.base import Bool, Choice, ContextualPolicy, Custom, Epsilon, Int, Policy, Real
from privbandits.policies.successive_elimination import DPSE
from privbandits.simulate import simulate, simulate_mean_rewards

ROOT = Path(__file__).resolve().parent.parent

FAST = settings(
    max_examples=10,
    deadline=2_000,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

INST = bernoulli_instance([0.7, 0.3, 0.5])
RNG = np.random.default_rng


# --------------------------------------------------------------------------------------------
# bad values
# --------------------------------------------------------------------------------------------

#: values of the wrong type for a number (``None`` apart: it is valid for optional parameters)
NOT_NUMBERS = st.sampled_from(["1", "abc", "", b"1", [1.0], (0.5,), {}, {"a": 1}, complex(1, 1), object()])
NOT_NUMBERS_OR_NONE = st.one_of(NOT_NUMBERS, st.none())


def bad_real(low: float = 0.0, high: float = math.inf, ends: str = "()", optional: bool = False) -> Any:
    """Values outside the interval ``ends[0] low, high ends[1]``, NaN, bools and non-numbers."""
    out = [st.just(math.nan), st.booleans(), NOT_NUMBERS if optional else NOT_NUMBERS_OR_NONE]
    if math.isfinite(low) or ends[0] == "(":
        out.append(st.floats(max_value=low, exclude_max=ends[0] == "[", allow_nan=False))
    if math.isfinite(high):
        out.append(st.floats(min_value=high, exclude_min=ends[1] == "]", allow_nan=False))
    elif ends[1] == ")":
        out.append(st.just(math.inf))
    return st.one_of(*out)


def bad_int(low: int | None = None, high: int | None = None) -> Any:
    """Integers outside ``[low, high]``, floats (integral ones too), bools and non-numbers."""
    out = [
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([2.0, 1e3, np.float64(3.0)]),
        st.booleans(),
        NOT_NUMBERS_OR_NONE,
    ]
    if low is not None:
        out.append(st.integers(max_value=low - 1))
    if high is not None:
        out.append(st.integers(min_value=high + 1))
    return st.one_of(*out)


BAD_BOOL = st.one_of(st.sampled_from([0, 1, 1.0, np.bool_(True), "True", "yes", None]), NOT_NUMBERS)


def bad_choice(options: tuple[str, ...]) -> Any:
    """Strings not among ``options``, other types."""
    return st.one_of(st.text(max_size=8).filter(lambda s: s not in options), st.integers(), st.none(), NOT_NUMBERS)


def bad_array(*, unit: bool = False, positive: bool = False, min_size: int = 1) -> Any:
    """Not an array of finite reals of one dimension: strings, None, ragged, 2-D, 0-D, NaN, inf, empty."""
    finite = st.floats(0.0, 1.0) if unit else st.floats(0.1, 10.0)
    out = [
        st.sampled_from(["abc", "0.5", b"x", None, {}, {"a": 0.5}, object(), [[0.5, 0.5], [0.5]], [0.5, "a"]]),
        st.lists(finite, min_size=2, max_size=3).map(lambda v: [v, v]),  # 2-D
        finite,  # 0-D
        st.lists(finite, min_size=1, max_size=3).map(lambda v: [*v, math.nan]),
        st.lists(finite, min_size=1, max_size=3).map(lambda v: [*v, math.inf]),
        st.lists(finite, min_size=1, max_size=3).map(lambda v: [*v, complex(0.5, 1)]),
    ]
    if min_size > 0:
        out.append(st.lists(finite, max_size=min_size - 1))  # too few
    if unit:
        out.append(st.lists(finite, min_size=1, max_size=3).map(lambda v: [*v, 1.5]))
        out.append(st.lists(finite, min_size=1, max_size=3).map(lambda v: [*v, -0.1]))
    if positive:
        out.append(st.lists(finite, min_size=1, max_size=3).map(lambda v: [*v, 0.0]))
    return st.one_of(*out)


def bad_for(spec: Any) -> Any:
    """Bad values for a policy parameter of constraint ``spec``."""
    if isinstance(spec, Epsilon) and spec.finite:
        return st.one_of(bad_real(spec.low, spec.high, spec.ends, spec.optional), st.just(math.inf))
    if isinstance(spec, Real):
        return bad_real(spec.low, spec.high, spec.ends, spec.optional)
    if isinstance(spec, Int):
        return bad_int(spec.low, spec.high)
    if isinstance(spec, Bool):
        return BAD_BOOL
    if isinstance(spec, Choice):
        return bad_choice(spec.options)
    if isinstance(spec, Custom):
        return st.sampled_from(["abc", object(), complex(1, 1), {"a": 1}])
    raise AssertionError(f"no bad values for {spec!r}")


def good_for(spec: Any) -> Any:
    """Values in a policy parameter's declared range (reals up to a million, integers up to a thousand)."""
    if isinstance(spec, Real):
        low, high = spec.low, min(spec.high, 1e6)
        values = st.floats(
            low, high, exclude_min=spec.ends[0] == "(", exclude_max=spec.ends[1] == ")" or high < spec.high
        )
        if spec.optional:
            values = st.one_of(st.none(), values)
        if isinstance(spec, Epsilon) and not spec.finite and math.isinf(spec.high):
            values = st.one_of(values, st.just(math.inf))
        return values
    if isinstance(spec, Int):
        return st.integers(spec.low if spec.low is not None else -1000, min(spec.high or 1000, 1000))
    if isinstance(spec, Bool):
        return st.booleans()
    if isinstance(spec, Choice):
        return st.sampled_from(spec.options)
    return None  # Custom: its own tests


def assert_refused(call: Any, name: str, value: Any) -> None:
    """``call(value)`` raises ValueError or TypeError whose message names ``name`` (any other exception propagates)."""
    try:
        result = call(value)
    except (ValueError, TypeError) as error:
        assert re.search(rf"(?<![A-Za-z_]){re.escape(name)}(?![A-Za-z_])", str(error)), (
            f"{name}={value!r}: the error does not name {name}: {error}"
        )
    else:
        raise AssertionError(f"{name}={value!r} was accepted: returned {result!r}")


# --------------------------------------------------------------------------------------------
# policies: every exported one, every declared parameter
# --------------------------------------------------------------------------------------------

#: the required arguments of each policy (every other parameter has a default)
REQUIRED = {
    "PrivateUCB": {"epsilon": 1.0},
    "DPUCBBound": {"epsilon": 1.0},
    "DPUCB": {"epsilon": 1.0},
    "DPUCBInt": {"epsilon": 0.5},
    "FixedBudgetThresholding": {"tau": 0.5},
    "FixedConfidenceThresholding": {"tau": 0.5, "delta": 0.1},
}


def _policy_classes() -> list[type]:
    """Every concrete policy the package exports, and every registered one (DP-SE; a new algorithm's
    registry line enrols it here whether or not it is exported)."""
    out = []
    for name in policies_module.__all__:
        cls = getattr(policies_module, name)
        if (
            isinstance(cls, type)
            and issubclass(cls, (Policy, ContextualPolicy))
            and dataclasses.is_dataclass(cls)
            and not getattr(cls, "__abstractmethods__", None)
            and cls.__name__ != "NCBFamily"
        ):
            out.append(cls)
    registered = dict.fromkeys(cls for cls, _ in calibration.REGISTRY.values())
    return [*out, *(cls for cls in registered if cls not in out)]


POLICY_CLASSES = _policy_classes()
FIELDS = [
    (cls, f.name) for cls in POLICY_CLASSES for f in dataclasses.fields(cls) if f.metadata.get("spec") is not None
]


def test_the_policy_list_is_the_package_s():
    names = {cls.__name__ for cls in POLICY_CLASSES}
    assert {"UCB", "GDPNCB", "PrivateUCB", "DPUCBInt", "DPSE", "PrivateFairGreedy", "FixedBudgetThresholding"} <= names
    assert all(cls(**REQUIRED.get(cls.__name__, {})) for cls in POLICY_CLASSES)


@pytest.mark.parametrize(("cls", "name"), FIELDS, ids=lambda x: getattr(x, "__name__", x))
@FAST
@given(data=st.data())
def test_a_bad_policy_parameter_is_refused_by_name(cls, name, data):
    spec = cls.__dataclass_fields__[name].metadata["spec"]
    value = data.draw(bad_for(spec), label=name)
    base = REQUIRED.get(cls.__name__, {})
    assert_refused(lambda v: cls(**{**base, name: v}), name, value)


def _run(policy: Any) -> None:
    """A short run of ``policy``: every arm (or candidate) in range."""
    if isinstance(policy, ContextualPolicy):
        env = _hiring_env()
        records = policy.run(env, 20, RNG(0))
        assert all(np.all(np.isfinite(np.asarray(v, dtype=float))) for v in records.values() if np.size(v))
        return
    horizon = max(policy.min_horizon(INST.n_arms), 30)
    if getattr(policy, "checkpoints", ()):
        horizon = max(horizon, max(policy.checkpoints))
    records = policy.run(INST, horizon, RNG(0))
    if policy.records_arms:
        arms = records["arms"]
        assert arms.shape == (horizon,) and arms.min() >= 0 and arms.max() < INST.n_arms
    else:
        assert records["pulls"].shape == (INST.n_arms,) and records["pulls"].min() >= 0


_HIRING: list = []


def _hiring_env() -> HiringEnvironment:
    """One small hiring environment, made once."""
    if not _HIRING:
        _HIRING.append(synthetic_hiring_env(d=3, k=2, n=40))
    return _HIRING[0]


@pytest.mark.parametrize(("cls", "name"), FIELDS, ids=lambda x: getattr(x, "__name__", x))
@settings(FAST, max_examples=3, deadline=None)
@given(data=st.data())
def test_a_good_policy_parameter_is_accepted_and_runs(cls, name, data):
    spec = cls.__dataclass_fields__[name].metadata["spec"]
    strategy = good_for(spec)
    if strategy is None:
        pytest.skip(f"{cls.__name__}.{name} has a custom check (tested in its own file)")
    value = data.draw(strategy, label=name)
    base = REQUIRED.get(cls.__name__, {})
    try:
        policy = cls(**{**base, name: value})
    except ValueError as error:  # a constraint between fields, or a value the range admits but the algorithm not
        assert name in str(error), f"{cls.__name__}({name}={value!r}) refused without naming it: {error}"
        return
    _run(policy)


@pytest.mark.parametrize(
    "cls", [c for c in POLICY_CLASSES if "epsilon" in c.__dataclass_fields__], ids=lambda c: c.__name__
)
def test_epsilon_inf_is_the_non_private_limit_or_refused_with_the_reason(cls):
    """Every policy says the same about ``epsilon = inf``: accepted (the algorithm without noise, its
    docstring says ``inf``) or refused with the reason and what to run instead."""
    spec = cls.__dataclass_fields__["epsilon"].metadata["spec"]
    assert isinstance(spec, Epsilon), f"{cls.__name__}.epsilon is not declared with Epsilon"
    doc = (cls.__doc__ or "").split("Parameters", 1)[-1]
    entry = re.search(r"^\s*epsilon :(.*?)(?=^\s{4}\w[\w, ]* :|\Z)", doc, re.S | re.M)
    assert entry and "inf" in entry.group(1), f"{cls.__name__}'s docstring does not say what epsilon = inf does"
    base = {k: v for k, v in REQUIRED.get(cls.__name__, {}).items() if k != "epsilon"}
    if spec.finite:
        with pytest.raises(ValueError, match=r"^epsilon must be finite .*got inf: .+"):
            cls(**base, epsilon=math.inf)
        assert "refused" in entry.group(1)
    else:
        policy = cls(**base, epsilon=math.inf)
        _run(policy)


def test_calibrate_at_inf_says_why_where_it_refuses():
    with pytest.raises(ValueError, match="epsilon must be finite for DP-UCB, got inf: .*UCB1"):
        calibration.calibrate("DP-UCB", math.inf, 0.0, 1000)
    for name in ("GDP-NCB", "DP-SE", "AdaP-UCB", "LDP-NCB"):
        cal = calibration.calibrate(name, math.inf, 0.0, 1000)
        assert cal.epsilon == math.inf and cal.policy.epsilon == math.inf


# --------------------------------------------------------------------------------------------
# functions: environments, simulation, calibration, audits, frontier
# --------------------------------------------------------------------------------------------

EPISODIC = policies_module.AdaPUCB(epsilon=1.0)


#: (callable, good keyword arguments, {parameter: bad values}); the call with the good arguments must run
def _agent_update(reward: Any) -> Any:
    """A UCB agent's first round ended with ``reward``: the agent."""
    agent = policies_module.UCB().agent(2, 10, 0)
    agent.choose()
    agent.update(reward)
    return agent


def _hiring_choose(candidates: Any) -> Any:
    """A Private-Fair-Greedy agent (2 groups of 40 candidates) after choosing among ``candidates``: the agent."""
    agent = policies_module.PrivateFairGreedy().agent(_hiring_env(), 10, 0)
    agent.choose(candidates)
    return agent


def _hiring_update(reward: Any) -> Any:
    """A Fair-Greedy agent's first round ended with ``reward``: the agent."""
    agent = policies_module.FairGreedy().agent(_hiring_env(), 10, 0)
    agent.choose([0, 1])
    agent.update(reward)
    return agent


CASES: list[tuple[str, Any, dict[str, Any], dict[str, Any]]] = [
    ("bernoulli_instance", bernoulli_instance, {"means": [0.2, 0.8]}, {"means": bad_array(unit=True, min_size=2)}),
    (
        "bernoulli_instance(log_means)",
        bernoulli_instance,
        {"log_means": [-1.0, -0.5]},
        {"log_means": st.one_of(bad_array(min_size=2), st.just([-1.0, 0.5]))},
    ),
    (
        "beta_instance",
        beta_instance,
        {"a": [1.0, 2.0], "b": [2.0, 1.0]},
        {"a": bad_array(positive=True, min_size=2), "b": bad_array(positive=True, min_size=2)},
    ),
    (
        "two_point_instance",
        two_point_instance,
        {"low": [0.0, 0.2], "high": [1.0, 0.9], "p_high": [0.5, 0.5]},
        {"low": bad_array(min_size=2), "high": bad_array(min_size=2), "p_high": bad_array(unit=True, min_size=2)},
    ),
    (
        "uniform_instance",
        uniform_instance,
        {"low": [0.0, 0.2], "high": [1.0, 0.9]},
        {"low": bad_array(min_size=2), "high": bad_array(min_size=2)},
    ),
    (
        "mixed_instance",
        mixed_instance,
        {"means": [0.2, 0.5, 0.8]},
        {"means": bad_array(unit=True, min_size=2), "match_means": BAD_BOOL},
    ),
    (
        "laplace_mechanism",
        mechanisms.laplace_mechanism,
        {"value": [0.5, 1.0], "sensitivity": 1.0, "epsilon": 1.0, "rng": RNG(0)},
        {
            "value": bad_array(min_size=0).filter(lambda v: np.ndim(v) != 0 or isinstance(v, (str, bytes, dict))),
            "sensitivity": bad_real(),
            "epsilon": bad_real(),
            "rng": st.sampled_from([None, 3, np.random.RandomState(0), "rng"]),
        },
    ),
    (
        "randomized_response",
        mechanisms.randomized_response,
        {"bits": [0, 1, 1], "epsilon": 1.0, "rng": RNG(0)},
        {
            "bits": st.sampled_from([[0, 2], [0.5], [-1]]),
            "epsilon": bad_real(),
            "rng": st.sampled_from([None, 3, "rng"]),
        },
    ),
    (
        "privbern",
        mechanisms.privbern,
        {"rewards": [0.2, 0.9], "epsilon": 1.0, "rng": RNG(0)},
        {
            "rewards": st.sampled_from(["abc", None, [0.5, "a"], [0.5, math.nan], [1.5], [-0.1], [0.5, 1j], {}]),
            "epsilon": bad_real(),
            "rng": st.sampled_from([None, 3]),
        },
    ),
    (
        "gaussian_sigma",
        mechanisms.gaussian_sigma,
        {"sensitivity": 1.0, "epsilon": 0.5, "delta": 1e-5},
        {"sensitivity": bad_real(), "epsilon": bad_real(0.0, 1.0), "delta": bad_real(0.0, 1.0)},
    ),
    (
        "binary_tree_prefix_sums",
        mechanisms.binary_tree_prefix_sums,
        {"stream": [0.0, 1.0, 1.0], "epsilon": 1.0, "rng": RNG(0)},
        {"stream": bad_array(unit=True, min_size=0), "epsilon": bad_real(), "rng": st.sampled_from([None, 3])},
    ),
    (
        "HiringEnvironment",
        HiringEnvironment,
        {"pools": (np.full((4, 3), 0.1), np.full((5, 3), 0.2)), "theta_star": np.array([0.5, 0.5, 0.1])},
        {
            "pools": st.sampled_from(
                [
                    "abc",
                    None,
                    (np.full((4, 3), 0.1),),
                    (np.full((4, 3), np.nan), np.full((5, 3), 0.2)),
                    (np.full((4, 2), 0.1), np.full((5, 3), 0.2)),
                    (np.full((0, 3), 0.1), np.full((5, 3), 0.2)),
                    (np.full(3, 0.1), np.full((5, 3), 0.2)),
                    ("ab", np.full((5, 3), 0.2)),
                ]
            ),
            "theta_star": st.one_of(bad_array(min_size=0), st.just(np.ones(4))),
            "noise_sd": bad_real(),
        },
    ),
    (
        "simulate",
        simulate,
        {"policy": policies_module.UCB(), "instance": INST, "horizon": 20, "runs": 2, "seed": 0, "cache": False},
        {
            "policy": st.sampled_from([None, "UCB", 3, [], [None], policies_module.UCB]),
            "instance": st.sampled_from([None, [0.5, 0.5], "bernoulli", synthetic_hiring_env(d=3, k=2, n=10)]),
            "horizon": st.one_of(bad_int(3), st.just(10**15)),
            "runs": st.one_of(bad_int(1), st.just(10**12)),
            "seed": bad_int(0),
            "n_jobs": st.sampled_from([0, 1.5, 2.0, "2", True, [1], math.nan]),
            "keep": st.sampled_from(["arms", (), [], ("arms", 3), ("nothing",), 5]),
        },
    ),
    (
        "simulate_mean_rewards",
        simulate_mean_rewards,
        {"policy": EPISODIC, "instance": INST, "horizon": 20, "runs": 2, "seed": 0, "cache": False, "at": [5, 20]},
        {
            "policy": st.sampled_from([None, "UCB", [EPISODIC]]),
            "horizon": bad_int(3),
            "runs": bad_int(1),
            "seed": bad_int(0),
            "at": st.sampled_from([[], [0], [21], [1.5], "5", [[5]], [-3, 5]]),
        },
    ),
    (
        "calibrate",
        calibration.calibrate,
        {"algorithm": "DP-UCB-INT", "epsilon": 1.0, "delta": 1e-3, "horizon": 1000},
        {
            "algorithm": st.one_of(st.text(max_size=6), st.none(), st.integers()),
            "epsilon": bad_real(0.0, math.inf, "(]"),
            "delta": bad_real(0.0, 1.0, "[)"),
            "horizon": bad_int(2).filter(lambda v: v is not None),
        },
    ),
    (
        "guarantee",
        calibration.guarantee,
        {"policy": policies_module.DPUCB(epsilon=1.0), "horizon": 1000, "delta": 0.0},
        {
            "policy": st.sampled_from([None, "DP-UCB", policies_module.UCB(), 1.0]),
            "horizon": bad_int(2),
            "delta": bad_real(0.0, 1.0, "[)"),
        },
    ),
    (
        "clopper_pearson",
        audit.clopper_pearson,
        {"k": 3, "n": 10, "alpha": 0.05},
        {
            "k": st.one_of(st.integers(max_value=-1), st.integers(min_value=11), st.just(math.nan), st.just("3")),
            "n": bad_int(1),
            "alpha": bad_real(0.0, 1.0),
        },
    ),
    (
        "epsilon_lower_bound",
        audit.epsilon_lower_bound,
        {"k0": 8, "k1": 2, "n": 10, "delta": 0.0, "alpha": 0.05},
        {
            "k0": st.sampled_from([-1, 11, math.nan, "8"]),
            "k1": st.sampled_from([-1, 11, math.nan, "2"]),
            "n": bad_int(1),
            "delta": bad_real(0.0, 1.0, "[)"),
            "alpha": bad_real(0.0, 1.0),
        },
    ),
    (
        "detectable_loss",
        audit.detectable_loss,
        {"p": 0.3, "n": 1000, "epsilon": 1.0, "alpha": 0.05},
        {"p": bad_real(0.0, 1.0), "n": bad_int(1), "epsilon": bad_real(0.0, math.inf), "alpha": bad_real(0.0, 1.0)},
    ),
    (
        "leading_run",
        audit.leading_run,
        {"arms": np.array([[0, 0, 1], [1, 0, 0]]), "arm": 0, "start": 0},
        {"arms": st.sampled_from(["abc", None, [[0.5, 1]], [[0, -1]]]), "arm": bad_int(0), "start": bad_int(0, 2)},
    ),
    (
        "Policy.agent",
        policies_module.UCB().agent,
        {"n_arms": 3, "horizon": 10, "rng": 0},
        {
            "n_arms": bad_int(1),
            "horizon": bad_int(3),
            "rng": st.one_of(st.integers(max_value=-1), st.sampled_from([None, 1.5, "0", True, [0]])),
        },
    ),
    ("Agent.update", _agent_update, {"reward": 0.5}, {"reward": bad_real(0.0, 1.0, "[]")}),
    (
        "ContextualPolicy.agent",
        lambda **kw: policies_module.OFUL().agent(**kw),
        {"env": synthetic_hiring_env(d=3, k=2, n=10), "horizon": 10, "rng": 0},
        {
            "env": st.sampled_from([None, "hiring", INST, [[0.5, 0.5]]]),
            "horizon": bad_int(1),
            "rng": st.one_of(st.integers(max_value=-1), st.sampled_from([None, 1.5, "0", True, [0]])),
        },
    ),
    (
        "HiringAgent.choose",
        _hiring_choose,
        {"candidates": [0, 39]},
        {
            "candidates": st.one_of(
                st.sampled_from([None, "01", [0], [0, 1, 2], [[0, 1]], [0.0, 1.0], [True, False], [0, [1]], 0]),
                st.integers(max_value=-1).map(lambda v: [0, v]),
                st.integers(min_value=40, max_value=2**62).map(lambda v: [v, 0]),
            )
        },
    ),
    (
        "HiringAgent.update",
        _hiring_update,
        {"reward": -2.5},
        {"reward": st.one_of(st.sampled_from([math.nan, math.inf, -math.inf]), st.booleans(), NOT_NUMBERS_OR_NONE)},
    ),
    ("mechanism_targets", audit.mechanism_targets, {"epsilon": 1.0}, {"epsilon": bad_real(), "broken": BAD_BOOL}),
    ("default_features", audit.default_features, {"bins": 8}, {"bins": bad_int(1)}),
    ("is_tie", frontier.is_tie, {"a": 1.0, "b": 1.0, "rtol": 1e-9}, {"rtol": bad_real(0.0, math.inf, "[)")}),
    (
        "ranking",
        frontier.ranking,
        {"means": {"A": 1.0, "B": 2.0}},
        {"means": st.sampled_from([{}, {"A": math.nan}, None, "AB", [1.0]]), "rtol": bad_real(0.0, math.inf, "[)")},
    ),
    (
        "lock_in_threshold",
        frontier.lock_in_threshold,
        {"instance": INST, "horizon": 1000},
        {"instance": st.sampled_from([None, [0.5, 0.4], "x"]), "horizon": bad_int(2)},
    ),
    (
        "tail_summary",
        frontier.tail_summary,
        {"finals": np.array([1.0, 2.0, 3.0]), "instance": INST, "horizon": 100},
        {"finals": bad_array(), "instance": st.sampled_from([None, [0.5, 0.4]]), "horizon": bad_int(1)},
    ),
    (
        "private_lower_bound",
        frontier.private_lower_bound,
        {"instance": INST, "horizons": [100, 1000], "epsilon": 1.0},
        {
            "instance": st.sampled_from([None, [0.5, 0.4]]),
            "horizons": st.sampled_from([[], [0], [1.5], "100", None, [[100]]]),
            "epsilon": bad_real(0.0, math.inf, "(]"),
        },
    ),
    (
        "frontier_point",
        frontier.frontier_point,
        {"policy": EPISODIC, "instance": INST, "horizons": [20], "batches": 2, "runs_per_batch": 2, "cache": False},
        {
            "policy": st.sampled_from([None, "AdaP-UCB"]),
            "instance": st.sampled_from([None, [0.5, 0.4]]),
            "horizons": st.sampled_from([[], [0], [1.5], "100", None, [[20]]]),
            "batches": bad_int(1),
            "runs_per_batch": bad_int(1),
            "seed": bad_int(0),
        },
    ),
]


@pytest.mark.parametrize(("label", "function", "good", "bad"), CASES, ids=[c[0] for c in CASES])
def test_good_arguments_run(label, function, good, bad):
    result = function(**good)
    assert result is not None


BAD_ARGUMENTS = [
    (label, function, good, name, strategy) for label, function, good, bad in CASES for name, strategy in bad.items()
]


@pytest.mark.parametrize(
    ("label", "function", "good", "name", "strategy"), BAD_ARGUMENTS, ids=[f"{c[0]}-{c[3]}" for c in BAD_ARGUMENTS]
)
@FAST
@given(data=st.data())
def test_a_bad_argument_is_refused_by_name(label, function, good, name, strategy, data):
    value = data.draw(strategy, label=name)
    assert_refused(lambda v: function(**{**good, name: v}), name, value)


# --------------------------------------------------------------------------------------------
# the findings of issue #39, one test each (the DP-NCB horizon: tests/test_dp_ncb.py)
# --------------------------------------------------------------------------------------------


def test_a_horizon_too_large_for_memory_is_refused_before_any_allocation():
    """The size and the way out, before numba tries to allocate (it used to raise ``MemoryError``)."""
    with pytest.raises(
        ValueError, match=r"^horizon=10000000000000 with runs=1: .* TB, more than .*simulate_mean_rewards"
    ):
        simulate(policies_module.UCB(), INST, 10**13, runs=1, cache=False)
    with pytest.raises(ValueError, match=r"^horizon=10000000000000: .*run_episodes"):
        policies_module.UCB().run(INST, 10**13, RNG(0))
    with pytest.raises(ValueError, match=r"^horizon=1000000 with n=10000000: "):
        policies_module.UCB().sample_arms(INST, 10**6, RNG(0), 10**7)
    with pytest.raises(ValueError, match=r"^horizon=10000000000000 for UCB: .*episodic"):
        simulate_mean_rewards(policies_module.UCB(), INST, 10**13, runs=1, cache=False)


def test_the_folded_episode_path_is_not_limited_by_memory(monkeypatch):
    """With memory for 125,000 arms only, simulate refuses a million rounds; the folded runs of an
    episodic policy (its episodes only) still run, and so does a simulation that fits."""
    monkeypatch.setattr(_validation, "memory_limit", lambda: 10**6)
    big, inst = 10**6, bernoulli_instance([0.0, 1.0])
    with pytest.raises(ValueError, match=r"^horizon=1000000 with runs=1: .*1 MB of memory"):
        simulate(policies_module.UCB(), inst, big, runs=1, cache=False)
    dpse = DPSE(epsilon=math.inf)
    assert dpse.episodic
    folded = simulate_mean_rewards(dpse, inst, big, runs=2, cache=False, at=[big])
    assert 0.99 < folded.mean_reward(big) <= 1.0
    assert simulate(policies_module.UCB(), inst, 1000, runs=2, cache=False).arms.shape == (2, 1000)


def test_bernoulli_instance_takes_a_list_an_array_or_integer_means():
    """Lists, arrays and integer means (0 and 1) give the same instance as their floats."""
    floats = bernoulli_instance(np.array([0.0, 1.0, 0.5]))
    for means in ([0, 1, 0.5], (0, 1, 0.5), np.array([0, 1, 0.5], dtype=np.float32)):
        other = bernoulli_instance(means)
        np.testing.assert_array_equal(other.means, floats.means)
        assert other.means.dtype == np.float64 and isinstance(other, BanditInstance)
    ints = bernoulli_instance([0, 1])
    np.testing.assert_array_equal(ints.means, [0.0, 1.0])
    np.testing.assert_array_equal(ints.log_means, [-np.inf, 0.0])


# --- the lab grader's entry points (tools/labs.py: imported without otter, which loads only to grade) ---

_labs_spec = importlib.util.spec_from_file_location("labs", ROOT / "tools" / "labs.py")
labs = importlib.util.module_from_spec(_labs_spec)
_labs_spec.loader.exec_module(labs)


@pytest.fixture()
def grading_files(tmp_path):
    """An autograder zip, a test folder and a notebook submission that exist (none is run)."""
    zip_path, tests_dir, notebook = tmp_path / "lab.zip", tmp_path / "tests", tmp_path / "sub.ipynb"
    zip_path.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip
    tests_dir.mkdir()
    notebook.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    return zip_path, tests_dir, notebook


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda z, t, n: labs.grade(z.parent / "missing.zip", n), "zip_path"),
        (lambda z, t, n: labs.grade(z, n.parent / "missing.ipynb"), "submission"),
        (lambda z, t, n: labs.grade(str(z), 3), "submission"),
        (lambda z, t, n: labs.grade(z, n, timeout=-1), "timeout"),
        (lambda z, t, n: labs.grade(z, n, timeout=math.nan), "timeout"),
        (lambda z, t, n: labs.grade(z, n, cell_seconds=0), "cell_seconds"),
        (lambda z, t, n: labs.grade(z, n, attempts=0), "attempts"),
        (lambda z, t, n: labs.grade(z, n, attempts=1.5), "attempts"),
        (lambda z, t, n: labs.grade(z, n, runner="docker"), "runner"),
        (lambda z, t, n: labs.grade_batch(z.parent / "missing.zip", [n]), "zip_path"),
        (lambda z, t, n: labs.grade_batch(z, [n], jobs=0), "jobs"),
        (lambda z, t, n: labs.grade_batch(z, [n], timeout=math.inf), "timeout"),
        (lambda z, t, n: labs.grade_in_process(str(t / "missing"), n), "tests_dir"),
        (lambda z, t, n: labs.grade_in_process(t, str(n.parent / "missing.ipynb")), "submission"),
        (lambda z, t, n: labs.grade_in_process(t, None), "submission"),
        (lambda z, t, n: labs.grade_in_process(t, n, cell_seconds=-5), "cell_seconds"),
    ],
)
def test_the_grader_names_a_bad_argument_before_it_grades(grading_files, call, name):
    with pytest.raises((ValueError, TypeError), match=rf"^{name} must"):
        call(*grading_files)


def test_the_grader_says_a_file_is_not_a_notebook(grading_files):
    _, tests_dir, notebook = grading_files
    notebook.write_text('{"cells": [')  # a truncated upload
    with pytest.raises(ValueError, match="not a notebook"):
        labs.grade_in_process(str(tests_dir), str(notebook))  # paths as strings are accepted
