"""Part II, "Figure 1 as the authors ran it": the departures of the authors' code, at their horizons.

Usage (from the repository root; tens of minutes on 2 free cores, see benchmarks/README.md):

    python benchmarks/run_dp_ncb_authors.py [--groups b7 c7 b8 d7 f7 p8] [--runs 50] [--jobs 2] [--resume]

The authors' experiment code (``NP-Hardest/DP-NCB``, ``main.py``) runs one set of 50 runs told
``T_max`` (10^8 for Figure 1(b), 10^7 for (c)-(f)) and plots the running Nash regret over ``t`` of
those runs. Each setting here is that: ``simulate_mean_rewards(policy, instance, T_max, runs, seed,
at=t)`` (the chapter's runs and seeds, O(T) memory; O(episodes) for GDP-NCB and AdaP-UCB, which the
chapter now computes itself at 10^8) and ``running_nash_regret`` / ``running_average_regret`` read
on a grid ``t`` of about 200 log-spaced rounds (with every 10^j and 3·10^j). The policies are the
printed algorithms, the authors' configuration (``as_run_by_authors``) and the departures switched
on one at a time (``+flag``) or off one at a time from the authors' configuration (``-flag``), as each
policy's ``ablations()`` lists them.
Groups: ``b7`` (Figure 1(b)'s five algorithms and the departure table, T_max = 10^7), ``c7``
(GDP-NCB as run for eps in {0.5, 1, 2}), ``b8`` (GDP-NCB and AdaP-UCB, printed and as run, at
T_max = 10^8), ``d7`` (LDP-NCB as run for eps in {0.5, 1, 2}), ``p8`` (NCB, LDP-NCB and LDP-UCB, printed
and as run, at T_max = 10^8: about an hour on 2 cores, not in the default groups), ``f7`` (Figure 1(f) as
run: NCB, GDP-NCB and LDP-NCB as run on the literal mixed laws, scored with the sampled means as the
code scores them, ``f_run_*``, and with the laws' own means, ``f_true_*``). The file
``book/part2_dp_ncb/results_authors.npz`` is rewritten after every setting (so an interrupted run
keeps what finished; ``--resume`` skips the settings already stored).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import numpy as np

from privbandits.environments import bernoulli_instance, mixed_instance
from privbandits.metrics import running_average_regret, running_nash_regret
from privbandits.policies import LDPUCB, AdaPUCB
from privbandits.policies.dp_ncb import GDPNCB, LDPNCB, NCB, PAPER_PHASE1_CONSTANT
from privbandits.provenance import check_digest, provenance
from privbandits.simulate import simulate_mean_rewards

from _timing import Stopwatch, git_commit

#: the package modules the stored result depends on (its code digest, privbandits.provenance)
DEPENDS_ON = (
    "privbandits.policies.dp_ncb",
    "privbandits.policies.adap_ucb",
    "privbandits.policies.ldp_ucb",
    "privbandits.simulate",
    "privbandits.metrics",
)

OUT = Path(__file__).resolve().parents[1] / "book" / "part2_dp_ncb" / "results_authors.npz"
EPS = 0.2


def grid(t_max: int) -> np.ndarray:
    """About 200 log-spaced rounds from 10 to ``t_max``, with every 10^j and 3·10^j."""
    t = np.unique(np.round(np.logspace(1, np.log10(t_max), 200)).astype(np.int64))
    j = np.arange(1, int(np.log10(t_max)) + 1)
    extra = np.r_[10**j, 3 * 10**j]
    return np.unique(np.r_[t, extra[extra <= t_max]])


#: the policies whose departures the b7 group ablates, with their key prefix and arguments
ABLATED = (
    (GDPNCB, "gdp", (EPS,)),
    (AdaPUCB, "adap", (EPS,)),
    (NCB, "ncb", ()),
    (LDPNCB, "ldp", (EPS,)),
    (LDPUCB, "ldpucb", (EPS,)),
)
#: run order within a policy, by the ablation key's first character: printed, as run ("authors"),
#: each departure alone ("+..."), as run minus each ("-...")
RUN_ORDER = {"p": 0, "a": 1, "+": 2, "-": 3}


def settings():
    """(group, key, policy, T_max) of every setting, in the order they run."""
    g_a, l_a = GDPNCB.as_run_by_authors(EPS), LDPNCB.as_run_by_authors(EPS)
    a_a = AdaPUCB.as_run_by_authors(EPS)
    out = [
        ("b7", f"{prefix}_{a.key}", a.policy)
        for cls, prefix, args in ABLATED
        for a in sorted(cls.ablations(*args), key=lambda a: RUN_ORDER[a.key[0]])
    ]
    out = [(g, k, p, 10**7) for g, k, p in out]
    out += [("c7", f"gdp_authors_eps{e:g}", GDPNCB.as_run_by_authors(e), 10**7) for e in (0.5, 1.0, 2.0)]
    out += [
        ("b8", "gdp_printed_1e8", GDPNCB(epsilon=EPS), 10**8),
        ("b8", "gdp_authors_1e8", g_a, 10**8),
        ("b8", "adap_printed_1e8", AdaPUCB(epsilon=EPS), 10**8),
        ("b8", "adap_authors_1e8", a_a, 10**8),
    ]
    out += [("d7", f"ldp_authors_eps{e:g}", LDPNCB.as_run_by_authors(e), 10**7) for e in (0.5, 1.0, 2.0)]
    out += [  # Figure 1(b)'s per-round algorithms at the authors' T_max = 10^8 (5 x 10^9 rounds each)
        ("p8", "ncb_authors_1e8", NCB.as_run_by_authors(), 10**8),
        ("p8", "ldp_authors_1e8", l_a, 10**8),
        ("p8", "ldpucb_authors_1e8", LDPUCB.as_run_by_authors(EPS), 10**8),
        ("p8", "ncb_printed_1e8", NCB(), 10**8),
        ("p8", "ldp_printed_1e8", LDPNCB(epsilon=EPS), 10**8),
        ("p8", "ldpucb_printed_1e8", LDPUCB(epsilon=EPS), 10**8),
    ]
    out = [(*setting, "fig1b") for setting in out]
    # Figure 1(f) as run (main.py lines 171-184, test_type = 1): every arm's reward law chosen by its
    # sampled mean and taken literally (GDPNCB.py lines 17-45), and the Nash regret computed from the
    # sampled means (line 156: means[arms]), not from the laws' means. "f_run" is that metric, "f_true"
    # the same runs scored with the laws' own means.
    for instance_name in ("f_run", "f_true"):
        out += [
            ("f7", f"{instance_name}_ncb_authors", NCB.as_run_by_authors(), 10**7, instance_name),
            ("f7", f"{instance_name}_gdp_authors", g_a, 10**7, instance_name),
            ("f7", f"{instance_name}_ldp_authors", l_a, 10**7, instance_name),
        ]
    return out


def instances(means: np.ndarray) -> dict:
    """The instances the settings name: Figure 1(b)'s, and Figure 1(f)'s as run (two metrics)."""
    literal = mixed_instance(means, match_means=False, name="fig1f-literal")
    # the same reward laws, scored with the sampled means (as the authors' code scores them)
    as_run = dataclasses.replace(literal, log_means=np.log(means), name="fig1f-as-run")
    return {"fig1b": bernoulli_instance(means, name="fig1b"), "f_run": as_run, "f_true": literal}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", nargs="+", default=["b7", "c7", "b8", "d7", "f7"])
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=None, help="workers (default: the engine's)")
    ap.add_argument("--resume", action="store_true", help="keep the settings already in the output file")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    assert PAPER_PHASE1_CONSTANT == 1600.0
    means = np.random.default_rng(2026).uniform(0.005, 1.0, 50)  # the chapter's instance of Figure 1(b)
    by_name = instances(means)
    arrays: dict[str, np.ndarray] = {}
    if args.resume and args.out.exists():
        arrays = dict(np.load(args.out))
        check_digest(arrays, str(args.out))  # settings kept from a file of other code would be stale
    commit = git_commit()
    command = "python benchmarks/run_dp_ncb_authors.py " + " ".join(sys.argv[1:] if argv is None else argv)
    for group, key, policy, t_max, instance_name in settings():
        instance = by_name[instance_name]
        if group not in args.groups or f"{key}_nash" in arrays:
            continue
        clock = Stopwatch()
        t = grid(t_max)
        res = simulate_mean_rewards(
            policy, instance, t_max, args.runs, args.seed, n_jobs=args.jobs, cache=False, at=t
        )  # read at t only: the same numbers as the whole running curves at t (tests/test_folding.py)
        arrays[f"{key}_t"] = t
        arrays[f"{key}_nash"] = running_nash_regret(res)
        arrays[f"{key}_avg"] = running_average_regret(res)
        arrays[f"{key}_phase1"] = np.float64(np.mean(res.records.get("phase1_end", np.zeros(1))))
        arrays[f"{key}_seconds"] = np.float64(clock.seconds)
        arrays[f"{key}_policy"] = np.array(repr(policy))
        del res
        arrays.update(
            {
                "runs": np.int64(args.runs),
                "epsilon": np.float64(EPS),
                "instance_seed": np.int64(2026),
                **provenance(DEPENDS_ON, command, args.seed, commit),
            }
        )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(args.out, **arrays)
        print(
            f"{key:>20} T_max={t_max:.0e}: Nash regret {arrays[f'{key}_nash'][-1]:.5f}, {clock.seconds:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
