"""Tests of privbandits.policies.fair_hiring.policies: OFUL, Fair-Greedy, Private-Fair-Greedy, run_together,
simulate_hiring and relative_ranks."""

import dataclasses
import math

import numpy as np
import pytest
from _policy_checks import one_hot_hiring_env, synthetic_hiring_env

from privbandits.mechanisms import approx_dp_to_zcdp
from privbandits.policies.fair_hiring import (
    OFUL,
    FairGreedy,
    PrivateFairGreedy,
    relative_ranks,
    run_together,
    tree_sigma,
)
from privbandits.simulate import simulate_hiring


def test_rank_estimation_equals_brute_force():
    rng = np.random.default_rng(5)
    window, values = rng.normal(size=300).round(1), rng.normal(size=50).round(1)
    brute = np.array([(window <= v).sum() / len(window) for v in values])
    np.testing.assert_array_equal(relative_ranks(window, values), brute)


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
    env = one_hot_hiring_env()
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
    env = one_hot_hiring_env()
    with pytest.raises(ValueError, match="policies"):
        run_together([FairGreedy(), OFUL()], env, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="policies"):  # without noise the tree draws nothing
        run_together([PrivateFairGreedy(), PrivateFairGreedy(noise=False)], env, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="policies"):
        run_together([], env, 10, np.random.default_rng(0))


