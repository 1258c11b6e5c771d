# %% [markdown]
# (p5-audit)=
# # Do the guarantees hold? An empirical privacy auditor
#
# Every algorithm in this book comes with a theorem of the form "this algorithm is
# $(\eps,\delta)$-differentially private". None of the papers checks that claim on the code.
# This chapter does: it treats each mechanism and each bandit algorithm as a black box, runs it many
# times on two neighbouring datasets, and asks whether some event of the output is much more likely
# under one than under the other. The tool is `privbandits.audit`, in the spirit of StatDP
# {cite}`ding2018detecting` and DP-Sniper {cite}`bichsel2021dpsniper`.
#
# **The question.** Do the privacy guarantees the papers claim hold for the code as it runs? A
# black-box audit can show that one fails: an event whose probability differs too much between two
# neighbouring datasets proves it, at a stated confidence. It cannot show that one holds: finding
# nothing proves nothing; only a proof does that.
#
# **The answer.** Correct mechanisms pass and deliberately broken copies are caught, so the auditor
# works. On generic neighbouring pairs no bandit algorithm is caught, which proves nothing. On a pair
# built for the Phase I of GDP-NCB {cite}`sarkar2026dpncb`, the audit catches a loss above the
# claimed $\eps$. Two numbers describe that leak: an exact computation from the algorithm's
# formulas gives the loss of one rare output, {glue:text}`p5_law20_loss_T:.3f` at $T = 20$; the
# audit, which sees only samples of the actions (on a $T = 5$ copy, where the leaking events are
# frequent enough to sample), certifies a 95% lower bound, {glue:text}`p5_audit_printed:.3f`. The
# bound is smaller (a lower bound, from a shorter run) and still above $\eps = 1$: enough to refute
# the claim. A repaired Phase I passes (the next page proves it $\eps$-DP), and Thompson sampling,
# which states no $\eps$ with a checkable constant, is measured to leak more than $\eps = 1$.
#
# :::{admonition} Key results
# :class: important
#
# - Mechanisms: every correct one passes; every broken copy (noise halved) is caught, from
#   {glue:text}`p5_catch_randomized` samples per dataset (randomized response) to
#   {glue:text}`p5_catch_gaussian` (Gaussian).
# - Generic pair: none of the {glue:text}`p5_n_bandit` bandit algorithms is caught, GDP-NCB included
#   (Private-Fair-Greedy on a pair of its own): this pair does not expose GDP-NCB's leak.
# - Pair built for GDP-NCB's Phase I, claimed $\eps = 1$: exact loss
#   {glue:text}`p5_law20_loss_T:.3f` ($T = 20$), audit's 95% bound {glue:text}`p5_audit_printed:.3f`
#   ($T = 5$); the sparse-vector repair ({doc}`proof <repair>`) passes with {glue:text}`p5_audit_repaired:.2f`.
# - Thompson sampling: DP-TS and Lazy-DP-TS pass (DP-TS vacuously); Gaussian-prior Thompson sampling
#   run unchanged, called private by two papers with no readable constant, leaks at least
#   {glue:text}`p5_ts_gauss_lb:.2f`.
# :::
#
# :::{admonition} Learning objectives and prerequisites
# :class: tip
#
# After this chapter you can:
#
# - turn an event whose probability differs between neighbouring datasets into a certified lower
#   bound on $\eps$;
# - audit a mechanism or a bandit algorithm as a black box with `privbandits.audit`, and size the
#   sample needed to catch a broken one;
# - design a neighbouring pair that exposes GDP-NCB's Phase I leak, and confirm it exactly;
# - prove a sparse-vector repair $\eps$-DP and measure what it costs in Nash regret (on
#   {doc}`the chapter's second page <repair>`).
#
# **Prerequisites:** {doc}`../foundations/privacy` (the definition, composition) and
# {doc}`../part2_dp_ncb/dp_ncb` (GDP-NCB); Parts I, III and IV for the other algorithms audited.
# Mathematics: confidence intervals for a binomial proportion, hypothesis tests, the union bound.
# :::
#
# ## From an event to a lower bound
#
# If $M$ is $(\eps,\delta)$-DP then for neighbouring $D, D'$ and every event $S$,
# $P[M(D)\in S] \le e^{\eps} P[M(D')\in S] + \delta$. Any event therefore *certifies*
# $\eps \ge \ln\frac{p_0-\delta}{p_1}$, where $p_0, p_1$ are its probabilities on $D$ and $D'$.
#
# :::{prf:algorithm} Two-sample audit
# :label: p5-alg-audit
#
# **Inputs** a sampler $M$, neighbouring pairs $(D_j, D'_j)_{j\le J}$, a sample size $n$, a level $\alpha$
#
# 1. For each pair $j$ (in parallel):
#    1. *Search*: draw $n$ outputs of $M(D_j)$ and $n$ of $M(D'_j)$; map them to categorical features
#       (the whole action sequence, the arm at round $t$, the number of pulls of arm $a$, the end of
#       Phase I, a bucketed or jointly bucketed release);
#    2. for every feature, try the prefix sets of its categories sorted by empirical likelihood ratio
#       and the two tails of their natural order (in either direction), and keep the event that
#       maximises the bound of step 3 on this sample;
#    3. *Confirm*: draw $n$ fresh outputs of each; count the chosen event $k_0, k_1$ times;
#       $\hat\eps_j = \ln\frac{\mathrm{CP}^{-}(k_0, n, \alpha/2J)-\delta}{\mathrm{CP}^{+}(k_1, n, \alpha/2J)}$.
# 2. Report $\hat\eps = \max_j \hat\eps_j$; verdict "violation" if $\hat\eps > \eps$.
# :::
#
# :::{prf:theorem} Validity of the audit
# :label: p5-thm-valid
#
# If $M$ is $(\eps,\delta)$-DP, then $P[\hat\eps > \eps] \le \alpha$: the verdict
# "violation" is wrong with probability at most $\alpha$.
# :::
#
# The event is chosen on the search sample only, so on the independent confirmation sample it is a
# fixed event; the two one-sided Clopper-Pearson bounds (level $\alpha/2J$ each) hold jointly with
# probability $1-\alpha/J$, and the union bound over the $J$ pairs (Bonferroni) gives $1-\alpha$. The
# converse does not hold: "consistent" only means that this search, at this sample size, found nothing.
# "Samples per dataset" below counts the search and the confirmation sample together. The auditor
# and the mechanisms' targets are in `privbandits.audit` (see the
# {ref}`package reference <api-reference>`).

