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


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_scale_grid(laplace_scale):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        for sensitivity in (0.1, 1.0, 3.0):
            for epsilon in (0.05, 0.5, 1.0, 4.0):
                got = laplace_scale(sensitivity, epsilon)
                assert math.isclose(got, sensitivity / epsilon, rel_tol=1e-12), (
                    f"laplace_scale({sensitivity}, {epsilon}) returns {got}, which is"
                    " not the smallest scale that makes the release epsilon-DP"
                )


test_scale_grid(laplace_scale)

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


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_release_noise_law(laplace_release):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # The noise is Lap(sensitivity / epsilon): Kolmogorov-Smirnov test of 20,000
        # draws at a fixed seed; a correct release fails with probability 1e-4 (over
        # the seed).
        import numpy as np
        from scipy import stats

        noise = (
            laplace_release(
                np.full(20_000, 5.0), 2.0, 0.5, np.random.default_rng(seed(1))
            )
            - 5.0
        )
        assert stats.kstest(noise, stats.laplace(scale=4.0).cdf).pvalue > 1e-4, (
            "the noise is not Lap(sensitivity/epsilon)"
        )


test_release_noise_law(laplace_release)


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_release_audit(laplace_release):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # The book's auditor (privbandits.audit) on the neighbouring values 0 and 1
        # (sensitivity 1), claim eps = 1. A violation is reported with probability
        # <= alpha = 1e-3 for any 1-DP release; a release with half the noise (true
        # loss 2) is caught at this sample size. A release that ignores the value is
        # private but useless: first the mean releases of 1 and 0 must differ by 1
        # +- 0.03 (200,000 draws each: 6.7 standard errors, a correct release fails
        # with probability < 1e-10).
        import numpy as np
        from privbandits.audit import audit

        rng = np.random.default_rng(seed(8))
        shift = np.mean(
            laplace_release(np.ones(200_000), 1.0, 1.0, rng)
            - laplace_release(np.zeros(200_000), 1.0, 1.0, rng)
        )
        assert abs(shift - 1.0) < 0.03, (
            f"the releases of 1 and 0 differ by {shift:.3f} on average, not 1"
        )

        def sampler(x, rng, n):
            return laplace_release(np.full(n, float(x)), 1.0, 1.0, rng)

        result = audit(
            sampler,
            [(0.0, 1.0)],
            epsilon=1.0,
            n_samples=200_000,
            alpha=1e-3,
            seed=seed(7),
            n_jobs=1,
        )
        assert not result.violation, (
            f"the auditor found a privacy violation: {result.verdict}"
        )


test_release_audit(laplace_release)

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To think about.** The package's `privbandits.mechanisms.laplace_mechanism` is the same
# release. How many times the noise scale does the binary-tree counter of the privacy chapter give
# each of its noisy partial sums, and why?
