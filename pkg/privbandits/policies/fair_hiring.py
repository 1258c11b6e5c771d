"""Fair contextual linear bandits for hiring: OFUL, Fair-Greedy and Private-Fair-Greedy.

Setting (Grazzi et al. 2022; Private-Fair-Greedy paper, Section 3): in every round one candidate
``X_{k,t}`` is drawn from each of the K groups; the learner hires one, ``k_t``, and observes
``y_t = <X_{k_t,t}, theta*> + eta_t``.  Group meritocratic fairness compares candidates by their
*relative rank* within their own group, ``F_k(<X_{k,t}, theta*>)`` (F_k = CDF of the group's
rewards); the fair pseudo-regret (Definition 2) is ``sum_t max_k F_k(<X_k,theta*>) -
F_{k_t}(<X_{k_t},theta*>)``.

* :class:`OFUL` -- Abbasi-Yadkori, Pal, Szepesvari (2011), Algorithm 1 (OFUL) with the ellipsoidal
  confidence radius of their Theorem 2.  Not private, not fair.
* :class:`FairGreedy` -- Grazzi et al. (2022), Fair-Greedy: ridge regression on the first half of
  the history, relative rank by counting on the second half, greedy on the estimated rank.
* :class:`PrivateFairGreedy` -- Algorithm 1 of the Private-Fair-Greedy paper: tree-based
  continually private ridge regression (Section 4.1, Gaussian noise per node) and zCDP private
  rank estimation (Section 4.2, eq. (1)).  Claimed guarantee (Theorem 5.1): (eps, delta)-JDP when
  ``||X|| + |y| <= L_tilde``.  Its exact guarantee, by Gaussian accounting through ``dp-accounting``,
  is :func:`privacy_guarantee`; ``calibration="tight"`` spends exactly the target.

All three share one numba kernel, :func:`_fair_kernel`, written as plain loops over the paper's
steps; :func:`simulate_hiring` runs trials with ``SeedSequence.spawn``, joblib threads, tqdm and the
disk cache.

Rank step (line 6).  Candidates are rows of finite per-group pools, so the window
``D_{t~+1:t-1}`` is kept as a histogram over pool rows; whenever theta-hat changes, every pool row is
re-scored once (sparse rows, :func:`_score_pool`), and the count of line 6 is
``sum_r counts[r] 1{score_r <= score of X_{k,t}}`` -- the paper's count exactly, at O(pool non-zeros)
per change of theta-hat instead of O(N_t d) (``rank_method="brute"`` keeps the entry-by-entry count
as a reference).  ``rank_refresh = R > 1`` (not in the paper; default 1) recomputes theta-hat only
when t~ is a multiple of R: post-processing of the private regression, the rank's sensitivity
(1/N_t) and noise are unchanged.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Any, ClassVar

import numpy as np
from numba import njit

from .. import cache
from .._validation import check_delta, check_epsilon, check_int, check_positive, check_probability
from ..mechanisms import (
    approx_dp_to_zcdp, gaussian_composition_epsilon, gaussian_composition_multiplier, gaussian_noise_multiplier,
    zcdp_to_approx_dp,
)

__all__ = [
    "OFUL", "FairGreedy", "PrivateFairGreedy", "HiringEnvironment", "simulate_hiring",
    "tree_levels", "tree_sigma", "tree_gamma", "tree_rho", "tree_mu", "rank_mu", "rank_sigma",
    "tight_noise_scale", "privacy_guarantee", "relative_ranks", "private_ridge_prefix", "budget_table",
]

_OFUL, _FAIR, _PRIVATE = 0, 1, 2


# ----------------------------------------------------------------------------------------------
# Privacy calibration (Sections 4.1 and 4.2)
# ----------------------------------------------------------------------------------------------
def tree_levels(horizon: int) -> int:
    """m = 1 + ceil(log2(T/2)): nodes combined into one prefix sum (Section 4.1)."""
    return 1 + max(0, math.ceil(math.log2(max(horizon / 2, 1))))


def tree_sigma(epsilon_reg: float, delta_reg: float, horizon: int, l_tilde: float) -> float:
    """sigma_noise = sqrt(16 m L^4 ln(4/delta_reg)^2 / eps_reg^2) (Section 4.1, as printed)."""
    m = tree_levels(horizon)
    return math.sqrt(16 * m * l_tilde**4 * math.log(4 / delta_reg) ** 2 / epsilon_reg**2)


def tree_gamma(sigma_noise: float, horizon: int, dim: int) -> float:
    """Gamma = sigma_noise sqrt(2m) (4 sqrt(d) + 2 ln(2T)); the Gram shift is 2 Gamma I."""
    m = tree_levels(horizon)
    return sigma_noise * math.sqrt(2 * m) * (4 * math.sqrt(dim) + 2 * math.log(2 * horizon))


def rank_sigma(n_t: int, horizon: int, rho: float) -> float:
    """sigma_t = sqrt(T / (2 N_t^2 rho_rank)) (Section 4.2)."""
    return math.sqrt(horizon / (2 * n_t**2 * rho))


def tree_rho(epsilon_reg: float, delta_reg: float) -> float:
    """zCDP actually delivered by the Section 4.1 calibration (our computation, not the paper's).

    A neighbouring history replaces one leaf v v^T by v' v'^T (||v||, ||v'|| <= L-tilde), a change
    of Frobenius norm at most sqrt(2) L^2.  The symmetrised node noise has independent entries
    N(0, sigma^2) above the diagonal and N(0, 2 sigma^2) on it, so one node is
    ||Delta||_F^2 / (4 sigma^2)-zCDP; a leaf lies in m nodes.  With sigma^2 = 16 m L^4 ln(4/delta)^2
    / eps^2 this gives rho = m * 2 L^4 / (4 sigma^2) = eps^2 / (32 ln(4/delta)^2), free of m and L.
    """
    return epsilon_reg**2 / (32 * math.log(4 / delta_reg) ** 2)


def tree_mu(epsilon_reg: float, delta_reg: float) -> float:
    """The regression tree as one Gaussian mechanism: mu = sqrt(2 rho) = eps_reg / (4 ln(4/delta_reg)).

    All the tree's node releases together are a Gaussian mechanism of noise multiplier 1/mu
    (``mu``-GDP; :func:`tree_rho` is ``mu^2 / 2``).  Free of m and L-tilde.
    """
    return math.sqrt(2 * tree_rho(epsilon_reg, delta_reg))


def rank_mu(epsilon_rank: float, delta_rank: float) -> float:
    """The rank step as one Gaussian mechanism: mu = sqrt(2 rho_rank) (Section 4.2: T releases,
    each (rho_rank / T)-zCDP, compose to rho_rank; rho_rank = ``approx_dp_to_zcdp(eps_rank,
    delta_rank)``, the paper's conversion)."""
    return math.sqrt(2 * approx_dp_to_zcdp(epsilon_rank, delta_rank))


def _split(epsilon: float, delta: float, alpha_eps: float, alpha_delta: float) -> tuple[float, float, float, float]:
    """Algorithm 1, line 1 (with the minus sign the extraction loses)."""
    eps_reg, delta_reg = alpha_eps * epsilon, alpha_delta * delta
    return eps_reg, delta_reg, epsilon - eps_reg, delta - delta_reg


@functools.lru_cache(maxsize=256)
def tight_noise_scale(epsilon: float, delta: float, alpha_eps: float, alpha_delta: float) -> float:
    """Factor c by which ``calibration="tight"`` multiplies every noise standard deviation.

    The printed calibration makes the algorithm a Gaussian mechanism of noise multiplier
    s = (mu_reg^2 + mu_rank^2)^(-1/2) (:func:`tree_mu`, :func:`rank_mu`, composed exactly by
    :func:`~privbandits.mechanisms.gaussian_composition_multiplier`).  c = s* / s with s* the smallest
    multiplier that is exactly (epsilon, delta)-DP (:func:`~privbandits.mechanisms.gaussian_noise_multiplier`,
    analytic Gaussian).  Scaling both noises by one factor keeps the printed split between
    regression and rank step; c < 1 means the printed calibration adds more noise than its target
    needs.
    """
    eps_reg, delta_reg, eps_rank, delta_rank = _split(epsilon, delta, alpha_eps, alpha_delta)
    s = gaussian_composition_multiplier([1 / tree_mu(eps_reg, delta_reg), 1 / rank_mu(eps_rank, delta_rank)])
    return gaussian_noise_multiplier(epsilon, delta) / s


def privacy_guarantee(epsilon: float, delta: float, alpha_eps: float, alpha_delta: float, *,
                      calibration: str = "printed", accountant: str = "analytic") -> dict[str, float]:
    """What the calibrated noise actually guarantees, tight and loose.

    ``eps_reg_tight``, ``eps_rank_tight``: the exact epsilon of the regression alone at delta_reg and
    of the rank step alone at delta_rank; ``eps_total_tight``: of the whole algorithm at the total
    delta (adaptive composition of Gaussian mechanisms, exact; computed by ``dp-accounting``, see
    :func:`~privbandits.mechanisms.gaussian_composition_epsilon`).  ``eps_total_loose``: each part's
    zCDP converted by Bun and Steinke's Prop. 1.3 at its own delta, then added (basic composition), the
    book's first figure.  ``noise_scale``: the factor applied to both noises (1 for "printed").
    """
    _check_calibration(calibration)
    eps_reg, delta_reg, eps_rank, delta_rank = _split(epsilon, delta, alpha_eps, alpha_delta)
    c = 1.0 if calibration == "printed" else tight_noise_scale(epsilon, delta, alpha_eps, alpha_delta)
    mu_reg, mu_rank = tree_mu(eps_reg, delta_reg) / c, rank_mu(eps_rank, delta_rank) / c
    loose = zcdp_to_approx_dp(mu_reg**2 / 2, delta_reg) + zcdp_to_approx_dp(mu_rank**2 / 2, delta_rank)
    return {
        "noise_scale": c, "mu_reg": mu_reg, "mu_rank": mu_rank,
        "eps_reg_tight": gaussian_composition_epsilon([1 / mu_reg], delta_reg, accountant=accountant),
        "eps_rank_tight": gaussian_composition_epsilon([1 / mu_rank], delta_rank, accountant=accountant),
        "eps_total_tight": gaussian_composition_epsilon([1 / mu_reg, 1 / mu_rank], delta, accountant=accountant),
        "eps_total_loose": loose,
    }


def budget_table(epsilon: float, delta: float, alpha_eps: float, alpha_delta: float) -> list[dict[str, float]]:
    """What each component spends (Algorithm 1 line 1), in (eps, delta) and in rho (zCDP).

    ``rho_target``: the rho whose conversion (Prop. 1.3 of Bun and Steinke) is exactly the
    component's (eps, delta) -- for the rank step this is the paper's rho_rank.  ``rho_delivered``:
    the zCDP that the calibrated noise actually gives (:func:`tree_rho` for the regression, rho_rank
    for the rank step), ``eps_delivered`` its conversion at the component's delta (the total row adds
    them: basic composition), and ``eps_tight`` the exact epsilon at the same delta
    (:func:`privacy_guarantee`).
    """
    eps_reg, delta_reg, eps_rank, delta_rank = _split(epsilon, delta, alpha_eps, alpha_delta)
    rho_reg = tree_rho(eps_reg, delta_reg)
    rho_rank = approx_dp_to_zcdp(eps_rank, delta_rank)
    g = privacy_guarantee(epsilon, delta, alpha_eps, alpha_delta)
    return [
        {"component": "regression (tree, Gaussian)", "epsilon": eps_reg, "delta": delta_reg,
         "rho_target": approx_dp_to_zcdp(eps_reg, delta_reg), "rho_delivered": rho_reg,
         "eps_delivered": zcdp_to_approx_dp(rho_reg, delta_reg), "eps_tight": g["eps_reg_tight"]},
        {"component": "rank estimation (zCDP Gaussian)", "epsilon": eps_rank, "delta": delta_rank,
         "rho_target": rho_rank, "rho_delivered": rho_rank,
         "eps_delivered": zcdp_to_approx_dp(rho_rank, delta_rank), "eps_tight": g["eps_rank_tight"]},
        {"component": "total (composition)", "epsilon": epsilon, "delta": delta,
         "rho_target": float("nan"), "rho_delivered": rho_reg + rho_rank,
         "eps_delivered": g["eps_total_loose"], "eps_tight": g["eps_total_tight"]},
    ]


def _check_calibration(calibration: str) -> None:
    if calibration not in ("printed", "tight"):
        raise ValueError(f"calibration must be 'printed' or 'tight', got {calibration!r}")


def _check_l_tilde_rule(rule: str) -> None:
    if rule not in ("sum", "norm", "data"):
        raise ValueError(f"l_tilde_rule must be 'sum', 'norm' or 'data', got {rule!r}")


# ----------------------------------------------------------------------------------------------
# Numba building blocks
# ----------------------------------------------------------------------------------------------
@njit(nogil=True, cache=True)
def _tree_insert(alpha, noisy, leaf_index, leaf, sigma, rng):  # pragma: no cover - compiled
    """Insert leaf number ``leaf_index`` (1-based) into the binary tree (CSS11, Algorithm 2).

    ``alpha[i]`` / ``noisy[i]`` are the exact / noisy sums of the node closing at level i; each
    closed node gets fresh symmetrised Gaussian noise Z = (Z' + Z'^T)/sqrt(2), Z'_ij ~ N(0, sigma^2).
    """
    level = 0
    while (leaf_index >> level) & 1 == 0:
        level += 1
    p = leaf.shape[0]
    for i in range(p):
        for j in range(p):
            acc = leaf[i, j]
            for lv in range(level):
                acc += alpha[lv, i, j]
            alpha[level, i, j] = acc
    for lv in range(level):
        alpha[lv, :, :] = 0.0
        noisy[lv, :, :] = 0.0
    if sigma > 0.0:
        # Z = (Z' + Z'^T)/sqrt(2): its entries i < j are (Z'_ij + Z'_ji)/sqrt(2) ~ N(0, sigma^2) and
        # independent, Z_ji = Z_ij, and Z_ii = sqrt(2) Z'_ii ~ N(0, 2 sigma^2).  We draw Z in that
        # form (same distribution, half the Gaussian draws).
        for i in range(p):
            noisy[level, i, i] = alpha[level, i, i] + rng.normal(0.0, sigma * math.sqrt(2.0))
            for j in range(i + 1, p):
                z = rng.normal(0.0, sigma)
                noisy[level, i, j] = alpha[level, i, j] + z
                noisy[level, j, i] = alpha[level, j, i] + z
    else:
        noisy[level, :, :] = alpha[level, :, :]


@njit(nogil=True, cache=True)
def _tree_prefix(noisy, count, out):  # pragma: no cover - compiled
    """Noisy prefix sum of leaves 1..count: the nodes of count's binary expansion."""
    out[:, :] = 0.0
    level = 0
    while (count >> level) > 0:
        if (count >> level) & 1:
            out += noisy[level]
        level += 1


@njit(nogil=True, cache=True)
def _cdf(sorted_rewards, lo, hi, value):  # pragma: no cover - compiled
    """True group CDF: fraction of the group's pool with reward <= value."""
    return (np.searchsorted(sorted_rewards[lo:hi], value, side="right")) / (hi - lo)


@njit(nogil=True, cache=True)
def _score_pool(ell_index, ell_value, theta, scores):  # pragma: no cover - compiled
    """scores[r] = <x_r, theta> for every pool row, rows stored sparsely in ELL form (column q of
    row r is ``ell_index[q, r]`` with value ``ell_value[q, r]``, zero-padded).  The loop runs over
    q outside and rows inside, so the inner loop is a vectorisable gather: O(nnz(pool)) per call.
    """
    n = scores.shape[0]
    for r in range(n):
        scores[r] = 0.0
    for q in range(ell_index.shape[0]):
        for r in range(n):
            scores[r] += ell_value[q, r] * theta[ell_index[q, r]]


@njit(nogil=True, cache=True)
def _window_count(scores, counts, lo, hi, value):  # pragma: no cover - compiled
    """#{window entries of one group with estimated reward <= value}, from the window's histogram.

    The window D_{t~+1:t-1} of group k is a multiset of pool rows ``lo <= r < hi``; ``counts[r]`` is
    how many times row r occurs in it and ``scores[r] = <x_r, theta_hat>``.  The sum equals the
    counting query of Section 4.2 term by term (entries of the same row share the same score).
    """
    c = 0
    for r in range(lo, hi):
        if scores[r] <= value:
            c += counts[r]
    return c


@njit(nogil=True, cache=True)
def _fair_kernel(rng, code, pool, offsets, ell_index, ell_value, theta_star, sorted_rewards, horizon,
                 noise_sd, reg, oful_delta, oful_s, sigma_tree, shift, rank_rho_, y_clip, rank_brute,
                 refresh, trace, fixed):  # pragma: no cover
    k_groups = offsets.shape[0] - 1
    n_pool = pool.shape[0]
    d = pool.shape[1]
    p = d + 1
    fair_regret = np.zeros(horizon)
    regret = np.zeros(horizon)
    chosen = np.zeros(horizon, dtype=np.int64)
    cand = np.zeros((horizon, k_groups), dtype=np.int64)  # pool rows of D_t
    hired = np.zeros(horizon, dtype=np.int64)
    ys = np.zeros(horizon)
    trace_counts = np.zeros((horizon if trace else 0, k_groups), dtype=np.int64)
    trace_theta = np.zeros((horizon if trace else 0, d))
    # ridge / OFUL state
    gram = reg * np.eye(d)
    vinv = np.eye(d) / reg
    b = np.zeros(d)
    theta = np.zeros(d)
    n_reg = 0  # rows of X_{1:t~} already added
    # tree state (private regression)
    levels = 1
    while (1 << levels) <= horizon:
        levels += 1
    alpha = np.zeros((levels + 1, p, p))
    noisy = np.zeros((levels + 1, p, p))
    prefix = np.zeros((p, p))
    leaf = np.zeros((p, p))
    # rank state: the window D_{t~+1:t-1} as a histogram over pool rows, scores of all pool rows
    counts = np.zeros(n_pool, dtype=np.int64)
    scores = np.zeros(n_pool)
    win_lo = 0  # window = rounds [win_lo, win_hi) (0-based)
    win_hi = 0
    theta_version = -1
    true_r = np.zeros(k_groups)
    true_f = np.zeros(k_groups)
    est = np.zeros(k_groups)
    for t in range(1, horizon + 1):
        i = t - 1
        # Line 3: receive D_t, one candidate per group
        for k in range(k_groups):
            if fixed.shape[0] > 0:  # the candidate sequence is given (audits: a fixed dataset)
                row = offsets[k] + fixed[i, k]
            else:
                row = offsets[k] + rng.integers(0, offsets[k + 1] - offsets[k])
            cand[i, k] = row
            r = 0.0
            for j in range(d):
                r += pool[row, j] * theta_star[j]
            true_r[k] = r
            true_f[k] = _cdf(sorted_rewards, offsets[k], offsets[k + 1], r)
        if code == _OFUL:
            beta = math.sqrt(noise_sd**2 * (d * math.log((1.0 + (t - 1) / reg) / oful_delta))) + math.sqrt(reg) * oful_s
            best = -1e300
            kt = 0
            for k in range(k_groups):
                x = pool[cand[i, k]]
                mean = 0.0
                for j in range(d):
                    mean += x[j] * theta[j]
                q = 0.0
                for a in range(d):
                    acc = 0.0
                    for c in range(d):
                        acc += vinv[a, c] * x[c]
                    q += x[a] * acc
                ucb = mean + beta * math.sqrt(max(q, 0.0))
                if ucb > best:
                    best = ucb
                    kt = k
        else:
            # Line 4: t~ = floor((t-1)/2); Line 5: regression on X_{1:t~}
            t_tilde = (t - 1) // 2
            while n_reg < t_tilde:
                x = pool[hired[n_reg]]
                y = ys[n_reg]
                if code == _FAIR:
                    for a in range(d):
                        b[a] += x[a] * y
                        for c in range(d):
                            gram[a, c] += x[a] * x[c]
                else:
                    if y > y_clip:
                        y = y_clip
                    elif y < -y_clip:
                        y = -y_clip
                    for a in range(d):
                        leaf[a, d] = x[a] * y
                        leaf[d, a] = x[a] * y
                        for c in range(d):
                            leaf[a, c] = x[a] * x[c]
                    leaf[d, d] = y * y
                    _tree_insert(alpha, noisy, n_reg + 1, leaf, sigma_tree, rng)
                n_reg += 1
            # theta-hat (line 5) and the window scores are recomputed when t~ changes (the paper), or,
            # with refresh > 1, only when t~ is a multiple of refresh (the rank step then uses the
            # private estimate of the prefix t~' = refresh*floor(t~/refresh) <= t~: post-processing)
            if theta_version != t_tilde and t_tilde % refresh == 0:
                if code == _FAIR:
                    theta = np.linalg.solve(gram, b)
                elif t_tilde > 0:
                    _tree_prefix(noisy, t_tilde, prefix)
                    m = prefix[:d, :d] + 2.0 * shift * np.eye(d)  # shift by 2 Gamma I
                    theta = np.linalg.solve(m, prefix[:d, d].copy())
                theta_version = t_tilde
                # estimated rewards <x_r, theta_hat_{t~}> of every pool row under the new theta:
                # O(nnz(pool)) per change of theta, whatever the window length
                _score_pool(ell_index, ell_value, theta, scores)
            # Line 4: slide the window to D_{t~+1:t-1} (0-based rounds t~ .. t-2)
            while win_hi < t - 1:
                for k in range(k_groups):
                    counts[cand[win_hi, k]] += 1
                win_hi += 1
            while win_lo < t_tilde:
                for k in range(k_groups):
                    counts[cand[win_lo, k]] -= 1
                win_lo += 1
            # Line 6: relative ranks on the window, N_t = (t-1) - t~
            n_t = (t - 1) - t_tilde
            for k in range(k_groups):
                if n_t == 0:
                    est[k] = rng.random()
                else:
                    value = scores[cand[i, k]]
                    if rank_brute:  # reference: count entry by entry (O(N_t) per group)
                        c = 0
                        for s in range(t_tilde, t - 1):
                            if scores[cand[s, k]] <= value:
                                c += 1
                    else:
                        c = _window_count(scores, counts, offsets[k], offsets[k + 1], value)
                    if trace:
                        trace_counts[i, k] = c
                    est[k] = c / n_t
                    if code == _PRIVATE:
                        # eq. (1): sensitivity 1/N_t, sigma_t = sqrt(T / (2 N_t^2 rho_rank))
                        est[k] += rng.normal(0.0, math.sqrt(horizon / (2.0 * n_t * n_t * rank_rho_)))
            if trace:
                trace_theta[i, :] = theta
            # Line 7: greedy on the estimated relative rank
            kt = 0
            for k in range(1, k_groups):
                if est[k] > est[kt]:
                    kt = k
        # Line 8: observe the noisy reward
        y = true_r[kt] + noise_sd * rng.standard_normal()
        hired[i] = cand[i, kt]
        ys[i] = y
        chosen[i] = kt
        fmax = true_f.max()
        fair_regret[i] = fmax - true_f[kt]
        regret[i] = true_r.max() - true_r[kt]
        if code == _OFUL:
            x = pool[hired[i]]
            u = np.zeros(d)
            for a in range(d):
                b[a] += x[a] * y
                for c in range(d):
                    u[a] += vinv[a, c] * x[c]
            den = 1.0
            for a in range(d):
                den += x[a] * u[a]
            for a in range(d):
                for c in range(d):
                    vinv[a, c] -= u[a] * u[c] / den
            for a in range(d):
                acc = 0.0
                for c in range(d):
                    acc += vinv[a, c] * b[c]
                theta[a] = acc
    return fair_regret, regret, chosen, cand, trace_counts, trace_theta


# ----------------------------------------------------------------------------------------------
# Environment, policies and simulation
# ----------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, eq=False)
class HiringEnvironment:
    """Contextual hiring environment: per-group candidate pools and a true reward vector."""

    pools: tuple
    theta_star: np.ndarray
    noise_sd: float = 0.1
    name: str = "hiring"

    def __post_init__(self) -> None:
        check_positive("noise_sd", self.noise_sd)
        if len(self.pools) < 2:
            raise ValueError("pools must hold at least 2 groups")

    @classmethod
    def from_census(cls, data, noise_sd: float = 0.1) -> "HiringEnvironment":
        return cls(tuple(data.pools), np.asarray(data.theta_star, float), noise_sd, f"census-{data.source}")

    # The arrays below are derived from the pools once per environment and reused by every run
    # (the pools are not to be modified in place after the environment is built).
    @functools.cached_property
    def _pool(self) -> np.ndarray:
        """The stacked pools, one row per candidate, group by group."""
        return np.ascontiguousarray(np.vstack(self.pools), dtype=float)

    @functools.cached_property
    def _kernel_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        pool = self._pool
        offsets = np.zeros(len(self.pools) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(p) for p in self.pools])
        rewards = pool @ self.theta_star
        sorted_rewards = np.concatenate([np.sort(rewards[offsets[k]:offsets[k + 1]]) for k in range(len(self.pools))])
        return pool, offsets, np.ascontiguousarray(self.theta_star, dtype=float), sorted_rewards

    def kernel_args(self):
        """``(pool, offsets, theta_star, sorted_rewards)``: the stacked pools, where each group's rows
        start, the true parameter and each group's sorted true rewards (its CDF)."""
        return self._kernel_args

    @functools.cached_property
    def _sparse_pool(self) -> tuple[np.ndarray, np.ndarray]:
        pool = self._pool
        nz = pool != 0
        width = max(int(nz.sum(axis=1).max()), 1)
        index = np.zeros((width, pool.shape[0]), dtype=np.int64)
        value = np.zeros((width, pool.shape[0]))
        rows, cols = np.nonzero(nz)  # row-major: the columns of each row in increasing order
        starts = np.concatenate([[0], np.cumsum(nz.sum(axis=1))[:-1]])
        slot = np.arange(len(rows)) - starts[rows]
        index[slot, rows] = cols
        value[slot, rows] = pool[rows, cols]
        return index, value

    def sparse_pool(self) -> tuple[np.ndarray, np.ndarray]:
        """The stacked pools in ELL form ``(index, value)``, both of shape (max non-zeros per row,
        rows), zero-padded.  One-hot census rows have 11 non-zeros out of d = 104, so re-scoring
        the whole pool costs 11 multiply-adds per row."""
        return self._sparse_pool

    def l_tilde(self, rule: str = "sum") -> float:
        """A bound L-tilde on the leaf vector [x, y] of the regression, computed FROM THE DATA (a
        release the paper's analysis does not account for, as it admits).  Rewards enter the tree
        clipped to ``[-y_clip(), y_clip()]``.

        * ``"sum"`` (the book's default): max ||x|| + y_clip, the hypothesis ||X|| + |y| <= L of
          Theorem 5.1.  Every clipped leaf of every pool row satisfies it.
        * ``"norm"``: sqrt(max ||x||^2 + y_clip^2), a bound on the norm of [x, y] as the calibration
          text of Section 4.1 says; the sensitivity bound sqrt(2) L^2 of :func:`tree_rho` needs no
          more, and every clipped leaf satisfies it.
        * ``"data"``: max over pool rows of sqrt(||x||^2 + <x, theta*>^2), the rule of the authors'
          experiment code (DP-GMFBandits, ``data.py``, ``load_adult``: the max of
          sqrt(||x||^2 + y^2) over the dataset's (x, y)).  Observed rewards carry noise, so a leaf
          can exceed it: Theorem 5.1's hypothesis then fails and the guarantee does not hold.
        """
        _check_l_tilde_rule(rule)
        x_norm = np.linalg.norm(self._pool, axis=1)
        if rule == "sum":
            return float(x_norm.max() + self.y_clip())
        if rule == "norm":
            return float(math.hypot(x_norm.max(), self.y_clip()))
        rewards = self._pool @ self.theta_star
        return float(np.sqrt(x_norm**2 + rewards**2).max())

    def y_clip(self) -> float:
        return float(np.abs(self._kernel_args[3]).max() + 3 * self.noise_sd)

    def fingerprint(self) -> str:
        import hashlib

        h = hashlib.sha256()
        for p in self.pools:
            h.update(np.ascontiguousarray(p).tobytes())
        h.update(np.asarray(self.theta_star).tobytes())
        return h.hexdigest()[:16]


def _check_rank_method(rank_method: str) -> None:
    if rank_method not in ("histogram", "brute"):
        raise ValueError(f"rank_method must be 'histogram' or 'brute', got {rank_method!r}")


@dataclasses.dataclass(frozen=True)
class _HiringPolicy:
    name: ClassVar[str] = "policy"
    private: ClassVar[bool] = False

    @property
    def label(self) -> str:
        return self.name

    def config(self) -> dict[str, Any]:
        return {"policy": type(self).__qualname__, **dataclasses.asdict(self)}

    def _params(self, env: HiringEnvironment, horizon: int) -> tuple:
        raise NotImplementedError

    def run(self, env: HiringEnvironment, horizon: int, rng: np.random.Generator, *,
            trace: bool = False, candidates: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """One trial: per-round ``fair_regret``, ``regret`` and ``groups`` (the hired group).

        ``trace=True`` (tests) also returns, for the two Fair-Greedy variants, the noiseless rank
        counts ``rank_counts[t, k]`` of line 6 (before the Gaussian of eq. (1)), the ``theta`` used
        in every round and ``candidates[t, k]``, the row of group k's pool presented in round t.
        ``candidates`` (shape ``(horizon, K)``, row indices into each group's pool) fixes the
        candidate tuples of every round instead of drawing them: the dataset of a joint-DP audit,
        whose neighbours differ in one round's tuple.
        """
        check_int("horizon", horizon, minimum=1)
        pool, offsets, theta_star, sorted_rewards = env.kernel_args()
        n_groups = offsets.shape[0] - 1
        if candidates is None:
            fixed = np.zeros((0, n_groups), dtype=np.int64)
        else:
            fixed = np.asarray(candidates)
            if fixed.shape != (horizon, n_groups) or not np.issubdtype(fixed.dtype, np.integer):
                raise ValueError(f"candidates must be an integer array of shape (horizon, K) = ({horizon}, {n_groups})")
            sizes = np.diff(offsets)
            if np.any(fixed < 0) or np.any(fixed >= sizes[None, :]):
                raise ValueError(f"candidates[t, k] must lie in [0, size of group k's pool) = [0, {sizes.tolist()})")
            fixed = np.ascontiguousarray(fixed, dtype=np.int64)
        ell_index, ell_value = env.sparse_pool()
        fr, r, chosen, cand, counts, thetas = _fair_kernel(
            rng, self._code, pool, offsets, ell_index, ell_value, theta_star, sorted_rewards, horizon,
            env.noise_sd, *self._params(env, horizon), getattr(self, "rank_method", "histogram") == "brute",
            int(getattr(self, "rank_refresh", 1)), bool(trace), fixed)
        out = {"fair_regret": fr, "regret": r, "groups": chosen}
        if trace:
            out.update(rank_counts=counts, theta=thetas, candidates=cand - offsets[:-1])
        return out


@dataclasses.dataclass(frozen=True)
class OFUL(_HiringPolicy):
    """OFUL (Abbasi-Yadkori et al. 2011, Algorithm 1; radius of Theorem 2).  Not private."""

    reg: float = 1.0
    delta: float = 0.05
    theta_norm: float = 1.0  #: S, bound on ||theta*||
    name: ClassVar[str] = "OFUL"
    _code: ClassVar[int] = _OFUL

    def __post_init__(self) -> None:
        check_positive("reg", self.reg)
        check_delta(self.delta, "delta")
        check_positive("theta_norm", self.theta_norm)

    def _params(self, env, horizon):
        return (self.reg, self.delta, self.theta_norm, 0.0, 0.0, 1.0, 1.0)


@dataclasses.dataclass(frozen=True)
class FairGreedy(_HiringPolicy):
    """Fair-Greedy (Grazzi et al. 2022): ridge on the first half, rank by counting on the second."""

    reg: float = 1.0
    rank_method: str = "histogram"  #: "histogram" (fast) or "brute" (reference); both exact
    rank_refresh: int = 1  #: recompute theta-hat only when t~ % rank_refresh == 0 (1 = the paper)
    name: ClassVar[str] = "Fair-Greedy"
    _code: ClassVar[int] = _FAIR

    def __post_init__(self) -> None:
        check_positive("reg", self.reg)
        _check_rank_method(self.rank_method)
        check_int("rank_refresh", self.rank_refresh, minimum=1)

    def _params(self, env, horizon):
        return (self.reg, 0.05, 1.0, 0.0, 0.0, 1.0, 1.0)


@dataclasses.dataclass(frozen=True)
class PrivateFairGreedy(_HiringPolicy):
    """Private-Fair-Greedy (Algorithm 1): (epsilon, delta)-JDP claimed (Theorem 5.1).

    Budget split (line 1, with the minus sign the paper's extraction loses): eps_reg = alpha_eps eps,
    eps_rank = eps - eps_reg; delta likewise.  ``l_tilde=None`` computes L-tilde from the data by
    ``l_tilde_rule``.  Privacy (our accounting, :func:`privacy_guarantee`): all releases are Gaussian
    mechanisms with noise fixed in advance, so with ``calibration="printed"`` the algorithm is
    exactly (1.16, 0.1)-JDP at the defaults (the paper claims (15, 0.1)); ``calibration="tight"``
    shrinks both noises until the exact guarantee is (epsilon, delta).  Either needs every leaf
    [x, y] to have norm <= L-tilde, which ``l_tilde_rule="data"`` does not ensure.
    """

    epsilon: float = 15.0
    delta: float = 0.1
    alpha_eps: float = 0.9
    alpha_delta: float = 0.9
    l_tilde: float | None = None
    noise: bool = True  #: False: no noise and no shift (tests: must equal ridge with reg -> 0)
    rank_method: str = "histogram"  #: "histogram" (fast) or "brute" (reference); both exact
    rank_refresh: int = 1  #: recompute theta-hat only when t~ % rank_refresh == 0 (1 = the paper)
    #: "printed": the noise of Sections 4.1-4.2 as printed; "tight": both noises scaled by
    #: :func:`tight_noise_scale` so that the exact guarantee is (epsilon, delta), not less
    calibration: str = "printed"
    #: how L-tilde is computed from the data when ``l_tilde`` is None (:meth:`HiringEnvironment.l_tilde`)
    l_tilde_rule: str = "sum"
    name: ClassVar[str] = "Private-Fair-Greedy"
    private: ClassVar[bool] = True

    _code: ClassVar[int] = _PRIVATE

    @property
    def label(self) -> str:
        return f"{self.name} (ε={self.epsilon:g})"

    def __post_init__(self) -> None:
        check_epsilon(self.epsilon)
        check_delta(self.delta)
        check_probability("alpha_eps", self.alpha_eps)
        check_probability("alpha_delta", self.alpha_delta)
        if self.l_tilde is not None:
            check_positive("l_tilde", self.l_tilde)
        _check_rank_method(self.rank_method)
        check_int("rank_refresh", self.rank_refresh, minimum=1)
        _check_calibration(self.calibration)
        _check_l_tilde_rule(self.l_tilde_rule)

    def calibration_values(self, env: HiringEnvironment, horizon: int) -> dict[str, float]:
        """Budget split, L-tilde and the noise actually used (``noise_scale`` already applied):
        ``sigma_noise`` (per tree-node entry), ``gamma`` (the Gram shift is 2 Gamma I) and
        ``rho_rank`` (the rank noise is sigma_t = sqrt(T / (2 N_t^2 rho_rank)))."""
        eps_reg, delta_reg, eps_rank, delta_rank = _split(self.epsilon, self.delta, self.alpha_eps, self.alpha_delta)
        l_tilde = env.l_tilde(self.l_tilde_rule) if self.l_tilde is None else self.l_tilde
        c = 1.0 if self.calibration == "printed" else tight_noise_scale(
            self.epsilon, self.delta, self.alpha_eps, self.alpha_delta)
        d = env.theta_star.shape[0]
        sigma = c * tree_sigma(eps_reg, delta_reg, horizon, l_tilde)
        return {"eps_reg": eps_reg, "delta_reg": delta_reg, "eps_rank": eps_rank, "delta_rank": delta_rank,
                "l_tilde": l_tilde, "noise_scale": c, "sigma_noise": sigma, "gamma": tree_gamma(sigma, horizon, d + 1),
                "rho_rank": approx_dp_to_zcdp(eps_rank, delta_rank) / c**2}

    def _params(self, env, horizon):
        c = self.calibration_values(env, horizon)
        if not self.noise:
            return (1.0, 0.05, 1.0, 0.0, 1e-12, math.inf, env.y_clip())
        return (1.0, 0.05, 1.0, c["sigma_noise"], c["gamma"], c["rho_rank"], env.y_clip())


def _one(policy, env, horizon, seed_seq):
    return policy.run(env, horizon, np.random.default_rng(seed_seq))


def simulate_hiring(policy, env: HiringEnvironment, horizon: int, runs: int, seed: int = 0, *,
                    n_jobs: int | None = None, progress: bool | None = None, use_cache: bool = True):
    """Run ``runs`` trials (seeds ``SeedSequence(seed).spawn(runs)``), joblib threads, disk cache.

    Returns a dict of stacked arrays ``fair_regret``, ``regret`` (shape (runs, horizon)) and
    ``groups`` (the hired candidate's group per round).
    """
    import os

    from joblib import Parallel, delayed
    from tqdm import tqdm

    check_int("horizon", horizon, minimum=1)
    check_int("runs", runs, minimum=1)
    key = cache.cache_key({"kind": "hiring", "policy": policy.config(), "env": env.fingerprint(),
                           "noise_sd": env.noise_sd, "horizon": horizon, "runs": runs, "seed": seed})
    if use_cache:
        hit = cache.load(key)
        if hit is not None:
            return hit
    if n_jobs is None:
        n_jobs = int(os.environ.get("PRIVBANDITS_N_JOBS", os.cpu_count() or 1))
    seeds = np.random.SeedSequence(seed).spawn(runs)
    show = progress if progress is not None else os.environ.get("PRIVBANDITS_PROGRESS", "1") != "0"
    out = []
    with tqdm(total=runs, desc=policy.label, unit="run", disable=not show) as bar:
        if n_jobs == 1:
            for s in seeds:
                out.append(_one(policy, env, horizon, s))
                bar.update()
        else:
            for rec in Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(
                    delayed(_one)(policy, env, horizon, s) for s in seeds):
                out.append(rec)
                bar.update()
    result = {k: np.stack([r[k] for r in out]) for k in out[0]}
    if use_cache:
        cache.store(key, result)
    return result


def relative_ranks(scores_window: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Vectorised counting query: fraction of ``scores_window`` <= each value (sort + searchsorted)."""
    s = np.sort(np.asarray(scores_window, float))
    return np.searchsorted(s, np.asarray(values, float), side="right") / max(len(s), 1)


def private_ridge_prefix(leaves: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Noisy prefix sums M_1..M_n of the (p, p) leaves via the tree mechanism (for tests/figures)."""
    n, p, _ = leaves.shape
    levels = max(1, int(n).bit_length()) + 1
    alpha = np.zeros((levels, p, p))
    noisy = np.zeros((levels, p, p))
    out = np.zeros((n, p, p))
    buf = np.zeros((p, p))
    for s in range(n):
        _tree_insert(alpha, noisy, s + 1, np.ascontiguousarray(leaves[s], dtype=float), float(sigma), rng)
        _tree_prefix(noisy, s + 1, buf)
        out[s] = buf
    return out
