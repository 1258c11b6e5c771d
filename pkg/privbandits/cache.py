"""On-disk cache of simulation results, keyed by their full configuration.

The key is the SHA-256 of a JSON document holding the configuration (policy and its parameters,
instance, horizon, runs, seed) together with the package version and a hash of the package's own
source files, so a change to any algorithm invalidates every cached result.

Location: ``$PRIVBANDITS_CACHE_DIR`` if set, else ``~/.cache/privbandits``.
Clear it with :func:`clear_cache` (or ``python -m privbandits.cache clear``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["cache_dir", "cache_key", "clear_cache", "load", "store"]


def cache_dir() -> Path:
    """The cache directory (created on first store).

    ``$PRIVBANDITS_CACHE_DIR`` if set, else ``~/.cache/privbandits``.

    Returns
    -------
    pathlib.Path
        The directory.
    """
    env = os.environ.get("PRIVBANDITS_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "privbandits"


@functools.lru_cache(maxsize=1)
def source_hash() -> str:
    """SHA-256 over the package's ``.py`` files (path and content).

    Returns
    -------
    str
        The hex digest; part of every cache key, so any change of the package's source invalidates
        the cache.
    """
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(config: dict[str, Any]) -> str:
    """Key of a configuration (any JSON-able mapping).

    The key hashes the configuration with the package version and :func:`source_hash`.

    Parameters
    ----------
    config : dict
        The configuration (values that are not JSON-able are hashed by their ``str``).

    Returns
    -------
    str
        The SHA-256 hex digest.
    """
    from . import __version__

    document = json.dumps(
        {"config": config, "version": __version__, "source": source_hash()}, sort_keys=True, default=str
    )
    return hashlib.sha256(document.encode()).hexdigest()


def _path(key: str) -> Path:
    return cache_dir() / key[:2] / f"{key}.npz"


def load(key: str) -> dict[str, np.ndarray] | None:
    """The arrays stored under ``key``, or ``None``.

    Parameters
    ----------
    key : str
        A key from :func:`cache_key`.

    Returns
    -------
    dict of str to numpy.ndarray, or None
        The stored arrays; ``None`` if nothing is stored under ``key`` or the file is unreadable (a
        truncated write), so the caller recomputes.
    """
    path = _path(key)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except (OSError, ValueError):  # a truncated file from an interrupted write: recompute
        return None


def store(key: str, arrays: dict[str, np.ndarray]) -> None:
    """Store ``arrays`` under ``key`` (atomically: write then rename).

    Parameters
    ----------
    key : str
        A key from :func:`cache_key`.
    arrays : dict of str to numpy.ndarray
        The arrays to store (no object arrays: they are loaded without pickle).
    """
    path = _path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez(tmp, **arrays)
    os.replace(tmp, path)


def clear_cache() -> int:
    """Delete every cached result.

    Returns
    -------
    int
        How many files were removed.
    """
    root = cache_dir()
    if not root.exists():
        return 0
    count = sum(1 for _ in root.rglob("*.npz"))
    shutil.rmtree(root)
    return count


if __name__ == "__main__":  # pragma: no cover - command line
    if sys.argv[1:] == ["clear"]:
        print(f"removed {clear_cache()} cached results from {cache_dir()}")
    else:
        print(f"cache directory: {cache_dir()}\nusage: python -m privbandits.cache clear")
