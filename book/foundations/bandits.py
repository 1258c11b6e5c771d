# %% [markdown]
# # Stochastic bandits, regret and Nash regret
#
# This chapter sets up the problem every later part solves: a learner repeatedly picks one of $K$
# options ("arms") and observes a random reward of the one it picked. We define the two measures of
# performance used in the book, the usual (average) regret and the Nash regret of
# {cite:t}`barman2023fairness`, and meet UCB {cite}`auer2002finite`, the algorithm every private
# variant in this book starts from.
#
# **The question.** A bandit learner must trade off *exploring* (trying arms it knows little
# about) against *exploiting* (playing the arm that looks best so far); how well does it do? We
# score it in two ways. Average regret is the reward lost per round against always playing the best
# arm, averaged over the rounds; Nash regret replaces that average by a geometric mean, so that a
# round in which someone gets almost nothing counts heavily. Nash regret needs care because a
# handful of bad rounds can dominate it and because its product of many small numbers cannot be
# computed directly. **The answer in short:** UCB's regret grows only like the logarithm of the
# number of rounds and stays far below its theorem's bound; Nash regret is never below average
# regret, and a few bad early rounds that barely move the average regret can multiply the Nash
# regret many times over, towards its largest possible value as their reward tends to zero;
# computed in log space, it stays exact at long horizons.
#
# :::{admonition} Key results
# :class: important
#
# Regret is measured in units of reward (rewards lie in $[0, 1]$). *Cumulative* regret is a total
# over all rounds; average and Nash regret are *per round*, at most $\mu^* \le 1$.
#
# - On a 10-armed instance UCB's mean cumulative regret, summed over $T = 10^5$ rounds, is
#   {glue:text}`p0_ucb10_regret:.0f`, and the worst-case bound of {cite:t}`auer2002finite` is
#   {glue:text}`p0_ucb10_slack:.1f` times larger.
# - Nash regret is never below average regret; per round, on the same UCB runs, it is
#   {glue:text}`p0_ucb10_nash:.5f` against {glue:text}`p0_ucb10_avg:.5f` (the cumulative regret
#   divided by $T$).
# - Ten bad rounds out of 1,000 raise the per-round average regret by at most
#   {glue:text}`p0_unfair_avg_max:.3f`, whatever their reward, but raise the per-round Nash regret
#   to {glue:text}`p0_unfair_nash_1e10:.3f` when their mean reward is $10^{-10}$.
# - Nash regret must be computed in log space: a product of $10^5$ expected rewards underflows.
# :::
#
# :::{admonition} Learning objectives and prerequisites
# :class: tip
#
# After this chapter you can:
#
# - state the stochastic $K$-armed bandit problem and define regret, average regret and Nash regret;
# - run UCB1 with the companion package and compare its measured regret with the bound of Auer et
#   al.;
# - explain why a few bad rounds cost far more Nash regret than average regret, and compute Nash
#   regret in log space without underflow.
#
# **Prerequisites:** none from this book. Mathematics: discrete probability and expectation,
# logarithms, the inequality of arithmetic and geometric means (stated here). Python with NumPy.
# :::
#
# ## The stochastic bandit problem
#
# :::{prf:definition} Stochastic $K$-armed bandit
# :label: def-stochastic-bandit
#
# Arm $a \in [K] = \{1, \dots, K\}$ has an unknown reward law $\nu_a$ on $[0, 1]$ with mean
# $\mu_a$. In each round $t = 1, \dots, T$ the learner picks an arm $I_t$, using only its past
# picks and rewards (and its own randomness), and observes a reward $r_t \sim \nu_{I_t}$,
# independent of everything else given $I_t$. Write $\mu^* = \max_a \mu_a$ and
# $\Delta_a = \mu^* - \mu_a$ for the *gap* of arm $a$.
# :::
#
# A learner that knew the means would pull the best arm every round. Its shortfall is the regret.
#
# :::{prf:definition} Regret, average regret
# :label: def-regret
#
# The (pseudo-)regret after $T$ rounds is
# $\mathrm{Reg}(T) = \sum_{t=1}^T \left(\mu^* - \E[\mu_{I_t}]\right) = \sum_a \Delta_a\,\E[N_a(T)]$,
# where $N_a(T)$ is the number of pulls of arm $a$. Its per-round version is the
# **average regret** $R_A(T) = \mu^* - \frac1T \sum_{t=1}^T \E[\mu_{I_t}] = \mathrm{Reg}(T)/T$.
# :::
#
# ## UCB, the running example
#
# UCB plays *optimistically*: it pulls the arm whose mean could plausibly be the largest, given the
# data so far.
#
# :::{prf:algorithm} UCB1 {cite}`auer2002finite`
# :label: alg-ucb
#
# 1. Play each arm once.
# 2. **for** $t = K + 1, \dots, T$ **do**
# 3. $\quad$ play $I_t = \arg\max_a \hat\mu_a + \sqrt{2 \ln (t-1) / N_a}$, where $\hat\mu_a$ and
#    $N_a$ are the empirical mean and the number of pulls of arm $a$ so far
# 4. $\quad$ observe $r_t$, update $\hat\mu_{I_t}$ and $N_{I_t}$
# :::
#
# :::{prf:theorem} {cite:t}`auer2002finite`, Theorem 1
# :label: thm-ucb
#
# For rewards in $[0, 1]$, UCB1's regret satisfies
# $\mathrm{Reg}(T) \le \sum_{a: \Delta_a > 0} \frac{8 \ln T}{\Delta_a} + \left(1 + \frac{\pi^2}{3}\right)\sum_a \Delta_a$.
# :::
#
# The companion package runs UCB (and every other algorithm of the book) as a compiled loop that
# reads like the pseudocode above; `privbandits.simulate.simulate` repeats it over independent
# seeded runs (see the {ref}`package reference <api-reference>`).

