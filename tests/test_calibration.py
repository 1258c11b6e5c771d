"""Tests of :mod:`privbandits.calibration` (Part VI's matched guarantees) and of each policy's accounting."""

from __future__ import annotations

import math

import pytest

from privbandits.calibration import (
    GLOBAL_ALGORITHMS,
    LOCAL_ALGORITHMS,
    calibrate,
    dp_ucb_int_basic_epsilon,
    guarantee,
)
from privbandits.policies import GDPNCB, AdaPKLUCB, DPUCBBound, DPUCBInt
from privbandits.policies.dp_ncb import sparse_vector_budget
from privbandits.policies.private_ucb import dp_ucb_int_privacy

TARGETS = [0.1, 0.25, 0.5, 1.0, 2.0, 5.0]
HORIZONS = [10**5, 10**6]

# --------------------------------------------------------------------------------------------
# calibrations
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", GLOBAL_ALGORITHMS + LOCAL_ALGORITHMS)
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("horizon", HORIZONS)
def test_calibration_meets_its_target(algorithm, target, horizon):
    delta = 1e-6 if algorithm == "DP-UCB-INT" else 0.0
    cal = calibrate(algorithm, target, delta, horizon)
    # recompute from the returned policy's parameters with the package's accounting
    eps, d, proven = guarantee(cal.policy, horizon, delta)
    assert eps <= target and d <= delta, (algorithm, eps, d)
    assert (eps, d, proven) == (cal.epsilon, cal.delta, cal.proven)
    assert proven == (algorithm != "Anytime GDP-NCB")


@pytest.mark.parametrize("algorithm", [a for a in GLOBAL_ALGORITHMS + LOCAL_ALGORITHMS if a != "DP-UCB-INT"])
@pytest.mark.parametrize("target", TARGETS)
def test_exact_calibrations_are_tight_to_rounding(algorithm, target):
    cal = calibrate(algorithm, target, 0.0, 10**6)
    assert cal.epsilon >= target * (1 - 1e-12), (algorithm, cal.epsilon)


def test_independent_accounting_of_each_budget():
    # the accounting functions, not calibrate's own branches: the split hybrid counter, the paper's
    # counter (2 eps), the sparse-vector split, the composed DP-UCB-INT guarantee
    assert guarantee(DPUCBBound(0.5, hybrid_split=False), 10**5)[0] == 1.0
    assert guarantee(DPUCBBound(0.5), 10**5)[0] == 0.5
    sv = guarantee(GDPNCB(0.7, phase1_rule="sparse_vector"), 10**5)[0]
    assert sv == pytest.approx(0.7, rel=1e-15) and sv == sparse_vector_budget(10**5, 0.7).total
    assert guarantee(GDPNCB(0.7), 10**5)[2] is False  # the printed Phase I: claimed only
    e = guarantee(DPUCBInt(0.01), 10**5, 1e-6)[0]
    assert e == dp_ucb_int_privacy(10**5, 0.01, 1.1, 1e-6)


@pytest.mark.parametrize("delta", [0.0, 1e-6, math.exp(-10)])
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("horizon", HORIZONS)
def test_dp_ucb_int_calibration_is_tight(delta, target, horizon):
    cal = calibrate("DP-UCB-INT", target, delta, horizon)
    eps_in = cal.params["epsilon"]
    assert 0 < eps_in <= 1.0
    if eps_in < 1.0:  # one part in 1e9 more input epsilon breaks the target: tight to rounding
        bigger = eps_in * (1 + 1e-9)
        spent = (
            dp_ucb_int_privacy(horizon, bigger, 1.1, delta) if delta > 0 else dp_ucb_int_basic_epsilon(horizon, bigger)
        )
        assert spent > target
    # with delta > 0 it never does worse than Corollary 3.2's inversion of the second term alone
    if delta > 0:
        from privbandits.policies.private_ucb import dp_ucb_int_input_epsilon

        assert eps_in >= min(1.0, dp_ucb_int_input_epsilon(target, delta, 1.1)) * (1 - 1e-12)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"algorithm": "UCB", "epsilon": 1.0, "horizon": 100}, "algorithm"),
        ({"algorithm": "AdaP-UCB", "epsilon": 0.0}, "epsilon"),
        ({"algorithm": "AdaP-UCB", "epsilon": -1.0}, "epsilon"),
        ({"algorithm": "AdaP-UCB", "epsilon": 1.0, "delta": 1.0}, "delta"),
        ({"algorithm": "AdaP-UCB", "epsilon": 1.0, "delta": -0.1}, "delta"),
        ({"algorithm": "DP-UCB-INT", "epsilon": 1.0, "delta": 1e-6}, "horizon"),
        ({"algorithm": "GDP-NCB", "epsilon": 1.0, "horizon": 1}, "horizon"),
        ({"algorithm": "DP-UCB", "epsilon": math.inf, "horizon": 100}, "epsilon"),
    ],
)
def test_calibration_bad_input_names_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=name):
        calibrate(**kwargs)


