"""Timings of privbandits.audit: one mechanism at 10^6 samples per dataset and phase, one bandit
algorithm (DP-UCB, K = 2, T = 100) at 10^5 samples per dataset and phase (no cache)."""

import time

import numpy as np

from privbandits.audit import audit, flip_pairs, mechanism_targets, policy_sampler
from privbandits.environments import bernoulli_instance
from privbandits.policies.tossou2016 import DPUCB

t = mechanism_targets(1.0)["Laplace"]
start = time.perf_counter()
r = audit(t["sampler"], t["pairs"], epsilon=1.0, n_samples=1_000_000, seed=0)
print(f"Laplace, 1e6 samples/dataset/phase: {time.perf_counter() - start:.2f} s, bound {r.epsilon_lower:.3f}")

T = 100
policy = DPUCB(epsilon=1.0)
table = np.ones((T, 2))
start = time.perf_counter()
r = audit(policy_sampler(policy, bernoulli_instance([0.7, 0.3]), T), flip_pairs(table, [0]), epsilon=1.0,
          n_samples=100_000, seed=0, n_jobs=1)
print(f"DP-UCB T=100, 1e5 samples/dataset/phase, 1 pair: {time.perf_counter() - start:.2f} s, bound {r.epsilon_lower:.3f}")
