"""Tests of privbandits.mechanisms.

Statistical tests use fixed seeds; each states its false-failure probability (the probability that
the assertion fails for a correct implementation, over the randomness of a fresh seed).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats
from scipy.stats import norm

from privbandits import mechanisms as mech
from privbandits.mechanisms import (
    gaussian_composition_epsilon,
    gaussian_composition_multiplier,
    gaussian_noise_multiplier,
    zcdp_to_approx_dp,
)
from privbandits.policies.fair_hiring import rank_mu, tree_mu


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


# ----------------------------------------------------------------------------- one-shot mechanisms


@pytest.mark.parametrize("epsilon, sensitivity", [(0.1, 1.0), (1.0, 2.0), (5.0, 0.5)])
def test_laplace_noise_mean_and_scale(epsilon, sensitivity):
    """Mean 0 and mean absolute deviation = scale, each within 5 standard errors
    (false-failure probability < 1.2e-6 per check by the CLT)."""
    n = 400_000
    out = mech.laplace_mechanism(np.zeros(n), sensitivity, epsilon, rng(1)) - 0.0
    scale = sensitivity / epsilon
    assert abs(out.mean()) < 5 * math.sqrt(2) * scale / math.sqrt(n)
    mad = np.abs(out).mean()  # E|Y| = b, Var|Y| = b^2
    assert abs(mad - scale) < 5 * scale / math.sqrt(n)


def test_gaussian_noise_scale_and_calibration():
    """Sample std within 5 standard errors of sigma (false-failure probability < 1e-6)."""
    n = 400_000
    sigma = mech.gaussian_sigma(1.0, 0.5, 1e-5)
    assert sigma == pytest.approx(math.sqrt(2 * math.log(1.25 / 1e-5)) / 0.5)
    out = mech.gaussian_mechanism(np.zeros(n), 1.0, rng(2), sigma=sigma)
    assert abs(out.std() - sigma) < 5 * sigma / math.sqrt(2 * n)
    assert abs(out.mean()) < 5 * sigma / math.sqrt(n)


def test_zcdp_conversions_round_trip_and_monotone():
    for eps in (0.01, 0.5, 1.0, 10.0):
        for delta in (1e-9, 1e-5, 0.1):
            rho = mech.approx_dp_to_zcdp(eps, delta)
            assert mech.zcdp_to_approx_dp(rho, delta) == pytest.approx(eps, rel=1e-10)
    assert mech.gaussian_sigma_zcdp(2.0, 0.3) == pytest.approx(2.0 / math.sqrt(0.6))  # rho = Delta^2 / (2 sigma^2)
    assert mech.approx_dp_to_zcdp(1.0, 1e-6) < mech.approx_dp_to_zcdp(2.0, 1e-6)


@pytest.mark.parametrize("mu", [0.0, 0.1, 0.5, 0.83, 1.0])
@pytest.mark.parametrize("epsilon", [0.2, 1.0, 4.0])
def test_privbern_output_mean(mu, epsilon):
    """Empirical mean of PrivBern on Bernoulli(mu) rewards equals
    1/2 + (2 mu - 1)(e^eps - 1)/(2(e^eps + 1)) within 5 standard errors (false-failure < 6e-7 each)."""
    n = 200_000
    generator = rng(3)
    rewards = (generator.random(n) < mu).astype(float)
    out = mech.privbern(rewards, epsilon, generator)
    expected = 0.5 + (2 * mu - 1) * (math.exp(epsilon) - 1) / (2 * (math.exp(epsilon) + 1))
    assert mech.privbern_mean(mu, epsilon) == pytest.approx(expected)
    assert abs(out.mean() - expected) < 5 * math.sqrt(0.25 / n)


def test_privbern_mean_on_fractional_rewards():
    """The output mean depends on the reward's mean only (here rewards uniform on [0, 1], mean 1/2,
    and constant 0.3); 5 standard errors, false-failure < 6e-7 each."""
    n = 200_000
    out = mech.privbern(np.full(n, 0.3), 1.0, rng(4))
    assert abs(out.mean() - mech.privbern_mean(0.3, 1.0)) < 5 * math.sqrt(0.25 / n)


def test_randomized_response_flip_rate():
    n = 200_000
    out = mech.randomized_response(np.ones(n, dtype=int), math.log(3.0), rng(5))  # keep prob 3/4
    assert abs(out.mean() - 0.75) < 5 * math.sqrt(0.1875 / n)


# ----------------------------------------------------------------------------- counters


def test_counters_are_exact_without_noise():
    stream = rng(6).random(5_000)
    truth = np.cumsum(stream)
    np.testing.assert_allclose(mech.binary_tree_prefix_sums(stream, 1e12, rng(7)), truth, atol=1e-6)
    np.testing.assert_allclose(mech.hybrid_prefix_sums(stream, 1e12, rng(7)), truth, atol=1e-6)


def test_online_counters_match_batch_release():
    stream = rng(8).random(300)
    batch_binary = mech.binary_tree_prefix_sums(stream, 0.7, rng(9))
    counter = mech.BinaryTreeCounter(0.7, 300, rng(9))
    np.testing.assert_allclose([counter.insert(x) for x in stream], batch_binary)
    batch_hybrid = mech.hybrid_prefix_sums(stream, 0.7, rng(10))
    hybrid = mech.HybridCounter(0.7, rng(10))
    np.testing.assert_allclose([hybrid.insert(x) for x in stream], batch_hybrid)
    assert counter.count == hybrid.count == 300
    with pytest.raises(ValueError, match="horizon"):
        counter.insert(0.5)


def test_binary_counter_noise_terms():
    """Release t carries popcount(t) independent Lap(L/eps) terms: check the variance at t = 7 (3
    terms) and t = 8 (1 term) over 20,000 streams; ratio of variances ~ 3 within 10% (the variance
    estimates have relative sd ~ sqrt(5/20000)*... ~ 1.6%, so a 10% miss is > 4 sd: < 1e-4)."""
    n_streams, horizon, eps = 20_000, 8, 1.0
    generator = rng(11)
    releases = np.array([mech.binary_tree_prefix_sums(np.zeros(horizon), eps, generator) for _ in range(n_streams)])
    scale = 4 / eps  # L = floor(log2 8) + 1 = 4
    var7, var8 = releases[:, 6].var(), releases[:, 7].var()
    assert var8 == pytest.approx(2 * scale**2, rel=0.1)
    assert var7 == pytest.approx(3 * 2 * scale**2, rel=0.1)


@pytest.mark.parametrize("counter", ["binary", "hybrid"])
def test_counter_error_within_bound(counter):
    """At a fixed time t, the release's error exceeds the gamma = 0.05 bound with probability <= 0.05.
    Over 2,000 independent streams the number of exceedances is Binomial(2000, p <= 0.05); the test
    fails if it exceeds the Binomial(2000, 0.05) upper 1e-6 quantile (false-failure probability
    <= 1e-6)."""
    n_streams, t, eps, gamma = 2_000, 1_000, 0.5, 0.05
    generator = rng(12)
    exceed = 0
    if counter == "binary":
        bound = mech.binary_counter_error_bound(t - 1, eps, t, gamma)
    else:
        bound = mech.hybrid_counter_error_bound(t - 1, eps, gamma)
    for _ in range(n_streams):
        stream = (generator.random(t) < 0.5).astype(float)
        if counter == "binary":
            release = mech.binary_tree_prefix_sums(stream, eps, generator)
        else:
            release = mech.hybrid_prefix_sums(stream, eps, generator)
        exceed += abs(release[t - 2] - stream[: t - 1].sum()) > bound
    limit = stats.binom.isf(1e-6, n_streams, gamma)
    assert exceed <= limit


def test_error_bounds_grow_and_shrink_as_expected():
    b1 = mech.binary_counter_error_bound(1023, 1.0, 1024, 0.05)  # 10 terms
    b2 = mech.binary_counter_error_bound(1024, 1.0, 1024, 0.05)  # 1 term
    assert b1 > b2 > 0
    assert mech.hybrid_counter_error_bound(1000, 2.0, 0.05) < mech.hybrid_counter_error_bound(1000, 1.0, 0.05)
    assert mech.tossou_hybrid_error_bound(100, 1.0, 0.05) == pytest.approx(
        math.sqrt(8) * math.log(80) * (math.log(100) + 1)
    )
    assert mech.laplace_sum_tail_bound(np.array([]), 0.1) == 0.0


# ----------------------------------------------------------------------------- empirical privacy check


def _privacy_loss_lower_bound(sample0, sample1, thresholds, alpha):
    """Largest one-sided (1 - alpha) lower confidence bound on log(P0(E)/P1(E)) over the events
    E = {y > c}, c in thresholds, both directions, Clopper-Pearson with Bonferroni over the events."""
    n0, n1 = sample0.size, sample1.size
    per_event = alpha / (2 * len(thresholds))
    best = -np.inf
    for c in thresholds:
        for a, b, na, nb in ((sample0, sample1, n0, n1), (sample1, sample0, n1, n0)):
            ka, kb = int((a > c).sum()), int((b > c).sum())
            if ka == 0:
                continue
            # lower bound for P_a(E) and upper bound for P_b(E), each at level per_event / 2
            p_lo = stats.beta.ppf(per_event / 2, ka, na - ka + 1)
            p_hi = 1.0 if kb == nb else stats.beta.ppf(1 - per_event / 2, kb + 1, nb - kb)
            best = max(best, math.log(p_lo / p_hi))
    return best


def test_empirical_privacy_check_passes_laplace_and_catches_halved_noise():
    """Neighbouring values 0 and 1 (sensitivity 1), eps = 1, 10^6 samples each. For the correct
    mechanism the lower confidence bound on the privacy loss must stay <= eps (false-failure
    probability <= alpha = 1e-6 by Clopper-Pearson + Bonferroni); for noise halved (true loss 2 eps)
    it must exceed eps (it does by a wide margin: the true loss is 2)."""
    eps, n, alpha = 1.0, 1_000_000, 1e-6
    thresholds = np.linspace(-2.0, 4.0, 13)
    generator = rng(13)
    good0 = mech.laplace_mechanism(np.zeros(n), 1.0, eps, generator)
    good1 = mech.laplace_mechanism(np.ones(n), 1.0, eps, generator)
    assert _privacy_loss_lower_bound(good0, good1, thresholds, alpha) <= eps
    bad0 = mech.laplace_mechanism(np.zeros(n), 0.5, eps, generator)  # noise halved: 2 eps-DP
    bad1 = mech.laplace_mechanism(np.ones(n), 0.5, eps, generator)
    assert _privacy_loss_lower_bound(bad0, bad1, thresholds, alpha) > eps


# ----------------------------------------------------------------------------- bad input


BAD_CALLS = [
    (lambda: mech.laplace_mechanism(0.0, 1.0, 0.0, rng()), "epsilon"),
    (lambda: mech.laplace_mechanism(0.0, 1.0, -1.0, rng()), "epsilon"),
    (lambda: mech.laplace_mechanism(0.0, 1.0, float("inf"), rng()), "epsilon"),
    (lambda: mech.laplace_mechanism(0.0, 1.0, float("nan"), rng()), "epsilon"),
    (lambda: mech.laplace_mechanism(0.0, 0.0, 1.0, rng()), "sensitivity"),
    (lambda: mech.laplace_mechanism(float("nan"), 1.0, 1.0, rng()), "value"),
    (lambda: mech.gaussian_sigma(1.0, 0.5, 0.0), "delta"),
    (lambda: mech.gaussian_sigma(1.0, 0.5, 1.0), "delta"),
    (lambda: mech.gaussian_sigma(1.0, 1.5, 0.1), "epsilon"),
    (lambda: mech.gaussian_sigma_zcdp(1.0, 0.0), "rho"),
    (lambda: mech.gaussian_mechanism(0.0, 1.0, rng(), sigma=-1.0), "sigma"),
    (lambda: mech.zcdp_to_approx_dp(-0.1, 0.1), "rho"),
    (lambda: mech.approx_dp_to_zcdp(1.0, 2.0), "delta"),
    (lambda: mech.randomized_response([0, 2], 1.0, rng()), "bits"),
    (lambda: mech.privbern([-0.1], 1.0, rng()), "rewards"),
    (lambda: mech.privbern([0.5], 0.0, rng()), "epsilon"),
    (lambda: mech.privbern_mean(0.5, -1.0), "epsilon"),
    (lambda: mech.binary_tree_prefix_sums([0.5, 2.0], 1.0, rng()), "stream"),
    (lambda: mech.binary_tree_prefix_sums([0.5, 0.5], 1.0, rng(), horizon=1), "horizon"),
    (lambda: mech.hybrid_prefix_sums([[0.5]], 1.0, rng()), "stream"),
    (lambda: mech.BinaryTreeCounter(1.0, 0, rng()), "horizon"),
    (lambda: mech.HybridCounter(0.0, rng()), "epsilon"),
    (lambda: mech.HybridCounter(1.0, rng()).insert(1.5), "x"),
    (lambda: mech.binary_counter_error_bound(10, 1.0, 5, 0.1), "t"),
    (lambda: mech.hybrid_counter_error_bound(0, 1.0, 0.1), "t"),
    (lambda: mech.laplace_sum_tail_bound([1.0], 1.5), "gamma"),
    (lambda: mech.tossou_hybrid_error_bound(0, 1.0, 0.1), "n"),
]


@pytest.mark.parametrize("call, name", BAD_CALLS)
def test_bad_input_raises_value_error_naming_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_laplace_logcdf_is_scipys_without_underflow():
    from scipy import stats

    from privbandits.mechanisms import laplace_logcdf

    x = np.linspace(-60.0, 60.0, 241)
    np.testing.assert_allclose(laplace_logcdf(x, 3.0), stats.laplace.logcdf(x, scale=3.0), rtol=1e-12, atol=1e-15)
    far = laplace_logcdf(np.array([-1e6, 1e6]), 2.0)  # scipy's CDF underflows to 0 at -1e6
    assert far[0] == pytest.approx(np.log(0.5) - 5e5) and far[1] == 0.0
    with pytest.raises(ValueError, match="scale"):
        laplace_logcdf(0.0, 0.0)


# ----------------------------------------------------------------------------- exact Gaussian accounting
# (``gaussian_*``: all deterministic, so no false-failure probability to state)


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


@pytest.mark.parametrize("release", ["binary", "hybrid"])
def test_counter_runs_equal_successive_calls(release):
    """``runs=n`` draws n releases of the stream in compiled code, bit-identical to n successive calls."""
    from privbandits.mechanisms import binary_tree_prefix_sums, hybrid_prefix_sums

    stream = np.array([0.0, 1.0, 0.5, 1.0, 0.0, 1.0, 1.0])
    fn = binary_tree_prefix_sums if release == "binary" else hybrid_prefix_sums
    batch = fn(stream, 0.7, np.random.default_rng(11), runs=30)
    rng = np.random.default_rng(11)
    loop = np.stack([fn(stream, 0.7, rng) for _ in range(30)])
    assert batch.shape == (30, 7)
    np.testing.assert_array_equal(batch, loop)
    with pytest.raises(ValueError, match="runs"):
        fn(stream, 0.7, np.random.default_rng(0), runs=0)


def test_the_counter_helpers_a_policy_uses_are_public():
    """Kernels size, scale and bound their counters with public helpers; no policy imports a private
    name of :mod:`privbandits.mechanisms`."""
    import ast
    from pathlib import Path

    assert [mech.binary_counter_levels(n) for n in (1, 2, 7, 8, 1000)] == [1, 2, 3, 4, 10]
    assert [mech.binary_counter_terms(n) for n in (0, 1, 6, 7, 8)] == [0, 1, 2, 3, 1]
    for helper, bad, name in (
        (mech.binary_counter_levels, 0, "horizon"),
        (mech.binary_counter_levels, -3, "horizon"),
        (mech.binary_counter_terms, -1, "n must"),
        (mech.binary_counter_states, -1, "n must"),
        (mech.hybrid_counter_states, -1, "n must"),
    ):
        with pytest.raises(ValueError, match=name):
            helper(bad)
    states = mech.binary_counter_states(3)
    assert states.shape == (3, mech.binary_counter_state().size) and not states.any()
    assert mech.hybrid_counter_states(2).shape == (2, mech.hybrid_counter_state().size)
    counter = mech.BinaryTreeCounter(0.5, 1000, np.random.default_rng(0))
    assert counter.scale == mech.binary_counter_levels(1000) / 0.5
    policies = Path(mech.__file__).parent / "policies"
    for path in policies.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("mechanisms"):
                private = [alias.name for alias in node.names if alias.name.startswith("_")]
                assert not private, f"{path.name} imports private names of mechanisms: {private}"
