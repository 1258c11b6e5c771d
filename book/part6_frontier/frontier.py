# %% [markdown]
# # Which private bandit should you use? The privacy-regret frontier at matched guarantees
#
# **The question.** You must run a bandit algorithm on people's data under
# $\varepsilon$-differential privacy. Which of the book's private algorithms should you use, for
# your number of arms $K$, your $\varepsilon$, your horizon $T$ and your rewards, and what can go
# wrong with it?
#
# **The answer.** {glue:md}`p6_rule_md:myst` (An arm's *gap* is the best mean minus its own.) The
# risk is a run that *locks in*: it stops playing the best arm, and its regret grows linearly
# (DP-UCB-INT, excluded for this, does so in up to {glue:text}`p6_int_locked_worst:.0%` of its runs
# at one setting). None of the rule's picks had a run lock in, but {glue:text}`p6_runs` runs per
# setting cannot rule out a rate of up to {glue:text}`p6_lock_upper:.1%`.
#
# - **Why Lazy-DP-TS:** Hu and Hegde's private Thompson sampling ({doc}`its page <thompson>`) wins
#   {glue:text}`p6_lazy_wins` of the {glue:text}`p6_n_points` settings, with
#   {glue:text}`p6_lazy_kl_median:.2f` times AdaP-KLUCB's regret in the median (at best
#   {glue:text}`p6_lazy_kl_min:.2f`; AdaP-KLUCB is the default without it), and none of its
#   runs locked in at a setting. It loses where privacy
#   is strictest: {glue:md}`p6_lazy_loses_md:myst`
# - **Horizon unknown:** {glue:md}`p6_anytime_md:myst`
# - **Approximate $(\varepsilon, \delta)$-DP acceptable:** the same rule. A $\delta > 0$ helps only
#   DP-UCB-INT, whose low average regret is a bet, not a guarantee.
# - **Close calls:** {glue:md}`p6_close_calls_md:myst` {glue:md}`p6_rule_horizon_md:myst`
# - **Never use** the anytime GDP-NCB (its $\varepsilon$-DP claim is false: an audit certifies a
#   loss of {glue:text}`trust.ipynb::p6_any_certified:.3f` against the claimed
#   {glue:text}`trust.ipynb::p6_any_eps:g`), the printed Private-UCB (its median regret is
#   {glue:text}`p6_pucb_uniform:.0%` of uniform random play's), DP-TS (at $T = 10^5$ its optimism
#   drowns the rewards: regret {glue:text}`p6_dpts_uniform:.0%` of uniform play's), or DP-UCB and
#   DP-UCB-BOUND as printed (their counter is $2\varepsilon$-DP: split the budget, as here).
#
# **Evidence.** {glue:md}`p6_grid_md:myst` {glue:text}`p6_n_points` *settings* (instance, $T$,
# finite $\varepsilon$), each {glue:text}`p6_runs` runs. Every algorithm is tuned so that its proof
# gives the target $\varepsilon$. The **winner** of a setting is
# the proven $\varepsilon$-DP algorithm with the lowest average regret there; an algorithm with a
# locked-in run at any setting is excluded everywhere, and equal regrets (to a relative $10^{-9}$)
# all win. The rule's pick wins {glue:text}`p6_rule_agree` of the {glue:text}`p6_n_points`
# settings, and its regret is never more than {glue:text}`p6_rule_ratio_max:.2f` times the
# winner's ({glue:md}`p6_rule_beta_md:myst`). For *local* DP, where
# each user privatises their own reward, use LDP-UCB: it wins all {glue:text}`p6_local_points`
# local-DP settings. {doc}`The next page <trust>` checks each guarantee.
#
# Prerequisites: Parts {doc}`I <../part1_private_ucb/private_ucb>`,
# {doc}`II <../part2_dp_ncb/dp_ncb>` and {doc}`V <../part5_audit/audit>`; the code is in the
# {ref}`package reference <api-reference>`.

# %% tags=["hide-input"]
import math

import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter, LogLocator
import numpy as np
import pandas as pd
from IPython.display import Markdown
from myst_nb import glue

from privbandits.audit import clopper_pearson
from privbandits.calibration import (
    GLOBAL_ALGORITHMS,
    LOCAL_ALGORITHMS,
    READINGS,
    calibrate,
    dp_ucb_int_release_loss,
)
from privbandits.environments import BERNOULLI
from privbandits.frontier import (
    DELTA,
    EPSILONS,
    HORIZONS,
    STATS,
    frontier_instances,
    frontier_point,
    is_tie,
    lock_in_threshold,
    private_lower_bound,
    ranking,
    tail_summary,
)
from privbandits.plotting import color_for, format_number, show_table, use_book_style
from privbandits.policies.dp_ncb import sparse_vector_budget
from privbandits.provenance import check_close, check_digest
from privbandits.simulate import simulate

use_book_style()
INSTANCES = frontier_instances()
NARROW = 50  # characters: a long table split into parts this wide fits a phone's column
SHORT = {i: i.split(" (")[0].split(",")[0] for i in INSTANCES}  # an instance by its first words, in long tables
assert len(set(SHORT.values())) == len(SHORT)


def power(h):
    """A horizon as inline math: 10^5."""
    return f"$10^{{{round(math.log10(h))}}}$"


# %% [markdown]
# ## Words used on this page
#
# - **Regret.** $R_A(T)$, the *average regret* after $T$ rounds, is the best arm's mean minus the
#   mean reward per round ({prf:ref}`def-regret`); $T \cdot R_A(T)$ is the *cumulative* regret.
#   **Nash regret** $R_N(T)$ uses the geometric mean of the expected rewards instead
#   ({prf:ref}`def-nash-regret`).
# - **Pure and approximate DP.** $\varepsilon$-DP (*pure*) bounds the privacy loss of every outcome
#   by $\varepsilon$; $(\varepsilon, \delta)$-DP allows more with probability $\delta$ (here
#   $e^{-10}$). DP-UCB-INT has a proof of each kind: *DP-UCB-INT (pure)* is tuned to the pure one.
# - **Eps per tree, tail bound.** Private-UCB noises each arm's running sum with a binary tree of
#   counters, gives each of the $K$ trees $\varepsilon/K$, and adds $\Gamma/n_a$ to the mean of an
#   arm pulled $n_a$ times, where $\Gamma$ is the paper's bound on the tree's noise (Part I). As each
#   reward enters one tree, $\varepsilon$ per tree is already $\varepsilon$-DP (*eps per tree*);
#   *tail bound* replaces $\Gamma$ by a bound on the noise's tail.
# - **Episodic, counter, Thompson sampling.** An *episodic* algorithm
#   ({glue:text}`p6_episodic_list`) releases noisy statistics only at the ends of episodes: each
#   reward enters one release, except in GDP-NCB's Phase I, where it enters up to
#   $\lfloor\log_2 T\rfloor$ ({ref}`p6-ex-gdp-noise`). A *counter* (Part I's algorithms) adds noise
#   to every release of a running sum; DP-UCB's *hybrid counter* joins two. *Thompson sampling*
#   plays the arm with the largest draw from a posterior of each arm's mean; Lazy-DP-TS's posterior
#   rests on one noisy mean of the arm's latest epoch of fresh rewards (epochs double), shifted up.
# - **Setting classes.** {glue:md}`p6_classes_md:myst`
# - **Lock-in.** With $\Delta_{\min}$ the smallest gap between the best mean and another arm's, a
#   run *locks in* when its regret at $T$ is at least $T\Delta_{\min}/2$ while
#   another run of the same setting has learned ({prf:ref}`p6-def-locked-in`).

# %% [markdown]
# ## Matched guarantees
#
# `calibrate(algorithm, epsilon, delta, horizon)` returns the parameters under which an algorithm's
# *proven* accounting gives exactly the target, with the book's corrections:
#
# - **Private-UCB** {cite}`mishra2015nearly` as printed: width $\sqrt{2\ln t/n_a} + \Gamma/n_a$
#   (Part I), $\varepsilon/K$-DP; two more *readings* (ways to read the paper; see the words above).
# - **DP-UCB-BOUND, DP-UCB**: the hybrid counter as printed is $2\varepsilon$-DP (Part I); with the
#   budget split between its parts (`hybrid_split=True`) the target is the parameter.
# - **DP-UCB-INT**: the mean of an arm pulled $n$ times is released with $\mathrm{Lap}(n^{v/2-1})$
#   noise at pull counts further and further apart (Part I); $v =$ {glue:text}`p6_int_v:g`, the
#   paper's value, is the exponent of that schedule. Corollary 3.1 is the minimum of a basic-composition term (pure) and an
#   advanced-composition term (needs $\delta > 0$). *DP-UCB-INT (pure)* uses the first;
#   *DP-UCB-INT*, at $(\varepsilon, e^{-10})$, either. At {glue:text}`p6_int_pure_points` of the
#   {glue:text}`p6_int_points` ($\varepsilon$, $T$) pairs (all at small $\varepsilon$) the two
#   are the same pure policy.
# - **AdaP-UCB, AdaP-KLUCB, DP-SE**: each reward enters one Laplace release; the target is the
#   parameter. DP-SE {cite}`sajed2019optimal` is successive elimination on fresh epochs, each epoch
#   mean released once with $\mathrm{Lap}(1/(\varepsilon R_\ell))$ ($\beta = 1/T$).
# - **DP-TS, Lazy-DP-TS** {cite}`hu2022near`: Thompson sampling on Laplace-noised means shifted
#   up by an optimism offset ({doc}`Thompson sampling <thompson>`); $\varepsilon$-DP for the whole run (their Theorems 1
#   and 3); the target is the parameter.
# - **GDP-NCB**: only Part V's repaired Phase I is $\varepsilon$-DP. **Anytime GDP-NCB** runs the
#   printed, leaking Phase I in every window: calibrated at its *claimed* $\varepsilon$, unproven.
#
# The tests check every calibration meets its target (`guarantee` recomputes it from the parameters). At $\varepsilon = 1$, $T = 10^6$:

# %% tags=["hide-input"]
ROWS = tuple(r for a in GLOBAL_ALGORITHMS + LOCAL_ALGORITHMS
             for r in (a, "DP-UCB-INT (pure)")[:1 + (a == "DP-UCB-INT")])
ROWS = ROWS[:1] + READINGS + ROWS[1:]  # Private-UCB's other two readings


def calibrate_row(name, eps, horizon):
    """DP-UCB-INT at (eps, e^-10), "DP-UCB-INT (pure)" at (eps, 0)."""
    if name == "DP-UCB-INT (pure)":
        return calibrate("DP-UCB-INT", eps, 0.0, horizon)
    delta = DELTA if name == "DP-UCB-INT" else 0.0
    return calibrate(name, eps, delta, horizon)


rows = []
for name in ROWS:
    cal = calibrate_row(name, 1.0, HORIZONS[-1])
    rows.append({
        "algorithm": name,
        "model": "local" if name in LOCAL_ALGORITHMS else "global",
        "parameters": cal.params,
        "guarantee (ε, δ)": (cal.epsilon, cal.delta),
        "proven": cal.proven,
        "accounting": cal.accounting,
    })
calibrations = pd.DataFrame(rows)

# %% tags=["remove-cell"]
def _params(p):
    """Calibrated parameters as text: floats to 4 significant figures."""
    return ", ".join(f"{k} = {v:.4g}" if isinstance(v, float) else f"{k} = {v}"
                     for k, v in p.items())


def _pair(pair):
    """An (epsilon, delta) guarantee as text."""
    eps, delta = pair
    return f"({eps:.6g}, {'0' if delta == 0 else f'e^{math.log(delta):.0f}'})"


eps_int_1 = calibrate("DP-UCB-INT", 1.0, DELTA, HORIZONS[-1]).params["epsilon"]
glue("p6_int_input_1", float(eps_int_1), display=False)
glue("p6_int_interval_1", int(math.ceil(1 / eps_int_1)), display=False)
actual_1 = dp_ucb_int_release_loss(HORIZONS[-1], eps_int_1, 1.1, DELTA)
assert actual_1 < 1.0, "the releases' composed loss is below Corollary 3.1's bound"
glue("p6_int_actual_1", actual_1, display=False)
pure_1 = calibrate("DP-UCB-INT", 1.0, 0.0, HORIZONS[-1]).params["epsilon"]
glue("p6_intpure_actual_1", dp_ucb_int_release_loss(HORIZONS[-1], pure_1, 1.1), display=False)
int_pure_pairs = [(e, h) for h in HORIZONS for e in EPSILONS[:-1]
                  if calibrate("DP-UCB-INT", e, DELTA, h).delta == 0]
for e, h in int_pure_pairs:  # there the (eps, e^-10) calibration is the pure one
    assert calibrate("DP-UCB-INT", e, DELTA, h).params == calibrate("DP-UCB-INT", e, 0.0, h).params
glue("p6_int_points", len(HORIZONS) * (len(EPSILONS) - 1), display=False)
glue("p6_int_pure_points", len(int_pure_pairs), display=False)
assert max(e for e, _ in int_pure_pairs) <= 0.5, "the text: the pure pairs are all at small eps"
shown = calibrations.assign(parameters=calibrations["parameters"].map(_params),
                            **{"guarantee (ε, δ)": calibrations["guarantee (ε, δ)"].map(_pair)})
