"""Tests of the exact Gaussian accounting (``mechanisms.gaussian_*``) and of its use in Part IV
(Private-Fair-Greedy's tight guarantee, the ``calibration="tight"`` option and the L-tilde rules).

All deterministic: no statistical test here, so no false-failure probability to state.
"""

import math

import numpy as np
import pytest
from scipy.stats import norm

from privbandits.mechanisms import (
    approx_dp_to_zcdp,
    gaussian_composition_epsilon,
    gaussian_composition_multiplier,
    gaussian_noise_multiplier,
    zcdp_to_approx_dp,
)
from privbandits.policies.fair_hiring import (
    HiringEnvironment,
    PrivateFairGreedy,
    budget_table,
    privacy_guarantee,
    rank_mu,
    tight_noise_scale,
    tree_levels,
    tree_mu,
    tree_rho,
    tree_sigma,
)


def gaussian_delta(mu: float, eps: float) -> float:
    """Closed form: the Gaussian mechanism with sensitivity / sigma = mu is (eps, delta(eps))-DP with
    delta = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), and no smaller delta (Balle and Wang
    2018, Theorem 8).  Written here independently of dp-accounting."""
    return float(norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2))


@pytest.mark.parametrize("mu", [0.3, 1.0, 4.5])
@pytest.mark.parametrize("delta", [1e-5, 0.01, 0.1])
def test_single_gaussian_matches_closed_form(mu, delta):
    eps = gaussian_composition_epsilon([1 / mu], delta)
    assert gaussian_delta(mu, eps) == pytest.approx(delta, rel=1e-7)
    # and epsilon is the smallest: a little less epsilon needs more delta
    assert gaussian_delta(mu, eps * (1 - 1e-4)) > delta


def test_pld_accountant_agrees_with_closed_form_on_compositions():
    # the tree as m = 16 node releases (each with multiplier sqrt(16)/mu_reg) plus the rank step
    mu_reg, mu_rank = tree_mu(13.5, 0.09), rank_mu(1.5, 0.01)
    events = [math.sqrt(16) / mu_reg] * 16 + [1 / mu_rank]
    assert gaussian_composition_multiplier(events) == pytest.approx(1 / math.hypot(mu_reg, mu_rank), rel=1e-12)
    pld = gaussian_composition_epsilon(events, 0.1, accountant="pld")
    analytic = gaussian_composition_epsilon(events, 0.1)
    assert pld == pytest.approx(analytic, abs=1e-4)
    assert gaussian_delta(math.hypot(mu_reg, mu_rank), analytic) == pytest.approx(0.1, rel=1e-7)


def test_zcdp_conversion_is_an_upper_bound_on_the_exact_epsilon():
    # rho-zCDP -> (rho + 2 sqrt(rho ln 1/delta), delta) is valid but loose for a Gaussian of rho = mu^2/2
    for mu in (0.2, 0.9, 3.0):
        for delta in (1e-6, 1e-3, 0.1):
            assert zcdp_to_approx_dp(mu**2 / 2, delta) >= gaussian_composition_epsilon([1 / mu], delta)


@pytest.mark.parametrize("eps,delta", [(0.5, 1e-6), (1.0, 1e-3), (15.0, 0.1), (50.0, 0.1)])
def test_noise_multiplier_meets_target_exactly(eps, delta):
    s = gaussian_noise_multiplier(eps, delta)
    achieved = gaussian_composition_epsilon([s], delta)
    assert achieved <= eps and achieved == pytest.approx(eps, rel=1e-8)


def test_accounting_rejects_bad_input():
    with pytest.raises(ValueError, match="noise_multipliers"):
        gaussian_composition_epsilon([1.0, -2.0], 0.1)
    with pytest.raises(ValueError, match="delta"):
        gaussian_composition_epsilon([1.0], 1.5)
    with pytest.raises(ValueError, match="accountant"):
        gaussian_composition_epsilon([1.0], 0.1, accountant="moments")
    with pytest.raises(ValueError, match="calibration"):
        PrivateFairGreedy(calibration="loose")
    with pytest.raises(ValueError, match="l_tilde_rule"):
        PrivateFairGreedy(l_tilde_rule="max")


def test_regression_mu_is_the_tree_of_gaussians():
    # m nodes per leaf, each changed by sqrt(2) L^2 in Frobenius norm; whitened sensitivity^2 per
    # node is ||Delta||_F^2 / (2 sigma^2) (diagonal variance 2 sigma^2): total mu^2 = m L^4 / sigma^2
    for horizon, l_tilde in [(1_000, 1.0), (50_000, 2.37), (10**6, 0.5)]:
        m = tree_levels(horizon)
        sigma = tree_sigma(13.5, 0.09, horizon, l_tilde)
        assert math.sqrt(m * l_tilde**4) / sigma == pytest.approx(tree_mu(13.5, 0.09), rel=1e-12)
    assert tree_mu(13.5, 0.09) ** 2 / 2 == pytest.approx(tree_rho(13.5, 0.09), rel=1e-12)
    assert rank_mu(1.5, 0.01) ** 2 / 2 == pytest.approx(approx_dp_to_zcdp(1.5, 0.01), rel=1e-12)


