"""Tests of :mod:`privbandits._validation`: each check returns the value and refuses what it must,
naming the parameter."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privbandits import _validation as v


def test_accepted_values_are_returned():
    assert v.check_positive("x", 2) == 2.0 and v.check_positive("x", math.inf, allow_inf=True) == math.inf
    assert v.check_nonnegative("x", 0) == 0.0
    assert v.check_epsilon(0.5) == 0.5 and v.check_epsilon(math.inf, allow_inf=True) == math.inf
    assert v.check_probability("p", 0.0, closed=True) == 0.0 and v.check_delta(1e-6) == 1e-6
    assert v.check_bool("flag", False) is False
    assert v.check_int("n", np.int64(3), minimum=1, maximum=3) == 3
    assert v.check_finite_array("a", [1, 2], ndim=1).dtype == float
    assert v.check_unit_interval_array("r", [[0.0, 1.0]], ndim=2).shape == (1, 2)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: v.check_positive("width", 0.0), "width"),
        (lambda: v.check_positive("width", math.inf), "width"),
        (lambda: v.check_positive("width", True), "width"),
        (lambda: v.check_nonnegative("gap", -1e-9), "gap"),
        (lambda: v.check_epsilon(math.nan), "epsilon"),
        (lambda: v.check_epsilon(math.inf), "epsilon"),
        (lambda: v.check_probability("p", 1.0), "p"),
        (lambda: v.check_delta(0.0), "delta"),
        (lambda: v.check_bool("flag", 1), "flag"),
        (lambda: v.check_bool("flag", np.bool_(True)), "flag"),
        (lambda: v.check_int("n", 2.0), "n"),
        (lambda: v.check_int("n", True), "n"),
        (lambda: v.check_int("n", 0, minimum=1), "n"),
        (lambda: v.check_int("n", 4, maximum=3), "n"),
        (lambda: v.check_finite_array("a", [1.0, math.nan]), "a"),
        (lambda: v.check_finite_array("a", [1.0], ndim=2), "a"),
        (lambda: v.check_unit_interval_array("r", [1.5]), "r"),
        (lambda: v.check_finite_array("a", "abc"), "a"),
        (lambda: v.check_finite_array("a", ["0.5", "0.2"]), "a"),
        (lambda: v.check_finite_array("a", [0.5, 1j]), "a"),
        (lambda: v.check_finite_array("a", [[0.5], [0.5, 0.2]]), "a"),
        (lambda: v.check_finite_array("a", {"x": 1.0}), "a"),
    ],
)
def test_refused_values_name_the_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        call()


def test_check_memory_names_the_parameters_the_size_and_the_way_out(monkeypatch):
    monkeypatch.setattr(v, "memory_limit", lambda: 2_000)
    v.check_memory("horizon=250", 2_000, "use fewer")  # at the limit: allowed
    message = r"^horizon=251: the records would need about 2\.01 kB, more than .* 2 kB .*; use fewer$"
    with pytest.raises(ValueError, match=message):
        v.check_memory("horizon=251", 2_008, "use fewer")
    monkeypatch.setattr(v, "memory_limit", lambda: None)  # unknown: no check
    v.check_memory("horizon=251", 10**30, "use fewer")


def test_the_memory_limit_is_this_machine_s_physical_memory():
    limit = v.memory_limit()
    assert limit is None or limit > 10**8
