"""Hidden tests of lab3_privbern (book/labs/lab3_privbern.py): instructors only.

``tools/labs.py`` adds each cell below to the question it names (``# %% question=<name>``), after
that question's public tests, before ``otter assign``: the autograder zip carries them, and nothing
public does (the site, its search index and sources archive, the student edition; checked by
``tests/test_labs.py::test_public_edition_ships_no_hidden_test``).
"""


# %% question=q1_release
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_release_frequency(privbern_release):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
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


# %% question=q1_release
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_release_audit(privbern_release):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
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

# %% question=q2_debias
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_debias_inverts_privbern(debias):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
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


# %% question=q2_debias
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_debias_unbiased(debias):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
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
