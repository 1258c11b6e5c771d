# %% [markdown]
# # Lab 5: an AboveThreshold stopping rule
#
# *Part V, {doc}`../part5_audit/audit` and {doc}`../part5_audit/repair`. Prerequisites: the
# Laplace mechanism, sequential composition, and Part V's repair of GDP-NCB's Phase I.*

# %% [markdown] tags=["book-only"]
# :::{lab-notebook}
# :::

# %% [markdown]
# Part V shows that GDP-NCB's Phase I stopping time leaks the rewards, and repairs it with the
# sparse vector technique: AboveThreshold (Dwork and Roth 2014, Algorithm 1) answers a stream of
# sensitivity-1 queries $q_1, q_2, \ldots$ against a threshold $\tau$. It draws a noisy threshold
# $\hat\tau = \tau + \mathrm{Lap}(2/\eps)$ once, and stops at the first $t$ with
# $q_t + \mathrm{Lap}(4/\eps) \ge \hat\tau$ (fresh noise for each query). Whatever the number of
# queries, the stopping time is $\eps$-DP. The repaired GDP-NCB
# (`GDPNCB(phase1_rule="sparse_vector")`) runs exactly this rule on $q_t = \max_i N_{1,i}\hat\mu_i$
# with `eps_stop` of `privbandits.policies.dp_ncb.sparse_vector_budget`.
#
# Fill in every `...`, run the notebook top to bottom, and run each `grader.check` cell.
# Write each function yourself: while the grading runs your answers, a call of any function of
# `privbandits` fails the check, and so does a check that runs longer than two minutes.
# A question about a private release scores all its points or none: a release that fails one
# of its checks is not private, or not the release asked for.

# %% [raw]
# # ASSIGNMENT CONFIG
# name: lab5_above_threshold
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
# name: q1_stop
# points: [0, 3, 1]
# all_or_nothing: true

# %% [markdown]
# **Question 1.** Write `above_threshold(queries, threshold, epsilon, rng)`: the index (0-based) of
# the query at which AboveThreshold stops, or `len(queries)` if it never stops. Draw the threshold
# noise first, then one query noise per query asked, all from `rng` (`rng.laplace`).


# %%
def above_threshold(queries, threshold, epsilon, rng):
    # BEGIN SOLUTION
    noisy_threshold = threshold + rng.laplace(0.0, 2 / epsilon)
    for t, q in enumerate(queries):
        if q + rng.laplace(0.0, 4 / epsilon) >= noisy_threshold:
            return t
    return len(queries)
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_stop_public(above_threshold):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import numpy as np

        queries = np.arange(10.0)
        rng = np.random.default_rng(0)
        got = above_threshold(queries, 4.5, 1e9, rng)  # (almost) no noise
        assert got == 5, (
            f"with (almost) no noise the rule stops at {got}, not 5")
        got = above_threshold(queries, 100.0, 1e9, np.random.default_rng(0))
        assert got == 10, (
            f"below the threshold throughout, the rule returns {got}, not 10")


test_stop_public(above_threshold)


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_stop_law(above_threshold):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
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


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_stop_audit(above_threshold):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
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

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q2_budget
# points: [0, 2]

# %% [markdown]
# **Question 2.** The repaired GDP-NCB spends `sv_fraction` of its $\eps$ on the stopping rule and
# the rest on at most $L = \max(1, \lfloor \log_2 T \rfloor)$ Laplace releases per reward, equally.
# Write `svt_split(horizon, epsilon, sv_fraction)` returning `(eps_stop, eps_per_release)`.


# %%
def svt_split(horizon, epsilon, sv_fraction):
    # BEGIN SOLUTION
    releases = max(1, int(horizon).bit_length() - 1)
    eps_stop = sv_fraction * epsilon
    return eps_stop, (epsilon - eps_stop) / releases
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_split_public(svt_split):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    with hidden_test():
        import math

        eps_stop, eps_release = svt_split(2, 1.0, 0.5)
        assert math.isclose(eps_stop, 0.5) and math.isclose(eps_release, 0.5), (
            f"svt_split(2, 1.0, 0.5) is ({eps_stop}, {eps_release}), "
            "not (0.5, 0.5)"
        )


test_split_public(svt_split)


# %% tags=["hide-input"]
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_split_matches_package(svt_split):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # the book's run: no rules, the seeds as written
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

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To use it.** The median stopping time for 40 queries equal to 0 against the threshold 4 at
# $\eps = 1$:

# %%
rng = np.random.default_rng(0)
float(
    np.median(
        [above_threshold(np.zeros(40), 4.0, 1.0, rng) for _ in range(2_000)]
    )
)
