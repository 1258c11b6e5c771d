"""Tests of Part I: Private-UCB (Mishra-Thakurta) and DP-UCB-BOUND / DP-UCB / DP-UCB-INT (Tossou-Dimitrakakis)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from privbandits import bernoulli_instance, simulate
from privbandits.mechanisms import (
    HybridCounter,
    binary_counter_error_bound,
    laplace_iid_sum_tail_bound,
    laplace_sum_tail_bound,
)
from privbandits.policies.private_ucb import (
    DPUCB,
    DPUCBBound,
    DPUCBInt,
    PrivateUCB,
    dp_ucb_bound_bonus,
    dp_ucb_bound_miscoverage,
    dp_ucb_bound_theorem_epsilon,
    dp_ucb_int_input_epsilon,
    dp_ucb_int_privacy,
    dp_ucb_int_release_counts,
    lambert_pull_threshold,
    private_ucb_noise_scale,
    private_ucb_relaxation,
    regret_bound_dp_ucb,
    regret_bound_dp_ucb_bound,
    regret_bound_dp_ucb_int,
    release_points,
)

POLICIES = [
    PrivateUCB(1.0),
    DPUCBBound(1.0),
    DPUCBBound(1.0, bonus="printed"),
    DPUCBBound(1.0, hybrid_split=False),
    DPUCB(1.0),
    DPUCBInt(0.05),
]


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: f"{p.name}-{p.config()}")
def test_reproducible_and_in_range(policy):
    inst = bernoulli_instance([0.3, 0.5, 0.45])
    a = policy.run(inst, 3_000, np.random.default_rng(4))["arms"]
    b = policy.run(inst, 3_000, np.random.default_rng(4))["arms"]
    np.testing.assert_array_equal(a, b)
    assert a.min() >= 0 and a.max() < 3


@pytest.mark.parametrize(
    "policy", [PrivateUCB(2.0), DPUCBBound(2.0), DPUCB(2.0), DPUCBInt.for_target(1.0)], ids=lambda p: p.name
)
def test_best_arm_dominates_on_an_easy_instance(policy):
    """Gap 0.5, T = 20,000, 20 runs: the best arm gets more than half of the pulls in every run.
    (Expected suboptimal pulls are at most a few thousand for every algorithm at this epsilon: the
    margin is large; a failure would mean a broken index.)"""
    res = simulate(policy, bernoulli_instance([0.25, 0.75]), 20_000, runs=20, seed=11, cache=False, progress=False)
    assert np.all(res.pull_counts()[:, 1] > 10_000)


def test_release_points_hand_computed():
    # eps = 1/4, v = 1.5: W_1 = 3 (1 + 2^-.75 + 3^-.75 = 2.033 >= 4 * 3^-.75 = 1.755, and x = 2 fails),
    # W_2 = 7 (4^-.75 + ... + 7^-.75 = 1.146 >= 4 * 7^-.75 = 0.929; x = 6: 0.914 < 1.044),
    # W_3 = 11 (8^-.75 + ... + 11^-.75 = 0.746 >= 4 * 11^-.75 = 0.662; x = 10: 0.581 < 0.711)
    assert release_points(0.25, 1.5, 11).tolist() == [3, 7, 11]
    assert release_points(0.25, 1.5, 10).tolist() == [3, 7]
    assert release_points(0.25, 1.5, 20, simplified=True).tolist() == [4, 8, 12, 16, 20]
    points = release_points(0.01, 1.1, 50_000)
    assert np.all(np.diff(points) <= math.ceil(1 / 0.01))  # Lemma B.1: f_n <= ceil(1/eps)


def test_dp_ucb_int_releases_at_the_release_points():
    """Every release happens when an arm's count is a release point: the number of releases equals
    the number of release points each arm's final count has passed, less at most one (an arm that
    reaches a point on the very last pull is not released)."""
    inst = bernoulli_instance([0.4, 0.6, 0.5])
    policy = DPUCBInt(0.05, 1.2)
    out = policy.run(inst, 5_000, np.random.default_rng(0))
    counts = np.bincount(out["arms"], minlength=3)
    points = release_points(0.05, 1.2, 5_000)
    passed = sum(int(np.sum(points <= c)) for c in counts)
    assert passed - 1 <= int(out["releases"]) <= passed
    # the round robin phase: the first K * f0 rounds cycle through the arms
    f0 = int(points[0])
    np.testing.assert_array_equal(out["arms"][: 3 * f0], np.tile(np.arange(3), f0))


def test_dp_ucb_int_noise_scale_lemma_3_1():
    """Lemma 3.1: a release at n pulls adds Lap(n^(v/2 - 1)) to the mean. With a reward table where
    arm 0 always pays 0 and arm 1 always pays 1, the first releases (both at n = f0, same t) differ by
    1 + (L1 - L0), L_i ~ Lap(b), b = f0^(v/2 - 1), so the first pull after round robin goes to arm 0
    with probability P(L0 - L1 > 1) = exp(-1/b) (1 + 1/(2b)) / 2. Checked over 4,000 runs within 5
    standard errors (false-failure probability < 6e-7); a scale off by a factor 2 moves the
    probability by more than 10 standard errors."""
    v = 1.2
    f0 = int(release_points(0.05, v, 400)[0])
    b = f0 ** (v / 2 - 1)
    expected = 0.5 * math.exp(-1 / b) * (1 + 1 / (2 * b))
    table = np.zeros((400, 2))
    table[:, 1] = 1.0
    inst = bernoulli_instance([0.5, 0.5]).with_table(table)
    policy = DPUCBInt(0.05, v)
    n = 4_000
    chose_zero = np.mean([policy.run(inst, 2 * f0 + 1, np.random.default_rng(s))["arms"][-1] == 0 for s in range(n)])
    assert abs(chose_zero - expected) < 5 * math.sqrt(expected * (1 - expected) / n)
    half = 0.5 * math.exp(-2 / b) * (1 + 1 / b)  # what a halved scale would give
    assert abs(half - expected) > 10 * math.sqrt(expected * (1 - expected) / n)


def test_corollary_3_2_inverted_by_corollary_3_1():
    for eps_prime in (0.01, 0.1, 0.5, 1.0):
        for delta_prime in (math.exp(-10), 1e-3, 0.5):
            eps = dp_ucb_int_input_epsilon(eps_prime, delta_prime, 1.1)
            assert dp_ucb_int_privacy(10**12, eps, 1.1, delta_prime) == pytest.approx(eps_prime, rel=1e-9)
    # for short horizons the first (t-dependent) term of the minimum is smaller
    eps = dp_ucb_int_input_epsilon(1.0)
    assert dp_ucb_int_privacy(100, eps) < 1.0


def test_regret_bounds_are_positive_and_increasing():
    t = np.array([10, 100, 1_000, 10_000])
    gaps = np.array([0.0, 0.3])
    for bound in (
        regret_bound_dp_ucb_bound(t, gaps, 1.0),
        regret_bound_dp_ucb(t, gaps, 1.0),
        regret_bound_dp_ucb_int(t, gaps, 50),
    ):
        assert np.all(bound > 0) and np.all(np.diff(bound) >= 0)


def test_lambert_threshold_solves_the_proof_inequality():
    """n = -B W_{-1}(-1/(eB)) is the root of exp(n/B) = e n above B: the inequality holds at n and
    fails just below it; it is below the paper's approximation B (ln B + 7) for these B."""
    b = np.array([1.5, 4.0, 100.0, 1e4, 1e8])
    n = lambert_pull_threshold(b)
    assert np.all(n > b)
    np.testing.assert_allclose(n / b - np.log(np.e * n), 0.0, atol=1e-9)
    below = 0.999 * n
    assert np.all(below / b < np.log(np.e * below))
    assert np.all(n < b * (np.log(b) + 7.0))
    t = np.array([100, 10_000])
    assert np.all(
        regret_bound_dp_ucb_bound(t, [0.3], 1.0, exact_lambert=True) <= regret_bound_dp_ucb_bound(t, [0.3], 1.0)
    )


