"""The numba kernels of Part IV: one per algorithm, sharing the steps of a round.

A round of every algorithm draws one candidate per group (:func:`_draw_candidates`), picks a group
and observes the hired candidate's reward (:func:`_hire`). The two Fair-Greedy variants
(``grazzi2022group``; Algorithm 1 of ``an2025privatefairgreedy``) differ only in their ridge step
(exact Gram matrix, :func:`_add_rows_exact`, or the private tree, :func:`_add_rows_private` and
:func:`_private_theta`) and in the Gaussian of eq. (1) on the rank; they share the rank step
(:func:`_rank_and_pick`, line 6 and line 7). OFUL (``abbasi2011improved``) has its own index and
Sherman-Morrison update.

Rank step (line 6). Candidates are rows of finite per-group pools, so the window
``D_{t~+1:t-1}`` is kept as a histogram over the distinct pool rows; whenever theta-hat changes,
every distinct row is re-scored once (:func:`_score_pool`, over the pools' prefix tree
:class:`~privbandits.policies.fair_hiring.environment.ScoreTree`, which shares the partial sums of
rows with equal leading entries and gives each row's score bit for bit), and the count of line 6 is
``sum_r counts[r] 1{score_r <= score of X_{k,t}}``: the paper's count exactly, at O(tree nodes)
per change of theta-hat and O(distinct rows) per round instead of O(N_t d) (``rank_brute`` keeps the
entry-by-entry count as a reference). ``refresh = R > 1`` (not in the paper; default 1) recomputes
theta-hat only when t~ is a multiple of R: post-processing of the private regression, the rank's
sensitivity (1/N_t) and noise are unchanged.

Sparse rows. A census row has 11 non-zeros out of d = 104. Every sum over a row's entries (true
reward, Gram and X^T y updates, OFUL's index and Sherman-Morrison step) skips the zero entries: a
term with a zero factor adds +-0 to a finite sum and leaves it unchanged, so the results are those of
the dense loops, bit for bit.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .tree import tree_insert, tree_prefix


class OFULParams(NamedTuple):
    """Parameters of :func:`oful_kernel`.

    Attributes
    ----------
    reg : float
        Ridge parameter lambda.
    delta : float
        Confidence level of the ellipsoid (Theorem 2 of ``abbasi2011improved``).
    theta_norm : float
        ``S``, bound on ``||theta*||``.
    """

    reg: float  #: ridge parameter lambda
    delta: float  #: confidence level of the ellipsoid (Theorem 2 of abbasi2011improved)
    theta_norm: float  #: S, bound on ||theta*||


class GreedyParams(NamedTuple):
    """Parameters of :func:`fair_greedy_kernel` and :func:`private_fair_greedy_kernel`.

    The fields marked (private) are read only by :func:`private_fair_greedy_kernel`
    (``an2025privatefairgreedy``, Sections 4.1-4.2).

    Attributes
    ----------
    reg : float
        Ridge parameter of the exact regression (Fair-Greedy).
    rank_brute : bool
        Count the window entry by entry (reference) instead of by histogram.
    refresh : int
        Recompute theta-hat only when ``t~ % refresh == 0`` (1 = the paper).
    sigma_tree : float
        Noise standard deviation per tree-node entry (private).
    shift : float
        Gamma; the private Gram matrix is shifted by 2 Gamma I (private).
    rank_rho : float
        ``rho_rank`` of the rank noise ``sigma_t = sqrt(T / (2 N_t^2 rho_rank))`` (private).
    y_clip : float
        Observed rewards enter the tree clipped to ``[-y_clip, y_clip]`` (private).
    """

    reg: float  #: ridge parameter of the exact regression (Fair-Greedy)
    rank_brute: bool  #: count the window entry by entry (reference) instead of by histogram
    refresh: int  #: recompute theta-hat only when t~ % refresh == 0 (1 = the paper)
    sigma_tree: float  #: noise standard deviation per tree-node entry (private)
    shift: float  #: Gamma; the private Gram matrix is shifted by 2 Gamma I (private)
    rank_rho: float  #: rho_rank of the rank noise sigma_t = sqrt(T / (2 N_t^2 rho_rank)) (private)
    y_clip: float  #: observed rewards enter the tree clipped to [-y_clip, y_clip] (private)


class Run(NamedTuple):
    """One trial's records and history, filled round by round.

    Attributes
    ----------
    fair_regret : numpy.ndarray
        ``(T,)`` fair pseudo-regret of each round.
    regret : numpy.ndarray
        ``(T,)`` reward regret of each round.
    chosen : numpy.ndarray
        ``(T,)`` hired group.
    cand : numpy.ndarray
        ``(T, K)`` pool rows of ``D_t``.
    hired : numpy.ndarray
        ``(T,)`` pool row of the hired candidate.
    ys : numpy.ndarray
        ``(T,)`` observed rewards.
    true_r : numpy.ndarray
        ``(K,)`` true rewards of this round's candidates.
    true_f : numpy.ndarray
        ``(K,)`` their true relative ranks.
    trace_counts : numpy.ndarray
        ``(T, K)`` noiseless rank counts (trace only, else ``(0, K)``).
    trace_theta : numpy.ndarray
        ``(T, d)`` theta used in each round (trace only, else ``(0, d)``).
    """

    fair_regret: np.ndarray  #: (T,)
    regret: np.ndarray  #: (T,)
    chosen: np.ndarray  #: (T,) hired group
    cand: np.ndarray  #: (T, K) pool rows of D_t
    hired: np.ndarray  #: (T,) pool row of the hired candidate
    ys: np.ndarray  #: (T,) observed rewards
    true_r: np.ndarray  #: (K,) true rewards of this round's candidates
    true_f: np.ndarray  #: (K,) their true relative ranks
    trace_counts: np.ndarray  #: (T, K) noiseless rank counts (trace only, else (0, K))
    trace_theta: np.ndarray  #: (T, d) theta used in each round (trace only, else (0, d))


class Window(NamedTuple):
    """The rank step's state: the window D_{t~+1:t-1} as a histogram over the distinct pool rows.

    Attributes
    ----------
    counts : numpy.ndarray
        Occurrences of each distinct pool row (leaf of the score tree) in the window.
    scores : numpy.ndarray
        The partial sums of every score-tree node under theta-hat; the leaves' (from
        ``leaf_base`` on) are ``<x_r, theta_hat>``.
    products : numpy.ndarray
        ``v theta_hat[c]`` of each distinct entry (column c, value v) of the score tree.
    bounds : numpy.ndarray
        ``[lo, hi)``: the window's rounds (0-based).
    est : numpy.ndarray
        ``(K,)`` estimated relative ranks of this round's candidates.
    leaf_base : int
        The first leaf's node number.
    """

    counts: np.ndarray  #: occurrences of each distinct pool row in the window
    scores: np.ndarray  #: partial sums of the score-tree nodes; the leaves' are <x_r, theta_hat>
    products: np.ndarray  #: v theta_hat[c] of each distinct entry (column c, value v) of the tree
    bounds: np.ndarray  #: [lo, hi): the window's rounds (0-based)
    est: np.ndarray  #: (K,) estimated relative ranks of this round's candidates
    leaf_base: int  #: the first leaf's node number


@njit(nogil=True, cache=True)
def _new_run(env, horizon, trace):  # pragma: no cover - compiled
    k_groups = env.offsets.shape[0] - 1
    d = env.pool.shape[1]
    return Run(
        np.zeros(horizon),
        np.zeros(horizon),
        np.zeros(horizon, dtype=np.int64),
        np.zeros((horizon, k_groups), dtype=np.int64),
        np.zeros(horizon, dtype=np.int64),
        np.zeros(horizon),
        np.zeros(k_groups),
        np.zeros(k_groups),
        np.zeros((horizon if trace else 0, k_groups), dtype=np.int64),
        np.zeros((horizon if trace else 0, d)),
    )


@njit(nogil=True, cache=True)
def _new_window(env):  # pragma: no cover - compiled
    tree = env.score_tree
    return Window(
        np.zeros(tree.leaf_offsets[-1], dtype=np.int64),
        np.zeros(tree.parent.shape[0]),
        np.zeros(tree.entry_col.shape[0]),
        np.zeros(2, dtype=np.int64),
        np.zeros(env.offsets.shape[0] - 1),
        tree.level_offsets[tree.level_offsets.shape[0] - 2],
    )


@njit(nogil=True, cache=True)
def _score_pool(tree, theta, scores, products):  # pragma: no cover - compiled
    """scores[n] = partial sum of score-tree node n under theta: ``0 + v theta[c]`` on level 0, then
    ``score of the parent + v theta[c]``, level by level, with ``v theta[c]`` computed once per
    distinct entry (``products``).  The leaves get ``<x_r, theta>`` of every distinct pool row with
    the operations of the row-by-row sparse sum ``s = 0; s += v_q theta[c_q]`` for q = 0, 1, ...,
    so the same float value.  O(tree nodes).
    """
    for e in range(products.shape[0]):
        products[e] = tree.entry_value[e] * theta[tree.entry_col[e]]
    lv = tree.level_offsets
    for n in range(lv[1]):
        scores[n] = 0.0 + products[tree.entry[n]]
    for q in range(1, lv.shape[0] - 1):
        prev, cur = scores[lv[q - 1] : lv[q]], scores[lv[q] : lv[q + 1]]
        parent, entry = tree.parent[lv[q] : lv[q + 1]], tree.entry[lv[q] : lv[q + 1]]
        for j in range(cur.shape[0]):
            cur[j] = prev[parent[j]] + products[entry[j]]


@njit(nogil=True, cache=True)
def _window_count(leaf_scores, counts, value):  # pragma: no cover - compiled
    """#{window entries of one group with estimated reward <= value}, from the window's histogram.

    The window D_{t~+1:t-1} of group k is a multiset of the group's distinct pool rows;
    ``counts[j]`` is how many times row j occurs in it and ``leaf_scores[j] = <x_j, theta_hat>``
    (the group's slices).  The sum equals the counting query of Section 4.2 term by term (entries of
    the same row share the same score).  The loop runs from 0 over slices, so that it vectorises.
    """
    c = 0
    for j in range(counts.shape[0]):
        if leaf_scores[j] <= value:
            c += counts[j]
    return c


@njit(nogil=True, cache=True)
def _draw_candidates(rng, env, run, fixed, i):  # pragma: no cover - compiled
    """Line 3: receive D_t, one candidate per group (drawn, or given by ``fixed`` in audits), with
    their true rewards and relative ranks (per pool row, :meth:`HiringEnvironment.arrays`)."""
    offsets = env.offsets
    for k in range(offsets.shape[0] - 1):
        if fixed.shape[0] > 0:  # the candidate sequence is given (audits: a fixed dataset)
            row = offsets[k] + fixed[i, k]
        else:
            row = offsets[k] + rng.integers(0, offsets[k + 1] - offsets[k])
        run.cand[i, k] = row
        run.true_r[k] = env.row_reward[row]
        run.true_f[k] = env.row_rank[row]


@njit(nogil=True, cache=True)
def _hire(rng, run, noise_sd, i, kt):  # pragma: no cover - compiled
    """Line 8: hire group ``kt``'s candidate, observe its noisy reward, record the regrets."""
    y = run.true_r[kt] + noise_sd * rng.standard_normal()
    run.hired[i] = run.cand[i, kt]
    run.ys[i] = y
    run.chosen[i] = kt
    fmax = run.true_f.max()
    run.fair_regret[i] = fmax - run.true_f[kt]
    run.regret[i] = run.true_r.max() - run.true_r[kt]
    return y


