"""Grading guard of the book's labs: no package shortcut, feedback in words, a time limit per check.

``tools/labs.py`` ships this module in each autograder zip (otter copies it next to the submission,
where the grading kernel imports it), with the term's file :data:`TERM_FILE`. Every hidden test
runs its whole body inside :func:`hidden_test`::

    with hidden_test(allow=("privbandits.mechanisms.binary_tree_prefix_sums",)) as seed:
        data = np.random.default_rng(seed(100)).random(50)
        ...

While the block runs:

* **No package shortcut.** The submission's code may call nothing of ``privbandits`` except the
  names in ``allow`` (what the lab tells students to use: a function, or one method of a class,
  e.g. the step API's ``privbandits.policies.base.Agent.choose``). The rule is by *where the call comes
  from*, not by name, so it covers every route: public and private functions, methods, numba
  kernels (``thresholding._observe``), ``lru_cache`` wrappers, aliases (``f = pkg._helper``, a
  function kept in a list, ``getattr``), calls made through a library (``np.vectorize(pkg_fn)``).
  A call of a package function is the submission's when the nearest caller outside the libraries
  (the standard library, ``site-packages``, generated ``<string>`` code) is neither the package
  itself nor the hidden test: the package calling itself and the test calling the package (its
  reference values, the auditor) are free. Python functions are seen with a profile hook
  (:func:`sys.setprofile`), numba dispatchers through their ``__call__`` and ``lru_cache``
  wrappers by swapping their bindings. Such a call raises :class:`PackageCalled` and fails the
  check, even if the submission catches the exception.
* **Feedback in words.** Whatever fails, the check raises :class:`Feedback` whose message says
  what is wrong (the assertion's message, which states the property and the student's value; the
  exception the submission's code raised; the package call; the time limit), never the test's
  code or its seeds: otter shows the student the line of the test where the exception left it,
  which is then this ``with`` line, and the message.
* **A time limit per check** (:data:`SECONDS`, or the term file's ``seconds``): an endless loop
  costs only the check it sits in (``SIGALRM``, in the grading kernel's main thread).
* **The term's seeds.** ``seed(n)`` is the seed the test wrote as ``n``, mixed with the term's seed
  of :data:`TERM_FILE` (``labs.py release --seed``): each term's autograder draws fresh hidden-test
  randomness (the hidden tests are in no public file: ``labs_hidden/``).
* **No patching the grading.** ``python lab_guard.py grade TESTS NOTEBOOK`` (what ``labs.py
  grade`` runs, in a fresh Python per submission) imports the grading code and seals it
  (:class:`Seal`) before the submission runs (:func:`grade_notebook`); a submission that replaced
  a ``sys.modules`` entry, a builtin, this guard or otter's checks is not graded. Each hidden check
  also checks the seal when one is set (:class:`Tampered`).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import os
import pkgutil
import signal
import site
import sys
import sysconfig
import threading
import types

#: Seconds allowed to one hidden check (overridden by the term file or ``LAB_GUARD_SECONDS``).
SECONDS = 120.0
#: Written into the autograder zip by ``tools/labs.py release``: ``{"term": ..., "seed": ..., "seconds": ...}``.
TERM_FILE = "lab_term.json"
PACKAGE = "privbandits"


class Feedback(AssertionError):
    """What a student is told when a hidden check fails (a sentence, no test code)."""


class PackageCalled(Feedback):
    """The submission called the package."""


class Tampered(Feedback):
    """The submission replaced part of the grading's own code (see :class:`Seal`)."""


class TimeLimit(BaseException):
    """A check ran out of time (a ``BaseException``: ``except Exception`` in a submission does not stop it)."""


def _term() -> dict:
    """The term's settings (``{}`` outside an autograder)."""
    for folder in (os.getcwd(), os.path.dirname(os.path.abspath(__file__))):
        path = os.path.join(folder, TERM_FILE)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                return json.load(f)
    return {}


