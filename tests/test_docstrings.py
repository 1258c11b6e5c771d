"""The package's docstring rule: public callables keep numpydoc sections, private helpers get one line.

Public = listed in its module's ``__all__`` or defined there under a name without a leading
underscore, plus the public methods and properties a public class defines itself, in a module whose
own name has no leading underscore (``_validation`` and ``_compile_cache`` are the package's internals).
A callable that takes parameters (besides ``self``/``cls``) needs a ``Parameters`` section (a
class may document its fields in ``Attributes`` instead, as numpydoc allows for named tuples); one
whose return annotation is not ``None`` needs a ``Returns`` (or ``Yields``) section; with no return
annotation that check is skipped. Properties and constants need no sections.
An override may leave out its docstring: it then inherits the one of the method it overrides
(``inspect.getdoc``), which is checked in its place; one that has its own is checked as written.
Private helpers (functions, classes and methods whose own name has a leading underscore, dunder
methods aside, and everything a private module defines) have at most a one-line docstring; what more
they need to say goes in comments.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import privbandits
from privbandits.policies.base import Policy


def _modules():
    yield privbandits
    for info in pkgutil.walk_packages(privbandits.__path__, prefix="privbandits."):
        yield importlib.import_module(info.name)


def _is_private_module(module) -> bool:
    """Whether the module's own name has a leading underscore (``privbandits._validation``)."""
    return module.__name__.rsplit(".", 1)[-1].startswith("_") and not module.__name__.endswith("__")


def _public_names(module):
    """The module's ``__all__`` plus every name without a leading underscore defined in the module."""
    defined = [
        name
        for name, obj in vars(module).items()
        if not name.startswith("_") and getattr(_unwrap(obj), "__module__", None) == module.__name__
    ]
    return list(getattr(module, "__all__", [])) + [
        name for name in defined if name not in getattr(module, "__all__", [])
    ]


def _unwrap(obj):
    """The Python function behind a numba dispatcher, staticmethod or classmethod."""
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    return getattr(obj, "py_func", obj)


def _public_callables():
    """(qualified name, object, kind) of every public function, class and method, each once."""
    seen = set()
    for module in _modules():
        if _is_private_module(module):
            continue
        for name in _public_names(module):
            obj = _unwrap(getattr(module, name))
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue  # constants, type aliases, ``__version__``
            if not getattr(obj, "__module__", "").startswith("privbandits") or id(obj) in seen:
                continue
            seen.add(id(obj))
            qualname = f"{obj.__module__}.{obj.__qualname__}"
            if inspect.isclass(obj):
                yield qualname, obj, "class"
                for attr, member in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    kind = "property" if isinstance(member, property) else "method"
                    function = member.fget if kind == "property" else _unwrap(member)
                    if inspect.isfunction(function) and id(function) not in seen:
                        seen.add(id(function))
                        # a classmethod bound to its class, so that an override inherits its docstring
                        bound = getattr(obj, attr) if isinstance(member, classmethod) else function
                        yield f"{qualname}.{attr}", bound, kind
            else:
                yield qualname, obj, "function"


def _has_section(doc: str, *titles: str) -> bool:
    return any(re.search(rf"^{title}\n-{{{len(title)}}}\s*$", doc, flags=re.MULTILINE) for title in titles)


def _problems(obj, kind: str) -> list[str]:
    doc = inspect.getdoc(obj)
    if not doc:
        return ["no docstring"]
    if kind == "property":
        return []
    out = []
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):  # pragma: no cover - builtins have no signature
        return out
    params = [p for p in sig.parameters if p not in ("self", "cls")]
    if params:
        titles = ("Parameters", "Attributes") if kind == "class" else ("Parameters",)
        if not _has_section(doc, *titles):
            out.append(f"no {' or '.join(titles)} section (takes {', '.join(params)})")
    if kind != "class":
        ret = sig.return_annotation
        returns = ret is not inspect.Signature.empty and ret not in (None, "None")
        if returns and not _has_section(doc, "Returns", "Yields"):
            out.append(f"no Returns section (returns {ret})")
    return out