# %% tags=["hide-input"]
import dataclasses
import itertools
import os
import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown
from myst_nb import glue

from privbandits.audit import (
    action_statistic_sampler,
    cached_audit,
    cached_audits,
    flip_pairs,
    hiring_sampler,
    leading_run,
    mechanism_targets,
    policy_sampler,
)
from privbandits.environments import bernoulli_instance
from privbandits.plotting import PAGE_WIDTH, show_table, use_book_style
from privbandits.policies import (
    DPTS,
    DPUCB,
    GDPNCB,
    LDPNCB,
    LDPUCB,
    AdaPUCB,
    AnytimeDPNCB,
    DPUCBBound,
    DPUCBInt,
    FixedBudgetThresholding,
    GaussianTS,
    LazyDPTS,
    PrivateUCB,
)
from privbandits.policies.dp_ncb import (
    PAPER_PHASE1_CONSTANT,
    leading_run_law,
    phase1_threshold_gdp,
)
from privbandits.policies.fair_hiring import HiringEnvironment, PrivateFairGreedy
from privbandits.policies.private_ucb import dp_ucb_int_privacy
from privbandits.simulate import simulate

use_book_style()
ALPHA = 0.05  # every audit's level: a false "violation" has probability <= 5%

# %% tags=["remove-cell"]
SHOW_PROGRESS = os.environ.get("PRIVBANDITS_PROGRESS", "1") != "0"
RESULTS = []  # the chapter's one results table, filled section by section


def show(table, columns):
    """The table for readers: the given columns, no index, numbers rounded, long cells wrapped."""
    formats = {"best lower bound": "{:.3f}", "confidence": "{:.3g}", "samples per dataset": "{:,}"}
    shown = table[columns].copy()
    if "verdict" in columns:  # "violation: lower bound x > claimed eps y" repeats two other columns
        shown["verdict"] = shown["verdict"].str.split(":").str[0]
    if "neighbouring pair" in columns:
        shown["neighbouring pair"] = shown["neighbouring pair"].str.replace("->", "→")
    return show_table(shown, formats={c: f for c, f in formats.items() if c in columns})


def record(name, claim, result, samples, pair, kind):
    """One row of the results table."""
    RESULTS.append({"algorithm": name, "claimed guarantee": claim, "claimed epsilon": result.claimed_epsilon,
                    "best lower bound": round(result.epsilon_lower, 3),
                    "confidence": result.confidence, "verdict": result.verdict,
                    "samples per dataset": 2 * samples, "neighbouring pair": pair, "kind": kind})


def values_of_r(event):
    """The auditor's event on the statistic R, in words: "R in a set of 2 of its values (D′ likelier)"."""
    size = re.search(r"set of (\d+) categories", event).group(1)
    side = "D′ likelier" if "(D' vs D)" in event else "D likelier"
    return f"R in a set of {size} of its values ({side})"


