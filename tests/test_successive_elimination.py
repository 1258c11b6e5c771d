"""Tests of :mod:`privbandits.policies.successive_elimination` (and the frontier's lower bound it is drawn against)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _policy_checks import check_reproducible, random_instance

from privbandits.calibration import calibrate, guarantee
from privbandits.environments import bernoulli_instance
from privbandits.frontier import frontier_instances, private_lower_bound
from privbandits.policies import DPSE
from privbandits.policies.successive_elimination import dpse_epoch_length


def _epochs(arms: np.ndarray, n_arms: int, epsilon: float, beta: float) -> list[tuple[list[int], int]]:
    """A run's complete epochs ``(survivors, R_e)``, read off its arm sequence: each must be ``R_e``
    consecutive pulls of each survivor in index order, its survivors a subset of the previous epoch's."""
    starts = np.flatnonzero(np.r_[True, arms[1:] != arms[:-1]])
    runs = list(zip(arms[starts].tolist(), np.diff(np.r_[starts, len(arms)]).tolist()))
    out, alive, i = [], list(range(n_arms)), 0
    while len(alive) > 1:
        r = dpse_epoch_length(len(out) + 1, len(alive), epsilon, beta)
        block = runs[i : i + len(alive)]
        if [a for a, _ in block] != alive or any(n != r for _, n in block[:-1]) or block[-1][1] < r:
            break  # an epoch cut by the horizon
        out.append((alive, r))
        i += len(alive)
        if block[-1][1] > r:  # the survivor's tail continues the epoch's last run
            break
        # the next epoch's survivors: the next runs' arms while they increase (epochs never merge runs:
        # the next epoch starts with its smallest survivor, at most this epoch's largest)
        nxt = [runs[i][0]] if i < len(runs) else []
        while i + len(nxt) < len(runs) and runs[i + len(nxt)][0] > nxt[-1]:
            nxt.append(runs[i + len(nxt)][0])
        assert set(nxt) <= set(alive)
        alive = nxt
    return out


def test_reproducible_given_seed():
    check_reproducible(DPSE(epsilon=0.5))


def test_epoch_lengths_by_hand():
    # Delta_1 = 1/2: 32 ln(8*2/0.5) / (1/4) = 128 ln 32 = 443.61; the private term 8 ln(16) / (1 * 1/2) = 44.4
    assert dpse_epoch_length(1, 2, 1.0, 0.5) == 444
    # Delta_2 = 1/4: 512 ln(8*2*4/0.5) = 512 ln 128 = 2484.3
    assert dpse_epoch_length(2, 2, math.inf, 0.5) == 2485
    # eps = 0.01 makes the private term bind: 8 ln(4*2/0.5) / (0.01 * 1/2) = 1600 ln 16 = 4436.1
    assert dpse_epoch_length(1, 2, 0.01, 0.5) == 4437
    # |S| = 5, beta = 1e-3: 128 ln(40000) = 1356.4
    assert dpse_epoch_length(1, 5, 1.0, 1e-3) == 1357


def test_each_epoch_pulls_every_survivor_R_e_times_and_releases_once():
    inst = random_instance(k=8, seed=1)  # two arms at 0.951 and 0.949: four epochs, none left alone
    eps, horizon = 0.5, 10**6
    rec = DPSE(epsilon=eps).run(inst, horizon, np.random.default_rng(4))
    epochs = _epochs(rec["arms"], inst.n_arms, eps, 1.0 / horizon)
    assert len(epochs) == int(rec["epochs"]) == 4
    assert int(rec["releases"]) == sum(len(alive) for alive, _ in epochs)  # one release per arm per epoch
    for (before, _), (after, _) in zip(epochs, epochs[1:]):
        assert set(after) <= set(before)
    if int(rec["survivor"]) >= 0:  # the tail after the last epoch is the survivor alone
        t = sum(len(alive) * r for alive, r in epochs)
        assert np.all(rec["arms"][t:] == int(rec["survivor"]))


def test_releases_use_fresh_samples_only():
    # eps = inf, beta = 0.5 on a reward table: R_1 = 444, R_2 = 2485, margins 2 h_1 = 0.125, 2 h_2 = 0.0625.
    # Epoch 1: arm 0 pays 0.9, arm 1 pays 1.0 (gap 0.1 < 0.125: both stay). Epoch 2: arm 0 pays 1.0, arm 1
    # 0.93: the fresh gap 0.07 > 0.0625 eliminates arm 1; means over both epochs (gap 0.044) would not.
    horizon = 10_000
    table = np.zeros((horizon, 2))
    table[:, 0], table[:, 1] = 1.0, 0.93
    table[:444, 0] = 0.9
    table[444:888, 1] = 1.0
    inst = bernoulli_instance([0.5, 0.5]).with_table(table)
    rec = DPSE(epsilon=math.inf, beta=0.5).run(inst, horizon, np.random.default_rng(0))
    assert int(rec["epochs"]) == 2 and int(rec["survivor"]) == 0 and int(rec["releases"]) == 0
    np.testing.assert_array_equal(rec["arms"][: 2 * 444 + 2 * 2485], [0] * 444 + [1] * 444 + [0] * 2485 + [1] * 2485)
    assert np.all(rec["arms"][2 * 444 + 2 * 2485 :] == 0)


