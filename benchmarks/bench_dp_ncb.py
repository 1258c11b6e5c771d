"""Benchmarks of Part II (DP-NCB): time per 10^7 rounds of each algorithm on Figure 1(b)'s instance.

Run: ``PRIVBANDITS_N_JOBS=1 python benchmarks/bench_dp_ncb.py``. One thread, warm numba cache
(a first call compiles and is not timed). Timings on the shared 2-core machine are noisy.
"""

from __future__ import annotations

import numpy as np

from privbandits.environments import bernoulli_instance
from privbandits.policies import LDPUCB, AdaPUCB
from privbandits.policies.dp_ncb import GDPNCB, LDPNCB, NCB, AnytimeDPNCB

from _timing import Stopwatch


def main() -> None:
    inst = bernoulli_instance(np.random.default_rng(2026).uniform(0.005, 1.0, 50))
    horizon = 10**6
    reps = 3
    policies = [NCB(), GDPNCB(), LDPNCB(), AnytimeDPNCB(), AnytimeDPNCB(base="ldp"), AdaPUCB(), LDPUCB()]
    print(f"{'algorithm':>16} | s per 10^7 rounds (k = 50, T = 10^6, {reps} runs)")
    for policy in policies:
        policy.run(inst, 1000, np.random.default_rng(0))  # compile
        clock = Stopwatch()
        for r in range(reps):
            policy.run(inst, horizon, np.random.default_rng(r))
        per_1e7 = (clock.seconds) / (reps * horizon) * 1e7
        print(f"{policy.name:>16} | {per_1e7:8.3f}")


if __name__ == "__main__":
    main()