# ---------------------------------------------------------------------------------------------
# Item 7 of issue 11: DP-UCB-BOUND's bonus must cover the noise the counter really adds
# ---------------------------------------------------------------------------------------------


def _popcount(x):
    return bin(x).count("1")


@pytest.mark.parametrize("split", [True, False])
@pytest.mark.parametrize("epsilon", [0.3, 1.0])
def test_bound_bonus_is_eq_2_2_at_the_counters_noise_scales(epsilon, split):
    """The default bonus is, for each part of the hybrid counter's release, Chan et al.'s
    Corollary 2.9 at gamma/2 = t^-4 / 2 for exactly the Laplace terms that part holds: ``k + 1``
    logarithmic terms ``Lap(1/eps_log)`` and ``popcount(n - 2^k)`` tree terms
    ``Lap(k/eps_tree)``, ``k = floor(log2 n)``, with the scales read off the counter itself. (On
    the old code the bonus was Eq. (2.2) with the full epsilon and ln n: half of this or less.)"""
    counter = HybridCounter(epsilon, np.random.default_rng(0), split=split)
    for t in (10, 1_000, 100_000):
        gamma = float(t) ** -4
        for n in sorted({1, 2, 3, 5, 8, 13, 100, 127, 128, 1_000, 4_097, 65_535, t} - {0}):
            if n > t:
                continue
            k = n.bit_length() - 1
            expected = laplace_sum_tail_bound(np.full(k + 1, 1.0 / counter.epsilon_log), gamma / 2)
            if n != 1 << k:
                expected += laplace_sum_tail_bound(
                    np.full(_popcount(n - (1 << k)), k / counter.epsilon_tree), gamma / 2
                )
            assert dp_ucb_bound_bonus(n, t, epsilon, hybrid_split=split) == pytest.approx(expected, rel=1e-12)
    # the printed form: sqrt(8)/eps ln(4 t^4) (ln n + 1), or without the ln n at powers of two
    c = math.sqrt(8.0) / epsilon * math.log(4.0 * 1_000.0**4)
    assert dp_ucb_bound_bonus(100, 1_000, epsilon, hybrid_split=split, bonus="printed") == pytest.approx(
        c * math.log(100) + c
    )
    assert dp_ucb_bound_bonus(64, 1_000, epsilon, hybrid_split=split, bonus="printed") == pytest.approx(c)