assert "eps/k-DP" in calibrate("Private-UCB", 1.0, 0.0, HORIZONS[-1]).accounting, "printed: eps/k-DP"
shown.loc[shown["algorithm"] == "Private-UCB", "guarantee (ε, δ)"] = "(1/K, 0) on K arms: stricter"
glue("p6_int_v", calibrate("DP-UCB-INT", 1.0, DELTA, HORIZONS[-1]).params["v"], display=False)
glue("p6_alpha", calibrate("AdaP-KLUCB", 1.0, 0.0, HORIZONS[-1]).policy.alpha, display=False)
EPISODIC_PROVEN = ("AdaP-KLUCB", "AdaP-UCB", "DP-SE", "GDP-NCB")  # release only at the ends of episodes
glue("p6_episodic_list", ", ".join(EPISODIC_PROVEN), display=False)
glue("p6_grid_md", Markdown(
    f"{len(INSTANCES)} instances, {len(EPSILONS) - 1} values of $\\varepsilon$ (and $\\varepsilon = \\infty$, the "
    "non-private reference, drawn but not counted) and $T \\in \\{" + ", ".join(power(h)[1:-1] for h in HORIZONS)
    + "\\}$:"), display=False)

# %%
show_table(shown, keys=1)

# %% [markdown]
# DP-UCB-INT's target $\varepsilon' = 1$ becomes the input $\varepsilon \approx$
# {glue:text}`p6_int_input_1:.2g` (a release interval of {glue:text}`p6_int_interval_1:,d` pulls);
# composing the releases it makes (`dp_ucb_int_release_loss`) gives only
# {glue:text}`p6_int_actual_1:.2f` at $T = 10^6$, room a tighter accounting could spend on less
# noise (DP-UCB-INT (pure): {glue:text}`p6_intpure_actual_1:.4f` of its target 1, nearly tight).
#
# ## AdaP-KLUCB and the private lower bound
#
# :::{prf:algorithm} AdaP-KLUCB {cite}`azize2022privacy`, Algorithm 1 with the KL-UCB index
# :label: p6-alg-adap-klucb
#
# **Input:** $\varepsilon$, $K$ arms, $\alpha > 3$.
#
# 1. Choose each arm once ($t = K$); release each reward plus $\mathrm{Lap}(1/\varepsilon)$.
# 2. **for** $\ell = 1, 2, \dots$ **do**
# 3. $\quad t_\ell = t + 1$
# 4. $\quad A_\ell = \arg\max_a U_a$, with $\breve\mu_a = \mathrm{Clip}_{0,1}\big(\tilde\mu_a$
#    $+\,\alpha\log t_\ell/(\varepsilon f_a)\big)$ and $U_a = \max\{q\in[0,1] :$
#    $d(\breve\mu_a, q) \le \alpha\log t_\ell / f_a\}$
# 5. $\quad$ play $A_\ell$ until its number of pulls doubles; $\tilde\mu_{A_\ell}$ = mean of this
#    episode's $f$ rewards $+\,\mathrm{Lap}(1/(\varepsilon f))$, older rewards forgotten.
# :::
#
# $d$ is the Bernoulli KL divergence, $f_a$ the length of arm $a$'s last episode. It is
# $\varepsilon$-DP (their Theorem 6, from Lemma 1: each reward enters one release), and for
# Bernoulli arms their Theorem 8 bounds its regret by
#
# $$\sum_a \frac{C_1(\alpha)\,\Delta_a\log T}{\min\{\mathrm{kl}(\mu_a,\mu^*),\ C_2\varepsilon\Delta_a\}}$$
#
# plus a constant, where $C_1(\alpha)$ and $C_2$ are constants of the proof, the first depending
# on $\alpha$ (this page runs $\alpha =$ {glue:text}`p6_alpha:g`). This is the form of their lower
# bound (Theorem 3)
#
# $$\begin{aligned}&\liminf_{T\to\infty}\frac{R_T}{\log T}\\ &\quad\ge \sum_{a:\Delta_a>0}
# \frac{\Delta_a}{\min\{\mathrm{kl}(\mu_a,\mu^*),\ 6\varepsilon\Delta_a\}}\\
# &\quad= \frac{K-1}{6\varepsilon}\ \text{for small } \varepsilon.\end{aligned}$$
#
# Code: `privbandits.policies.AdaPKLUCB`.
#
# ## The frontier
#
# Instances: Tossou and Dimitrakakis's two scenarios (Part I), DP-NCB's 50 arms (Part II), five arms
# with the means $\{0.75, 0.625, 0.5, 0.375, 0.25\}$ of Azize and Basu's Figure 2 but Beta rewards
# (one non-Bernoulli instance), and a small-gap instance (five Bernoulli arms: 0.5 and four at 0.475). Privacy
# levels $\varepsilon \in \{0.1, 0.25, 0.5, 1, 2, 5\}$ and $\varepsilon = \infty$ (no privacy:
# the non-private reference, drawn but not a setting), $T \in \{10^5, 10^6\}$.
#
# :::{note}
# The grid comes from a stored run, not from this execution (it takes hours on 2 cores):
# `benchmarks/run_frontier.py` writes `results_frontier.npz` next to this chapter.
# :::
#
# Each setting is {glue:text}`p6_runs` runs (10 batches of 10, seeds $16, \dots, 25$) with a 95%
# batch-means band, at both horizons (Private-UCB's eps-per-tree reading at $10^5$ only). The file
# also holds every run's final regret: {glue:md}`p6_finals_rows:myst`. This execution recomputes
# {glue:md}`p6_recomputed_md:myst` and checks them.

# %% tags=["hide-input"]
stored = np.load("results_frontier.npz")
check_digest(stored, "results_frontier.npz")  # made by this code
VALUES, FINALS = stored["values"], stored["finals"]
ALGS = [str(a) for a in stored["algorithms"]]
INSTS = [str(i) for i in stored["instances"]]
PUCB_EPS, PUCB_VARIANT = READINGS  # Private-UCB: eps per tree; and tail bound too


def _at(alg, inst, eps, horizon):
    """Index of one point in the stored arrays."""
    return (ALGS.index(alg), INSTS.index(inst), EPSILONS.index(eps),
            HORIZONS.index(horizon))


def point(alg, inst, eps, horizon):
    """Stored (average, lo, hi, nash, lo, hi) of one point (NaN: undefined)."""
    return VALUES[_at(alg, inst, eps, horizon)]


def of_uniform(alg, settings):
    """Average regret of ``alg`` at each (instance, eps, T) of ``settings``, over uniform play's (the mean gap)."""
    return [point(alg, i, e, h)[0] / INSTANCES[i].gaps.mean() for i, e, h in settings]


def tail(alg, inst, eps, horizon):
    """`tail_summary` of a point's stored final regrets (None: not stored)."""
    f = FINALS[_at(alg, inst, eps, horizon)]
    if np.isnan(f).all():
        return None
    return tail_summary(f, INSTANCES[inst], horizon)


def flagged(alg, inst, eps, horizon):
    """A point whose t-band is not valid: lower end <= 0, or a run locked in."""
    t = tail(alg, inst, eps, horizon)
    low = point(alg, inst, eps, horizon)[1]
    return bool(low <= 0 or (t is not None and t.locked_in > 0))


# %% tags=["remove-cell"]
assert INSTS == list(INSTANCES), "the stored run's instances differ from frontier_instances()"
assert tuple(stored["epsilons"]) == EPSILONS and tuple(stored["horizons"]) == HORIZONS
assert tuple(str(s) for s in stored["stats"]) == STATS
point_runs = np.unique(stored["runs"][stored["runs"] > 0])
assert point_runs.size == 1, f"the stored points differ in runs: {point_runs}"
glue("p6_runs", int(point_runs[0]), display=False)
glue("p6_wall_min", float(stored["wall_seconds"]) / 60, display=False)
glue("p6_seed", int(stored["seed"]), display=False)
with_finals = {}
for a in ALGS:
    hs = [h for h in HORIZONS if not np.isnan(FINALS[ALGS.index(a), :, :, HORIZONS.index(h)]).all()]
    if hs:
        with_finals.setdefault(" and ".join(f"$T = {power(h)[1:-1]}$" for h in hs), []).append(a)
glue("p6_finals_rows", Markdown(", ".join(f"{len(v)} algorithms at {k}" for k, v in
                                           sorted(with_finals.items(), key=lambda kv: -len(kv[0])))),
     display=False)

# %% [markdown]
# The stored runs took {glue:text}`p6_wall_min:.0f` minutes in all (first seed
# {glue:text}`p6_seed`; the file also stores the commands that made it). The cell below recomputes
# them (100 runs a setting, the same seeds) and prints what it checked:

# %% tags=["hide-input"]
RECOMPUTED = ("AdaP-KLUCB", "AdaP-UCB", "GDP-NCB", "Anytime GDP-NCB")
RTOL = 1e-9  # relative: another processor rounds the last digits
# computed each time, not cached: nothing else reads these points (storing them cost ~11 CPU s cold)
CHECK = dict(batches=10, runs_per_batch=10, seed=int(stored["seed"]), cache=False)
for alg in RECOMPUTED:
    for iname, inst in INSTANCES.items():
        for eps in EPSILONS:
            pol = calibrate(alg, eps, 0.0, HORIZONS[0]).policy
            here = frontier_point(pol, inst, (HORIZONS[0],), **CHECK)
            check_close(here.values[0], point(alg, iname, eps, HORIZONS[0]),
                        RTOL, f"{alg}, {iname}, eps = {eps}")
n_checked = len(RECOMPUTED) * len(INSTANCES) * len(EPSILONS)
print(f"{n_checked} settings recomputed: all as stored")

# %% tags=["remove-cell"]
DPSE_RECOMPUTED = (("2 arms (Tossou)", 0.5), ("50 arms (DP-NCB)", 0.5), ("10 arms (Tossou)", math.inf))
for iname, eps in DPSE_RECOMPUTED:
    pol = calibrate("DP-SE", eps, 0.0, HORIZONS[0]).policy  # DP-SE's stored row is this package's DP-SE
    here = frontier_point(pol, INSTANCES[iname], (HORIZONS[0],), **CHECK)
    check_close(here.values[0], point("DP-SE", iname, eps, HORIZONS[0]), RTOL, f"DP-SE, {iname}, eps = {eps}")
eps_tex = {e: "\\infty" if math.isinf(e) else f"{e:g}" for e in EPSILONS}
glue("p6_recomputed_md", Markdown(
    f"the $T = 10^5$ settings of {', '.join(RECOMPUTED[:-1])} and {RECOMPUTED[-1]} (every instance and "
    "$\\varepsilon$), and three of DP-SE's (" + "; ".join(
        f"{i}, $\\varepsilon = {eps_tex[e]}$" for i, e in DPSE_RECOMPUTED) + ")"), display=False)
glue("p6_recompute_rtol", Markdown(f"$10^{{{round(math.log10(RTOL))}}}$"), display=False)

# %% [markdown]
# Every recomputed setting equals the stored one to a relative {glue:md}`p6_recompute_rtol:myst`, and
# the page stops if the code that made the file has changed since.
#
# :::{admonition} Redoing or widening the sweep
# :class: dropdown
#
# `python benchmarks/run_frontier.py --jobs 2 --no-cache` remakes the grid (`--only DP-UCB ...` some
# rows; `--finals ROW ...` stores per-run final regrets); `--dask tcp://<scheduler>:8786` runs it
# on a Dask cluster with the same numbers, bit for bit (README, "Running on a cluster"). From Python:
#
# ```python
# from dask.distributed import Client
# from joblib import parallel_config
#
# from privbandits.calibration import calibrate
# from privbandits.frontier import frontier_instances, frontier_point
#
# policy = calibrate("DP-UCB", 0.5, 0.0, 10**7).policy  # pure 0.5-DP, told T = 10^7
# with Client("tcp://<scheduler>:8786"), parallel_config(backend="dask"):
#     point = frontier_point(
#         policy, frontier_instances()["50 arms (DP-NCB)"], (10**7,),
#         batches=10, runs_per_batch=100, seed=16, n_jobs=64, cache=False)
# ```
# :::
#
# ### Cumulative regret against $\varepsilon$
#
# The figures show the cumulative regret $T\cdot R_A(T)$ with its 95% band, one panel per instance;
# hollow markers have no valid band (see "Heavy tails"). Line style gives the family; thin light
# grey lines are the algorithms not to use ({glue:text}`p6_never_list`). The thick grey line is
# the private lower bound (Bernoulli instances; asymptotic, not a floor at finite $T$), its dots the
# small-$\varepsilon$ form. A panel whose curves span less than a factor of 10 is zoomed to them;
# curves are shifted slightly sideways, so that equal regrets stay apart.

# %% tags=["hide-input"]
GLOBAL_ROWS = tuple(a for a in (
    "UCB", "AdaP-KLUCB", "AdaP-UCB", "DP-SE", "Lazy-DP-TS", "DP-TS", "GDP-NCB", "Anytime GDP-NCB",
    "DP-UCB-INT", "DP-UCB-INT (pure)", "DP-UCB-BOUND", "Private-UCB",
    PUCB_EPS, PUCB_VARIANT, "DP-UCB") if a in ALGS)
MARKERS = {"UCB": "o", "AdaP-KLUCB": "D", "AdaP-UCB": "s", "GDP-NCB": "^",
           "Anytime GDP-NCB": "v", "DP-UCB-INT": "P", "DP-UCB-INT (pure)": "p",
           "DP-UCB-BOUND": "X", "Private-UCB": "h", "DP-UCB": "*",
           "DP-SE": ">", "Lazy-DP-TS": "<", "DP-TS": "d", PUCB_EPS: "H", PUCB_VARIANT: "8",
           "LDP-UCB": "s", "LDP-NCB": "^", "Anytime LDP-NCB": "v"}
