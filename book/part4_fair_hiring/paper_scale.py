# %% [markdown]
# # Reproducing the paper's experiments
#
# This page runs OFUL (the non-fair linear bandit baseline {cite}`abbasi2011improved`, introduced on
# {doc}`the first page <fair_hiring>`), Fair-Greedy and Private-Fair-Greedy ({prf:ref}`p4-alg-pfg`) on
# the census data at the paper's scale, checks the claims of the paper's Section 6 and its
# Figures A.1–A.4, and measures what the tight calibration and the rules for the bound $\tilde L$
# ({ref}`defined on the first page <p4-which-ltilde>`) cost in fair regret.
#
# ::::{admonition} Key results
# :class: important
#
# At the paper's scale its fairness claims hold, and privacy is costly. Both fair policies hire every
# group at parity, while OFUL favours some groups, and Fair-Greedy's fair regret stays near zero.
# Private-Fair-Greedy pays for privacy with a fair regret well above OFUL's, even at $\eps = 15$.
# Spending exactly the advertised budget, instead of the small part of it the printed calibration
# spends, wins much of the difference back; the authors' rule for $\tilde L$ lowers the fair regret
# too, but voids the guarantee. More $\eps$ or $\delta$ lowers the fair regret, as the paper says;
# how the budget is split matters much less. Whether the fair regret grows sublinearly cannot be
# decided at this horizon.
#
# :::{glue} p4_key_table
# :::
# ::::

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from privbandits.data import load_census_hiring
from privbandits.plotting import (color_for, plot_runs, show_table,
                                  use_book_style)
from privbandits.policies.fair_hiring import (
    OFUL, FairGreedy, HiringEnvironment, PrivateFairGreedy, privacy_guarantee,
    rank_sigma, tree_sigma)
from privbandits.simulate import simulate_hiring

use_book_style()
data = load_census_hiring()  # offline UCI Adult, as on the first page
env = HiringEnvironment.from_census(data, noise_sd=0.1)
K, T_PAPER = data.n_groups, 50_000

# %% tags=["remove-cell"]
from myst_nb import glue

# %% [markdown]
# ## Main comparison at paper scale
#
# $T = 50{,}000$ rounds, 10 trials, $\eps = 15$, $\delta = 0.1$, $\alpha_\eps = \alpha_\delta = 0.9$,
# with the exact rank step (`rank_refresh = 1`), as in the paper's Section 6. All three algorithms
# run here live. Results are cached on disk, keyed by the configuration and the package source.
#
# Every run of this part uses the same 10 seeds. Within one algorithm, trial $i$ of every setting
# draws the same random numbers in the same order (how many a round draws depends neither on the
# setting nor on the history), so it sees the same candidates, and the Private-Fair-Greedy settings
# also the same standard Gaussian draws, each scaled by the setting's own noise level. That is what
# makes the comparisons below between settings of one algorithm paired. The three algorithms draw
# different numbers of values per round (OFUL no rank noise, Fair-Greedy no tree noise), so after
# the first round their candidate streams differ: the comparison of the three algorithms is between
# independent trials, not paired ones. It also lets
# `simulate_hiring` run all the Private-Fair-Greedy settings of this page together, before their
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
# Every Private-Fair-Greedy setting of this page at T = 50,000: this
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

# %% mystnb={"figure": {"caption": "Figure 1 of {cite:t}`an2025privatefairgreedy` at the paper's scale: the share of hires from each of the four groups for OFUL, Fair-Greedy and Private-Fair-Greedy, with parity (25%) dotted. The two fair policies hire at parity; OFUL favours some groups and neglects others.", "name": "p4-fig-selection"}, "image": {"alt": "Figure 1: grouped bar chart of the percentage of hires from each of the four groups (White, Black, Asian-Pac-Islander, Amer-Indian-Eskimo) for OFUL, Fair-Greedy and Private-Fair-Greedy, with a dotted line at parity, 25%; the two fair policies sit on the line, OFUL does not."}}
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

