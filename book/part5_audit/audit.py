# %% [markdown]
# (p5-audit)=
# # Do the guarantees hold? An empirical privacy auditor
#
# Every algorithm in this book comes with a theorem of the form "this algorithm is
# $(\varepsilon,\delta)$-differentially private". None of the papers checks that claim on the code.
# This chapter does: it treats each mechanism and each bandit algorithm as a black box, runs it many
# times on two neighbouring datasets, and asks whether some event of the output is much more likely
# under one than under the other. The tool is `privbandits.audit`, in the spirit of StatDP
# {cite}`ding2018detecting` and DP-Sniper {cite}`bichsel2021dpsniper`.
#
# ## From an event to a lower bound
#
# If $M$ is $(\varepsilon,\delta)$-DP then for neighbouring $D, D'$ and every event $S$,
# $P[M(D)\in S] \le e^{\varepsilon} P[M(D')\in S] + \delta$. Any event therefore *certifies*
# $\varepsilon \ge \ln\frac{p_0-\delta}{p_1}$, where $p_0, p_1$ are its probabilities on $D$ and $D'$.
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
#    2. for every feature, sort its categories by empirical likelihood ratio and keep the prefix set
#       (in either direction) that maximises the bound of step 3 on this sample;
#    3. *Confirm*: draw $n$ fresh outputs of each; count the chosen event $k_0, k_1$ times;
#       $\hat\varepsilon_j = \ln\frac{\mathrm{CP}^{-}(k_0, n, \alpha/2J)-\delta}{\mathrm{CP}^{+}(k_1, n, \alpha/2J)}$.
# 2. Report $\hat\varepsilon = \max_j \hat\varepsilon_j$; verdict "violation" if $\hat\varepsilon > \varepsilon$.
# :::
#
# :::{prf:theorem} Validity of the audit
# :label: p5-thm-valid
#
# If $M$ is $(\varepsilon,\delta)$-DP, then $P[\hat\varepsilon > \varepsilon] \le \alpha$: the verdict
# "violation" is wrong with probability at most $\alpha$.
# :::
#
# The event is chosen on the search sample only, so on the independent confirmation sample it is a
# fixed event; the two one-sided Clopper-Pearson bounds (level $\alpha/2J$ each) hold jointly with
# probability $1-\alpha/J$, and the union bound over the $J$ pairs (Bonferroni) gives $1-\alpha$. The
# converse does not hold: "consistent" only means that this search, at this sample size, found nothing.

# %%
import numpy as np
import pandas as pd

from privbandits.audit import audit, cached_audit, flip_pairs, mechanism_targets, policy_sampler
from privbandits.environments import bernoulli_instance
from privbandits.plotting import use_book_style

use_book_style()
ALPHA = 0.05

# %% [markdown]
# ## The mechanisms, and a broken copy of each
#
# We audit the Laplace mechanism, the Gaussian mechanism (classical calibration, $\varepsilon=0.9$,
# $\delta=10^{-3}$), randomized response, PrivBern, the binary tree counter {cite}`chan2011private` on a
# stream of length 2 (the changed item lies in both p-sums) and the hybrid counter on a stream of length
# 4 (item 3 enters the tree at $t=3$ and the logarithmic release at $t=4$; we audit the releases minus
# the release at $t=2$, a post-processing, which cannot increase the privacy loss). Each broken copy
# halves the noise scale (equivalently: runs at $2\varepsilon$ while claiming $\varepsilon$).

# %%
rows = []
for broken in (False, True):
    for name, t in mechanism_targets(1.0, broken=broken).items():
        n = 100_000 if "counter" in name else 1_000_000
        r = cached_audit(
            {"mechanism": name, "broken": broken}, t["sampler"], t["pairs"],
            epsilon=t["epsilon"], delta=t["delta"], features=t["features"], n_samples=n, alpha=ALPHA, seed=1,
        )
        rows.append({"mechanism": name + (" (broken)" if broken else ""), "claimed": f"({t['epsilon']:g}, {t['delta']:g})",
                     "samples per dataset": 2 * n, "lower bound": round(r.epsilon_lower, 3),
                     "confidence": r.confidence, "verdict": r.verdict})
mech_table = pd.DataFrame(rows)
mech_table

# %%
assert not any(mech_table[~mech_table.mechanism.str.contains("broken")].verdict.str.startswith("violation")), \
    "a correct mechanism was flagged"
assert all(mech_table[mech_table.mechanism.str.contains("broken")].verdict.str.startswith("violation")), \
    "a broken mechanism was not caught"

# %% [markdown]
# Every correct mechanism is found consistent, with lower bounds close to the claim for the one-shot
# mechanisms (the audit is nearly tight there) and every broken copy is caught. The Gaussian bound
# stays well below 0.9 because the classical calibration is loose.
#
# ## Sample size needed to catch a broken mechanism
#
# How many samples does the auditor need? We audit the broken Laplace mechanism (true loss $2$, claimed
# $1$) at increasing $n$.