# line style by family, so that two alike colours differ in line too: solid episodic, dashed a
# counter that never locks in, dash-dot DP-UCB-INT (both versions: runs lock in), dotted Thompson
# sampling; the algorithms not to be used are thin light grey, one legend entry; the lower bound is
# thick grey
FAMILY_STYLE = {"episodic": "-", "counter": "--", "lockin": "-.", "sampling": ":", "never": "-"}
FAMILY_TEXT = {"episodic": "solid: episodic", "counter": "dashed: counter",
               "lockin": "dash-dot: lock-in", "sampling": "dotted: Thompson"}
NEVER_COLOR, NEVER_TEXT = "#c8c8c8", "grey: do not use"
FAMILY = {"DP-UCB-BOUND": "counter", "DP-UCB": "counter", "DP-UCB-INT": "lockin",
          "DP-UCB-INT (pure)": "lockin", "Anytime GDP-NCB": "never", "Lazy-DP-TS": "sampling", "DP-TS": "never",
          "Private-UCB": "never", PUCB_EPS: "never", PUCB_VARIANT: "never"}
X = np.array([e if math.isfinite(e) else 20.0 for e in EPSILONS])
# a 5-inch figure shown at a phone's column (about 360 px) keeps its text near 8 to 9 pt
FIGURE_WIDTH = 4.7
FIGURE_TEXT = {"font.size": 13.5, "axes.titlesize": 13.5, "axes.labelsize": 13.5,
               "xtick.labelsize": 12.5, "ytick.labelsize": 12.5,
               "legend.fontsize": 12.5}


def draw_row(ax, alg, iname, horizon, column, shift):
    """One algorithm on one panel: line, band where valid, hollow where not."""
    v = np.array([point(alg, iname, e, horizon) for e in EPSILONS])
    scale = horizon if column == 0 else 1.0
    ok = np.isfinite(v[:, column])
    if not ok.any():
        return
    bad = np.array([ok[n] and flagged(alg, iname, e, horizon)
                    for n, e in enumerate(EPSILONS)])
    x, color, marker = X * shift, color_for(alg), MARKERS[alg]
    if FAMILY.get(alg) == "never":  # thin light grey, no band, one legend entry for all
        ax.plot(x[ok], scale * v[ok, column], color=NEVER_COLOR, lw=1.0, label=NEVER_TEXT, zorder=1)
        return scale * v[ok, column]
    ls = FAMILY_STYLE[FAMILY.get(alg, "episodic")]
    ax.plot(x[ok], scale * v[ok, column], marker=marker, color=color,
            label=alg, lw=1.5, ms=6, ls=ls)
    ax.plot(x[bad], scale * v[bad, column], ls="none", marker=marker,
            color=color, mfc="white", ms=6)
    ax.fill_between(x, scale * v[:, column + 1], scale * v[:, column + 2],
                    where=ok & ~bad, color=color, alpha=0.15, lw=0)
    return scale * v[ok, column]


def draw_bounds(ax, iname, horizon):
    """The private lower bound and its small-eps form (K-1) log T / (6 eps) (Bernoulli)."""
    inst = INSTANCES[iname]
    if not np.all(inst.kinds == BERNOULLI):
        return
    finite = np.array([e for e in EPSILONS if math.isfinite(e)])
    lb = [private_lower_bound(inst, [horizon], e)[0] for e in EPSILONS]
    ax.plot(X, lb, color="grey", ls="-", lw=3.5, alpha=0.6,
            label="lower bound")
    ax.plot(finite, (inst.n_arms - 1) * math.log(horizon) / (6 * finite),
            color="grey", ls=":", lw=3.5, alpha=0.6,
            label="bound, small ε")


def zoom(ax, ys):
    """Zoom the y axis to the curves ys when they span less than a factor 10."""
    parts = [y[y > 0] for y in ys if y is not None]
    ys = np.concatenate(parts) if parts else np.array([])
    if ys.size and ys.max() / ys.min() < ZOOM_SPAN:
        ax.set_ylim(ys.min() / 1.15, ys.max() * 1.15)
        return True
    return False


ZOOM_SPAN = 10


def tick_text(v):
    """A tick as a reader writes it: 0.005, 20, 5,000, 50k, 2M."""
    if v >= 1e6:
        return f"{v / 1e6:g}M"
    if v >= 1e4:
        return f"{v / 1e3:g}k"
    return f"{v:,.0f}" if v >= 1 else f"{v:g}"


def label_log_axis(ax):
    """Label a log y axis on every panel: steps 1-2-5 (or 1 to 9) where it spans few decades."""
    lo, hi = ax.get_ylim()
    decades = math.log10(hi / lo)
    subs = (1.0,) if decades >= 2.5 else (1.0, 2.0, 5.0) if decades >= 0.8 else tuple(range(1, 10))
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=subs, numticks=20))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: tick_text(v)))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))


def frontier_figure(horizon, column, rows, lower_bounds=True):
    """A grid of panels two wide, one per instance (statistic `column`), one legend above."""
    with plt.rc_context(FIGURE_TEXT):
        n_rows = math.ceil(len(INSTS) / 2)
        fig, axes = plt.subplots(n_rows, 2, figsize=(FIGURE_WIDTH, 2.45 * n_rows + 2.6), sharex=True)
        zoomed = {}
        for ax, iname in zip(axes.flat, INSTS):
            ys = []
            for k, alg in enumerate(rows):
                shift = 10 ** (0.018 * (k - (len(rows) - 1) / 2))
                ys.append(draw_row(ax, alg, iname, horizon, column, shift))
            if lower_bounds and column == 0:
                draw_bounds(ax, iname, horizon)
            ax.set_xscale("log")
            ax.set_yscale("log")
            zoomed[iname] = zoom(ax, ys)
            ax.set_xticks(X, [f"{e:g}" if math.isfinite(e) else "" for e in EPSILONS],
                          rotation=90)  # one line each, clear of each other
            ax.annotate("∞", (X[-1], 0), xycoords=("data", "axes fraction"), xytext=(0, -5),
                        textcoords="offset points", ha="center", va="top")  # upright: on its side it reads as 8
            ax.minorticks_off()
            ax.tick_params(labelbottom=True)  # every panel: sharex hides them
            label_log_axis(ax)
            ax.set_title(iname + (" (zoomed)" if zoomed[iname] else ""))
        for ax in axes.flat[max(0, len(INSTS) - 2):len(INSTS)]:
            ax.set_xlabel("ε")
        for ax in axes[:, 0]:
            ax.set_ylabel("cumulative regret" if column == 0 else "Nash regret")
        handles = {}
        for ax in axes.flat[:len(INSTS)]:
            for h, lab in zip(*ax.get_legend_handles_labels()):
                handles.setdefault(lab, h)
        (hollow,) = axes.flat[0].plot([], [], ls="none", marker="o",
                                      mfc="white", color="grey")
        handles["hollow: no valid band"] = hollow
        if any(FAMILY.get(a) for a in rows):
            for fam, text in FAMILY_TEXT.items():
                if any(FAMILY.get(a, "episodic") == fam for a in rows):
                    (line,) = axes.flat[0].plot([], [], color="grey", ls=FAMILY_STYLE[fam])
                    handles[text] = line
        for ax in axes.flat[len(INSTS):]:
            ax.axis("off")
        fig.legend(handles.values(), handles.keys(), loc="outside upper center", ncols=2,
                   frameon=False, handlelength=2.2, columnspacing=1.0)
    return fig


def show_figure(key, fig):
    """Glue a figure for a {glue:figure} directive, and do not show it here."""
    glue(key, fig, display=False)
    plt.close(fig)


# %% tags=["remove-input"]
fig = frontier_figure(HORIZONS[-1], 0, GLOBAL_ROWS)
show_figure("p6_fig_global_1e6", fig)
show_figure("p6_fig_global_1e5", frontier_figure(HORIZONS[0], 0, GLOBAL_ROWS))
show_figure("p6_fig_nash_1e6",
            frontier_figure(HORIZONS[-1], 3, GLOBAL_ROWS, lower_bounds=False))

# %% tags=["remove-cell"]
glue("p6_never_list", ", ".join(a for a in GLOBAL_ROWS if FAMILY.get(a) == "never"), display=False)
from scipy.stats import spearmanr  # noqa: E402  the Nash caption: nearly the order of cumulative regret

NASH_PURE = [a for a in GLOBAL_ROWS if a not in ("UCB", "Anytime GDP-NCB", "DP-UCB-INT", PUCB_EPS)]
nash_order = [spearmanr([point(a, i, e, HORIZONS[-1])[0] for a in NASH_PURE],
                        [point(a, i, e, HORIZONS[-1])[3] for a in NASH_PURE]).correlation
              for i in INSTS for e in EPSILONS[:-1]]
assert np.median(nash_order) > 0.95 and min(nash_order) > 0.8, "Nash regret ranks nearly as cumulative regret"

# %% [markdown]
# :::{glue:figure} p6_fig_global_1e6
# :name: p6-fig-global-1e6
# :alt: Five log-log panels, two per row, of cumulative regret against epsilon at T = 10^6, one per instance, with one legend above; UCB and nine private algorithms in colour (solid lines episodic algorithms, dashed ones counters, dash-dot DP-UCB-INT, dotted Lazy-DP-TS) and the four not to be used that have points at this horizon (Anytime GDP-NCB, DP-TS, the printed Private-UCB and its tail-bound reading) as thin light-grey lines, near the top at every finite epsilon; DP-TS's grey line drops at epsilon infinity, where it is Thompson sampling without noise. Lazy-DP-TS (cyan left triangles, dotted) falls steeply with epsilon and, of the algorithms that never lock in, lies lowest on every panel from epsilon 0.5 or 1 on; below that, AdaP-KLUCB (violet diamonds, solid) is lowest on the 50-arm panel and DP-SE (olive triangles), nearly flat in epsilon, on the 2- and 10-arm panels at epsilon 0.1. DP-UCB-INT (pink) zigzags and is drawn hollow where its runs lock in. The thick grey private lower bound lies below every coloured curve of the Bernoulli panels, except on the small-gap panel at the largest epsilon, where Lazy-DP-TS meets it.
# :width: 100%
#
# Global DP, $T = 10^6$ (stored run): cumulative regret against $\varepsilon$. See Lazy-DP-TS
# lowest from $\varepsilon = 0.5$ or 1 on of the algorithms that never lock in, AdaP-KLUCB lowest
# at small $\varepsilon$ with many arms, DP-SE flat and best at $\varepsilon = 0.1$ with few arms,
# and DP-UCB-INT sometimes lower but hollow (lock-in) elsewhere: it never counts as a winner.
# :::
#
# :::{glue:figure} p6_fig_global_1e5
# :name: p6-fig-global-1e5
# :alt: The same five panels at T = 10^5: cumulative regret against epsilon for the same algorithms, in nearly the same order as at 10^6; the small-gap panel is zoomed to its curves, where DP-SE is lowest of the algorithms that never lock in at epsilon 0.25 and below, and Lazy-DP-TS from epsilon 0.5 on, falling below the thick grey lower bound from epsilon 2 on; its point without noise (epsilon infinity) is hollow. The printed Private-UCB and its eps-per-tree reading are two thin grey lines close together near the top.
# :width: 100%
#
# Global DP, $T = 10^5$ (stored run). As at $T = 10^6$, except on the small-gap panel, where DP-SE
# is lowest at $\varepsilon \le 0.25$.
# :::
#
# :::{glue:figure} p6_fig_nash_1e6
# :name: p6-fig-nash-1e6
# :alt: Five log-log panels of Nash regret against epsilon at T = 10^6 for the same algorithms; the order of the algorithms on each panel is nearly that of cumulative regret.
# :width: 100%
#
# Global DP, $T = 10^6$ (stored run): Nash regret against $\varepsilon$. See that the ranking by
# this fairness-aware regret is nearly the ranking by cumulative regret.
# :::
#
# ### Heavy tails: DP-UCB-INT and DP-TS lock in
#
# DP-UCB-INT's index is frozen between releases, up to {glue:text}`p6_int_interval_1:,d` pulls
# apart at $\varepsilon = 1$: when the best arm's noisy index falls low early, the arm may never be
# pulled again. A few such runs make the mean jump and the band explode, even below 0. DP-TS fails
# otherwise: its optimism offset shrinks like $\sqrt{\log n/n}$ in an arm's $n$ observations
# (Lazy-DP-TS's like $1/n$), so at $T = 10^5$ it clips every noisy mean to 1 (at
# {glue:md}`p6_dpts_blind_md:myst` its stored runs are identical: the noise never moves them). Each arm's posterior
# is then $\mathrm{Beta}(n + 1, 1)$ and favours the arm observed most: like a Pólya urn, a run
# settles on a random split of its pulls, with most of them on the worse arm as often as on the
# better.
#
# :::{prf:definition} Locked-in run
# :label: p6-def-locked-in
#
# A run is *locked in* (`frontier.tail_summary`) when its regret at $T$ is at least
# $T\Delta_{\min}/2$ at a setting where some run has learned (regret below $T\Delta_{\min}/4$).
# :::
#
# Where no run has learned, the setting is slow, not heavy-tailed. "Locked" means linear *up to*
# $T$: a frozen index may still move later (table below). A setting is flagged, hollow and without a
# band, when its band's lower end is at most 0 or some stored run locked in.