# %% mystnb={"figure": {"caption": "Figure 2 at the paper's scale: cumulative fair pseudo-regret against the round, mean and 5-95% band over 10 trials. Fair-Greedy's stays near zero; Private-Fair-Greedy's grows fastest, above OFUL's.", "name": "p4-fig-regret"}, "image": {"alt": "Figure 2: cumulative fair pseudo-regret against the round, up to 50,000, mean and 5-95% band over 10 trials, for OFUL, Fair-Greedy and Private-Fair-Greedy; Private-Fair-Greedy highest, OFUL below it, Fair-Greedy near zero."}}
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

# %% tags=["remove-cell"]
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

# %% tags=["remove-input"]
show_table(summary.reset_index(names="algorithm"), transpose=True,
           caption=f"The three algorithms at T = {T:,} ({RUNS} trials)")

# %% [markdown]
# **The paper's claims at paper scale, checked.** The numbers quoted here come from this run
# (seed 2025) and are recomputed whenever the page runs.
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
#    because OFUL is still learning $\theta^*$. The stored $T = 500{,}000$ run ({doc}`the long run <beyond>`) shows its
#    per-round rate levelling off at the rate of hiring by the true reward
#    ({glue:text}`beyond.ipynb::p4_greedy_rate:.3f` per round).
# 3. *Private-Fair-Greedy's fair regret is much higher than OFUL's within $T = 50{,}000$.*
#    **Confirmed.** It is {glue:text}`p4_pfg_total:,.0f` (sd {glue:text}`p4_pfg_sd:.0f`),
#    {glue:text}`p4_pfg_over_oful:.1f` times OFUL's, even at $\eps = 15$.
# 4. *Private-Fair-Greedy's fair regret is sublinear.* **Not decidable at this horizon.** Its second
#    half costs {glue:text}`p4_pfg_half:.2f` times its first, the same bend as OFUL's curve, which is
#    asymptotically linear. The stored $T = 500{,}000$ run ({doc}`the long run <beyond>`) is our test of the authors'
#    conjecture.
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
# (p4-rank-refresh)=
# ## Effect of `rank_refresh` at $T = 50{,}000$
#
# One optional knob of the package departs from the paper to run faster. With `rank_refresh = R > 1`,
# $\hat\theta$ and the pool scores ({doc}`of the fast rank step <fair_hiring>`) are recomputed only
# when $\tilde t$ is a multiple of $R$. In between, line 6 of {prf:ref}`p4-alg-pfg` uses
# $\hat\theta_{\tilde t'}$ with $\tilde t' = R\lfloor\tilde t/R\rfloor$, the private estimate of an
# earlier prefix. That is post-processing of the tree's output, and the window and its noise are as
# in the paper, so the privacy argument is unchanged; only the estimate is up to $R-1$ hires staler.
# `rank_refresh = 1`, the default, is the paper.
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

# %% tags=["hide-input"]
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
show_table(refresh_table.reset_index(names="algorithm"),
           caption=f"Fair regret at T = {T:,}: exact rank step against R = {R}")

# %% [markdown]
# The effect is small. For Private-Fair-Greedy, $R = 16$ lowers the fair regret by
# {glue:text}`p4_r16_pfg_abs_pct:.1f`% ({glue:text}`p4_r16_pfg_abs_diff:.0f` $\pm$
# {glue:text}`p4_r16_pfg_se:.0f` out of {glue:text}`p4_pfg_total:,.0f`): slightly *lower*, perhaps
# because a stale $\hat\theta$ is also a less noisy one from round to round. Its regret is dominated
# by the privacy noise, not by staleness. For Fair-Greedy it adds {glue:text}`p4_r16_fg_diff:.1f`
# $\pm$ {glue:text}`p4_r16_fg_se:.1f` to about {glue:text}`p4_fg_total:,.0f`
# ({glue:text}`p4_r16_fg_pct:.0f`% more), still tiny next to OFUL's {glue:text}`p4_oful_total:,.0f`. We
# therefore use $R = 16$ for the runs that would otherwise be too slow for this part: the
# calibration comparisons and sweeps below and the stored $T = 500{,}000$ run ({doc}`the long run <beyond>`). Their
# Private-Fair-Greedy numbers may be about {glue:text}`p4_r16_pfg_abs_pct:.0f`% below those of the exact algorithm.

# %% tags=["remove-cell"]
assert abs(refresh_table.loc[PFG, "rel. diff (%)"]) < 10, "R=16 should change PFG's fair regret by < 10%"
assert refresh_table.loc[PFG, "paired diff"] < 0 < refresh_table.loc["Fair-Greedy", "paired diff"], \
    "the prose says R=16 lowers PFG's fair regret and raises Fair-Greedy's"
