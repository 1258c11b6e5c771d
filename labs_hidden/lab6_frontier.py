"""Hidden tests of lab6_frontier (book/labs/lab6_frontier.py): instructors only.

``tools/labs.py`` adds each cell below to the question it names (``# %% question=<name>``), after
that question's public tests, before ``otter assign``: the autograder zip carries them, and nothing
public does (the site, its search index and sources archive, the student edition; checked by
``tests/test_labs.py::test_public_edition_ships_no_hidden_test``).
"""


# %% question=q1_locked_in
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_locked_in_matches_package(locked_in_fraction):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
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

# %% question=q2_ranking
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_winners_match_package(winners):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
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