# %% tags=["hide-input"]
tail_rows, locked_algs, locked_at_inf = [], set(), set()  # lock-ins at a setting; without noise
for alg in GLOBAL_ROWS + LOCAL_ALGORITHMS:
    for iname in INSTS:
        for h in HORIZONS:
            for eps in EPSILONS:
                v = point(alg, iname, eps, h)
                if not np.isfinite(v[0]):
                    continue
                t = tail(alg, iname, eps, h)
                if t is not None and t.locked_in > 0:
                    (locked_algs if math.isfinite(eps) else locked_at_inf).add(alg)
                if flagged(alg, iname, eps, h):
                    tail_rows.append({
                        "algorithm": alg, "instance": iname, "T": h, "ε": eps,
                        "runs locked in": t.locked_in if t else None,
                        "mean regret": h * v[0],
                        "95% t-band": (h * v[1], h * v[2]),
                        "median": t.median if t else None,
                        "90% quantile": t.q90 if t else None,
                        "largest": t.maximum if t else None})
tails = pd.DataFrame(tail_rows)

# %% tags=["remove-cell"]
measured_rows = sorted({a for a in ALGS if not np.isnan(FINALS[ALGS.index(a)]).all()}, key=ALGS.index)
assert locked_algs == {"DP-UCB-INT", "DP-UCB-INT (pure)", "DP-TS"}, f"the text names who locks in, not {locked_algs}"
assert locked_at_inf <= {"Lazy-DP-TS", "DP-TS"}, f"without noise: {locked_at_inf}"
lazy_inf = {i: [tail("Lazy-DP-TS", i, math.inf, h).locked_in for h in HORIZONS] for i in INSTS}
lazy_inf = {i: x for i, x in lazy_inf.items() if max(x) > 0}
glue("p6_lazy_inf_md", Markdown("none of its runs locked in at $\\varepsilon = \\infty$ either" if not lazy_inf else
                                "without noise ($\\varepsilon = \\infty$, not a setting) " + "; ".join(
                                    f"{x[0]:.0%} of its runs on the instance “{i}” locked in at "
                                    f"$T = {power(HORIZONS[0])[1:-1]}$, {x[1]:.0%} at ${power(HORIZONS[1])[1:-1]}$"
                                    for i, x in lazy_inf.items())), display=False)
# DP-TS at T = 10^5: the eps (around 1) at which every stored run equals the eps = 1 run, on every instance
same_as_1 = [e for e in EPSILONS[:-1] if all(np.array_equal(FINALS[_at("DP-TS", i, e, HORIZONS[0])],
                                                           FINALS[_at("DP-TS", i, 1.0, HORIZONS[0])]) for i in INSTS)]
assert same_as_1 == [e for e in EPSILONS[:-1] if same_as_1[0] <= e <= same_as_1[-1]] and len(same_as_1) > 1
glue("p6_dpts_blind_md", Markdown(f"$\\varepsilon = {same_as_1[0]:g}$ to {same_as_1[-1]:g}"), display=False)
dpts_2 = max(tail("DP-TS", "2 arms (Tossou)", e, HORIZONS[0]).locked_in for e in EPSILONS[:-1])
glue("p6_dpts_locked_2arms", float(dpts_2), display=False)
assert dpts_2 > 0.3, "the text: DP-TS's 2-arm runs drift to the worse arm often"
glue("p6_locked_algs", ", ".join(sorted(locked_algs, key=ALGS.index)), display=False)
clean = [a for a in measured_rows if a not in locked_algs]
glue("p6_clean_algs", ", ".join(clean) if clean else "none", display=False)
glue("p6_flagged", len(tails), display=False)
glue("p6_flagged_locked", int((tails["runs locked in"] > 0).sum()), display=False)
glue("p6_flagged_unmeasured", int(tails["runs locked in"].isna().sum()), display=False)
n_locked_pts, n_unmeasured = int((tails["runs locked in"] > 0).sum()), int(tails["runs locked in"].isna().sum())
n_inf = int(np.isinf(tails["ε"]).sum())
glue("p6_flagged_md", Markdown(
    f"{len(tails) - n_inf} settings and {n_inf} points at $\\varepsilon = \\infty$ are flagged, "
    + ("all because some of their stored runs locked in." if n_locked_pts == len(tails) else
       f"{n_locked_pts} because some of their stored runs locked in, {n_unmeasured} because their band reaches 0 "
       "(their runs' final regrets are not stored).")), display=False)
ex_t = tail("DP-UCB-INT", "2 arms (Tossou)", 2.0, HORIZONS[-1])
glue("p6_ex_mean", float(HORIZONS[-1] * point("DP-UCB-INT", "2 arms (Tossou)", 2.0, HORIZONS[-1])[0]), display=False)
glue("p6_ex_lo", float(HORIZONS[-1] * point("DP-UCB-INT", "2 arms (Tossou)", 2.0, HORIZONS[-1])[1]), display=False)
glue("p6_ex_median", ex_t.median, display=False)
glue("p6_ex_max", ex_t.maximum, display=False)
glue("p6_ex_locked", ex_t.locked_in, display=False)
int_locked_points = {a: sum(tail(a, i, e, h).locked_in > 0 for i in INSTS for h in HORIZONS for e in EPSILONS[:-1])
                     for a in ("DP-UCB-INT", "DP-UCB-INT (pure)")}
glue("p6_int_locked_large", int(sum(tail("DP-UCB-INT", i, e, h).locked_in > 0 for i in INSTS for h in HORIZONS
                                    for e in EPSILONS[:-1] if e >= 1)), display=False)
int_2arms = [point("DP-UCB-INT", "2 arms (Tossou)", e, HORIZONS[-1])[0] for e in EPSILONS[:-1]]
assert int_2arms[4] > int_2arms[3] and int_2arms[5] < int_2arms[4], "on 2 arms at T = 1e6: up from eps 1 to 2, down at 5"
glue("p6_int_locked_points", int(int_locked_points["DP-UCB-INT"]), display=False)
glue("p6_int_points_per_row", len(INSTS) * len(HORIZONS) * (len(EPSILONS) - 1), display=False)
glue("p6_lock_upper", float(clopper_pearson(0, 100, 0.05)[1]), display=False)
glue("p6_intpure_locked_points", int(int_locked_points["DP-UCB-INT (pure)"]), display=False)
# Runs locked in at 10^5 that are prefixes of the 10^6 runs (DP-UCB-INT's input does not depend on T):
# the same rule at 10^6, on the same runs.
prefix_locked = prefix_unlocked = sg_locked = sg_unlocked = 0
for i in INSTS:
    for e in EPSILONS[:-1]:
        if calibrate("DP-UCB-INT", e, DELTA, HORIZONS[0]).params != calibrate("DP-UCB-INT", e, DELTA, HORIZONS[1]).params:
            continue
        f5, f6 = (FINALS[_at("DP-UCB-INT", i, e, h)] for h in HORIZONS)
        assert np.all(f6 >= f5 * (1 - 1e-9)), "the 10^5 runs must be prefixes of the 10^6 runs (regret only grows)"
        th5, th6 = (lock_in_threshold(INSTANCES[i], h) for h in HORIZONS)
        locked5 = (f5 >= th5) & bool(np.any(f5 < 0.5 * th5))
        assert locked5.mean() == tail("DP-UCB-INT", i, e, HORIZONS[0]).locked_in, "the rule of tail_summary"
        n_locked, n_unlocked = int(locked5.sum()), int((locked5 & (f6 < th6)).sum())
        prefix_locked += n_locked
        prefix_unlocked += n_unlocked
        if i == "small gap, 5 arms" and e == 1.0:
            sg_locked, sg_unlocked = n_locked, n_unlocked
assert 0 < prefix_unlocked < prefix_locked, "some, not all, 10^5 lock-ins are no longer linear at 10^6"
glue("p6_prefix_locked", prefix_locked, display=False)
glue("p6_prefix_unlocked", prefix_unlocked, display=False)
glue("p6_prefix_stay", prefix_locked - prefix_unlocked, display=False)
assert prefix_locked - prefix_unlocked > prefix_locked / 2, "the first screen: most never recover by 10^6"
glue("p6_prefix_sg_locked", sg_locked, display=False)
glue("p6_prefix_sg_unlocked", sg_unlocked, display=False)
ex_point = HORIZONS[-1] * point("DP-UCB-INT", "2 arms (Tossou)", 2.0, HORIZONS[-1])
tail_numbers = pd.DataFrame([
    ("algorithms with a locked-in run somewhere", ", ".join(sorted(locked_algs, key=ALGS.index))),
    ("algorithms whose stored runs never lock in at a setting (finite ε)", ", ".join(clean) if clean else "none"),
    ("example: DP-UCB-INT at (ε, δ) = (2, e^-10), 2 arms, T = 10^6: mean regret (band's lower end)",
     f"{ex_point[0]:,.0f} ({ex_point[1]:,.0f})"),
    ("… its median run; runs locked in; its worst run",
     f"regret {format_number(ex_t.median)}; {ex_t.locked_in:.0%} of runs; regret {format_number(ex_t.maximum)}"),
    ("settings with locked-in runs, of each version's",
     f"DP-UCB-INT {int_locked_points['DP-UCB-INT']}, DP-UCB-INT (pure) {int_locked_points['DP-UCB-INT (pure)']} "
     f"(of {len(INSTS) * len(HORIZONS) * (len(EPSILONS) - 1)} each)"),
    ("… settings of DP-UCB-INT's at ε ≥ 1", int(sum(tail("DP-UCB-INT", i, e, h).locked_in > 0 for i in INSTS for h in HORIZONS
                                           for e in EPSILONS[:-1] if e >= 1))),
    ("DP-UCB-INT runs locked in at T = 10^5 (where the 10^5 runs are the start of the 10^6 runs)",
     f"{prefix_locked} runs"),
    ("… of these, below the lock-in threshold again at T = 10^6", f"{prefix_unlocked} runs"),
    ("… on the small-gap instance at ε = 1: locked in at 10^5; below the threshold at 10^6",
     f"{sg_locked} runs; {sg_unlocked} of them"),
    ("0 of 100 runs locked in: lock-in rate up to (95% Clopper-Pearson)", f"{clopper_pearson(0, 100, 0.05)[1]:.1%}"),
], columns=["what", "value"]).astype({"value": str})
tail_summary_table = tails.groupby("algorithm", sort=False).agg(
    **{"flagged points": ("T", "size"),
       "with locked-in runs": ("runs locked in", lambda s: int((s > 0).sum())),
       "most runs locked in": ("runs locked in", "max"),
       "largest run regret": ("largest", "max")}).reset_index()
pct = "{:.0%}".format
band = lambda b: f"[{b[0]:,.0f}, {b[1]:,.0f}]"  # noqa: E731

# %% [markdown]
# {glue:md}`p6_flagged_md:myst` Per algorithm, and in full:

# %% tags=["remove-input"]
short = {"flagged points": "flagged", "with locked-in runs": "with lock-in",
         "most runs locked in": "most locked in",
         "largest run regret": "worst run"}
show_table(tail_summary_table.rename(columns=short),
           formats={"most locked in": pct})

# %% tags=["remove-input"]
show_table(tails.assign(algorithm=tails["algorithm"].replace({"DP-UCB-INT": "INT", "DP-UCB-INT (pure)": "INT pure"}),
                        instance=tails["instance"].map(SHORT))
           .rename(columns={"runs locked in": "locked", "mean regret": "mean", "90% quantile": "90%"}),
           horizons=["T"], keys=4, max_rows=10, missing="not stored", max_width=NARROW - 10,
           formats={"locked": pct, "95% t-band": band, "ε": "{:g}"},
           caption="Every flagged setting (INT: DP-UCB-INT; an instance by its first words; regrets of runs)")

# %% [markdown]
# **Verdict.** Of the algorithms worth using, only DP-UCB-INT's runs lock in, each costing about
# $T\Delta$: its mean regret is not monotone in $\varepsilon$, and its rank does not carry over to
# longer horizons. DP-TS's runs count as locked in where its play ignores the rewards (up to
# {glue:text}`p6_dpts_locked_2arms:.0%` of its 2-arm runs at $T = 10^5$ give the worse arm most
# pulls). Lazy-DP-TS's never did at a setting; {glue:md}`p6_lazy_inf_md:myst` (counting that point
# would exclude Lazy-DP-TS everywhere). The numbers:

# %% tags=["remove-input"]
show_table(tail_numbers, caption="Lock-in, in numbers")

# %% [markdown]
# ### Who wins where
#
# At every setting: the winner (defined under **Evidence** at the top: an algorithm with a locked-in
# run at any setting is excluded at every setting), the runner-up, and how DP-UCB-INT (pure),
# excluded so, compares.

# %% tags=["hide-input"]
NOT_PURE = ("UCB", "Anytime GDP-NCB", "DP-UCB-INT")
PURE = [a for a in GLOBAL_ROWS if a not in NOT_PURE and a != PUCB_EPS]
CANDIDATES = [a for a in PURE if a not in locked_algs]  # may win a setting
FIN = [(i, e, h) for i in INSTS for h in HORIZONS for e in EPSILONS[:-1]]


def winners(iname, eps, horizon):
    """The winners of a setting (ties all win) and the runner-up."""
    return ranking({a: point(a, iname, eps, horizon)[0] for a in CANDIDATES})


wins = []
for iname, eps, horizon in FIN:
    best, second = winners(iname, eps, horizon)
    low = point(best[0], iname, eps, horizon)[0]
    wins.append({
        "instance": iname, "T": horizon, "ε": eps,
        "winner": " = ".join(best), "regret": horizon * low,
        "runner-up": second,
        "÷ winner's": point(second, iname, eps, horizon)[0] / low,
        "INT (pure) ÷ winner's":
            point("DP-UCB-INT (pure)", iname, eps, horizon)[0] / low,
        "INT (pure) locked in":
            tail("DP-UCB-INT (pure)", iname, eps, horizon).locked_in})
wins = pd.DataFrame(wins)