def test_rank_refresh_recomputes_theta_only_on_multiples():
    env = synthetic_hiring_env(seed=4)
    res = FairGreedy(rank_refresh=5).run(env, 400, np.random.default_rng(0), trace=True)
    changes = [t for t in range(2, 401) if not np.array_equal(res["theta"][t - 1], res["theta"][t - 2])]
    assert changes and all(((t - 1) // 2) % 5 == 0 for t in changes), changes
    with pytest.raises(ValueError, match="rank_refresh"):
        FairGreedy(rank_refresh=0)
    with pytest.raises(ValueError, match="rank_method"):
        PrivateFairGreedy(rank_method="sorted")


def test_fair_greedy_fair_oful_not():
    env = synthetic_hiring_env()
    fg = simulate_hiring(FairGreedy(), env, 3000, 2, seed=0, n_jobs=1, progress=False, use_cache=False)
    of = simulate_hiring(OFUL(), env, 3000, 2, seed=0, n_jobs=1, progress=False, use_cache=False)
    fg_rate = fg["fair_regret"][:, 1500:].mean()
    of_rate = of["fair_regret"][:, 1500:].mean()
    assert fg_rate < 0.05, fg_rate
    # OFUL hires by reward, so the top-shifted group dominates: per-round fair regret stays O(1)
    assert of_rate > 0.1 and of_rate > 5 * fg_rate, (of_rate, fg_rate)


def test_private_fair_greedy_without_noise_matches_selection_parity():
    env = synthetic_hiring_env(seed=1)
    res = PrivateFairGreedy(noise=False).run(env, 2000, np.random.default_rng(0))
    assert res["fair_regret"][1000:].mean() < 0.05


def test_parameters_validated():
    with pytest.raises(ValueError, match="epsilon"):
        PrivateFairGreedy(epsilon=-1)
    with pytest.raises(ValueError, match="alpha_eps"):
        PrivateFairGreedy(alpha_eps=1.5)
    assert approx_dp_to_zcdp(1.5, 0.01) > 0 and math.isfinite(approx_dp_to_zcdp(1.5, 0.01))


# --- the authors' departures (DP-GMFBandits, commit 73ab664) ---------------------------------------


@pytest.mark.parametrize("cls", [OFUL, FairGreedy, PrivateFairGreedy])
def test_departures_switch_on_alone_and_off_alone(cls):
    printed, as_run = cls(), cls.as_run_by_authors()
    assert printed != as_run
    defaults = {f.name: f.default for f in dataclasses.fields(cls)}
    for d in cls.departures:
        assert d.value != defaults[d.field], d  # the printed algorithm is the field's default
        assert getattr(as_run, d.field) == d.value
        assert "DP-GMFBandits" in d.source and "line" in d.source
    ablations = {a.key: a.policy for a in cls.ablations()}
    assert ablations["printed"] == printed and ablations["authors"] == as_run
    for d in cls.departures:
        plus, minus = ablations[f"+{d.key}"], ablations[f"-{d.key}"]
        assert plus == dataclasses.replace(printed, **{d.field: d.value})
        assert minus == dataclasses.replace(as_run, **{d.field: defaults[d.field]})


@pytest.mark.parametrize(
    "cls, field, bad",
    [
        (OFUL, "radius", "abbasi"),
        (OFUL, "bonus_scale", 0.0),
        (OFUL, "bonus_scale", -1.0),
        (FairGreedy, "index_lag", 1),
        (FairGreedy, "theta_jitter", -1e-8),
        (FairGreedy, "theta_jitter", math.nan),
        (PrivateFairGreedy, "tree_budget", "regression"),
        (PrivateFairGreedy, "tree_shift", "twice"),
        (PrivateFairGreedy, "index_lag", "yes"),
        (PrivateFairGreedy, "clip_rewards", 0),
    ],
)
def test_departure_options_are_validated(cls, field, bad):
    with pytest.raises(ValueError, match=field):
        cls(**{field: bad})


def test_tree_noise_from_the_total_budget_is_the_codes():
    """BinaryMechanism._gaussian_noise (policies.py lines 254-269) with epsilon, delta = (15, 0.1), T/2 leaves."""
    env, horizon = synthetic_hiring_env(), 50_000
    share = PrivateFairGreedy().calibration_values(env, horizon)
    total = PrivateFairGreedy(tree_budget="total").calibration_values(env, horizon)
    ltil = share["l_tilde"]
    m = int(np.ceil(np.log2(horizon / 2))) + 1  # the code's logT + 1 with T/2
    assert total["sigma_noise"] == pytest.approx(4 * ltil**2 * np.sqrt(m) * np.log(4 / 0.1) / 15.0, rel=1e-12)
    assert share["sigma_noise"] == pytest.approx(tree_sigma(13.5, 0.09, horizon, ltil), rel=1e-12)
    # the rank step keeps its share either way
    assert total["rho_rank"] == share["rho_rank"] and total["eps_rank"] == pytest.approx(1.5)
    per_node = PrivateFairGreedy(tree_shift="per_node").calibration_values(env, horizon)
    d = env.theta_star.shape[0]
    code_gamma = share["sigma_noise"] * np.sqrt(2 * m) * (4 * np.sqrt(d) + 2 * np.log(2 * (horizon / 2) * horizon))
    assert per_node["gamma"] == pytest.approx(code_gamma, rel=1e-12)


def test_rewards_unclipped_as_run():
    env = synthetic_hiring_env()
    assert PrivateFairGreedy(clip_rewards=False).kernel_params(env, 100).y_clip == math.inf
    assert PrivateFairGreedy().kernel_params(env, 100).y_clip == env.y_clip()


def _gdp_delta(epsilon, mu):
    """delta(epsilon) of a mu-GDP mechanism (Dong, Roth and Su, Corollary 2.13), by hand."""
    from scipy.stats import norm

    return norm.cdf(-epsilon / mu + mu / 2) - math.exp(epsilon) * norm.cdf(-epsilon / mu - mu / 2)


@pytest.mark.parametrize(
    "kwargs, tree_eps, tree_delta",
    [({}, 13.5, 0.09), ({"tree_budget": "total"}, 15.0, 0.1), ({"epsilon": 2.0, "delta": 0.01}, 1.8, 0.009)],
)
def test_guarantee_composes_the_tree_and_the_rank_step_exactly(kwargs, tree_eps, tree_delta):
    """The tree is mu_reg-GDP with mu_reg = eps_tree / (4 ln(4 / delta_tree)), the rank step
    sqrt(2 rho_rank)-GDP; together sqrt(mu_reg^2 + mu_rank^2)-GDP, whose delta at the returned
    epsilon is the stated delta (checked with the GDP curve written out here)."""
    policy = PrivateFairGreedy(**kwargs)
    epsilon, delta, proven = policy.guarantee(5_000)
    assert delta == policy.delta and proven
    mu_reg = tree_eps / (4 * math.log(4 / tree_delta))
    eps_rank, delta_rank = policy.epsilon * 0.1, policy.delta * 0.1
    mu = math.hypot(mu_reg, math.sqrt(2 * approx_dp_to_zcdp(eps_rank, delta_rank)))
    assert _gdp_delta(epsilon, mu) == pytest.approx(delta, rel=1e-6)
    assert epsilon < policy.epsilon  # the printed calibration over-delivers
    # at a stated delta; independent of the horizon
    eps_at, delta_at, _ = policy.guarantee(50_000, delta=1e-3)
    assert delta_at == 1e-3 and eps_at > epsilon
    assert _gdp_delta(eps_at, mu) == pytest.approx(1e-3, rel=1e-6)


def test_guarantee_of_the_tight_calibration_is_its_target():
    epsilon, delta, proven = PrivateFairGreedy(calibration="tight").guarantee(5_000)
    assert epsilon == pytest.approx(15.0, rel=1e-9) and delta == 0.1 and proven


@pytest.mark.parametrize("kwargs", [{"l_tilde_rule": "data"}, {"clip_rewards": False}, {"l_tilde": 1.0}])
def test_guarantee_not_proven_where_the_leaf_bound_can_fail(kwargs):
    assert not PrivateFairGreedy(**kwargs).guarantee(5_000)[2]
    assert not PrivateFairGreedy.as_run_by_authors().guarantee(5_000)[2]


def test_guarantee_of_non_private_settings():
    for policy in (OFUL(), FairGreedy(), PrivateFairGreedy(noise=False)):
        assert policy.guarantee(100) == (math.inf, 0.0, True)
    with pytest.raises(ValueError, match="delta"):
        PrivateFairGreedy().guarantee(100, delta=1.5)
    with pytest.raises(ValueError, match="horizon"):
        PrivateFairGreedy().guarantee(0)