@njit(nogil=True, cache=True)
def _add_rows_exact(env, run, n_reg, t_tilde, gram, b):  # pragma: no cover - compiled
    """Line 5 (Fair-Greedy): add the rows of X_{1:t~} not yet in the exact Gram matrix and X^T y
    (their non-zero entries: the zero ones add nothing)."""
    while n_reg < t_tilde:
        row = run.hired[n_reg]
        x = env.pool[row]
        cols = env.nz_cols[row, : env.nz_count[row]]
        y = run.ys[n_reg]
        for a in cols:
            b[a] += x[a] * y
            for c in cols:
                gram[a, c] += x[a] * x[c]
        n_reg += 1
    return n_reg


@njit(nogil=True, cache=True)
def _add_rows_private(rng, env, run, n_reg, t_tilde, y_clip, sigma, leaf, exact, noisy):  # pragma: no cover
    """Line 5 (private, Section 4.1): insert the leaves [x, y][x, y]^T of the rows of X_{1:t~} not
    yet in the tree, the reward clipped to [-y_clip, y_clip]."""
    d = env.pool.shape[1]
    while n_reg < t_tilde:
        x = env.pool[run.hired[n_reg]]
        y = run.ys[n_reg]
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
        tree_insert(exact, noisy, n_reg + 1, leaf, sigma, rng)
        n_reg += 1
    return n_reg


