"""On-disk cache of computed results, keyed by their configuration, the package version and the code of
the modules that compute them and everything they import (:func:`module_closure`); the code is the
syntax tree without docstrings, so an edit to documentation or comments keeps cached results. Location:
``$PRIVBANDITS_CACHE_DIR``, else ``~/.cache/privbandits``; clear with :func:`clear_cache` or
``python -m privbandits.cache clear``.

Files are compressed ``.npz`` archives (deflate, level 1): the book's results are mostly played-arm
sequences, which a cold build would otherwise write as about 3 GB and compress about 15-fold. A store
that fails (a full disk, a read-only folder) warns and leaves the result uncached; it never fails the
computation.

Computed once across processes: :func:`compute_once` (which :func:`privbandits.engine.cached` and
the simulators use) holds a lock file per key (``<key>.lock`` next to the result, an exclusive
``flock``) while it computes, so that when several processes (the book build's parallel notebooks,
the test command's workers) need one missing key at the same time, the first computes it and the
others wait, then load it. The operating system releases the lock when its holder ends, however it
ends (killed included), so a lock file left on disk by a dead process is free and is taken over at
once; a process that waits longer than :data:`LOCK_TIMEOUT` for a live holder warns and computes the
result itself. Where file locks are not available (no ``fcntl``, or a file system that refuses
``flock``), every process computes, as before.
"""

from __future__ import annotations

import ast
import errno
import functools
import hashlib
import json
import os
import shutil
import sys
import threading
import time
import types
import warnings
import zipfile
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from numba.core.compiler_lock import global_compiler_lock

from ._version import __version__

try:  # POSIX only: without it, every process computes its own results (no lock)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "belongs_to_package",
    "Claim",
    "LOCK_TIMEOUT",
    "cache_dir",
    "cache_key",
    "claim",
    "clear_cache",
    "compute_once",
    "load",
    "module_closure",
    "source_hash",
    "store",
    "wait_for",
]


