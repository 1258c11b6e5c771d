# %% [markdown]
# (p5-repair)=
# # The repair, and why it is ε-DP
#
# GDP-NCB ({prf:ref}`p2-alg-gdp` in {doc}`Part II <../part2_dp_ncb/dp_ncb>`, DP-NCB's Algorithm 1
# {cite}`sarkar2026dpncb`) runs in two phases. **Phase I** pulls arms uniformly at random and, after
# every pull, tests with fresh Laplace noise whether some arm's noisy reward sum
# $N_{1,i}\tilde\mu_i$ has passed a threshold thr; the first test that passes ends it. **Phase II**
# runs in episodes: it picks the arm with the largest index (DP-NCB's Eq. (4), the index in
# {prf:ref}`p2-alg-gdp`), pulls it for twice as many rounds as its previous Phase II episode, and
# releases the arm's new mean with Laplace noise. The previous page, {doc}`audit`, found that
# Phase I leaks: its stopping rule pays for every noisy test separately. This page changes two
# things: Phase I stops by a sparse-vector rule, and every release's noise is calibrated to the
# number of releases a reward can enter. It proves the repaired algorithm $\eps$-DP, says what
# the audit can and cannot see, and measures what the repair costs in Nash regret.
#
# ## The repaired stopping rule
#
# Dwork and Roth's Algorithm 1 (AboveThreshold) {cite}`dwork2014algorithmic` answers a stream of
# sensitivity-1 queries and halts at the first one above a threshold with a total cost of $\eps_1$,
# however many queries it answers: it perturbs the threshold once ($\mathrm{Lap}(2/\eps_1)$)
# and each query ($\mathrm{Lap}(4/\eps_1)$). Replacing Phase I's stopping rule is not the
# whole repair, though: the rest of DP-NCB's Algorithm 1 releases more than its noise pays for.
#
# **How often a reward is released in Phase II.** Each Phase II episode of arm $a$ restarts from the
# Phase I mean (lines 13 and 18 of DP-NCB's Algorithm 1), so **every** Phase II release of arm $a$
# contains arm $a$'s Phase I sum. Phase II starts each arm's count at $N_{2,i} = 1$ (line 8) and an
# episode plays the arm for twice its count (line 14), so an arm's episodes have lengths
# $2, 4, 8, \dots$ A release is read by a later decision only if a round
# follows it, and Phase I takes at least one round, so $\ell$ released episodes need
# $1 + (2 + 4 + \dots + 2^{\ell}) + 1 \le T$, i.e. $\ell \le \lfloor\log_2 T\rfloor - 1$. (The package
# skips the release of an episode that reaches the horizon: no decision reads it.) The count is
# attained at $\eps = \infty$ when one arm is played from round 2 on (tested); at small
# $\eps$ the large bonus of a barely pulled arm usually interrupts such a run, so it is a
# worst case. The privacy proof of DP-NCB (its Appendix C) reaches the same count,
# $\ell \le \log(1 + (T-T_1)/2)$ with $T_1$ the length of Phase I (its last step uses
# $N_{1,a}\ge 1$), and charges each release $\eps/\log T$ to conclude
# $\eps\ell/\log T \le \eps$. That step holds only if the logarithm of the noise scale has
# base 2, as the doubling count does. DP-NCB's Algorithm 1 does not say; the regret analysis's
# concentration bounds and this package read it as the natural logarithm, and then each
# release costs $\eps/\ln T$ and Phase II alone spends up to
# $\eps(\lfloor\log_2 T\rfloor - 1)/\ln T$. That exceeds $\eps$ for every $T \ge 64$
# (with $m = \lfloor\log_2 T\rfloor \ge 6$, $(m-1)/\ln T > (m-1)/((m+1)\ln 2) > 1$) and at some shorter
# horizons too, $T = 20$ among them (table below), before Phase I's leak is counted.
#
# :::{prf:algorithm} GDP-NCB with a sparse-vector Phase I (`GDPNCB(phase1_rule="sparse_vector")`)
# :label: p5-alg-repair
#
# **Inputs** $k$, $T$, $\eps$, a split $f\in(0,1)$ (`sv_fraction`, default $1/2$)
#
# 1. $\eps_1 = f\eps$ (stopping time), $\eps_2 = \eps - \eps_1$
#    (releases), $L = \max(1, \lfloor\log_2 T\rfloor)$ (releases per reward),
#    $\eps_{\mathrm{form}} = \eps_2\ln T/L$;
# 2. **Phase I**: $\widehat{\mathrm{thr}} = \mathrm{thr}(\eps_{\mathrm{form}}) + \mathrm{Lap}(2/\eps_1)$;
#    each round pull $I_t\sim\mathrm{Unif}([k])$, and stop at the first $t$ with
#    $\max_i N_{1,i}\hat\mu_i + \mathrm{Lap}(4/\eps_1) \ge \widehat{\mathrm{thr}}$;
# 3. release the Phase I means once: $\tilde\mu_i = \hat\mu_i + \mathrm{Lap}(L/(\eps_2 N_{1,i}))$,
#    clipped to $[0, 1]$;
# 4. **Phase II** as in DP-NCB's Algorithm 1 (its lines 8-22, step 2 of {prf:ref}`p2-alg-gdp`), with
#    every release $\mathrm{clip}(\hat\mu_A + \mathrm{Lap}(L/(\eps_2 n_A)))$ and DP-NCB's Eq. (4) at
#    $\eps_{\mathrm{form}}$ (so that noise and index agree: $\log T/\eps_{\mathrm{form}} = L/\eps_2$).
# :::
#
# ## Why it is ε-DP
#
# :::{prf:theorem} The repair is $\eps$-DP
# :label: p5-thm-repair
#
# For every $T \ge 1$, {prf:ref}`p5-alg-repair` is $\eps$-differentially private with respect
# to a change of one reward (one row of the reward table), its output being the action sequence.
# :::
#
# *Proof.* The actions are a function of three things: the independent uniform draws of Phase I, the
# stopping time $\tau$, and the released means (Phase II decisions read only the released means and
# the counts, which are functions of earlier actions; clipping, the threshold and Eq. (4) are
# post-processing).
#
# - (i) *The stopping time.* Given the data-independent Phase I draws, the queries
#    $q_t = \max_i N_{1,i}\hat\mu_i$ have sensitivity 1: one changed reward moves one arm's sum by at
#    most 1 from its round on, and the maximum by at most 1. AboveThreshold makes its whole answer
#    sequence, hence $\tau$ (with "no stop before $T$" as one more outcome), $\eps_1$-DP
#    {cite}`dwork2014algorithmic`.
#
# - (ii) *One release.* Given $\tau$, each release adds $\mathrm{Lap}(L/\eps_2)$ to
#    a reward sum of sensitivity 1 (the mean times $n$), so it is $(\eps_2/L)$-DP with respect to
#    the rewards in that sum, and does not depend on the others.
#
# - (iii) *How many releases a reward enters.* A Phase II reward enters one
#    release (its episode's); a Phase I reward of arm $a$ enters the Phase I release and the at most
#    $\lfloor\log_2 T\rfloor - 1$ released Phase II episodes of arm $a$ (the count above), so at most $L$
#    releases, on every execution path. Which releases contain the changed reward depends on the path,
#    but it is fixed by the transcript up to that release (the arm and its counts are).
#
# - (iv) *Composition along the path.* Write the
#    density of a transcript ($\tau$, then the releases in order) as the law of $\tau$ times the product
#    of each release's conditional density given the transcript before it. Under neighbouring tables the
#    first factor changes by at most $e^{\eps_1}$, and each conditional factor by at most
#    $e^{\eps_2/L}$ if its sum contains the changed reward and not at all otherwise, at most $L$
#    such factors on every path by (iii): the ratio is at most
#    $e^{\eps_1}\cdot e^{L\,\eps_2/L} = e^{\eps}$ pointwise, and the actions, a
#    post-processing of the transcript and of independent draws, inherit it. $\square$
#
# The budget per part, from `sparse_vector_budget` (its arithmetic is tested in
# `tests/test_dp_ncb.py` at every $T$ below 300, at $2^k - 1$, $2^k$ and $2^k + 1$ for $k \le 30$,
# and at 400 log-spaced horizons up to $10^9$). Next to it, two composition bounds of the same
# structure: for a variant of the repair that keeps the printed noise scale $\log T/(\eps_2 n)$,
# and for the printed Phase II alone at $\eps$ (four significant figures, so that its excess over
# $\eps = 1$ at $T = 20$ shows):

