"""Tests of the empirical privacy auditor (privbandits.audit)."""

import numpy as np
import pytest

from privbandits.audit import (
    audit,
    check_neighbours,
    clopper_pearson,
    epsilon_lower_bound,
    mechanism_targets,
)


def _laplace(scale):
    return lambda x, rng, n: x + rng.laplace(0.0, scale, n)


def test_clopper_pearson_coverage():
    """Exact one-sided coverage of the CP lower bound for p = 0.3, n = 50 (computed, not sampled)."""
    from scipy import stats

    n, p, alpha = 50, 0.3, 0.05
    k = np.arange(n + 1)
    lo, hi = clopper_pearson(k, n, alpha)
    pmf = stats.binom.pmf(k, n, p)
    assert pmf[lo > p].sum() <= alpha
    assert pmf[hi < p].sum() <= alpha


def test_epsilon_lower_bound_basic():
    assert epsilon_lower_bound(0, 0, 100, 0.0, 0.05) == 0.0
    assert epsilon_lower_bound(900_000, 100_000, 1_000_000, 0.0, 0.05) > np.log(8.5)


def test_false_violation_rate_on_exact_laplace():
    """20 audits of the exact-scale Laplace mechanism at level alpha = 0.05 (fixed seeds).

    Each audit reports a false violation with probability <= 0.05; 3 or more false violations out
    of 20 has probability <= P[Bin(20, 0.05) >= 3] = 0.075 under the stated level, but since the
    true loss of an event is strictly below epsilon except in the tails, the actual rate is far
    lower; with these fixed seeds the outcome is deterministic."""
    violations = sum(
        audit(_laplace(1.0), [(0.0, 1.0)], epsilon=1.0, n_samples=50_000, seed=s, n_jobs=1).violation
        for s in range(20)
    )
    assert violations <= 2, f"{violations}/20 false violations"


@pytest.mark.parametrize("name", ["Laplace", "Gaussian", "Randomized response", "PrivBern", "Binary tree counter", "Hybrid counter"])
def test_catches_broken_and_accepts_correct(name):
    """Broken copies (noise halved) are caught; correct ones are not flagged (fixed seed)."""
    n = 40_000 if "counter" in name else 400_000
    for broken in (False, True):
        t = mechanism_targets(1.0, broken=broken)[name]
        r = audit(t["sampler"], t["pairs"], epsilon=t["epsilon"], delta=t["delta"], features=t["features"], n_samples=n, seed=11, n_jobs=1)
        assert r.violation == broken, f"{name} broken={broken}: {r.verdict} (bound {r.epsilon_lower:.3f})"


def test_bad_input():
    with pytest.raises(ValueError, match="n_samples"):
        audit(_laplace(1.0), [(0.0, 1.0)], epsilon=1.0, n_samples=0)
    with pytest.raises(ValueError, match="exactly one entry"):
        audit(_laplace(1.0), [(np.zeros(3), np.ones(3))], epsilon=1.0)
    with pytest.raises(ValueError, match="differ"):
        check_neighbours(1.0, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        audit(_laplace(1.0), [(0.0, 1.0)], epsilon=-1.0)
    with pytest.raises(ValueError, match="pairs"):
        audit(_laplace(1.0), [], epsilon=1.0)
    other = np.zeros((5, 2))
    other[3, 1] = 1.0
    assert check_neighbours(np.zeros((5, 2)), other) == 3