@njit(nogil=True, cache=True)
def _private_theta(noisy, t_tilde, shift, prefix, m, theta):  # pragma: no cover - compiled
    """Line 5 (private): theta-hat from the tree's noisy prefix sum, Gram matrix shifted by 2 Gamma I
    (``m``: a (d, d) buffer)."""
    d = theta.shape[0]
    tree_prefix(noisy, t_tilde, prefix)
    for a in range(d):  # shift by 2 Gamma I
        for c in range(d):
            m[a, c] = prefix[a, c]
        m[a, a] = prefix[a, a] + 2.0 * shift
    theta[:] = np.linalg.solve(m, prefix[:d, d].copy())


@njit(nogil=True, cache=True)
def _rank_and_pick(rng, env, run, window, p, private, horizon, i, t, t_tilde, theta, trace):  # pragma: no cover
    """Lines 4, 6 and 7: slide the window to D_{t~+1:t-1}, estimate each candidate's relative rank
    on it (plus the Gaussian of eq. (1) if ``private``), return the group with the largest estimate."""
    cand, counts, scores, bounds, est = run.cand, window.counts, window.scores, window.bounds, window.est
    row_leaf, leaf_offsets, base = env.score_tree.row_leaf, env.score_tree.leaf_offsets, window.leaf_base
    k_groups = leaf_offsets.shape[0] - 1
    # Line 4: slide the window to D_{t~+1:t-1} (0-based rounds t~ .. t-2)
    while bounds[1] < t - 1:
        for k in range(k_groups):
            counts[row_leaf[cand[bounds[1], k]]] += 1
        bounds[1] += 1
    while bounds[0] < t_tilde:
        for k in range(k_groups):
            counts[row_leaf[cand[bounds[0], k]]] -= 1
        bounds[0] += 1
    # Line 6: relative ranks on the window, N_t = (t-1) - t~
    n_t = (t - 1) - t_tilde
    for k in range(k_groups):
        if n_t == 0:
            est[k] = rng.random()
        else:
            value = scores[base + row_leaf[cand[i, k]]]
            if p.rank_brute:  # reference: count entry by entry (O(N_t) per group)
                c = 0
                for s in range(t_tilde, t - 1):
                    if scores[base + row_leaf[cand[s, k]]] <= value:
                        c += 1
            else:
                lo, hi = leaf_offsets[k], leaf_offsets[k + 1]
                c = _window_count(scores[base + lo : base + hi], counts[lo:hi], value)
            if trace:
                run.trace_counts[i, k] = c
            est[k] = c / n_t
            if private:
                # eq. (1): sensitivity 1/N_t, sigma_t = sqrt(T / (2 N_t^2 rho_rank))
                est[k] += rng.normal(0.0, math.sqrt(horizon / (2.0 * n_t * n_t * p.rank_rho)))
    if trace:
        run.trace_theta[i, :] = theta
    # Line 7: greedy on the estimated relative rank
    kt = 0
    for k in range(1, k_groups):
        if est[k] > est[kt]:
            kt = k
    return kt