def test_bound_bonus_meets_its_confidence_level():
    """At n = 2^k the counter's error is a sum of k + 1 i.i.d. Laplace terms, whose tail is computed
    exactly (checked here against the closed forms for one and two terms). The default bonus fails
    with probability below gamma = t^-4 for the split and the paper's counter; the printed bonus on
    the split (epsilon-DP) counter does not: at n = 2^16, t = 10^5 its failure probability is more
    than 100 times t^-4."""
    b = 2.0  # Lap(2/eps) at eps = 1, split counter
    for n, t in ((1, 5), (2, 5)):
        x = dp_ucb_bound_bonus(n, t, 1.0)
        exact = math.exp(-x / b) if n == 1 else math.exp(-x / b) * (2.0 + x / b) / 2.0
        assert dp_ucb_bound_miscoverage(n, t, 1.0) == pytest.approx(exact, rel=1e-6)
    for t in (100, 10_000, 100_000):
        for k in range(0, int(math.log2(t)) + 1):
            for split in (True, False):
                assert dp_ucb_bound_miscoverage(2**k, t, 1.0, hybrid_split=split) <= float(t) ** -4
    assert dp_ucb_bound_miscoverage(2**16, 100_000, 1.0, bonus="printed") > 100 * 1e-20


@pytest.mark.parametrize("epsilon, matched, printed", [(1.0, 512, 256), (4.0, 128, 64)])
def test_bound_policy_uses_the_matched_bonus(epsilon, matched, printed):
    """Behaviour, not arithmetic: a reward table where arm 0 always pays 1 and arm 1 always pays 0.
    The bonus dominates the index, drops at each power of two, and holds arm 1's count at a power
    of two; a noise-free replay of the index with :func:`dp_ucb_bound_bonus` gives the counts
    ``matched`` (default bonus) and ``printed`` (``bonus="printed"``: half). The policy must
    reproduce them in each of 10 runs. Moving a count off its power of two needs the counter's noise
    to exceed its bonus margin (more than 15 standard deviations of the Laplace sum): the
    false-failure probability is below 1e-12 per run. On the old code the default policy gave
    ``printed``."""
    horizon = 20_000
    table = np.zeros((horizon, 2))
    table[:, 0] = 1.0
    inst = bernoulli_instance([0.5, 0.5]).with_table(table)

    def replay(bonus):
        n, s = [1, 1], [1.0, 0.0]
        for t in range(3, horizon + 1):
            idx = [
                s[a] / n[a]
                + math.sqrt(2 * math.log(t) / n[a])
                + dp_ucb_bound_bonus(n[a], t, epsilon, bonus=bonus) / n[a]
                for a in (0, 1)
            ]
            a = int(idx[1] > idx[0])
            n[a] += 1
            s[a] += 1.0 - a
        return n[1]

    assert replay("matched") == matched and replay("printed") == printed
    for bonus, expected in (("matched", matched), ("printed", printed)):
        policy = DPUCBBound(epsilon) if bonus == "matched" else DPUCBBound(epsilon, bonus="printed")
        counts = [int(np.sum(policy.run(inst, horizon, np.random.default_rng(s))["arms"] == 1)) for s in range(10)]
        assert counts == [expected] * 10


