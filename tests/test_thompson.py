"""Tests of :mod:`privbandits.policies.thompson` (Gaussian Thompson sampling, ``agrawal2013further`` Algorithm 2)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _policy_checks import check_reproducible

from privbandits.calibration import REGISTRY
from privbandits.environments import bernoulli_instance
from privbandits.policies import GaussianTS


def _gaussian_ts(table: np.ndarray, seed: int, scale: float = 1.0) -> np.ndarray:
    """Algorithm 2 written plainly on a reward table: ``theta_i ~ N(S_i / (k_i + 1), scale^2 / (k_i + 1))``."""
    rng = np.random.default_rng(seed)
    horizon, k = table.shape
    sums, pulls, arms = [0.0] * k, [0.0] * k, []
    for t in range(horizon):
        thetas = [rng.normal(sums[i] / (pulls[i] + 1.0), scale / math.sqrt(pulls[i] + 1.0)) for i in range(k)]
        j = int(np.argmax(thetas))
        arms.append(j)
        sums[j] += table[t, j]
        pulls[j] += 1.0
    return np.array(arms)


def test_reproducible_given_seed():
    check_reproducible(GaussianTS())


@pytest.mark.parametrize("scale", [1.0, 0.3, 4.0])
def test_kernel_is_algorithm_2_written_plainly(scale):
    inst = bernoulli_instance([0.7, 0.6, 0.45, 0.3])
    table = inst.reward_table(5000, np.random.default_rng(3))
    rec = GaussianTS(scale=scale).run(inst.with_table(table), 5000, np.random.default_rng(9))
    np.testing.assert_array_equal(rec["arms"], _gaussian_ts(table, 9, scale))


def test_a_tiny_scale_is_greedy_on_the_posterior_mean():
    # scale = 1e-9: the draws are the posterior means to within ~1e-9, so the play is greedy on S/(k+1)
    # (ties broken by the noise); on a table where arm 1 always pays and arm 0 never does, both means stay
    # 0 until arm 1's first pull (a fair coin each round: after 60 rounds with probability 2^-60), and
    # arm 1 is played from then on.
    table = np.zeros((200, 2))
    table[:, 1] = 1.0
    inst = bernoulli_instance([0.5, 0.5]).with_table(table)
    arms = GaussianTS(scale=1e-9).run(inst, 200, np.random.default_rng(0))["arms"]
    first = int(np.argmax(arms == 1))
    assert np.all(arms[first:] == 1) and arms[first] == 1 and first < 60


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="scale"):
        GaussianTS(scale=0.0)


def test_not_private_here_and_not_calibrated():
    # The claimed guarantees are not proven instance-free pure-DP ones: none is reported, none calibrated.
    assert GaussianTS().guarantee(10**4) == (math.inf, 0.0, True)
    assert GaussianTS not in {cls for cls, _ in REGISTRY.values()}


def test_part_v_auditor_certifies_a_loss_above_one():
    """Unchanged Thompson sampling on Part V's round-0 flip of an all-ones table (K = 2, T = 30, 2 x 10^4
    samples per dataset and phase): the auditor certifies a loss above 1 (a bound that holds with
    probability 1 - 10^-3), so the unchanged algorithm is not 1-DP for one reward at this horizon."""
    from privbandits.audit import audit, flip_pairs, policy_sampler

    sampler = policy_sampler(GaussianTS(), bernoulli_instance([0.7, 0.3]), 30)
    result = audit(sampler, flip_pairs(np.ones((30, 2)), [0]), epsilon=1.0, n_samples=20_000, alpha=1e-3, n_jobs=1)
    assert result.epsilon_lower > 1.0, result.verdict
