# %% [markdown]
# # Lab 5: an AboveThreshold stopping rule
#
# *Part V, {doc}`../part5_audit/audit` and {doc}`../part5_audit/repair`. Prerequisites: the
# Laplace mechanism, sequential composition, and Part V's repair of GDP-NCB's Phase I.*

# %% [markdown] tags=["book-only"]
# :::{lab-notebook}
# :::

# %% [markdown]
# Part V shows that GDP-NCB's Phase I stopping time leaks the rewards, and repairs it with the
# sparse vector technique: AboveThreshold (Dwork and Roth 2014, Algorithm 1) answers a stream of
# sensitivity-1 queries $q_1, q_2, \ldots$ against a threshold $\tau$. It draws a noisy threshold
# $\hat\tau = \tau + \mathrm{Lap}(2/\eps)$ once, and stops at the first $t$ with
# $q_t + \mathrm{Lap}(4/\eps) \ge \hat\tau$ (fresh noise for each query). Whatever the number of
# queries, the stopping time is $\eps$-DP. The repaired GDP-NCB
# (`GDPNCB(phase1_rule="sparse_vector")`) runs exactly this rule on $q_t = \max_i N_{1,i}\hat\mu_i$
# with `eps_stop` of `privbandits.policies.dp_ncb.sparse_vector_budget`.
#
# Fill in every `...`, run the notebook top to bottom, and run each `grader.check` cell.
# Write each function yourself: while the grading runs your answers, a call of any function of
# `privbandits` fails the check, and so does a check that runs longer than two minutes.
# A question about a private release scores all its points or none: a release that fails one
# of its checks is not private, or not the release asked for.

# %% [raw]
# # ASSIGNMENT CONFIG
# name: lab5_above_threshold
# init_cell: true
# check_all_cell: false
# export_cell: false
# strip_solutions_from_all_cells: true
# run_tests: true
# tests:
#   ok_format: false

# %%
import numpy as np

# %% [raw]
# # BEGIN QUESTION
# name: q1_stop
# points: [0, 3, 1]
# all_or_nothing: true

# %% [markdown]
# **Question 1.** Write `above_threshold(queries, threshold, epsilon, rng)`: the index (0-based) of
# the query at which AboveThreshold stops, or `len(queries)` if it never stops. Draw the threshold
# noise first, then one query noise per query asked, all from `rng` (`rng.laplace`).


# %%
def above_threshold(queries, threshold, epsilon, rng):
    # BEGIN SOLUTION
    noisy_threshold = threshold + rng.laplace(0.0, 2 / epsilon)
    for t, q in enumerate(queries):
        if q + rng.laplace(0.0, 4 / epsilon) >= noisy_threshold:
            return t
    return len(queries)
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_stop_public(above_threshold):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import numpy as np

        queries = np.arange(10.0)
        rng = np.random.default_rng(0)
        got = above_threshold(queries, 4.5, 1e9, rng)  # (almost) no noise
        assert got == 5, (
            f"with (almost) no noise the rule stops at {got}, not 5")
        got = above_threshold(queries, 100.0, 1e9, np.random.default_rng(0))
        assert got == 10, (
            f"below the threshold throughout, the rule returns {got}, not 10")


test_stop_public(above_threshold)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2_budget
# points: [0, 2]

# %% [markdown]
# **Question 2.** The repaired GDP-NCB spends `sv_fraction` of its $\eps$ on the stopping rule and
# the rest on at most $L = \max(1, \lfloor \log_2 T \rfloor)$ Laplace releases per reward, equally.
# Write `svt_split(horizon, epsilon, sv_fraction)` returning `(eps_stop, eps_per_release)`.


# %%
def svt_split(horizon, epsilon, sv_fraction):
    # BEGIN SOLUTION
    releases = max(1, int(horizon).bit_length() - 1)
    eps_stop = sv_fraction * epsilon
    return eps_stop, (epsilon - eps_stop) / releases
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_split_public(svt_split):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        eps_stop, eps_release = svt_split(2, 1.0, 0.5)
        assert math.isclose(eps_stop, 0.5) and math.isclose(eps_release, 0.5), (
            f"svt_split(2, 1.0, 0.5) is ({eps_stop}, {eps_release}), "
            "not (0.5, 0.5)"
        )


test_split_public(svt_split)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To use it.** The median stopping time for 40 queries equal to 0 against the threshold 4 at
# $\eps = 1$:

# %%
rng = np.random.default_rng(0)
float(
    np.median(
        [above_threshold(np.zeros(40), 4.0, 1.0, rng) for _ in range(2_000)]
    )
)