def test_theorem_3_2_epsilon_dominates_the_matched_bonus():
    """Theorem 3.2's proof applies to the matched bonus at eps_part ln 2: its h_n (the printed form
    at that epsilon, without the power-of-two shortcut) is at least the bonus for every n <= t."""
    for split in (True, False):
        eps_thm = dp_ucb_bound_theorem_epsilon(1.0, hybrid_split=split)
        assert eps_thm == pytest.approx((0.5 if split else 1.0) * math.log(2))
        for t in (10, 1_000, 100_000):
            c = math.sqrt(8.0) / eps_thm * math.log(4.0 * float(t) ** 4)
            for n in range(1, min(t, 5_000) + 1):
                assert dp_ucb_bound_bonus(n, t, 1.0, hybrid_split=split) <= c * math.log(n) + c + 1e-9
    assert dp_ucb_bound_theorem_epsilon(1.0, bonus="printed") == 1.0
    t = np.array([1_000, 100_000])
    assert np.all(regret_bound_dp_ucb_bound(t, [0.3], 1.0, bonus="matched") > regret_bound_dp_ucb_bound(t, [0.3], 1.0))


# ---------------------------------------------------------------------------------------------
# Item 8 of issue 11: DP-UCB-INT releases once per point, not every round an arm sits at one
# ---------------------------------------------------------------------------------------------


def test_dp_ucb_int_releases_once_per_point_even_for_an_idle_arm():
    """Arm 1 always pays 0 and arm 0 always 1: after the round robin arm 1 sits idle at its count
    f0, a release point, for a long stretch. Algorithm 3 read literally would draw fresh noise for
    it every round of that stretch; the kernel must release once per point reached, the count that
    Theorem 3.4's composition assumes. Deterministic table; the count is exact."""
    horizon, epsilon, v = 6_000, 0.05, 1.2
    table = np.zeros((horizon, 2))
    table[:, 0] = 1.0
    inst = bernoulli_instance([0.5, 0.5]).with_table(table)
    points = release_points(epsilon, v, horizon)
    for seed in range(3):
        out = DPUCBInt(epsilon, v).run(inst, horizon, np.random.default_rng(seed))
        once, as_printed = dp_ucb_int_release_counts(out["arms"], points, 2)
        assert int(out["releases"]) == once
        assert as_printed > 10 * once  # the literal reading re-releases the idle arm's mean
    # and on a stochastic instance with three arms
    inst = bernoulli_instance([0.4, 0.6, 0.5])
    out = DPUCBInt(epsilon, v).run(inst, horizon, np.random.default_rng(0))
    assert int(out["releases"]) == dp_ucb_int_release_counts(out["arms"], release_points(epsilon, v, horizon), 3)[0]