@njit(nogil=True, cache=True)
def oful_kernel(rng, env, horizon, noise_sd, p, trace, fixed):  # pragma: no cover - compiled
    """OFUL (``abbasi2011improved``, Algorithm 1, radius of Theorem 2) for ``horizon`` rounds.

    Not private, not fair.

    Parameters
    ----------
    rng : numpy.random.Generator
        The trial's random stream.
    env : HiringArrays
        The environment (:meth:`HiringEnvironment.arrays`).
    horizon : int
        Number of rounds ``T``.
    noise_sd : float
        Standard deviation of the reward noise.
    p : OFULParams
        The algorithm's parameters.
    trace : bool
        Allocate the trace arrays (OFUL leaves them at zero: it has no rank step).
    fixed : numpy.ndarray
        ``(T, K)`` candidate rows to present instead of drawing them, or ``(0, K)`` to draw.

    Returns
    -------
    Run
        The trial's records.
    """
    run = _new_run(env, horizon, trace)
    pool, nz_cols, nz_count = env.pool, env.nz_cols, env.nz_count
    k_groups = env.offsets.shape[0] - 1
    d = pool.shape[1]
    vinv = np.eye(d) / p.reg
    b = np.zeros(d)
    theta = np.zeros(d)  # theta = V^-1 X^T y, entry j computed when a candidate needs it
    theta_round = np.full(d, -1, dtype=np.int64)  # the round theta[j] was computed in
    u = np.zeros(d)
    for t in range(1, horizon + 1):
        i = t - 1
        _draw_candidates(rng, env, run, fixed, i)
        beta = (
            math.sqrt(noise_sd**2 * (d * math.log((1.0 + (t - 1) / p.reg) / p.delta))) + math.sqrt(p.reg) * p.theta_norm
        )
        best = -1e300
        kt = 0
        for k in range(k_groups):
            row = run.cand[i, k]
            x = pool[row]
            cols = nz_cols[row, : nz_count[row]]
            mean = 0.0
            for j in cols:
                if theta_round[j] != t:
                    acc = 0.0
                    for c in range(d):
                        acc += vinv[j, c] * b[c]
                    theta[j] = acc
                    theta_round[j] = t
                mean += x[j] * theta[j]
            q = 0.0
            for a in cols:
                acc = 0.0
                for c in cols:
                    acc += vinv[a, c] * x[c]
                q += x[a] * acc
            ucb = mean + beta * math.sqrt(max(q, 0.0))
            if ucb > best:
                best = ucb
                kt = k
        y = _hire(rng, run, noise_sd, i, kt)
        # Sherman-Morrison update of V^-1 (theta = V^-1 X^T y follows next round, where needed)
        row = run.hired[i]
        x = pool[row]
        cols = nz_cols[row, : nz_count[row]]
        for a in range(d):
            acc = 0.0
            for c in cols:
                acc += vinv[a, c] * x[c]
            u[a] = acc
        den = 1.0
        for a in cols:
            b[a] += x[a] * y
            den += x[a] * u[a]
        for a in range(d):
            for c in range(d):
                vinv[a, c] -= u[a] * u[c] / den
    return run


