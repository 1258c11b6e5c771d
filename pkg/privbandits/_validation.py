"""Input checks shared by the whole package.

Every public function validates its arguments with these helpers, so that bad input fails with a
``ValueError`` that names the parameter and the allowed range instead of producing a silent wrong
number.
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
    return isinstance(value, Real) and not isinstance(value, bool)


def check_positive(name: str, value: float, *, allow_inf: bool = False) -> float:
    """Check that ``value`` is a real number > 0 and return it as a float.

    Parameters
    ----------
    name : str
        The parameter's name, used in the error message.
    value : float
        The value to check.
    allow_inf : bool
        Whether ``inf`` is allowed (default: only finite values).

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    ValueError
        If ``value`` is not a real number, is NaN, is <= 0, or is infinite without ``allow_inf``;
        the message names ``name`` and the allowed range.
    """
    if not _is_real(value) or math.isnan(float(value)):
        raise ValueError(f"{name} must be a real number > 0, got {value!r}")
    value = float(value)
    if value <= 0 or (math.isinf(value) and not allow_inf):
        bound = "(0, inf]" if allow_inf else "(0, inf)"
        raise ValueError(f"{name} must lie in {bound}, got {value!r}")
    return value


def check_nonnegative(name: str, value: float) -> float:
    """Check that ``value`` is a finite real number >= 0 and return it as a float.

    Parameters
    ----------
    name : str
        The parameter's name, used in the error message.
    value : float
        The value to check.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    ValueError
        If ``value`` is not a real number, is NaN or infinite, or is < 0; the message names ``name``
        and the allowed range.
    """
    if not _is_real(value) or not math.isfinite(float(value)) or float(value) < 0:
        raise ValueError(f"{name} must lie in [0, inf), got {value!r}")
    return float(value)


def check_epsilon(value: float, name: str = "epsilon", *, allow_inf: bool = False) -> float:
    """Check a privacy parameter epsilon: a real number > 0 (``inf``, no privacy, only where allowed).

    Parameters
    ----------
    value : float
        The privacy parameter.
    name : str
        The parameter's name in the error message (default ``"epsilon"``).
    allow_inf : bool
        Whether ``inf`` is allowed.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    ValueError
        If ``value`` is not in ``(0, inf)`` (``(0, inf]`` with ``allow_inf``).
    """
    return check_positive(name, value, allow_inf=allow_inf)


def check_probability(name: str, value: float, *, closed: bool = False) -> float:
    """Check a probability: in the open interval (0, 1), or in [0, 1] when ``closed``.

    Parameters
    ----------
    name : str
        The parameter's name, used in the error message.
    value : float
        The value to check.
    closed : bool
        Whether the endpoints 0 and 1 are allowed.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    ValueError
        If ``value`` is not a real number or lies outside the interval.
    """
    if not _is_real(value) or math.isnan(float(value)):
        raise ValueError(f"{name} must be a real number in {'[0, 1]' if closed else '(0, 1)'}, got {value!r}")
    value = float(value)
    ok = 0.0 <= value <= 1.0 if closed else 0.0 < value < 1.0
    if not ok:
        raise ValueError(f"{name} must lie in {'[0, 1]' if closed else '(0, 1)'}, got {value!r}")
    return value


def check_delta(value: float, name: str = "delta") -> float:
    """Check a privacy parameter delta: a probability in (0, 1).

    Parameters
    ----------
    value : float
        The privacy parameter.
    name : str
        The parameter's name in the error message (default ``"delta"``).

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    ValueError
        If ``value`` is not in (0, 1).
    """
    return check_probability(name, value)


def check_bool(name: str, value: bool) -> bool:
    """Check a switch: ``True`` or ``False`` only (numpy bools and integers rejected).

    Parameters
    ----------
    name : str
        The parameter's name, used in the error message.
    value : bool
        The value to check.

    Returns
    -------
    bool
        ``value``.

    Raises
    ------
    ValueError
        If ``value`` is not a ``bool``.
    """
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def check_int(name: str, value: int, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Check an integer (numpy integers accepted, bools and floats rejected) within [minimum, maximum].

    Parameters
    ----------
    name : str
        The parameter's name, used in the error message.
    value : int
        The value to check.
    minimum, maximum : int or None
        Inclusive bounds (``None``: unbounded on that side).

    Returns
    -------
    int
        ``value`` as a Python ``int``.

    Raises
    ------
    ValueError
        If ``value`` is not an integer or lies outside [minimum, maximum].
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
    """Convert to a float array and check it has no NaN or infinity (and, optionally, its dimension).

    Parameters
    ----------
    name : str
        The parameter's name, used in the error message.
    values : array_like
        The values to check.
    ndim : int or None
        The required number of dimensions (``None``: any).

    Returns
    -------
    numpy.ndarray
        ``values`` as a float array.

    Raises
    ------
    ValueError
        If the array has the wrong number of dimensions or a non-finite entry.
    """
    array = np.asarray(values, dtype=float)
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {array.shape}")
    if array.size and not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite (no NaN or infinity)")
    return array


def check_unit_interval_array(name: str, values: object, *, ndim: int | None = None) -> np.ndarray:
    """Convert to a float array and check that all its entries lie in [0, 1] (rewards, means).

    Parameters
    ----------
    name : str
        The parameter's name, used in the error message.
    values : array_like
        The values to check.
    ndim : int or None
        The required number of dimensions (``None``: any).

    Returns
    -------
    numpy.ndarray
        ``values`` as a float array.

    Raises
    ------
    ValueError
        If the array has the wrong number of dimensions, a non-finite entry or an entry outside [0, 1].
    """
    array = check_finite_array(name, values, ndim=ndim)
    if array.size and (array.min() < 0.0 or array.max() > 1.0):
        raise ValueError(f"{name} must lie in [0, 1], got values in [{array.min():.6g}, {array.max():.6g}]")
    return array
