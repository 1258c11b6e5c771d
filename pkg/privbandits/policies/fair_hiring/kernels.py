"""The numba kernels of Part IV: one per algorithm, sharing the steps of a round.

OFUL (``abbasi2011improved``), Fair-Greedy (``grazzi2022group``) and Private-Fair-Greedy
(``an2025privatefairgreedy``). A kernel runs S settings in lockstep on one random stream: a round
draws the same numbers in the same order whatever the setting and the history, so each setting's
run is bit for bit its run alone.
"""

# How a round runs: one candidate per group and the policy's numbers (_draw_block, _draw_round), a
# group picked (the step _oful_choose or _greedy_choose), the hired candidate's reward observed
# (_reward), the update (the step _oful_update or _observe). The two Fair-Greedy variants differ
# only in their ridge step (exact, _add_row_exact, or the private tree, _add_row_private and
# _private_theta) and in eq. (1)'s Gaussian on the rank; they share the rank step (_slide_window,
# _rank_and_pick; lines 4, 6, 7). OFUL has its own index and Sherman-Morrison update.
#
# Steps (issue 36): a kernel's round, per setting, is its compiled step functions, inlined; the
# agent (policies.HiringAgent) calls the same steps on one setting's state (S = 1) through
# _oful_agent_choose / _greedy_agent_choose (the round's candidates and _draw_round, then the
# choice) and _oful_agent_update / _greedy_agent_update, so its trial is the kernel's bit for bit.
#
# Lockstep: every Gaussian is 0 + scale * (a standard normal), so a block's numbers are drawn once,
# in the order one run draws them (the tests check the runs equal the runs alone).
#
# Rank step (line 6): the window is a histogram over the distinct pool rows, re-scored whenever
# theta-hat changes (_score_pool over the prefix tree ScoreTree, bit for bit each row's score), so
# the count is the paper's exactly at O(distinct rows) per round (rank_brute: the entry-by-entry
# reference). refresh > 1 (not in the paper) recomputes theta-hat only every `refresh` values of
# t~: post-processing, the rank's sensitivity and noise unchanged. Sums over a row skip its zero
# entries (a census row has 11 non-zeros of 104), which leaves every finite sum unchanged.

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from ...mechanisms import binary_counter_terms
from .tree import draw_node_noise, packed_size, tree_insert, tree_prefix


class OFULParams(NamedTuple):
    """Parameters of :func:`oful_kernel`: one value per setting (arrays of length S in the kernel).

    Attributes
    ----------
    reg : float
        Ridge parameter lambda.
    delta : float
        Confidence level of the ellipsoid (Theorem 2 of ``abbasi2011improved``).
    theta_norm : float
        ``S``, bound on ``||theta*||``.
    code_radius : bool
        The authors' radius ``sqrt(2 log(det V_{t-1} / det(reg I)) log t)`` instead of Theorem 2's.
    scale : float
        Factor on the bonus (1: the paper).
    """

    reg: float  #: ridge parameter lambda
    delta: float  #: confidence level of the ellipsoid (Theorem 2 of abbasi2011improved)
    theta_norm: float  #: S, bound on ||theta*||
    code_radius: bool  #: the authors' radius sqrt(2 log(det V / det reg I) log t) instead of Theorem 2's
    scale: float  #: the bonus is multiplied by scale (1: the paper)


class GreedyParams(NamedTuple):
    """Parameters of :func:`fair_greedy_kernel` and :func:`private_fair_greedy_kernel`, one value per setting.

    Attributes
    ----------
    reg : float
        Ridge parameter of the exact regression (Fair-Greedy).
    rank_brute : bool
        Count the window entry by entry (reference) instead of by histogram.
    refresh : int
        Recompute theta-hat only when ``t~ % refresh == 0`` (1: the paper).
    sigma_tree, shift, rank_rho, y_clip : float
        Private-Fair-Greedy only: the noise per tree-node entry (> 0 for all settings or for none),
        Gamma (the Gram shift is 2 Gamma I), ``rho_rank`` of the rank noise, and the clip of the
        rewards entering the tree.
    lag : bool
        Use ``t~ = floor((t - 2) / 2)`` (one hire fewer on odd t, and the window before it).
    shift_per_node : bool
        Private: the shift 2 Gamma I on every tree node summed (``popcount(t~)`` times), not once.
    jitter : float
        Fair-Greedy: theta-hat + ``jitter / (d sqrt(t))`` times d standard normals each round (> 0 for
        all settings or for none).
    """

    reg: float  #: ridge parameter of the exact regression (Fair-Greedy)
    rank_brute: bool  #: count the window entry by entry (reference) instead of by histogram
    refresh: int  #: recompute theta-hat only when t~ % refresh == 0 (1 = the paper)
    sigma_tree: float  #: noise standard deviation per tree-node entry (private)
    shift: float  #: Gamma; the private Gram matrix is shifted by 2 Gamma I (private)
    rank_rho: float  #: rho_rank of the rank noise sigma_t = sqrt(T / (2 N_t^2 rho_rank)) (private)
    y_clip: float  #: observed rewards enter the tree clipped to [-y_clip, y_clip] (private)
    lag: bool  #: t~ = floor((t - 2) / 2) instead of floor((t - 1) / 2)
    shift_per_node: bool  #: private: 2 Gamma I on every node of the prefix sum
    jitter: float  #: Fair-Greedy: theta-hat + jitter / (d sqrt(t)) N(0, I) each round