@njit(nogil=True, cache=True)
def fair_greedy_kernel(rng, env, horizon, noise_sd, p, trace, fixed):  # pragma: no cover - compiled
    """Fair-Greedy (``grazzi2022group``): exact ridge on the first half, rank by counting on the second.

    Greedy on the estimated relative rank. Not private.

    Parameters
    ----------
    rng : numpy.random.Generator
        The trial's random stream.
    env : HiringArrays
        The environment (:meth:`HiringEnvironment.arrays`).
    horizon : int
        Number of rounds ``T``.
    noise_sd : float
        Standard deviation of the reward noise.
    p : GreedyParams
        The algorithm's parameters.
    trace : bool
        Also fill ``trace_counts`` and ``trace_theta``.
    fixed : numpy.ndarray
        ``(T, K)`` candidate rows to present instead of drawing them, or ``(0, K)`` to draw.

    Returns
    -------
    Run
        The trial's records.
    """
    run = _new_run(env, horizon, trace)
    window = _new_window(env)
    d = env.pool.shape[1]
    gram = p.reg * np.eye(d)
    b = np.zeros(d)
    theta = np.zeros(d)
    n_reg = 0  # rows of X_{1:t~} already added
    theta_version = -1
    for t in range(1, horizon + 1):
        i = t - 1
        _draw_candidates(rng, env, run, fixed, i)
        t_tilde = (t - 1) // 2  # line 4
        n_reg = _add_rows_exact(env, run, n_reg, t_tilde, gram, b)  # line 5
        # theta-hat and the scores are recomputed when t~ changes (the paper), or, with refresh > 1,
        # only when t~ is a multiple of refresh
        if theta_version != t_tilde and t_tilde % p.refresh == 0:
            theta[:] = np.linalg.solve(gram, b)
            theta_version = t_tilde
            _score_pool(env.score_tree, theta, window.scores, window.products)
        kt = _rank_and_pick(rng, env, run, window, p, False, horizon, i, t, t_tilde, theta, trace)
        _hire(rng, run, noise_sd, i, kt)
    return run