def test_eliminates_the_worse_arm_of_an_easy_instance():
    # Means 0.9 and 0.6, eps = 1, T = 1e5: epoch 1 (R_1 = 1829, margin 2 (h_1 + c_1) = 0.14) separates them.
    # The best arm is eliminated with probability at most beta = 1/T per run (Hoeffding, Laplace tail, union
    # bound), the worse one survives epoch 1 with probability < 1e-10 (a 0.16 deviation of a mean of 1829),
    # so 50 runs fail with probability < 50 / T = 5e-4.
    inst = bernoulli_instance([0.9, 0.6])
    arms = DPSE(epsilon=1.0).sample_arms(inst, 100_000, np.random.default_rng(11), 50)
    assert np.all(arms[:, 2 * 1829 :] == 0)
    assert np.all(np.bincount(arms.ravel(), minlength=2) == [50 * (100_000 - 1829), 50 * 1829])


def _successive_elimination(table: np.ndarray, beta: float, eps: float = math.inf, seed: int = 0, noise: float = 1.0):
    """DP-SE written plainly on a reward table (the only randomness: one ``Generator.laplace`` of scale
    ``noise / (eps R_e)`` per surviving arm per epoch, from ``default_rng(seed)``); ``eps = inf`` is
    non-private successive elimination with Hoeffding radius ``h_e``. Returns the arms and the draws."""
    rng = np.random.default_rng(seed)
    horizon, k = table.shape
    alive, arms, t, e, draws = list(range(k)), [], 0, 0, 0
    while len(alive) > 1 and t < horizon:
        e += 1
        ln8, ln4 = math.log(8 * len(alive) * e * e / beta), math.log(4 * len(alive) * e * e / beta)
        r = math.ceil(max(32 * ln8 * 4.0**e, 8 * ln4 * 2.0**e / eps))
        released = {}
        for a in alive:
            n = min(r, horizon - t)
            arms += [a] * n
            released[a] = table[t : t + n, a].mean()
            t += n
            if n < r:
                break
            if eps < math.inf:
                released[a] += rng.laplace(0.0, noise / (eps * r))
                draws += 1
        if n < r:
            break
        margin = 2 * (math.sqrt(ln8 / (2 * r)) + ln4 / (eps * r))
        best = max(released.values())
        alive = [a for a in alive if best - released[a] <= margin]
    arms += [alive[0]] * (horizon - len(arms))
    return np.array(arms[:horizon]), draws


def test_without_noise_it_is_successive_elimination():
    inst = bernoulli_instance([0.5, 0.45, 0.3, 0.7])
    horizon = 60_000
    table = inst.reward_table(horizon, np.random.default_rng(2))
    tabled = inst.with_table(table)
    expected, _ = _successive_elimination(table, 1.0 / horizon)
    plain = DPSE(epsilon=math.inf).run(tabled, horizon, np.random.default_rng(0))["arms"]
    np.testing.assert_array_equal(plain, expected)
    # eps -> inf: a huge eps adds noise of scale ~1e-12 and a private term ~1e-10: the same play
    huge = DPSE(epsilon=1e9).run(tabled, horizon, np.random.default_rng(0))["arms"]
    np.testing.assert_array_equal(huge, expected)


def test_with_noise_it_is_dp_se_written_plainly():
    # The kernel's play equals the plain reference's, which draws one Laplace of scale 1/(eps R_e) per
    # surviving arm per epoch from the same stream (three epochs here, the private term binding).
    for means, eps in (([0.5, 0.49, 0.48, 0.3], 0.05), ([0.6, 0.55, 0.5, 0.45], 0.2)):
        inst = bernoulli_instance(means)
        horizon = 200_000
        table = inst.reward_table(horizon, np.random.default_rng(3))
        rec = DPSE(epsilon=eps).run(inst.with_table(table), horizon, np.random.default_rng(11))
        ref, draws = _successive_elimination(table, 1.0 / horizon, eps, seed=11)
        np.testing.assert_array_equal(rec["arms"], ref)
        assert int(rec["releases"]) == draws and int(rec["epochs"]) == 3


