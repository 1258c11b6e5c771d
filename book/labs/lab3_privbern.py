# %% [markdown]
# # Lab 3: PrivBern and its debiasing
#
# *Part III, {doc}`../part3_thresholding/thresholding`. Prerequisites: local differential privacy,
# randomized response ({doc}`../foundations/privacy`) and the Bernoulli mechanism PrivBern of
# Part III.*

# %% [markdown] tags=["book-only"]
# :::{lab-notebook}
# :::

# %% [markdown]
# Under local privacy each reward $r \in [0, 1]$ leaves the user as one bit, drawn
# $\mathrm{Bernoulli}\big((r e^\eps + 1 - r)/(1 + e^\eps)\big)$. The bits are $\eps$-LDP, but their
# mean is not the mean reward: it is pulled towards $1/2$. In this lab you write the mechanism and
# the estimator that undoes the pull. The autograder checks your formulas against the package
# (`privbandits.mechanisms.privbern_mean`) and runs the book's privacy auditor on your release.
#
# Fill in every `...`, run the notebook top to bottom, and run each `grader.check` cell.
# Write each function yourself: while the grading runs your answers, a call of any function of
# `privbandits` fails the check, and so does a check that runs longer than two minutes.
# A question about a private release scores all its points or none: a release that fails one
# of its checks is not private, or not the release asked for.

# %% [raw]
# # ASSIGNMENT CONFIG
# name: lab3_privbern
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
# name: q1_release
# points: [0, 2, 1]
# all_or_nothing: true

# %% [markdown]
# **Question 1.** Write `privbern_release(rewards, epsilon, rng)`: one PrivBern bit (0 or 1, an
# integer array of the shape of `rewards`) per reward, drawn with `rng`.


# %%
def privbern_release(rewards, epsilon, rng):
    # BEGIN SOLUTION
    r = np.asarray(rewards, dtype=float)
    p = (r * np.exp(epsilon) + 1 - r) / (1 + np.exp(epsilon))
    return (rng.random(r.shape) < p).astype(np.int64)
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_release_public(privbern_release):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import numpy as np

        bits = privbern_release(
            np.array([0.0, 0.5, 1.0]), 1.0, np.random.default_rng(0)
        )
        assert np.shape(bits) == (3,) and set(np.unique(bits)) <= {0, 1}, (
            f"three rewards give {bits!r}, not three bits 0 or 1"
        )


test_release_public(privbern_release)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2_debias
# points: [0, 1, 2]

# %% [markdown]
# **Question 2.** The mean of the bits of an arm of mean $\mu$ is
# $\frac12 + (2\mu - 1)\frac{e^\eps - 1}{2(e^\eps + 1)}$. Write `debias(bit_mean, epsilon)`: the
# unbiased estimate of $\mu$ from the mean of the bits (an array or a float).


# %%
def debias(bit_mean, epsilon):
    # BEGIN SOLUTION
    factor = (np.exp(epsilon) - 1) / (np.exp(epsilon) + 1)
    return 0.5 + (np.asarray(bit_mean, dtype=float) - 0.5) / factor
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_debias_public(debias):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        got = float(debias(0.5, 1.0))
        assert math.isclose(got, 0.5), f"debias(0.5, 1.0) is {got}, not 0.5"


test_debias_public(debias)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To use it.** How much larger is the standard deviation of the debiased estimate than that of the
# mean of $n$ raw rewards, at $\eps = 1$ and $\mu = 1/2$?

# %%
rng = np.random.default_rng(0)
raw = rng.random((2_000, 500)) < 0.5
bits = privbern_release(np.full((2_000, 500), 0.5), 1.0, rng)
private = debias(bits.mean(axis=1), 1.0)
round(float(np.std(private) / np.std(raw.mean(axis=1))), 2)