for key, lab in (("pfg", PFG), ("fg", "Fair-Greedy")):
    glue(f"p4_r16_{key}_pct", float(refresh_table.loc[lab, "rel. diff (%)"]), display=False)
    glue(f"p4_r16_{key}_diff", float(refresh_table.loc[lab, "paired diff"]), display=False)
    glue(f"p4_r16_{key}_se", float(refresh_table.loc[lab, "diff s.e."]), display=False)
glue("p4_r16_pfg_abs_pct", float(abs(refresh_table.loc[PFG, "rel. diff (%)"])), display=False)
glue("p4_r16_pfg_abs_diff", float(abs(refresh_table.loc[PFG, "paired diff"])), display=False)

# %% [markdown]
# (p4-noise-cost)=
# ## What the noise costs
#
# The tight calibration and the three rules for $\tilde L$ ({ref}`defined on the first page <p4-which-ltilde>`)
# change only the noise. Each is compared here with the printed default at $T = 50{,}000$ over the same 10 seeds
# (`rank_refresh = 16`, so the default is the $R = 16$ run of the previous section, and every
# difference is paired trial by trial). The table gives, per variant, the calibration's values, the
# exact $\eps$ at $\delta = 0.1$, and the fair regret.

# %%
# the printed default is the R = 16 run above; the variants are defined
# with the main comparison and already run there
variant_runs = {name: simulate_hiring(PrivateFairGreedy(**base_pfg, **option),
                                      env, T, RUNS, seed=SEED) if option
                else refreshed[PFG] for name, option in variants.items()}

# %% tags=["hide-input"]
n_T = T - 1 - (T - 1) // 2  # N_t at t = T
reference = refreshed[PFG]["fair_regret"].sum(axis=1)
rows = {}
for name, option in variants.items():
    policy = PrivateFairGreedy(**base_pfg, **option)
    res = variant_runs[name]
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
shown = noise_table.rename(  # short labels, the symbols of the text
    index=dict(zip(variants, ["printed", "tight", "L̃ norm", "L̃ data"])),
    columns={"L~": "L̃", "sigma_noise": "σ_noise", "2 Gamma": "2Γ",
             "sigma_t at t = T": "σ_t at t = T", "exact eps at delta = 0.1": "exact ε at δ = 0.1"})
show_table(shown.reset_index(names="variant"), transpose=True,
           caption=f"The noise variants at T = {T:,}, R = {R} ({RUNS} trials): the "
                   "printed calibration with the L̃ rules sum (default), norm and data "
                   "(the authors' code), and the tight calibration with sum")

# %% tags=["remove-cell"]
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
# The rest of this part keeps the printed calibration and the `"sum"` rule, so that its figures
# stay comparable with the paper's.

# %% tags=["remove-cell"]
assert tight_row["exact eps at delta = 0.1"] <= 15.0 and abs(tight_row["exact eps at delta = 0.1"] - 15.0) < 1e-6
assert tight_row["fair regret at T"] < noise_table.iloc[0]["fair regret at T"], "spending the budget should help"
assert data_row["fair regret at T"] < norm_row["fair regret at T"] < noise_table.iloc[0]["fair regret at T"], \
    "less noise (smaller L~) should mean less fair regret"

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

# %% mystnb={"figure": {"caption": "Figures A.1 to A.4 at the paper's scale: Private-Fair-Greedy's cumulative fair pseudo-regret, mean and 5-95% band over 10 trials, as one privacy parameter varies: $\\eps$ (A.1), $\\delta$ (A.2) and $\\alpha_\\eps$ (A.3) on one vertical scale, so their spreads compare directly, and $\\alpha_\\delta$ (A.4) as the paired difference to $\\alpha_\\delta = 0.9$, because its three curves coincide. $\\eps$ moves the regret most.", "name": "p4-fig-sweeps"}, "image": {"alt": "Figures A.1 to A.4 as four panels stacked vertically, one above the other: cumulative fair pseudo-regret of Private-Fair-Greedy against the round up to 50,000, mean and 5-95% band over 10 trials, for epsilon 1, 5, 15, 50 (A.1), delta 0.001, 0.01, 0.1 (A.2), alpha_epsilon 0.5, 0.7, 0.9 (A.3), on one vertical scale; panel A.4 shows, for alpha_delta 0.5 and 0.7, the paired difference to alpha_delta = 0.9 with a band of 1.96 standard errors, because the three cumulative curves coincide."}}
SYMBOL = {"epsilon": "ε", "delta": "δ", "alpha_eps": r"$\alpha_\varepsilon$",
          "alpha_delta": r"$\alpha_\delta$"}
