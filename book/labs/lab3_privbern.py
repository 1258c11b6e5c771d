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


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_release_frequency(privbern_release):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # The frequency of 1s for reward r is privbern_mean(r, eps): a two-sided
        # binomial test on 100,000 bits per reward at a fixed seed; a correct
        # release fails with probability <= 3 * 1e-4 (three rewards, Bonferroni).
        import numpy as np
        from scipy import stats

        from privbandits.mechanisms import privbern_mean

        rng = np.random.default_rng(seed(5))
        for r in (0.0, 0.3, 1.0):
            bits = privbern_release(np.full(100_000, r), 1.0, rng)
            p = stats.binomtest(
                int(bits.sum()), bits.size, privbern_mean(r, 1.0)
            ).pvalue
            assert p > 1e-4, (
                f"reward {r}: the frequency of 1s is not PrivBern's (p = {p:.1e})"
            )


test_release_frequency(privbern_release)


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_release_audit(privbern_release):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # The book's auditor on the rewards 0 and 1, claim eps = 1: a violation is
        # reported with probability <= alpha = 1e-3 for any 1-DP release; a release
        # at 2 eps (noise halved) is caught. A release that ignores the reward is
        # private but useless: first the frequencies of 1s for the rewards 1 and 0
        # must differ by tanh(1/2) +- 0.02 (100,000 bits each: 6.3 standard errors,
        # a correct release fails with probability < 1e-9).
        import numpy as np

        from privbandits.audit import audit

        rng = np.random.default_rng(seed(6))
        gap = np.mean(privbern_release(np.ones(100_000), 1.0, rng)) - np.mean(
            privbern_release(np.zeros(100_000), 1.0, rng)
        )
        assert abs(gap - np.tanh(0.5)) < 0.02, (
            f"the frequencies of 1s for rewards 1 and 0 differ by {gap:.3f}"
        )

        def sampler(x, rng, n):
            return np.asarray(
                privbern_release(np.full(n, float(x)), 1.0, rng), dtype=np.int64
            )

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


test_release_audit(privbern_release)

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


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_debias_inverts_privbern(debias):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import numpy as np

        from privbandits.mechanisms import privbern_mean

        mu = np.linspace(0.0, 1.0, 11)
        for epsilon in (0.1, 0.5, 1.0, 3.0):
            bit_mean = privbern_mean(mu, epsilon)
            estimate = debias(bit_mean, epsilon)
            assert np.allclose(estimate, mu, atol=1e-10), (
                f"at epsilon = {epsilon}, debias of the exact bit means of the arm"
                f" means {np.round(mu, 2).tolist()} gives"
                f" {np.round(np.asarray(estimate, dtype=float), 4).tolist()}, not"
                " those arm means"
            )


test_debias_inverts_privbern(debias)


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_debias_unbiased(debias):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # 4,000 arms of mean 0.95, 200 PrivBern(0.5) bits each (package's
        # mechanism): the mean of the 4,000 estimates is within 4.5 standard errors
        # of 0.95 (fails with probability < 1e-5). Many single estimates exceed 1
        # here, so an estimate clipped to [0, 1] is biased and fails.
        import numpy as np

        from privbandits.mechanisms import privbern

        bits = privbern(np.full((4_000, 200), 0.95), 0.5, np.random.default_rng(seed(9)))
        estimates = np.asarray(debias(bits.mean(axis=1), 0.5))
        se = estimates.std(ddof=1) / np.sqrt(estimates.size)
        assert abs(estimates.mean() - 0.95) < 4.5 * se, (
            f"mean estimate {estimates.mean():.4f}, not 0.95"
        )


test_debias_unbiased(debias)

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