def term_seed(base: int, term: dict | None = None) -> int:
    """The seed a hidden test uses for its seed ``base`` in this term.

    Parameters
    ----------
    base : int
        The seed written in the test (used as is when no term seed is set, as in the book).
    term : dict, optional
        The term's settings (default: read :data:`TERM_FILE`).

    Returns
    -------
    int
        ``base`` without a term seed; otherwise a seed drawn from ``numpy.random.SeedSequence``
        of ``(term seed, base)``, so each term and each test gets its own stream.
    """
    term = _term() if term is None else term
    if term.get("seed") is None:
        return int(base)
    import numpy as np

    return int(np.random.SeedSequence([int(term["seed"]), int(base)]).generate_state(1, dtype=np.uint32)[0])


#: Modules a submission must leave as they are, besides the package, otter and what the tests import.
WATCHED = ("builtins", "importlib", "contextlib", "signal", "threading", "json", "pickle", "math", "types", "os")
#: The callables of ``sys`` the guard relies on (``sys.stdout`` and the like may change legitimately).
SYS_NAMES = ("setprofile", "getprofile", "settrace", "gettrace", "_getframe", "exit")
#: numpy and scipy modules sealed in the grading besides what the tests import (the package's and
#: the auditor's: ``scipy.stats.kstest``, ``scipy.stats.beta.ppf``); every loaded numpy and scipy
#: module is sealed too.
NUMERIC = ("numpy", "numpy.random", "scipy", "scipy.special", "scipy.stats")
_MISSING = object()
_SEAL: Seal | None = None


