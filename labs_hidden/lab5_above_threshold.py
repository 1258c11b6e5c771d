"""Hidden tests of lab5_above_threshold (book/labs/lab5_above_threshold.py): instructors only.

``tools/labs.py`` adds each cell below to the question it names (``# %% question=<name>``), after
that question's public tests, before ``otter assign``: the autograder zip carries them, and nothing
public does (the site, its search index and sources archive, the student edition; checked by
``tests/test_labs.py::test_public_edition_ships_no_hidden_test``).
"""


# %% question=q1_stop
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_stop_law(above_threshold):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # The stopping time's law, against the rule with the noise scales 2/eps and
        # 4/eps drawn here: a chi-square test of homogeneity (stops 0..9, and
        # "later") on 20,000 runs of each at fixed seeds; a correct rule fails with
        # probability 1e-4. Half the noise (scales 1/eps, 2/eps) stops much later on
        # these queries and is rejected.
        import numpy as np
        from scipy import stats

        queries, threshold, epsilon = np.zeros(40), 4.0, 1.0
        rng = np.random.default_rng(seed(12))
        mine = np.array(
            [
                above_threshold(queries, threshold, epsilon, rng)
                for _ in range(20_000)
            ]
        )
        rng = np.random.default_rng(seed(13))
        noisy_threshold = threshold + rng.laplace(0.0, 2 / epsilon, 20_000)
        above = (
            queries + rng.laplace(0.0, 4 / epsilon, (20_000, queries.size))
            >= noisy_threshold[:, None]
        )
        reference = np.where(above.any(axis=1), above.argmax(axis=1), queries.size)
        bins = np.r_[np.arange(11), queries.size + 1]
        table = np.array(
            [np.histogram(mine, bins)[0], np.histogram(reference, bins)[0]]
        )
        p = stats.chi2_contingency(table).pvalue
        assert p > 1e-4, (
            f"the stopping time does not have AboveThreshold's law (p = {p:.1e})"
        )


test_stop_law(above_threshold)


# %% question=q1_stop
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_stop_audit(above_threshold):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test() as seed:
        # The book's auditor on the stopping time for a neighbouring pair of query
        # streams (six queries, all 0 or all 1, threshold 0.5: without noise the
        # rule never stops on one and stops at once on the other), claim eps = 1: a
        # violation is reported with probability <= alpha = 1e-3 for any 1-DP rule.
        # It need not catch half the noise (AboveThreshold's analysis is not tight
        # for such streams), so test_stop_law is the test that catches that. A rule
        # that ignores the queries is private but useless: first, on 6 queries 60
        # above the threshold it must stop at the first in at least 180 of 200 runs
        # (a correct rule stops there with probability > 0.9999), and on 6 queries
        # 60 below it must not stop in at least 180 of 200 (the same).
        import numpy as np

        from privbandits.audit import audit

        rng = np.random.default_rng(seed(4))
        first = sum(
            above_threshold(np.full(6, 63.0), 3.0, 1.0, rng) == 0
            for _ in range(200)
        )
        never = sum(
            above_threshold(np.full(6, -57.0), 3.0, 1.0, rng) == 6
            for _ in range(200)
        )
        assert first >= 180 and never >= 180, (
            f"stops at once {first}/200 (far above), never {never}/200 (far below)"
        )

        def sampler(x, rng, n):
            queries = np.zeros(6) + float(x)
            return np.array(
                [above_threshold(queries, 0.5, 1.0, rng) for _ in range(n)],
                dtype=np.int64,
            )

        result = audit(
            sampler,
            [(0.0, 1.0)],
            epsilon=1.0,
            n_samples=20_000,
            alpha=1e-3,
            seed=seed(3),
            n_jobs=1,
        )
        assert not result.violation, (
            f"the auditor found a privacy violation: {result.verdict}"
        )


test_stop_audit(above_threshold)

# %% question=q2_budget
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_split_matches_package(svt_split):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        from privbandits.policies.dp_ncb import sparse_vector_budget

        for horizon in (2, 3, 7, 8, 1000, 10**6, 2**20):
            for epsilon in (0.2, 1.0):
                for fraction in (0.25, 0.5):
                    budget = sparse_vector_budget(horizon, epsilon, fraction)
                    eps_stop, eps_release = svt_split(
                        horizon, epsilon, fraction
                    )
                    assert math.isclose(eps_stop, budget.eps_stop), (
                        f"svt_split({horizon}, {epsilon}, {fraction}) gives the"
                        f" stopping rule {eps_stop}, not its share of the budget"
                    )
                    assert math.isclose(eps_release, budget.eps_per_release), (
                        f"svt_split({horizon}, {epsilon}, {fraction}) gives each"
                        f" release {eps_release}, not the rest of the budget split"
                        " over the releases"
                    )


test_split_matches_package(svt_split)