# %%
sizes = [1_000, 3_000, 10_000, 30_000, 100_000]
broken_laplace = mechanism_targets(1.0, broken=True)["Laplace"]
catch = []
for n in sizes:
    found = [cached_audit({"mechanism": "Laplace", "broken": True, "sweep": s}, broken_laplace["sampler"],
                          broken_laplace["pairs"], epsilon=1.0, n_samples=n, alpha=ALPHA, seed=s).violation
             for s in range(10)]
    catch.append({"samples per dataset": 2 * n, "caught (out of 10 seeds)": sum(found)})
pd.DataFrame(catch)

# %% [markdown]
# ## The bandit algorithms
#
# A bandit algorithm's dataset is its reward table `table[t, arm]` (row $t$: the potential rewards of
# user $t$); neighbouring tables differ in one row (one user's reward), and we flip one reward $1\to 0$
# at the first round, the middle round and the last round. The output is the action sequence (and
# Phase I's end where the algorithm records it). Instance: $K=2$, $T=100$, all rewards equal to 1,
# $\varepsilon=1$, $10^4$ samples per dataset and phase. For the local-DP algorithms (LDP-NCB, LDP-UCB,
# the thresholding algorithm with PrivBern) the claim is about one report, which implies the same
# guarantee for a change of one row.

# %%
from privbandits.policies.baselines import AdaPUCB, LDPUCB
from privbandits.policies.mishra2015 import PrivateUCB
from privbandits.policies.sarkar2026 import GDPNCB, LDPNCB, AnytimeDPNCB
from privbandits.policies.thresholding import FixedBudgetThresholding
from privbandits.policies.tossou2016 import DPUCB, DPUCBBound, DPUCBInt

T, EPS, N = 100, 1.0, 10_000
instance = bernoulli_instance([0.7, 0.3])
table = np.ones((T, 2))
pairs = flip_pairs(table, [0, T // 2, T - 1])
policies = [DPUCBBound(epsilon=EPS), DPUCB(epsilon=EPS), DPUCBInt(epsilon=EPS), PrivateUCB(epsilon=EPS),
            GDPNCB(epsilon=EPS), AnytimeDPNCB(epsilon=EPS), LDPNCB(epsilon=EPS), AdaPUCB(epsilon=EPS),
            LDPUCB(epsilon=EPS), FixedBudgetThresholding(tau=0.5, epsilon=EPS)]
rows = []
for policy in policies:
    recs = ("arms", "phase1_end") if isinstance(policy, (GDPNCB, LDPNCB)) else ("arms",)
    r = cached_audit({"policy": policy.config(), "T": T, "table": "ones", "rounds": [0, T // 2, T - 1], "records": recs},
                     policy_sampler(policy, instance, T, recs), pairs, epsilon=EPS, n_samples=N, alpha=ALPHA, seed=2)
    rows.append({"algorithm": policy.name, "claimed": f"{EPS:g}-DP", "lower bound": round(r.epsilon_lower, 3),
                 "confidence": r.confidence, "verdict": r.verdict, "best event": r.event})
bandit_table = pd.DataFrame(rows)
bandit_table

# %% [markdown]
# ## GDP-NCB's Phase I
#
# GDP-NCB recomputes its noisy Phase I means with fresh Laplace noise every round and stops Phase I
# when they cross a threshold, so the stopping time reads the exact means many times: the privacy
# analysis of a one-shot Laplace release does not cover this adaptive, repeated use. To expose it we
# make Phase I long (threshold constant 1, $T=200$, all rewards 1, so Phase I ends around round 125),
# flip the first reward of arm 0, and audit the end of Phase I alone. Rerun with
# `GDPNCB(epsilon=1.0, phase1_constant=1.0)`, `bernoulli_instance([0.9, 0.5])`, `table = np.ones((200, 2))`,
# pair `flip_pairs(table, [0])`, seed 0.

# %%
gdp = GDPNCB(epsilon=1.0, phase1_constant=1.0)
T2, N2 = 200, 20_000
table2 = np.ones((T2, 2))
gdp_result = cached_audit({"policy": gdp.config(), "T": T2, "table": "ones", "rounds": [0], "records": ["phase1_end"]},
                          policy_sampler(gdp, bernoulli_instance([0.9, 0.5]), T2, ("phase1_end",)),
                          flip_pairs(table2, [0]), epsilon=1.0, n_samples=N2, alpha=ALPHA, seed=0)
print(f"GDP-NCB Phase I stopping time: lower bound {gdp_result.epsilon_lower:.3f} "
      f"at confidence {gdp_result.confidence}: {gdp_result.verdict}")

# %% [markdown]
# At this scale the audit finds **no** violation: each round's stopping test sees the changed reward
# through noise of scale $\log T/(\varepsilon N_1)$ against a shift of $1/N_1$, i.e. a per-round loss of
# $\varepsilon/\log T$, and the stopping time aggregates these tests weakly. A "consistent" verdict is
# not a proof: the repeated fresh noise is still outside Theorem 2's argument, and a sparse-vector
# stopping rule would close the gap by construction. Auditing that repair, and larger samples on
# longer Phase I's, are left for future work.
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
