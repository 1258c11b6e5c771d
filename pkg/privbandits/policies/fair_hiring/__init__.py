"""Fair contextual linear bandits for hiring (Part IV): OFUL, Fair-Greedy and Private-Fair-Greedy.

Setting (``grazzi2022group``; ``an2025privatefairgreedy``, Section 3): each round one candidate per
group; the learner hires one and observes ``<X_{k_t,t}, theta*> + eta_t``. Fairness compares
candidates by their relative rank within their own group, ``F_k(<X_{k,t}, theta*>)``; the fair
pseudo-regret (Definition 2) is ``sum_t max_k F_k(<X_k,theta*>) - F_{k_t}(<X_{k_t},theta*>)``.
Modules: :mod:`.calibration`, :mod:`.tree` (the matrix tree mechanism), :mod:`.kernels` and
:mod:`.policies`; the environment is :mod:`privbandits.environments.hiring`. Everything public is
re-exported here.
"""

from ...environments.hiring import HiringArrays, HiringEnvironment, ScoreTree
from .calibration import (
    budget_table,
    noise_scale,
    privacy_guarantee,
    rank_mu,
    rank_sigma,
    split_budget,
    tight_noise_scale,
    tree_gamma,
    tree_levels,
    tree_mu,
    tree_rho,
    tree_sigma,
)
from .policies import OFUL, FairGreedy, HiringAgent, HiringPolicy, PrivateFairGreedy, relative_ranks, run_together
from .tree import private_ridge_prefix

__all__ = [
    "OFUL",
    "FairGreedy",
    "PrivateFairGreedy",
    "HiringPolicy",
    "HiringAgent",
    "HiringEnvironment",
    "HiringArrays",
    "ScoreTree",
    "run_together",
    "tree_levels",
    "tree_sigma",
    "tree_gamma",
    "tree_rho",
    "tree_mu",
    "rank_mu",
    "rank_sigma",
    "split_budget",
    "tight_noise_scale",
    "noise_scale",
    "privacy_guarantee",
    "relative_ranks",
    "private_ridge_prefix",
    "budget_table",
]
