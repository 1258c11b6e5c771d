"""The environments the policies play in: stochastic bandit instances and the hiring environment.

* :mod:`.bandit`: :class:`BanditInstance`, ``K`` arms with rewards in [0, 1] (Parts I-III, V, VI),
  and the reward draws the policies' kernels make (:func:`draw_reward`, :func:`draw_reward_sum`);
* :mod:`.hiring`: :class:`HiringEnvironment`, per-group candidate pools and a true parameter, the
  contextual setting of Part IV.

Both describe themselves for cache keys with ``spec()``; :func:`privbandits.simulate.simulate` runs
policies on either. Everything public is re-exported here.
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