class Seal:
    """What the grading's own code is, captured before the submission runs, to find what it replaced.

    The grading runner (:func:`grade_notebook`) imports every module the hidden tests import, this
    guard, the package and otter, then seals them: for each such module, its entry in
    ``sys.modules``, every callable (function, class, module) it binds, each function's code and
    defaults, and the functions of its classes; for ``builtins`` every name, for ``sys`` the
    functions the guard uses (:data:`SYS_NAMES`); and the key set of each sealed module, of each
    class it defines and of numpy's and scipy's callable instances (``scipy.stats.beta``), so a key
    added later is found too (a submodule imported later is not counted). :meth:`broken` names the
    first of them that is no longer the same object, or the added key
    (``sys.modules['privbandits.audit'] = fake``, ``lab_guard.hidden_test = ...``,
    ``otter....TestFile.run = ...``, ``f.__code__ = ...``, ``builtins.abs = ...``): the
    submission is then not graded (every question scores 0, :class:`Tampered`).

    Parameters
    ----------
    names : iterable of str
        The modules to seal besides :data:`WATCHED`, the package's, otter's and this one.
    """

    def __init__(self, names=()):
        self.modules: dict[str, types.ModuleType] = {}
        self.entries: list[tuple[str, object, str, object, object, object, object]] = []
        self.sys, self.sys_modules = sys, sys.modules
        self.fixed: tuple = ((), None)  # the term's settings and LAB_GUARD_SECONDS (set by the runner)
        self.keys: list[tuple[str, object, frozenset]] = []  # (where, namespace owner, its keys)
        wanted = set(WATCHED) | set(names) | {__name__, "lab_guard"}
        for name, module in list(sys.modules.items()):
            if isinstance(module, types.ModuleType) and (name in wanted or name.split(".")[0] in (PACKAGE, "otter")):
                self.modules[name] = module
                self._record(name, module)
        for key in SYS_NAMES:
            if hasattr(sys, key):
                self._entry("sys", sys, key, getattr(sys, key))
        # tuples, which the submission cannot change in place (the runner checks these very objects)
        self.modules, self.entries, self.keys = tuple(self.modules.items()), tuple(self.entries), tuple(self.keys)

    def _entry(self, where, owner, key, value):
        code, defaults = None, (None, None)
        if type(value) is types.FunctionType:  # plain functions (not proxies that make these on access)
            code, defaults = value.__code__, (value.__defaults__, value.__kwdefaults__)
        self.entries.append((where, owner, key, value, code, *defaults))

    def _record(self, name: str, module: types.ModuleType) -> None:
        # a key added later (a global that shadows a builtin, an attribute that shadows an
        # inherited one) is found through the key sets; a module added to a module (a submodule
        # imported later) is not counted
        self.keys.append((name, module, frozenset(vars(module))))
        numeric = name.split(".")[0] in ("numpy", "scipy")
        for key, value in list(vars(module).items()):
            if name != "builtins" and not (callable(value) or isinstance(value, types.ModuleType)):
                continue  # data (caches, settings) may change
            self._entry(name, module, key, value)
            if isinstance(value, type) and getattr(value, "__module__", None) == name:
                self.keys.append((f"{name}.{key}", value, frozenset(vars(value))))
                for attr, member in list(vars(value).items()):
                    if isinstance(member, (types.FunctionType, classmethod, staticmethod, property)):
                        self._entry(f"{name}.{key}", value, attr, member)
            elif numeric and not isinstance(value, (type, types.FunctionType, types.ModuleType)):
                # callable instances (scipy.stats.beta): ``beta.ppf = ...`` adds an instance key
                with contextlib.suppress(TypeError):
                    self.keys.append((f"{name}.{key}", value, frozenset(vars(value))))

    def broken(self) -> str | None:
        """What the submission replaced (a phrase), or None if everything sealed is as it was.

        Returns
        -------
        str or None
        """
        # no builtin looked up here before the entries (builtins among them) are checked, one global,
        # ``_MISSING`` (sealed, as this module is): the objects captured, and attributes of
        # built-in types (``__dict__``, ``dict.get``, ``frozenset.__contains__``)
        if self.sys.__dict__.get("modules") is not self.sys_modules:
            return "sys.modules"
        for name, module in self.modules:
            if self.sys_modules.get(name) is not module:
                return f"sys.modules[{name!r}]"
        for where, owner, key, value, code, defaults, kwdefaults in self.entries:
            if owner.__dict__.get(key, _MISSING) is not value:
                return f"{where}.{key}"
            if code is not None and (
                value.__code__ is not code
                or value.__defaults__ is not defaults
                or value.__kwdefaults__ is not kwdefaults
            ):
                return f"the code of {where}.{key}"
        for where, owner, keys in self.keys:
            for key, value in owner.__dict__.items():
                if not keys.__contains__(key) and type(value) is not types.ModuleType:
                    return f"{where}.{key}"
        return None


def _check_seal() -> None:
    """Raise :class:`Tampered` if a seal is set and broken."""
    seal = _SEAL
    what = seal.broken() if seal is not None else None
    if what is not None:
        raise Tampered(tampered_message(what))


def tampered_message(what: str) -> str:
    """What a student whose notebook replaced part of the grading is told.

    Parameters
    ----------
    what : str
        What was replaced (:meth:`Seal.broken`).

    Returns
    -------
    str
    """
    return (
        f"not graded: your notebook replaces {what}, which the grading itself uses; remove the code that"
        " changes modules, builtins, the grading guard or otter, and submit again"
    )


def _library_dirs() -> tuple[str, ...]:
    dirs = set()
    for scheme in (sysconfig.get_paths(), sysconfig.get_paths(vars={"base": sys.base_prefix})):
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            if scheme.get(key):
                dirs.add(os.path.realpath(scheme[key]))
    with contextlib.suppress(AttributeError):
        dirs.update(os.path.realpath(p) for p in site.getsitepackages())
    dirs.update(os.path.realpath(p) for p in sys.path if p.rstrip("/").endswith(("site-packages", "dist-packages")))
    return tuple(sorted(d + os.sep for d in dirs))


