"""Tests of privbandits.policies.fair_hiring.calibration: Private-Fair-Greedy's privacy calibration
(Sections 4.1-4.2), the tight guarantee on the exact Gaussian accounting and ``calibration="tight"``."""

import math

import numpy as np
import pytest
from _policy_checks import small_hiring_env

from privbandits.mechanisms import approx_dp_to_zcdp, gaussian_composition_epsilon
from privbandits.policies.fair_hiring import (
    PrivateFairGreedy,
    budget_table,
    privacy_guarantee,
    private_ridge_prefix,
    rank_mu,
    tight_noise_scale,
    tree_gamma,
    tree_levels,
    tree_mu,
    tree_rho,
    tree_sigma,
)


def test_shifted_noisy_gram_positive_definite():
    # stated: PD with high probability after the 2 Gamma I shift; we observe it in all 200 trials
    sigma, horizon, p = 1.0, 64, 6
    gamma = tree_gamma(sigma, horizon, p)
    rng = np.random.default_rng(4)
    for _ in range(200):
        noise = private_ridge_prefix(np.zeros((horizon // 2, p)), sigma, rng)[-1]
        assert np.linalg.eigvalsh(noise + 2 * gamma * np.eye(p)).min() > 0


def test_calibration_rejects_bad_input():
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
    # the PLD accountant, on the same noise (the whole algorithm's composition), agrees within its discretisation
    pld = gaussian_composition_epsilon([1 / tight["mu_reg"], 1 / tight["mu_rank"]], delta, accountant="pld")
    assert pld == pytest.approx(eps, rel=1e-4)
    if eps == 1.0:  # and privacy_guarantee passes its accountant on (cheap at small eps)
        assert privacy_guarantee(eps, delta, alpha_eps, alpha_delta, calibration="tight", accountant="pld")[
            "eps_total_tight"
        ] == pytest.approx(pld, rel=1e-12)
    # the printed calibration never spends its target, and the loose figure never undercuts the exact one
    assert printed["eps_total_tight"] < eps and printed["eps_total_loose"] >= printed["eps_total_tight"]
    assert tight["noise_scale"] == pytest.approx(tight_noise_scale(eps, delta, alpha_eps, alpha_delta))
    assert tight["noise_scale"] < 1


def test_tight_calibration_scales_both_noises():
    env = small_hiring_env()
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