# %% tags=["remove-cell"]
n_points = len(wins)
assert n_points == len(FIN)
won = pd.Series([a for w in wins["winner"] for a in w.split(" = ")]).value_counts()
glue("p6_n_points", n_points, display=False)
glue("p6_top", won.index[0], display=False)
glue("p6_top_wins", int(won.iloc[0]), display=False)
glue("p6_ties", int(wins["winner"].str.contains(" = ").sum()), display=False)
glue("p6_other_winners", ", ".join(f"{a} {int(c)}" for a, c in won.iloc[1:].items()) or "none", display=False)
assert won.index[0] == "Lazy-DP-TS", "the prose says Lazy-DP-TS wins most settings"
lazy_won = wins["winner"].str.split(" = ").map(lambda w: "Lazy-DP-TS" in w)
glue("p6_lazy_wins", int(lazy_won.sum()), display=False)
lazy_kl = np.array([point("Lazy-DP-TS", i, e, h)[0] / point("AdaP-KLUCB", i, e, h)[0] for i, e, h in FIN])
glue("p6_lazy_kl_median", float(np.median(lazy_kl)), display=False)
glue("p6_lazy_kl_min", float(lazy_kl.min()), display=False)
lost = wins[~lazy_won]
lost_by = lost.groupby("winner", sort=False)["ε"].agg(["size", "max"]).sort_values("max")
assert set(lost_by.index) == {"DP-SE", "AdaP-KLUCB"} and lost["ε"].max() < 1, "the text: it loses at small eps only"
kl_many = int(((lost["winner"] == "AdaP-KLUCB") & (lost["instance"] == "50 arms (DP-NCB)")).sum())
glue("p6_lazy_loses_md", Markdown(
    f"DP-SE wins {int(lost_by.loc['DP-SE', 'size'])} settings (all at $\\varepsilon \\le "
    f"{lost_by.loc['DP-SE', 'max']:g}$) and AdaP-KLUCB {int(lost_by.loc['AdaP-KLUCB', 'size'])} (all at "
    f"$\\varepsilon \\le {lost_by.loc['AdaP-KLUCB', 'max']:g}$, {kl_many} of them on the 50 arms)."), display=False)
# DP-UCB-INT (pure): a lower mean than the winner where some of its runs lock in
int_below = wins["INT (pure) ÷ winner's"] < 1
glue("p6_intpure_below", int(int_below.sum()), display=False)
glue("p6_intpure_below_locked", int((int_below & (wins["INT (pure) locked in"] > 0)).sum()), display=False)
int_median = float(wins["INT (pure) ÷ winner's"].median())
glue("p6_intpure_ratio_median", int_median, display=False)
assert (int_below & (wins["INT (pure) locked in"] > 0)).any(), "the verdict: below the winner, with locked-in runs"
# DP-UCB-INT at (eps, e^-10): only where it is not the pure policy does delta buy anything
same = [(point("DP-UCB-INT", i, e, h)[0], point("DP-UCB-INT (pure)", i, e, h)[0])
        for i in INSTS for e, h in int_pure_pairs]
assert all(is_tie(a, b) for a, b in same), "where its guarantee is pure, the row DP-UCB-INT is DP-UCB-INT (pure)"
where_delta = [(i, e, h) for i, e, h in FIN if (e, h) not in int_pure_pairs]
int_ratio = np.array([point("DP-UCB-INT", i, e, h)[0] / point(winners(i, e, h)[0][0], i, e, h)[0]
                      for i, e, h in where_delta])
int_delta_locked = [tail("DP-UCB-INT", i, e, h).locked_in for i, e, h in where_delta]
glue("p6_delta_points", len(where_delta), display=False)
glue("p6_int_beats", int(sum(r < 1 and not is_tie(r, 1.0) for r in int_ratio)), display=False)
glue("p6_int_ratio_median", float(np.median(int_ratio)), display=False)
glue("p6_int_ratio_min", float(int_ratio.min()), display=False)
glue("p6_int_locked_delta", int(sum(x > 0 for x in int_delta_locked)), display=False)
glue("p6_int_beats_locked", int(sum(r < 1 and not is_tie(r, 1.0) and x > 0 for r, x in zip(int_ratio, int_delta_locked))),
     display=False)
int_worst = max(tail(a, i, e, h).locked_in for a in ("DP-UCB-INT", "DP-UCB-INT (pure)") for i, e, h in FIN)
glue("p6_int_locked_worst", float(int_worst), display=False)
kl_vs_ucb = [point("AdaP-UCB", i, e, h)[0] / point("AdaP-KLUCB", i, e, h)[0] for i, e, h in FIN]
glue("p6_kl_over_ucb_median", float(np.median(kl_vs_ucb)), display=False)
glue("p6_kl_ucb_equal", int(sum(is_tie(r, 1.0) for r in kl_vs_ucb)), display=False)
tied_points = [(i, e, h) for i, e, h in FIN
               if is_tie(point("AdaP-UCB", i, e, h)[0], point("AdaP-KLUCB", i, e, h)[0])]
win_summary = pd.DataFrame([
    {"winner": a, "settings won": int(c),
     "of them tied": int(sum(a in w.split(" = ") and " = " in w for w in wins["winner"])),
     "runner-up ÷ winner's: median": wins.loc[wins["winner"].str.split(" = ").map(lambda w, a=a: a in w),
                                            "÷ winner's"].median()}
    for a, c in won.items()])
wins_numbers = pd.DataFrame([
    (f"settings; won by {won.index[0]}", f"{n_points}; {int(won.iloc[0])}"),
    ("settings with a tie for the win (each tied winner counts as winning)",
     f"{int(wins['winner'].str.contains(' = ').sum())}"),
    ("DP-UCB-INT (pure) below the winner's average regret; of these with locked-in runs",
     f"{int(int_below.sum())}; {int((int_below & (wins['INT (pure) locked in'] > 0)).sum())}"),
    ("DP-UCB-INT (pure)'s regret ÷ the winner's: median", f"{int_median:.2f}"),
    ("AdaP-UCB's regret ÷ AdaP-KLUCB's: median (range)",
     f"{np.median(kl_vs_ucb):.2f} ({np.min(kl_vs_ucb):.2f} to {np.max(kl_vs_ucb):.2f})"),
    ("settings where δ = e^-10 changes DP-UCB-INT", f"{len(where_delta)} of {n_points}"),
    ("… of these, where it has less regret than the winner", f"{int(sum(r < 1 and not is_tie(r, 1.0) for r in int_ratio))}"),
    ("… … and some of its runs locked in",
     f"{int(sum(r < 1 and not is_tie(r, 1.0) and x > 0 for r, x in zip(int_ratio, int_delta_locked)))}"),
    ("… of the settings where δ changes it, with locked-in runs", f"{int(sum(x > 0 for x in int_delta_locked))}"),
    ("… its regret ÷ the winner's: median (lowest)", f"{np.median(int_ratio):.2f} ({int_ratio.min():.2f})"),
], columns=["what", "value"]).astype({"value": str})

# %%
show_table(win_summary, digits=3,
           caption="Settings won (a tie counts for each of its winners)")

# %% tags=["remove-input"]
def to_win(r):
    """A ratio to the winner's regret: 'tie' where equal (to a relative 1e-9), else 3 decimals."""
    return "tie" if is_tie(r, 1.0) else f"{r:.3f}"


show_table(wins.assign(instance=wins["instance"].map(SHORT)).rename(
               columns={"INT (pure) ÷ winner's": "INT pure ÷ winner's", "INT (pure) locked in": "locked"}),
           horizons=["T"], keys=3, max_rows=10, max_width=NARROW,
           caption="Every setting (an instance by its first words; INT pure: DP-UCB-INT (pure), its runs locked in)",
           formats={"ε": "{:g}", "÷ winner's": to_win, "INT pure ÷ winner's": to_win, "locked": pct})

# %% [markdown]
# **Verdict.** {glue:text}`p6_top` wins {glue:text}`p6_top_wins` of the
# {glue:text}`p6_n_points` settings (others: {glue:text}`p6_other_winners`). DP-UCB-INT (pure)
# has a lower average regret than the winner at {glue:text}`p6_intpure_below` settings, but at
# {glue:text}`p6_intpure_below_locked` of them some of its runs lock in: its mean is a bet, not a
# guarantee. A $\delta$ of $e^{-10}$ changes
# DP-UCB-INT at {glue:text}`p6_delta_points` settings; it beats the winner at
# {glue:text}`p6_int_beats` of them ({glue:text}`p6_int_beats_locked` with locked-in runs). The
# numbers:

# %% tags=["remove-input"]
show_table(wins_numbers, caption="Who wins where, in numbers")

# %% [markdown]
# AdaP-UCB and AdaP-KLUCB have equal regret (to a relative $10^{-9}$) at
# {glue:text}`p6_kl_ucb_equal` settings, yet their arm sequences differ in every run: only the pull
# counts agree, and pseudo-regret depends on nothing else. The first 10 runs of the
# {glue:text}`p6_tie_replayed` such settings at $T = 10^5$, replayed with the arms kept:

# %% tags=["hide-input"]
def pulls_and_first_difference(iname, eps, horizon, seed):
    """Replay AdaP-UCB and AdaP-KLUCB's first batch with their arms kept."""
    arms = [simulate(calibrate(a, eps, 0.0, horizon).policy, INSTANCES[iname],
                     horizon, 10, seed, cache=False, progress=False).arms
            for a in ("AdaP-UCB", "AdaP-KLUCB")]
    k = INSTANCES[iname].n_arms
    same_pulls = all(np.array_equal(np.bincount(x, minlength=k),
                                    np.bincount(y, minlength=k))
                     for x, y in zip(*arms))
    differ = arms[0] != arms[1]
    first = [int(np.argmax(d)) + 1 if d.any() else None for d in differ]
    return same_pulls, first


tie_checks = {p: pulls_and_first_difference(*p, int(stored["seed"]))
              for p in tied_points if p[2] == HORIZONS[0]}
show_table(pd.DataFrame([
    {"instance": i, "ε": e, "T": h, "runs": len(first),
     "same pulls of each arm in every run": "yes" if same else "no",
     "arms first differ at round (earliest; latest)": f"{min(first)}; {max(first)}"}
    for (i, e, h), (same, first) in tie_checks.items()]), formats={"ε": "{:g}"}, horizons=["T"])

# %% tags=["remove-cell"]
assert tie_checks, "a tie of AdaP-UCB and AdaP-KLUCB at T = 10^5 to check"
assert all(same for same, _ in tie_checks.values()), "tied: the same pulls of each arm, run by run"
assert all(None not in first for _, first in tie_checks.values()), "tied, yet the arm sequences differ in every run"
glue("p6_tie_replayed", len(tie_checks), display=False)
assert all(p[2] == HORIZONS[1] for p in tied_points if p not in tie_checks), "the others: at 10^6"
glue("p6_tie_first_diff", min(min(first) for _, first in tie_checks.values()), display=False)
glue("p6_tie_checked", Markdown("; ".join(f"{i}, $\\varepsilon = {e:g}$" for i, e, _ in tie_checks)), display=False)

# %% tags=["remove-cell"]
FIN = [(i, e, h) for i in INSTS for h in HORIZONS for e in EPSILONS[:-1]]
BERN = [i for i in INSTS if np.all(INSTANCES[i].kinds == BERNOULLI)]


def ratios(a, b, where=FIN):
    """Mean regret of row a over row b at each point."""
    return np.array([point(a, i, e, h)[0] / point(b, i, e, h)[0] for i, e, h in where])


def glue_range(key, r):
    """Glue the median, min and max of ratios r."""
    for stat, f in (("median", np.median), ("min", np.min), ("max", np.max)):
        glue(f"{key}_{stat}", float(f(r)), display=False)


glue_range("p6_dpse_kl", ratios("DP-SE", "AdaP-KLUCB"))
glue("p6_dpse_wins", int(wins["winner"].str.split(" = ").map(lambda w: "DP-SE" in w).sum()), display=False)
dpse_beats = [a for a in PURE if a != "DP-SE" and np.median(ratios("DP-SE", a)) < 1]
glue("p6_dpse_beats", ", ".join(dpse_beats), display=False)
# distance from the private lower bound (Bernoulli instances, T = 10^6)
H6 = [(i, e, HORIZONS[-1]) for i in BERN for e in EPSILONS[:-1]]


def over_bound(regret):
    """Median over H6 of T * regret(i, e) / the private lower bound."""
    return float(np.median([h * regret(i, e) / private_lower_bound(INSTANCES[i], [h], e)[0] for i, e, h in H6]))


glue("p6_lb_dpse", over_bound(lambda i, e: point("DP-SE", i, e, HORIZONS[-1])[0]), display=False)
glue("p6_lb_kl", over_bound(lambda i, e: point("AdaP-KLUCB", i, e, HORIZONS[-1])[0]), display=False)
for i in BERN:  # the dotted line: the bound's small-eps form, exactly, once 6 eps Delta_a < kl for every arm
    inst, eps_small = INSTANCES[i], 1e-4
    limit = (inst.n_arms - 1) * math.log(HORIZONS[-1]) / (6 * eps_small)
    assert math.isclose(private_lower_bound(inst, [HORIZONS[-1]], eps_small)[0], limit, rel_tol=1e-9), i
