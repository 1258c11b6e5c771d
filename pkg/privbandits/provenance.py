"""Stored runs: what made them, and how a recomputation is compared with them.

Some chapters read results computed ahead of time (a *stored run*: an ``.npz`` file next to the
chapter, made by a script in ``benchmarks/``), because recomputing them takes longer than a build
may. Such a chapter checks two things when it runs, and they are of different kinds:

- **Staleness: was the stored run made by this code?** The file records the code digest of the
  package modules its result depends on (:func:`provenance`), the one the result cache keys on
  (:func:`privbandits.cache.source_hash`: each module's syntax tree without docstrings), and
  :func:`check_digest` recomputes it. It is exact and depends on no machine: any edit of that code,
  a comment or a docstring aside, makes it fail until the run is made again (or, where every run is
  unchanged bit for bit, stamped again: ``tools/stored_runs.py``).
- **Does this machine reproduce it?** A chapter recomputes a few stored points and compares. A
  different processor, BLAS kernel or compiled code path (vector width, fused multiply-add) rounds
  differently, so the comparison cannot be bit for bit:

  - a floating-point curve is compared to a relative tolerance (:func:`check_close`): rounding moves
    the last digits (about ``1e-14`` relative for Part II's curves on an AVX2 machine), a change of
    the algorithm moves far more;
  - a result that passes through decisions (an arm, a hire, a rank among tied candidates), where one
    rounding can flip a comparison and change the rest of the run, is compared statistically
    (:func:`check_same_mean`): the difference of the means against its standard error.

On the machine and with the pins that made a stored run, the recomputation equals it bit for bit.
"""

from __future__ import annotations

import math
import platform
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from . import cache
from ._version import __version__

__all__ = [
    "StoredRunError",
    "provenance",
    "machine_description",
    "check_digest",
    "check_close",
    "check_same_mean",
]

#: the fields :func:`provenance` writes into a stored run
PROVENANCE_FIELDS = ("package_version", "code_digest", "code_depends_on", "commit", "command", "seed", "machine")


class StoredRunError(AssertionError):
    """A stored run that is stale, or that this machine does not reproduce within the stated tolerance."""


def machine_description() -> str:
    """The processor, system and numerical libraries of this machine, as one line.

    Returns
    -------
    str
        For example ``"x86_64, Intel(R) Xeon(R) Processor; Linux-6.1; Python 3.11.7; numpy 2.4.6"``.
    """
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), cpu)
    except OSError:
        pass
    import numba  # a dependency; imported here so that importing this module stays light

    return (
        f"{platform.machine()}, {cpu}; {platform.system()}-{platform.release()}; Python {platform.python_version()}; "
        f"numpy {np.__version__}; numba {numba.__version__}"
    )


def provenance(depends_on: Iterable[str], command: str, seed: int, commit: str = "unknown") -> dict[str, np.ndarray]:
    """The fields a stored run records about what made it, to save with its arrays.

    Parameters
    ----------
    depends_on : iterable of str
        The names of the package modules that compute the result (``"privbandits.policies.dp_ncb"``);
        every package module they import counts too (:func:`privbandits.cache.module_closure`).
    command : str
        The command line that made the file (every command, if several added to it).
    seed : int
        The first seed of the run.
    commit : str
        The git commit the code was at, if known.

    Returns
    -------
    dict of str to numpy.ndarray
        ``package_version``, ``code_digest`` (:func:`privbandits.cache.source_hash` of ``depends_on``),
        ``code_depends_on`` (the module names, for :func:`check_digest`), ``commit``, ``command``,
        ``seed`` and ``machine`` (:func:`machine_description`).
    """
    roots = tuple(sorted(set(depends_on)))
    if not roots or not all(isinstance(name, str) for name in roots):
        raise ValueError(f"depends_on must name at least one module of the package, as strings, got {roots!r}")
    cache.module_closure(roots)  # a ValueError naming depends_on if one is not a package module
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    return {
        "package_version": np.array(__version__),
        "code_digest": np.array(cache.source_hash(roots)),
        "code_depends_on": np.array(roots),
        "commit": np.array(commit),
        "command": np.array(command),
        "seed": np.array(int(seed)),
        "machine": np.array(machine_description()),
    }


def check_digest(stored: Mapping[str, Any], name: str) -> str:
    """Check that a stored run was made by the package's current code (the modules it depends on).

    Parameters
    ----------
    stored : mapping
        The stored run's arrays (an opened ``.npz``), with the fields of :func:`provenance`.
    name : str
        The file's name, for the message.

    Returns
    -------
    str
        The digest, when it matches.

    Raises
    ------
    StoredRunError
        If the file records no digest, or the code it depends on has changed since it was made
        (the message says how to make it again).
    """
    missing = [field for field in ("code_digest", "code_depends_on", "command") if field not in stored]
    if missing:
        raise StoredRunError(f"{name} records no provenance ({', '.join(missing)} missing): make it again")
    command = str(stored["command"]).split("; then ")
    again = (
        f"make it again with: {' ; '.join(command)}; or, if every policy's runs are unchanged bit for bit "
        f"(tests/test_fingerprint.py passes and its reference was not rewritten), stamp it with the current "
        f"digest: python tools/stored_runs.py stamp {name}"
    )
    modules = [str(m) for m in np.atleast_1d(stored["code_depends_on"])]
    try:
        now = cache.source_hash(modules)
    except ValueError as error:  # a module it depended on is gone or renamed
        raise StoredRunError(f"{name} depends on modules the package no longer has ({error}): {again}") from None
    if now != str(stored["code_digest"]):
        raise StoredRunError(
            f"{name} is stale: the code of {', '.join(modules)} (or a module they import) changed since it was "
            f"made (digest {str(stored['code_digest'])[:12]}, now {now[:12]}): {again}"
        )
    return now


