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

# %% question=q3_replay
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_replay_plays_the_policys_run(replay):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    # the question tells students to use the agent
    with hidden_test(
        allow=(
            "privbandits.policies.base.Policy.agent",
            "privbandits.policies.base.Agent.choose",
            "privbandits.policies.base.Agent.update",
            "privbandits.policies.base.Agent.records",
            "privbandits.policies.base.Agent.guarantee",
        )
    ) as seed:
        # The arms equal those of the policy's own run on the log as a reward table (the
        # kernel the agent steps through, so bit for bit), for five policies (private or not,
        # randomised or not), a log of 0/1 rewards and one of real rewards, two term seeds
        # (exact: a correct replay never fails, whatever the seeds); a wrong answer is told
        # which kind of mistake its arms show.
        import numpy as np

        from privbandits import bernoulli_instance
        from privbandits.policies import DPUCB, LDPUCB, UCB, GaussianTS, PrivateUCB

        def policy_arms(policy, log, s):
            n_rounds, n_arms = log.shape
            table = bernoulli_instance(np.full(n_arms, 0.5)).with_table(log)
            return policy.run(table, n_rounds, np.random.default_rng(s))["arms"]

        def replayed(policy, log, s, where):
            try:
                return np.asarray(replay(policy, log.copy(), s))
            except (IndexError, ValueError, RuntimeError, TypeError) as exc:
                said = f"{type(exc).__name__}: {exc}"
                hint = ""
                if isinstance(exc, IndexError) or "horizon" in said or "n_arms" in said:
                    hint = (
                        " (the log has one row per round and one column per arm: the"
                        " reward of arm a in round t is log[t, a])"
                    )
                elif isinstance(exc, ValueError) and "reward" in said:
                    hint = " (update takes one number: the reward of the arm chosen this round)"
                raise AssertionError(f"replay of {where} raised {said}{hint}") from None

        def check(policy, log, s, other):
            n_rounds, n_arms = log.shape
            where = f"{policy.label} on a log of {n_rounds} rounds and {n_arms} arms"
            expected = policy_arms(policy, log, s)
            got = replayed(policy, log, s, where)
            assert got.shape == (n_rounds,), (
                f"replay of {where} returns arms of shape {got.shape}, not"
                f" ({n_rounds},): one arm per round, in order"
            )
            if np.array_equal(got, expected):
                return
            first = policy.agent(n_arms, n_rounds, s).choose()
            assert not np.all(got == first), (
                f"replay of {where} plays arm {first} in every round, a new agent's"
                " first choice: make the agent once, before the loop over the rounds"
            )
            assert np.array_equal(replayed(policy, log, s, where), got), (
                f"replay of {where} plays other arms when called again with the same"
                " seed: make the agent with the seed given, policy.agent(K, T, seed),"
                " so that all its randomness comes from that seed"
            )
            if not np.array_equal(policy_arms(policy, log, other), expected):
                assert not np.array_equal(replayed(policy, log, other, where), got), (
                    f"replay of {where} plays the same arms for two different seeds:"
                    " make the agent with the seed given, policy.agent(K, T, seed)"
                )
            assert not np.array_equal(got, policy_arms(policy, np.roll(log, 1, axis=0), s)), (
                f"replay of {where} feeds the agent, in round t, the reward of round"
                " t - 1: the reward of the arm chosen in round t is log[t, arm]"
            )
            t = int(np.argmax(got != expected))
            raise AssertionError(
                f"replay of {where} plays the policy's arms up to round {t}, then arm"
                f" {got[t]} where the policy plays arm {expected[t]}: in each round call"
                " choose() once, then update() with log[t, arm], the reward in round t"
                " of the arm chosen"
            )

        rng = np.random.default_rng(seed(36))
        logs = (
            (rng.random((600, 3)) < rng.random(3)).astype(float),
            rng.random((400, 5)) * rng.uniform(0.3, 1.0, 5),
        )
        seeds = (seed(37), seed(38))
        for policy in (UCB(), PrivateUCB(epsilon=1.0), DPUCB(epsilon=0.5), LDPUCB(epsilon=1.0), GaussianTS()):
            for log in logs:
                check(policy, log, seeds[0], seeds[1])
                check(policy, log, seeds[1], seeds[0])


test_replay_plays_the_policys_run(replay)

# %% question=q3_replay
""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_replay_maps_the_ratings(replay):
    try:  # the autograder's rules (tools/lab_guard.py): no package call, feedback in words,
        # a time limit, the term's seeds
        from lab_guard import hidden_test
    except ImportError:  # outside the autograder: no rules, the seeds as written
        from contextlib import nullcontext

        def hidden_test(allow=()):
            return nullcontext(int)

    # the question tells students to use the agent
    with hidden_test(
        allow=(
            "privbandits.policies.base.Policy.agent",
            "privbandits.policies.base.Agent.choose",
            "privbandits.policies.base.Agent.update",
            "privbandits.policies.base.Agent.records",
            "privbandits.policies.base.Agent.guarantee",
        )
    ) as seed:
        # Ratings from 1 to 5 stars in halves, and scores from -1 to 1 in quarters, replayed with
        # their low and high: the arms of the policy's run on the ratings mapped onto [0, 1]
        # (exact in floating point however the map is written: the values are dyadic; so a
        # correct replay never fails, whatever the seeds).
        import numpy as np

        from privbandits import bernoulli_instance
        from privbandits.policies import DPUCB, GaussianTS

        rng = np.random.default_rng(seed(39))
        cases = (
            (rng.integers(2, 11, (500, 4)) / 2, 1.0, 5.0),
            (rng.integers(-4, 5, (400, 3)) / 4, -1.0, 1.0),
        )
        for policy in (DPUCB(epsilon=0.5), GaussianTS()):
            for log, low, high in cases:
                n_rounds, n_arms = log.shape
                s = seed(40)
                mapped = bernoulli_instance(np.full(n_arms, 0.5)).with_table((log - low) / (high - low))
                expected = policy.run(mapped, n_rounds, np.random.default_rng(s))["arms"]
                where = f"{policy.label} on ratings from {low:g} to {high:g}"
                try:
                    got = np.asarray(replay(policy, log.copy(), s, low=low, high=high))
                except ValueError as exc:
                    if "reward" not in str(exc):
                        raise
                    raise AssertionError(
                        f"replay of {where} passes the agent a reward outside [0, 1]"
                        f" ({exc}): map each rating r onto [0, 1], (r - low) / (high - low)"
                    ) from None
                except TypeError as exc:
                    raise AssertionError(
                        f"replay of {where} raised TypeError: {exc} (replay takes the"
                        " ratings' range as its arguments low and high)"
                    ) from None
                assert got.shape == (n_rounds,), (
                    f"replay of {where} returns arms of shape {got.shape}, not ({n_rounds},)"
                )
                assert np.array_equal(got, expected), (
                    f"replay of {where} does not play the arms the policy plays on the"
                    " ratings mapped onto [0, 1] by (r - low) / (high - low) (from round"
                    f" {int(np.argmax(got != expected))} on)"
                )


test_replay_maps_the_ratings(replay)
