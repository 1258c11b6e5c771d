"""Hidden tests of lab2_gdp_index (book/labs/lab2_gdp_index.py): instructors only.

``tools/labs.py`` adds each cell below to the question it names (``# %% question=<name>``), after
that question's public tests, before ``otter assign``: the autograder zip carries them, and nothing
public does (the site, its search index and sources archive, the student edition; checked by
``tests/test_labs.py::test_public_edition_ships_no_hidden_test``).
"""


# %% question=q1_threshold
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_threshold_matches_package(phase1_threshold):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        from privbandits.policies.dp_ncb import phase1_threshold_gdp

        for horizon in (10, 10**4, 10**7):
            for epsilon in (0.1, 0.2, 1.0, math.inf):
                for c, constant in ((3.0, 1600.0), (1.0, 1.0)):
                    expected = phase1_threshold_gdp(horizon, epsilon, c, constant)
                    got = phase1_threshold(
                        horizon, epsilon, c=c, constant=constant
                    )
                    assert math.isclose(got, expected, rel_tol=1e-12), (
                        f"phase1_threshold({horizon}, {epsilon}, c={c},"
                        f" constant={constant}) returns {got}, which is not the"
                        " phase-1 threshold of the question"
                    )


test_threshold_matches_package(phase1_threshold)

# %% question=q2_index
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_index_matches_package(gdp_index):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        from privbandits.policies import dp_ncb

        for mu in (0.0, 0.1, 0.6, 1.0):
            for n in (1.0, 7.0, 1e4):
                for log_t in (math.log(100), math.log(1e6)):
                    for epsilon in (0.05, 0.2, 1.0, math.inf):
                        expected = dp_ncb.gdp_index(mu, n, log_t, epsilon, 3.0, 3.1)
                        got = gdp_index(mu, n, log_t, epsilon, 3.0, 3.1)
                        assert math.isclose(got, expected, rel_tol=1e-12), (
                            f"gdp_index({mu}, {n}, {log_t:.4g}, {epsilon}, 3.0, 3.1)"
                            f" returns {got}, which is not the index of Eq. (4)"
                        )


test_index_matches_package(gdp_index)
