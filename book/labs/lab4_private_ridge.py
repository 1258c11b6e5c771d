# %% [markdown]
# # Lab 4: noise calibration and a private ridge-regression step
#
# *Part IV, {doc}`../part4_fair_hiring/fair_hiring`. Prerequisites: the Gaussian mechanism and
# $(\eps, \delta)$-DP ({doc}`../foundations/privacy`), least squares, and the sections "The
# algorithm" and "The privacy budget" of the fair-hiring chapter (the tree-based private
# regression).*

# %% [markdown] tags=["book-only"]
# :::{lab-notebook}
# :::

# %% [markdown]
# Private-Fair-Greedy estimates its score vector $\hat\theta$ by ridge regression on noisy sufficient
# statistics: a binary tree releases noisy prefix sums $M = \sum_s v_s v_s^\top + \text{noise}$ of
# the leaves $v_s = [x_s, y_s]$, and $\hat\theta$ solves the noisy normal equations, with the Gram
# matrix shifted by $2\Gamma I$ to keep it positive definite. You write the Gaussian calibration,
# the tree's node noise as printed, and the regression step; the autograder compares them with the
# package (`privbandits.mechanisms`, `privbandits.policies.fair_hiring.calibration`) and runs the
# book's privacy auditor on your Gaussian release.
#
# Fill in every `...`, run the notebook top to bottom, and run each `grader.check` cell.
# Write each function yourself: while the grading runs your answers, a call of any function of
# `privbandits` fails the check, and so does a check that runs longer than two minutes.
# A question about a private release scores all its points or none: a release that fails one
# of its checks is not private, or not the release asked for.

# %% [raw]
# # ASSIGNMENT CONFIG
# name: lab4_private_ridge
# init_cell: true
# check_all_cell: false
# export_cell: false
# strip_solutions_from_all_cells: true
# run_tests: true
# tests:
#   ok_format: false

# %%
import math

import numpy as np

# %% [raw]
# # BEGIN QUESTION
# name: q1_gaussian
# points: [0, 2, 1]
# all_or_nothing: true

# %% [markdown]
# **Question 1.** Write `gaussian_sigma(sensitivity, epsilon, delta)`: the classical calibration of
# the Gaussian mechanism, the standard deviation that makes the release of a query of $L_2$
# sensitivity `sensitivity` $(\eps, \delta)$-DP for $\eps < 1$. The book does not state it; it is
# Dwork and Roth's Theorem A.1: for $\eps \in (0, 1)$, adding $\mathcal N(0, \sigma^2)$ with
# $\sigma \ge c\,\Delta/\eps$ and $c^2 \ge 2\ln(1.25/\delta)$ is $(\eps, \delta)$-DP. Return the
# smallest such $\sigma$. (The privacy chapter's zCDP route, through $\rho$, gives another valid
# $\sigma$; this question asks for the classical one, which Part IV's paper uses.)


# %%
def gaussian_sigma(sensitivity, epsilon, delta):
    # BEGIN SOLUTION
    return sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_sigma_public(gaussian_sigma):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        got = gaussian_sigma(1.0, 0.5, 1e-5)
        assert got > 0, (
            f"gaussian_sigma(1.0, 0.5, 1e-5) is {got}, not positive")


test_sigma_public(gaussian_sigma)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2_tree_sigma
# points: [0, 2]

# %% [markdown]
# **Question 2.** Write `tree_sigma(epsilon_reg, delta_reg, horizon, l_tilde)`: the node noise of
# the paper's Section 4.1 as printed (the chapter's "The privacy budget"), $\sigma_{\rm noise} = \sqrt{16\, m\, \tilde L^4 \ln(4/\delta)^2/\eps^2}$
# with $m = 1 + \lceil \log_2(T/2) \rceil$ nodes per prefix sum (at least 1, for $T \le 2$).


# %%
def tree_sigma(epsilon_reg, delta_reg, horizon, l_tilde):
    # BEGIN SOLUTION
    m = 1 + max(0, math.ceil(math.log2(max(horizon / 2, 1))))
    return math.sqrt(
        16 * m * l_tilde**4 * math.log(4 / delta_reg) ** 2 / epsilon_reg**2
    )
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_tree_sigma_public(tree_sigma):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        got = tree_sigma(1.0, 0.1, 1000, 1.0)
        assert got > 0, (
            f"tree_sigma(1.0, 0.1, 1000, 1.0) is {got}, not positive")


test_tree_sigma_public(tree_sigma)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q3_ridge
# points: [0, 3]

# %% [markdown]
# **Question 3.** Write `private_theta(M, gamma)`: given the tree's noisy prefix sum `M`, a
# $(d+1) \times (d+1)$ symmetric matrix whose top-left $d \times d$ block is the noisy Gram matrix
# $\sum_s x_s x_s^\top$ and whose last column holds $\sum_s y_s x_s$ in its first $d$ entries, return
# $\hat\theta$, the solution of the normal equations with the Gram matrix shifted by $2\Gamma I$
# (`gamma` is $\Gamma$).


# %%
def private_theta(M, gamma):
    # BEGIN SOLUTION
    M = np.asarray(M, dtype=float)
    d = M.shape[0] - 1
    return np.linalg.solve(M[:d, :d] + 2 * gamma * np.eye(d), M[:d, d])
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_theta_public(private_theta):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import numpy as np

        M = np.array([[2.0, 0.0, 2.0], [0.0, 4.0, 2.0], [2.0, 2.0, 3.0]])
        got = private_theta(M, 0.0)
        assert np.allclose(got, [1.0, 0.5]), (
            f"the estimate is {got!r}, not [1.0, 0.5]")


test_theta_public(private_theta)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To use it.** At $T = 500{,}000$ with $\eps_{\rm reg} = 1$, $\delta_{\rm reg} = 10^{-3}$ and
# $\tilde L = 1$, how large is the node noise, compared with a Gram matrix of 1,000 unit-norm
# contexts?

# %%
round(tree_sigma(1.0, 1e-3, 500_000, 1.0), 1)
