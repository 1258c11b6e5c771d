"""Hidden tests of lab4_private_ridge (book/labs/lab4_private_ridge.py): instructors only.

``tools/labs.py`` adds each cell below to the question it names (``# %% question=<name>``), after
that question's public tests, before ``otter assign``: the autograder zip carries them, and nothing
public does (the site, its search index and sources archive, the student edition; checked by
``tests/test_labs.py::test_public_edition_ships_no_hidden_test``).
"""


# %% question=q1_gaussian
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_sigma_matches_package(gaussian_sigma):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        from privbandits import mechanisms

        for sensitivity in (0.5, 1.0, 2.0):
            for epsilon in (0.1, 0.5, 0.9):
                for delta in (1e-3, 1e-6):
                    expected = mechanisms.gaussian_sigma(
                        sensitivity, epsilon, delta
                    )
                    got = gaussian_sigma(sensitivity, epsilon, delta)
                    assert math.isclose(got, expected, rel_tol=1e-12), (
                        f"gaussian_sigma({sensitivity}, {epsilon}, {delta}) returns"
                        f" {got}, which is not the classical Gaussian mechanism's sigma"
                    )


test_sigma_matches_package(gaussian_sigma)


# %% question=q1_gaussian
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_sigma_audit(gaussian_sigma):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # The book's auditor on x + N(0, sigma^2) for x in {0, 1} (sensitivity 1),
        # claim (0.9, 1e-3)-DP: a violation is reported with probability <= alpha =
        # 1e-3 for any (0.9, 1e-3)-DP release; half the sigma is caught. A huge
        # sigma is private but useless: the sigma must not exceed the classical one
        # (a comparison, no randomness).
        import math

        from privbandits.audit import audit

        sigma = gaussian_sigma(1.0, 0.9, 1e-3)
        assert sigma <= math.sqrt(2 * math.log(1.25 / 1e-3)) / 0.9 * (1 + 1e-9), (
            f"sigma {sigma} is larger than needed"
        )

        def sampler(x, rng, n):
            return float(x) + rng.normal(0.0, sigma, n)

        result = audit(
            sampler,
            [(0.0, 1.0)],
            epsilon=0.9,
            delta=1e-3,
            n_samples=400_000,
            alpha=1e-3,
            seed=seed(11),
            n_jobs=1,
        )
        assert not result.violation, (
            f"the auditor found a privacy violation: {result.verdict}"
        )


test_sigma_audit(gaussian_sigma)

# %% question=q2_tree_sigma
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_tree_sigma_matches_package(tree_sigma):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        from privbandits.policies.fair_hiring import calibration

        for horizon in (1, 2, 3, 1000, 500_000):
            for epsilon, delta in ((0.5, 1e-3), (2.0, 0.05)):
                expected = calibration.tree_sigma(epsilon, delta, horizon, 1.5)
                got = tree_sigma(epsilon, delta, horizon, 1.5)
                assert math.isclose(got, expected, rel_tol=1e-12), (
                    f"tree_sigma({epsilon}, {delta}, {horizon}, 1.5) returns {got},"
                    " which is not the noise of each node of the tree at that horizon"
                )


test_tree_sigma_matches_package(tree_sigma)

# %% question=q3_ridge
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_theta_from_the_package_tree(private_theta):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # The package's tree mechanism (private_ridge_prefix) gives the prefix sums;
        # without noise and shift the answer is least squares, and with a shift it
        # solves (X^T X + 2 Gamma I) theta = X^T y.
        import numpy as np

        from privbandits.policies.fair_hiring.tree import private_ridge_prefix

        rng = np.random.default_rng(seed(2))
        x = rng.normal(size=(200, 3))
        y = x @ np.array([0.5, -1.0, 2.0]) + 0.1 * rng.normal(size=200)
        rows = np.column_stack([x, y])
        exact = private_ridge_prefix(rows, 0.0, rng)[-1]
        got = [private_theta(exact, 0.0), private_theta(exact, 5.0)]
        assert np.allclose(got[0], np.linalg.lstsq(x, y, rcond=None)[0]), (
            f"with exact sums and gamma = 0 your estimate {np.round(got[0], 4)}"
            " is not the least-squares solution"
        )
        shifted = np.linalg.solve(x.T @ x + 2 * 5.0 * np.eye(3), x.T @ y)
        assert np.allclose(got[1], shifted), (
            f"with exact sums and gamma = 5 your estimate {np.round(got[1], 4)}"
            " does not solve (X^T X + 2 gamma I) theta = X^T y"
        )
        noisy = private_ridge_prefix(rows, 0.5, rng)[-1]
        got = private_theta(noisy, 5.0)
        assert np.allclose(
            got, np.linalg.solve(noisy[:3, :3] + 10.0 * np.eye(3), noisy[:3, 3])
        ), (
            f"with noisy sums and gamma = 5 your estimate {np.round(got, 4)} does"
            " not solve the shifted system of the noisy sums"
        )


test_theta_from_the_package_tree(private_theta)