@functools.cache
def _package_dir() -> str:
    return os.path.dirname(os.path.realpath(importlib.import_module(PACKAGE).__file__)) + os.sep


@functools.cache
def _where(filename: str) -> str:
    """``"package"``, ``"guard"``, ``"library"`` or ``"student"`` for a code object's file name."""
    if filename.startswith("<") and not filename.startswith("<ipython-input"):
        return "library"  # generated code (dataclasses, namedtuples, exec): look further up
    path = os.path.realpath(filename)
    if path.startswith(_package_dir()):
        return "package"
    if path == os.path.realpath(__file__):
        return "guard"
    if path.startswith(_library_dirs()):
        return "library"
    return "student"


@functools.cache
def package_modules() -> list[types.ModuleType]:
    """Every module of the package, imported (what a submission could reach).

    Returns
    -------
    list of module
    """
    package = importlib.import_module(PACKAGE)
    modules = [package]
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{PACKAGE}."):
        with contextlib.suppress(Exception):  # an optional dependency may be missing
            modules.append(importlib.import_module(info.name))
    return modules


@functools.cache
def package_callables() -> dict[str, object]:
    """Every callable the package defines, by a dotted name (public and private; methods too).

    Returns
    -------
    dict
        ``"privbandits.module.name"`` (or ``...Class.method``) -> the object, for functions, numba
        dispatchers, ``lru_cache`` wrappers and classes whose ``__module__`` is in the package.
    """
    found: dict[str, object] = {}
    seen: set[int] = set()
    for module in package_modules():
        for name, value in list(vars(module).items()):
            if not callable(value) or not str(getattr(value, "__module__", "")).startswith(PACKAGE):
                continue
            if id(value) in seen:
                continue
            seen.add(id(value))
            found[f"{module.__name__}.{name}"] = value
            if isinstance(value, type):
                for attr, member in vars(value).items():
                    inner = getattr(member, "__func__", member)  # staticmethod, classmethod
                    if isinstance(member, property):
                        inner = member.fget
                    code = getattr(getattr(inner, "py_func", getattr(inner, "__wrapped__", inner)), "__code__", None)
                    if code is None or _where(code.co_filename) != "package":
                        continue  # generated (dataclass methods) or inherited from a library: computes nothing here
                    if callable(inner) and id(inner) not in seen:
                        seen.add(id(inner))
                        found[f"{module.__name__}.{name}.{attr}"] = inner
    return found


def _resolve(name: str):
    """The object a dotted name of ``allow`` names: a module's attribute, or a class's (``mod.Class.method``)."""
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj.fget if isinstance(obj, property) else obj
    raise ValueError(f"allow: {name!r} names nothing importable")


def _dispatcher_class():
    with contextlib.suppress(ImportError):
        from numba.core.registry import CPUDispatcher

        return CPUDispatcher
    return None


