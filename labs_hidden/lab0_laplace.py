"""Hidden tests of lab0_laplace (book/labs/lab0_laplace.py): instructors only.

``tools/labs.py`` adds each cell below to the question it names (``# %% question=<name>``), after
that question's public tests, before ``otter assign``: the autograder zip carries them, and nothing
public does (the site, its search index and sources archive, the student edition; checked by
``tests/test_labs.py::test_public_edition_ships_no_hidden_test``).
"""


# %% question=q1_scale
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_scale_grid(laplace_scale):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
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

# %% question=q2_release
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_release_noise_law(laplace_release):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
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


# %% question=q2_release
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_release_audit(laplace_release):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
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
