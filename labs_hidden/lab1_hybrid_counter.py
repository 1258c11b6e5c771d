"""Hidden tests of lab1_hybrid_counter (book/labs/lab1_hybrid_counter.py): instructors only.

``tools/labs.py`` adds each cell below to the question it names (``# %% question=<name>``), after
that question's public tests, before ``otter assign``: the autograder zip carries them, and nothing
public does (the site, its search index and sources archive, the student edition; checked by
``tests/test_labs.py::test_public_edition_ships_no_hidden_test``).
"""


# %% question=q1_scales
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_scales_values(hybrid_scales):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        for k in (1, 2, 5):
            for epsilon in (0.5, 1.0, 2.0):
                log_scale, tree_scale = hybrid_scales(k, epsilon)
                assert math.isclose(log_scale, 2 / epsilon), (
                    f"hybrid_scales({k}, {epsilon}) gives the logarithmic release the"
                    f" scale {log_scale}, not that of half the budget"
                )
                assert math.isclose(tree_scale, 2 * k / epsilon), (
                    f"hybrid_scales({k}, {epsilon}) gives each tree node the scale"
                    f" {tree_scale}, not that of half the budget over {k} levels"
                )


test_scales_values(hybrid_scales)

# %% question=q2_release
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_release_matches_package(hybrid_release):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    # the lab tells students to use binary_tree_prefix_sums
    with hidden_test(
        allow=("privbandits.mechanisms.binary_tree_prefix_sums",)
    ) as seed:
        # Same law as the package's hybrid_prefix_sums (the eps-DP hybrid counter):
        # a two-sample Kolmogorov-Smirnov test at each t = 1..10 on 3,000 releases
        # each, fixed seeds. A correct release fails with probability <= 10 * 1e-4
        # (Bonferroni); giving eps (not eps/2) to each part halves the noise and is
        # rejected. The stream ends inside block k = 3 (items 9 and 10 of 9..15): a
        # tree sized by the block's length (2 levels) instead of horizon 2^k - 1 (3
        # levels) has too little noise there and is rejected.
        import numpy as np
        from scipy import stats

        from privbandits.mechanisms import hybrid_prefix_sums

        stream = np.array([1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0])
        rng = np.random.default_rng(seed(3))
        mine = np.array(
            [hybrid_release(stream, 1.0, rng) for _ in range(3_000)]
        )
        package = hybrid_prefix_sums(
            stream, 1.0, np.random.default_rng(seed(4)), runs=3_000
        )
        for t in range(stream.size):
            p = stats.ks_2samp(mine[:, t], package[:, t]).pvalue
            assert p > 1e-4, (
                f"the release at t = {t + 1} does not have the hybrid counter's law"
                f" (p = {p:.1e})"
            )


test_release_matches_package(hybrid_release)