def as_power_of_ten(x):
    """x as math for prose, two significant figures: 5.9 \\times 10^{-5}."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return Markdown(f"${mantissa} \\times 10^{{{int(exponent)}}}$")


# %% [markdown]
# ## The mechanisms, and a broken copy of each
#
# We audit the Laplace mechanism, the Gaussian mechanism (classical calibration, $\eps=0.9$,
# $\delta=10^{-3}$), randomized response, PrivBern, the binary tree counter {cite}`chan2011private` on a
# stream of length 2 (the changed item lies in both p-sums) and the hybrid counter on a stream of length
# 4 (item 3 enters the tree at $t=3$ and the logarithmic release at $t=4$; we audit the releases minus
# the release at $t=2$, a post-processing, which cannot increase the privacy loss). Each broken copy
# halves the noise scale (equivalently: runs at $2\eps$ while claiming $\eps$).

# %%
# (broken?, name, target, samples): 10^5 per phase for the counters, else 10^6
mechanisms = [(broken, name, t, 100_000 if "counter" in name else 1_000_000)
              for broken in (False, True)
              for name, t in mechanism_targets(1.0, broken=broken).items()]
# independent audits, run in parallel (the same results as one by one)
audited_mechanisms = cached_audits([
    dict(config={"mechanism": name, "broken": broken}, sampler=t["sampler"],
         pairs=t["pairs"], epsilon=t["epsilon"], delta=t["delta"],
         features=t["features"], n_samples=n, alpha=ALPHA, seed=1,
         depends_on=["privbandits.mechanisms"])
    for broken, name, t, n in mechanisms
], progress=SHOW_PROGRESS)

# %% tags=["remove-input"]
for (broken, name, t, n), r in zip(mechanisms, audited_mechanisms):
    pair = "x = 0 vs 1" if "counter" not in name else "one stream item 0 vs 1"
    record(name + (" (broken: noise halved)" if broken else ""), f"({t['epsilon']:g}, {t['delta']:g})-DP", r, n,
           pair, "broken mechanism" if broken else "mechanism")
mech_table = pd.DataFrame([r for r in RESULTS if "mechanism" in r["kind"]])
show(mech_table, ["algorithm", "claimed guarantee", "best lower bound", "verdict"])

# %% tags=["remove-cell"]
assert not any(mech_table[mech_table.kind == "mechanism"].verdict.str.startswith("violation")), \
    "a correct mechanism was flagged"
assert all(mech_table[mech_table.kind == "broken mechanism"].verdict.str.startswith("violation")), \
    "a broken mechanism was not caught"
glue("p5_gauss_bound", float(mech_table.set_index("algorithm").loc["Gaussian", "best lower bound"]), display=False)

# %% [markdown]
# Every correct mechanism is found consistent, with lower bounds close to the claim for the one-shot
# mechanisms (the audit is nearly tight there), and every broken copy is caught. The Gaussian bound
# ({glue:text}`p5_gauss_bound:.3f`) stays well below its claimed 0.9 because the classical
# calibration is loose.
#
# ## Sample size needed to catch a broken mechanism
#
# How many samples does the auditor need? We audit each broken mechanism (true loss about twice the
# claim) at increasing $n$ and plot the fraction of seeds in which it is caught (ten seeds for the
# one-shot mechanisms, five for the counters, whose outputs are whole release sequences). The
# audits repeat the previous cell's at smaller sample sizes (unfold the cell to see them).
# Randomized response and PrivBern are caught at the same sample sizes, and so are the two
# counters: the figure draws each curve slightly shifted sideways, with its own marker, so that
# both curves of a pair stay visible.

# %% tags=["hide-input"]
broken_targets = mechanism_targets(1.0, broken=True)
sweep_plan = {}  # mechanism -> (sample sizes, seeds)
for name in broken_targets:
    if "counter" in name:
        sweep_plan[name] = ([1_000, 3_000, 10_000], range(5))
    else:
        sizes = [30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000]
        sweep_plan[name] = (sizes, range(10))
sweep_jobs = [(name, n, s) for name, (sizes, seeds) in sweep_plan.items()
              for n in sizes for s in seeds]
sweep_results = cached_audits([
    dict(config={"mechanism": name, "broken": True, "sweep": s},
         sampler=broken_targets[name]["sampler"],
         pairs=broken_targets[name]["pairs"],
         epsilon=broken_targets[name]["epsilon"],
         delta=broken_targets[name]["delta"],
         features=broken_targets[name]["features"],
         n_samples=n, alpha=ALPHA, seed=s,
         depends_on=["privbandits.mechanisms"])
    for name, n, s in sweep_jobs
], progress=SHOW_PROGRESS)
caught = {job: r.violation for job, r in zip(sweep_jobs, sweep_results)}
catch = {name: (sizes, [np.mean([caught[(name, n, s)] for s in seeds])
                        for n in sizes])
         for name, (sizes, seeds) in sweep_plan.items()}

# %% mystnb={"figure": {"caption": "How many samples the auditor needs: the fraction of seeds in which it catches a broken copy of each mechanism (its noise halved) against the samples per dataset, log scale. Every curve reaches 1; randomized response and PrivBern are caught first, the Gaussian mechanism, whose halved noise only shows in rare tail events, last.", "name": "p5-fig-catch"}, "image": {"alt": "Line chart: fraction of seeds in which each broken mechanism (noise halved) is caught, from 0 to 1, against samples per dataset on a log scale, one curve per mechanism (Laplace, Gaussian, randomized response, PrivBern, binary tree counter, hybrid counter); every curve rises to 1, randomized response and PrivBern first, the Gaussian mechanism last."}}
fig, ax = plt.subplots(figsize=(PAGE_WIDTH, 0.7 * PAGE_WIDTH))
styles = ["o-", "s--", "^-", "v--", "D-", "x--"]
for i, (name, (sizes, frac)) in enumerate(catch.items()):
    shift = 1.1 ** (i - 2.5)  # sideways, so that coinciding curves stay visible
    ax.plot([2 * n * shift for n in sizes], frac, styles[i], label=name,
            ms=7 - 0.6 * i, mfc="none" if i % 2 else None)
ax.set(xscale="log", ylabel="fraction of seeds caught",
       xlabel="samples per dataset (search + confirmation)",
       title="Catching the broken mechanisms (noise halved)")
ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=3)
plt.show()

# %% tags=["remove-cell"]
def all_caught_from(sizes, frac):
    """Samples per dataset (search + confirmation) from which every seed caught it."""
    caught = [2 * n for i, n in enumerate(sizes) if all(f == 1.0 for f in frac[i:])]
    return f"{min(caught):,}" if caught else "more than tried"


for name, (sizes, frac) in catch.items():
    glue("p5_catch_" + name.split()[0].lower(), all_caught_from(sizes, frac), display=False)

# %% [markdown]
# Samples per dataset from which every seed caught the broken copy: randomized response
# ({glue:text}`p5_catch_randomized`) and PrivBern ({glue:text}`p5_catch_privbern`), whose whole
# privacy loss sits on one of two outputs; Laplace ({glue:text}`p5_catch_laplace`), whose loss must be
# resolved by buckets in the tails; the binary tree and hybrid counters
# ({glue:text}`p5_catch_binary` and {glue:text}`p5_catch_hybrid`), whose loss is spread over two
# releases and found through a joint bucket; the Gaussian mechanism ({glue:text}`p5_catch_gaussian`),
# whose halved noise only shows in rare tail events. The bandit audits below use $2\cdot 10^5$ samples
# per dataset ($10^5$ to search, $10^5$ to confirm).
#
# (p5-bandits)=
# ## The bandit algorithms
#
# A bandit algorithm's dataset is its reward table `table[t, arm]` (row $t$: the potential rewards of
# user $t$); neighbouring tables differ in one row (one user's reward). Instance: $K=2$, $T=100$, all
# rewards equal to 1, $\eps=1$; the main pair flips arm 0's reward at round 0 from 1 to 0 (the
# first reward feeds every later decision). The output is the whole action sequence (and Phase I's end where
# the algorithm records it). For the local-DP algorithms (LDP-NCB, LDP-UCB, the thresholding algorithm
# with PrivBern) the claim is about one report, which implies the same guarantee for a change of one
# row. The auditor tries three pairs: the flip at round 0 with $10^5$ samples per dataset and phase,
# and flips at rounds 25 and 50 with $10^4$ (the two audits share the level $\alpha$ by Bonferroni).
# DP-UCB-INT's input $\eps = 1$ gives the weaker guarantee $(\eps', e^{-10})$ of its
# Corollary 3.1 {cite}`tossou2016algorithms`, which is what it claims and what we audit.

# %%
T, EPS, N = 100, 1.0, 100_000
instance = bernoulli_instance([0.7, 0.3])
table = np.ones((T, 2))
pairs = flip_pairs(table, [0])
eps_int = dp_ucb_int_privacy(T, EPS)
repair = GDPNCB(epsilon=EPS, phase1_rule="sparse_vector")
audited = [  # (policy, label, claimed epsilon, claimed delta, model)
    (DPUCBBound(epsilon=EPS), None, EPS, 0.0, "DP"),
    (DPUCB(epsilon=EPS), None, EPS, 0.0, "DP"),
    (DPUCBInt(epsilon=EPS), None, eps_int, float(np.exp(-10)), "DP"),
    (PrivateUCB(epsilon=EPS), None, EPS, 0.0, "DP"),
    (GDPNCB(epsilon=EPS), None, EPS, 0.0, "DP"),
    (repair, "GDP-NCB, sparse-vector Phase I (repair)", EPS, 0.0, "DP"),
    (AnytimeDPNCB(epsilon=EPS), None, EPS, 0.0, "DP"),
    (LDPNCB(epsilon=EPS), None, EPS, 0.0, "LDP"),
    (AnytimeDPNCB(base="ldp", epsilon=EPS), None, EPS, 0.0, "LDP"),
    (AdaPUCB(epsilon=EPS), None, EPS, 0.0, "DP"),
    (LDPUCB(epsilon=EPS), None, EPS, 0.0, "LDP"),
    (FixedBudgetThresholding(tau=0.5, epsilon=EPS),
     "Fixed-budget thresholding (PrivBern)", EPS, 0.0, "LDP"),
]
more_pairs = flip_pairs(table, [T // 4, T // 2])

# %% tags=["hide-input"]
recs = ("arms",)
requests = []
for policy, label, eps, delta, model in audited:
    sampler = policy_sampler(policy, instance, T, recs)
    config = {"policy": policy.config(), "T": T, "table": "ones",
              "records": recs}
    # Bonferroni over the two audits: level ALPHA / 2 each, so that
    # their maximum holds at 1 - ALPHA
    requests.append(dict(
        config={**config, "rounds": [0]}, sampler=sampler, pairs=pairs,
        epsilon=eps, delta=delta, n_samples=N, alpha=ALPHA / 2, seed=2,
        depends_on=[policy]))
    requests.append(dict(
        config={**config, "rounds": [T // 4, T // 2]}, sampler=sampler,
        pairs=more_pairs, epsilon=eps, delta=delta, n_samples=N // 10,
        alpha=ALPHA / 2, seed=3, depends_on=[policy]))

# %%
# 24 independent audits, in parallel
bandit_results = cached_audits(requests, progress=SHOW_PROGRESS)

# %% tags=["remove-input"]
for (policy, label, eps, delta, model), first, later in zip(audited, bandit_results[::2], bandit_results[1::2]):
    r = first if first.epsilon_lower >= later.epsilon_lower else later
    where = "r[0, 0]" if r is first else f"r[{[T // 4, T // 2][r.pair]}, 0]"
    r = dataclasses.replace(r, confidence=1 - ALPHA)
    delta_text = "e⁻¹⁰" if delta == np.exp(-10) else f"{delta:g}"  # DP-UCB-INT's delta
    claim = f"{eps:.3g}-{model}" if delta == 0 else f"({eps:.3g}, {delta_text})-{model}"
    record(label or policy.name, claim, r, r.n_samples, f"K=2, T=100, all ones; best of 3 pairs: {where}: 1 -> 0",
           "bandit")
bandit_table = pd.DataFrame([r for r in RESULTS if r["kind"] == "bandit"])
show(bandit_table, ["algorithm", "claimed guarantee", "best lower bound", "verdict"])

# %% tags=["remove-cell"]
assert not any(bandit_table.verdict.str.startswith("violation")), "a bandit algorithm violated on the generic pair"
glue("p5_n_bandit", len(audited), display=False)

# %% [markdown]
# On this generic pair no algorithm is caught, GDP-NCB included. How long does its Phase I last on
# the all-ones table, with the book's constant $C = 1$?

# %%
ones = bernoulli_instance([1.0, 1.0])  # every reward is 1: the all-ones table
phase1_runs = simulate(GDPNCB(epsilon=EPS), ones, T, runs=2_000, seed=4,
                       keep=("phase1_end",))
phase1_end = np.asarray(phase1_runs.records["phase1_end"])
ended_early = np.mean(phase1_end < T)  # Phase I ended before round T = 100

# %% tags=["remove-cell"]
glue("p5_ones_early", float(100 * ended_early), display=False)
glue("p5_ones_runs", f"{phase1_end.size:,}", display=False)
assert 0.05 < ended_early < 0.95, "the text says Phase I ends early in some runs and not in others"

# %% [markdown]
# Phase I ends before round 100 in {glue:text}`p5_ones_early:.0f`% of the
# {glue:text}`p5_ones_runs` runs and lasts the whole horizon in the others. Wherever it ends, one
# flipped reward moves each of its noisy tests by only $1/b$ ($b = \log T/\eps$, see below), and the
# shift it causes in the stopping round is too small for $2\cdot 10^5$ samples to resolve. The next
# section builds the pair that does expose it.
#
# (p5-phase1-leak)=
# ## GDP-NCB's Phase I leaks
#
# GDP-NCB is DP-NCB's Algorithm 1 {cite}`sarkar2026dpncb` ({prf:ref}`p2-alg-gdp` in Part II). It
# explores uniformly in Phase I and, after every pull of
# arm $i$, recomputes $\tilde\mu_i = \hat\mu_i + \mathrm{Lap}(\log T/(\eps N_{1,i}))$ with
# fresh noise and stops once $N_{1,i}\tilde\mu_i$ exceeds
# $\mathrm{thr} = C(c^2\log T + (\log T)^2/\eps)$, with DP-NCB's confidence constant $c = 3$ and
# Phase I constant $C$ (1600 in the paper, 1 in this book: {ref}`p2-constant-1600`). The proof sketch
# of DP-NCB's Theorem 2 says that
# "Phase I itself involves no privacy leakage (as no private outputs are released during this
# phase)", and Appendix C of DP-NCB's full version charges Phase I nothing. But the round at which
# Phase I stops shapes the actions: from that round on they follow DP-NCB's Eq. (4) (the Phase II
# index of {prf:ref}`p2-alg-gdp`), not a uniform draw.
#
# **How the stopping time depends on one reward.** $N_{1,i}\tilde\mu_i = S_i + Z$ with $S_i$ the
# sum of arm $i$'s Phase I rewards and $Z\sim\mathrm{Lap}(b)$, $b=\log T/\eps$: each test is a
# Laplace release of a sensitivity-1 statistic, i.e. $(\eps/\log T)$-DP on its own. A reward
# of arm $i$ seen at round $t_0$ enters **every** later test of arm $i$, and Phase I runs about
# $\mathrm{thr}/\mu_i$ such tests; basic composition charges
# $\approx \mathrm{thr}\,\eps/(\mu_i\log T) = C(c^2\eps + \log T)/\mu_i$, far above
# $\eps$, and nothing in the proof pays for it.
#
# **An event of the output.** The guarantee is about the action sequence $I_1, \dots, I_T$, so an
# audit (and an exact analysis) must use events of the actions: the end of Phase I is internal state
# and not a function of the actions. Take two arms, arm 0 paying 1 in every round and arm 1 paying 0
# (dataset $D$); the neighbour $D'$ sets arm 0's reward in round 1 to 0. Consider
# $A_r = \{I_1 = \dots = I_r = 0\}$, "the first $r$ actions are arm 0", and its statistic, the length
# $R$ of the first run of arm 0 (`privbandits.audit.leading_run`). On $A_r$, Phase I picks arm 0 $r$
# times (probability $2^{-r}$) and its first $r-1$ tests fail: $S_j = j$ on $D$ and $j-1$ on $D'$.
# If Phase I stopped earlier, with arm 1 never pulled, Eq. (4) ranks arm 1 ($\tilde\mu = 0$, $n = 1$)
# above arm 0 (clipped mean at most 1, $n\ge 2$), because the privacy terms shrink like $1/n$, so the
# next action is arm 1 and $A_r$ fails (`leading_run_law` checks this inequality at $n = 2$, the
# largest arm 0's index can be, since every term of Eq. (4) falls with $n$).
# Hence, with $F$ the Laplace CDF of scale $b$,
#
# $$P_D(A_r) = 2^{-r}\prod_{j=1}^{r-1} F(\mathrm{thr}-j),\qquad
# P_{D'}(A_r) = 2^{-r}\prod_{j=1}^{r-1} F(\mathrm{thr}-j+1),$$
#
# $$\ln\frac{P_{D'}(A_r)}{P_D(A_r)} = \ln\frac{F(\mathrm{thr})}{F(\mathrm{thr}-r+1)}
# \approx \ln 2 + \frac{r-1-\mathrm{thr}}{b}\quad (r-1>\mathrm{thr}):$$
#
# the product telescopes, and every test survived beyond the threshold costs another
# $\eps/\log T$, without bound. This is the classical failure of the sparse vector technique
# without a noisy threshold {cite}`lyu2017understanding`: each "below threshold" answer is paid for
# separately.
#
# The exact law on the instance $K=2$, $T=20$, `GDPNCB(epsilon=1.0, phase1_constant=0.2)`
# ($\mathrm{thr} = 7.19$, $b = \ln 20$):

# %%
EPS1 = 1.0
# the exact law of A_r (and of R) on D and D', computed in log space
law20 = leading_run_law(20, EPS1, 0.2)
# the first r whose loss exceeds eps
first_over = int(law20["r"][np.argmax(law20["loss"] > EPS1)])
# the delta that makes R alone (1, delta)-indistinguishable on this pair
excess = law20["p_run1"] - np.exp(EPS1) * law20["p_run0"]
delta20 = float(np.maximum(excess, 0).sum())
law_paper = leading_run_law(10**6, EPS1, PAPER_PHASE1_CONSTANT)  # the paper's C

# %% tags=["remove-cell"]
LOSS = "privacy loss: ln of the ratio, D′ over D"
exact20 = pd.DataFrame({"r": law20["r"], "probability of Aᵣ on D": np.exp(law20["log_p0"]),
                        "probability of Aᵣ on D′": np.exp(law20["log_p1"]),
                        LOSS: law20["loss"]}).set_index("r")
glue("p5_law20_first_r", first_over, display=False)
glue("p5_law20_loss_first", float(law20["loss"][first_over - 1]), display=False)
glue("p5_law20_p_first", float(np.exp(law20["log_p1"][first_over - 1])), display=False)
glue("p5_law20_p_first_md", as_power_of_ten(np.exp(law20["log_p1"][first_over - 1])), display=False)
glue("p5_law20_loss_11", float(law20["loss"][10]), display=False)
glue("p5_law20_loss_T", float(law20["loss"][-1]), display=False)
glue("p5_law20_delta", delta20, display=False)
glue("p5_law20_delta_md", as_power_of_ten(delta20), display=False)
glue("p5_paper_c_loss", float(law_paper["loss"][-1]), display=False)
glue("p5_paper_c_log10p", float(law_paper["log_p1"][-1] / np.log(10)), display=False)
paper_thr = phase1_threshold_gdp(10**6, EPS1, constant=PAPER_PHASE1_CONSTANT)
glue("p5_paper_c_thr", f"{paper_thr:,.0f}", display=False)
glue("p5_paper_c_thr_frac", float(paper_thr / 10**6), display=False)
assert paper_thr < 10**6, "the text says arm 0's sum can pass the paper's threshold before T"

# %% tags=["remove-input"]
show_table(exact20.loc[[2, 5, first_over - 1, first_over, first_over + 1, 20]].reset_index(),
           formats={LOSS: "{:.3f}"})

# %% [markdown]
# The loss of $A_r$ passes $\eps = 1$ at $r =$ {glue:text}`p5_law20_first_r`
# ({glue:text}`p5_law20_loss_first:.3f`), reaches {glue:text}`p5_law20_loss_11:.3f` at $r = 11$ and
# {glue:text}`p5_law20_loss_T:.3f` at $r = 20$, where $A_{20}$ is a single output ("arm 0 in every
# round"): GDP-NCB as printed is **not** $1$-DP, and not $\eps$-DP for any $\eps$ below
# that. The leak sits in the tail: the first such event has probability
# {glue:md}`p5_law20_p_first_md:myst` on $D'$, and the statistic $R$ alone is
# $(1, \delta)$-indistinguishable on this pair with $\delta =$ {glue:md}`p5_law20_delta_md:myst` (a
# statement about $R$, not about the whole action sequence). The theorem claims pure
# $\eps$-DP, and the loss grows with the horizon. Nor does the leak need the book's small
# constant: with the paper's $C = 1600$ at $T = 10^6$ (and $\eps = 1$), Phase I's threshold is
# {glue:text}`p5_paper_c_thr`, about {glue:text}`p5_paper_c_thr_frac:.2f` $T$, so a run of arm 0
# still passes it before the horizon, and $A_T$ has loss {glue:text}`p5_paper_c_loss:,.0f`, on an
# event of probability below $2^{-T}$ (its base-10 logarithm is
# {glue:text}`p5_paper_c_log10p:,.0f`, computed in log space).
#
# **The audit.** Events of probability $10^{-4}$ are beyond $2\cdot 10^5$ samples: such an event is
# seen only about ten times in $10^5$ confirmation draws, too few for a Clopper-Pearson bound to
# separate a loss near 1 from $\eps = 1$ (the table of detectable losses on {doc}`the next page
# <repair>` gives the smallest loss certified at each probability). So the audit runs on a shorter
# instance where the same leak sits on frequent events: $K=2$, $T=5$,
# `GDPNCB(epsilon=1.0, phase1_constant=0.05)`, the same tables and pair (`flip_pairs(table, [0])`), statistic $R$ through
# `action_statistic_sampler(policy, instance, 5, leading_run)` (a function of the actions only),
# $10^5$ samples per dataset and phase, seed 0.

# %%
T1, C1, N1 = 5, 0.05, 100_000
law5 = leading_run_law(T1, EPS1, C1)
table1 = np.zeros((T1, 2))
table1[:, 0] = 1.0  # arm 0 pays 1, arm 1 pays 0
pair1 = flip_pairs(table1, [0])
phase1 = {}
for rule in ("printed", "sparse_vector"):
    policy = GDPNCB(epsilon=EPS1, phase1_constant=C1, phase1_rule=rule)
    # the output audited: R, arm 0's leading run (a function of the actions)
    sampler = action_statistic_sampler(
        policy, bernoulli_instance([0.5, 0.5]), T1, leading_run)
    phase1[rule] = cached_audit(
        {"policy": policy.config(), "T": T1, "table": "arm 0 ones, arm 1 zeros",
         "rounds": [0], "statistic": "leading run of arm 0"},
        sampler, pair1, epsilon=EPS1, n_samples=N1, alpha=ALPHA, seed=0,
        depends_on=[policy])

# %% tags=["remove-cell"]
for rule in ("printed", "sparse_vector"):
    label = "GDP-NCB, Phase I pair" if rule == "printed" else "GDP-NCB, sparse-vector Phase I (repair), Phase I pair"
    record(label, f"{EPS1:g}-DP", phase1[rule], N1, "K=2, T=5, arm 0 ones, arm 1 zeros; r[0, 0]: 1 -> 0",
           "GDP-NCB Phase I")
r_star = 4  # the tail event R >= 4 (arm 0 in the first four rounds): the most frequent one with loss > 1.5
glue("p5_r_star", r_star, display=False)
glue("p5_law5_loss", float(law5["loss"][r_star - 1]), display=False)
glue("p5_law5_p", float(np.exp(law5["log_p1"][r_star - 1])), display=False)
glue("p5_law5_p0", float(np.exp(law5["log_p0"][r_star - 1])), display=False)
glue("p5_heldout_p1", float(phase1["printed"].p0), display=False)  # the likelier side, D'
glue("p5_heldout_p0", float(phase1["printed"].p1), display=False)
# the printed variant's event is R >= r_star: the only set of its size whose exact probabilities
# on D' and D are both within a factor 1.5 of the held-out frequencies
n_values = int(re.search(r"set of (\d+) categories", phase1["printed"].event).group(1))
assert "(D' vs D)" in phase1["printed"].event, "the text says the event is likelier on D'"
close = [set(c) for c in itertools.combinations(range(T1 + 1), n_values)
         if abs(np.log(law5["p_run1"][list(c)].sum() / phase1["printed"].p0)) < np.log(1.5)
         and abs(np.log(law5["p_run0"][list(c)].sum() / phase1["printed"].p1)) < np.log(1.5)]
assert close == [set(range(r_star, T1 + 1))], close
glue("p5_law5_max", float(np.max(np.abs(np.log(law5["p_run1"] / law5["p_run0"])))), display=False)
glue("p5_audit_printed", float(phase1["printed"].epsilon_lower), display=False)
glue("p5_audit_repaired", float(phase1["sparse_vector"].epsilon_lower), display=False)

# %% tags=["remove-input"]
show_table(pd.DataFrame({
    "variant": ["printed", "sparse-vector repair"],
    "certified lower bound (95%)": [phase1[k].epsilon_lower for k in phase1],
    "verdict": [phase1[k].verdict.split(":")[0] for k in phase1],
    "event chosen by the search": [values_of_r(phase1[k].event) for k in phase1],
    "held-out frequency, likelier side": [phase1[k].p0 for k in phase1],
    "held-out frequency, other side": [phase1[k].p1 for k in phase1],
}), digits=4)

# %% mystnb={"figure": {"caption": "GDP-NCB's Phase I, exactly: the privacy loss of the event \"the first $r$ actions are all arm 0\" against $r$, as printed at $T = 20$ and at $T = 5$, with the claimed $\\eps = 1$ as a horizontal line and the audit's certified lower bounds at $T = 5$ dashed and dotted. The loss grows with $r$ and crosses $\\eps$: the printed algorithm is not $\\eps$-DP, and the audit certifies a bound above 1 for it and far below 1 for the repair.", "name": "p5-fig-phase1-loss"}, "image": {"alt": "Line chart: exact privacy loss of the event that the first r actions are all arm 0, against r, for GDP-NCB as printed at T = 20 (C = 0.2) and at T = 5 (C = 0.05); both curves rise steadily with r and cross the horizontal line of the claimed epsilon = 1; dashed and dotted horizontal lines mark the certified lower bounds of the audit at T = 5, above 1 for the printed algorithm and far below 1 for the repair."}}
fig, ax = plt.subplots()
ax.plot(law20["r"], law20["loss"], "o-",
        label=r"exact loss of $A_r$, T = 20, C = 0.2")
ax.plot(law5["r"], law5["loss"], "s-",
        label=r"exact loss of $A_r$, T = 5, C = 0.05")
ax.axhline(EPS1, color="k", lw=1, label=r"claimed $\varepsilon$")
ax.axhline(phase1["printed"].epsilon_lower, color="C3", ls="--",
           label="audit lower bound, printed, T = 5")
ax.axhline(phase1["sparse_vector"].epsilon_lower, color="C2", ls=":",
           label="audit lower bound, repair, T = 5")
ax.set(xlabel=r"r (first r actions all arm 0)", ylabel="privacy loss",
       xticks=range(0, 21, 2), title="GDP-NCB Phase I as printed, K = 2, ε = 1")
ax.legend()
plt.show()

# %% tags=["remove-cell"]
assert law20["loss"][10] > EPS1 and law20["loss"][-1] > 4 * EPS1, "the exact loss must exceed epsilon"
max_loss5 = float(np.max(np.abs(np.log(law5["p_run1"] / law5["p_run0"]))))  # the worst single value of R
assert max_loss5 > phase1["printed"].epsilon_lower > EPS1, "audit: a valid bound above epsilon"
assert phase1["printed"].violation, "the printed Phase I must be caught on the exposing pair"
assert not phase1["sparse_vector"].violation, "the repaired Phase I must not be flagged"

# %% [markdown]
# **What the audit finds.** On the $T = 5$ pair ($R$ takes the values 0 to 5) the search picks, for
# the printed variant, a set of two values of $R$, more frequent on $D'$. Its held-out frequencies,
# {glue:text}`p5_heldout_p1:.4f` on $D'$ and {glue:text}`p5_heldout_p0:.4f` on $D$, are those of the
# tail event $R \ge$ {glue:text}`p5_r_star` (the values 4 and 5), the only two-value set whose exact
# probabilities are within a factor 1.5 of both: {glue:text}`p5_law5_p:.4f` and
# {glue:text}`p5_law5_p0:.4f`. That tail has exact loss {glue:text}`p5_law5_loss:.3f`,
# and the auditor certifies {glue:text}`p5_audit_printed:.3f` $> \eps$ at 95% confidence, from
# the actions alone. No event of $R$ has a larger loss than its worst single value
# ({glue:text}`p5_law5_max:.3f`), which bounds the certified value from above, as it must. The same Phase I
# runs inside every window of the anytime version (DP-NCB's Algorithm 3, {prf:ref}`p2-alg-anytime`),
# so it inherits the leak; Part VI
# audits it on this pair moved into one window ({ref}`the anytime GDP-NCB's exposing pair
# <p6-anytime-exposing>`). LDP-NCB (DP-NCB's Algorithm 2, {prf:ref}`p2-alg-ldp`) does not have the problem: its Phase I
# test reads only the rewards already released through $\mathrm{Lap}(1/\eps)$, so its stopping
# time is post-processing of $\eps$-LDP reports and needs no accounting of its own.

# %% [markdown]
# ## Private-Fair-Greedy (joint DP)
#
# Private-Fair-Greedy {cite}`an2025privatefairgreedy` claims $(\eps,\delta)$-joint DP: changing
# one candidate tuple changes the *other* rounds' hiring decisions little. The dataset is the
# candidate sequence, fixed in advance (`run(..., candidates=...)`: the row of each group's pool
# presented in each round), and the neighbour changes the tuple of round 0, whose hired candidate
# enters the private regression and every later rank window: group 0's candidate is the best row of
# its pool on one side and the worst on the other (both inside the clipping bound $L$, fixed in
# advance). The output is the hired group of rounds 1 to $T-1$; the changed user's own decision, which
# joint DP does not protect, is left out. Instance: $K=2$ groups, $d=2$, 500 candidates per group
# (standard normal, projected to the unit ball, seed 0), $\theta^* = (0.6, 0.8)$, noise 0.1, $T=50$,
# candidate sequence drawn once (seed 1), $L = 3$, $\eps=1$, $\delta=10^{-3}$,
# $2\cdot 10^4$ samples per dataset and phase.

# %%
P, D, T2 = 500, 2, 50
theta_star = np.array([0.6, 0.8])
rng = np.random.default_rng(0)
pools = rng.normal(size=(2 * P, D))
pools /= np.maximum(1.0, np.linalg.norm(pools, axis=1))[:, None]
hiring_env = HiringEnvironment((pools[:P], pools[P:]), theta_star, 0.1)
scores0 = pools[:P] @ theta_star
d0 = np.random.default_rng(1).integers(0, P, size=(T2, 2))
d1 = d0.copy()
# the neighbour: round 0's candidate of group 0 is the best row, or the worst
d0[0, 0], d1[0, 0] = int(np.argmax(scores0)), int(np.argmin(scores0))
pfg = PrivateFairGreedy(epsilon=1.0, delta=1e-3, l_tilde=3.0)
pfg_result = cached_audit(
    {"policy": pfg.config(), "pools": "normal, unit ball, seed 0, 2 x 500",
     "T": T2, "candidates": "seed 1; round 0, group 0: best <-> worst",
     "theta": theta_star.tolist(), "noise": 0.1},
    hiring_sampler(pfg, hiring_env, T2, changed_round=0), [(d0, d1)],
    epsilon=1.0, delta=1e-3, n_samples=20_000, alpha=ALPHA, seed=3,
    depends_on=[pfg])
print(f"Private-Fair-Greedy: certified lower bound "
      f"{pfg_result.epsilon_lower:.3f} on ε; verdict: {pfg_result.verdict}")

# %% tags=["remove-cell"]
record("Private-Fair-Greedy", "(1, 0.001)-JDP", pfg_result, 20_000, "round-0 candidate tuple", "joint DP")

# %% [markdown]
# (p5-thompson)=
# ## Thompson sampling
#
# {doc}`Part VI's Thompson-sampling page <../part6_frontier/thompson>` adds three algorithms, audited
# on the generic pair of {ref}`the bandit section <p5-bandits>` with the same samples, pairs and
# level: DP-TS and Lazy-DP-TS {cite}`hu2022near`, proven $\eps$-DP (its Theorems 1 and 3, for
# one changed reward vector, over the whole arm sequence), and Thompson sampling with Gaussian priors
# {cite}`agrawal2013further` run unchanged. Tossou and Dimitrakakis {cite}`tossou2018differential` and
# Ou, Avella Medina and Cummings {cite}`ou2024thompson` claim that the latter is private as it stands;
# only their abstracts could be read, with no constant, so it is audited against $\eps = 1$ for the
# record, and its lower bound is the result.

# %% tags=["hide-input"]
thompson = [(DPTS(epsilon=EPS), "1-DP (proven)"),
            (LazyDPTS(epsilon=EPS), "1-DP (proven)"),
            (GaussianTS(), "none stated (tested at ε = 1)")]
ts_requests = []
for policy, claim in thompson:
    sampler = policy_sampler(policy, instance, T, recs)
    config = {"policy": policy.config(), "T": T, "table": "ones",
              "records": recs}
    # the two audits of the other bandit algorithms (Part VI's page asks the
    # same ones: one cache entry each)
    ts_requests.append(dict(
        config={**config, "rounds": [0]}, sampler=sampler, pairs=pairs,
        epsilon=EPS, delta=0.0, n_samples=N, alpha=ALPHA / 2, seed=2,
        depends_on=[policy]))
    ts_requests.append(dict(
        config={**config, "rounds": [T // 4, T // 2]}, sampler=sampler,
        pairs=more_pairs, epsilon=EPS, delta=0.0, n_samples=N // 10,
        alpha=ALPHA / 2, seed=3, depends_on=[policy]))
ts_results = cached_audits(ts_requests, progress=SHOW_PROGRESS)

# %% tags=["remove-input"]
for (policy, claim), first, later in zip(thompson, ts_results[::2], ts_results[1::2]):
    r = first if first.epsilon_lower >= later.epsilon_lower else later
    where = "r[0, 0]" if r is first else f"r[{[T // 4, T // 2][r.pair]}, 0]"
    r = dataclasses.replace(r, confidence=1 - ALPHA)
    record(policy.name, claim, r, r.n_samples, f"K=2, T=100, all ones; best of 3 pairs: {where}: 1 -> 0",
           "Thompson sampling")
    if isinstance(policy, GaussianTS):  # no stated epsilon: the bound is a measurement, not a verdict
        RESULTS[-1]["verdict"] = "no claim: the bound is the result"
ts_table = pd.DataFrame([r for r in RESULTS if r["kind"] == "Thompson sampling"])
show(ts_table, ["algorithm", "claimed guarantee", "best lower bound", "verdict"])

# %% tags=["remove-cell"]
ts_bound = ts_table.set_index("algorithm")["best lower bound"]
assert ts_bound["Gaussian TS"] > EPS, "the text says unchanged Gaussian TS is certified above eps = 1"
assert not any(ts_table.verdict.str.startswith("violation")), "DP-TS and Lazy-DP-TS pass on the generic pair"
glue("p5_ts_gauss_lb", float(ts_bound["Gaussian TS"]), display=False)
glue("p5_ts_dpts_lb", float(ts_bound["DP-TS"]), display=False)
glue("p5_ts_lazy_lb", float(ts_bound["Lazy-DP-TS"]), display=False)

# %% [markdown]
# DP-TS and Lazy-DP-TS pass, with bounds of {glue:text}`p5_ts_dpts_lb:.3f` and
# {glue:text}`p5_ts_lazy_lb:.3f`. For DP-TS the pass is vacuous at this horizon: its printed
# optimism clips every arm's mean to 1 for the whole run, so its arms hardly depend on the rewards,
# and an audit of it cannot find anything ({ref}`the Part VI page measures this <p6ts-audit>`).
# Lazy-DP-TS's pass is a weak test: on the all-ones table a flipped reward inside an epoch leaves
# its clipped mean at 1, so only the first pull's reward can move its arms, in few runs; nothing
# was found there, consistent with its proof. Gaussian Thompson sampling, unchanged, leaks at least
# {glue:text}`p5_ts_gauss_lb:.2f` through one reward at $T = 100$: it is not $\eps$-DP for any
# $\eps$ below that. This does not refute the $O(\ln^2 T)$ of Tossou and Dimitrakakis (no constant
# could be read) nor Ou et al.'s instance-dependent guarantees; it says that, run as printed, its
# privacy loss is well above the budgets the book's private algorithms are held to.
#
# ## Results
#
# All the audits of this part in one table: every mechanism and private algorithm of the book, the
# guarantee it claims, the best lower bound the auditor certified (at the stated confidence) and the verdict.

# %% tags=["remove-input"]
results = pd.DataFrame(RESULTS)
show(results, ["algorithm", "claimed guarantee", "best lower bound", "confidence", "verdict", "samples per dataset",
               "neighbouring pair"])

# %% mystnb={"figure": {"caption": "Every audit at a glance: the certified lower bound over the claimed $\\eps$, one bar per mechanism or algorithm, with a line at 1. Only the red bars and the orange one cross it: the red ones are the deliberately broken mechanisms and GDP-NCB on its Phase I pair; the orange one is Gaussian Thompson sampling run unchanged, which states no $\\eps$ and is shown against $\\eps = 1$. Most correct mechanisms come close to 1; the bandit algorithms stay far below it, several at 0.", "name": "p5-fig-summary"}, "image": {"alt": "Horizontal bar chart, one bar per audited mechanism or algorithm: certified lower bound divided by the claimed epsilon, with a vertical line at 1; the red bars, the broken mechanisms and GDP-NCB on its Phase I pair, cross the line, and so does one orange bar, Gaussian Thompson sampling, audited against epsilon = 1; all other bars stay below it, those of most correct mechanisms close to it and those of the bandit algorithms further below."}}
fig, ax = plt.subplots(figsize=(7, 8))
y = np.arange(len(results))[::-1]
colors = ["C3" if v.startswith("violation") else
          "C1" if v.startswith("no claim") else "C0" for v in results.verdict]
ratio = results["best lower bound"] / results["claimed epsilon"]
ax.barh(y, ratio, color=colors)
ax.axvline(1.0, color="k", lw=1)
ax.set_yticks(y, results.algorithm, fontsize="small")
ax.set(xlabel=r"certified lower bound / claimed $\varepsilon$"
              "\n(red: violation; orange: no claim)",
       title="Audit of every private algorithm")
plt.show()

# %% tags=["remove-cell"]
verdicts = dict(zip(results.algorithm, results.verdict))
assert verdicts["GDP-NCB, Phase I pair"].startswith("violation")
violators = sorted({a for a, v in verdicts.items() if v.startswith("violation") and "broken" not in a})
assert violators == ["GDP-NCB, Phase I pair"], violators
assert all(v.startswith("violation") for a, v in verdicts.items() if "broken" in a)
print("Violations of a claimed guarantee (broken copies aside): " + ", ".join(violators) + ".")

# %% [markdown]
# ## Summary
#
# The audit turns an event whose probability moves between neighbouring datasets into a certified
# lower bound on $\eps$: a bound above the claim refutes it, a bound below it proves nothing. It is
# sharp on the mechanisms, whose loss sits in one release: correct ones come close to their claims and
# every broken copy is caught. On the generic pair the bandit algorithms stay far below their claims,
# since one changed reward reaches the actions through many noisy steps. The one broken guarantee is
# GDP-NCB's Phase I, whose stopping rule pays for every test it survives: a pair designed from that
# structure exposes it, the exact law measures it, the audit certifies it, and a sparse-vector repair
# passes. Gaussian Thompson sampling states no $\eps$, so its bound is a measurement, not a verdict.
# {doc}`The next page <repair>`
# proves the repair $\eps$-DP and measures what it costs.

# %% tags=["remove-input"]
def n_caught(kind):
    """How many audits of this kind ended in "violation", as "k of n"."""
    verdict = results.loc[results.kind == kind, "verdict"]
    return f"{verdict.str.startswith('violation').sum()} of {len(verdict)}"


show_table(pd.DataFrame({
    "audit": ["correct mechanisms caught", "broken mechanisms caught", "bandit algorithms caught, generic pair",
              "GDP-NCB Phase I: exact loss, T = 20", "GDP-NCB Phase I: audit's 95% lower bound, T = 5",
              "repaired Phase I: audit's 95% lower bound, T = 5", "Gaussian TS unchanged: audit's 95% lower bound"],
    "result": [n_caught("mechanism"), n_caught("broken mechanism"), n_caught("bandit"),
               f"{law20['loss'][-1]:.3f}", f"{phase1['printed'].epsilon_lower:.3f}",
               f"{phase1['sparse_vector'].epsilon_lower:.2f}", f"{ts_bound['Gaussian TS']:.2f}"],
    "claimed ε": ["as stated", "as stated", "as stated", "1", "1", "1", "none (tested at 1)"],
}))