def cache_dir() -> Path:
    """The cache directory (created on first store): ``$PRIVBANDITS_CACHE_DIR``, else ``~/.cache/privbandits``.

    Returns
    -------
    pathlib.Path
    """
    env = os.environ.get("PRIVBANDITS_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "privbandits"


_ROOT = Path(__file__).resolve().parent
_PACKAGE = _ROOT.name
# CPython 3.11's parser is not thread-safe: two threads building AST objects at once can fail with
# "SystemError: AST constructor recursion depth mismatch" (CPython issue gh-106905). The engine runs
# tasks in threads; each computes its cache key here, and numba, compiling a kernel in another
# thread, calls ``ast.parse`` too (``numba.misc.firstlinefinder``, under its compiler lock). So the
# parse takes numba's compiler lock (re-entrant), which serialises it with both.
_PARSE_LOCK = global_compiler_lock


def _module_path(name: str) -> Path | None:
    """The source file of package module ``name`` (``privbandits.x.y``), or ``None``."""
    parts = name.split(".")
    if parts[0] != _PACKAGE:
        return None
    base = _ROOT.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@functools.cache
def _direct_imports(name: str, path: Path, source: bytes) -> tuple[str, ...]:
    """Package modules that module ``name`` (file ``path`` holding ``source``) imports anywhere in its source.

    Memoised on the content itself, as :func:`_code_digest` is, so an edit is seen even when it keeps
    the file's size and modification time."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    with _PARSE_LOCK:
        tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                origin = ".".join(anchor + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            # ``from .x import y``: y is a submodule of x, or a name defined in x (then x is read)
            candidates = [
                f"{origin}.{alias.name}" if _module_path(f"{origin}.{alias.name}") else origin for alias in node.names
            ]
        else:
            continue
        for candidate in candidates:
            # the longest prefix that is a package module: ``privbandits.mechanisms.laplace_draw`` -> mechanisms
            parts = candidate.split(".")
            for stop in range(len(parts), 0, -1):
                prefix = ".".join(parts[:stop])
                if _module_path(prefix) is not None:
                    if prefix != name:
                        found.add(prefix)
                    break
    return tuple(sorted(found))


def belongs_to_package(obj: Any) -> bool:
    """Whether ``obj`` (a module, module name, function, class or instance) is or is defined in a package module.

    Parameters
    ----------
    obj : object

    Returns
    -------
    bool
    """
    try:
        _module_name(obj)
    except ValueError:
        return False
    return True


def _module_name(obj: Any) -> str:
    """The package module ``obj`` is, names, or is defined in; ``ValueError`` if none."""
    if isinstance(obj, str):
        name = obj
    elif isinstance(obj, types.ModuleType):
        name = obj.__name__
    elif isinstance(obj, (type, types.FunctionType)) or hasattr(obj, "py_func"):
        name = getattr(obj, "__module__", "")
    else:
        name = type(obj).__module__
    if _module_path(name) is None:
        raise ValueError(f"depends_on must name modules of the {_PACKAGE} package, got {obj!r} (module {name!r})")
    return name


def module_closure(depends_on: Iterable[Any]) -> tuple[str, ...]:
    """The package modules ``depends_on`` names and every package module they import, sorted.

    Parameters
    ----------
    depends_on : iterable
        Modules, module names, or objects defined in the package.

    Returns
    -------
    tuple of str
    """
    todo = [_module_name(obj) for obj in depends_on]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = _module_path(name)
        todo.extend(_direct_imports(name, path, path.read_bytes()))
    return tuple(sorted(seen))


def source_hash(depends_on: Iterable[Any] | None = None) -> str:
    """SHA-256 over the path and code (syntax tree without docstrings) of the modules a result depends on.

    Parameters
    ----------
    depends_on : iterable or None
        As for :func:`module_closure`; ``None``: the whole package.

    Returns
    -------
    str
    """
    if depends_on is None:
        paths = sorted(_ROOT.rglob("*.py"))
    else:
        paths = sorted(_module_path(name) for name in module_closure(depends_on))
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(_ROOT)).encode())
        digest.update(_code_digest(path.read_bytes()))
    return digest.hexdigest()


@functools.cache
def _code_digest(source: bytes) -> bytes:
    """SHA-256 of the code in ``source``: its syntax tree without docstrings, so that an edit to
    comments, docstrings or layout keeps cached results and any other edit drops them."""
    with _PARSE_LOCK:
        tree = ast.parse(source)  # a tree of its own: docstrings are cut from it below
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree).encode()).digest()


def cache_key(config: dict[str, Any], depends_on: Iterable[Any] | None = None) -> str:
    """Key of a configuration: SHA-256 of it (non-JSON values by ``str``), the version and :func:`source_hash`.

    Parameters
    ----------
    config : dict
    depends_on : iterable or None
        The package modules (or objects in them) that compute the result; ``None``: the whole package.

    Returns
    -------
    str
    """
    document = json.dumps(
        {"config": config, "version": __version__, "source": source_hash(depends_on)}, sort_keys=True, default=str
    )
    return hashlib.sha256(document.encode()).hexdigest()


def _path(key: str) -> Path:
    """The file of ``key`` in the cache directory."""
    return cache_dir() / key[:2] / f"{key}.npz"


def load(key: str) -> dict[str, np.ndarray] | None:
    """The arrays stored under ``key``, or ``None`` if none or unreadable.

    Parameters
    ----------
    key : str

    Returns
    -------
    dict of str to numpy.ndarray, or None
    """
    path = _path(key)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error):  # a damaged file: recompute
        return None


def store(key: str, arrays: dict[str, np.ndarray]) -> None:
    """Store ``arrays`` (no object arrays: loaded without pickle) under ``key`` atomically, compressed.

    A failed write (``OSError``: a full disk, no permission) removes its partial file and warns
    (``RuntimeWarning``); the caller's result is unaffected, only not cached.

    Parameters
    ----------
    key : str
    arrays : dict of str to numpy.ndarray
    """
    path = _path(key)
    tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp.npz")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_npz(tmp, arrays)
        os.replace(tmp, path)
    except BaseException as error:
        tmp.unlink(missing_ok=True)  # never leave a partial file, whatever stopped the write
        if not isinstance(error, OSError):
            raise
        warnings.warn(
            f"privbandits: result not cached ({error}); the cache is {cache_dir()}, "
            "set PRIVBANDITS_CACHE_DIR to move it or run 'python -m privbandits.cache clear'",
            RuntimeWarning,
            stacklevel=2,
        )


def _write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """``np.savez_compressed`` at deflate level 1 (numpy's own uses level 6: 2.5x slower, 13 % smaller here)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)


#: Seconds a process waits for another one computing the same key before computing it itself: the
#: book's notebook time-out (``_config.yml``), beyond which that notebook, and its lock, are gone.
LOCK_TIMEOUT = 1800.0
#: Seconds between two attempts to take a lock held by another process.
_POLL = 0.2


class Claim:
    """The exclusive right to compute one key: an open lock file under ``flock``, or no lock at all.

    Released by :meth:`release` (or leaving a ``with`` block), and by the operating system when the
    process ends. ``locked`` is ``False`` where file locks are not available: the holder computes
    as if it held the lock, and so may another process.

    Parameters
    ----------
    fd : int or None
        The lock file's descriptor, ``None`` for a claim without a lock.
    """

    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    @property
    def locked(self) -> bool:
        """Whether the claim holds a lock (until released)."""
        return self._fd is not None

    def release(self) -> None:
        """Give the key up (idempotent): closing the lock file releases its lock."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Claim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _lock_path(key: str) -> Path:
    """The lock file of ``key``, next to its result."""
    return cache_dir() / key[:2] / f"{key}.lock"


def claim(key: str, wait: float = 0.0) -> Claim | None:
    """Take the lock of ``key`` (a file next to its result), waiting up to ``wait`` seconds for its holder.

    A lock belongs to an open file, not to the file on disk: a lock file left by a process that has
    ended (killed included) is free, and is taken at once. Locks also exclude threads of one process.

    Parameters
    ----------
    key : str
    wait : float >= 0
        Seconds to wait while another process (or thread) holds the lock; 0: do not wait.

    Returns
    -------
    Claim or None
        ``None`` if the lock was still held after ``wait`` seconds; a :class:`Claim` without a lock
        (``locked`` false) where file locks are not available.
    """
    if not isinstance(wait, (int, float)) or not wait >= 0:
        raise ValueError(f"wait must be a number of seconds >= 0, got {wait!r}")
    if fcntl is None:  # pragma: no cover - Windows
        return Claim(None)
    path = _lock_path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:  # a read-only or full cache folder: compute unlocked, as a failed store does
        return Claim(None)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return Claim(fd)
        except OSError as error:
            if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                os.close(fd)  # a file system without flock (ENOLCK, EOPNOTSUPP): compute unlocked
                return Claim(None)
        if time.monotonic() >= deadline:
            os.close(fd)
            return None
        time.sleep(min(_POLL, max(0.0, deadline - time.monotonic())))


def wait_for(key: str, timeout: float | None = None) -> Claim:
    """:func:`claim` ``key``, waiting up to ``timeout`` seconds; after that, warn and return a claim without a lock.

    Parameters
    ----------
    key : str
    timeout : float >= 0 or None
        ``None``: :data:`LOCK_TIMEOUT`.

    Returns
    -------
    Claim
        Locked, unless the wait timed out (``RuntimeWarning``) or file locks are not available.
    """
    timeout = LOCK_TIMEOUT if timeout is None else timeout
    held = claim(key, wait=timeout)
    if held is None:
        warnings.warn(
            f"privbandits: another process has been computing cache key {key[:12]} for more than "
            f"{timeout:.0f} s; computing it here too",
            RuntimeWarning,
            stacklevel=3,
        )
        held = Claim(None)
    return held


def compute_once(key: str, compute: Any, timeout: float | None = None) -> dict[str, np.ndarray]:
    """The arrays stored under ``key``, computed by ``compute()`` and stored if missing, once across processes.

    A process that finds ``key`` missing takes its lock (:func:`claim`), looks again (another
    process may have stored it meanwhile), computes, stores and releases. Another process that needs
    ``key`` meanwhile waits for the lock and then loads the result. If the result is still missing
    when the lock is free (its holder failed or was killed), the next process computes it. A wait
    longer than ``timeout`` warns (``RuntimeWarning``) and computes without the lock.

    Parameters
    ----------
    key : str
    compute : callable
        ``compute() -> dict of numpy.ndarray`` (no object arrays).
    timeout : float or None
        Seconds to wait for another process's computation; ``None``: :data:`LOCK_TIMEOUT`.

    Returns
    -------
    dict of str to numpy.ndarray
    """
    hit = load(key)
    if hit is not None:
        return hit
    with wait_for(key, timeout):
        hit = load(key)
        if hit is not None:
            return hit
        result = compute()
        store(key, result)
        return result


def clear_cache() -> int:
    """Delete every cached result; return how many files were removed.

    Returns
    -------
    int
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
