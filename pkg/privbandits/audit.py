"""Empirical privacy audits: statistical lower bounds on the privacy loss of a randomized algorithm.

An event ``S`` with ``p0 = P[M(D) in S]``, ``p1 = P[M(D') in S]`` on neighbouring datasets certifies
``epsilon >= ln((p0 - delta) / p1)``. :func:`audit` searches for one on a sample (as StatDP and
DP-Sniper do) and confirms it on a held-out sample with Clopper-Pearson bounds: the bound holds with
probability ``1 - alpha``. A ``"consistent"`` verdict is the absence of evidence, not a proof of privacy.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy import stats

from . import engine
from ._validation import (
    _is_real,
    check_bool,
    check_delta,
    check_epsilon,
    check_finite_array,
    check_int,
    check_probability,
)

__all__ = [
    "AuditResult",
    "clopper_pearson",
    "epsilon_lower_bound",
    "detectable_loss",
    "check_neighbours",
    "default_features",
    "joint_bins",
    "audit",
    "policy_sampler",
    "leading_run",
    "action_statistic_sampler",
    "hiring_sampler",
    "mechanism_targets",
    "flip_pairs",
    "cached_audit",
    "cached_audits",
]

Sampler = Callable[[Any, np.random.Generator, int], np.ndarray]
#: A feature extractor maps an output array ``(n, ...)`` to named categorical features: a dict
#: ``name -> int64 array (n,)``. It is *fitted* on the search sample (e.g. bucket edges) and returned
#: as a function applied unchanged to the held-out sample.
FeatureFitter = Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], dict[str, np.ndarray]]]


# ------------------------------------------------------------------------------------------------
# Statistics
# ------------------------------------------------------------------------------------------------


def clopper_pearson(k: Any, n: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """One-sided Clopper-Pearson bounds: ``P[p >= lo] >= 1 - alpha`` and ``P[p <= hi] >= 1 - alpha``.

    Parameters
    ----------
    k : array_like in [0, n]
        Success counts.
    n : int >= 1
    alpha : float in (0, 1)

    Returns
    -------
    tuple of numpy.ndarray
    """
    return _clopper_pearson(k, n, alpha, "k")


def _clopper_pearson(k: Any, n: int, alpha: float, name: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`clopper_pearson` with the counts checked under ``name``."""
    alpha = check_probability("alpha", alpha)
    n = check_int("n", n, minimum=1)
    k = check_finite_array(name, k)
    if np.any((k < 0) | (k > n)):
        raise ValueError(f"{name} must lie in [0, n={n}]")
    lo = np.where(k > 0, stats.beta.ppf(alpha, np.maximum(k, 1e-300), n - k + 1), 0.0)
    hi = np.where(k < n, stats.beta.ppf(1 - alpha, k + 1, np.maximum(n - k, 1e-300)), 1.0)
    return lo, hi


def epsilon_lower_bound(k0: Any, k1: Any, n: int, delta: float, alpha: float) -> np.ndarray:
    """``1 - alpha`` lower bound ``ln((lo0 - delta) / hi1)`` on epsilon from one event's counts (0 if ``lo0 <= delta``).

    Parameters
    ----------
    k0, k1 : array_like
        The event's counts on the two datasets, ``n`` samples each.
    n : int >= 1
    delta : float in [0, 1)
    alpha : float in (0, 1)
        Split equally between the two Clopper-Pearson bounds.

    Returns
    -------
    numpy.ndarray
    """
    if not _is_real(delta) or not 0.0 <= delta < 1.0:
        raise ValueError(f"delta must lie in [0, 1), got {delta!r}")
    alpha = check_probability("alpha", alpha)
    lo0, _ = _clopper_pearson(k0, n, alpha / 2, "k0")
    _, hi1 = _clopper_pearson(k1, n, alpha / 2, "k1")
    with np.errstate(divide="ignore", invalid="ignore"):
        eps = np.log(np.maximum(lo0 - delta, 0.0) / hi1)
    return np.maximum(np.nan_to_num(eps, nan=0.0, neginf=0.0), 0.0)