class _Guard:
    """The state of one :func:`hidden_test` block (see the module docstring)."""

    def __init__(self, test_frame, allow):
        self.test_codes = set()
        stack = [test_frame.f_code]
        while stack:  # the test function and the functions it defines (e.g. the auditor's sampler)
            code = stack.pop()
            self.test_codes.add(code)
            stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        self.allowed_codes, self.allowed_ids = set(), set()
        self.allow = []  # the allowed callables' names, for the message
        for name in allow:
            obj = _resolve(name)
            self.allow.append(getattr(obj, "__qualname__", name))
            self.allowed_ids.add(id(obj))
            for inner in (obj, getattr(obj, "py_func", None), getattr(obj, "__wrapped__", None)):
                code = getattr(inner, "__code__", None)
                if code is not None:
                    self.allowed_codes.add(code)
            if isinstance(obj, type):
                self.allowed_codes.update(
                    getattr(m, "__code__", None) for m in vars(obj).values() if hasattr(m, "__code__")
                )
        self.violation: str | None = None
        self.timed_out = False
        self.test_globals = [
            v.__globals__ for v in test_frame.f_locals.values() if isinstance(getattr(v, "__globals__", None), dict)
        ]

    def submission_called(self, frame) -> bool:
        """Whether the nearest caller of ``frame`` outside the libraries is the submission."""
        caller = frame
        while caller is not None:
            if caller.f_code in self.test_codes:
                return False
            where = _where(caller.f_code.co_filename)
            if where in ("package", "guard"):
                return False
            if where == "student":
                return True
            caller = caller.f_back
        return False

    def record(self, what: str) -> None:
        if self.violation is None:
            allowed = (
                "only " + ", ".join(self.allow) + " of privbandits" if self.allow else "no function of privbandits"
            )
            self.violation = (
                f"your code calls the package's {what}; this question asks you to write it yourself "
                f"(the grading allows {allowed} here)"
            )
        raise PackageCalled(self.violation)

    def profile(self, frame, event, arg):
        if event != "call":
            return
        code = frame.f_code
        if code.co_name == "<module>" or _where(code.co_filename) != "package" or code in self.allowed_codes:
            return
        if self.submission_called(frame.f_back):
            module = frame.f_globals.get("__name__", PACKAGE)
            self.record(f"{module}.{code.co_qualname if hasattr(code, 'co_qualname') else code.co_name}")

    def dispatcher_call(self, dispatcher, args, kwargs, caller):
        py_func = getattr(dispatcher, "py_func", None)
        if (
            id(dispatcher) not in self.allowed_ids
            and py_func is not None
            and _where(py_func.__code__.co_filename) == "package"
            and self.submission_called(caller)
        ):
            self.record(f"{py_func.__module__}.{py_func.__name__}")
        return super(_dispatcher_class(), dispatcher).__call__(*args, **kwargs)  # the class patched

    def cached_wrapper(self, name, original):
        guard = self

        def guarded(*args, **kwargs):
            if id(original) not in guard.allowed_ids and guard.submission_called(sys._getframe(1)):
                guard.record(name)
            return original(*args, **kwargs)

        return guarded


def _message(exc: BaseException, guard: _Guard | None, seconds: float) -> str:
    """What the student is told for an exception that left a hidden check."""
    if guard is not None and guard.violation:
        return guard.violation
    if isinstance(exc, TimeLimit) or (guard is not None and guard.timed_out):
        return f"this check stopped after {seconds:g} s: your code took too long (an endless loop?)"
    if isinstance(exc, AssertionError):
        text = str(exc).strip()
        if isinstance(exc.args[0] if exc.args else None, str) and text:
            return text
        return "your answer does not have the property this check tests" + (f" (value: {text})" if text else "")
    where = "your code"
    tb = exc.__traceback__
    student = False
    while tb is not None:
        code = tb.tb_frame.f_code
        in_test = guard is not None and code in guard.test_codes
        student = student or (not in_test and _where(code.co_filename) == "student")
        tb = tb.tb_next
    if not student:
        where = "the check, on your answer,"
    return f"{where} raised {type(exc).__name__}: {exc}"


