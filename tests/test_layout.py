"""The test layout: every module of the package has one test file named after it.

``privbandits/<sub>/<module>.py`` is tested in ``tests/test_<sub>_<module>.py``, with the ``policies/``
prefix dropped (a policy is named by itself) and leading underscores stripped:
``policies/ucb.py`` -> ``test_ucb.py``, ``policies/fair_hiring/tree.py`` -> ``test_fair_hiring_tree.py``,
``environments/hiring.py`` -> ``test_environments_hiring.py``, ``_validation.py`` -> ``test_validation.py``.
Package faces (``__init__.py``), ``_version.py`` and shims (modules that only re-export) are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pkg" / "privbandits"


def _is_shim(path: Path) -> bool:
    """Whether a module holds nothing but imports (and a docstring)."""
    body = ast.parse(path.read_text()).body
    docstring = body[:1] if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) else []
    return all(isinstance(n, (ast.Import, ast.ImportFrom)) for n in body[len(docstring) :])


def expected_test_file(module: Path) -> str:
    """The test file named after a module of the package (a path relative to ``pkg/privbandits``)."""
    parts = [p.lstrip("_") for p in module.with_suffix("").parts]
    if parts[0] == "policies":
        parts = parts[1:]
    return "test_" + "_".join(parts) + ".py"


def test_naming_rule():
    assert expected_test_file(Path("engine.py")) == "test_engine.py"
    assert expected_test_file(Path("_compile_cache.py")) == "test_compile_cache.py"
    assert expected_test_file(Path("policies/dp_ncb.py")) == "test_dp_ncb.py"
    assert expected_test_file(Path("policies/fair_hiring/kernels.py")) == "test_fair_hiring_kernels.py"
    assert expected_test_file(Path("data/census.py")) == "test_data_census.py"
    assert _is_shim(PACKAGE / "policies" / "fair_hiring" / "environment.py")
    assert not _is_shim(PACKAGE / "policies" / "ucb.py")


def test_every_module_has_its_test_file():
    modules = [
        p.relative_to(PACKAGE)
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.name not in ("__init__.py", "_version.py") and not _is_shim(p)
    ]
    assert len(modules) > 20
    missing = [f"{m} -> tests/{expected_test_file(m)}" for m in modules]
    missing = [line for line in missing if not (ROOT / line.split(" -> ")[1]).is_file()]
    assert not missing, missing