# %% tags=["hide-input"]
import numpy as np
import pandas as pd
from IPython.display import Markdown
from myst_nb import glue

from privbandits.audit import (
    action_statistic_sampler,
    cached_audit,
    detectable_loss,
    flip_pairs,
    leading_run,
)
from privbandits.environments import bernoulli_instance
from privbandits.metrics import nash_regret
from privbandits.plotting import format_number, show_table, use_book_style
from privbandits.policies import GDPNCB
from privbandits.policies.dp_ncb import (
    leading_run_law,
    phase1_threshold_gdp,
    sparse_vector_budget,
)
from privbandits.simulate import simulate

use_book_style()
ALPHA, EPS1 = 0.05, 1.0  # the audits' level and claimed epsilon, as on the last page

# %% tags=["remove-cell"]
def as_power_of_ten(x):
    """x as math for prose, two significant figures: 5.9 \\times 10^{-5}."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return Markdown(f"${mantissa} \\times 10^{{{int(exponent)}}}$")


# The previous page's audit of the repair on the T = 5 exposing pair: the same configuration, so a
# cache hit (it runs, in a few seconds, only on a cold cache); and the exact laws the exercises quote.
T1, C1, N1 = 5, 0.05, 100_000
table1 = np.zeros((T1, 2))
table1[:, 0] = 1.0
policy = GDPNCB(epsilon=EPS1, phase1_constant=C1, phase1_rule="sparse_vector")
repaired = cached_audit(
    {"policy": policy.config(), "T": T1, "table": "arm 0 ones, arm 1 zeros",
     "rounds": [0], "statistic": "leading run of arm 0"},
    action_statistic_sampler(policy, bernoulli_instance([0.5, 0.5]), T1, leading_run),
    flip_pairs(table1, [0]), epsilon=EPS1, n_samples=N1, alpha=ALPHA, seed=0, depends_on=[policy])
assert not repaired.violation, "the repaired Phase I must not be flagged"
glue("p5_audit_repaired", float(repaired.epsilon_lower), display=False)
law5, law20 = leading_run_law(T1, EPS1, C1), leading_run_law(20, EPS1, 0.2)
first_over = int(law20["r"][np.argmax(law20["loss"] > EPS1)])
r_star = 4  # the tail event R >= 4, as on the previous page
glue("p5_r_star", r_star, display=False)
glue("p5_law5_loss", float(law5["loss"][r_star - 1]), display=False)
glue("p5_law5_p", float(np.exp(law5["log_p1"][r_star - 1])), display=False)
glue("p5_law20_loss_first", float(law20["loss"][first_over - 1]), display=False)
glue("p5_law20_p_first", float(np.exp(law20["log_p1"][first_over - 1])), display=False)
glue("p5_law20_p_first_md", as_power_of_ten(np.exp(law20["log_p1"][first_over - 1])), display=False)

# %%
budget_rows = []
for horizon in (20, 10**3, 10**5, 10**6, 10**7):
    b = sparse_vector_budget(horizon, EPS1)
    phase2_alone = EPS1 * (b.releases_per_reward - 1) / np.log(horizon)
    budget_rows.append({
        "T": horizon, "stopping time ε1": b.eps_stop,
        "releases per reward L": b.releases_per_reward,
        "ε per release": b.eps_per_release, "total (repair)": b.total,
        "total, printed-scale variant": b.total_at_printed_scale,
        "printed Phase II alone": phase2_alone,
    })
budget_table = pd.DataFrame(budget_rows)

# %% tags=["remove-input"]
glue("p5_old_total_20", float(budget_table["total, printed-scale variant"].iloc[0]), display=False)
glue("p5_old_total_1e6", float(budget_table["total, printed-scale variant"].iloc[3]), display=False)
glue("p5_noise_factor_1e6", float(sparse_vector_budget(10**6, EPS1).releases_per_reward / np.log(10**6)),
     display=False)
show_table(budget_table, horizons=["T"], formats={"printed Phase II alone": "{:.4g}"})

# %% [markdown]
# With $\eps = 1$ the printed-scale variant is bounded by composition only by
# {glue:text}`p5_old_total_20:.3f` at $T = 20$ and {glue:text}`p5_old_total_1e6:.3f` at
# $T = 10^6$: no proof gives it $\eps$.
# The calibrated repair spends exactly $\eps$; its releases carry
# $L/\ln T$ ({glue:text}`p5_noise_factor_1e6:.2f` at $T = 10^6$) times the printed noise at budget
# $\eps_2$.
#
# ## What the audit can detect
#
# A composition bound above $\eps$ is not a measured
# loss, and an audit that finds nothing proves nothing: an audit certifies a loss only where it sits on one event it can
# find and count. The confirmation step's power is computable: for an event of probability $p$
# on the likelier side, `detectable_loss(p, n, epsilon)` is the smallest loss it certifies above
# $\eps$ when the counts come out at their expected values, at $n = 10^5$ per dataset and
# $\eps = 1$:

# %%
probabilities = [0.5, 0.1, 0.01, 0.005, 0.001, 1e-4]
smallest = [detectable_loss(p, N1, EPS1, ALPHA) for p in probabilities]

# %% tags=["remove-input"]
power = pd.DataFrame({"probability of the event": probabilities,
                      "smallest loss certified above ε = 1": smallest})
glue("p5_power_01", float(power.iloc[1, 1]), display=False)
glue("p5_power_001", float(power.iloc[4, 1]), display=False)
show_table(power, formats={"probability of the event": lambda v: format_number(v, 1),
                          "smallest loss certified above ε = 1": lambda v: f"{v:.3f}" if np.isfinite(v) else "none"})


# %% [markdown]
# An event of probability 0.1 must carry a loss of at least {glue:text}`p5_power_01:.3f` to be seen,
# one of probability 0.001 at least {glue:text}`p5_power_001:.3f`, and events of probability $10^{-4}$
# (such as the first $A_r$ above $\eps$ at $T = 20$) are invisible. The composition bound of
# the printed-scale variant is a worst case over paths on which one reward passes through the stopping rule
# and $L$ releases in a row; whether any event attains it we do not know.
# The audit's bound on the
# repair (about {glue:text}`p5_audit_repaired:.2f`, on the previous page's $T = 5$ pair) is a lower
# bound only: it would come out the same whether the repair's true privacy loss were
# {glue:text}`p5_audit_repaired:.2f`, the proved $\eps = 1$, or any value between the two, so it
# cannot confirm the theorem. The theorem, not the audit, carries the claim; the audit guards against gross errors such
# as the printed Phase I, whose loss concentrates on a tail event.
#
# ## What the repair costs
#
# Nash regret of the printed algorithm and of the calibrated repair on the instance
# of DP-NCB's Figure 1(b), as in {doc}`Part II <../part2_dp_ncb/figure1>` ($k = 50$, means
# uniform on $(0.005, 1)$ with seed 2026, $\eps = 0.2$, book
# constant $C = 1$), 30 runs per horizon:

# %%
means_b = np.random.default_rng(2026).uniform(0.005, 1.0, 50)
inst_b = bernoulli_instance(means_b, name="fig1b")
regret_rows = []
for horizon in (10**3, 10**4, 10**5, 10**6):
    row = {"T": horizon}
    for rule in ("printed", "sparse_vector"):
        res = simulate(GDPNCB(epsilon=0.2, phase1_rule=rule), inst_b, horizon,
                       runs=30, seed=0, keep=("arms", "phase1_end"))
        row[f"Nash regret, {rule}"] = nash_regret(res)
        row[f"Phase I rounds, {rule}"] = np.mean(res.records["phase1_end"])
    regret_rows.append(row)
regret_cost = pd.DataFrame(regret_rows).set_index("T")
regret_cost["relative cost"] = (regret_cost["Nash regret, sparse_vector"]
                                / regret_cost["Nash regret, printed"] - 1)

# %% tags=["remove-input"]
glue("p5_cost_1e6", float(100 * regret_cost["relative cost"].loc[10**6]), display=False)
glue("p5_cost_max", float(100 * regret_cost["relative cost"].max()), display=False)
glue("p5_phase1_ratio_1e6", float(regret_cost["Phase I rounds, sparse_vector"].loc[10**6]
                                  / regret_cost["Phase I rounds, printed"].loc[10**6]), display=False)
for horizon, tag in ((10**4, "1e4"), (10**5, "1e5"), (10**6, "1e6")):
    for rule, short in (("printed", "printed"), ("sparse_vector", "repair")):
        glue(f"p5_frac_{tag}_{short}", float(regret_cost[f"Phase I rounds, {rule}"].loc[horizon] / horizon),
             display=False)
glue("p5_thr_ratio_1e6", float(phase1_threshold_gdp(10**6, sparse_vector_budget(10**6, 0.2).eps_form)
                               / phase1_threshold_gdp(10**6, 0.2)), display=False)
show_table(regret_cost.reset_index(), horizons=["T"],
           formats={**{c: "{:.4f}" for c in regret_cost.columns if c.startswith("Nash")},
                    **{c: "{:,.0f}" for c in regret_cost.columns if c.startswith("Phase I")},
                    "relative cost": "{:+.1%}"})

# %% tags=["remove-cell"]
assert np.all(regret_cost["relative cost"] < 0.5), "the repair should cost less than 50% Nash regret here"

# %% [markdown]
# The fraction of the horizon spent in Phase I (printed / repair) is
# {glue:text}`p5_frac_1e4_printed:.2f` / {glue:text}`p5_frac_1e4_repair:.2f` at $T = 10^4$,
# {glue:text}`p5_frac_1e5_printed:.2f` / {glue:text}`p5_frac_1e5_repair:.2f` at $10^5$ and
# {glue:text}`p5_frac_1e6_printed:.2f` / {glue:text}`p5_frac_1e6_repair:.2f` at $10^6$; the largest
# relative cost over the four horizons is {glue:text}`p5_cost_max:.1f`%, and at $T = 10^6$ the repair
# pays {glue:text}`p5_cost_1e6:.1f`% more. Its Phase I is {glue:text}`p5_phase1_ratio_1e6:.2f` times
# as long. Part of that is the threshold, computed at $\eps_{\mathrm{form}}$:
# {glue:text}`p5_thr_ratio_1e6:.2f` times the printed one at $10^6$. The rest is the stopping rule:
# the printed one draws fresh noise for every test, so the largest of many draws ends Phase I before
# the sums reach the threshold, while the repair compares with one noisy threshold. The repair's cost
# is the price of a guarantee that holds.
#
# ## Summary
#
# - The auditor turns any event whose probability differs between neighbouring datasets into a lower
#   bound on $\eps$, valid at level $\alpha$ because the event is chosen on one sample and counted
#   on another.
# - It catches every mechanism whose noise is halved, and finds nothing against the correct
#   mechanisms or against any bandit algorithm on a generic pair; that verdict proves nothing.
# - GDP-NCB's Phase I, as printed, pays for each noisy test separately: the loss of one event of the
#   actions grows without bound with the length of Phase I. An exact computation and the audit both
#   show it.
# - The repair stops Phase I with AboveThreshold and calibrates every release to the at most $L$
#   releases a reward enters; {prf:ref}`p5-thm-repair` proves it $\eps$-DP at every horizon.
# - The theorem carries the claim, not the audit: events of probability 0.001 must carry a loss of
#   {glue:text}`p5_power_001:.3f` to be seen at $10^5$ samples.
# - The guarantee costs {glue:text}`p5_cost_1e6:.1f`% more Nash regret at $T = 10^6$ on the
#   instance of DP-NCB's Figure 1(b).
#
# ## Exercises
#
# :::{exercise}
# :label: ex-p5-bonferroni
#
# Why is no Bonferroni correction needed over the thousands of events tried in the search step?
# :::
#
# :::{solution} ex-p5-bonferroni
# :label: sol-p5-bonferroni
# :class: dropdown
#
# The confirmed bound is computed on a held-out sample independent of the search; conditionally on
# the search, the chosen event is fixed, so only the two proportions of that event are estimated.
# Only the pairs, each of which contributes a confirmed bound, need the correction.
# :::
#
# :::{exercise}
# :label: ex-p5-telescope
#
# In the exposing instance, show that the privacy loss of $A_{m+1}$ (arm 0 in each of the first
# $m+1$ rounds, so that its first $m$ tests fail) is $\ln F(\mathrm{thr})/F(\mathrm{thr}-m)$, and that for $m > \mathrm{thr}$ it equals
# $\ln(2F(\mathrm{thr})) + (m-\mathrm{thr})/b$. How large must $m$ be for the loss to exceed
# $\eps$ when $\mathrm{thr} \gg b$?
# :::
#
# :::{solution} ex-p5-telescope
# :label: sol-p5-telescope
# :class: dropdown
#
# On $D$ the $j$-th test of arm 0 compares $j + Z_j$ with thr, on $D'$ it compares $j - 1 + Z_j$;
# the factor $2^{-(m+1)}$ of the pulls is the same on both, and if Phase I stops earlier the next
# action is arm 1 on both; the tests are independent given the pulls, so the ratio of survival
# probabilities is $\prod_{j=1}^m F(\mathrm{thr}-j+1)/F(\mathrm{thr}-j)$, which telescopes to
# $F(\mathrm{thr})/F(\mathrm{thr}-m)$. For $x<0$, $F(x) = \frac12 e^{x/b}$, which gives the second
# form. With $F(\mathrm{thr})\approx 1$ the loss exceeds $\eps$ once
# $m > \mathrm{thr} + b(\eps - \ln 2) = \mathrm{thr} + \log T\,(1 - \ln 2/\eps)$;
# for $\eps < \ln 2$ surviving up to the threshold already suffices.
# :::
#
# :::{exercise}
# :label: ex-p5-threshold-noise
#
# The repaired rule adds noise to the threshold once. Why is noise on the queries alone (as in the
# printed Phase I) not enough, however large it is chosen, as long as it is independent of the number
# of queries?
# :::
#
# :::{solution} ex-p5-threshold-noise
# :label: sol-p5-threshold-noise
# :class: dropdown
#
# With query noise only, every "below threshold" answer is an independent Laplace test whose loss is
# up to $1/b$, and the previous exercise shows that a run of $m$ below answers costs about
# $(m - \mathrm{thr})/b$, growing with the number of queries. With a noisy threshold
# $\hat{\mathrm{thr}}$, all below answers on $D$ are matched on $D'$ by shifting $\hat{\mathrm{thr}}$
# by 1 (cost $\eps_1/2$) and only the final above answer needs the query noise (cost
# $\eps_1/2$): the cost no longer depends on how many queries were answered.
# :::
#
# :::{exercise}
# :label: ex-p5-samples
#
# An event has probabilities $p$ on $D'$ and $p e^{-\ell}$ on $D$. Roughly how many samples per
# dataset does the confirmation step need to certify a bound above $\eps < \ell$? Apply it to
# the event $R \ge$ {glue:text}`p5_r_star` of the $T = 5$ audit ($p =$ {glue:text}`p5_law5_p:.4f`,
# $\ell =$ {glue:text}`p5_law5_loss:.2f`, $\eps = 1$) and to the first $A_r$ above
# $\eps$ at $T = 20$ ($p =$ {glue:md}`p5_law20_p_first_md:myst`,
# $\ell =$ {glue:text}`p5_law20_loss_first:.2f`).
# :::
#
# :::{solution} ex-p5-samples
# :label: sol-p5-samples
# :class: dropdown
#
# With counts $k_1 \approx np$ and $k_0 \approx npe^{-\ell}$, the log ratio has standard deviation
# about $\sqrt{1/k_1 + 1/k_0}\approx\sqrt{(1+e^{\ell})/(np)}$; the one-sided bounds at level
# $\alpha/2$ sit about $z = 2$ such deviations below, so we need
# $\ell - \eps \gtrsim 2\sqrt{(1+e^{\ell})/(np)}$, i.e.
# $n \gtrsim 4(1+e^{\ell})/(p(\ell-\eps)^2)$: about {glue:text}`p5_need_5:,.0f` per phase for
# the $T = 5$ event, which is why $10^5$ catches it, and about {glue:text}`p5_need_20:,.0f` for the
# $T = 20$ event, out of reach. The search adds its own noise, so these are lower estimates;
# `detectable_loss` computes the exact Clopper-Pearson version of the same trade-off.
# :::

# %% tags=["remove-cell"]
# The numbers that the solutions quote (the student edition drops this cell).
def samples_needed(p, loss, eps=EPS1):
    """The rough sample count of exercise ex-p5-samples."""
    return 4 * (1 + np.exp(loss)) / (p * (loss - eps) ** 2)


need_5 = samples_needed(np.exp(law5["log_p1"][r_star - 1]), law5["loss"][r_star - 1])
need_20 = samples_needed(np.exp(law20["log_p1"][first_over - 1]), law20["loss"][first_over - 1])
glue("p5_need_5", float(f"{need_5:.2g}"), display=False)  # a rough count: two significant digits
glue("p5_need_20", float(f"{need_20:.2g}"), display=False)