def test_release_counts_hand_computed():
    # K = 2, points [2, 4]: round robin 0,1,0,1 (f0 = 2), then arm 0 four times; counts before
    # rounds 5..8 are (2,2), (3,2), (4,2), (5,2): releases at round 5 (both arms, n = 2) and round 7
    # (arm 0, n = 4); read literally, arm 1 re-releases at rounds 6, 7, 8.
    arms = np.array([0, 1, 0, 1, 0, 0, 0, 0])
    assert dp_ucb_int_release_counts(arms, [2, 4], 2) == (3, 6)


# ---------------------------------------------------------------------------------------------
# Item 6 of issue 11 (Private-UCB): the kernel's width is the package's tree bound
# ---------------------------------------------------------------------------------------------


def test_private_ucb_width_is_the_binary_counter_bound():
    """The kernel's tree width (``mechanisms.laplace_iid_sum_tail_bound`` at ``ln(2/gamma)``) is Chan
    et al.'s Corollary 2.9 for the popcount(n) p-sums of scale (floor(log2 T) + 1)/eps of the arm's
    release, i.e. ``mechanisms.binary_counter_error_bound``."""
    for horizon, eps in ((1_000, 1.0), (100_000, 0.1)):
        scale = horizon.bit_length() / eps
        for t in (10, 999, horizon):
            gamma = float(t) ** -4
            for n in (1, 2, 3, 7, 100, 511, t):
                assert laplace_iid_sum_tail_bound(_popcount(n), scale, math.log(2.0 / gamma)) == pytest.approx(
                    binary_counter_error_bound(n, eps, horizon, gamma), rel=1e-12
                )


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: DPUCBBound(0.0), "epsilon"),
        (lambda: DPUCB(-1.0), "epsilon"),
        (lambda: PrivateUCB(float("nan")), "epsilon"),
        (lambda: DPUCBInt(0.1, v=1.0), "v"),
        (lambda: DPUCBInt(0.1, v=1.6), "v"),
        (lambda: DPUCBInt(1.5), "epsilon"),
        (lambda: DPUCBInt.for_target(0.0), "epsilon_prime"),
        (lambda: DPUCBInt.for_target(1.0, 1.0), "delta_prime"),
        (lambda: bernoulli_instance([0.5]), "K >= 2"),
        (lambda: DPUCB(1.0).run(bernoulli_instance([0.2, 0.4, 0.6]), 2, np.random.default_rng()), "horizon"),
        (lambda: release_points(0.1, 1.1, 0), "horizon"),
        (lambda: regret_bound_dp_ucb_int([10], [0.5], 0), "f0"),
        (lambda: lambert_pull_threshold([0.0]), "b"),
        (lambda: DPUCBBound(1.0, bonus="tight"), "bonus"),
        (lambda: dp_ucb_bound_bonus(0, 10, 1.0), "n"),
        (lambda: dp_ucb_bound_bonus(20, 10, 1.0), "t"),
        (lambda: dp_ucb_bound_bonus(np.array([0, 1]), 10, 1.0), "n"),
        (lambda: dp_ucb_bound_bonus(np.array([1.0, 2.0]), 10, 1.0), "n"),
        (lambda: dp_ucb_bound_bonus(np.array([5, 20]), 10, 1.0), "t"),
        (lambda: dp_ucb_bound_miscoverage(3, 10, 1.0), "n"),
        (lambda: dp_ucb_int_release_counts(np.array([0, 2]), [1], 2), "arms"),
        (lambda: dp_ucb_int_release_counts(np.array([0, 1]), [2, 1], 2), "points"),
    ],
)
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_bonus_of_an_array_of_counts_is_the_bonus_of_each():
    n = np.arange(1, 5_001)
    for kwargs in ({}, {"bonus": "printed"}, {"hybrid_split": False}):
        expected = [dp_ucb_bound_bonus(int(m), 5_000, 0.7, **kwargs) for m in n]
        assert np.array_equal(dp_ucb_bound_bonus(n, 5_000, 0.7, **kwargs), expected)