@contextlib.contextmanager
def hidden_test(allow: tuple[str, ...] = (), seconds: float | None = None):
    """Run a hidden test's body under the lab's grading rules (see the module docstring).

    Parameters
    ----------
    allow : tuple of str
        Dotted names of the package's callables the submission may call (what the lab tells
        students to use), e.g. ``"privbandits.mechanisms.binary_tree_prefix_sums"``, or a method
        of a class, ``"privbandits.policies.base.Agent.choose"`` (that method only: what it calls
        in the package is then the package calling itself).
    seconds : float, optional
        The time limit of the check (default: ``LAB_GUARD_SECONDS``, the term file's ``seconds``,
        or :data:`SECONDS`).

    Yields
    ------
    callable
        ``seed(n)``: the term's seed for the test's seed ``n`` (:func:`term_seed`).

    Raises
    ------
    Feedback
        When the body fails, with a message in words (:class:`PackageCalled` for a package call).
    """
    _check_seal()  # the submission replaced nothing the check relies on
    seal = _SEAL  # in the grading: the term file and LAB_GUARD_SECONDS as read before the submission ran
    term, env_seconds = (dict(seal.fixed[0]), seal.fixed[1]) if seal is not None else (_term(), None)
    if seal is None:
        env_seconds = os.environ.get("LAB_GUARD_SECONDS")
    if seconds is None:
        seconds = float(env_seconds or term.get("seconds") or SECONDS)
    test_frame = sys._getframe(2)  # contextmanager's __enter__, then the test function
    guard = _Guard(test_frame, allow)
    swapped = []
    # lru_cache wrappers (a cache hit runs no package frame): swap their bindings, in the package's
    # loaded modules (a module the submission has not imported holds no cache the test filled)
    # and in the submission's namespace
    spaces = [vars(m) for n, m in list(sys.modules.items()) if m is not None and n.split(".")[0] == PACKAGE]
    cached = {}
    for space in spaces:
        for key, value in list(space.items()):
            if hasattr(value, "cache_info") and str(getattr(value, "__module__", "")).startswith(PACKAGE):
                cached[id(value)] = guard.cached_wrapper(f"{value.__module__}.{key}", value)
    for space in spaces + guard.test_globals:
        for key, value in list(space.items()):
            if id(value) in cached and callable(value):
                swapped.append((space, key, value))
                space[key] = cached[id(value)]
    dispatcher = _dispatcher_class()
    if dispatcher is not None:

        def dispatcher_call(self, *args, **kwargs):
            return guard.dispatcher_call(self, args, kwargs, sys._getframe(1))

        dispatcher.__call__ = dispatcher_call
    use_alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if use_alarm:

        def out_of_time(signum, frame):
            guard.timed_out = True
            signal.setitimer(signal.ITIMER_REAL, 1.0)  # again, should the submission swallow it
            raise TimeLimit()

        previous = signal.signal(signal.SIGALRM, out_of_time)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    previous_profile = sys.getprofile()
    sys.setprofile(guard.profile)
    failure: BaseException | None = None
    try:
        yield lambda base: term_seed(base, term)
    except (Exception, TimeLimit) as exc:  # noqa: BLE001 - every failure becomes feedback
        failure = exc
    finally:
        sys.setprofile(previous_profile)
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        if dispatcher is not None:
            with contextlib.suppress(AttributeError):
                del dispatcher.__call__
        for space, key, value in reversed(swapped):
            space[key] = value
    _check_seal()  # nor while the check ran
    if failure is not None or guard.violation or guard.timed_out:
        raise (PackageCalled if guard.violation else Feedback)(_message(failure, guard, seconds)) from None


class _CellTimeout(BaseException):
    """A submission's top-level cell ran out of time (:func:`grade_notebook`)."""


def _test_imports(paths) -> set[str]:
    """The modules the test files import (``import x``, ``from x import y``), with their parents."""
    import ast

    names = set()
    for path in paths:
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            found = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found = [node.module]
            for name in found:
                parts = name.split(".")
                names.update(".".join(parts[: i + 1]) for i in range(len(parts)))
    return names


def _cell_code(source: str) -> str:
    """A notebook cell as Python: IPython's ``%`` magics and ``!`` shell lines become ``pass``."""
    lines = []
    for line in source.split("\n"):
        stripped = line.lstrip()
        lines.append(line[: len(line) - len(stripped)] + "pass" if stripped.startswith(("%", "!")) else line)
    return "\n".join(lines)