def test_guarantee_bad_input():
    with pytest.raises(ValueError, match="policy"):
        guarantee(object(), 100)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="horizon"):
        guarantee(AdaPKLUCB(), 1)


# --------------------------------------------------------------------------------------------
# DP-UCB-INT: which term of Corollary 3.1 binds (pure where the basic-composition term does)
# --------------------------------------------------------------------------------------------

E10 = math.exp(-10)


@pytest.mark.parametrize(("target", "horizon"), [(0.1, 10**5), (0.25, 10**5), (0.5, 10**5), (0.1, 10**6), (1.0, 100)])
def test_dp_ucb_int_is_pure_where_the_basic_term_binds(target, horizon):
    # there the (eps, e^-10) calibration is the delta = 0 one, and its guarantee is pure: delta = 0
    cal = calibrate("DP-UCB-INT", target, E10, horizon)
    pure = calibrate("DP-UCB-INT", target, 0.0, horizon)
    assert cal.params == pure.params
    assert (cal.epsilon, cal.delta) == (pure.epsilon, 0.0)
    assert guarantee(cal.policy, horizon, E10)[1] == 0.0
    assert "pure" in cal.accounting


@pytest.mark.parametrize(("target", "horizon"), [(1.0, 10**5), (0.25, 10**6), (5.0, 10**6)])
def test_dp_ucb_int_needs_delta_where_advanced_composition_binds(target, horizon):
    cal = calibrate("DP-UCB-INT", target, E10, horizon)
    assert cal.delta == E10 and "advanced" in cal.accounting
    assert cal.params["epsilon"] > calibrate("DP-UCB-INT", target, 0.0, horizon).params["epsilon"]


def test_dp_ucb_int_release_loss_is_below_corollary_3_1():
    from privbandits.calibration import dp_ucb_int_release_loss

    for target, delta in [(1.0, E10), (0.1, 0.0), (5.0, E10)]:
        cal = calibrate("DP-UCB-INT", target, delta, 10**6)
        loss = dp_ucb_int_release_loss(10**6, cal.params["epsilon"], 1.1, cal.delta)
        assert 0 < loss <= cal.epsilon
    # the calibration is tight to the corollary's closed form, not to the releases' composition
    e_in = calibrate("DP-UCB-INT", 1.0, E10, 10**6).params["epsilon"]
    assert dp_ucb_int_release_loss(10**6, e_in, 1.1, E10) < 0.7
    with pytest.raises(ValueError, match="delta"):
        dp_ucb_int_release_loss(100, 0.1, 1.1, 1.0)
    with pytest.raises(ValueError, match="horizon"):
        dp_ucb_int_release_loss(0, 0.1)


def test_a_registry_line_can_name_its_class_without_an_import():
    from privbandits.calibration import _policy_class
    from privbandits.policies import AdaPUCB

    assert _policy_class(".policies.adap_ucb:AdaPUCB") is AdaPUCB
    with pytest.raises(AttributeError):
        _policy_class(".policies.adap_ucb:NoSuchPolicy")
