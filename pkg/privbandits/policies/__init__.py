"""Bandit algorithms, one module per family, on the interfaces of :mod:`.base`; every policy class is exported here.

:mod:`.ucb` (UCB1, the non-private reference); :mod:`.private_ucb` (Part I: Private-UCB, DP-UCB-BOUND,
DP-UCB, DP-UCB-INT); :mod:`.dp_ncb` (Parts II and V: NCB, GDP-NCB, LDP-NCB, the anytime wrapper);
:mod:`.adap_ucb`, :mod:`.ldp_ucb` (Part II's baselines); :mod:`.adap_klucb`,
:mod:`.successive_elimination`, :mod:`.dp_ts` (Part VI: AdaP-KLUCB, DP-SE, DP-TS, Lazy-DP-TS);
:mod:`.thompson` (Gaussian Thompson sampling, whose privacy Part V audits); :mod:`.thresholding` (Part III);
:mod:`.fair_hiring` (Part IV, contextual: OFUL, Fair-Greedy, Private-Fair-Greedy).
"""

from .adap_klucb import AdaPKLUCB
from .adap_ucb import AdaPUCB
from .base import ContextualPolicy, Policy, Records
from .dp_ncb import GDPNCB, LDPNCB, NCB, AnytimeDPNCB, NCBFamily
from .dp_ts import DPTS, LazyDPTS
from .fair_hiring import OFUL, FairGreedy, HiringEnvironment, PrivateFairGreedy
from .ldp_ucb import LDPUCB
from .private_ucb import DPUCB, DPUCBBound, DPUCBInt, PrivateUCB
from .successive_elimination import DPSE
from .thompson import GaussianTS
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
    "DPTS",
    "LazyDPTS",
    "GaussianTS",
    "LDPUCB",
    "FixedBudgetThresholding",
    "FixedConfidenceThresholding",
    "OFUL",
    "FairGreedy",
    "PrivateFairGreedy",
    "HiringEnvironment",
]