def test_printed_calibration_tight_and_loose_guarantees():
    g = privacy_guarantee(15.0, 0.1, 0.9, 0.9)
    assert g["eps_total_loose"] == pytest.approx(3.8476, abs=1e-3)  # zCDP conversion + addition
    assert g["eps_reg_tight"] == pytest.approx(0.9992, abs=1e-3)  # the regression alone, at delta_reg
    assert g["eps_total_tight"] == pytest.approx(1.1628, abs=1e-3)  # the whole algorithm, at delta
    table = budget_table(15.0, 0.1, 0.9, 0.9)
    assert table[-1]["eps_tight"] == pytest.approx(g["eps_total_tight"])
    assert table[-1]["eps_delivered"] == pytest.approx(g["eps_total_loose"])


@pytest.mark.parametrize("eps", [1.0, 5.0, 15.0, 50.0])
@pytest.mark.parametrize("delta", [0.001, 0.1])
@pytest.mark.parametrize("alpha_eps,alpha_delta", [(0.5, 0.5), (0.9, 0.9), (0.7, 0.5)])
def test_tight_calibration_spends_exactly_the_target(eps, delta, alpha_eps, alpha_delta):
    printed = privacy_guarantee(eps, delta, alpha_eps, alpha_delta)
    tight = privacy_guarantee(eps, delta, alpha_eps, alpha_delta, calibration="tight")
    assert tight["eps_total_tight"] <= eps and tight["eps_total_tight"] == pytest.approx(eps, rel=1e-8)
    # the PLD accountant, on the same noise, agrees within its discretisation
    pld = privacy_guarantee(eps, delta, alpha_eps, alpha_delta, calibration="tight", accountant="pld")
    assert pld["eps_total_tight"] == pytest.approx(eps, rel=1e-4)
    # the printed calibration never spends its target, and the loose figure never undercuts the exact one
    assert printed["eps_total_tight"] < eps and printed["eps_total_loose"] >= printed["eps_total_tight"]
    assert tight["noise_scale"] == pytest.approx(tight_noise_scale(eps, delta, alpha_eps, alpha_delta))
    assert tight["noise_scale"] < 1


def _env():
    rng = np.random.default_rng(0)
    theta = rng.normal(size=4)
    theta /= np.linalg.norm(theta)
    pools = tuple(rng.normal(size=(50, 4)) * 0.4 + 0.2 * g for g in range(2))
    return HiringEnvironment(pools, theta, noise_sd=0.1)


def test_tight_calibration_scales_both_noises():
    env = _env()
    printed = PrivateFairGreedy().calibration_values(env, 1_000)
    tight = PrivateFairGreedy(calibration="tight").calibration_values(env, 1_000)
    c = tight_noise_scale(15.0, 0.1, 0.9, 0.9)
    assert tight["noise_scale"] == c and printed["noise_scale"] == 1.0
    assert tight["sigma_noise"] == pytest.approx(c * printed["sigma_noise"], rel=1e-12)
    assert tight["gamma"] == pytest.approx(c * printed["gamma"], rel=1e-12)
    assert tight["rho_rank"] == pytest.approx(printed["rho_rank"] / c**2, rel=1e-12)
    # and the kernel receives them
    params = PrivateFairGreedy(calibration="tight").kernel_params(env, 1_000)
    assert (params.sigma_tree, params.shift, params.rank_rho) == (
        tight["sigma_noise"],
        tight["gamma"],
        tight["rho_rank"],
    )


def test_l_tilde_rules():
    env = _env()
    pool = np.vstack(env.pools)
    x_norm, y_clip = np.linalg.norm(pool, axis=1), env.y_clip()
    assert env.l_tilde() == env.l_tilde("sum") == pytest.approx(x_norm.max() + y_clip)
    assert env.l_tilde("norm") == pytest.approx(math.sqrt(x_norm.max() ** 2 + y_clip**2))
    assert env.l_tilde("data") == pytest.approx(np.sqrt(x_norm**2 + (pool @ env.theta_star) ** 2).max())
    # "sum" and "norm" bound the norm of every clipped leaf [x, y]; "data" does not
    worst = np.sqrt(x_norm**2 + y_clip**2).max()
    assert worst <= env.l_tilde("norm") + 1e-12 <= env.l_tilde("sum") + 1e-12
    assert worst > env.l_tilde("data")
    for rule in ("sum", "norm", "data"):
        assert PrivateFairGreedy(l_tilde_rule=rule).calibration_values(env, 100)["l_tilde"] == env.l_tilde(rule)
    assert PrivateFairGreedy(l_tilde=3.0, l_tilde_rule="data").calibration_values(env, 100)["l_tilde"] == 3.0