def test_round_terms_table_holds_the_per_round_logarithms():
    """The kernels read ln t, ln(2/gamma) and ln(4 t^4) from one table per horizon; each entry must be
    the value the index's formula gives at that round (same operations, so equal, not just close)."""
    from privbandits.policies.private_ucb import _bonus_log_term, _round_terms

    table = _round_terms(100_000)
    assert table.shape == (3, 100_001) and not table.flags.writeable
    for t in (1, 2, 3, 10, 999, 4_096, 65_537, 99_999, 100_000):
        assert table[0, t] == math.log(t)
        assert table[1, t] == math.log(2.0 / float(t) ** -4.0)
        assert table[2, t] == _bonus_log_term(t) == math.log(4.0 * float(t) ** 4)


# ---------------------------------------------------------------------------------------------
# Issue 26: Private-UCB as printed (mishra2015nearly, Algorithm 1), the former width as an option
# ---------------------------------------------------------------------------------------------


def test_private_ucb_tree_noise_scale_hand_computed():
    # T = 1,000: 2^9 = 512 <= T < 1,024, so floor(log2 T) + 1 = 10 levels; eps0 = eps/k = 1/2 -> 10 / 0.5
    assert private_ucb_noise_scale(1_000, 2, 1.0) == 20.0
    assert private_ucb_noise_scale(1_000, 2, 1.0, per_tree_budget="eps") == 10.0
    # T = 100,000: 2^16 = 65,536 <= T, 17 levels; eps0 = 0.1 / 10 = 0.01 -> 17 / 0.01 = 1,700
    assert private_ucb_noise_scale(100_000, 10, 0.1) == pytest.approx(1_700.0, rel=1e-14)
    assert private_ucb_noise_scale(1_024, 3, 1.0, per_tree_budget="eps") == 11.0  # 2^10 = T: 11 levels


def test_private_ucb_relaxation_hand_computed():
    # T = 1,024 (log2 T = 10), k = 2, eps = 1: Gamma = k log2(T)^2 ln(k T log2 T / gamma) / eps
    # = 2 * 100 * ln(20,480 / gamma); ln 20,480 = 11 ln 2 + ln 10 = 9.927204079153444.
    # gamma = t^-4 at t = 1,024: ln(1/gamma) = 40 ln 2 = 27.725887222397812 -> 200 * 37.65309130155126
    assert private_ucb_relaxation(1_024, 1_024, 2, 1.0) == pytest.approx(7_530.618260310252, rel=1e-13)
    # gamma = 0.05: ln(20,480 / 0.05) = ln 409,600 = 12 ln 2 + 2 ln 10 = 12.922936352707435 -> 2,584.587...
    assert private_ucb_relaxation(5, 1_024, 2, 1.0, gamma=0.05) == pytest.approx(2_584.5872705414868, rel=1e-13)
    # eps per tree: eps0 = eps, Gamma k times smaller
    assert private_ucb_relaxation(1_024, 1_024, 2, 1.0, per_tree_budget="eps") == pytest.approx(3_765.309130155126)
    # the box's formula typed directly, at T = 100,000, k = 10, eps = 0.1, t = 777
    big_t, k, eps, t = 100_000, 10, 0.1, 777
    box = k * math.log2(big_t) ** 2 * math.log(k * big_t * math.log2(big_t) / t**-4.0) / eps
    assert private_ucb_relaxation(t, big_t, k, eps) == pytest.approx(box, rel=1e-12)