# %%
import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from myst_nb import glue

from privbandits import bernoulli_instance, simulate
from privbandits.metrics import (
    average_regret,
    average_regret_from_rewards,
    cumulative_regret,
    nash_regret,
    nash_regret_from_log_rewards,
)
from privbandits.plotting import (
    format_number,
    new_axes,
    plot_runs,
    show_table,
    use_book_style,
)
from privbandits.policies import UCB

use_book_style()

# %% [markdown]
# We use the 10-armed instance of {cite:t}`tossou2016algorithms` (all arms have mean 0.1 except one
# at 0.55 and one at 0.2), 100 runs of $T = 100{,}000$ rounds.

# %% mystnb={"figure": {"caption": "UCB on the 10-arm instance: cumulative regret against the round $t$ (log axis), mean of 100 runs with a 5-95% band, and the bound of {cite:t}`auer2002finite` (dashed). The regret grows like $\\log t$, a straight line on this axis, and stays well below the bound.", "name": "p0-fig-ucb-regret"}, "image": {"alt": "Line plot of UCB's cumulative regret against the round t on a logarithmic axis up to 100,000, 10 arms: the mean over 100 runs, with a narrow shaded 5-95% band, stays near zero for the first hundred rounds, then rises along a nearly straight line; the theorem's bound, a dashed black straight line, rises well above it."}}
instance = bernoulli_instance([0.1] * 8 + [0.2, 0.55], name="10 arms")
HORIZON, RUNS = 100_000, 100
ucb = simulate(UCB(), instance, HORIZON, RUNS, seed=2026)
regret = cumulative_regret(ucb)

gaps = instance.gaps[instance.gaps > 0]
t_grid = np.arange(1, HORIZON + 1)
# the theorem's bound at every t: a log term per suboptimal arm + a constant
log_term = (8 * np.log(t_grid) / gaps[:, None]).sum(axis=0)
bound = log_term + (1 + np.pi**2 / 3) * gaps.sum()

