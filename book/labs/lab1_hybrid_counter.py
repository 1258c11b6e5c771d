# %% [markdown]
# # Lab 1: the hybrid counter's release
#
# *Part I, {doc}`../part1_private_ucb/private_ucb`. Prerequisites: the binary and the hybrid
# mechanism of {doc}`../foundations/privacy`, and basic composition.*

# %% [markdown] tags=["book-only"]
# :::{lab-notebook}
# :::

# %% [markdown]
# Private UCB keeps, for each arm, a private running sum of its rewards: a stream of unknown length
# released after every insertion. The hybrid mechanism of Chan, Shi and Song does this at total
# cost $\eps$ for a stream of any length:
#
# * at $t = 2^k$ (logarithmic part) it releases the prefix sum as its previous logarithmic release
#   plus the items since then plus fresh $\mathrm{Lap}(1/\eps_{\log})$ noise;
# * for $2^k < t < 2^{k+1}$ it releases the last logarithmic release plus a binary mechanism run on
#   the items after $2^k$ (a block of at most $2^k - 1$ items, so $k$ levels of the tree).
#
# An item enters both parts, so by basic composition the counter is $(\eps_{\log} + \eps_{\rm
# tree})$-DP: the $\eps$-DP counter gives $\eps/2$ to each. For the binary mechanism use the
# package's `privbandits.mechanisms.binary_tree_prefix_sums(block, epsilon, rng, horizon)`, which
# adds $\mathrm{Lap}\big((\lfloor\log_2 \mathrm{horizon}\rfloor + 1)/\eps\big)$ noise to each node.
#
# Fill in every `...`, run the notebook top to bottom, and run each `grader.check` cell.
# Write each function yourself: while the grading runs your answers, a call of any function of
# `privbandits` other than `binary_tree_prefix_sums` fails the check, and so does a check that runs longer than two minutes.
# A question about a private release scores all its points or none: a release that fails one
# of its checks is not private, or not the release asked for.

# %% [raw]
# # ASSIGNMENT CONFIG
# name: lab1_hybrid_counter
# init_cell: true
# check_all_cell: false
# export_cell: false
# strip_solutions_from_all_cells: true
# run_tests: true
# tests:
#   ok_format: false

# %%
import numpy as np

from privbandits.mechanisms import binary_tree_prefix_sums

# %% [raw]
# # BEGIN QUESTION
# name: q1_scales
# points: [0, 2]

# %% [markdown]
# **Question 1.** Write `hybrid_scales(k, epsilon)`: the pair `(log_scale, tree_scale)` of Laplace
# scales of the $\eps$-DP hybrid counter: the noise of a logarithmic release, and the noise of each
# node of the binary tree of block $k \ge 1$ (the items $2^k < t < 2^{k+1}$).


# %%
def hybrid_scales(k, epsilon):
    # BEGIN SOLUTION
    half = epsilon / 2
    return 1 / half, k / half
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_scales_public(hybrid_scales):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        assert len(hybrid_scales(1, 1.0)) == 2, (
            "hybrid_scales must return a pair")


test_scales_public(hybrid_scales)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2_release
# points: [0, 4]
# all_or_nothing: true

# %% [markdown]
# **Question 2.** Write `hybrid_release(stream, epsilon, rng)`: all the noisy prefix sums of
# `stream` (a 1-D array of items in $[0, 1]$) released by the $\eps$-DP hybrid counter, as an array
# whose entry `t - 1` is the release after item $t$. Draw the logarithmic noise from `rng`
# (`rng.laplace`) and run each block's tree with `binary_tree_prefix_sums(block, eps_tree, rng,
# horizon=2**k - 1)`, which gives it $k$ levels.


# %%
def hybrid_release(stream, epsilon, rng):
    # BEGIN SOLUTION
    stream = np.asarray(stream, dtype=float)
    n = stream.size
    out = np.empty(n)
    log_release, done, k = 0.0, 0, 0
    while 2**k <= n:
        # logarithmic release at t = 2^k:
        # previous release + items since + noise
        t0 = 2**k
        log_release += stream[done:t0].sum() + rng.laplace(0.0, 2 / epsilon)
        out[t0 - 1] = log_release
        block = stream[t0 : min(2 * t0 - 1, n)]  # items 2^k < t < 2^(k+1)
        if block.size:
            out[t0 : t0 + block.size] = log_release + binary_tree_prefix_sums(
                block, epsilon / 2, rng, horizon=t0 - 1
            )
        done, k = t0, k + 1
    return out
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_release_public(hybrid_release):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    # the lab tells students to use binary_tree_prefix_sums
    with hidden_test(
        allow=("privbandits.mechanisms.binary_tree_prefix_sums",)
    ):
        import numpy as np

        stream = np.random.default_rng(0).random(20)
        out = hybrid_release(
            stream, 1e9, np.random.default_rng(1)
        )  # (almost) no noise
        assert np.shape(out) == (20,), (
            f"a stream of 20 items gives releases of shape {np.shape(out)}, "
            "not (20,)"
        )
        assert np.allclose(out, np.cumsum(stream), atol=1e-6), (
            "without noise the releases are the prefix sums"
        )


test_release_public(hybrid_release)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To think about.** Tossou and Dimitrakakis give $\eps$ to *each* part. Which privacy level does
# that counter have, and what does it do to the confidence bonus of DP-UCB-BOUND?