class Run(NamedTuple):
    """One trial's records and history for S settings in lockstep, filled round by round.

    Attributes
    ----------
    fair_regret, regret : numpy.ndarray
        ``(S, T)`` fair pseudo-regret and reward regret of each round.
    chosen : numpy.ndarray
        ``(S, T)`` hired group.
    cand : numpy.ndarray
        ``(T, K)`` pool rows of ``D_t`` (the same for every setting).
    hired : numpy.ndarray
        ``(S, T)`` pool row of the hired candidate.
    ys : numpy.ndarray
        ``(S, T)`` observed rewards.
    trace_counts, trace_theta : numpy.ndarray
        ``(S, T, K)`` noiseless rank counts and ``(S, T, d)`` theta of each round (trace only, else
        with a zero second axis).
    """

    fair_regret: np.ndarray  #: (S, T)
    regret: np.ndarray  #: (S, T)
    chosen: np.ndarray  #: (S, T) hired group
    cand: np.ndarray  #: (T, K) pool rows of D_t
    hired: np.ndarray  #: (S, T) pool row of the hired candidate
    ys: np.ndarray  #: (S, T) observed rewards
    trace_counts: np.ndarray  #: (S, T, K) noiseless rank counts (trace only, else (S, 0, K))
    trace_theta: np.ndarray  #: (S, T, d) theta used in each round (trace only, else (S, 0, d))


class Window(NamedTuple):
    """The rank step's state: the window D_{t~+1:t-1} as a histogram over the distinct pool rows.

    Attributes
    ----------
    counts : numpy.ndarray
        ``(S, rows)``: occurrences of each distinct pool row (leaf of the score tree) in the window.
    scores : numpy.ndarray
        ``(S, rows)``: ``<x_r, theta_hat>`` of each distinct pool row.
    bounds : numpy.ndarray
        ``(S, 2)``: ``[lo, hi)``, the window's rounds (0-based).
    work : numpy.ndarray
        ``(nodes,)``: the partial sums of the score tree's nodes (one setting at a time).
    products : numpy.ndarray
        ``(entries,)``: ``v theta_hat[c]`` of each distinct entry (column c, value v) of the tree.
    est : numpy.ndarray
        ``(K,)`` estimated relative ranks of this round's candidates (one setting at a time).
    """

    counts: np.ndarray  #: (S, rows) occurrences of each distinct pool row in the window
    scores: np.ndarray  #: (S, rows) <x_r, theta_hat> of each distinct pool row
    bounds: np.ndarray  #: (S, 2) [lo, hi) bounds of the window's rounds (0-based)
    work: np.ndarray  #: (nodes,) partial sums of the score tree's nodes
    products: np.ndarray  #: (entries,) v theta_hat[c] of each distinct entry (column c, value v)
    est: np.ndarray  #: (K,) estimated relative ranks of this round's candidates


class Draws(NamedTuple):
    """The random numbers of a block of ``B`` rounds, drawn once for all settings (:func:`_draw_block`).

    Attributes
    ----------
    first : numpy.ndarray
        ``(2,)``: the block's first round and its first tree node (0-based).
    rank : numpy.ndarray
        ``(B, K)``: the rank step's numbers of each round (uniforms while the window is empty, then
        the standard normals of eq. (1) if private).
    reward : numpy.ndarray
        ``(B,)``: the standard normal of each round's reward noise.
    node : numpy.ndarray
        ``(B // 2 + 1, p (p + 1) / 2)``: the standard normals of the tree nodes closed in the block
        (``(B // 2 + 1, 0)`` without tree noise).
    jitter : numpy.ndarray
        ``(B, d)``: the standard normals of theta-hat's jitter (``(B, 0)`` without jitter).
    """

    first: np.ndarray  #: (2,) the block's first round (0-based) and its first tree node's number
    rank: np.ndarray  #: (B, K) the rank step's numbers of each round
    reward: np.ndarray  #: (B,) the reward noise's standard normal of each round
    node: np.ndarray  #: (B // 2 + 1, p (p + 1) / 2) the standard normals of the block's tree nodes
    jitter: np.ndarray  #: (B, d) the standard normals of theta-hat's jitter (or (B, 0))


#: Rounds per block of :func:`_draw_block` (the settings are played one block at a time)
BLOCK = 64


@njit(nogil=True, cache=True)
def _copy(src, dst):  # pragma: no cover - compiled
    """``dst[:] = src`` for two 1-d arrays of one length, as a loop."""
    # An array assigned to a slice compiles numba's shape check with its error message (string
    # formatting, a few CPU seconds per process on a cold cache); the shapes here agree by construction.
    for j in range(dst.shape[0]):
        dst[j] = src[j]


@njit(nogil=True, cache=True)
def _fill_eye(out, diagonal, off):  # pragma: no cover - compiled
    """``out[:] = c * np.eye(n)`` (or ``np.eye(n) / c``) given its two values ``diagonal`` and ``off``."""
    for a in range(out.shape[0]):
        for c in range(out.shape[1]):
            out[a, c] = diagonal if a == c else off


@njit(nogil=True, cache=True)
def _new_run(env, horizon, n_set, trace):  # pragma: no cover - compiled
    k_groups = env.offsets.shape[0] - 1
    d = env.pool.shape[1]
    return Run(
        np.zeros((n_set, horizon)),
        np.zeros((n_set, horizon)),
        np.zeros((n_set, horizon), dtype=np.int64),
        np.zeros((horizon, k_groups), dtype=np.int64),
        np.zeros((n_set, horizon), dtype=np.int64),
        np.zeros((n_set, horizon)),
        np.zeros((n_set, horizon if trace else 0, k_groups), dtype=np.int64),
        np.zeros((n_set, horizon if trace else 0, d)),
    )


