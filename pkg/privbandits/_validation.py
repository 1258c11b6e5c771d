"""Input checks: each takes the parameter's ``name`` and ``value`` and returns the checked value, or
raises ``ValueError`` naming the parameter and the allowed range.
"""

from __future__ import annotations

import math
import os
from numbers import Integral, Real

import numpy as np

__all__ = [
    "check_epsilon",
    "check_delta",
    "check_positive",
    "check_nonnegative",
    "check_probability",
    "check_int",
    "check_bool",
    "check_unit_interval_array",
    "check_finite_array",
    "check_memory",
    "check_rng",
    "memory_limit",
]


def _is_real(value: object) -> bool:
    """A real number that is not a bool."""
    return isinstance(value, Real) and not isinstance(value, bool)


def check_positive(name: str, value: float, *, allow_inf: bool = False) -> float:
    """A real number > 0 (``inf`` only with ``allow_inf``)."""
    if not _is_real(value) or math.isnan(float(value)):
        raise ValueError(f"{name} must be a real number > 0, got {value!r}")
    value = float(value)
    if value <= 0 or (math.isinf(value) and not allow_inf):
        bound = "(0, inf]" if allow_inf else "(0, inf)"
        raise ValueError(f"{name} must lie in {bound}, got {value!r}")
    return value


def check_nonnegative(name: str, value: float) -> float:
    """A finite real number >= 0."""
    if not _is_real(value) or not math.isfinite(float(value)) or float(value) < 0:
        raise ValueError(f"{name} must lie in [0, inf), got {value!r}")
    return float(value)


def check_epsilon(value: float, name: str = "epsilon", *, allow_inf: bool = False) -> float:
    """A privacy parameter epsilon > 0 (``inf``, no privacy, only with ``allow_inf``)."""
    return check_positive(name, value, allow_inf=allow_inf)


def check_probability(name: str, value: float, *, closed: bool = False) -> float:
    """A probability in (0, 1), or in [0, 1] when ``closed``."""
    if not _is_real(value) or math.isnan(float(value)):
        raise ValueError(f"{name} must be a real number in {'[0, 1]' if closed else '(0, 1)'}, got {value!r}")
    value = float(value)
    ok = 0.0 <= value <= 1.0 if closed else 0.0 < value < 1.0
    if not ok:
        raise ValueError(f"{name} must lie in {'[0, 1]' if closed else '(0, 1)'}, got {value!r}")
    return value


def check_delta(value: float, name: str = "delta") -> float:
    """A privacy parameter delta in (0, 1)."""
    return check_probability(name, value)


def check_bool(name: str, value: bool) -> bool:
    """A switch: ``True`` or ``False`` only (numpy bools and integers refused)."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def check_int(name: str, value: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer in [minimum, maximum] (``None``: unbounded) as an ``int``; numpy integers accepted, bools refused."""
    if not isinstance(value, Integral) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_rng(value: object, name: str = "rng") -> np.random.Generator:
    """A ``numpy.random.Generator`` (the package draws from Generators only)."""
    if not isinstance(value, np.random.Generator):
        raise ValueError(f"{name} must be a numpy.random.Generator (np.random.default_rng(seed)), got {value!r}"[:160])
    return value


def check_finite_array(name: str, values: object, *, ndim: int | None = None) -> np.ndarray:
    """A float array with no NaN or infinity (and ``ndim`` dimensions if given); strings and complex numbers refused."""
    try:
        raw = values if isinstance(values, np.ndarray) else np.asarray(values)
        if raw.dtype.kind in "USVc":  # strings, bytes, complex numbers
            raise TypeError
        array = raw.astype(float, copy=False)  # objects: None or ragged nesting raise here
    except (TypeError, ValueError):
        shown = repr(values)
        raise ValueError(
            f"{name} must be an array of real numbers, got {shown[:80]}{'...' * (len(shown) > 80)}"
        ) from None
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {array.shape}")
    if array.size and not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    return array


def check_unit_interval_array(name: str, values: object, *, ndim: int | None = None) -> np.ndarray:
    """A float array of finite values in [0, 1] (and ``ndim`` dimensions if given)."""
    array = check_finite_array(name, values, ndim=ndim)
    if array.size and (array.min() < 0.0 or array.max() > 1.0):
        raise ValueError(f"{name} must lie in [0, 1], got values in [{array.min():.6g}, {array.max():.6g}]")
    return array


def memory_limit() -> int | None:
    """This machine's physical memory in bytes, the most records may take (``None``: unknown, no check)."""
    # not cached: two sysconf calls cost about a microsecond, and a plain function is one the labs'
    # guard sees being called (tools/lab_guard.py)
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def _readable_bytes(n: float) -> str:
    """``n`` bytes in B, kB, MB, GB, TB, PB or EB (powers of 1000)."""
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000:
            return f"{n:.3g} {unit}"
        n /= 1000
    return f"{n:.3g} EB"


def check_memory(what: str, nbytes: float, instead: str) -> None:
    """Refuse records of ``nbytes`` over :func:`memory_limit`, naming the parameters (``what``) and the way out."""
    limit = memory_limit()
    if limit is not None and nbytes > limit:
        raise ValueError(
            f"{what}: the records would need about {_readable_bytes(nbytes)}, more than this machine's "
            f"{_readable_bytes(limit)} of memory; {instead}"
        )