def grade_notebook(tests_dir, notebook, *, cell_seconds: float | None = 60.0, seal: bool = True) -> dict:
    """Grade a submission here: its code cells, then otter's test files, the grading code sealed.

    Run by ``tools/labs.py grade`` in a fresh Python for each submission (``python lab_guard.py
    grade``, from the autograder zip's ``files/``), and in the test suite's process. Before any code
    of the submission runs, it reads the test files (kept in memory), the term file and
    ``LAB_GUARD_SECONDS``, imports otter's test runner, the package (every module), this guard,
    every module the test files import and numpy's and scipy's (:data:`NUMERIC`), and seals them
    (:class:`Seal`). A deterrent against casual patching, not a security boundary: the submission
    runs in this process and can reach this function's frame. Then each code cell of
    the notebook is executed in one namespace (a cell that raises or runs longer than
    ``cell_seconds`` is skipped, as otter skips it; otter's own cells are left out), and each test
    file runs on that namespace through the references captured before. If the submission replaced
    anything sealed (checked after its cells, by every hidden check, and after each test file), it
    is not graded: every question scores 0 and ``tampered`` says what was replaced. A cell that
    raises ``SystemExit`` or ``KeyboardInterrupt`` (``exit()``) is skipped like any raising cell.

    Parameters
    ----------
    tests_dir : str or pathlib.Path
        The test files (``tests/*.py`` of the autograder zip).
    notebook : str or pathlib.Path
        The submission.
    cell_seconds : float, optional
        Seconds allowed to each code cell (``SIGALRM``); None: no limit.
    seal : bool
        Seal the grading code (False only to compare, in tests).

    Returns
    -------
    dict
        ``score``, ``possible``, ``tests`` (question -> score), ``question_possible``,
        ``failed_cases`` (question -> names of failed test cases), ``messages`` (question -> case
        -> what otter shows the student), ``errors`` (the cells that raised) and ``tampered``
        (None, or what the submission replaced).
    """
    global _SEAL
    import glob

    from otter.test_files import create_test_file

    paths = sorted(glob.glob(os.path.join(str(tests_dir), "*.py")))
    imported = _test_imports(paths) | set(NUMERIC)
    for name in sorted(imported):
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    package_modules()
    _package_dir()
    # everything the checks read is read now, before the submission runs, and kept in memory:
    # the test files (otter's objects), the term's settings and the time limit
    term, env_seconds = _term(), os.environ.get("LAB_GUARD_SECONDS")
    test_files = [(os.path.splitext(os.path.basename(path))[0], create_test_file(path, None)) for path in paths]
    this = sys.modules.get("lab_guard", sys.modules[__name__])
    numeric = {  # every loaded numpy and scipy module (scipy._lib, scipy's private helpers, left out)
        n for n in sys.modules if n.split(".")[0] in ("numpy", "scipy") and n.split(".")[:2] != ["scipy", "_lib"]
    }
    sealed = Seal(imported | numeric) if seal else None
    _SEAL = sealed
    this._SEAL = sealed  # the module the tests import, should this one run as __main__
    if sealed is not None:
        sealed.fixed = (tuple(sorted(term.items())), env_seconds)
        # the seal itself (``lab_guard._SEAL = None`` would turn off the checks' own checks)
        owners = {id(m): m for m in (this, sys.modules[__name__])}
        sealed.entries += tuple(("lab_guard", m, "_SEAL", sealed, None, None, None) for m in owners.values())
    if sealed is None:

        def broken():
            return None

    else:  # the seal's own state and code, held here (the submission can reach the seal, not this frame's names)
        state = (sealed.sys, sealed.sys_modules, sealed.modules, sealed.entries, sealed.keys, sealed.fixed)
        method = type(sealed).broken
        method_code = method.__code__

        def broken():
            if (  # no builtin used before the seal has checked the builtins
                sealed.sys is not state[0]
                or sealed.sys_modules is not state[1]
                or sealed.modules is not state[2]
                or sealed.entries is not state[3]
                or sealed.keys is not state[4]
                or sealed.fixed is not state[5]
                or method.__code__ is not method_code
            ):
                return "the grading's seal"
            return method(sealed)

    setitimer, alarm, sig = signal.setitimer, signal.SIGALRM, signal.signal
    with open(notebook, encoding="utf-8") as f:
        nb = json.load(f)
    namespace: dict = {"__name__": "__main__"}
    errors: list[str] = []
    try:
        for cell in nb.get("cells", []):
            source = "".join(cell.get("source", ""))
            if cell.get("cell_type") != "code" or "otter.Notebook(" in source or "grader.check" in source:
                continue

            def out_of_time(signum, frame):
                raise _CellTimeout()

            previous = sig(alarm, out_of_time) if cell_seconds else None
            try:
                if cell_seconds:
                    setitimer(signal.ITIMER_REAL, cell_seconds)
                exec(compile(_cell_code(source), str(notebook), "exec"), namespace)
            except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - a student's cell may raise anything, exit() too
                errors.append(f"{type(exc).__name__}: {exc}")
            except _CellTimeout:
                errors.append(f"CellTimeout: the cell ran longer than {cell_seconds:g} s and was stopped")
            finally:
                if cell_seconds:
                    setitimer(signal.ITIMER_REAL, 0)
                    sig(alarm, previous)
        tests, possible, failed, messages = {}, {}, {}, {}
        tampered = broken()
        for question, test_file in test_files:
            possible[question] = float(test_file.possible)
            if tampered is None:
                test_file.run(namespace)
                tampered = broken()
            if tampered is None:
                results = test_file.test_case_results
                tests[question] = float(test_file.score)
                failed[question] = [_case(r.test_case) for r in results if not r.passed]
                messages[question] = {_case(r.test_case): r.message for r in results if not r.passed}
        if tampered is not None:  # every question: not graded
            tests = dict.fromkeys(possible, 0.0)
            failed = {q: ["not graded"] for q in possible}
            messages = {q: {"not graded": f"Tampered: {tampered_message(tampered)}"} for q in possible}
    finally:
        _SEAL = None
        this._SEAL = None
    return {
        "score": sum(tests.values()),
        "possible": sum(possible.values()),
        "tests": tests,
        "question_possible": possible,
        "failed_cases": failed,
        "messages": messages,
        "errors": errors,
        "tampered": tampered,
    }


