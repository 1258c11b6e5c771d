"""Tests of :mod:`privbandits.policies.base`: what the base derives from a policy's declaration."""

from __future__ import annotations

import dataclasses
import inspect
import math

import numpy as np
import pytest
from numba import njit

from privbandits import bernoulli_instance, calibration, policies
from privbandits.policies.base import Bool, ContextualPolicy, Departure, Epsilon, Int, Policy, Real, param

CLASSES = [
    c
    for c in (getattr(policies, n) for n in policies.__all__)
    if inspect.isclass(c) and issubclass(c, (Policy, ContextualPolicy)) and not inspect.isabstract(c)
]
REQUIRED = {"epsilon": 0.5, "tau": 0.5, "delta": 0.1}


def _make(cls, **change):
    required = {f.name: REQUIRED[f.name] for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING}
    return cls(**{**required, **change})


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_field_is_declared_and_every_switch_is_checked(cls):
    for f in dataclasses.fields(cls):
        assert f.metadata.get("spec") is not None, f"{cls.__name__}.{f.name} has no constraint"
        if isinstance(f.default, bool):
            assert isinstance(f.metadata["spec"], Bool)
            with pytest.raises(ValueError, match=f.name):
                _make(cls, **{f.name: int(f.default)})  # 0 or 1 is not a bool


@pytest.mark.parametrize("cls", [c for c in CLASSES if c.departures], ids=lambda c: c.__name__)
def test_as_run_by_authors_and_ablations_follow_the_departures(cls):
    printed, as_run = _make(cls), cls.as_run_by_authors()
    for d in cls.departures:
        assert isinstance(d, Departure) and d.field in {f.name for f in dataclasses.fields(cls)}
        assert getattr(as_run, d.field) == d.value != getattr(printed, d.field)
    entries = cls.ablations()
    keys = [a.key for a in entries]
    assert keys[0] == "printed" and entries[0].policy == printed
    assert entries[keys.index("authors")].policy == as_run
    for a in entries:
        differs = {f.name for f in dataclasses.fields(cls) if getattr(a.policy, f.name) != getattr(printed, f.name)}
        if a.key.startswith("+"):  # printed plus one departure
            assert len(differs) == 1 and a.label.startswith("+ ")
        elif a.key.startswith("-"):  # as run minus one departure
            assert len(differs) == len(cls.departures) - 1
    assert len(set(keys)) == len(keys)


def test_as_run_by_authors_arguments_override_a_departure():
    gdp = policies.GDPNCB.as_run_by_authors(2.0, phase1_constant=1.0)
    assert gdp == dataclasses.replace(policies.GDPNCB.as_run_by_authors(2.0), phase1_constant=1.0)
    with pytest.raises(ValueError, match="departures"):
        policies.UCB.as_run_by_authors()


def test_the_ablation_list_of_part_ii():
    # the keys the benchmark stores and the Part II page reads (book/part2_dp_ncb/results_authors.npz)
    keys = [a.key for a in policies.GDPNCB.ablations(0.2)]
    assert keys == ["printed", "+cap", "+nonoise", "+reset", "+logw", "authors", "-cap", "-nonoise", "-reset"] + [
        "-logw",
        "-c1600",
    ]
    assert [a.key for a in policies.LDPNCB.ablations(0.2)] == ["printed", "+cap", "authors", "-loc", "-logw"]
    assert [a.key for a in policies.NCB.ablations()] == ["printed", "authors"]


def test_real_constraint_names_the_interval():
    v = Real(1.0, 1.5, "(]")
    assert v.check("v", 1.5) == 1.5
    for bad in (1.0, 2.0, math.nan, "x", True):
        with pytest.raises(ValueError, match=r"v must .*\(1, 1\.5\]"):
            v.check("v", bad)
    assert Real(0.0, math.inf, "(]").check("epsilon", math.inf) == math.inf
    with pytest.raises(ValueError, match=r"\(0, inf\)"):
        Real().check("epsilon", math.inf)
    assert Real(optional=True).check("l_tilde", None) is None


def test_coercion_is_the_classs_declared_one():
    assert policies.AdaPKLUCB(1).epsilon.__class__ is float  # coerced
    assert policies.AdaPUCB(1).epsilon.__class__ is int  # stored as given (its cache keys)
    assert policies.PrivateFairGreedy(epsilon=15).epsilon.__class__ is int