def detectable_loss(p: float, n: int, epsilon: float, alpha: float = 0.05) -> float:
    """Smallest loss of an event of probability ``p`` (and ``p e^-l``) the confirmation certifies above ``epsilon``.

    Parameters
    ----------
    p : float in (0, 1)
    n : int >= 1
        Confirmation samples per dataset (counts at their expected values).
    epsilon : float > 0
    alpha : float in (0, 1)

    Returns
    -------
    float
        ``inf`` if none is seen.
    """
    p = check_probability("p", p)
    n = check_int("n", n, minimum=1)
    epsilon = check_epsilon(epsilon)
    alpha = check_probability("alpha", alpha)

    def bound(loss: float) -> float:
        return float(epsilon_lower_bound(n * p, n * p * math.exp(-loss), n, 0.0, alpha))

    lo, hi = epsilon, epsilon + 1.0
    while bound(hi) <= epsilon:
        lo, hi = hi, 2.0 * hi
        if hi > 200.0:
            return math.inf
    for _ in range(60):  # bisection on a monotone bound
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if bound(mid) > epsilon else (mid, hi)
    return hi


def check_neighbours(d0: Any, d1: Any) -> int:
    """The index of the one entry (first axis) in which two datasets differ, else ``ValueError``.

    Parameters
    ----------
    d0, d1 : array_like
        An entry is one user's reward row, stream item or report.

    Returns
    -------
    int
    """
    a, b = np.asarray(d0, dtype=float), np.asarray(d1, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"neighbouring datasets must have the same shape, got {a.shape} and {b.shape}")
    if a.ndim == 0:
        if a == b:
            raise ValueError("neighbouring datasets d0 and d1 must differ (they are equal)")
        return 0
    diff = np.flatnonzero(np.any((a != b).reshape(a.shape[0], -1), axis=1))
    if diff.size != 1:
        raise ValueError(f"neighbouring datasets must differ in exactly one entry along axis 0, got {diff.size}")
    return int(diff[0])


# ------------------------------------------------------------------------------------------------
# Features
# ------------------------------------------------------------------------------------------------

_HASH_WEIGHTS = np.random.default_rng(20240611).integers(1, 2**62, size=4096, dtype=np.uint64) | np.uint64(1)


