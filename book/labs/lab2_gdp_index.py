# %% [markdown]
# # Lab 2: GDP-NCB's Phase I test and its index (Eq. 4)
#
# *Part II, {doc}`../part2_dp_ncb/dp_ncb`. Prerequisites: the Nash confidence bound NCB (Eq. 3)
# and Algorithm 1 (GDP-NCB) of that chapter.*

# %% [markdown] tags=["book-only"]
# :::{lab-notebook}
# :::

# %% [markdown]
# GDP-NCB explores uniformly (Phase I) until some arm's private reward sum $N_{1,i}\tilde\mu_i$
# passes a threshold, then plays, in episodes, the arm with the largest private Nash confidence
# bound. You write both formulas as this lab prints them; the autograder compares them with the
# package's implementation (`privbandits.policies.dp_ncb`) on a grid of inputs. For Eq. (4) that is
# the form of the paper's full version, which the package implements: the chapter's algorithm box
# prints the conference version's last term, $4\sqrt{(2\alpha/\eps)(\log T)^{3/2}/n_i}$, a
# different number (the chapter's closing notes compare the two versions).
#
# Fill in every `...`, run the notebook top to bottom, and run each `grader.check` cell.
# Write each function yourself: while the grading runs your answers, a call of any function of
# `privbandits` fails the check, and so does a check that runs longer than two minutes.

# %% [raw]
# # ASSIGNMENT CONFIG
# name: lab2_gdp_index
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
# name: q1_threshold
# points: [0, 2]

# %% [markdown]
# **Question 1.** Write `phase1_threshold(horizon, epsilon, c=3.0, constant=1600.0)`: the right-hand
# side of Algorithm 1, line 2, $C\,(c^2 \log T + (\log T)^2/\eps)$ (natural logarithm), with
# `epsilon = math.inf` dropping the privacy term.


# %%
def phase1_threshold(horizon, epsilon, c=3.0, constant=1600.0):
    # BEGIN SOLUTION
    log_t = math.log(horizon)
    return constant * (c * c * log_t + log_t * log_t / epsilon)
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_threshold_public(phase1_threshold):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        got = phase1_threshold(math.e, math.inf, c=1.0, constant=1.0)
        assert math.isclose(got, 1.0), (
            f"phase1_threshold(e, inf, c=1, constant=1) is {got}, not 1"
        )


test_threshold_public(phase1_threshold)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2_index
# points: [0, 4]

# %% [markdown]
# **Question 2.** Write `gdp_index(mu_tilde, n, log_t, epsilon, c, alpha)`, the index
# $\mathrm{NCB}_{\rm GDP}(i, t)$ of Eq. (4):
#
# $$\tilde\mu_i + 2c\sqrt{\frac{2\tilde\mu_i \log T}{n_i}} + \frac{\alpha (\log T)^2}{\eps\, n_i}
#   + \frac{4\sqrt{2\alpha/\eps}\,(\log T)^{3/2}}{n_i},$$
#
# where `log_t` is $\log T$ ($T$ the horizon the algorithm is told) and `mu_tilde` $\ge 0$ is the
# arm's private (clipped) mean. At `epsilon = math.inf` the two privacy terms vanish.


# %%
def gdp_index(mu_tilde, n, log_t, epsilon, c, alpha):
    # BEGIN SOLUTION
    index = mu_tilde + 2 * c * math.sqrt(2 * mu_tilde * log_t / n)
    if math.isfinite(epsilon):
        index += (
            alpha * log_t**2 / (epsilon * n)
            + 4 * math.sqrt(2 * alpha / epsilon) * log_t**1.5 / n
        )
    return index
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_index_public(gdp_index):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        got = gdp_index(0.5, 4.0, 2.0, math.inf, 1.0, 1.0)
        assert math.isclose(got, 0.5 + 2 * math.sqrt(0.5)), (
            f"gdp_index(0.5, 4, 2, inf, 1, 1) is {got}, not 0.5 + 2 sqrt(1/2)"
        )


test_index_public(gdp_index)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To use it.** With $T = 10^6$, $\eps = 0.2$, $c = 3$, $\alpha = 3.1$: after how many pulls does
# the privacy part of the index (its last two terms) fall below the Nash confidence term for an arm
# of private mean 0.6?

# %%
log_t = math.log(10**6)
pulls = np.unique(np.geomspace(1, 10**6, 200).astype(int)).astype(float)
no_privacy = [gdp_index(0.6, n, log_t, math.inf, 3.0, 3.1) for n in pulls]
private = [gdp_index(0.6, n, log_t, 0.2, 3.0, 3.1) for n in pulls]
privacy = np.subtract(private, no_privacy)  # the index's last two terms
confidence = np.subtract(no_privacy, 0.6)  # the Nash confidence term
below = privacy < confidence
int(pulls[np.argmax(below)]) if below.any() else None
