"""Tests of Part IV: census loader, tree-based private regression, rank estimation, policies."""

import math

import numpy as np
import pytest

from privbandits.mechanisms import approx_dp_to_zcdp, gaussian_composition_epsilon
from privbandits.policies.fair_hiring import (
    OFUL,
    FairGreedy,
    HiringEnvironment,
    PrivateFairGreedy,
    budget_table,
    privacy_guarantee,
    private_ridge_prefix,
    rank_mu,
    relative_ranks,
    run_together,
    simulate_hiring,
    tight_noise_scale,
    tree_gamma,
    tree_levels,
    tree_mu,
    tree_rho,
    tree_sigma,
)


def _synthetic_env(seed=0, d=5, k=3, n=400):
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=d)
    theta /= np.linalg.norm(theta)
    # groups with shifted reward distributions: reward-greedy is unfair, rank-greedy is fair
    pools = []
    for g in range(k):
        x = rng.normal(size=(n, d)) * 0.2 + 0.3 * g * theta
        x /= np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1.0)
        pools.append(x)
    return HiringEnvironment(tuple(pools), theta, noise_sd=0.05)


def test_tree_without_noise_equals_exact_prefix_sums():
    rng = np.random.default_rng(1)
    rows = rng.normal(size=(37, 4))
    leaves = np.einsum("ni,nj->nij", rows, rows)
    prefixes = private_ridge_prefix(rows, 0.0, np.random.default_rng(2))
    np.testing.assert_allclose(prefixes, np.cumsum(leaves, axis=0), atol=1e-10)
    # ridge from the noiseless tree equals ridge regression
    x, y = rows[:, :3], rows[:, 3]
    m = prefixes[-1]
    theta = np.linalg.solve(m[:3, :3] + np.eye(3), m[:3, 3])
    np.testing.assert_allclose(theta, np.linalg.solve(x.T @ x + np.eye(3), x.T @ y), atol=1e-10)


def test_tree_node_noise_variance():
    # one leaf = one node: off-diagonal variance sigma^2, diagonal 2 sigma^2 (symmetrised noise)
    sigma, reps = 1.5, 4000
    rng = np.random.default_rng(3)
    draws = np.array([private_ridge_prefix(np.zeros((1, 3)), sigma, rng)[0] for _ in range(reps)])
    off, diag = draws[:, 0, 1].var(), draws[:, 0, 0].var()
    # var estimates over 4000 draws have relative sd ~ sqrt(2/4000) = 2.2%; 15% is > 6 sd
    assert abs(off / sigma**2 - 1) < 0.15, off
    assert abs(diag / (2 * sigma**2) - 1) < 0.15, diag
    np.testing.assert_allclose(draws[:, 0, 1], draws[:, 1, 0])