fig, ax = new_axes()
ax.set_xscale("log")
plot_runs(ax, t_grid, regret, "UCB")
ax.plot(t_grid, bound, "k--", lw=1, label="Theorem bound (Auer et al. 2002)")
ax.set(xlabel="round $t$", ylabel="cumulative regret",
       title=f"UCB, {instance.n_arms} arms ({RUNS} runs, 5-95% band)")
ax.legend()
plt.show()
final = regret[:, -1]
print(f"Regret at T = {HORIZON:,}: mean {final.mean():.1f}, 5-95% range "
      f"{np.quantile(final, 0.05):.1f} to {np.quantile(final, 0.95):.1f}; "
      f"the bound {bound[-1]:.1f}")

# %% tags=["remove-cell"]
glue("p0_ucb10_regret", float(final.mean()), display=False)
glue("p0_ucb10_bound", float(bound[-1]), display=False)
glue("p0_ucb10_slack", float(bound[-1] / final.mean()), display=False)

# %% [markdown]
# The regret grows like $\log t$ (a straight line on this axis) and stays well below the
# worst-case bound, whose constant 8 is loose: at $T = 10^5$ the mean regret is
# {glue:text}`p0_ucb10_regret:.0f`, the bound {glue:text}`p0_ucb10_bound:.0f`, a factor
# {glue:text}`p0_ucb10_slack:.1f` above it.

# %% tags=["remove-cell"]
assert np.all(final < bound[-1]), "UCB's regret exceeded its bound in some run"

# %% [markdown]
# ## Nash regret: fairness across rounds
#
# Average regret treats a round in which the learner earns 0.001 instead of 0.9 the same as
# 0.899 spread over many slightly suboptimal rounds. When each round is a *person* (a patient who
# gets a treatment, a user who gets a recommendation), this is unfair to the person who bore the
# bad round. {cite:t}`barman2023fairness` measure welfare by the **Nash social welfare**, the
# geometric mean of the expected rewards across rounds, which punishes a round with a tiny expected
# reward much harder.
#
# :::{prf:definition} Nash regret {cite}`barman2023fairness`
# :label: def-nash-regret
#
# $R_N(T) = \mu^* - \left(\prod_{t=1}^T \E[\mu_{I_t}]\right)^{1/T}$.
# :::
#
# By the inequality of arithmetic and geometric means, $R_N(T) \ge R_A(T)$, with equality only
# when $\E[\mu_{I_t}]$ is the same in every round. As in {cite:t}`sarkar2026dpncb`, we estimate
# $\E[\mu_{I_t}]$ by the average of $\mu_{I_t}$ over runs, and we compute the product in log space:
# $(\prod_t x_t)^{1/T} = \exp(\frac1T \sum_t \log x_t)$, with $\log$ of the run average computed by
# `logsumexp` from the exact log-means of the arms. A product of $10^5$ numbers below one underflows
# double precision long before the end; in Part II an arm's mean is itself $(2e)^{-T}$.
#
# **Why an early unfair round costs so much.** Take $T = 1{,}000$ rounds, a best arm of mean
# $\mu^* = 0.9$, and a learner that plays a bad arm of mean $\mu_{\text{bad}}$ in its first 10
# rounds and the best arm afterwards. The average regret is $10 (0.9 - \mu_\text{bad}) / 1000
# \le 0.009$ whatever $\mu_\text{bad}$ is. The Nash regret is
# $0.9 - 0.9^{0.99}\mu_\text{bad}^{0.01}$: it keeps growing as $\mu_\text{bad}$ falls and tends
# to $\mu^* = 0.9$, the largest value any regret can take, as $\mu_\text{bad} \to 0$: a hundred
# times the average regret's ceiling of 0.009.

