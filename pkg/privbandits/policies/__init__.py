"""Bandit algorithms, one module per algorithm family, all on the interfaces of :mod:`.base`.

====================================  =================================================================
module                                algorithms
====================================  =================================================================
:mod:`.ucb`                           :class:`.UCB` (UCB1, the non-private reference)
:mod:`.private_ucb`                   :class:`.PrivateUCB`, :class:`.DPUCBBound`, :class:`.DPUCB`,
                                      :class:`.DPUCBInt` (Part I)
:mod:`.dp_ncb`                        :class:`.NCB`, :class:`.GDPNCB`, :class:`.LDPNCB`,
                                      :class:`.AnytimeDPNCB` (Parts II and V)
:mod:`.adap_ucb`, :mod:`.ldp_ucb`     :class:`.AdaPUCB`, :class:`.LDPUCB` (Part II's baselines)
:mod:`.adap_klucb`                    :class:`.AdaPKLUCB` (Part VI)
:mod:`.successive_elimination`        :class:`.DPSE` (Part VI)
:mod:`.thresholding`                  :class:`.FixedBudgetThresholding`,
                                      :class:`.FixedConfidenceThresholding` (Part III)
:mod:`.fair_hiring`                   :class:`.OFUL`, :class:`.FairGreedy`, :class:`.PrivateFairGreedy`
                                      (Part IV, contextual)
====================================  =================================================================

Every policy class is exported here; the analysis functions (regret bounds, privacy accounting)
stay in their modules.
"""

from .adap_klucb import AdaPKLUCB
from .adap_ucb import AdaPUCB
from .base import ContextualPolicy, Policy, Records
from .dp_ncb import GDPNCB, LDPNCB, NCB, AnytimeDPNCB, NCBFamily
from .fair_hiring import OFUL, FairGreedy, HiringEnvironment, PrivateFairGreedy
from .ldp_ucb import LDPUCB
from .private_ucb import DPUCB, DPUCBBound, DPUCBInt, PrivateUCB
from .successive_elimination import DPSE
from .thresholding import FixedBudgetThresholding, FixedConfidenceThresholding
from .ucb import UCB

__all__ = [
    "Policy",
    "ContextualPolicy",
    "Records",
    "UCB",
    "PrivateUCB",
    "DPUCBBound",
    "DPUCB",
    "DPUCBInt",
    "NCBFamily",
    "NCB",
    "GDPNCB",
    "LDPNCB",
    "AnytimeDPNCB",
    "AdaPUCB",
    "AdaPKLUCB",
    "DPSE",
    "LDPUCB",
    "FixedBudgetThresholding",
    "FixedConfidenceThresholding",
    "OFUL",
    "FairGreedy",
    "PrivateFairGreedy",
    "HiringEnvironment",
]