def test_private_ucb_per_tree_epsilon_is_eps_over_k_in_noise_and_relaxation():
    """Printed Private-UCB at eps = 1 on 2 arms has eps0 = 1/2 in both its tree noise and Gamma: it is
    the run of ``per_tree_budget="eps"`` at eps = 1/2, bit for bit (1.0 / 2 = 0.5 exactly)."""
    inst = bernoulli_instance([0.4, 0.6])
    a = PrivateUCB(1.0).run(inst, 5_000, np.random.default_rng(3))["arms"]
    b = PrivateUCB(0.5, per_tree_budget="eps").run(inst, 5_000, np.random.default_rng(3))["arms"]
    c = PrivateUCB(1.0, per_tree_budget="eps").run(inst, 5_000, np.random.default_rng(3))["arms"]
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def test_private_ucb_former_setting_reproduces_the_former_default_bit_for_bit():
    """``per_tree_budget="eps", width="tail_bound"`` is the package's Private-UCB before issue #26: its
    records hash (``tools/fingerprint.py``'s procedure) to that default's entries of
    ``tools/fingerprint_reference.json`` at commit 4ba8fde (``PrivateUCB[default]@...``)."""
    import importlib.util
    from pathlib import Path

    from privbandits.environments import mixed_instance
    from privbandits.simulate import simulate_mean_rewards

    path = Path(__file__).resolve().parent.parent / "tools" / "fingerprint.py"
    spec = importlib.util.spec_from_file_location("fingerprint", path)
    fp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fp)
    policy = PrivateUCB(1.0, per_tree_budget="eps", width="tail_bound")
    opts = {"cache": False, "n_jobs": 1, "progress": False}
    bern = bernoulli_instance([0.8, 0.65, 0.4, 0.2], name="fingerprint")
    mixed = mixed_instance([0.7, 0.55, 0.3], name="fingerprint-mixed")
    assert fp.digest(simulate(policy, bern, fp.HORIZON, fp.RUNS, fp.SEED, **opts).records) == "8d1faf77c576bf72"
    assert fp.digest(simulate(policy, mixed, fp.HORIZON, fp.RUNS, fp.SEED, **opts).records) == "81572b4334f55a45"
    mean = simulate_mean_rewards(policy, bern, fp.HORIZON, fp.RUNS, fp.SEED, **opts)
    fields = {f.name: getattr(mean, f.name) for f in dataclasses.fields(mean)}
    assert fp.digest(fp._arrays_of(fields)) == "b5a763dba5669230"


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: PrivateUCB(1.0, per_tree_budget="eps/2"), "per_tree_budget"),
        (lambda: PrivateUCB(1.0, width="tight"), "width"),
        (lambda: PrivateUCB(1.0, gamma=0.0), "gamma"),
        (lambda: PrivateUCB(1.0, gamma=1.0), "gamma"),
        (lambda: private_ucb_relaxation(0, 100, 2, 1.0), "t"),
        (lambda: private_ucb_relaxation(5, 1, 2, 1.0), "horizon"),
        (lambda: private_ucb_relaxation(5, 100, 2, 1.0, gamma=2.0), "gamma"),
        (lambda: private_ucb_relaxation(5, 100, 2, 1.0, per_tree_budget="k"), "per_tree_budget"),
        (lambda: private_ucb_noise_scale(100, 0, 1.0), "n_arms"),
        (lambda: private_ucb_noise_scale(100, 2, -1.0), "epsilon"),
    ],
)
def test_private_ucb_bad_options(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize(
    "algorithm, budget, width",
    [
        ("Private-UCB", "eps/k", "printed"),
        ("Private-UCB (eps per tree)", "eps", "printed"),
        ("Private-UCB (tail bound, eps per tree)", "eps", "tail_bound"),
    ],
)
def test_private_ucb_calibration_and_guarantee(algorithm, budget, width):
    from privbandits.calibration import calibrate, guarantee

    cal = calibrate(algorithm, 0.5, 0.0, 10**5)
    assert cal.policy.name == algorithm
    assert (cal.policy.epsilon, cal.policy.per_tree_budget, cal.policy.width) == (0.5, budget, width)
    assert cal.params == {"epsilon": 0.5}  # the printed reading keeps the paper's eps/k per tree
    assert (cal.epsilon, cal.delta, cal.proven) == (0.5, 0.0, True) == guarantee(cal.policy, 10**5)
    assert ("eps/k-DP" if budget == "eps/k" else "eps-DP") in cal.accounting
    with pytest.raises(ValueError, match="horizon"):
        calibrate(algorithm, 0.5)
