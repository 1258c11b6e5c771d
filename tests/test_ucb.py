"""Tests of privbandits.policies.ucb: UCB1 (Auer, Cesa-Bianchi and Fischer 2002), the non-private reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _policy_checks import check_reproducible

from privbandits import bernoulli_instance, simulate
from privbandits.policies import UCB


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    monkeypatch.setenv("PRIVBANDITS_PROGRESS", "0")


def _plain_ucb1(table: np.ndarray) -> list[int]:
    """UCB1 in plain Python on a fixed reward table: each arm once, then argmax of mean + sqrt(2 ln n / n_j)."""
    horizon, k = table.shape
    pulls, sums, arms = [0] * k, [0.0] * k, []
    for t in range(horizon):
        if t < k:
            arm = t
        else:  # first arm wins a tie, as in the kernel
            index = [sums[j] / pulls[j] + math.sqrt(2.0 * math.log(t) / pulls[j]) for j in range(k)]
            arm = index.index(max(index))
        pulls[arm] += 1
        sums[arm] += table[t, arm]
        arms.append(arm)
    return arms


def test_index_arithmetic_on_a_hand_case():
    # rewards 0.5 (arm 0) and 0 (arm 1) every round; after one pull of each:
    # n=2: 0.5 + sqrt(2 ln 2 / 1) = 1.677 > sqrt(2 ln 2) = 1.177          -> arm 0
    # n=3: 0.5 + sqrt(2 ln 3 / 2) = 1.548 > sqrt(2 ln 3) = 1.482          -> arm 0
    # n=4: 0.5 + sqrt(2 ln 4 / 3) = 1.461 < sqrt(2 ln 4) = 1.665          -> arm 1
    inst = bernoulli_instance([0.5, 0.1]).with_table(np.tile([0.5, 0.0], (5, 1)))
    assert UCB().run(inst, 5, np.random.default_rng(0))["arms"].tolist() == [0, 1, 0, 0, 1]


def test_kernel_equals_plain_python_ucb1():
    table = np.random.default_rng(4).uniform(size=(400, 4))
    inst = bernoulli_instance([0.5] * 4).with_table(table)
    assert UCB().run(inst, 400, np.random.default_rng(0))["arms"].tolist() == _plain_ucb1(table)


def test_reproducible():
    check_reproducible(UCB())


def test_ucb_finds_the_best_arm_on_an_easy_instance():
    """Gap 0.5: UCB pulls the best arm in > 90% of 5,000 rounds in every one of 20 runs (its expected
    number of suboptimal pulls is O(log T / gap^2) ~ a few dozen)."""
    res = simulate(UCB(), bernoulli_instance([0.25, 0.75]), 5_000, runs=20, seed=3, cache=False)
    counts = res.pull_counts()
    assert counts.sum(axis=1).tolist() == [5_000] * 20
    assert np.all(counts[:, 1] > 0.9 * 5_000)


_two_arms = bernoulli_instance([0.2, 0.8])


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: UCB().run(bernoulli_instance([0.2, 0.5, 0.8]), 2, np.random.default_rng(0)), "horizon"),
        (lambda: UCB().run(bernoulli_instance([0.2, 0.8]), 1.5, np.random.default_rng(0)), "horizon"),
        (
            lambda: UCB().run(bernoulli_instance([0.2, 0.8]).with_table(np.zeros((3, 2))), 4, np.random.default_rng(0)),
            "table",
        ),
        (lambda: UCB().run(bernoulli_instance([0.2, 0.8]), 10, 0), "rng"),
        (lambda: UCB().run([0.2, 0.8], 10, np.random.default_rng(0)), "instance"),
    ],
)
def test_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_has_no_parameters():
    assert set(UCB().config()) == {"policy"} and UCB().label == "UCB"
    with pytest.raises(TypeError):
        UCB(epsilon=1.0)