# %% mystnb={"figure": {"caption": "One unfair start: a learner plays an arm of mean $\\mu_\\mathrm{bad}$ in its first 10 of 1,000 rounds and the best arm, of mean 0.9, afterwards. Whatever $\\mu_\\mathrm{bad}$ is, the average regret stays below 0.009; the Nash regret keeps growing as $\\mu_\\mathrm{bad}$ falls, towards 0.9.", "name": "p0-fig-unfair-start"}, "image": {"alt": "Line plot of regret against the mean of the arm played in the first 10 of 1,000 rounds, on a logarithmic axis from 10^-300 to 1: the average regret stays flat near zero, while the Nash regret rises steadily as that mean falls, towards 0.9 at the left edge."}}
T_SMALL, EARLY, BEST = 1_000, 10, 0.9


def unfair_start_regrets(bad_mean):
    """(average, Nash) regret: `bad_mean` for EARLY rounds, then BEST."""
    rewards = np.full((1, T_SMALL), BEST)
    rewards[0, :EARLY] = bad_mean
    average = average_regret_from_rewards(rewards, BEST)
    nash = nash_regret_from_log_rewards(np.log(rewards), np.log(BEST))
    return average, nash


bad_means = np.geomspace(1e-300, 0.9, 600)
avg, nash = np.array([unfair_start_regrets(bad) for bad in bad_means]).T

fig, ax = new_axes()
ax.set_xscale("log")
ax.plot(bad_means, nash, label="Nash regret $R_N$", color="#0072B2")
ax.plot(bad_means, avg, label="average regret $R_A$", color="#D55E00")
ax.set(xlabel=rf"mean of the arm played in the first {EARLY} of {T_SMALL:,} "
              r"rounds, $\mu_\mathrm{bad}$",
       ylabel="regret", xlim=(bad_means[0], 1), ylim=(0, 1),
       title=f"One unfair start: average regret stays below "
             f"{EARLY * BEST / T_SMALL:g}, Nash regret does not")
ax.xaxis.set_major_locator(mpl.ticker.LogLocator(numticks=7))
ax.xaxis.set_minor_locator(mpl.ticker.NullLocator())
ax.legend()
plt.show()

# %% tags=["remove-cell"]
table = []
for bad in (0.5, 1e-3, 1e-10, 1e-100):
    a, n = unfair_start_regrets(bad)
    table.append({"μ_bad": bad, "average regret": a, "Nash regret": n, "Nash / average": n / a})
glue("p0_unfair_avg_max", float(EARLY * BEST / T_SMALL), display=False)
glue("p0_unfair_nash_1e10", float(unfair_start_regrets(1e-10)[1]), display=False)
assert np.all(nash >= avg - 1e-12), "AM-GM: Nash regret must dominate average regret"
assert avg.max() <= EARLY * BEST / T_SMALL + 1e-12 and nash[0] > 0.8, \
    "the example's numbers are off"

# %% tags=["remove-input"]
show_table(pd.DataFrame(table), formats={"μ_bad": lambda v: format_number(v, 1),
                                         "Nash / average": lambda v: format_number(v, 2)})

# %% [markdown]
# On UCB's runs the two measures differ for the same reason: UCB's first $K$ rounds play every arm
# once, so rounds $1, \dots, K$ have a small expected reward in *every* run.

# %%
print(f"UCB at T = {HORIZON:,}: average regret {average_regret(ucb):.5f}, "
      f"Nash regret {nash_regret(ucb):.5f}")

# %% tags=["remove-cell"]
assert nash_regret(ucb) >= average_regret(ucb)
glue("p0_ucb10_avg", float(average_regret(ucb)), display=False)
glue("p0_ucb10_nash", float(nash_regret(ucb)), display=False)

# %% [markdown]
# Part II studies algorithms designed for Nash regret: NCB {cite}`barman2023fairness` and its
# private versions.
#
# ## Summary
#
# A bandit learner trades exploring against exploiting, and we score it by the reward it loses.
# UCB's cumulative regret grows like $\log T$, far below its theorem's bound. Per round, Nash
# regret is never below average regret and reacts much more strongly to a few bad rounds, so it
# must be computed with care, in log space. The table collects the chapter's numbers; the list
# below restates its points.

