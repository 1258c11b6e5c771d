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


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_locked_in_matches_package(locked_in_fraction):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # Against the package's tail_summary on random regrets around the two
        # thresholds, several gap sets (uneven gaps, several best arms) and
        # horizons, and on points where no run has learned.
        import math

        import numpy as np

        from privbandits import bernoulli_instance
        from privbandits.frontier import tail_summary

        rng = np.random.default_rng(seed(6))
        for means in ([0.5, 0.4], [0.9, 0.9, 0.6, 0.85], [0.3, 0.2, 0.25, 0.1]):
            instance = bernoulli_instance(means)
            for horizon in (1_000, 10**5):
                threshold = horizon * instance.gaps[instance.gaps > 0].min() / 2
                for finals in (
                    rng.uniform(0.0, 2.0 * threshold, 50),
                    rng.uniform(0.6 * threshold, 2.0 * threshold, 50),
                    np.r_[threshold, threshold / 2, np.full(5, 0.99 * threshold)],
                ):
                    expected = tail_summary(finals, instance, horizon).locked_in
                    got = locked_in_fraction(finals, instance.gaps, horizon)
                    assert math.isclose(got, expected, abs_tol=1e-12), (
                        f"for the means {means} at horizon {horizon} your"
                        f" locked_in_fraction is {got}, which is not the fraction"
                        " of runs locked in"
                    )


test_locked_in_matches_package(locked_in_fraction)

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


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_winners_match_package(winners):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        from privbandits.frontier import ranking

        cases = [
            {"A": 3.0, "B": 1.0, "C": 1.0 + 5e-10, "D": math.nan},
            {"A": 100.0, "B": 100.0 * (1 + 2e-9), "C": 250.0},
            {"A": math.nan, "B": 7.0},
            {"A": 0.0, "B": 0.0, "C": 1e-300},
        ]
        for regrets in cases:
            expected = ranking(regrets)[0]
            got = winners(regrets)
            assert list(got) == expected, (
                f"for the regrets {regrets} your winners are {list(got)}, which"
                " are not the arms tied at the lowest finite regret"
            )


test_winners_match_package(winners)

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To think about.** A point where every run has regret $0.8\,T\Delta_{\min}$ gets a lock-in
# fraction of 0, and a point where half the runs have regret $0.1\,T\Delta_{\min}$ and half
# $0.8\,T\Delta_{\min}$ gets 1/2. Why does the chapter count the second and not the first, and what
# would the mean regret alone say about the two points?
