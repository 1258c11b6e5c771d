"""privbandits: companion package of the book *Private and Fair Bandits*.

Modules by concept: :mod:`~privbandits.mechanisms` (privacy mechanisms and counters),
:mod:`~privbandits.environments`, :mod:`~privbandits.policies` (the algorithms and their privacy
accounting, registered in :mod:`~privbandits.calibration`), :mod:`~privbandits.simulate` (seeded,
parallel, cached runs), :mod:`~privbandits.metrics`, :mod:`~privbandits.audit` (Part V),
:mod:`~privbandits.frontier` (Part VI), :mod:`~privbandits.data`, :mod:`~privbandits.plotting`,
:mod:`~privbandits.cache`, :mod:`~privbandits.provenance` (stored runs: what made them, and the checks
a chapter makes against them).
"""

from . import _compile_cache
from ._version import __version__
from .environments import BanditInstance, bernoulli_instance, mixed_instance
from .simulate import SimulationResult, simulate

# before any kernel is called (numba compiles on first call): its cache index is not safe across processes
_compile_cache.install()

__all__ = ["__version__", "BanditInstance", "bernoulli_instance", "mixed_instance", "SimulationResult", "simulate"]