def test_every_registered_algorithm_owns_its_accounting():
    for name, (cls, fixed) in calibration.REGISTRY.items():
        policy, params, accounting = cls.calibrated(1.0, 1e-6, 10**4, **fixed)
        assert policy.name == name and accounting
        eps, delta, _ = policy.guarantee(10**4, 1e-6)
        assert eps <= 1.0 and delta <= 1e-6


def test_a_non_private_policy_guarantees_nothing():
    """A policy without privacy reports epsilon = inf (it used to raise AttributeError on ``self.epsilon``)."""
    from privbandits.policies import NCB, UCB

    assert UCB().guarantee(100) == (math.inf, 0.0, True)
    assert NCB().guarantee(100)[0] == math.inf


# --- the binding, checked against the compiled kernel at class creation ---------------------------


@njit
def _two_parameter_kernel(rng, kinds, params, table, horizon, epsilon, explore):  # pragma: no cover - compiled
    return np.zeros(horizon, dtype=np.int64)


def _declare(declared):
    """A policy class ``Example`` with fields ``epsilon`` and ``pulls`` and the binding ``declared``."""

    @dataclasses.dataclass(frozen=True)
    class Example(Policy):
        epsilon: float = param(1.0, Epsilon())
        pulls: int = param(10, Int(1))

        _kernel = staticmethod(_two_parameter_kernel)
        binding = declared

    return Example


def test_a_binding_that_matches_the_kernel_by_name_declares_a_policy():
    cls = _declare(("epsilon", lambda p, h: p.pulls))
    assert cls(0.5).run(bernoulli_instance([0.5, 0.5]), 4, np.random.default_rng(0))["arms"].shape == (4,)


@pytest.mark.parametrize(
    ("binding", "message"),
    [
        (("epsilon", "pulls"), r"Example\.binding passes the field 'pulls' to the parameter 'explore'"),
        (("pulls", "epsilon"), r"Example\.binding passes the field 'pulls' to the parameter 'epsilon'"),
        (("epsilon",), r"Example\.binding has 1 entries, but kernel _two_parameter_kernel .* takes 2"),
        ((1.0, "pulls"), r"Example\.binding passes the constant 1\.0 to the parameter 'epsilon'.*field 'epsilon'"),
        (("epsilon", "explores"), r"Example\.binding names 'explores', neither a field nor an attribute"),
    ],
)
def test_a_binding_that_disagrees_with_the_kernel_raises_at_class_creation(binding, message):
    """Checked once, when the class is created (not at the first run): the error names the policy,
    the kernel parameter and the field."""
    with pytest.raises(TypeError, match=message):
        _declare(binding)


def test_every_policy_class_s_binding_names_its_kernel_s_parameters():
    """Each field a binding names is the kernel parameter of that name (read from ``py_func``)."""
    for cls in (c for c in CLASSES if issubclass(c, Policy)):
        kernel = getattr(cls, "_kernel", None)
        if not hasattr(kernel, "py_func") or not cls.binding:
            continue
        names = list(inspect.signature(kernel.py_func).parameters)[5:]
        for name, entry in zip(names, cls.binding, strict=True):
            if isinstance(entry, str):
                assert name == entry.lstrip("_"), (cls.__name__, name, entry)


# --- the group-run hook -----------------------------------------------------------------------------


def test_run_together_by_default_gives_each_setting_its_run_alone():
    """The base's ``run_together`` (a classmethod, no lookup by module) plays each setting as it plays
    alone from the generator's state, and leaves the generator as one run does."""
    inst = bernoulli_instance([0.3, 0.6, 0.5])
    settings = [policies.DPUCB(1.0), policies.DPUCB(0.25), policies.DPUCB(1.0, hybrid_split=False)]
    rng = np.random.default_rng(4)
    together = policies.DPUCB.run_together(settings, inst, 200, rng)
    for q, records in zip(settings, together, strict=True):
        np.testing.assert_array_equal(records["arms"], q.run(inst, 200, np.random.default_rng(4))["arms"])
    alone = np.random.default_rng(4)
    settings[-1].run(inst, 200, alone)
    assert rng.random() == alone.random()
    with pytest.raises(ValueError, match="policies"):
        policies.DPUCB.run_together([], inst, 200, rng)
    assert "run_together" in vars(policies.fair_hiring.HiringPolicy)  # the lockstep override