def _row_hash(x: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each row of an integer matrix (collisions negligible at our sample sizes)."""
    x = x.reshape(x.shape[0], -1).astype(np.uint64)
    if x.shape[1] > _HASH_WEIGHTS.size:
        raise ValueError(f"outputs with more than {_HASH_WEIGHTS.size} coordinates cannot be hashed")
    with np.errstate(over="ignore"):
        return ((x + np.uint64(1)) * _HASH_WEIGHTS[: x.shape[1]]).sum(axis=1).view(np.int64)


def _edges(values: np.ndarray, bins: int) -> np.ndarray:
    """Quantile bucket edges of ``values``: ``bins`` buckets, duplicates merged."""
    return np.unique(np.quantile(values, np.linspace(0, 1, bins + 1)[1:-1]))


#: Integer values spanning at most this many are counted with np.bincount (no sort; the same counts)
_DENSE_SPAN = 1 << 16


def _dense_low(*arrays: np.ndarray) -> int | None:
    """The least value of signed-integer ``arrays`` if all their values lie in ``[low, low + _DENSE_SPAN)``, or None."""
    if not all(np.issubdtype(a.dtype, np.signedinteger) and a.size for a in arrays):
        return None
    low = min(int(a.min()) for a in arrays)
    high = max(int(a.max()) for a in arrays)
    return low if high - low < _DENSE_SPAN else None


def _shifted(a: np.ndarray, low: int) -> np.ndarray:
    """``a - low`` flattened, in int64 (int8/int16 values spanning more than their type's maximum would wrap)."""
    return np.subtract(np.ravel(a), low, dtype=np.int64)


def _distinct(x0: np.ndarray, x1: np.ndarray) -> np.ndarray:
    """``np.unique(np.concatenate([x0, x1]))`` of integer arrays, counted when their values span little."""
    low = _dense_low(x0, x1)
    if low is None:
        return np.unique(np.concatenate([np.ravel(x0), np.ravel(x1)]))
    span = 1 + max(int(x0.max()), int(x1.max())) - low
    seen = np.bincount(_shifted(x0, low), minlength=span) + np.bincount(_shifted(x1, low), minlength=span)
    return (np.flatnonzero(seen) + low).astype(np.result_type(x0, x1))


def _category_counts(f0: np.ndarray, f1: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted distinct values of ``f0`` and ``f1`` together (``np.unique``) and each one's counts in each."""
    low = _dense_low(f0, f1)
    if low is None:
        cats, inv = np.unique(np.concatenate([f0, f1]), return_inverse=True)
        n = f0.size
        return cats, np.bincount(inv[:n], minlength=cats.size), np.bincount(inv[n:], minlength=cats.size)
    span = 1 + max(int(f0.max()), int(f1.max())) - low
    b0, b1 = np.bincount(_shifted(f0, low), minlength=span), np.bincount(_shifted(f1, low), minlength=span)
    at = np.flatnonzero(b0 + b1)
    return (at + low).astype(np.result_type(f0, f1)), b0[at], b1[at]


def _counts_in(cats: np.ndarray, values: np.ndarray) -> np.ndarray:
    """How many of ``values`` equal each of the sorted ``cats`` (a value equal to none counts in none)."""
    dense = (
        cats.size
        and np.issubdtype(cats.dtype, np.signedinteger)
        and np.issubdtype(values.dtype, np.signedinteger)
        and int(cats[-1]) - int(cats[0]) < _DENSE_SPAN
    )
    if not dense:
        at = np.minimum(np.searchsorted(cats, values), cats.size - 1)
        inside = cats[at] == values
        return np.bincount(at[inside], minlength=cats.size)
    low, high = int(cats[0]), int(cats[-1])
    inside = values[(values >= low) & (values <= high)]
    return np.bincount(_shifted(inside, low), minlength=high - low + 1)[_shifted(cats, low)]


def default_features(bins: int = 64) -> FeatureFitter:
    """Features for :func:`audit`: integer rows whole, per coordinate and per value count; floats in quantile buckets.

    Parameters
    ----------
    bins : int >= 2

    Returns
    -------
    FeatureFitter
    """
    bins = check_int("bins", bins, minimum=2)

    def fit(x0: np.ndarray, x1: np.ndarray) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
        integer = np.issubdtype(np.result_type(x0, x1), np.integer)
        d = x0.reshape(x0.shape[0], -1).shape[1]
        if integer:  # the distinct values of the two samples (np.unique of both), no float buckets
            values = _distinct(x0, x1) if d > 1 else np.array([], dtype=np.int64)
            edges = [None] * d
        else:
            pooled = np.concatenate([x0, x1]).reshape(x0.shape[0] * 2, -1)
            values = np.array([], dtype=np.int64)
            edges = [_edges(pooled[:, j], bins) for j in range(d)]

        def features(x: np.ndarray) -> dict[str, np.ndarray]:
            x = x.reshape(x.shape[0], -1)
            out: dict[str, np.ndarray] = {}
            if integer and 1 < d <= 64:
                out["whole output"] = _row_hash(x)
            for j in range(d):
                col = x[:, j]
                out[f"coordinate {j}"] = col.astype(np.int64) if integer else np.searchsorted(edges[j], col)
            if integer and d > 1 and values.size <= 8:
                for v in values:
                    out[f"count of value {v}"] = (x == v).sum(axis=1).astype(np.int64)
            return out

        return features

    return fit


def joint_bins(columns: Sequence[int], bins: int = 16) -> FeatureFitter:
    """One feature: the joint quantile bucket of several float coordinates (for tree counters).

    Parameters
    ----------
    columns : sequence of int >= 0
    bins : int >= 2
        Buckets per coordinate.

    Returns
    -------
    FeatureFitter
    """
    columns = [check_int("columns[i]", c, minimum=0) for c in columns]
    bins = check_int("bins", bins, minimum=2)

    def fit(x0: np.ndarray, x1: np.ndarray) -> Callable[[np.ndarray], dict[str, np.ndarray]]:
        pooled = np.concatenate([x0, x1]).reshape(x0.shape[0] * 2, -1)
        edges = [_edges(pooled[:, c], bins) for c in columns]

        def features(x: np.ndarray) -> dict[str, np.ndarray]:
            x = x.reshape(x.shape[0], -1)
            code = np.zeros(x.shape[0], dtype=np.int64)
            for c, e in zip(columns, edges):
                code = code * (bins + 1) + np.searchsorted(e, x[:, c])
            return {f"joint bucket of coordinates {tuple(columns)}": code}

        return features

    return fit


# ------------------------------------------------------------------------------------------------
# The audit
# ------------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class AuditResult:
    """Outcome of :func:`audit`.

    Attributes
    ----------
    epsilon_lower, confidence : float
        Lower bound on the privacy loss, holding with probability ``confidence = 1 - alpha``.
    claimed_epsilon, claimed_delta : float
    n_samples, pair : int
        Per dataset and step; the pair that gave the bound.
    event : str
    p0, p1, search_epsilon : float
        The event's held-out frequencies; its (optimistic) bound on the search sample.
    per_pair : tuple of float
    """

    epsilon_lower: float
    confidence: float
    claimed_epsilon: float
    claimed_delta: float
    n_samples: int
    pair: int
    event: str
    p0: float
    p1: float
    search_epsilon: float
    per_pair: tuple[float, ...]

    @property
    def violation(self) -> bool:
        """Whether the lower bound exceeds the claimed epsilon."""
        return self.epsilon_lower > self.claimed_epsilon

    @property
    def verdict(self) -> str:
        """``"consistent"`` or a one-line description of the violation."""
        if self.violation:
            return f"violation: lower bound {self.epsilon_lower:.3f} > claimed eps {self.claimed_epsilon:g}"
        return "consistent"


def _pair_counts(sampler, d0, d1, n, fitter, seed_seq) -> dict[str, np.ndarray]:
    """One pair's samples reduced to what search and confirmation read at any level: category counts."""
    # Draws from seed_seq.spawn(4): search d0, search d1, held-out d0, held-out d1. A feature with more
    # categories than max(64, n // 20) on the search samples is left out (almost every output its own
    # category: no event of it can be confirmed). Returned: the features' names (the fitter's order),
    # the offsets of their categories, and four count vectors over those categories (sorted as
    # np.unique sorts them): c0, c1 (search), h0, h1 (held-out; a held-out value outside the search's
    # categories counts in none, as np.isin against a set of them does not count it).
    rngs = [np.random.default_rng(x) for x in seed_seq.spawn(4)]
    x0, x1 = sampler(d0, rngs[0], n), sampler(d1, rngs[1], n)
    features = fitter(x0, x1)
    f0, f1 = features(x0), features(x1)
    del x0, x1
    names, categories, c0, c1 = [], [], [], []
    for name in f0:
        cats, k0, k1 = _category_counts(f0[name], f1[name])
        if cats.size > max(64, n // 20):
            continue
        names.append(name)
        categories.append(cats)
        c0.append(k0)
        c1.append(k1)
    del f0, f1
    held = []
    for d, rng in ((d0, rngs[2]), (d1, rngs[3])):
        counts = []
        if names:  # nothing to confirm otherwise: no held-out sample
            g = features(sampler(d, rng, n))
            for name, cats in zip(names, categories):
                counts.append(_counts_in(cats, g[name]))
        held.append(counts)

    def joined(parts: list[np.ndarray]) -> np.ndarray:
        return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, dtype=np.int64)

    return {
        "names": np.array(names, dtype=str),
        "offsets": np.cumsum([0] + [c.size for c in categories]).astype(np.int64),
        "c0": joined(c0),
        "c1": joined(c1),
        "h0": joined(held[0]),
        "h1": joined(held[1]),
    }


def _pair_result(counts: dict[str, np.ndarray], n: int, delta: float, alpha: float):
    """Search and confirm at ``alpha`` from :func:`_pair_counts`: (bound, event, p0, p1, search bound)."""
    # The search maximises the Clopper-Pearson bound over (feature, category set, direction); the
    # event found is confirmed on the held-out counts of its categories.
    # The bounds of every prefix set are computed in one call (elementwise: the same values as one
    # call per set), then scanned in the search's order (feature, direction, ordering).
    offsets = counts["offsets"]
    sets, k0s, k1s = [], [], []
    for j in range(len(counts["names"])):
        a_all = counts["c0"][offsets[j] : offsets[j + 1]]
        b_all = counts["c1"][offsets[j] : offsets[j + 1]]
        ascending = np.arange(a_all.size)
        for flip, (a, b) in enumerate(((a_all, b_all), (b_all, a_all))):
            # prefix sets of the categories sorted by likelihood ratio, and the two tails {x <= v},
            # {x >= v} of the categories' natural order (ordinal features: "Phase I lasted >= m")
            for order in (np.argsort(-(a + 0.5) / (b + 0.5), kind="stable"), ascending, ascending[::-1]):
                sets.append((j, order, flip))
                k0s.append(np.cumsum(a[order]))
                k1s.append(np.cumsum(b[order]))
    best = (-1.0, None)
    if sets:
        eps_all = epsilon_lower_bound(np.concatenate(k0s), np.concatenate(k1s), n, delta, alpha)
        start = 0
        for (j, order, flip), k0 in zip(sets, k0s):
            eps = eps_all[start : start + k0.size]
            start += k0.size
            i = int(np.argmax(eps))
            if eps[i] > best[0]:
                best = (float(eps[i]), (j, order[: i + 1], flip))
    search_eps, choice = best
    if choice is None:
        return 0.0, "", 0.0, 0.0, 0.0
    j, chosen, flip = choice
    h0 = counts["h0"][offsets[j] : offsets[j + 1]][chosen].sum()
    h1 = counts["h1"][offsets[j] : offsets[j + 1]][chosen].sum()
    k0, k1 = (h1, h0) if flip else (h0, h1)
    eps = float(epsilon_lower_bound(k0, k1, n, delta, alpha))
    direction = "D' vs D" if flip else "D vs D'"
    name = str(counts["names"][j])
    return eps, f"{name} in a set of {len(chosen)} categories ({direction})", k0 / n, k1 / n, search_eps


def _audit_pair(sampler, d0, d1, n, fitter, delta, alpha, seed_seq):
    """Search and confirm on one neighbouring pair: (bound, event, p0, p1, search bound)."""
    return _pair_result(_pair_counts(sampler, d0, d1, n, fitter, seed_seq), n, delta, alpha)


def audit(
    sampler: Sampler,
    pairs: Sequence[tuple[Any, Any]],
    *,
    epsilon: float,
    delta: float = 0.0,
    n_samples: int = 100_000,
    alpha: float = 0.05,
    features: FeatureFitter | None = None,
    seed: int = 0,
    n_jobs: int | None = None,
    progress: bool = False,
) -> AuditResult:
    """Audit the claim that ``sampler`` is ``(epsilon, delta)``-DP: the largest confirmed bound over the pairs.

    Pair ``i`` draws ``2 n_samples`` outputs per dataset (search, confirmation) from
    ``SeedSequence(seed).spawn(len(pairs))[i]``, whatever ``n_jobs``.

    Parameters
    ----------
    sampler : Sampler
        ``sampler(dataset, rng, n)``: ``n`` outputs, shape ``(n,)`` or ``(n, d)``.
    pairs : sequence of tuple
        Neighbouring datasets ``(d0, d1)`` (:func:`check_neighbours`).
    epsilon, delta, alpha : float
        > 0; in [0, 1); in (0, 1).
    n_samples, seed : int
    features : FeatureFitter or None
        The statistics searched (``None``: :func:`default_features`).
    n_jobs, progress
        Workers over the pairs; bar.

    Returns
    -------
    AuditResult
    """
    return _audit(
        sampler,
        pairs,
        epsilon=epsilon,
        delta=delta,
        n_samples=n_samples,
        alpha=alpha,
        features=features,
        seed=seed,
        n_jobs=n_jobs,
        progress=progress,
    )


def _audit(
    sampler,
    pairs,
    *,
    epsilon,
    delta=0.0,
    n_samples=100_000,
    alpha=0.05,
    features=None,
    seed=0,
    n_jobs=None,
    progress=False,
    store=None,
) -> AuditResult:
    """:func:`audit`, its samples' category counts (level-free) taken through ``store(compute)`` if given."""
    # store is a cache: cached_audit shares the counts between audits of one configuration at two levels
    epsilon = check_epsilon(epsilon)
    if delta != 0.0:
        delta = check_delta(delta)
    alpha = check_probability("alpha", alpha)
    n_samples = check_int("n_samples", n_samples, minimum=1)
    if len(pairs) == 0:
        raise ValueError("pairs must contain at least one neighbouring pair")
    for d0, d1 in pairs:
        check_neighbours(d0, d1)
    fitter = features or default_features()
    joined = _sample_pairs(sampler, pairs, n_samples, fitter, seed, n_jobs, progress, store)
    level = alpha / len(pairs)  # Bonferroni over the pairs
    results = [_pair_result(_pair_of(joined, i), n_samples, delta, level) for i in range(len(pairs))]
    best = int(np.argmax([r[0] for r in results]))
    eps, event, p0, p1, search = results[best]
    return AuditResult(
        epsilon_lower=eps,
        confidence=1 - alpha,
        claimed_epsilon=epsilon,
        claimed_delta=delta,
        n_samples=n_samples,
        pair=best,
        event=event,
        p0=float(p0),
        p1=float(p1),
        search_epsilon=search,
        per_pair=tuple(r[0] for r in results),
    )


_COUNT_FIELDS = ("names", "offsets", "c0", "c1", "h0", "h1")


def _sample_pairs(sampler, pairs, n_samples, fitter, seed, n_jobs, progress, store=None) -> dict[str, np.ndarray]:
    """Every pair's :func:`_pair_counts`, one dict (``pair<i>_<field>``), through ``store(compute)`` if given."""
    # pair i draws from SeedSequence(seed).spawn(len(pairs))[i]; store is a cache (cached_audit's)

    def compute() -> dict[str, np.ndarray]:
        seeds = np.random.SeedSequence(seed).spawn(len(pairs))
        tasks = [(sampler, d0, d1, n_samples, fitter, s) for (d0, d1), s in zip(pairs, seeds)]
        counts = engine.parallel_map(_pair_counts, tasks, n_jobs=n_jobs, progress=progress, desc="audit pairs")
        return {f"pair{i}_{k}": c[k] for i, c in enumerate(counts) for k in _COUNT_FIELDS}

    return compute() if store is None else store(compute)


def _pair_of(joined: dict[str, np.ndarray], i: int) -> dict[str, np.ndarray]:
    """Pair ``i``'s counts out of :func:`_sample_pairs`' arrays."""
    return {k: joined[f"pair{i}_{k}"] for k in _COUNT_FIELDS}


def policy_sampler(policy: Any, instance: Any, horizon: int, records: Sequence[str] = ("arms",)) -> Sampler:
    """A sampler running ``policy`` for ``horizon`` rounds on a reward table (the dataset), rows the ``records`` joined.

    Parameters
    ----------
    policy : Policy
    instance : BanditInstance
    horizon : int >= 1
    records : sequence of str
        ``("arms",)`` samples in compiled code (:meth:`~privbandits.policies.Policy.sample_arms`).

    Returns
    -------
    Sampler
    """
    horizon = check_int("horizon", horizon, minimum=1)
    records = tuple(records)

    def sample(table: Any, rng: np.random.Generator, n: int) -> np.ndarray:
        inst = instance.with_table(np.asarray(table, dtype=float))
        if records == ("arms",) and hasattr(policy, "sample_arms"):
            return policy.sample_arms(inst, horizon, rng, n)  # the loop over runs in compiled code
        run = policy.run
        first = run(inst, horizon, rng)
        sizes = [np.size(first[k]) for k in records]
        out = np.empty((n, sum(sizes)), dtype=np.int64)
        edges = np.concatenate([[0], np.cumsum(sizes)])
        rec = first
        for i in range(n):
            if i:
                rec = run(inst, horizon, rng)
            for k, a, b in zip(records, edges[:-1], edges[1:]):
                out[i, a:b] = np.ravel(rec[k])
        return out

    return sample


def leading_run(arms: np.ndarray, arm: int = 0, start: int = 0) -> np.ndarray:
    """Length of the first run of ``arm`` from round ``start`` on, per row of actions (0 if another arm).

    Parameters
    ----------
    arms : numpy.ndarray, shape (n, T)
    arm : int
    start : int in [0, T)
        A window of the anytime wrapper (:func:`~privbandits.policies.dp_ncb.anytime_window_run_law`).

    Returns
    -------
    numpy.ndarray, shape (n,)
    """
    arms = np.asarray(arms)
    if arms.ndim != 2 or not np.issubdtype(arms.dtype, np.integer) or (arms.size and arms.min() < 0):
        raise ValueError(
            f"arms must be an array of arms (integers >= 0) of shape (n, T), got {arms.dtype} {arms.shape}"
        )
    arm = check_int("arm", arm, minimum=0)
    start = check_int("start", start)
    if not 0 <= start < arms.shape[1]:
        raise ValueError(f"start must lie in [0, T) = [0, {arms.shape[1]}), got {start}")
    other = arms[:, start:] != arm
    return np.where(other.any(axis=1), other.argmax(axis=1), other.shape[1]).astype(np.int64)


def action_statistic_sampler(
    policy: Any, instance: Any, horizon: int, statistic: Callable[[np.ndarray], np.ndarray]
) -> Sampler:
    """A sampler of ``statistic(arms)``: post-processing of the actions, so auditing it audits the policy.

    Parameters
    ----------
    policy, instance, horizon
        As for :func:`policy_sampler`.
    statistic : callable
        Actions ``(n, T)`` to ``(n,)`` or ``(n, m)``, e.g. :func:`leading_run`.

    Returns
    -------
    Sampler
    """
    inner = policy_sampler(policy, instance, horizon, ("arms",))

    def sample(table: Any, rng: np.random.Generator, n: int) -> np.ndarray:
        return np.asarray(statistic(inner(table, rng, n)), dtype=np.int64).reshape(n, -1)

    return sample


def hiring_sampler(policy: Any, env: Any, horizon: int, changed_round: int) -> Sampler:
    """A joint-DP sampler for Part IV's hiring policies: the dataset is the candidate table ``(horizon, K)``.

    Neighbours differ in round ``changed_round``; the output, protected by joint DP, is the hired group of
    every other round, ``(n, horizon - 1)``.

    Parameters
    ----------
    policy : HiringPolicy
    env : HiringEnvironment
    horizon : int >= 2
    changed_round : int in [0, horizon)

    Returns
    -------
    Sampler
    """
    from .policies.fair_hiring import OFUL, FairGreedy, PrivateFairGreedy
    from .policies.fair_hiring.policies import _hired_groups

    horizon = check_int("horizon", horizon, minimum=2)
    changed_round = check_int("changed_round", changed_round, minimum=0)
    if changed_round >= horizon:
        raise ValueError(f"changed_round must lie in [0, horizon) = [0, {horizon}), got {changed_round}")
    others = np.delete(np.arange(horizon), changed_round)

    def sample(candidates: Any, rng: np.random.Generator, n: int) -> np.ndarray:
        table = np.asarray(candidates, dtype=np.int64)
        if type(policy) in (OFUL, FairGreedy, PrivateFairGreedy):  # n runs, checked and set up once
            return np.ascontiguousarray(_hired_groups(policy, env, horizon, rng, n, table)[:, others], dtype=np.int64)
        out = np.empty((n, horizon - 1), dtype=np.int64)
        for i in range(n):
            out[i] = policy.run(env, horizon, rng, candidates=table)["groups"][others]
        return out

    return sample


# ------------------------------------------------------------------------------------------------
# The book's mechanisms, correct and deliberately broken, as audit targets
# ------------------------------------------------------------------------------------------------


def mechanism_targets(epsilon: float = 1.0, *, broken: bool = False) -> dict[str, dict[str, Any]]:
    """Audit targets for every mechanism of :mod:`privbandits.mechanisms`.

    Parameters
    ----------
    epsilon : float > 0
    broken : bool
        Halve each noise scale, which the audit must catch.

    Returns
    -------
    dict of str to dict
        Per mechanism: ``sampler``, ``pairs``, ``epsilon``, ``delta``, ``features``.
    """
    from . import mechanisms as m

    epsilon = check_epsilon(epsilon)
    f = 2.0 if check_bool("broken", broken) else 1.0
    gauss_eps, gauss_delta = 0.9, 1e-3
    sigma = m.gaussian_sigma(1.0, gauss_eps, gauss_delta) / f

    def laplace(x, rng, n):
        return m.laplace_mechanism(np.full(n, float(x)), 1.0, f * epsilon, rng)

    def gaussian(x, rng, n):
        return m.gaussian_mechanism(np.full(n, float(x)), 1.0, rng, sigma=sigma)

    def rr(x, rng, n):
        return m.randomized_response(np.full(n, int(x)), f * epsilon, rng).astype(np.int64)

    def privbern(x, rng, n):
        return m.privbern(np.full(n, float(x)), f * epsilon, rng).astype(np.int64)

    def tree(stream, rng, n):
        return m.binary_tree_prefix_sums(np.asarray(stream, dtype=float), f * epsilon, rng, runs=n)

    def hybrid(stream, rng, n):
        # post-processing (releases minus the release at t = 2) removes the shared log-mechanism
        # noise of t = 1, 2; post-processing cannot increase the privacy loss, so the audit stays valid
        out = m.hybrid_prefix_sums(np.asarray(stream, dtype=float), f * epsilon, rng, runs=n)
        return out - out[:, 1:2]

    return {
        "Laplace": dict(sampler=laplace, pairs=[(0.0, 1.0)], epsilon=epsilon, delta=0.0, features=None),
        "Gaussian": dict(sampler=gaussian, pairs=[(0.0, 1.0)], epsilon=gauss_eps, delta=gauss_delta, features=None),
        "Randomized response": dict(sampler=rr, pairs=[(0, 1)], epsilon=epsilon, delta=0.0, features=None),
        "PrivBern": dict(sampler=privbern, pairs=[(0.0, 1.0)], epsilon=epsilon, delta=0.0, features=None),
        # stream of length 2: item 1 lies in both p-sums of the tree (levels = 2)
        "Binary tree counter": dict(
            sampler=tree, pairs=[((0.0, 0.0), (1.0, 0.0))], epsilon=epsilon, delta=0.0, features=joint_bins([0, 1])
        ),
        # stream of length 4: item 3 enters the tree release at t = 3 and the log release at t = 4
        "Hybrid counter": dict(
            sampler=hybrid,
            pairs=[((0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0))],
            epsilon=epsilon,
            delta=0.0,
            features=joint_bins([2, 3]),
        ),
    }


def flip_pairs(table: Any, rounds: Sequence[int], arm: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Pairs ``(table, copy)``, the copy's ``table[t, arm]`` flipped to ``1 - r``, one per round ``t``.

    Parameters
    ----------
    table : array_like, shape (horizon, K), in [0, 1]
    rounds : sequence of int in [0, horizon)
    arm : int

    Returns
    -------
    list of tuple of numpy.ndarray
    """
    base = np.asarray(table, dtype=float)
    pairs = []
    for t in rounds:
        t = check_int("rounds[i]", t, minimum=0, maximum=base.shape[0] - 1)
        other = base.copy()
        other[t, arm] = 1.0 - other[t, arm]
        pairs.append((base, other))
    return pairs


def cached_audit(
    config: dict[str, Any], sampler: Sampler, pairs, *, depends_on: Sequence[Any] | None = None, **kwargs: Any
) -> AuditResult:
    """:func:`audit` (``**kwargs``), stored through :func:`privbandits.engine.cached`.

    The samples' category counts, which do not depend on the level ``alpha``, are stored too, under
    the same key without ``alpha`` (and with the pairs' bytes): an audit of the same configuration at
    another level reads them instead of drawing the samples again, and finds the same result as
    drawing them.

    Parameters
    ----------
    config : dict
        Describes sampler and pairs; the key adds the audit's arguments but ``n_jobs``, ``progress``, ``features``.
    sampler, pairs
        As for :func:`audit`.
    depends_on : sequence or None
        The package modules the sampler runs (``None``: the whole package).

    Returns
    -------
    AuditResult
    """
    names = [f.name for f in dataclasses.fields(AuditResult)]
    arguments = {k: v for k, v in kwargs.items() if k not in ("n_jobs", "progress", "features")}
    modules = None if depends_on is None else [__name__, *depends_on]
    samples = {
        "audit samples": config,
        **{k: v for k, v in arguments.items() if k != "alpha"},
        "pairs": _pairs_digest(pairs),
    }

    def compute() -> dict[str, np.ndarray]:
        result = _audit(
            sampler, pairs, **kwargs, store=lambda counts: engine.cached(samples, counts, depends_on=modules)
        )
        return {k: np.asarray(getattr(result, k)) for k in names}

    stored = engine.cached({"audit": config, **arguments}, compute, depends_on=modules)
    values = {k: stored[k].item() if stored[k].ndim == 0 else tuple(stored[k].tolist()) for k in names}
    return AuditResult(**values)


def _pairs_digest(pairs) -> str:
    """SHA-256 of the pairs' datasets (shape and float64 bytes), for a cache key."""
    digest = hashlib.sha256()
    for pair in pairs:
        for d in pair:
            a = np.ascontiguousarray(d, dtype=float)
            digest.update(repr(a.shape).encode())
            digest.update(a.tobytes())
    return digest.hexdigest()


def _one_cached_audit(request: dict[str, Any]) -> AuditResult:
    """One request of :func:`cached_audits`, on one worker."""
    request = dict(request)
    return cached_audit(request.pop("config"), request.pop("sampler"), request.pop("pairs"), **request, n_jobs=1)


def cached_audits(
    requests: Sequence[dict[str, Any]], *, n_jobs: int | None = None, progress: bool | None = None
) -> list[AuditResult]:
    """Several :func:`cached_audit` calls in parallel, results in order.

    Parameters
    ----------
    requests : sequence of dict
        Keyword arguments of :func:`cached_audit`.
    n_jobs : int or None
    progress : bool or None

    Returns
    -------
    list of AuditResult
    """
    return engine.parallel_map(
        _one_cached_audit, [(r,) for r in requests], n_jobs=n_jobs, progress=progress, desc="audits"
    )
