"""Tests of :mod:`privbandits.policies.base`: what the base derives from a policy's declaration."""

from __future__ import annotations

import dataclasses
import inspect
import math

import pytest

from privbandits import calibration, policies
from privbandits.policies.base import Bool, ContextualPolicy, Departure, Policy, Real

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