glue("p6_lb_best", over_bound(lambda i, e: min(point(a, i, e, HORIZONS[-1])[0] for a in PURE)), display=False)
# Private-UCB's readings: the printed eps/k per tree against eps per tree (same Gamma), and Gamma against the tail bound
FIN5 = [x for x in FIN if x[2] == HORIZONS[0]]  # the eps-per-tree reading is stored at T = 10^5
assert np.isnan(point(PUCB_EPS, INSTS[0], 1.0, HORIZONS[-1])[0]), "the prose says: stored at 10^5 only"
glue_range("p6_pucb_k", ratios("Private-UCB", PUCB_EPS, FIN5))
glue_range("p6_pucb_gamma", ratios(PUCB_EPS, PUCB_VARIANT, FIN5))
glue_range("p6_pucb_best", np.array([point("Private-UCB", i, e, h)[0] / min(point(a, i, e, h)[0] for a in PURE)
                                     for i, e, h in FIN]))
assert np.median(ratios("Private-UCB", PUCB_EPS, FIN5)) > 1, "the printed eps/k per tree costs regret"
dpse_won = wins[wins["winner"].str.split(" = ").map(lambda w: "DP-SE" in w)]
dpse_small = dpse_won[dpse_won["instance"] != "small gap, 5 arms"]
glue("p6_dpse_win_eps", float(dpse_small["ε"].max()), display=False)
assert len(dpse_small) > 0 and dpse_small["ε"].max() <= 0.5, "DP-SE wins at small epsilon only (gaps apart)"
dpse_gap = dpse_won[dpse_won["instance"] == "small gap, 5 arms"]
assert set(dpse_gap["T"]) <= {HORIZONS[0]}, "on the small gaps DP-SE wins at T = 10^5 only"
glue("p6_dpse_gap_wins", len(dpse_gap), display=False)
c = calibrate("Private-UCB", 1.0, 0.0, HORIZONS[-1])  # the printed reading: eps/k-DP, within the target
assert c.epsilon == 1.0 and "eps/k-DP" in c.accounting
glue("p6_pucb_eps_name", PUCB_EPS, display=False)
uniform = of_uniform("Private-UCB", FIN)
glue("p6_pucb_uniform", float(np.median(uniform)), display=False)
assert np.median(uniform) > 0.9, "printed Private-UCB: a median close to uniform play"
learns = [x for x, u in zip(FIN, uniform) if u < 0.9]
glue("p6_pucb_uniform_min", float(min(uniform)), display=False)
at_min = FIN[int(np.argmin(uniform))]
glue("p6_pucb_uniform_min_at", Markdown(f"{at_min[0]}, $\\varepsilon = {at_min[1]:g}$, $T = {power(at_min[2])[1:-1]}$"),
     display=False)
glue("p6_pucb_learns", len(learns), display=False)
learn_where = pd.Series([i for i, _, _ in learns]).value_counts()
glue("p6_pucb_learns_where", ", ".join(f"{i} {c}" for i, c in learn_where.items()), display=False)
assert learn_where.index[0] == "2 arms (Tossou)" and min(e for _, e, _ in learns) < 1, "it learns on 2 arms most"
glue("p6_pucb_learns_eps", float(min(e for _, e, _ in learns)), display=False)
assert np.median(ratios("Private-UCB", PUCB_EPS, FIN5)) < 1.1, "so eps/k per tree costs little more"

def rng3(r, f="{:.1f}"):
    """median (min to max) of ratios r."""
    return f"{f.format(np.median(r))} ({f.format(np.min(r))} to {f.format(np.max(r))})"


# the winner's regret over the private lower bound, per Bernoulli panel at T = 10^6
win_over_lb = {i: [h * point(winners(i, e, h)[0][0], i, e, h)[0] / private_lower_bound(INSTANCES[i], [h], e)[0]
                   for _, e, h in H6 if _ == i] for i in BERN}
lb_all = [x for r in win_over_lb.values() for x in r]
below_lb = [(i, e) for i in BERN for (_, e, h), x in zip([y for y in H6 if y[0] == i], win_over_lb[i]) if x < 1]
assert all(i == "small gap, 5 arms" for i, _ in below_lb), "the verdict: below the bound on the small gaps only"
band_lb = [(point(winners(i, e, HORIZONS[-1])[0][0], i, e, HORIZONS[-1])[1:3] * HORIZONS[-1]
            / private_lower_bound(INSTANCES[i], [HORIZONS[-1]], e)[0]) for i, e in below_lb]
rel_lb = "=" if len(below_lb) == 1 else "\\ge"
glue("p6_lb_below_md", Markdown(
    "" if not below_lb else f" On the small-gap panel at $\\varepsilon {rel_lb} "
    f"{min(e for _, e in below_lb):g}$ the "
    f"winner's mean falls below it, within noise (95% band {min(b[0] for b in band_lb):.2f} to {max(b[1] for b in band_lb):.2f} "
    "times the bound): the bound holds as $T \\to \\infty$, not at every finite $T$."), display=False)
assert not below_lb or [e for _, e in below_lb] == [e for e in EPSILONS[:-1] if e >= min(e for _, e in below_lb)]
glue("p6_lb_win_min", float(min(lb_all)), display=False)
glue("p6_lb_win_max", float(max(lb_all)), display=False)
glue("p6_lb_win_md", Markdown("; ".join(f"{i} {min(r):.2f} to {max(r):.1f}" for i, r in win_over_lb.items())),
     display=False)
assert np.median(ratios(PUCB_EPS, PUCB_VARIANT, FIN5)) < 2, "the tail bound rescues it little, in the median"
dpse_pucb_numbers = pd.DataFrame([
    ("settings DP-SE wins", f"{len(dpse_won)}, "
     f"{len(dpse_small)} at ε ≤ {dpse_small['ε'].max():g}, {len(dpse_gap)} on the small gaps at T = 10^5"),
    ("DP-SE's regret / AdaP-KLUCB's: median (range)", rng3(ratios("DP-SE", "AdaP-KLUCB"))),
    ("algorithms DP-SE beats at most settings", ", ".join(dpse_beats)),
    ("lower bound below DP-SE's regret, median factor (Bernoulli, T = 10^6)",
     f"{over_bound(lambda i, e: point('DP-SE', i, e, HORIZONS[-1])[0]):.1f}"),
    ("… below AdaP-KLUCB's", f"{over_bound(lambda i, e: point('AdaP-KLUCB', i, e, HORIZONS[-1])[0]):.1f}"),
    ("… below the best pure algorithm's",
     f"{over_bound(lambda i, e: min(point(a, i, e, HORIZONS[-1])[0] for a in PURE)):.1f}"),
    ("printed Private-UCB (ε/k per tree) / ε per tree, T = 10^5: median (range)",
     rng3(ratios("Private-UCB", PUCB_EPS, FIN5), "{:.2f}")),
    ("ε per tree with Γ / with the tail bound, T = 10^5: median (range)",
     rng3(ratios(PUCB_EPS, PUCB_VARIANT, FIN5), "{:.2f}")),
    ("printed Private-UCB / the best pure algorithm: median (range)", rng3(np.array(
        [point("Private-UCB", i, e, h)[0] / min(point(a, i, e, h)[0] for a in PURE) for i, e, h in FIN]), "{:,.1f}")),
    ("printed Private-UCB / a uniform player: median (lowest, where)",
     f"{np.median(uniform):.0%} ({min(uniform):.0%}: {at_min[0]}, ε = {at_min[1]:g}, T = {at_min[2]:,})"),
    ("settings where it learns (below 90% of uniform)",
     f"{len(learns)} of {len(FIN)}: " + ", ".join(f"{i} {c}" for i, c in learn_where.items())),
], columns=["what", "value"])

# %% [markdown]
# (p6-dpse)=
# ### DP-SE, Private-UCB's readings and the lower bound
#
# DP-SE {cite}`sajed2019optimal` matches the private lower bound of Shariff and Sheffet
# {cite}`shariff2018differentially` in order, yet its epochs carry union-bound constants: epoch
# $\ell$, with $|S|$ arms left, $\Delta_\ell = 2^{-\ell}$ and $\beta = 1/T$, pulls each arm
#
# $$\begin{aligned}R_\ell = \Big\lceil\max\Big\{&\frac{32\ln(8|S|\ell^2/\beta)}{\Delta_\ell^2},\\
# &\frac{8\ln(4|S|\ell^2/\beta)}{\varepsilon\Delta_\ell}\Big\}\Big\rceil\end{aligned}$$
#
# times (`dpse_epoch_length`). Private-UCB as printed gives each arm's tree $\varepsilon/K$, but its
# width $\Gamma/n_a$ dwarfs the gaps whatever the budget.
#
# **Verdict.** DP-SE wins {glue:md}`p6_dpse_where_md:myst` At $T = 10^6$ the winner's regret is
# {glue:text}`p6_lb_win_min:.2f` to {glue:text}`p6_lb_win_max:.0f` times the private lower bound, by
# panel over $\varepsilon$: {glue:md}`p6_lb_win_md:myst`.{glue:md}`p6_lb_below_md:myst` The printed Private-UCB plays almost like a uniform player, and neither $\varepsilon$ per
# tree nor the tail bound rescues it by much.

# %% tags=["remove-cell"]
show_table(dpse_pucb_numbers, caption="DP-SE, Private-UCB and the lower bound, in numbers")

# %% [markdown]
# ### The local-DP frontier
#
# Local DP privatises every reward on its own, so its regret is of another order
# ($\log T/\varepsilon^2$): it gets its own frontier, with the book's local-DP algorithms (LDP-UCB
# {cite}`ren2020multi` with Laplace noise).

# %% tags=["remove-input"]
show_figure("p6_fig_local_1e6", frontier_figure(
    HORIZONS[-1], 0, LOCAL_ALGORITHMS, lower_bounds=False))
show_figure("p6_fig_local_1e5", frontier_figure(
    HORIZONS[0], 0, LOCAL_ALGORITHMS, lower_bounds=False))

# %% tags=["remove-cell"]
local_best = [min(LOCAL_ALGORITHMS, key=lambda a: point(a, i, e, h)[0])
              for i in INSTS for h in HORIZONS for e in EPSILONS[:-1]]
local_top = max(set(local_best), key=local_best.count)
glue("p6_local_top", local_top, display=False)
glue("p6_local_top_wins", local_best.count(local_top), display=False)
glue("p6_local_points", len(local_best), display=False)
assert local_top == "LDP-UCB" and local_best.count(local_top) == len(local_best), "the captions: lowest everywhere"

# %% [markdown]
# :::{glue:figure} p6_fig_local_1e6
# :name: p6-fig-local-1e6
# :alt: Five log-log panels of cumulative regret against epsilon at T = 10^6 for the three local-DP algorithms (LDP-UCB, LDP-NCB, Anytime LDP-NCB), one panel per instance; LDP-UCB's curve is the lowest on every panel.
# :width: 100%
#
# Local DP, $T = 10^6$ (stored run): cumulative regret against $\varepsilon$. See LDP-UCB lowest
# on every panel.
# :::
#
# :::{glue:figure} p6_fig_local_1e5
# :name: p6-fig-local-1e5
# :alt: The same five panels for the three local-DP algorithms at T = 10^5, LDP-UCB again the lowest curve on every panel.
# :width: 100%
#
# Local DP, $T = 10^5$ (stored run): the same order as at $T = 10^6$.
# :::


# %% [markdown]
# ## Decision table
#
# The rule reads what a practitioner knows: the gaps, the number of arms $K$, and $\varepsilon$.
# For each setting class and $\varepsilon$ the table pools the settings (instances, both horizons)
# and picks the algorithm with the smallest geometric mean of its regret divided by the winner's
# (1: it wins every setting). A close call (the next within {glue:text}`p6_dec_margin:.0%`) is
# marked. The first screen's rule is this table, equal neighbours merged.

# %% tags=["hide-input"]
CLOSE_GAP = 0.05  # "close means": every gap at most this
SMALL_K = 10  # "few arms"
DEC_MARGIN = 0.05  # the next within this margin: a close call


def setting(iname):
    """What a practitioner knows of an instance: close means, or how many arms."""
    inst = INSTANCES[iname]
    if inst.gaps.max() <= CLOSE_GAP:
        return f"all gaps ≤ {CLOSE_GAP:g}"
    return f"K {'≤' if inst.n_arms <= SMALL_K else '>'} {SMALL_K}, largest gap > {CLOSE_GAP:g}"


def to_winner(alg, where):
    """Geometric mean over settings of alg's regret / the winner's."""
    r = [point(alg, i, e, h)[0] / point(winners(i, e, h)[0][0], i, e, h)[0]
         for i, e, h in where]
    return float(np.exp(np.mean(np.log(r))))


# %% tags=["hide-input"]
SETTINGS = list(dict.fromkeys(map(setting, INSTS)))
decision = []
for s in SETTINGS:
    for eps in EPSILONS[:-1]:
        where = [(i, e, h) for i, e, h in FIN if setting(i) == s and e == eps]
        score = {a: to_winner(a, where) for a in CANDIDATES}
        first, nxt = sorted(CANDIDATES, key=score.get)[:2]
        decision.append({
            "setting": s, "ε": eps, "use": first,
            "÷ winner's": score[first],
            "wins": sum(first in winners(*x)[0] for x in where),
            "of": len(where), "next": nxt, "next ÷ winner's": score[nxt],
            "close call": score[nxt] / score[first] < 1 + DEC_MARGIN})
decision = pd.DataFrame(decision)


def rule(iname, eps):
    """The rule: the decision table's choice for an instance at eps."""
    at = (decision["setting"] == setting(iname)) & (decision["ε"] == eps)
    return decision.loc[at, "use"].item()