CALLABLES = sorted(_public_callables(), key=lambda item: item[0])


def test_walk_finds_the_public_api():
    """The walk reaches every module's public callables (guards against an empty parametrisation)."""
    names = {name for name, _, _ in CALLABLES}
    assert "privbandits.simulate.simulate" in names
    assert "privbandits.policies.base.Policy.run" in names
    assert "privbandits.mechanisms.laplace_mechanism" in names
    assert "privbandits.audit.AuditResult" in names
    assert len(names) > 100


@pytest.mark.parametrize(("name", "obj", "kind"), [pytest.param(*item, id=item[0]) for item in CALLABLES])
def test_numpydoc_sections(name, obj, kind):
    """Docstring present, with ``Parameters`` when it takes any and ``Returns`` when it returns a value."""
    problems = _problems(obj, kind)
    assert not problems, f"{name}: " + "; ".join(problems)


class _Inheriting(Policy):
    def min_horizon(self, n_arms):
        return 2 * n_arms

    @classmethod
    def calibrated(cls, epsilon, delta, horizon, **kwargs):
        return super().calibrated(epsilon, delta, horizon, **kwargs)

    def _run(self, instance, horizon, rng):
        return {}


class _OwnShort(_Inheriting):
    def min_horizon(self, n_arms):
        """Two pulls of every arm."""
        return 2 * n_arms


def test_overrides_may_inherit_their_docstring():
    """An override without a docstring passes on its parent's; a short docstring of its own fails."""
    assert _Inheriting.min_horizon.__doc__ is None
    assert not _problems(_Inheriting.min_horizon, "method")
    assert _problems(_OwnShort.min_horizon, "method") == ["no Parameters section (takes n_arms)"]
    assert _Inheriting.calibrated.__func__.__doc__ is None  # a classmethod override, bound as the walk binds it
    assert not _problems(_Inheriting.calibrated, "method")


def _private_helpers():
    """(qualified name, object) of every private function, class and method the package defines."""
    seen = set()
    for module in _modules():
        for obj in vars(module).values():
            obj = _unwrap(obj)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or obj.__module__ != module.__name__:
                continue
            members = [obj]
            if inspect.isclass(obj):
                members += [
                    member.fget if isinstance(member, property) else _unwrap(member) for member in vars(obj).values()
                ]
            for member in members:
                if not (inspect.isfunction(member) or inspect.isclass(member)) or id(member) in seen:
                    continue
                seen.add(id(member))
                name = member.__name__
                private = name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
                if private or (_is_private_module(module) and member is obj):
                    yield f"{member.__module__}.{member.__qualname__}", member


PRIVATE = sorted(_private_helpers(), key=lambda item: item[0])


def test_walk_finds_the_private_helpers():
    names = {name for name, _ in PRIVATE}
    assert "privbandits.audit._audit_pair" in names
    assert "privbandits.cache._module_path" in names
    assert "privbandits._validation.check_int" in names  # a private module's functions are helpers
    assert not any(name.startswith("privbandits._validation") for name, _, _ in CALLABLES)
    assert len(names) > 50


def _longer_than_one_line(items):
    return [name for name, obj in items if obj.__doc__ and len(inspect.cleandoc(obj.__doc__).splitlines()) > 1]


def test_private_helpers_have_one_line():
    """A private helper's docstring, if it has one, is a single line."""
    long = _longer_than_one_line(PRIVATE)
    assert not long, "private helpers with a docstring of more than one line: " + ", ".join(long)


def _two_lines():
    """First line.

    Second line."""


def _one_line():
    """One line."""


def _public_without_sections(x):
    """Does something with ``x``."""
    return x


def test_the_checks_catch_what_they_must():
    """A helper of two lines and a public function without its sections are caught."""
    assert _longer_than_one_line([("two", _two_lines), ("one", _one_line)]) == ["two"]
    assert _problems(_public_without_sections, "function") == ["no Parameters section (takes x)"]