COLORS = ["#440154", "#31688e", "#1f9e89", "#a65c00"]  # dark enough on white
STYLES = ["-", "--", ":", "-."]
xs = np.arange(1, T_SW + 1)
LARGER = {"font.size": 10.5, "axes.titlesize": 11, "xtick.labelsize": 10,
          "ytick.labelsize": 10, "legend.fontsize": 10}  # legible on a phone
with plt.rc_context(LARGER):  # one panel per row, as wide as a phone
    fig, axes = plt.subplots(4, 1, figsize=(4.6, 9.6), sharex=True)
    for ax, (title, (param, values)) in zip(axes, sweeps.items()):
        name, s = title.split(": ")[0], SYMBOL[param]
        if param == "alpha_delta":  # coinciding curves: paired differences
            for j, v in enumerate(values[:-1]):
                diff = sweep_curves[(param, v)] - sweep_curves[(param, 0.9)]
                plot_runs(ax, xs, diff, f"{s} = {v:g}", color=COLORS[j],
                          ls=STYLES[j], band="stderr")
            ax.axhline(0, color="gray", lw=0.8)
            ax.set_title(f"Figure {name}: {s}, difference to 0.9")
            ax.set_ylabel("difference")
        else:
            for j, v in enumerate(values):
                plot_runs(ax, xs, sweep_curves[(param, v)], f"{s} = {v:g}",
                          color=COLORS[j], ls=STYLES[j])
            ax.set_title(f"Figure {name}: {s}")
            ax.set_ylabel("fair regret")
        ax.legend(loc="upper left", ncols=2)
    axes[-1].xaxis.set_major_formatter("{x:,.0f}")
    axes[-1].set_xlabel("round t")
    top = max(ax.get_ylim()[1] for ax in axes[:3])
    for ax in axes[:3]:  # A.1-A.3 on one scale
        ax.set_ylim(0, top)
    plt.show()

# %% tags=["remove-cell"]
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
    glue(key + "_diff_signed", f"{diff.mean():+.0f}".replace("-", "\u2212"), display=False)  # true minus, as the tables

# %% tags=["remove-input"]
NAMES = {"epsilon": "ε", "delta": "δ", "alpha_eps": "α<sub>ε</sub>", "alpha_delta": "α<sub>δ</sub>"}
show_table(sweep_table, formats={"parameter": NAMES.get}, digits=3,
           caption=f"Fair regret at T = {T_SW:,} per setting ({RUNS_SW} trials)")