# %% tags=["remove-input"]
show_table(
    pd.DataFrame([
        {"quantity": f"UCB, {instance.n_arms} arms: mean cumulative regret at T = {HORIZON:,}", "value": final.mean()},
        {"quantity": f"UCB, {instance.n_arms} arms: Auer et al.'s bound on it", "value": bound[-1]},
        {"quantity": f"UCB, {instance.n_arms} arms: average regret per round", "value": average_regret(ucb)},
        {"quantity": f"UCB, {instance.n_arms} arms: Nash regret per round", "value": nash_regret(ucb)},
        {"quantity": f"{EARLY} bad rounds of {T_SMALL:,}: largest average regret per round",
         "value": EARLY * BEST / T_SMALL},
        {"quantity": f"{EARLY} bad rounds of {T_SMALL:,}, μ_bad = 10⁻¹⁰: Nash regret per round",
         "value": unfair_start_regrets(1e-10)[1]},
    ]),
)

# %% [markdown]
# - A stochastic bandit picks one of $K$ arms per round and sees only the reward of the arm it
#   picked; regret is the expected reward lost against always playing the best arm.
# - UCB1 plays the arm with the largest optimistic index; its regret grows like $\log T$, and the
#   worst-case bound of {prf:ref}`thm-ucb` holds on every run here with a loose constant.
# - Nash regret compares $\mu^*$ with the geometric mean of the rounds' expected rewards; by the
#   inequality of arithmetic and geometric means it is at least the average regret.
# - A few rounds with a tiny expected reward barely move the average regret but can drive the Nash
#   regret towards $\mu^*$: Nash regret protects the person who bears a bad round.
# - The package computes Nash regret in log space, from the exact log-means of the arms, so it does
#   not underflow at long horizons.
#
# ## Exercises

# %% [markdown]
# :::{exercise}
# :label: ex-found-ucb-gap
#
# Using the UCB regret theorem above, compute the bound on UCB's regret at $T = 10^5$ for the two-armed
# instance $\{0.9, 0.6\}$, then check it with `simulate(UCB(), bernoulli_instance([0.9, 0.6]), 100_000, 100)`.
# By what factor is the bound loose?
# :::
#
# :::{solution} ex-found-ucb-gap
# :label: sol-found-ucb-gap
# :class: dropdown
#
# With one suboptimal arm of gap $0.3$: $8 \ln(10^5)/0.3 + (1 + \pi^2/3)\cdot 0.3 \approx$
# {glue:text}`p0_ex_bound_log:.1f` + {glue:text}`p0_ex_bound_const:.1f` $\approx$
# {glue:text}`p0_ex_bound:.0f`. The measured mean regret over the 100 runs is
# {glue:text}`p0_ex_regret:.1f` (5-95% range of the runs {glue:text}`p0_ex_regret_q05:.1f` to
# {glue:text}`p0_ex_regret_q95:.1f`), so the bound is loose by a factor of about
# {glue:text}`p0_ex_slack:.1f`. Most of the slack is the constant 8: refined analyses of UCB1 bring the
# coefficient of $\ln T$ down to $2/\Delta_a$ as $T \to \infty$, which gives
# $2 \ln(10^5)/0.3 \approx$ {glue:text}`p0_ex_refined:.1f` here, close to the measurement.
# :::
#
# :::{exercise}
# :label: ex-found-nash
#
# A learner plays an arm of mean $\mu_0$ in a fraction $f$ of the rounds, uniformly spread, and the
# best arm ($\mu^*$) otherwise. Give $R_A$ and $R_N$ in closed form. For $\mu^* = 1$ and $f = 0.01$,
# how small must $\mu_0$ be for the Nash regret to be 10 times the average regret?
# :::
#
# :::{solution} ex-found-nash
# :label: sol-found-nash
# :class: dropdown
#
# $R_A = f(\mu^* - \mu_0)$ and $R_N = \mu^* - \mu^{*\,1-f}\mu_0^{f}$. With $\mu^* = 1$, $f = 0.01$:
# $R_N = 1 - \mu_0^{0.01}$ and $R_A = 0.01 (1 - \mu_0) \approx 0.01$. $R_N = 0.1$ needs
# $\mu_0^{0.01} = 0.9$, i.e. $\mu_0 = 0.9^{100} \approx$ {glue:text}`p0_ex_nash_mu0:.6f`. The order of the rounds does not matter:
# only the multiset of the values $\E[\mu_{I_t}]$ enters either measure.
# :::
#
# :::{exercise}
# :label: ex-found-logspace
#
# Compute the Nash social welfare of $T = 10^5$ rounds that each have expected reward $0.001$ by
# `np.prod(x) ** (1 / T)` and by `np.exp(np.mean(np.log(x)))`. Explain the difference.
# :::
#
# :::{solution} ex-found-logspace
# :label: sol-found-logspace
# :class: dropdown
#
# The product $0.001^{10^5} = 10^{-300000}$ underflows to 0, so the first gives
# {glue:text}`p0_ex_nsw_prod:g`; the second gives {glue:text}`p0_ex_nsw_log:.3g`, the right answer. Doubles stop at about $10^{-308}$ (subnormals at $5 \times 10^{-324}$).
# :::

