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
        audit(_laplace(1.0), [(0.0, 1.0)], epsilon=1.0, n_samples=50_000, seed=s, n_jobs=1).violation for s in range(20)
    )
    assert violations <= 2, f"{violations}/20 false violations"


@pytest.mark.parametrize(
    "name", ["Laplace", "Gaussian", "Randomized response", "PrivBern", "Binary tree counter", "Hybrid counter"]
)
def test_catches_broken_and_accepts_correct(name):
    """Broken copies (noise halved) are caught; correct ones are not flagged (fixed seed)."""
    n = 40_000 if "counter" in name else 400_000
    for broken in (False, True):
        t = mechanism_targets(1.0, broken=broken)[name]
        r = audit(
            t["sampler"],
            t["pairs"],
            epsilon=t["epsilon"],
            delta=t["delta"],
            features=t["features"],
            n_samples=n,
            seed=11,
            n_jobs=1,
        )
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


def test_tail_events():
    """An ordinal feature whose loss sits in a tail: the tail search finds it (fixed seed).

    Output: a Laplace release rounded to integers, claimed epsilon 0.5 while the true scale gives
    epsilon = 1 (broken by a factor 2): caught."""

    def sampler(x, rng, n):
        return np.round(x + rng.laplace(0.0, 1.0, n)).astype(np.int64)[:, None]

    r = audit(sampler, [(0.0, 1.0)], epsilon=0.5, n_samples=100_000, seed=4, n_jobs=1)
    assert r.violation and r.epsilon_lower < 1.0 + 1e-9


def test_unique_outputs_are_not_searched():
    """A feature with (almost) one category per output cannot give a confirmable event; it is
    skipped instead of winning the search by overfitting (the audit then reports 0, not noise)."""

    def sampler(x, rng, n):
        return rng.integers(0, 2**40, size=(n, 3))

    r = audit(sampler, [(0.0, 1.0)], epsilon=1.0, n_samples=2_000, seed=0, n_jobs=1)
    assert not r.event.startswith("whole output") and r.epsilon_lower == 0.0


def test_counting_small_integer_ranges_matches_sorting(monkeypatch):
    """Integer outputs of a small range are counted with np.bincount; the result is the one sorting
    (np.unique) gives, field for field: negative values, rare values (held-out values in no search
    category) of a small range and of a wide one, a column of one value and the whole-output hash."""
    import privbandits.audit as audit_module

    def sampler(d, rng, n):
        x = rng.integers(-3, 4, size=(n, 5)) + int(d)
        x[:, 2] = np.where(rng.random(n) < 0.02, rng.integers(-(2**62), 2**62, size=n), x[:, 2])
        x[:, 3] = 5
        x[:, 4] = np.where(rng.random(n) < 0.01, rng.integers(100, 5_000, size=n), x[:, 4])
        return x

    kwargs = dict(epsilon=1.0, n_samples=3_000, alpha=0.05, seed=5, n_jobs=1)
    counted = audit(sampler, [(0, 1)], **kwargs)
    monkeypatch.setattr(audit_module, "_DENSE_SPAN", 0)  # every feature sorted
    assert audit(sampler, [(0, 1)], **kwargs) == counted
    assert counted.epsilon_lower >= 0.0 and counted.event


@pytest.mark.parametrize("dtype", [np.int8, np.int16])
def test_counting_narrow_integers_spanning_past_their_maximum(dtype, monkeypatch):
    """int8 and int16 outputs whose values span more than the type's maximum (a difference that would wrap in
    the type itself) are counted as sorting counts them (a review found the counting path raising on them)."""
    import privbandits.audit as audit_module

    top = int(np.iinfo(dtype).max)

    def sampler(d, rng, n):
        x = rng.integers(-3, 4, size=(n, 3)) + int(d)
        x[:, 1] = np.where(rng.random(n) < 0.5, -top + 2, top - 2)  # spans 2 * top - 4 > top
        return x.astype(dtype)

    kwargs = dict(epsilon=1.0, n_samples=2_000, alpha=0.05, seed=3, n_jobs=1)
    counted = audit(sampler, [(0, 1)], **kwargs)
    monkeypatch.setattr(audit_module, "_DENSE_SPAN", 0)  # every feature sorted
    assert audit(sampler, [(0, 1)], **kwargs) == counted