def test_shifted_noisy_gram_positive_definite():
    # stated: PD with high probability after the 2 Gamma I shift; we observe it in all 200 trials
    sigma, horizon, p = 1.0, 64, 6
    gamma = tree_gamma(sigma, horizon, p)
    rng = np.random.default_rng(4)
    for _ in range(200):
        noise = private_ridge_prefix(np.zeros((horizon // 2, p)), sigma, rng)[-1]
        assert np.linalg.eigvalsh(noise + 2 * gamma * np.eye(p)).min() > 0


def test_rank_estimation_equals_brute_force():
    rng = np.random.default_rng(5)
    window, values = rng.normal(size=300).round(1), rng.normal(size=50).round(1)
    brute = np.array([(window <= v).sum() / len(window) for v in values])
    np.testing.assert_array_equal(relative_ranks(window, values), brute)


@pytest.mark.parametrize("policy", [FairGreedy(), PrivateFairGreedy(), PrivateFairGreedy(rank_refresh=3)])
def test_fast_rank_equals_brute_force_counting(policy):
    """The histogram rank step (no noise: the traced counts are taken before the Gaussian of eq. (1))
    equals counting the window entry by entry with numpy dot products, in every round."""
    env = _synthetic_env(seed=2, d=4, k=3, n=60)  # small pools: many repeated rows in the window
    horizon = 500
    res = policy.run(env, horizon, np.random.default_rng(7), trace=True)
    cand = res["candidates"]
    for t in range(2, horizon + 1):
        t_tilde = (t - 1) // 2
        theta = res["theta"][t - 1]
        for k in range(len(env.pools)):
            scores = env.pools[k] @ theta  # one product per pool row, so equal rows tie exactly
            window, value = scores[cand[t_tilde : t - 1, k]], scores[cand[t - 1, k]]
            assert res["rank_counts"][t - 1, k] == np.sum(window <= value), (t, k)


@pytest.mark.parametrize("cls", [FairGreedy, PrivateFairGreedy])
def test_histogram_and_brute_rank_give_identical_runs(cls):
    env = _synthetic_env(seed=3)
    a = cls().run(env, 1500, np.random.default_rng(11))
    b = cls(rank_method="brute").run(env, 1500, np.random.default_rng(11))
    for key in ("fair_regret", "regret", "groups"):
        np.testing.assert_array_equal(a[key], b[key])


def _one_hot_env(seed=6, k=3, n=300):
    """Census-like pools: one-hot blocks plus a scaled numeric column, many repeated rows."""
    rng = np.random.default_rng(seed)
    pools = []
    for g in range(k):
        a, b = rng.integers(0, 4, n), rng.integers(0, 3, n)
        x = np.zeros((n, 4 + 3 + k + 1))
        x[np.arange(n), a] = 0.4
        x[np.arange(n), 4 + b] = 0.4
        x[:, 7 + g] = 0.4
        x[:, -1] = rng.integers(0, 5, n) / 10
        pools.append(x)
    theta = rng.normal(size=pools[0].shape[1]) / 3
    return HiringEnvironment(tuple(pools), theta, noise_sd=0.1)


def test_score_tree_gives_the_row_by_row_scores_bit_for_bit():
    """The prefix tree of the pools' sparse rows (shared partial sums) scores every distinct row with
    the very operations of the row-by-row sum over its non-zero entries, in column order."""
    from privbandits.policies.fair_hiring.kernels import _score_pool

    env = _one_hot_env()
    tree = env.arrays().score_tree
    pool = np.vstack(env.pools)
    assert tree.leaf_offsets[-1] == len(np.unique(pool, axis=0)) < len(pool)  # equal rows share a leaf
    theta = np.random.default_rng(1).normal(size=pool.shape[1])
    work, products = np.zeros(tree.parent.shape[0]), np.zeros(tree.entry_col.shape[0])
    leaf_scores = np.zeros(tree.leaf_offsets[-1])
    _score_pool(tree, theta, work, products, leaf_scores)
    for r, row in enumerate(pool):
        s = 0.0
        for c in np.flatnonzero(row):
            s = s + float(row[c]) * float(theta[c])  # IEEE double, in column order
        assert leaf_scores[tree.row_leaf[r]] == s, r


def _lockstep_cases():
    return [
        [
            PrivateFairGreedy(),
            PrivateFairGreedy(rank_refresh=3),
            PrivateFairGreedy(epsilon=1.0, calibration="tight"),
            PrivateFairGreedy(l_tilde_rule="data", rank_method="brute"),
        ],
        [FairGreedy(), FairGreedy(reg=0.3, rank_refresh=4), FairGreedy(rank_method="brute")],
        [OFUL(), OFUL(reg=2.0, delta=0.2)],
    ]


@pytest.mark.parametrize("horizon", [150, 333])  # one block of rounds and a part, several blocks and a part
def test_settings_run_together_exactly_as_alone(horizon):
    """Settings of one algorithm run in lockstep on one random stream get, bit for bit, the runs
    (records and traces) they get alone with the same generator, with drawn or fixed candidates."""
    env = _one_hot_env()
    fixed = np.random.default_rng(2).integers(0, 300, size=(horizon, 3))
    for settings in _lockstep_cases():
        for candidates in (None, fixed):
            together = run_together(settings, env, horizon, np.random.default_rng(5), trace=True, candidates=candidates)
            for policy, rec in zip(settings, together):
                alone = policy.run(env, horizon, np.random.default_rng(5), trace=True, candidates=candidates)
                assert rec.keys() == alone.keys()
                for key in rec:
                    np.testing.assert_array_equal(rec[key], alone[key], err_msg=f"{policy} {key}")


def test_run_together_rejects_settings_with_different_streams():
    env = _one_hot_env()
    with pytest.raises(ValueError, match="policies"):
        run_together([FairGreedy(), OFUL()], env, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="policies"):  # without noise the tree draws nothing
        run_together([PrivateFairGreedy(), PrivateFairGreedy(noise=False)], env, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="policies"):
        run_together([], env, 10, np.random.default_rng(0))


def test_rank_refresh_recomputes_theta_only_on_multiples():
    env = _synthetic_env(seed=4)
    res = FairGreedy(rank_refresh=5).run(env, 400, np.random.default_rng(0), trace=True)
    changes = [t for t in range(2, 401) if not np.array_equal(res["theta"][t - 1], res["theta"][t - 2])]
    assert changes and all(((t - 1) // 2) % 5 == 0 for t in changes), changes
    with pytest.raises(ValueError, match="rank_refresh"):
        FairGreedy(rank_refresh=0)
    with pytest.raises(ValueError, match="rank_method"):
        PrivateFairGreedy(rank_method="sorted")


def test_fair_greedy_fair_oful_not():
    env = _synthetic_env()
    fg = simulate_hiring(FairGreedy(), env, 3000, 2, seed=0, n_jobs=1, progress=False, use_cache=False)
    of = simulate_hiring(OFUL(), env, 3000, 2, seed=0, n_jobs=1, progress=False, use_cache=False)
    fg_rate = fg["fair_regret"][:, 1500:].mean()
    of_rate = of["fair_regret"][:, 1500:].mean()
    assert fg_rate < 0.05, fg_rate
    # OFUL hires by reward, so the top-shifted group dominates: per-round fair regret stays O(1)
    assert of_rate > 0.1 and of_rate > 5 * fg_rate, (of_rate, fg_rate)


def test_private_fair_greedy_without_noise_matches_selection_parity():
    env = _synthetic_env(seed=1)
    res = PrivateFairGreedy(noise=False).run(env, 2000, np.random.default_rng(0))
    assert res["fair_regret"][1000:].mean() < 0.05


def test_parameters_validated():
    with pytest.raises(ValueError, match="epsilon"):
        PrivateFairGreedy(epsilon=-1)
    with pytest.raises(ValueError, match="alpha_eps"):
        PrivateFairGreedy(alpha_eps=1.5)
    assert approx_dp_to_zcdp(1.5, 0.01) > 0 and math.isfinite(approx_dp_to_zcdp(1.5, 0.01))


# -------------------------------------------------------------------------------------------------
# Privacy calibration (Sections 4.1-4.2): Private-Fair-Greedy's tight guarantee on the exact
# Gaussian accounting, the ``calibration="tight"`` option and the L-tilde rules. All deterministic.


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


def _calibration_env():
    rng = np.random.default_rng(0)
    theta = rng.normal(size=4)
    theta /= np.linalg.norm(theta)
    pools = tuple(rng.normal(size=(50, 4)) * 0.4 + 0.2 * g for g in range(2))
    return HiringEnvironment(pools, theta, noise_sd=0.1)


def test_tight_calibration_scales_both_noises():
    env = _calibration_env()
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
    env = _calibration_env()
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
