# %% [markdown]
# # Lab 6: reading the privacy-regret frontier
#
# *Part VI, {doc}`../part6_frontier/frontier`. Prerequisites: the frontier's lock-in rule and its
# ties ("Heavy tails: DP-UCB-INT locks in" and "Who wins where" in that chapter).*

# %% [markdown] tags=["book-only"]
# :::{lab-notebook}
# :::

# %% [markdown]
# The frontier compares private bandits by their final regrets over many runs. Two rules turn those
# numbers into the chapter's verdicts. A run is **locked in** when its cumulative regret at $T$ is
# at least $T\Delta_{\min}/2$ (linear: on two arms, the best arm in at most half of the rounds),
# $\Delta_{\min}$ the smallest positive gap, *and* some run of the same point has learned, with
# regret below $T\Delta_{\min}/4$; where no run has learned, none counts (that point is slow, not
# heavy-tailed). Two mean regrets **tie** when they differ by at most $10^{-9}$ times the larger.
#
# Fill in every `...`, run the notebook top to bottom, and run each `grader.check` cell.
# Write each function yourself: while the grading runs your answers, a call of any function of
# `privbandits` fails the check, and so does a check that runs longer than two minutes.

# %% [raw]
# # ASSIGNMENT CONFIG
# name: lab6_frontier
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
# name: q1_locked_in
# points: [0, 4]

# %% [markdown]
# **Question 1.** Write `locked_in_fraction(finals, gaps, horizon)`: the fraction of the runs whose
# final regrets are in the 1-D array `finals` that are locked in, on an instance whose arms have the
# gaps `gaps` (an array with at least one positive entry; the best arms have gap 0), at the horizon
# `horizon`.


# %%
def locked_in_fraction(finals, gaps, horizon):
    # BEGIN SOLUTION
    finals = np.asarray(finals, dtype=float)
    gaps = np.asarray(gaps, dtype=float)
    threshold = horizon * gaps[gaps > 0].min() / 2
    if not np.any(finals < threshold / 2):
        return 0.0
    return float(np.mean(finals >= threshold))
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_locked_in_public(locked_in_fraction):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        got = locked_in_fraction([10.0, 600.0], [0.0, 0.1], 10_000)
        assert 0.0 <= got <= 1.0, f"the fraction is {got}, not in [0, 1]"


test_locked_in_public(locked_in_fraction)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2_ranking
# points: [0, 2]

# %% [markdown]
# **Question 2.** Write `winners(regrets)`: given a dict from algorithm names to mean regrets (NaN
# for an algorithm that did not run at that point: leave it out), the list of the algorithms tied
# with the smallest regret, in the order of the dict.


# %%
def winners(regrets):
    # BEGIN SOLUTION
    finite = {name: float(r) for name, r in regrets.items() if np.isfinite(r)}
    low = min(finite.values())
    return [
        name
        for name, r in finite.items()
        if abs(r - low) <= 1e-9 * max(abs(r), abs(low))
    ]
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_winners_public(winners):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        got = winners({"A": 3.0, "B": 1.0})
        assert got == ["B"], f"the winners of A: 3, B: 1 are {got}, not ['B']"


test_winners_public(winners)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To think about.** A point where every run has regret $0.8\,T\Delta_{\min}$ gets a lock-in
# fraction of 0, and a point where half the runs have regret $0.1\,T\Delta_{\min}$ and half
# $0.8\,T\Delta_{\min}$ gets 1/2. Why does the chapter count the second and not the first, and what
# would the mean regret alone say about the two points?
