"""Old import path of the hiring environment, which lives in :mod:`privbandits.environments.hiring`."""

# Re-exported (``import X as X``) so that ``from privbandits.policies.fair_hiring.environment import
# HiringEnvironment`` keeps working; no ``__all__``, so the objects are documented once, at their home.
from ...environments.hiring import L_TILDE_RULES as L_TILDE_RULES
from ...environments.hiring import HiringArrays as HiringArrays
from ...environments.hiring import HiringEnvironment as HiringEnvironment
from ...environments.hiring import ScoreTree as ScoreTree
from ...environments.hiring import check_l_tilde_rule as check_l_tilde_rule