# %% tags=["remove-cell"]
glue("p6_dec_margin", DEC_MARGIN, display=False)
glue("p6_close_gap", CLOSE_GAP, display=False)
TESTED = list(EPSILONS[:-1])  # the finite eps of the grid
close_s, small_s, large_s = (f"all gaps ≤ {CLOSE_GAP:g}", f"K ≤ {SMALL_K}, largest gap > {CLOSE_GAP:g}",
                             f"K > {SMALL_K}, largest gap > {CLOSE_GAP:g}")


def gap_words(iname):
    """An instance's gaps (those of the arms below the best): 0.025, or 0.1 to 0.5."""
    g = INSTANCES[iname].gaps
    g = g[g > 0]
    return f"{g.min():.3g}" if np.isclose(g.min(), g.max()) else f"{g.min():.3g} to {g.max():.3g}"


glue("p6_classes_md", Markdown("; ".join(
    f"*{s}*: " + ", ".join(f"{i} (gaps {gap_words(i)})" for i in INSTS if setting(i) == s)
    for s in SETTINGS) + "."), display=False)
assert SETTINGS == [small_s, large_s, close_s] or set(SETTINGS) == {small_s, large_s, close_s}
close_means = [i for i in INSTS if setting(i) == close_s]
assert close_means == ["small gap, 5 arms"], "the close-means rule reads one instance"
use = decision.set_index(["setting", "ε"])["use"]
# the words of the first screen, checked against the table: with close means Lazy-DP-TS throughout; with
# few arms DP-SE, then AdaP-KLUCB, then Lazy-DP-TS as eps grows; with many arms AdaP-KLUCB, then Lazy-DP-TS
assert all(use[(close_s, e)] == "Lazy-DP-TS" for e in TESTED), "close means: Lazy-DP-TS at every eps"
for s_, order in ((small_s, ["DP-SE", "AdaP-KLUCB", "Lazy-DP-TS"]), (large_s, ["AdaP-KLUCB", "Lazy-DP-TS"])):
    picks = [use[(s_, e)] for e in TESTED]
    assert list(dict.fromkeys(picks)) == order, f"{s_}: {picks}"
close_rows = decision[decision["close call"]]
margins = close_rows["next ÷ winner's"] / close_rows["÷ winner's"] - 1  # how far the pick is ahead of the next
close_words = "; ".join(f"at $\\varepsilon = {r['ε']:g}$ ({r['setting']}) the pick, {r['use']}, is only {m:.1%} "
                        f"ahead of {r['next']}" for (_, r), m in zip(close_rows.iterrows(), margins))
glue("p6_close_calls_md", Markdown(close_words[:1].upper() + close_words[1:] + "." if close_words else
                                   f"Everywhere the rule's pick is more than {DEC_MARGIN:.0%} ahead of the next."),
     display=False)
# the horizon: which algorithms never read it (the policy's `anytime`), and which of them are proven
cal1 = {a: calibrate(a, 1.0, 0.0, HORIZONS[-1]) for a in GLOBAL_ALGORITHMS + LOCAL_ALGORITHMS}
anytime = {(model, proven): [a for a in algs if cal1[a].policy.anytime and cal1[a].proven == proven]
           for model, algs in (("global", GLOBAL_ALGORITHMS), ("local", LOCAL_ALGORITHMS))
           for proven in (True, False)}
told = [a for a in dict.fromkeys(decision["use"]) if not cal1[a].policy.anytime]
assert anytime["global", True] == ["AdaP-UCB", "AdaP-KLUCB", "DP-TS", "Lazy-DP-TS"], anytime["global", True]
assert not anytime["local", False] and told == ["DP-SE"]
# where the rule says DP-SE and T is unknown: the anytime candidate closest to the winners there
told_rows = decision[decision["use"] == "DP-SE"]
told_where = [(i, e, h) for i, e, h in FIN for _, r in told_rows.iterrows() if setting(i) == r["setting"] and e == r["ε"]]
instead = min((a for a in CANDIDATES if a in cal1 and cal1[a].policy.anytime), key=lambda a: to_winner(a, told_where))
glue("p6_anytime_md", Markdown(
    f"Of the proven global-DP algorithms {', '.join(anytime['global', True][:-1])} and "
    f"{anytime['global', True][-1]} never read $T$; {' and '.join(told)} must be told it. Where the rule "
    f"says DP-SE and $T$ is unknown, use {instead}: its regret there is {to_winner(instead, told_where):.2f} times "
    "the winner's (geometric mean)."),
    display=False)
assert not calibrate("Anytime GDP-NCB", 1.0, 0.0, HORIZONS[-1]).proven, "never: its guarantee is not proven"
# where DP-SE wins, by class and eps (the first screen and the DP-SE verdict)
dpse_wins = wins[wins["winner"].str.split(" = ").map(lambda w: "DP-SE" in w)]
in_class = [(e, int(((dpse_wins["instance"].map(setting) == small_s) & (dpse_wins["ε"] == e)).sum()),
             sum(1 for i, x, _ in FIN if setting(i) == small_s and x == e)) for e in TESTED]
last = max(k for k, (_, n, _) in enumerate(in_class) if n)
assert all(n == 0 for _, n, _ in in_class[last + 1:]) and not (dpse_wins["instance"].map(setting) == large_s).any()
gap_wins = dpse_wins[dpse_wins["instance"].map(setting) == close_s]
assert set(gap_wins["T"]) == {HORIZONS[0]}, "on the small gaps DP-SE wins at T = 10^5 only"
one = lambda d: ", ".join(f"{r['instance']}, $T = {power(r['T'])[1:-1]}$" for _, r in d.iterrows())  # noqa: E731
split = [(e, n, m) for e, n, m in in_class[:last + 1] if n < m]
assert all(use[(small_s, e)] != "DP-SE" for e, _, _ in split), "where DP-SE wins only some, the rule picks another"
glue("p6_dpse_where_md", Markdown(
    f"in its class ({small_s}) "
    + ", ".join(f"{n} of {m} settings at $\\varepsilon = {e:g}$"
                + (f" ({one(dpse_wins[(dpse_wins['instance'].map(setting) == small_s) & (dpse_wins['ε'] == e)])}; "
                   f"the rule picks {use[(small_s, e)]}, closest to the winners over the {m})" if n < m else "")
                for e, n, m in in_class[:last + 1])
    + f", none at larger $\\varepsilon$, and {len(gap_wins)} small-gap settings, all at "
    f"$T = {power(HORIZONS[0])[1:-1]}$ ($\\varepsilon \\le {gap_wins['ε'].max():g}$)."),
    display=False)
assert all(calibrate(a, 1.0, 0.0, HORIZONS[-1]).params["hybrid_split"] for a in ("DP-UCB", "DP-UCB-BOUND"))
# the rule, merged: consecutive eps with the same choice in a setting
merged = []
for s in SETTINGS:
    part = decision[decision["setting"] == s]
    for _, grp in part.groupby((part["use"] != part["use"].shift()).cumsum(), sort=False):
        lo, hi = grp["ε"].min(), grp["ε"].max()
        merged.append({"setting": s, "ε": f"{lo:g}" if lo == hi else f"{lo:g} to {hi:g}",
                       "use": grp["use"].iloc[0], "wins": f"{int(grp['wins'].sum())} of {int(grp['of'].sum())}",
                       "worst ÷ winner's": max(point(grp["use"].iloc[0], i, e, h)[0]
                                             / point(winners(i, e, h)[0][0], i, e, h)[0]
                                             for i, e, h in FIN if setting(i) == s and e in set(grp["ε"])),
                       "close calls": ", ".join(f"ε = {e:g}: {n}" for e, n, c in
                                                zip(grp["ε"], grp["next"], grp["close call"]) if c) or "none"})
rule_table = pd.DataFrame(merged)
assert len(rule_table) == 6, "the first screen's rule has six rows"
# the first screen's sentence, written from the same table: the most frequent choice, unless ...
default = decision["use"].value_counts().index[0]
assert default == "Lazy-DP-TS", "the first screen's default"
CLASS_WORDS = {close_s: f"all gaps are at most {CLOSE_GAP:g}",
               small_s: f"there are at most {SMALL_K} arms and some gap is above {CLOSE_GAP:g}",
               large_s: f"there are more than {SMALL_K} arms and some gap is above {CLOSE_GAP:g}"}
HOW = {"DP-UCB": "DP-UCB, with its budget split between its two counters"}
NUMBER_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four"}


def eps_range(i, j):
    """Tested eps TESTED[i..j] as a range whose ends lie halfway (log scale) to the neighbours."""
    lo = f"{math.sqrt(TESTED[i - 1] * TESTED[i]):.2g} < " if i > 0 else ""
    hi = f" < {math.sqrt(TESTED[j] * TESTED[j + 1]):.2g}" if j < len(TESTED) - 1 else ""
    tested = f"{TESTED[i]:g}" if i == j else f"{TESTED[i]:g} to {TESTED[j]:g}"
    return f"${lo}\\varepsilon{hi}$ (tested: {tested})" if lo or hi else "any $\\varepsilon$"


cases = []
for s in SETTINGS:
    part = decision[decision["setting"] == s]
    picks = []
    for _, grp in part.groupby((part["use"] != part["use"].shift()).cumsum(), sort=False):
        u = grp["use"].iloc[0]
        if u != default:
            picks.append(f"{HOW.get(u, u)} for {eps_range(TESTED.index(grp['ε'].min()), TESTED.index(grp['ε'].max()))}")
    if picks:
        cases.append(f"if {CLASS_WORDS[s]}, use " + " and ".join(picks))
glue("p6_rule_md", Markdown(
    f"Use {default}, except in {NUMBER_WORDS.get(len(cases), len(cases))} case{'s' * (len(cases) != 1)}: "
    + "; ".join(cases) + ". Each switch point lies halfway, on a log scale, between two tested values."),
    display=False)
decision_shown = decision.assign(wins=[f"{w} of {n}" for w, n in zip(decision["wins"], decision["of"])]).drop(
    columns=["of"])

# %% tags=["remove-input"]
show_table(rule_table, digits=3, caption="The rule as a table")

# %% tags=["remove-input"]
show_table(decision_shown, keys=2, max_rows=1, digits=3, formats={"ε": "{:g}"}, max_width=NARROW,
           caption="The decision table, one ε at a time")

# %% [markdown]
# ## The rule, checked setting by setting
#
# Against the winner of each setting, and against the lowest average regret of any pure algorithm
# (DP-UCB-INT (pure) included, whose runs lock in):

# %% tags=["remove-cell"]
rule_check = pd.DataFrame([{
    "instance": i, "T": h, "ε": e, "rule": rule(i, e),
    "winner": winners(i, e, h)[0][0],
    "rule ÷ winner's": (point(rule(i, e), i, e, h)[0]
                      / point(winners(i, e, h)[0][0], i, e, h)[0]),
    "rule ÷ lowest": (point(rule(i, e), i, e, h)[0]
                      / min(point(a, i, e, h)[0] for a in PURE))}
    for i, e, h in FIN])
rule_summary = rule_check.groupby("rule", sort=False).agg(
    settings=("T", "size"),
    wins=("rule ÷ winner's", lambda x: int(np.isclose(x, 1).sum())),
    **{"worst ÷ winner's": ("rule ÷ winner's", "max"),
       "median ÷ lowest": ("rule ÷ lowest", "median")}).reset_index()

# %% tags=["remove-cell"]
RULE_PICKS = {"Lazy-DP-TS", "AdaP-KLUCB", "DP-SE"}
assert RULE_PICKS == set(rule_check["rule"]), "the rule names three algorithms"
glue("p6_rule_picks", ", ".join(rule_check["rule"].value_counts().index), display=False)  # for the trust page
assert all(not np.isnan(FINALS[_at(a, i, e, h)]).all() for a in RULE_PICKS for i, e, h in FIN), \
    "the first screen's 'none of the rule's picks had a run locked in': every point's runs stored"
assert not RULE_PICKS & locked_algs
k10 = rule_check["instance"].map(setting) == small_s
at01, at025 = rule_check[k10 & (rule_check["ε"] == 0.1)], rule_check[k10 & (rule_check["ε"] == 0.25)]
glue("p6_rule_dpse_points", len(at01), display=False)
glue("p6_rule_dpse_best", int((at01["winner"] == "DP-SE").sum()), display=False)
kl_ahead = [point("AdaP-KLUCB", i, e, h)[0] < point("DP-SE", i, e, h)[0] for i, e, h in at025[["instance", "ε", "T"]].values]
glue("p6_rule_kl_ahead_025", int(sum(kl_ahead)), display=False)
glue("p6_rule_points_025", len(at025), display=False)
assert sum(kl_ahead) > len(at025) / 2, "by eps = 0.25 AdaP-KLUCB is ahead of DP-SE at most settings"
r = rule_check["rule ÷ winner's"]
glue("p6_rule_ratio_median", float(r.median()), display=False)
glue("p6_rule_ratio_max", float(r.max()), display=False)
glue("p6_rule_agree", int(np.isclose(r, 1.0).sum()), display=False)
beta = rule_check[rule_check["instance"] == "Beta, 5 arms"]["rule ÷ winner's"]
glue("p6_rule_beta_max", float(beta.max()), display=False)
glue("p6_rule_beta_md", Markdown(
    f"on the one instance with Beta rewards it wins all {len(beta)} settings" if np.allclose(beta, 1.0)
    else f"on the one instance with Beta rewards, at most {beta.max():.2f} times"), display=False)