def test_leading_run_and_action_statistic_sampler():
    from privbandits.audit import action_statistic_sampler, leading_run, policy_sampler
    from privbandits.environments import bernoulli_instance
    from privbandits.policies.dp_ncb import GDPNCB

    arms = np.array([[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 0], [2, 2, 2, 2]])
    np.testing.assert_array_equal(leading_run(arms), [2, 0, 4, 0])
    np.testing.assert_array_equal(leading_run(arms, arm=2), [0, 0, 0, 4])
    np.testing.assert_array_equal(leading_run(arms, start=1), [1, 3, 3, 0])
    np.testing.assert_array_equal(leading_run(arms, start=3), [1, 1, 1, 0])
    with pytest.raises(ValueError, match="shape"):
        leading_run(np.zeros(4, dtype=int))
    for start in (-1, 4):
        with pytest.raises(ValueError, match="start must lie in"):
            leading_run(arms, start=start)
    # the statistic sees the actions and nothing else: same stream, same arms, same statistic
    policy, inst, table = GDPNCB(epsilon=1.0, phase1_constant=0.1), bernoulli_instance([0.5, 0.5]), np.ones((10, 2))
    x = action_statistic_sampler(policy, inst, 10, leading_run)(table, np.random.default_rng(0), 50)
    arms = policy_sampler(policy, inst, 10)(table, np.random.default_rng(0), 50)
    assert x.shape == (50, 1) and np.array_equal(x[:, 0], leading_run(arms))


def test_detectable_loss_is_the_power_of_the_confirmation():
    from privbandits.audit import detectable_loss, epsilon_lower_bound

    n, eps = 100_000, 1.0
    losses = [detectable_loss(p, n, eps) for p in (0.5, 0.1, 0.01, 0.001)]
    assert all(a < b for a, b in zip(losses, losses[1:])) and losses[0] > eps
    assert detectable_loss(0.01, 10 * n, eps) < losses[2]
    for p, loss in zip((0.5, 0.1, 0.01, 0.001), losses):  # the bound crosses eps exactly there
        assert float(epsilon_lower_bound(n * p, n * p * np.exp(-loss * 1.001), n, 0.0, 0.05)) > eps
        assert float(epsilon_lower_bound(n * p, n * p * np.exp(-loss * 0.999), n, 0.0, 0.05)) <= eps
    assert detectable_loss(1e-5, n, eps) == np.inf
    with pytest.raises(ValueError, match="epsilon"):
        detectable_loss(0.1, n, 0.0)


def test_hiring_sampler_inputs():
    from privbandits.audit import hiring_sampler
    from privbandits.policies.fair_hiring import HiringEnvironment, PrivateFairGreedy

    pools = np.random.default_rng(0).normal(size=(8, 2)) / 3
    env = HiringEnvironment((pools[:4], pools[4:]), np.array([0.6, 0.8]), 0.1)
    pfg = PrivateFairGreedy(epsilon=1.0, delta=1e-3, l_tilde=3.0)
    s = hiring_sampler(pfg, env, 6, changed_round=2)
    candidates = np.random.default_rng(2).integers(0, 4, size=(6, 2))
    assert s(candidates, np.random.default_rng(1), 3).shape == (3, 5)  # round 2 left out
    with pytest.raises(ValueError, match="candidates"):
        s(candidates[:5], np.random.default_rng(1), 3)
    with pytest.raises(ValueError, match="candidates"):
        s(candidates + 4, np.random.default_rng(1), 3)  # beyond the pools
    with pytest.raises(ValueError, match="changed_round"):
        hiring_sampler(pfg, env, 6, changed_round=6)
    # the given candidates are the ones presented, in every round
    run = pfg.run(env, 6, np.random.default_rng(3), trace=True, candidates=candidates)
    np.testing.assert_array_equal(run["candidates"], candidates)
    # the samples are successive runs on one generator, bit for bit (the sampler sets the kernel up once)
    from privbandits.policies.fair_hiring import OFUL, FairGreedy

    for policy in (pfg, FairGreedy(), OFUL()):
        rng = np.random.default_rng(4)
        runs = np.array([policy.run(env, 6, rng, candidates=candidates)["groups"] for _ in range(5)])
        sample = hiring_sampler(policy, env, 6, changed_round=2)(candidates, np.random.default_rng(4), 5)
        assert sample.dtype == np.int64 and sample.flags.c_contiguous
        np.testing.assert_array_equal(sample, np.delete(runs, 2, axis=1))


