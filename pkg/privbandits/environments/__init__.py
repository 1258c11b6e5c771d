"""The environments the policies play in, re-exported here: :mod:`.bandit` (:class:`BanditInstance`,
Parts I-III, V, VI, and the kernels' reward draws) and :mod:`.hiring` (:class:`HiringEnvironment`,
Part IV). Both describe themselves for cache keys with ``spec()``.
"""

from .bandit import (
    BERNOULLI,
    BETA,
    TWO_POINT,
    UNIFORM,
    BanditInstance,
    bernoulli_instance,
    beta_instance,
    draw_reward,
    draw_reward_sum,
    mixed_instance,
    two_point_instance,
    uniform_instance,
)
from .hiring import L_TILDE_RULES, HiringArrays, HiringEnvironment, ScoreTree

__all__ = [
    "BERNOULLI",
    "BETA",
    "TWO_POINT",
    "UNIFORM",
    "BanditInstance",
    "bernoulli_instance",
    "beta_instance",
    "two_point_instance",
    "uniform_instance",
    "mixed_instance",
    "draw_reward",
    "draw_reward_sum",
    "HiringEnvironment",
    "HiringArrays",
    "ScoreTree",
    "L_TILDE_RULES",
]