def _case(case) -> str:
    """The test function's name of an otter test case (otter itself numbers them "q1 - 2")."""
    func = getattr(case.body, "test_func", None)
    return func.__name__ if func is not None else case.name


#: Starts the line on which ``python lab_guard.py grade`` prints its result (JSON) to ``tools/labs.py``.
RESULT = "LAB_GUARD_RESULT "


def main(argv=None) -> int:
    """``python lab_guard.py grade TESTS_DIR NOTEBOOK [--cell-seconds S]``: :func:`grade_notebook`.

    Reads a token on standard input first (before the submission runs) and prints the result as
    ``RESULT <token> <json>``, the last line of its output, for ``tools/labs.py``.

    Parameters
    ----------
    argv : list of str, optional

    Returns
    -------
    int
        0 once graded (whatever the score).
    """
    import argparse

    parser = argparse.ArgumentParser(description="grade one lab submission in this fresh Python")
    parser.add_argument("command", choices=["grade"])
    parser.add_argument("tests_dir")
    parser.add_argument("notebook")
    parser.add_argument("--cell-seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    token = sys.stdin.readline().strip()
    write, stdout = os.write, sys.__stdout__.fileno()
    result = grade_notebook(args.tests_dir, args.notebook, cell_seconds=args.cell_seconds or None)
    write(stdout, f"\n{RESULT}{token} {json.dumps(result)}\n".encode())
    return 0


if __name__ == "__main__":
    import lab_guard  # the module the tests import (this file runs as __main__): one guard, one seal

    sys.exit(lab_guard.main())
