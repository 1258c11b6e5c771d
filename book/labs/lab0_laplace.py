# %% [markdown]
# # Lab 0: the Laplace mechanism and its noise scale
#
# *Part 0, {doc}`../foundations/privacy`. Prerequisites: the definition of $\eps$-differential
# privacy and the Laplace mechanism (Theorem "Laplace mechanism" of that chapter).*

# %% [markdown] tags=["book-only"]
# :::{lab-notebook}
# :::

# %% [markdown]
# A query $f$ with $L_1$ sensitivity $\Delta$ is released as $f(D) + \mathrm{Lap}(b)$. In this lab
# you choose the scale $b$ and write the release; the autograder checks the scale, the noise's
# distribution, and runs the book's privacy auditor ({doc}`../part5_audit/audit`) on your release:
# a release with too little noise is caught.
#
# Fill in every `...` below, run the notebook top to bottom, and run each `grader.check` cell.
# Write each function yourself: while the grading runs your answers, a call of any function of
# `privbandits` fails the check, and so does a check that runs longer than two minutes.
# A question about a private release scores all its points or none: a release that fails one
# of its checks is not private, or not the release asked for.

# %% [raw]
# # ASSIGNMENT CONFIG
# name: lab0_laplace
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
# name: q1_scale
# points: [0, 2]

# %% [markdown]
# **Question 1.** Write `laplace_scale(sensitivity, epsilon)`: the scale $b$ of the Laplace noise
# that makes the release of a query of $L_1$ sensitivity `sensitivity` exactly $\eps$-DP (the
# smallest scale the theorem allows).


# %%
def laplace_scale(sensitivity, epsilon):
    # BEGIN SOLUTION
    return sensitivity / epsilon
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_scale_values(laplace_scale):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        assert laplace_scale(1.0, 1.0) == 1.0, (
            f"laplace_scale(1.0, 1.0) is {laplace_scale(1.0, 1.0)}, not 1.0"
        )
        assert laplace_scale(2.0, 0.5) == 4.0, (
            f"laplace_scale(2.0, 0.5) is {laplace_scale(2.0, 0.5)}, not 4.0"
        )


test_scale_values(laplace_scale)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2_release
# points: [0, 2, 2]
# all_or_nothing: true

# %% [markdown]
# **Question 2.** Write `laplace_release(value, sensitivity, epsilon, rng)`: the $\eps$-DP release of
# `value` (a float or an array; independent noise for each entry), drawing the noise from the
# `numpy.random.Generator` `rng` and using your `laplace_scale`. It must return an array of the shape
# of `value` (a float for a float).


# %%
def laplace_release(value, sensitivity, epsilon, rng):
    # BEGIN SOLUTION
    value = np.asarray(value, dtype=float)
    out = value + rng.laplace(
        0.0, laplace_scale(sensitivity, epsilon), size=value.shape
    )
    return float(out) if out.ndim == 0 else out
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_release_shape(laplace_release):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import numpy as np

        rng = np.random.default_rng(0)
        shape = np.shape(laplace_release(np.zeros(5), 1.0, 1.0, rng))
        assert shape == (5,), (
            f"the release of 5 values has the shape {shape}, not (5,)")
        one = laplace_release(3.0, 1.0, 1.0, rng)
        assert np.isfinite(one), f"the release of the float 3.0 is {one!r}"


test_release_shape(laplace_release)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To think about.** The package's `privbandits.mechanisms.laplace_mechanism` is the same
# release. How many times the noise scale does the binary-tree counter of the privacy chapter give
# each of its noisy partial sums, and why?