def test_release_noise_has_scale_one_over_eps_R_e():
    # Two arms, epoch 1: arm 0 pays 1 and arm 1 pays 1 - margin + 1.5 x, x the difference of the
    # stream's first two Laplace draws at scale 1/(eps R_1). At that scale the gap exceeds the margin
    # by -0.5 x, at twice that scale by +0.5 x: the scale decides whether arm 1 survives epoch 1.
    eps, horizon = 0.1, 20_000
    beta = 1.0 / horizon
    r = dpse_epoch_length(1, 2, eps, beta)
    margin = 2 * (math.sqrt(math.log(16 / beta) / (2 * r)) + math.log(8 / beta) / (eps * r))
    stream = np.random.default_rng(11)
    x = stream.laplace(0.0, 1.0 / (eps * r)) - stream.laplace(0.0, 1.0 / (eps * r))
    table = np.ones((horizon, 2))
    table[:, 1] = 1.0 - margin + 1.5 * x
    rec = DPSE(epsilon=eps).run(bernoulli_instance([0.5, 0.5]).with_table(table), horizon, np.random.default_rng(11))
    assert (1 in rec["arms"][2 * r :]) == (x > 0)
    # the check has power: the plain reference with twice the noise decides the other way
    doubled, _ = _successive_elimination(table, beta, eps, seed=11, noise=2.0)
    assert (1 in doubled[2 * r :]) == (x < 0)


def test_sample_arms_equals_successive_runs():
    inst = random_instance(k=3, seed=2)
    batch = DPSE(epsilon=0.5).sample_arms(inst, 20_000, np.random.default_rng(9), 4)
    rng = np.random.default_rng(9)
    loop = np.stack([DPSE(epsilon=0.5).run(inst, 20_000, rng)["arms"] for _ in range(4)])
    np.testing.assert_array_equal(batch, loop)


def test_episodes_are_the_arm_sequence():
    inst = random_instance(k=4, seed=7)
    pol = DPSE(epsilon=0.2)
    arms = pol.run(inst, 50_000, np.random.default_rng(9))["arms"]
    ep = pol.run_episodes(inst, 50_000, np.random.default_rng(9))["episodes"]
    np.testing.assert_array_equal(np.repeat(ep[1], np.diff(np.r_[ep[0], 50_000])), arms)


def test_bad_input_names_the_parameter():
    for eps in (0.0, -1.0, float("nan"), "1"):
        with pytest.raises(ValueError, match="epsilon"):
            DPSE(epsilon=eps)
    for beta in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError, match="beta"):
            DPSE(beta=beta)
    with pytest.raises(ValueError, match="horizon"):
        DPSE().run(random_instance(k=5), 4, np.random.default_rng(0))
    with pytest.raises(ValueError, match="epoch"):
        dpse_epoch_length(0, 2, 1.0, 0.1)
    with pytest.raises(ValueError, match="surviving"):
        dpse_epoch_length(1, 1, 1.0, 0.1)
    with pytest.raises(ValueError, match="beta"):
        dpse_epoch_length(1, 2, 1.0, None)


def test_calibration_is_the_target():
    cal = calibrate("DP-SE", 0.5, horizon=1000)
    assert cal.policy == DPSE(0.5) and guarantee(cal.policy, 1000) == (0.5, 0.0, True)
    assert DPSE(epsilon=2.0, beta=0.1).guarantee(10**6) == (2.0, 0.0, True)


def test_runs_at_a_million_rounds():
    inst = frontier_instances()["10 arms (Tossou)"]
    rec = DPSE(epsilon=0.1).run(inst, 10**6, np.random.default_rng(2026))
    assert rec["arms"].shape == (10**6,) and int(rec["survivor"]) == inst.best_arm


def test_private_lower_bound_by_hand_and_monotone():
    inst = bernoulli_instance([0.9, 0.6])
    # d(0.6, 0.9) = 0.6 ln(2/3) + 0.4 ln 4 = 0.311239 < 6 * 1 * 0.3: 10 * 0.3 / 0.311239 at T = e^10
    kl = 0.6 * math.log(0.6 / 0.9) + 0.4 * math.log(0.4 / 0.1)
    (at_e10,) = private_lower_bound(inst, [round(math.exp(10))], 1.0)
    assert at_e10 == pytest.approx(math.log(round(math.exp(10))) * 0.3 / kl, rel=1e-9)
    assert at_e10 == pytest.approx(9.639, abs=1e-3)
    # eps = 0.1: the privacy term 6 * 0.1 * 0.3 = 0.18 binds: 10 * 0.3 / 0.18 = 16.67
    (private,) = private_lower_bound(inst, [round(math.exp(10))], 0.1)
    assert private == pytest.approx(math.log(round(math.exp(10))) * 0.3 / 0.18, rel=1e-9)
    horizons = [10**3, 10**4, 10**5, 10**6]
    for eps in (0.01, 0.1, 1.0, math.inf):
        assert np.all(np.diff(private_lower_bound(inst, horizons, eps)) > 0)
    by_eps = [private_lower_bound(inst, [10**5], eps)[0] for eps in (math.inf, 1.0, 0.1, 0.01)]
    assert np.all(np.diff(by_eps) >= 0) and by_eps[-1] > by_eps[0]


def test_private_lower_bound_bad_input():
    with pytest.raises(ValueError, match="Bernoulli"):
        private_lower_bound(frontier_instances()["Beta, 5 arms"], [1000], 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        private_lower_bound(bernoulli_instance([0.9, 0.6]), [1000], 0.0)
    with pytest.raises(ValueError, match="horizons"):
        private_lower_bound(bernoulli_instance([0.9, 0.6]), [1], 1.0)