assert r.max() < 2 and beta.max() < 1.5, "the rule stays within 2 (Beta: 1.5) times the winner"
cost = rule_check["rule ÷ lowest"]
glue("p6_rule_cost_median", float(cost.median()), display=False)
glue("p6_rule_cost_max", float(cost.max()), display=False)
# the rule pools both horizons; what changes at the shorter one, on the close-means instance
sg = rule_check[rule_check["instance"].map(setting) == close_s]
sg5, sg6 = sg[sg["T"] == HORIZONS[0]], sg[sg["T"] == HORIZONS[1]]
dpse5 = sg5[sg5["winner"].str.split(" = ").map(lambda w: "DP-SE" in w)]["ε"]
assert list(dpse5) == TESTED[:len(dpse5)], "at the shorter horizon DP-SE wins the small gaps up to some eps"
worst5 = sg5.loc[sg5["rule ÷ winner's"].idxmax()]
worst5_ratio = float(worst5["rule ÷ winner's"])
others6 = sorted({a for w in sg6["winner"] for a in w.split(" = ")}, key=ALGS.index)
assert "DP-SE" not in others6
glue("p6_rule_horizon_md", Markdown(
    f"The rule pools both horizons, but on the small-gap instance DP-SE wins at $T = {power(HORIZONS[0])[1:-1]}$ "
    f"for $\\varepsilon \\le {dpse5.max():g}$ (at ${power(HORIZONS[1])[1:-1]}$: {', '.join(others6)}), and there "
    f"the rule's pick has up to {worst5_ratio:.2f} times the winner's regret ({worst5['rule']}, "
    f"$\\varepsilon = {worst5['ε']:g}$)."), display=False)

# %% [markdown]
# Its regret is a median {glue:text}`p6_rule_ratio_median:.2f` times the winner's. Excluding the
# algorithms that lock in costs nothing at most settings: against the lowest average regret of any
# pure algorithm the rule pays a median factor {glue:text}`p6_rule_cost_median:.2f` (at most
# {glue:text}`p6_rule_cost_max:.2f`).

# %% tags=["remove-input"]
show_table(rule_summary, digits=3)

# %% tags=["remove-cell"]
PART1 = ("DP-UCB-BOUND", "Private-UCB", PUCB_VARIANT, "DP-UCB")
NEAR = 0.02  # a counter below the episodic algorithms by less than this, with overlapping bands: a near tie
exceptions, near_ties = [], []
for i, e, h in FIN:
    c = min(PART1, key=lambda a: point(a, i, e, h)[0])
    ep = min(EPISODIC_PROVEN, key=lambda a: point(a, i, e, h)[0])
    vc, ve = point(c, i, e, h), point(ep, i, e, h)
    if vc[0] < ve[0] and not is_tie(vc[0], ve[0]):
        overlap = not (vc[2] < ve[1])
        (near_ties if ve[0] / vc[0] < 1 + NEAR and overlap else exceptions).append((i, h, e, ve[0] / vc[0]))
glue("p6_episodic_better", n_points - len(exceptions) - len(near_ties), display=False)
glue("p6_counter_wins", len(exceptions), display=False)
glue("p6_counter_max", float(max((x[3] for x in exceptions), default=1.0)), display=False)
assert all(x[0] == "small gap, 5 arms" for x in exceptions + near_ties), \
    "the counters should beat the episodic algorithms on the small-gap instance only"
assert all(min(PART1, key=lambda a: point(a, i, e, h)[0]) == "DP-UCB" for i, h, e, _ in exceptions), \
    "the counter that beats the episodic algorithms is DP-UCB"
gdp_over_adap = [point("GDP-NCB", i, e, h)[0] / min(point(a, i, e, h)[0] for a in ("AdaP-KLUCB", "AdaP-UCB"))
                 for i, e, h in FIN]
glue("p6_gdp_median", float(np.median(gdp_over_adap)), display=False)
assert min(gdp_over_adap) > 1, "the repaired GDP-NCB should trail the AdaP algorithms at every point"
# GDP-NCB's release noise against AdaP-UCB's (scale 1/eps on a sum): L / eps_release = 2 floor(log2 T) / eps
for h in HORIZONS:
    budget = sparse_vector_budget(h, 1.0, calibrate("GDP-NCB", 1.0, 0.0, h).policy.sv_fraction)
    noise_factor = (budget.releases_per_reward / budget.eps_release) / (1 / 1.0)
    assert noise_factor == 2 * math.floor(math.log2(h)), "the repaired GDP-NCB's releases: 2 floor(log2 T) x AdaP-UCB's"
assert np.median(gdp_over_adap) > 10, "the summary's words: more than ten times"
ucb_won = int(sum("DP-UCB" in w.split(" = ") for w in wins["winner"]))
glue("p6_ucb_wins", ucb_won, display=False)
assert ucb_won == 0, "the summary: DP-UCB wins no setting"
counter_ahead = exceptions + near_ties  # DP-UCB below every episodic algorithm: Lazy-DP-TS below DP-UCB there
lazy_over_ucb = [point("Lazy-DP-TS", i, e, h)[0] / point("DP-UCB", i, e, h)[0] for i, h, e, _ in counter_ahead]
assert counter_ahead and max(lazy_over_ucb) < 1, "the summary: where DP-UCB beats the episodic ones, Lazy-DP-TS beats it"
glue("p6_lazy_over_ucb_max", float(max(lazy_over_ucb)), display=False)
dpts_uniform = of_uniform("DP-TS", FIN5)
glue("p6_dpts_uniform", float(np.median(dpts_uniform)), display=False)
assert min(dpts_uniform) > 0.9, "the first screen: DP-TS as printed plays like a uniform player at T = 10^5"
summary_numbers = pd.DataFrame([
    ("settings Lazy-DP-TS wins; AdaP-KLUCB; DP-SE (a tie counts for each winner)",
     f"{int(won['Lazy-DP-TS'])}; {int(won['AdaP-KLUCB'])}; {int(won.get('DP-SE', 0))} (of {n_points})"),
    ("the rule's pick: settings won; its regret ÷ the winner's: median (worst; Beta rewards)",
     f"{int(np.isclose(r, 1.0).sum())}; {r.median():.2f} ({r.max():.2f}; {beta.max():.2f})"),
    ("Lazy-DP-TS, AdaP-KLUCB, DP-SE: runs locked in; lock-in rate still possible (95%)",
     f"none of {int(point_runs[0])} per setting; up to {clopper_pearson(0, int(point_runs[0]), 0.05)[1]:.1%}"),
    ("DP-UCB-INT: settings with locked-in runs; the largest share of runs locked in at one setting",
     f"DP-UCB-INT {int_locked_points['DP-UCB-INT']}, DP-UCB-INT (pure) {int_locked_points['DP-UCB-INT (pure)']} "
     f"(of {len(FIN)} each); {int_worst:.0%} of runs"),
    ("the rule's regret ÷ the lowest of any pure algorithm (DP-UCB-INT included): median",
     f"{cost.median():.2f}"),
    ("settings where a Part I counter (always DP-UCB) has less regret than every episodic algorithm",
     f"{len(counter_ahead)}, all on the small-gap instance; at "
     f"{NUMBER_WORDS.get(len(near_ties), len(near_ties))} setting{'s' * (len(near_ties) != 1)} by less than {NEAR:.0%} "
     f"with overlapping bands; at the others the best episodic algorithm's regret is up to "
     f"{max(x[3] for x in exceptions):.2f} times DP-UCB's"),
    ("… at these, Lazy-DP-TS's regret ÷ DP-UCB's: at most", f"{max(lazy_over_ucb):.2f}"),
    ("repaired GDP-NCB's regret ÷ the better AdaP algorithm's: median; its noise ÷ AdaP-UCB's (T = 10^6)",
     f"{np.median(gdp_over_adap):.1f}; {int(noise_factor)}"),
    ("printed Private-UCB's regret ÷ a uniform player's: median",  f"{np.median(uniform):.0%}"),
    ("… settings where its regret is below 90% of a uniform player's", f"{len(learns)} of {len(FIN)}"),
    ("DP-TS's regret ÷ a uniform player's at T = 10^5: median (lowest)",
     f"{np.median(dpts_uniform):.0%} ({min(dpts_uniform):.0%})"),
    ("local DP: settings LDP-UCB wins", f"{local_best.count(local_top)} of {len(local_best)}"),
], columns=["what", "value"])

# %% [markdown]
# ## Summary
#
# Lazy-DP-TS is the default: it wins {glue:text}`p6_top_wins` of the {glue:text}`p6_n_points`
# settings, needs no horizon, and none of its runs locked in at a setting. Where privacy is strictest, DP-SE
# (few, well-separated arms; its regret barely grows as $\varepsilon$ shrinks) and AdaP-KLUCB do
# better. DP-UCB, with its budget split, beats {glue:text}`p6_episodic_list` on the close means at larger
# $\varepsilon$, but Lazy-DP-TS beats it there too. DP-UCB-INT's lower average regret is a bet where
# its runs lock in: report the share locked in, not only a mean. Repairing GDP-NCB's leak costs it
# more than ten times AdaP-KLUCB's regret. The numbers:

# %% tags=["remove-input"]
show_table(summary_numbers, caption="The summary in numbers")

# %% [markdown]
# ## Exercises
#
# :::{exercise}
# :label: p6-ex-lock-threshold
#
# Compute the lock-in threshold $T\Delta_{\min}/2$ of the small-gap instance at $T = 10^5$ and
# $T = 10^6$ (`frontier.lock_in_threshold`). A run of DP-UCB-INT locked in at $10^5$ stays at its
# regret while its index is frozen and then learns. How much regret may it add between $10^5$ and
# $10^6$ and still not count as locked in at $10^6$?
# :::
#
# :::{exercise}
# :label: p6-ex-gdp-noise
#
# With `sparse_vector_budget`, compute the Laplace scale of one release of the repaired GDP-NCB at
# $\varepsilon = 1$ for $T = 10^5$ and $T = 10^6$, and compare it with AdaP-UCB's scale
# $1/\varepsilon$ for a sum of rewards. Where does each factor come from?
# :::
#
# :::{exercise}
# :label: p6-ex-clopper
#
# "No run locked in" is 0 runs out of 100. How many runs with no lock-in would you need before the
# one-sided 95% Clopper-Pearson upper bound on the lock-in rate falls below 0.5%?
# :::
#
# :::{exercise}
# :label: p6-ex-ties
#
# AdaP-UCB and AdaP-KLUCB tie at a few settings, although their arm sequences differ. Explain why the
# pseudo-regret of a run depends only on its pull counts, and why two runs with different index
# rules can end with the same pull counts on two arms when episodes double.
# :::


# %% tags=["remove-cell"]
small_gap = INSTANCES["small gap, 5 arms"]
glue("p6_sol_th5", lock_in_threshold(small_gap, HORIZONS[0]), display=False)
glue("p6_sol_th6", lock_in_threshold(small_gap, HORIZONS[1]), display=False)
glue("p6_sol_room", lock_in_threshold(small_gap, HORIZONS[1]) - lock_in_threshold(small_gap, HORIZONS[0]),
     display=False)
for h, key in zip(HORIZONS, ("5", "6")):
    b = sparse_vector_budget(h, 1.0, 0.5)
    glue(f"p6_sol_scale{key}", b.releases_per_reward / b.eps_release, display=False)
    glue(f"p6_sol_l{key}", b.releases_per_reward, display=False)
n_cp = 100
while clopper_pearson(0, n_cp, 0.05)[1] >= 0.005:
    n_cp += 1
glue("p6_sol_cp_n", n_cp, display=False)

# %% [markdown]
# :::{solution} p6-ex-lock-threshold
# :label: p6-sol-lock-threshold
# :class: dropdown
#
# $\Delta_{\min} = 0.025$, so the threshold is {glue:text}`p6_sol_th5:,.0f` at $T = 10^5$ and
# {glue:text}`p6_sol_th6:,.0f` at $T = 10^6$. A run just above the first threshold at $10^5$ may add
# up to about {glue:text}`p6_sol_room:,.0f` more over the next $9 \times 10^5$ rounds and stay below
# the second: it must then have played the best arm in most of those rounds, that is, its index
# moved at a later release. This is why some runs locked in at $10^5$ no longer count at $10^6$.
# :::
#
# :::{solution} p6-ex-gdp-noise
# :label: p6-sol-gdp-noise
# :class: dropdown
#
# Half of $\varepsilon$ goes to the stopping rule, so the releases share $\varepsilon/2$; one reward
# enters up to $L = \lfloor\log_2 T\rfloor$ releases ({glue:text}`p6_sol_l5` at $10^5$,
# {glue:text}`p6_sol_l6` at $10^6$), so each release gets $\varepsilon/(2L)$ and has scale $2L/\varepsilon$:
# {glue:text}`p6_sol_scale5:g` and {glue:text}`p6_sol_scale6:g`, against AdaP-UCB's 1. The factor 2
# is the stopping rule's half; the factor $L$ is the number of releases one Phase I reward can enter.
# :::
#
# :::{solution} p6-ex-clopper
# :label: p6-sol-clopper
# :class: dropdown
#
# With 0 events in $n$ trials the one-sided upper bound is $1 - 0.05^{1/n} \approx 3/n$; it falls
# below 0.5% from $n =$ {glue:text}`p6_sol_cp_n:,d` runs on.
# :::
#
# :::{solution} p6-ex-ties
# :label: p6-sol-ties
# :class: dropdown
#
# The pseudo-regret is $\sum_t \Delta_{I_t} = \sum_a \Delta_a N_a(T)$: the order of the pulls does
# not enter. On two arms with doubling episodes, each episode doubles the chosen arm's count, so the
# pull counts at a round are fixed by how many episodes each arm has had; two index rules that pick
# the arms in a different order but give each arm the same number of episodes by round $T$ (and
# the episode cut off at $T$ to the same arm) end with the same counts, and the same pseudo-regret,
# although their sequences differ.
# :::
