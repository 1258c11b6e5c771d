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

# before any module of the package defines a kernel (numba stamps a kernel's disk cache when it is defined) and
# before any kernel is called (numba compiles on first call): its cache index is not safe across processes
_compile_cache.install()

from ._version import __version__  # noqa: E402
from .environments import BanditInstance, bernoulli_instance, mixed_instance  # noqa: E402
from .simulate import SimulationResult, simulate  # noqa: E402

__all__ = ["__version__", "BanditInstance", "bernoulli_instance", "mixed_instance", "SimulationResult", "simulate"]