# %% [markdown]
# What the sweeps show at the paper's scale ($T = 50{,}000$, 10 trials; a random hire would cost
# about {glue:text}`beyond.ipynb::p4_random_total:,.0f`; the default setting's {glue:text}`p4_sw_epsilon_15:,.0f`
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
#   costs {glue:text}`p4_a4_0p5_diff:.0f` $\pm$ {glue:text}`p4_a4_0p5_diff_se:.0f` more than 0.9
#   ({glue:text}`p4_a4_0p5_diff_pct:.1f`% more), while 0.7 and 0.9 cannot be told apart (paired
#   difference {glue:text}`p4_a4_0p7_diff_signed` $\pm$ {glue:text}`p4_a4_0p7_diff_se:.0f`). $\alpha_\delta$ only
#   moves $\delta$ between $\ln(4/\delta_{\rm reg})$ in $\sigma_{\rm noise}$ and $\ln(1/\delta_{\rm rank})$ in
#   $\rho_{\rm rank}$, and logarithms change little.
#
# The page checks A.1 and A.2 each time it runs, and that $\alpha_\delta = 0.5$ is worse than 0.9 in the
# paired comparison.
#
# (p4-authors-runs)=
# **What the paper's figures ran.** The authors' public code (DP-GMFBandits, commit `73ab664`)
# departs from the paper in several ways ({doc}`as_run` lists them all and measures what each
# moves); two of them set the level of these curves.
#
# - It passes the **total** $(\eps, \delta)$ to the regression tree, not
#   $(\eps_{\rm reg}, \delta_{\rm reg})$: `PrivateFairGreedy.__init__` calls
#   `super().__init__(T, epsilon, delta, ...)` (`policies.py`, lines 416-418), and
#   `PrivateRidgePolicy` hands these to the tree (lines 358-367). The rank step gets
#   $\eps - \eps_{\rm reg}$ and $\delta - \delta_{\rm reg}$ (lines 380-390). By the paper's own
#   accounting its runs at the nominal $(15, 0.1)$ therefore spend
#   $(15 + 1.5, 0.1 + 0.01) = (16.5, 0.11)$, and at the same $\tilde L$ their tree noise is {glue:text}`p4_authors_tree_ratio:.2f`
#   times ours.
# - It sets $\tilde L$ by the `"data"` rule ({ref}`defined on the first page <p4-which-ltilde>`); the experiment
#   folders named in `plot.py` (lines 351-354) record $\tilde L = 21.6746$ on their ACS data.
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
# ## Verdict
#
# On the census data, at the paper's scale, the paper's fairness claims hold: the two fair policies
# hire every group at parity, and Fair-Greedy's fair regret stays near zero while OFUL's grows.
# Private-Fair-Greedy keeps the parity, but its fair regret is
# {glue:text}`p4_pfg_over_oful:.1f` times OFUL's at a generous $\eps = 15$, and much of that price is
# noise its budget does not require: spending the budget exactly lowers it by
# {glue:text}`p4_tight_gain_pct:.0f`%. More $\eps$ or $\delta$ lowers the fair regret, as the paper
# says, and how the budget is split between the two steps matters much less. Whether the fair
# regret grows sublinearly is a question this horizon cannot answer; {doc}`the long run <beyond>`
# takes it up. The key results box at the top of the page gives the numbers.

# %% tags=["remove-cell"]
# the key results box's table: the numbers behind the verdict, from the runs above
assert fair_total[PFG].mean() > 1.5 * fair_total["OFUL"].mean(), "the box says well above OFUL's"
gap_to_oful = noise_table.iloc[0]["fair regret at T"] - fair_total["OFUL"].mean()
assert noise_table.iloc[0]["fair regret at T"] - tight_row["fair regret at T"] > 0.4 * gap_to_oful, \
    "the box says the tight calibration wins much of the difference to OFUL back"
spread = {p: np.ptp([sweep_final[(p, v)].mean() for v in values]) for p, values in sweeps.values()}
assert max(spread["alpha_eps"], spread["alpha_delta"]) < 0.5 * min(spread["epsilon"], spread["delta"]), \
    f"the box says the budget split matters much less than epsilon and delta: {spread}"


def key_row(res):
    """Fair regret at T, its ratio to OFUL's, second half over first, distance from parity."""
    total = res["fair_regret"].sum(axis=1)
    second, first = res["fair_regret"][:, T // 2:].sum(axis=1), res["fair_regret"][:, :T // 2].sum(axis=1)
    gap = max(abs(np.mean(res["groups"] == k) - 1 / K) for k in range(K))
    return {"fair regret at T": total.mean(),
            "÷ OFUL's": total.mean() / fair_total["OFUL"].mean(),
            "2nd half ÷ 1st half": (second / first).mean(),
            "off parity (points of %)": 100 * gap}


key_table = pd.DataFrame({
    **{lab: key_row(results[lab]) for lab in results},
    f"… R = {R}": key_row(refreshed[PFG]),
    f"… R = {R}, tight calibration": key_row(variant_runs["tight, L~ sum"]),
    f"… R = {R}, authors' L̃ rule (no guarantee)":
        key_row(variant_runs["printed, L~ data (authors' code)"]),
}).T
glue("p4_key_table", show_table(
    key_table.reset_index(names="setting"), digits=2,
    caption=f"Key results at T = {T:,} ({RUNS} trials; … is {PFG}; off parity: the "
            "largest distance of a group's share of hires from 25%)"), display=False)
