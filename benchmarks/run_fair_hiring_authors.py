"""Part IV as its authors ran it: OFUL, Fair-Greedy and Private-Fair-Greedy with the code's departures.

Usage (from the repository root; see benchmarks/README.md for the time it takes):

    python benchmarks/run_fair_hiring_authors.py [--groups a5 p50 s5 s50 a50] [--policies oful fg pfg] [--resume]

Each policy's ``ablations()`` (printed, printed plus each departure, as run, as run minus each) on the
chapter's environment (UCI Adult, ``noise_sd = 0.1``), Private-Fair-Greedy at the paper's
(15, 0.1, 0.9, 0.9). Groups: ``a5`` every ablation at T = 5,000 (the code's default horizon),
``p50`` printed and as run at T = 50,000 (the paper's), ``a50`` the other ablations at T = 50,000,
``s5`` Figures A.1-A.4's settings as run at T = 5,000, ``s50`` A.3 and A.4's as run at T = 50,000.
Per setting ``<key>_final`` (fair regret at T per trial), ``<key>_regret`` (regret at T),
``<key>_share`` (hires per group), ``<key>_curve`` (cumulative fair regret on ``t_<T>``) and
``<key>_seconds``. The file ``book/part4_fair_hiring/results_hiring_authors.npz`` is rewritten after each
policy and horizon (``--resume`` skips what is stored).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from privbandits.data import load_census_hiring
from privbandits.policies.fair_hiring import OFUL, FairGreedy, HiringEnvironment, PrivateFairGreedy
from privbandits.provenance import check_digest, provenance
from privbandits.simulate import simulate_hiring

from _timing import Stopwatch, git_commit

#: the package modules the stored result depends on (its code digest, privbandits.provenance)
DEPENDS_ON = ("privbandits.policies.fair_hiring", "privbandits.data.census", "privbandits.simulate")

OUT = Path(__file__).resolve().parents[1] / "book" / "part4_fair_hiring" / "results_hiring_authors.npz"
SEED = 2025  # the chapter's
PFG_ARGS = dict(epsilon=15.0, delta=0.1, alpha_eps=0.9, alpha_delta=0.9)
POLICIES = (("oful", OFUL, {}), ("fg", FairGreedy, {}), ("pfg", PrivateFairGreedy, PFG_ARGS))


def grid(horizon: int) -> np.ndarray:
    """About 100 log-spaced rounds from 10 to ``horizon`` (1-based)."""
    return np.unique(np.round(np.logspace(1, np.log10(horizon), 100)).astype(np.int64))


#: Figures A.1-A.4's values other than the default (paper_scale.py's sweeps)
SWEEPS = {"epsilon": (1.0, 5.0, 50.0), "delta": (0.001, 0.01), "alpha_eps": (0.5, 0.7), "alpha_delta": (0.5, 0.7)}


def settings(group: str):
    """(prefix, horizon, [(key, policy), ...]) of one group."""
    horizon = 5_000 if group in ("a5", "s5") else 50_000
    if group in ("s5", "s50"):  # Figures A.1-A.4 as run (the default is "authors"); s50: A.3 and A.4
        chosen = [
            (f"sw_{name}_{v:g}", PrivateFairGreedy.as_run_by_authors(**{**PFG_ARGS, name: v}))
            for name, values in SWEEPS.items()
            for v in values
            if group == "s5" or name.startswith("alpha")
        ]
        yield "pfg", horizon, chosen
        return
    for prefix, cls, kwargs in POLICIES:
        chosen = [(a.key, a.policy) for a in cls.ablations(**kwargs)]
        if group == "p50":
            chosen = [(k, p) for k, p in chosen if k in ("printed", "authors")]
        elif group == "a50":
            chosen = [(k, p) for k, p in chosen if k not in ("printed", "authors")]
        yield prefix, horizon, chosen


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", nargs="+", default=["a5", "p50"])
    ap.add_argument("--runs5", type=int, default=40, help="trials at T = 5,000")
    ap.add_argument("--runs50", type=int, default=10, help="trials at T = 50,000 (the paper's 10)")
    ap.add_argument("--policies", nargs="+", default=[p for p, _, _ in POLICIES], help="oful fg pfg")
    ap.add_argument("--jobs", type=int, default=None, help="workers (default: the engine's)")
    ap.add_argument("--resume", action="store_true", help="keep the settings already in the output file")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    env = HiringEnvironment.from_census(load_census_hiring(), noise_sd=0.1)
    arrays: dict[str, np.ndarray] = dict(np.load(args.out)) if args.resume and args.out.exists() else {}
    commit = git_commit()
    command = "python benchmarks/run_fair_hiring_authors.py " + " ".join(sys.argv[1:] if argv is None else argv)
    if "command" in arrays:  # --resume: the file was made by the earlier commands, then this one
        check_digest(arrays, str(args.out))  # settings kept from a file of other code would be stale
        command = f"{arrays['command']}; then {command}"
    for group in args.groups:
        for prefix, horizon, chosen in settings(group):
            if prefix not in args.policies:
                continue
            chosen = [(f"{prefix}_{key}_{horizon}", p) for key, p in chosen]
            chosen = [(k, p) for k, p in chosen if f"{k}_final" not in arrays]
            if not chosen:
                continue
            runs = args.runs5 if horizon == 5_000 else args.runs50
            clock = Stopwatch()
            out = simulate_hiring([p for _, p in chosen], env, horizon, runs, SEED, n_jobs=args.jobs, use_cache=False)
            t = grid(horizon)
            for (key, policy), res in zip(chosen, out):
                fair = np.cumsum(res["fair_regret"], axis=1)
                arrays[f"{key}_final"] = fair[:, -1]
                arrays[f"{key}_curve"] = fair[:, t - 1]
                arrays[f"{key}_regret"] = res["regret"].sum(axis=1)
                arrays[f"{key}_share"] = np.array([np.mean(res["groups"] == k) for k in range(len(env.pools))])
                arrays[f"{key}_policy"] = np.array(repr(policy))
                arrays[f"{key}_seconds"] = np.float64(clock.seconds / len(chosen))
                arrays[f"{key}_runs"] = np.int64(runs)
            arrays[f"t_{horizon}"] = t
            arrays.update(
                {
                    **provenance(DEPENDS_ON, command, SEED, commit),
                }
            )
            args.out.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(args.out, **arrays)
            finals = ", ".join(f"{k}: {arrays[f'{k}_final'].mean():,.1f}" for k, _ in chosen)
            print(f"{group} {prefix} T={horizon}: {clock.seconds:.0f} s, {len(chosen)} settings; {finals}", flush=True)
            del out


if __name__ == "__main__":
    main()