def test_cached_audit_round_trip(tmp_path, monkeypatch):
    """cached_audit stores the result under its configuration and returns it unchanged on a hit,
    without calling the sampler again; a different configuration misses."""
    from privbandits.audit import cached_audit

    monkeypatch.setenv("PRIVBANDITS_CACHE_DIR", str(tmp_path))
    calls = []

    def sampler(x, rng, n):
        calls.append(n)
        return x + rng.laplace(0.0, 1.0, n)

    kwargs = dict(epsilon=1.0, n_samples=2_000, seed=5, n_jobs=1)
    first = cached_audit({"name": "laplace"}, sampler, [(0.0, 1.0)], **kwargs)
    n_calls = len(calls)
    second = cached_audit({"name": "laplace"}, sampler, [(0.0, 1.0)], **kwargs)
    assert second == first and len(calls) == n_calls
    cached_audit({"name": "laplace"}, sampler, [(0.0, 1.0)], **{**kwargs, "seed": 6})
    assert len(calls) > n_calls


def test_cached_audits_equal_one_by_one(tmp_path, monkeypatch):
    """The parallel batch of cached_audits returns, in order, what cached_audit returns one call at a
    time (without the cache too), and a stored result is found by both."""
    from privbandits.audit import cached_audit, cached_audits

    monkeypatch.setenv("PRIVBANDITS_CACHE_DIR", str(tmp_path))
    requests = [
        dict(
            config={"name": "laplace", "scale": s},
            sampler=_laplace(s),
            pairs=[(0.0, 1.0)],
            epsilon=1.0,
            n_samples=3_000,
            seed=seed,
        )
        for s, seed in ((1.0, 1), (0.5, 2), (0.25, 3), (1.0, 4))
    ]
    batch = cached_audits(requests, n_jobs=2)
    fresh = [audit(r["sampler"], r["pairs"], epsilon=1.0, n_samples=3_000, seed=r["seed"], n_jobs=1) for r in requests]
    assert [b.epsilon_lower for b in batch] == [f.epsilon_lower for f in fresh]
    again = [cached_audit(**r) for r in requests]
    assert again == batch
    assert batch[2].epsilon_lower > 1.0, "noise scale 1/4 at a claimed epsilon = 1 must be caught"


def test_cached_audit_shares_samples_across_levels(tmp_path, monkeypatch):
    """An audit of a stored configuration at another level reads the stored samples' counts (the
    sampler is not called again) and returns what drawing the samples returns, field for field;
    other pairs or another seed draw anew."""
    from privbandits.audit import cached_audit

    monkeypatch.setenv("PRIVBANDITS_CACHE_DIR", str(tmp_path))
    calls = []

    def draw(x, rng, n):
        return np.round(x + rng.laplace(0.0, 1.0, n)).astype(np.int64)  # integer outputs, as a policy's

    def sampler(x, rng, n):
        calls.append(n)
        return draw(x, rng, n)

    pairs = [(0.0, 1.0), (0.0, 2.0)]
    kwargs = dict(epsilon=1.0, n_samples=3_000, seed=7, n_jobs=1)
    first = cached_audit({"name": "rounded laplace"}, sampler, pairs, alpha=0.025, **kwargs)
    n_calls = len(calls)
    assert n_calls == 8  # two pairs, four samples each
    for alpha in (0.05, 0.2):
        shared = cached_audit({"name": "rounded laplace"}, sampler, pairs, alpha=alpha, **kwargs)
        assert len(calls) == n_calls
        assert shared == audit(draw, pairs, alpha=alpha, **kwargs)
        assert shared.confidence == 1 - alpha
    assert first == audit(draw, pairs, alpha=0.025, **kwargs)
    cached_audit({"name": "rounded laplace", "second pair": 3}, sampler, [(0.0, 1.0), (0.0, 3.0)], alpha=0.05, **kwargs)
    cached_audit({"name": "rounded laplace"}, sampler, pairs, alpha=0.05, **{**kwargs, "seed": 8})
    assert len(calls) == n_calls + 16