@njit(nogil=True, cache=True)
def _new_window(env, n_set):  # pragma: no cover - compiled
    tree = env.score_tree
    return Window(
        np.zeros((n_set, tree.leaf_offsets[-1]), dtype=np.int32),
        np.zeros((n_set, tree.leaf_offsets[-1])),
        np.zeros((n_set, 2), dtype=np.int64),
        np.zeros(tree.parent.shape[0]),
        np.zeros(tree.entry_col.shape[0]),
        np.zeros(env.offsets.shape[0] - 1),
    )


@njit(nogil=True, cache=True)
def _new_draws(env, node_size, jitter_size=0):  # pragma: no cover - compiled
    return Draws(
        np.zeros(2, dtype=np.int64),
        np.zeros((BLOCK, env.offsets.shape[0] - 1)),
        np.zeros(BLOCK),
        np.zeros((BLOCK // 2 + 1, node_size)),
        np.zeros((BLOCK, jitter_size)),
    )


@njit(nogil=True, cache=True)
def _score_pool(tree, theta, work, products, leaf_scores):  # pragma: no cover - compiled
    """The score ``<x_r, theta>`` of every distinct pool row (``leaf_scores``), through the score tree."""
    # Node n's partial sum is ``0 + v theta[c]`` on level 0, then ``parent's + v theta[c]``, level by
    # level (inner levels in ``work``; a level whose nodes are the only children of the previous
    # level's is summed in the same pass), with ``v theta[c]`` computed once per distinct entry
    # (``products``): the operations of the row-by-row sparse sum ``s = 0; s += v_q theta[c_q]`` for
    # q = 0, 1, ..., so the same float value.  O(tree nodes).
    for e in range(products.shape[0]):
        products[e] = tree.entry_value[e] * theta[tree.entry_col[e]]
    lv, unary = tree.level_offsets, tree.unary
    last = lv.shape[0] - 2  # the leaves' level
    first = leaf_scores if last == 0 else work[: lv[1]]
    for n in range(lv[1]):
        first[n] = 0.0 + products[tree.entry[n]]
    q = 1
    while q <= last:
        prev = work[lv[q - 1] : lv[q]]
        parent, entry = tree.parent[lv[q] : lv[q + 1]], tree.entry[lv[q] : lv[q + 1]]
        if q < last and unary[q + 1]:  # levels q and q + 1 in one pass
            out = leaf_scores if q + 1 == last else work[lv[q + 1] : lv[q + 2]]
            child = tree.entry[lv[q + 1] : lv[q + 2]]
            for j in range(out.shape[0]):
                out[j] = (prev[parent[j]] + products[entry[j]]) + products[child[j]]
            q += 2
        else:
            out = leaf_scores if q == last else work[lv[q] : lv[q + 1]]
            for j in range(out.shape[0]):
                out[j] = prev[parent[j]] + products[entry[j]]
            q += 1


@njit(nogil=True, cache=True)
def _window_count(leaf_scores, counts, value):  # pragma: no cover - compiled
    """#{window entries of one group with estimated reward <= value}, from the window's histogram."""
    # The window D_{t~+1:t-1} of group k is a multiset of the group's distinct pool rows;
    # ``counts[j]`` is how many times row j occurs in it and ``leaf_scores[j] = <x_j, theta_hat>``
    # (the group's slices).  The sum equals the counting query of Section 4.2 term by term (entries of
    # the same row share the same score).  The loop runs from 0 over slices, so that it vectorises.
    c = 0
    for j in range(counts.shape[0]):
        if leaf_scores[j] <= value:
            c += counts[j]
    return np.int64(c)


@njit(nogil=True, cache=True)
def _draw_block(rng, env, run, fixed, t0, t1, rank_step, private, tree_noise, draws):  # pragma: no cover
    """The random numbers of rounds t0 .. t1 - 1 (1-based), in the order one run draws them."""
    # Round t: line 3, one candidate per group (drawn into ``run.cand``, or given by ``fixed`` in
    # audits); the policy's numbers of the round (_draw_round); the reward noise's standard normal
    # (line 8). An agent (HiringAgent) makes the same draws in the same order: the environment draws
    # the candidates, the agent's choose() _draw_round, the environment the reward's normal.
    offsets = env.offsets
    draws.first[0] = t0 - 1
    draws.first[1] = (t0 - 2) // 2 if t0 > 1 else 0  # tree nodes closed before round t0
    for t in range(t0, t1):
        i = t - 1
        for k in range(offsets.shape[0] - 1):
            if fixed.shape[0] > 0:  # the candidate sequence is given (audits: a fixed dataset)
                run.cand[i, k] = offsets[k] + fixed[i, k]
            else:
                run.cand[i, k] = offsets[k] + rng.integers(0, offsets[k + 1] - offsets[k])
        _draw_round(rng, t, rank_step, private, tree_noise, draws)
        draws.reward[i - draws.first[0]] = rng.standard_normal()


@njit(nogil=True, cache=True, inline="always")
def _draw_round(rng, t, rank_step, private, tree_noise, draws):  # pragma: no cover - compiled
    """The policy's random numbers of round t (1-based), after its candidates and before its reward."""
    # With ``tree_noise``, the standard normals of the tree node closed in round t (line 5: one per
    # odd t >= 3), into ``draws.node[node - draws.first[1]]``; with ``rank_step``, K uniforms while
    # the window is empty (t = 1), then, if ``private``, the K standard normals of eq. (1) (line 6);
    # theta-hat's jitter, if any (d standard normals); the last two into row ``t - 1 - draws.first[0]``.
    i = t - 1
    t_tilde = (t - 1) // 2
    n_nodes = (t - 2) // 2 if t > 1 else 0  # tree nodes closed before round t
    while n_nodes < t_tilde:
        if tree_noise:
            draw_node_noise(rng, draws.node[n_nodes - draws.first[1]])
        n_nodes += 1
    if rank_step:
        _draw_rank_noise(rng, (t - 1) - t_tilde, private, draws.rank[i - draws.first[0]])
    jitter = draws.jitter[i - draws.first[0]]
    for j in range(jitter.shape[0]):
        jitter[j] = rng.standard_normal()


@njit(nogil=True, cache=True)
def _reward(env, run, noise_sd, z, i, kt):  # pragma: no cover - compiled
    """Line 8: the observed reward of hiring group ``kt``'s candidate, noise ``noise_sd * z`` (z: a standard normal)."""
    return env.row_reward[run.cand[i, kt]] + noise_sd * z


@njit(nogil=True, cache=True, inline="always")
def _observe(env, run, s, i, kt, y):  # pragma: no cover - compiled
    """Line 8 for setting s: group ``kt``'s candidate hired in round ``i + 1``, reward ``y``; the regrets recorded."""
    # The regrets from the true rewards and relative ranks per pool row (:meth:`HiringEnvironment.arrays`).
    cand, row_rank, row_reward = run.cand[i], env.row_rank, env.row_reward
    run.hired[s, i] = cand[kt]
    run.ys[s, i] = y
    run.chosen[s, i] = kt
    fmax, rmax = row_rank[cand[0]], row_reward[cand[0]]
    for k in range(1, cand.shape[0]):
        fmax = max(fmax, row_rank[cand[k]])
        rmax = max(rmax, row_reward[cand[k]])
    run.fair_regret[s, i] = fmax - row_rank[cand[kt]]
    run.regret[s, i] = rmax - row_reward[cand[kt]]


@njit(nogil=True, cache=True)
def _add_row_exact(env, run, s, n_reg, gram, b):  # pragma: no cover - compiled
    """Line 5 (Fair-Greedy): add row ``n_reg`` to setting s's exact Gram matrix and X^T y."""
    # Line 5 (Fair-Greedy): add row ``n_reg`` of setting s's X_{1:t~} to its exact Gram matrix and
    # X^T y (the row's non-zero entries: the zero ones add nothing).
    row = run.hired[s, n_reg]
    x = env.pool[row]
    cols = env.nz_cols[row, : env.nz_count[row]]
    y = run.ys[s, n_reg]
    for a in cols:
        b[a] += x[a] * y
        for c in cols:
            gram[a, c] += x[a] * x[c]


@njit(nogil=True, cache=True)
def _add_row_private(env, run, s, n_reg, y_clip, sigma, noise, leaf, exact, noisy):  # pragma: no cover
    """Line 5 (private, Section 4.1): insert the leaf of row ``n_reg`` into setting s's tree."""
    # Line 5 (private, Section 4.1): insert the leaf [x, y][x, y]^T of row ``n_reg`` of setting s's
    # X_{1:t~} into its tree, the reward clipped to [-y_clip, y_clip] (``leaf``: a (d + 1,) buffer for
    # [x, y]); ``noise``: the node's standard normals
    # (:func:`~privbandits.policies.fair_hiring.tree.draw_node_noise`).
    d = env.pool.shape[1]
    x = env.pool[run.hired[s, n_reg]]
    y = run.ys[s, n_reg]
    if y > y_clip:
        y = y_clip
    elif y < -y_clip:
        y = -y_clip
    _copy(x, leaf[:d])
    leaf[d] = y
    tree_insert(exact, noisy, n_reg + 1, leaf, sigma, noise)


@njit(nogil=True, cache=True)
def _private_theta(noisy, t_tilde, shift, prefix, m, rhs, theta):  # pragma: no cover - compiled
    """Line 5 (private): theta-hat from the tree's noisy prefix sum, Gram matrix shifted by ``2 shift I``."""
    # Line 5 (private): theta-hat from the tree's noisy prefix sum (packed), Gram matrix shifted by
    # 2 Gamma I (``m``, ``rhs``: (d, d) and (d,) buffers).
    d = theta.shape[0]
    tree_prefix(noisy, t_tilde, prefix)
    e = 0
    for a in range(d):  # unpack row a: the Gram matrix's entries (a, c >= a), then X^T y's entry a
        m[a, a] = prefix[e] + 2.0 * shift  # shift by 2 Gamma I
        for c in range(a + 1, d):
            m[a, c] = prefix[e + c - a]
            m[c, a] = prefix[e + c - a]
        e += d - a
        rhs[a] = prefix[e]
        e += 1
    _copy(np.linalg.solve(m, rhs), theta)


@njit(nogil=True, cache=True)
def _slide_window(env, run, window, s, t, t_tilde):  # pragma: no cover - compiled
    """Line 4: slide setting s's window to D_{t~+1:t-1} (0-based rounds t~ .. t-2)."""
    cand, counts, bounds, row_leaf = run.cand, window.counts[s], window.bounds[s], env.score_tree.row_leaf
    k_groups = cand.shape[1]
    while bounds[1] < t - 1:
        for k in range(k_groups):
            counts[row_leaf[cand[bounds[1], k]]] += 1
        bounds[1] += 1
    while bounds[0] < t_tilde:
        for k in range(k_groups):
            counts[row_leaf[cand[bounds[0], k]]] -= 1
        bounds[0] += 1


@njit(nogil=True, cache=True)
def _draw_rank_noise(rng, n_t, private, draws):  # pragma: no cover - compiled
    """The rank step's random numbers of a round (uniforms, or eq. (1)'s normals if private)."""
    # The rank step's random numbers of a round: uniforms (ties broken at random) when the window
    # is empty, else the standard normals of eq. (1) if ``private``.
    for k in range(draws.shape[0]):
        if n_t == 0:
            draws[k] = rng.random()
        elif private:
            draws[k] = rng.standard_normal()


@njit(nogil=True, cache=True)
def _rank_and_pick(
    env, run, window, s, brute, private, rank_rho, horizon, i, t, t_tilde, theta, trace, draws
):  # pragma: no cover
    """Lines 6 and 7 for setting s: estimate each candidate's relative rank, pick the largest."""
    # Lines 6 and 7 for setting s: estimate each candidate's relative rank on the window (plus the
    # Gaussian of eq. (1), ``0 + sigma_t z``, if ``private``), return the group with the largest
    # (``draws``: the round's K numbers of the rank step).
    cand, est = run.cand, window.est
    counts, scores = window.counts[s], window.scores[s]
    row_leaf, leaf_offsets = env.score_tree.row_leaf, env.score_tree.leaf_offsets
    k_groups = leaf_offsets.shape[0] - 1
    # Line 6: relative ranks on the window, N_t = (t-1) - t~
    n_t = (t - 1) - t_tilde
    for k in range(k_groups):
        if n_t == 0:
            est[k] = draws[k]
        else:
            value = scores[row_leaf[cand[i, k]]]
            if brute:  # reference: count entry by entry (O(N_t) per group)
                c = 0
                for r in range(t_tilde, t - 1):
                    if scores[row_leaf[cand[r, k]]] <= value:
                        c += 1
            else:
                lo, hi = leaf_offsets[k], leaf_offsets[k + 1]
                c = _window_count(scores[lo:hi], counts[lo:hi], value)
            if trace:
                run.trace_counts[s, i, k] = c
            est[k] = c / n_t
            if private:
                # eq. (1): sensitivity 1/N_t, sigma_t = sqrt(T / (2 N_t^2 rho_rank))
                est[k] += 0.0 + math.sqrt(horizon / (2.0 * n_t * n_t * rank_rho)) * draws[k]
    if trace:
        _copy(theta, run.trace_theta[s, i])
    # Line 7: greedy on the estimated relative rank
    kt = 0
    for k in range(1, k_groups):
        if est[k] > est[kt]:
            kt = k
    return kt


class OFULState(NamedTuple):
    """OFUL's state for S settings (:func:`_oful_init`).

    Attributes
    ----------
    vinv : numpy.ndarray
        ``(S, d, d)``: ``V^-1``, ``V = reg I + X^T X``, by Sherman-Morrison updates.
    b : numpy.ndarray
        ``(S, d)``: ``X^T y``.
    logdet : numpy.ndarray
        ``(S,)``: ``log(det V / det(reg I))`` by the determinant lemma (the code's radius).
    theta, theta_round, u : numpy.ndarray
        ``(d,)`` scratch: ``theta = V^-1 X^T y`` entry by entry where a candidate needs it, the round
        each entry was computed in (0: never), and ``V^-1 x`` of the update.
    """

    vinv: np.ndarray  #: (S, d, d) V^-1
    b: np.ndarray  #: (S, d) X^T y
    logdet: np.ndarray  #: (S,) log(det V / det(reg I))
    theta: np.ndarray  #: (d,) V^-1 X^T y, entry j computed when a candidate needs it
    theta_round: np.ndarray  #: (d,) the round theta[j] was computed in (0: never)
    u: np.ndarray  #: (d,) V^-1 x of the Sherman-Morrison update


@njit(nogil=True, cache=True)
def _oful_init(env, p):  # pragma: no cover - compiled
    """OFUL's state before the first round, for the settings of ``p``."""
    n_set = p.reg.shape[0]
    d = env.pool.shape[1]
    vinv = np.zeros((n_set, d, d))
    for s in range(n_set):  # np.eye(d) / reg, entry by entry
        _fill_eye(vinv[s], 1.0 / p.reg[s], 0.0 / p.reg[s])
    return OFULState(vinv, np.zeros((n_set, d)), np.zeros(n_set), np.zeros(d), np.zeros(d, dtype=np.int64), np.zeros(d))


@njit(nogil=True, cache=True, inline="always")
def _oful_choose(env, run, state, p, s, t, noise_sd):  # pragma: no cover - compiled
    """Round t (1-based) of setting s: the group whose candidate has the largest upper confidence bound."""
    pool, nz_cols, nz_count, cand = env.pool, env.nz_cols, env.nz_count, run.cand
    v, b, theta, theta_round, logdet = state.vinv[s], state.b[s], state.theta, state.theta_round, state.logdet[s]
    reg, delta, theta_norm, code_radius, scale = p.reg[s], p.delta[s], p.theta_norm[s], p.code_radius[s], p.scale[s]
    k_groups = cand.shape[1]
    d = pool.shape[1]
    i = t - 1
    if code_radius:  # the authors' sqrt(2 log(det V / det(reg I))) sqrt(log t)
        beta = scale * math.sqrt(2.0 * logdet) * math.sqrt(math.log(t))
    else:
        beta = scale * (
            math.sqrt(noise_sd**2 * (d * math.log((1.0 + (t - 1) / reg) / delta))) + math.sqrt(reg) * theta_norm
        )
    best = -1e300
    kt = 0
    for k in range(k_groups):
        row = cand[i, k]
        x = pool[row]
        cols = nz_cols[row, : nz_count[row]]
        mean = 0.0
        for j in cols:
            if theta_round[j] != t:
                acc = 0.0
                for c in range(d):
                    acc += v[j, c] * b[c]
                theta[j] = acc
                theta_round[j] = t
            mean += x[j] * theta[j]
        q = 0.0
        for a in cols:
            acc = 0.0
            for c in cols:
                acc += v[a, c] * x[c]
            q += x[a] * acc
        ucb = mean + beta * math.sqrt(max(q, 0.0))
        if ucb > best:
            best = ucb
            kt = k
    return kt


@njit(nogil=True, cache=True, inline="always")
def _oful_update(env, run, state, s, i, kt, y):  # pragma: no cover - compiled
    """Round ``i + 1`` of setting s: group ``kt`` hired, reward ``y``; V^-1 by Sherman-Morrison, X^T y, log det."""
    _observe(env, run, s, i, kt, y)
    # theta = V^-1 X^T y follows next round, where needed. (Each step reads the tuples' arrays and
    # values first, in straight-line code, so that numba's reference-count pruning removes the
    # per-round increfs and decrefs of the tuples' arrays: benchmarks/README.md, issue 36.)
    pool, nz_cols, nz_count, row = env.pool, env.nz_cols, env.nz_count, run.hired[s, i]
    v, b, u, logdet = state.vinv[s], state.b[s], state.u, state.logdet
    d = pool.shape[1]
    x = pool[row]
    cols = nz_cols[row, : nz_count[row]]
    for a in range(d):
        acc = 0.0
        for c in cols:
            acc += v[a, c] * x[c]
        u[a] = acc
    den = 1.0
    for a in cols:
        b[a] += x[a] * y
        den += x[a] * u[a]
    logdet[s] += math.log(den)
    for a in range(d):
        for c in range(d):
            v[a, c] -= u[a] * u[c] / den


@njit(nogil=True, cache=True)
def oful_kernel(rng, env, horizon, noise_sd, p, trace, fixed):  # pragma: no cover - compiled
    """OFUL (``abbasi2011improved``, Algorithm 1, radius of Theorem 2) for ``horizon`` rounds: not private, not fair.

    Parameters
    ----------
    rng : numpy.random.Generator
    env : HiringArrays
        :meth:`HiringEnvironment.arrays`.
    horizon : int
    noise_sd : float
        Standard deviation of the reward noise.
    p : OFULParams
    trace : bool
        Allocate the trace arrays (OFUL leaves them at zero: it has no rank step).
    fixed : numpy.ndarray
        ``(T, K)`` candidate rows to present instead of drawing them, or ``(0, K)`` to draw.

    Returns
    -------
    Run
    """
    # The loop of every kernel (and of HiringAgent): choose, the environment's reward, update.
    n_set = p.reg.shape[0]
    run = _new_run(env, horizon, n_set, trace)
    draws = _new_draws(env, 0)
    state = _oful_init(env, p)
    no = bool(False)  # noqa: UP018 (a run-time flag: _draw_block compiled once, see _greedy_kernel)
    for t0 in range(1, horizon + 1, BLOCK):
        t1 = min(t0 + BLOCK, horizon + 1)
        _draw_block(rng, env, run, fixed, t0, t1, no, no, no, draws)
        for s in range(n_set):
            state.theta_round[:] = 0  # theta is shared by the settings: computed afresh for this one
            for t in range(t0, t1):
                i = t - 1
                kt = _oful_choose(env, run, state, p, s, t, noise_sd)
                y = _reward(env, run, noise_sd, draws.reward[i - draws.first[0]], i, kt)
                _oful_update(env, run, state, s, i, kt, y)
    return run


def fair_greedy_kernel(rng, env, horizon, noise_sd, p, trace, fixed):
    """Fair-Greedy (``grazzi2022group``), not private: exact ridge on the first half, ranks on the second.

    Parameters
    ----------
    rng, env, horizon, noise_sd, fixed
        As :func:`oful_kernel`.
    p : GreedyParams
    trace : bool
        Also fill ``trace_counts`` and ``trace_theta``.

    Returns
    -------
    Run
    """
    return _greedy_kernel(rng, env, horizon, noise_sd, p, trace, fixed, False)


def private_fair_greedy_kernel(rng, env, horizon, noise_sd, p, trace, fixed):
    """Private-Fair-Greedy (``an2025privatefairgreedy``, Algorithm 1): (epsilon, delta)-JDP claimed (Theorem 5.1).

    Tree-based private ridge regression (Section 4.1) and the private rank step (Section 4.2, eq. (1)),
    noise from :meth:`PrivateFairGreedy.calibration_values`.

    Parameters
    ----------
    rng, env, horizon, noise_sd, fixed
        As :func:`oful_kernel`.
    p : GreedyParams
    trace : bool
        Also fill ``trace_counts`` and ``trace_theta``.

    Returns
    -------
    Run
    """
    return _greedy_kernel(rng, env, horizon, noise_sd, p, trace, fixed, True)


class GreedyState(NamedTuple):
    """The Fair-Greedy variants' ridge state for S settings (:func:`_greedy_init`), besides the :class:`Window`.

    Attributes
    ----------
    gram, b : numpy.ndarray
        Fair-Greedy: ``(S, d, d)`` ``V = reg I + X^T X`` and ``(S, d)`` ``X^T y`` (``(0, ...)`` if private).
    exact, noisy : numpy.ndarray
        Private-Fair-Greedy: ``(S, levels + 1, p (p + 1) / 2)`` the tree's exact and noisy node sums,
        packed (``(0, ...)`` if not private).
    theta : numpy.ndarray
        ``(S, d)``: theta-hat.
    n_reg, theta_version : numpy.ndarray
        ``(S,)``: rows of ``X_{1:t~}`` added so far; the t~ theta-hat was last computed at (-1: never).
    prefix, leaf, m, rhs, jittered : numpy.ndarray
        Scratch (one setting at a time): the tree's prefix sum, a leaf ``[x, y]``, the shifted Gram
        matrix and ``X^T y`` of the private solve, theta-hat with its jitter.
    """

    gram: np.ndarray  #: (S, d, d) reg I + X^T X (Fair-Greedy)
    b: np.ndarray  #: (S, d) X^T y (Fair-Greedy)
    exact: np.ndarray  #: (S, levels + 1, size) the tree's exact node sums (private)
    noisy: np.ndarray  #: (S, levels + 1, size) the tree's noisy node sums (private)
    theta: np.ndarray  #: (S, d) theta-hat
    n_reg: np.ndarray  #: (S,) rows of X_{1:t~} already added
    theta_version: np.ndarray  #: (S,) the t~ of the last theta-hat (-1: never)
    prefix: np.ndarray  #: (size,) scratch: the tree's prefix sum
    leaf: np.ndarray  #: (d + 1,) scratch: [x, y]
    m: np.ndarray  #: (d, d) scratch: the shifted Gram matrix
    rhs: np.ndarray  #: (d,) scratch: X^T y of the private solve
    jittered: np.ndarray  #: (d,) scratch: theta-hat plus its jitter


@njit(nogil=True, cache=True)
def _greedy_init(env, horizon, p, private):  # pragma: no cover - compiled
    """The state before the first round: ``(window, state, draws, tree_noise, jitter)`` for the settings of ``p``."""
    n_set = p.reg.shape[0]
    window = _new_window(env, n_set)
    d = env.pool.shape[1]
    tree_noise = private and p.sigma_tree[0] > 0.0
    size = packed_size(d + 1) if private else 0  # the tree's matrices are symmetric: upper triangles
    jitter = not private and p.jitter[0] > 0.0
    draws = _new_draws(env, size if tree_noise else 0, d if jitter else 0)
    # exact ridge (Fair-Greedy): V = reg I + X^T X and X^T y
    n_exact = 0 if private else n_set
    gram = np.zeros((n_exact, d, d))
    for s in range(n_exact):  # reg * np.eye(d), entry by entry
        _fill_eye(gram[s], p.reg[s] * 1.0, p.reg[s] * 0.0)
    # private ridge (Private-Fair-Greedy): the tree's exact and noisy node sums
    levels = 1
    while (1 << levels) <= horizon:
        levels += 1
    n_tree = n_set if private else 0
    state = GreedyState(
        gram,
        np.zeros((n_exact, d)),
        np.zeros((n_tree, levels + 1, size)),
        np.zeros((n_tree, levels + 1, size)),
        np.zeros((n_set, d)),
        np.zeros(n_set, dtype=np.int64),
        np.full(n_set, -1, dtype=np.int64),
        np.zeros(size),
        np.zeros(d + 1),
        np.zeros((d, d)),
        np.zeros(d),
        np.zeros(d),
    )
    return window, state, draws, tree_noise, jitter


@njit(nogil=True, cache=True, inline="always")
def _greedy_choose(env, run, window, state, draws, p, s, t, horizon, private, jitter, trace):  # pragma: no cover
    """Lines 4-7 of round t (1-based) for setting s: the ridge step, the window, the rank step; the group to hire."""
    # ``draws``: the round's random numbers (rows ``t - 1 - draws.first[0]`` and, for the tree's
    # nodes, ``node - draws.first[1]``), drawn by _draw_round. The tuples' values and arrays are read
    # first (see _oful_update).
    lag, refresh, y_clip, sigma = p.lag[s], p.refresh[s], p.y_clip[s], p.sigma_tree[s]
    gamma, per_node, jitter_sd, brute, rho = (
        p.shift[s],
        p.shift_per_node[s],
        p.jitter[s],
        p.rank_brute[s],
        p.rank_rho[s],
    )
    n_reg, theta_version, theta, jittered = state.n_reg, state.theta_version, state.theta[s], state.jittered
    gram, b, exact, noisy, leaf = state.gram, state.b, state.exact, state.noisy, state.leaf
    prefix, m, rhs = state.prefix, state.m, state.rhs
    node, first, z_jitter, z_rank = draws.node, draws.first, draws.jitter, draws.rank
    tree, work, products, scores = env.score_tree, window.work, window.products, window.scores[s]
    i = t - 1
    d = theta.shape[0]
    t_tilde = (t - 1) // 2  # line 4
    if lag and t > 1:  # the authors' index: floor((t - 2) / 2), one less on odd t
        t_tilde = (t - 2) // 2
    while n_reg[s] < t_tilde:  # line 5 (private: the tree's new leaf, with the round's node noise)
        if private:
            noise = node[n_reg[s] - first[1]]
            _add_row_private(env, run, s, n_reg[s], y_clip, sigma, noise, leaf, exact[s], noisy[s])
        else:
            _add_row_exact(env, run, s, n_reg[s], gram[s], b[s])
        n_reg[s] += 1
    # theta-hat and the scores are recomputed when t~ changes (the paper), or, with refresh > 1, only
    # when t~ is a multiple of refresh (private: post-processing)
    if theta_version[s] != t_tilde and t_tilde % refresh == 0:
        if not private:
            _copy(np.linalg.solve(gram[s], b[s]), theta)
        elif t_tilde > 0:
            shift = gamma
            if per_node:  # 2 Gamma I on each of the prefix sum's nodes
                shift *= binary_counter_terms(t_tilde)
            _private_theta(noisy[s], t_tilde, shift, prefix, m, rhs, theta)
        theta_version[s] = t_tilde
        if not jitter:
            _score_pool(tree, theta, work, products, scores)
    _slide_window(env, run, window, s, t, t_tilde)
    b_i = i - first[0]
    used = theta
    if jitter:  # the authors' Fair-Greedy: theta-hat + jitter / (d sqrt(t)) z, scored every round
        scale = jitter_sd / (d * math.sqrt(t))
        for j in range(d):
            jittered[j] = theta[j] + scale * z_jitter[b_i, j]
        _score_pool(tree, jittered, work, products, scores)
        used = jittered
    rank_rho = rho if private else 1.0
    return _rank_and_pick(
        env, run, window, s, brute, private, rank_rho, horizon, i, t, t_tilde, used, trace, z_rank[b_i]
    )


@njit(nogil=True, cache=True)
def _greedy_kernel(rng, env, horizon, noise_sd, p, trace, fixed, private):  # pragma: no cover - compiled
    """The two Fair-Greedy variants: the ridge step exact, or (``private``) the tree's, and eq. (1)."""
    # ``private`` (from Python) and ``rank_step`` of _draw_block (``bool(True)`` rather than ``True``,
    # hence the noqa UP018 below) arrive as run-time booleans: numba compiles a function once per literal
    # value of a constant argument, so literals would compile this loop and its callees twice. With the array
    # copies as loops (_copy), the three kernels compile in about 23 CPU seconds instead of 30.
    # fair_greedy_kernel and private_fair_greedy_kernel call it from Python (a Python bool is typed
    # ``boolean``, not a literal): compiled wrappers would each link and optimise this whole loop again
    # and store a copy of it in numba's cache (2.3-2.4 CPU s each, benchmarks/README.md, issue 37).
    # The loop of every kernel (and of HiringAgent): choose, the environment's reward, update (the
    # update is line 8's record: the ridge step reads the hires at the next rounds' choose).
    n_set = p.reg.shape[0]
    run = _new_run(env, horizon, n_set, trace)
    window, state, draws, tree_noise, jitter = _greedy_init(env, horizon, p, private)
    for t0 in range(1, horizon + 1, BLOCK):
        t1 = min(t0 + BLOCK, horizon + 1)
        _draw_block(rng, env, run, fixed, t0, t1, bool(True), private, tree_noise, draws)  # noqa: UP018
        for s in range(n_set):
            for t in range(t0, t1):
                i = t - 1
                kt = _greedy_choose(env, run, window, state, draws, p, s, t, horizon, private, jitter, trace)
                y = _reward(env, run, noise_sd, draws.reward[i - draws.first[0]], i, kt)
                _observe(env, run, s, i, kt, y)
    return run


# --------------------------------------------------------------------------------------------
# The agent's rounds (HiringAgent): the kernels' steps on one setting's state, called from Python
# --------------------------------------------------------------------------------------------


@njit(nogil=True, cache=True)
def _present(env, run, draws, t, cand):  # pragma: no cover - compiled
    """Round t's candidates (each group's row within its pool) into ``run.cand``; ``draws`` pointed at round t."""
    # The kernel's block holds rounds from draws.first[0] and nodes from draws.first[1]; the agent's
    # holds one round (row 0) and the node closed at the last odd round (row 0: drawn at odd t, read
    # at t or, with the index lag, at t + 1).
    i = t - 1
    for k in range(cand.shape[0]):
        run.cand[i, k] = env.offsets[k] + cand[k]
    draws.first[0] = i
    if t % 2 == 1:
        draws.first[1] = (t - 2) // 2 if t > 1 else 0


@njit(nogil=True, cache=True)
def _oful_agent_choose(rng, env, run, state, draws, p, t, noise_sd, cand):  # pragma: no cover - compiled
    """The agent's round t of OFUL (one setting): its candidates, its draws (none), its choice."""
    _present(env, run, draws, t, cand)
    no = bool(False)  # noqa: UP018 (as in oful_kernel)
    _draw_round(rng, t, no, no, no, draws)
    return _oful_choose(env, run, state, p, 0, t, noise_sd)


@njit(nogil=True, cache=True)
def _oful_agent_update(env, run, state, i, kt, y):  # pragma: no cover - compiled
    """The agent's round ``i + 1`` of OFUL ends: group ``kt`` hired, reward ``y``."""
    _oful_update(env, run, state, 0, i, kt, y)


@njit(nogil=True, cache=True)
def _greedy_agent_choose(
    rng, env, run, window, state, draws, p, t, horizon, private, tree_noise, jitter, cand
):  # pragma: no cover - compiled
    """The agent's round t of a Fair-Greedy variant (one setting): its candidates, its draws, its choice."""
    _present(env, run, draws, t, cand)
    _draw_round(rng, t, bool(True), private, tree_noise, draws)  # noqa: UP018 (as in _greedy_kernel)
    return _greedy_choose(env, run, window, state, draws, p, 0, t, horizon, private, jitter, bool(False))  # noqa: UP018


@njit(nogil=True, cache=True)
def _greedy_agent_update(env, run, i, kt, y):  # pragma: no cover - compiled
    """The agent's round ``i + 1`` of a Fair-Greedy variant ends: group ``kt`` hired, reward ``y``."""
    _observe(env, run, 0, i, kt, y)