def _finite_pair(computed: Any, stored: Any, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Both arrays as floats, after checking shapes and that NaN/infinity sit at the same places."""
    a, b = np.asarray(computed, dtype=float), np.asarray(stored, dtype=float)
    if a.shape != b.shape:
        raise StoredRunError(f"{what}: computed shape {a.shape} != stored shape {b.shape}")
    same_special = np.array_equal(np.isnan(a), np.isnan(b)) and np.array_equal(
        np.where(np.isinf(a), a, 0.0), np.where(np.isinf(b), b, 0.0)
    )
    if not same_special:
        raise StoredRunError(f"{what}: NaN or infinite values at other places than in the stored run")
    return a, b


def check_close(computed: Any, stored: Any, rtol: float, what: str) -> float:
    """Check a recomputed floating-point result against its stored value to a relative tolerance.

    Parameters
    ----------
    computed, stored : array_like
        The same shape; NaN and infinite entries must sit at the same places (they are not compared).
        The difference is relative to the stored value, so a stored exact 0 passes only if the
        computed value is exactly 0 too.
    rtol : float
        The largest relative difference ``|computed - stored| / |stored|`` allowed, in (0, 1).
    what : str
        What is compared, for the message.

    Returns
    -------
    float
        The largest relative difference found (0 where the two are identical).

    Raises
    ------
    StoredRunError
        If a difference exceeds ``rtol``.
    """
    if not (isinstance(rtol, (int, float)) and 0 < rtol < 1):
        raise ValueError(f"rtol must be in (0, 1), got {rtol!r}")
    a, b = _finite_pair(computed, stored, what)
    finite = np.isfinite(b)
    if not finite.any():
        return 0.0
    scale = np.maximum(np.abs(b[finite]), np.finfo(float).tiny)
    relative = np.abs(a[finite] - b[finite]) / scale
    worst = float(relative.max())
    if worst > rtol:
        at = int(np.argmax(relative))
        raise StoredRunError(
            f"{what}: relative difference {worst:.3g} > {rtol:g} (computed {a[finite][at]!r}, stored {b[finite][at]!r})"
        )
    return worst


def check_same_mean(computed: Any, stored: Any, what: str, z: float = 4.0) -> float:
    """Check that recomputed samples have the stored samples' mean, within ``z`` standard errors.

    For results that pass through decisions, where one rounding can flip a choice and move the rest
    of a run: the two sets are treated as independent samples, and the difference of their means is
    compared with its standard error ``sqrt(s_a^2 / n_a + s_b^2 / n_b)``. Where the recomputation
    repeats the stored run's seeds the two sets are positively correlated, so this standard error
    overstates the noise and the check fails less often than the normal law says.

    Parameters
    ----------
    computed, stored : array_like
        One-dimensional samples (for example one value per trial), at least 2 each, finite.
    what : str
        What is compared, for the message.
    z : float
        Allowed difference in standard errors, > 0. With ``z = 4`` and ``n = 10`` trials each, two
        samples of the same law fail with probability about ``8e-4`` (Student's t, 18 degrees of
        freedom, two-sided).

    Returns
    -------
    float
        The difference of the means in standard errors (0 where the samples are identical).

    Raises
    ------
    StoredRunError
        If the means differ by more than ``z`` standard errors (or the samples are constant and differ).
    """
    if not (isinstance(z, (int, float)) and math.isfinite(z) and z > 0):
        raise ValueError(f"z must be a finite number > 0, got {z!r}")
    a, b = (np.asarray(x, dtype=float) for x in (computed, stored))
    for name, x in (("computed", a), ("stored", b)):
        if x.ndim != 1 or x.size < 2 or not np.isfinite(x).all():
            raise ValueError(f"{name} must be a one-dimensional finite sample of size >= 2, got shape {x.shape}")
    difference = float(a.mean() - b.mean())
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    if se == 0.0:
        if difference != 0.0:
            raise StoredRunError(f"{what}: constant samples whose means differ by {difference!r}")
        return 0.0
    score = difference / se
    if abs(score) > z:
        raise StoredRunError(
            f"{what}: mean {a.mean():.6g} computed, {b.mean():.6g} stored: {score:+.2f} standard errors "
            f"({se:.3g}), more than {z:g}"
        )
    return score
