"""Issue 36: whole-run CPU time of every split kernel before and after the split, and the agent's cost per round.

Run from the repository root: ``python benchmarks/bench_agents.py [--before REF] [--rounds N] [--only TEXT]``
(``--only``: the settings whose label contains ``TEXT``).

"Before" is the package at git ``REF`` (default ``cd8c499``, the commit the step API branched from),
extracted with ``git archive`` into a temporary directory; "after" is this checkout's ``pkg``. Each is
timed in its own Python process (its own numba cache), the two alternating ``--passes`` times so that
a change in the machine's load hits both; a policy's figure is the best CPU time
(``time.process_time``) over all passes of 10 runs x ``--rounds`` rounds on one generator, on the
10-arm instance of ``bench_private_ucb.py``, after a warm-up run (compilation). CPU time, not wall
time: the machine is shared and other jobs take the cores. Then the agent's cost per round from
Python (``choose``, ``draw_reward``, ``update``: three compiled calls) over 20,000 rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 10


def _settings():
    """The settings timed: each policy class with an agent (in this checkout), its default and its options."""
    from privbandits import policies
    from privbandits.calibration import REGISTRY

    unique = []
    for p in _candidates(policies, REGISTRY):
        if p.has_agent and p not in unique:
            unique.append(p)
    return unique


def _candidates(policies, registry) -> list:
    """Every setting the script knows, from the package imported (``before`` or ``after``)."""
    out = [cls(epsilon=1.0, **fixed) for cls, fixed in registry.values()]
    out += [policies.UCB(), policies.GaussianTS(), policies.DPUCBBound(epsilon=1.0, bonus="printed"), policies.NCB()]
    out += [policies.FixedBudgetThresholding(tau=0.5, epsilon=1.0), policies.FixedBudgetThresholding(tau=0.5)]
    out += [
        policies.FixedConfidenceThresholding(tau=0.3, delta=0.1, epsilon=1.0),
        policies.FixedConfidenceThresholding(tau=0.3, delta=0.1),
        policies.GDPNCB(epsilon=1.0, phase1_rule="sparse_vector"),
    ]
    return out


def _worker(labels: list[str], rounds: int, repeat: int) -> dict[str, float]:
    """Best CPU seconds of ``repeat`` calls (10 runs x ``rounds`` each) per setting, in this process's package."""
    import numpy as np

    from privbandits import bernoulli_instance, calibration, policies

    inst = bernoulli_instance([0.1] * 8 + [0.2, 0.55])
    by_label = {repr(p): p for p in _candidates(policies, calibration.REGISTRY)}
    out = {}
    for label in labels:
        policy = by_label[label]
        kernel, args = policy._kernel_call(inst, rounds)
        kernel(np.random.default_rng(0), *args)  # compile (or load from the cache)
        best = np.inf
        for _ in range(repeat):
            rng = np.random.default_rng(0)
            start = time.process_time()
            for _ in range(RUNS):
                kernel(rng, *args)
            best = min(best, time.process_time() - start)
        out[label] = best
    return out


def _agent_overhead(only: str = "", rounds: int = 20_000) -> dict[str, float]:
    """Microseconds per round of a Python loop driving each agent (choose, draw_reward, update) until it is done."""
    import numpy as np

    from privbandits import bernoulli_instance
    from privbandits.environments import draw_reward

    inst = bernoulli_instance([0.1] * 8 + [0.2, 0.55])
    kinds, params, table = inst.kernel_args()
    out = {}
    for policy in [p for p in _settings() if only in repr(p)]:
        best = np.inf
        for _ in range(3):
            rng = np.random.default_rng(0)
            agent = policy.agent(inst.n_arms, rounds, rng)
            start = time.process_time()
            while not agent.done:  # a stopping rule may stop before the rounds
                arm = agent.choose()
                agent.update(draw_reward(rng, kinds, params, table, agent.t, arm))
            best = min(best, (time.process_time() - start) / agent.t)
        out[repr(policy)] = 1e6 * best
    return out


def _run_worker(pkg: Path, labels: list[str], rounds: int, repeat: int) -> dict[str, float]:
    """:func:`_worker` in a fresh process on the package at ``pkg``."""
    env = {**os.environ, "PYTHONPATH": str(pkg), "PRIVBANDITS_N_JOBS": "1"}
    cmd = [sys.executable, __file__, "--worker", json.dumps(labels), "--rounds", str(rounds), "--repeat", str(repeat)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="cd8c499")
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--only", default="", help="time only the settings whose label contains this text")
    parser.add_argument("--worker", default=None)
    args = parser.parse_args()
    if args.worker is not None:
        print(json.dumps(_worker(json.loads(args.worker), args.rounds, args.repeat)))
        return
    settings = [p for p in _settings() if args.only in repr(p)]
    labels = [repr(p) for p in settings]
    print(f"load average before: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        command = ["git", "-C", str(ROOT), "archive", args.before, "pkg"]
        archive = subprocess.run(command, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        trees = {"before": Path(tmp) / "pkg", "after": ROOT / "pkg"}
        best = {side: dict.fromkeys(labels, float("inf")) for side in trees}
        for _ in range(args.passes):
            for side, pkg in trees.items():
                for label, seconds in _run_worker(pkg, labels, args.rounds, args.repeat).items():
                    best[side][label] = min(best[side][label], seconds)
    print(f"load average after: {os.getloadavg()}")
    print(f"\nbest CPU seconds per {RUNS} x {args.rounds:,} rounds (10 arms), {args.passes} passes x {args.repeat}")
    print("| policy | before | after | change |\n|---|---|---|---|")
    for label in labels:
        b, a = best["before"][label], best["after"][label]
        print(f"| `{label}` | {b:.3f} | {a:.3f} | {100 * (a / b - 1):+.0f} % |")
    print("\nagent from Python, CPU microseconds per round (choose + draw_reward + update), best of 3 x 20,000 rounds")
    print("| policy | us per round |\n|---|---|")
    for label, micros in _agent_overhead(args.only).items():
        print(f"| `{label}` | {micros:.1f} |")


if __name__ == "__main__":
    main()
