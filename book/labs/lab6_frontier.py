# %% [markdown]
# # Lab 6: reading the privacy-regret frontier
#
# *Part VI, {doc}`../part6_frontier/frontier`. Prerequisites: the frontier's lock-in rule and its
# ties ("Heavy tails: DP-UCB-INT and DP-TS lock in" and "Who wins where" in that chapter); for Question 3,
# a policy driven one round at a time (its agent: {doc}`../foundations/agents`).*

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
# `privbandits` fails the check (in Question 3, all but the agent's: `policy.agent`, `agent.choose`,
# `agent.update`, `agent.records`, `agent.guarantee`), and so does a check that runs longer than two
# minutes.

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


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [raw]
# # BEGIN QUESTION
# name: q3_replay
# points: [0, 2, 1]

# %% [markdown]
# The frontier's runs draw fresh rewards from a simulated instance. With data of your own, a log that
# holds every arm's reward in every round (the ratings each user gave every item, say), you can
# replay the log to a policy instead, and compare policies on the same rewards. A policy of the
# package can be driven one round at a time by its **agent**: `agent = policy.agent(K, T, seed)` is the
# policy's learner for `K` arms and `T` rounds, with all its randomness, the privacy noise included,
# drawn from the seed; in each round `arm = agent.choose()` is the arm to play (0 to `K - 1`) and
# `agent.update(reward)` tells the agent that arm's reward; `agent.records()["arms"]` holds the arms
# played so far, and `agent.guarantee()` is its privacy guarantee for the whole run. The agent takes
# rewards in $[0, 1]$ only: its guarantee is computed for them (one user's reward moves a sum by at
# most 1).
#
# **Question 3.** Write `replay(policy, log, seed, low=0.0, high=1.0)`: the arms (an array of `T`
# integers, in order) that `policy` plays when its agent, made with the seed `seed`, is fed the log
# `log`, an array of shape `(T, K)` whose entry `log[t, a]` is the reward of arm `a` in round `t`
# (round 0 first). The log's rewards lie in `[low, high]` (star ratings from 1 to 5, for instance):
# feed the agent each reward `r` mapped onto $[0, 1]$, `(r - low) / (high - low)`. Write the loop
# yourself: the agent's methods are the only calls to the package the check allows (`policy.run` on
# the log as a reward table, the shortcut of {doc}`../foundations/agents`, fails it).


# %%
def replay(policy, log, seed, low=0.0, high=1.0):
    # BEGIN SOLUTION
    log = np.asarray(log, dtype=float)
    horizon, n_arms = log.shape
    agent = policy.agent(n_arms, horizon, seed)
    for t in range(horizon):
        arm = agent.choose()
        agent.update((log[t, arm] - low) / (high - low))
    return agent.records()["arms"]
    # END SOLUTION


# %% [raw]
# # BEGIN TESTS


# %%
def test_replay_public(replay):
    try:  # the autograder's time limit and feedback (tools/lab_guard.py)
        from lab_guard import hidden_test
    except ImportError:  # in your notebook and in the book: none
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
    ):
        import numpy as np

        from privbandits import bernoulli_instance
        from privbandits.policies import DPUCB

        policy = DPUCB(epsilon=1.0)
        rng = np.random.default_rng(0)
        log = (rng.random((300, 3)) < [0.2, 0.5, 0.7]).astype(float)
        stars = 1.0 + 4.0 * log  # the same log as ratings: 1 or 5 stars
        table = bernoulli_instance([0.5, 0.5, 0.5]).with_table(log)
        played = policy.run(table, 300, np.random.default_rng(7))["arms"]
        for got, what in (
            (replay(policy, log, 7), "the log"),
            (replay(policy, stars, 7, low=1.0, high=5.0), "the log as stars"),
        ):
            got = np.asarray(got)
            assert got.shape == (300,), (
                f"on {what} (300 rounds) replay returns arms of shape"
                f" {got.shape}, not (300,)"
            )
            assert np.array_equal(got, played), (
                f"on {what} replay's arms are not those of DP-UCB's run"
                " on the log's rewards"
            )


test_replay_public(replay)


# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# **To think about.** A point where every run has regret $0.8\,T\Delta_{\min}$ gets a lock-in
# fraction of 0, and a point where half the runs have regret $0.1\,T\Delta_{\min}$ and half
# $0.8\,T\Delta_{\min}$ gets 1/2. Why does the chapter count the second and not the first, and what
# would the mean regret alone say about the two points?
#
# A real log holds only the reward of the arm that was played in each round. Why can `replay` not
# run on such a log, and what would it have to do in a round where the agent chooses another arm
# than the log's?
