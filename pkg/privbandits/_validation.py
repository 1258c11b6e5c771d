"""Input checks shared by the package: bad input raises ``ValueError`` naming the parameter and the allowed range.

Each check takes the parameter's ``name`` (used in the message) and returns the checked value.
"""

from __future__ import annotations

import math
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
]


def _is_real(value: object) -> bool:
    """A real number that is not a bool."""
    return isinstance(value, Real) and not isinstance(value, bool)


def check_positive(name: str, value: float, *, allow_inf: bool = False) -> float:
    """Check a real number > 0 (``inf`` only with ``allow_inf``).

    Parameters
    ----------
    name : str
    value : float
    allow_inf : bool
        Whether ``inf`` is allowed.

    Returns
    -------
    float
    """
    if not _is_real(value) or math.isnan(float(value)):
        raise ValueError(f"{name} must be a real number > 0, got {value!r}")
    value = float(value)
    if value <= 0 or (math.isinf(value) and not allow_inf):
        bound = "(0, inf]" if allow_inf else "(0, inf)"
        raise ValueError(f"{name} must lie in {bound}, got {value!r}")
    return value


def check_nonnegative(name: str, value: float) -> float:
    """Check a finite real number >= 0.

    Parameters
    ----------
    name : str
    value : float

    Returns
    -------
    float
    """
    if not _is_real(value) or not math.isfinite(float(value)) or float(value) < 0:
        raise ValueError(f"{name} must lie in [0, inf), got {value!r}")
    return float(value)


def check_epsilon(value: float, name: str = "epsilon", *, allow_inf: bool = False) -> float:
    """Check a privacy parameter epsilon > 0 (``inf``, no privacy, only with ``allow_inf``).

    Parameters
    ----------
    value : float
    name : str
    allow_inf : bool
        Whether ``inf`` is allowed.

    Returns
    -------
    float
    """
    return check_positive(name, value, allow_inf=allow_inf)


def check_probability(name: str, value: float, *, closed: bool = False) -> float:
    """Check a probability in (0, 1), or in [0, 1] when ``closed``.

    Parameters
    ----------
    name : str
    value : float
    closed : bool
        Whether 0 and 1 are allowed.

    Returns
    -------
    float
    """
    if not _is_real(value) or math.isnan(float(value)):
        raise ValueError(f"{name} must be a real number in {'[0, 1]' if closed else '(0, 1)'}, got {value!r}")
    value = float(value)
    ok = 0.0 <= value <= 1.0 if closed else 0.0 < value < 1.0
    if not ok:
        raise ValueError(f"{name} must lie in {'[0, 1]' if closed else '(0, 1)'}, got {value!r}")
    return value


def check_delta(value: float, name: str = "delta") -> float:
    """Check a privacy parameter delta in (0, 1).

    Parameters
    ----------
    value : float
    name : str

    Returns
    -------
    float
    """
    return check_probability(name, value)


def check_bool(name: str, value: bool) -> bool:
    """Check a switch: ``True`` or ``False`` only (numpy bools and integers are refused).

    Parameters
    ----------
    name : str
    value : bool

    Returns
    -------
    bool
    """
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def check_int(name: str, value: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Check an integer in [minimum, maximum] (numpy integers accepted, bools and floats refused).

    Parameters
    ----------
    name : str
    value : int
    minimum, maximum : int or None
        Inclusive bounds (``None``: unbounded).

    Returns
    -------
    int
        ``value`` as a Python ``int``.
    """
    if not isinstance(value, Integral) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_finite_array(name: str, values: object, *, ndim: int | None = None) -> np.ndarray:
    """Check an array with no NaN or infinity (and, if given, ``ndim`` dimensions).

    Parameters
    ----------
    name : str
    values : array_like
    ndim : int or None
        The required number of dimensions.

    Returns
    -------
    numpy.ndarray
        ``values`` as a float array.
    """
    array = np.asarray(values, dtype=float)
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {array.shape}")
    if array.size and not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    return array


def check_unit_interval_array(name: str, values: object, *, ndim: int | None = None) -> np.ndarray:
    """Check an array of finite values in [0, 1] (and, if given, ``ndim`` dimensions).

    Parameters
    ----------
    name, values, ndim
        As for :func:`check_finite_array`.

    Returns
    -------
    numpy.ndarray
        ``values`` as a float array.
    """
    array = check_finite_array(name, values, ndim=ndim)
    if array.size and (array.min() < 0.0 or array.max() > 1.0):
        raise ValueError(f"{name} must lie in [0, 1], got values in [{array.min():.6g}, {array.max():.6g}]")
    return array