@njit(nogil=True, cache=True)
def private_fair_greedy_kernel(rng, env, horizon, noise_sd, p, trace, fixed):  # pragma: no cover - compiled
    """Private-Fair-Greedy (Algorithm 1 of ``an2025privatefairgreedy``).

    Tree-based private ridge regression (Section 4.1) and the private rank step (Section 4.2,
    eq. (1)). Claimed guarantee: (epsilon, delta)-JDP (Theorem 5.1); the noise is set by
    :meth:`PrivateFairGreedy.calibration_values`.

    Parameters
    ----------
    rng : numpy.random.Generator
        The trial's random stream.
    env : HiringArrays
        The environment (:meth:`HiringEnvironment.arrays`).
    horizon : int
        Number of rounds ``T``.
    noise_sd : float
        Standard deviation of the reward noise.
    p : GreedyParams
        The algorithm's parameters.
    trace : bool
        Also fill ``trace_counts`` and ``trace_theta``.
    fixed : numpy.ndarray
        ``(T, K)`` candidate rows to present instead of drawing them, or ``(0, K)`` to draw.

    Returns
    -------
    Run
        The trial's records.
    """
    run = _new_run(env, horizon, trace)
    window = _new_window(env)
    d = env.pool.shape[1]
    dim = d + 1
    theta = np.zeros(d)
    m = np.zeros((d, d))
    levels = 1
    while (1 << levels) <= horizon:
        levels += 1
    exact = np.zeros((levels + 1, dim, dim))
    noisy = np.zeros((levels + 1, dim, dim))
    prefix = np.zeros((dim, dim))
    leaf = np.zeros((dim, dim))
    n_reg = 0  # rows of X_{1:t~} already in the tree
    theta_version = -1
    for t in range(1, horizon + 1):
        i = t - 1
        _draw_candidates(rng, env, run, fixed, i)
        t_tilde = (t - 1) // 2  # line 4
        n_reg = _add_rows_private(rng, env, run, n_reg, t_tilde, p.y_clip, p.sigma_tree, leaf, exact, noisy)
        # theta-hat from the private prefix t~' = refresh*floor(t~/refresh) <= t~: post-processing
        if theta_version != t_tilde and t_tilde % p.refresh == 0:
            if t_tilde > 0:
                _private_theta(noisy, t_tilde, p.shift, prefix, m, theta)
            theta_version = t_tilde
            _score_pool(env.score_tree, theta, window.scores, window.products)
        kt = _rank_and_pick(rng, env, run, window, p, True, horizon, i, t, t_tilde, theta, trace)
        _hire(rng, run, noise_sd, i, kt)
    return run