# %% tags=["remove-cell"]
# The numbers that the solutions quote (the student edition drops this cell).
# Exercise ex-found-ucb-gap: Auer et al.'s bound, the measured regret, and the refined 2 ln(T) / gap.
ex_instance, ex_horizon = bernoulli_instance([0.9, 0.6]), 100_000
ex_gap = float(ex_instance.gaps.max())
ex_bound_log = 8 * np.log(ex_horizon) / ex_gap
ex_bound_const = (1 + np.pi**2 / 3) * ex_gap
ex_regret = cumulative_regret(simulate(UCB(), ex_instance, ex_horizon, 100))[:, -1]
glue("p0_ex_bound_log", float(ex_bound_log), display=False)
glue("p0_ex_bound_const", float(ex_bound_const), display=False)
glue("p0_ex_bound", float(ex_bound_log + ex_bound_const), display=False)
glue("p0_ex_regret", float(ex_regret.mean()), display=False)
glue("p0_ex_regret_q05", float(np.quantile(ex_regret, 0.05)), display=False)
glue("p0_ex_regret_q95", float(np.quantile(ex_regret, 0.95)), display=False)
glue("p0_ex_slack", float((ex_bound_log + ex_bound_const) / ex_regret.mean()), display=False)
glue("p0_ex_refined", float(2 * np.log(ex_horizon) / ex_gap), display=False)
assert np.all(ex_regret < ex_bound_log + ex_bound_const)

# Exercise ex-found-nash: mu_0 = 0.9^100 makes R_N = 10 R_A for mu* = 1, f = 0.01 (checked on rewards).
ex_mu0 = 0.9**100
ex_rewards = np.ones((1, 10_000))
ex_rewards[0, ::100] = ex_mu0
ex_ratio = nash_regret_from_log_rewards(np.log(ex_rewards), 0.0) / average_regret_from_rewards(ex_rewards, 1.0)
assert abs(ex_ratio - 10) < 1e-3, ex_ratio
glue("p0_ex_nash_mu0", float(ex_mu0), display=False)

# Exercise ex-found-logspace: both ways of computing the Nash social welfare of 10^5 rounds at 0.001.
ex_x = np.full(100_000, 0.001)
with np.errstate(under="ignore"):
    glue("p0_ex_nsw_prod", float(np.prod(ex_x) ** (1 / ex_x.size)), display=False)
glue("p0_ex_nsw_log", float(np.exp(np.mean(np.log(ex_x)))), display=False)
