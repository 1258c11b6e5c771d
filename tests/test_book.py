"""Checks of the book's notebook pairs and build settings (the notebooks themselves run under `pytest --nbmake book`).

* every ``book/**/*.py`` notebook has its ``.ipynb`` twin with the same cells (sources and types);
* no ``.ipynb`` carries outputs or execution counts;
* jupytext reads exactly as many cells from the ``.py`` as it has ``# %%`` markers (a markdown cell
  that swallows the next cells, e.g. through a code fence jupytext misreads, would otherwise
  silently turn code into comments).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jupytext
import pytest
import yaml

BOOK = Path(__file__).resolve().parent.parent / "book"
PAIRS = sorted(p for p in BOOK.rglob("*.py") if ".ipynb_checkpoints" not in p.parts)


def test_there_are_notebooks():
    assert PAIRS, "no notebooks found under book/"


@pytest.mark.parametrize("py_path", PAIRS, ids=lambda p: str(p.relative_to(BOOK)))
def test_pair_in_sync_and_clean(py_path):
    ipynb_path = py_path.with_suffix(".ipynb")
    assert ipynb_path.exists(), f"{ipynb_path} is missing: run `jupytext --sync {py_path}`"
    from_py = jupytext.read(py_path)
    markers = sum(1 for line in py_path.read_text().splitlines() if line.startswith("# %%"))
    assert len(from_py.cells) == markers, f"{py_path}: {markers} '# %%' markers but {len(from_py.cells)} cells"
    raw = json.loads(ipynb_path.read_text())
    for cell in raw["cells"]:
        assert not cell.get("outputs"), f"{ipynb_path} carries outputs: strip them"
        assert cell.get("execution_count") is None, f"{ipynb_path} carries execution counts"
    from_ipynb = jupytext.read(ipynb_path)
    assert [(c.cell_type, c.source) for c in from_py.cells] == [(c.cell_type, c.source) for c in from_ipynb.cells], (
        f"{py_path} and {ipynb_path} disagree: run `jupytext --sync {py_path}`"
    )


def _execution_first() -> list[str]:
    """``execution_first`` of ``_config.yml``: the documents a cold build starts first."""
    return yaml.safe_load((BOOK.parent / "_config.yml").read_text())["sphinx"]["config"]["execution_first"]


def test_execution_first_names_notebooks_of_the_book():
    """``execution_first`` (``_config.yml``, ``_ext/execute_in_parallel.py``) names notebooks in the toc.

    A misspelt or removed name would silently stop ordering the cold build's longest chapters first.
    """
    root = BOOK.parent
    first = _execution_first()
    toc = (root / "_toc.yml").read_text()
    assert first, "execution_first is empty"
    for name in first:
        assert (root / f"{name}.ipynb").exists(), f"execution_first: {name}.ipynb does not exist"
        assert f"file: {name}\n" in toc, f"execution_first: {name} is not in _toc.yml"


def _collected(*args: str) -> list[str]:
    """The node ids ``pytest --collect-only`` lists for ``args``, in order (run at the repository root)."""
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q", *args],
        cwd=BOOK.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return [line for line in listed if "::" in line]


def test_the_test_command_starts_the_longest_notebooks_first():
    """``conftest.py`` puts nbmake's items in ``execution_first``'s order, the others after them in the order
    collected, in the places notebook items hold; no item lost or added."""
    first = _execution_first()
    as_collected = _collected("--noconftest", "--nbmake", "tests/test_ci.py", "book")  # without the hook
    ordered = _collected("--nbmake", "tests/test_ci.py", "book")
    assert sorted(ordered) == sorted(as_collected), "the same items, each once"
    unit = [i for i, node in enumerate(as_collected) if not node.startswith("book/")]
    assert [ordered[i] for i in unit] == [as_collected[i] for i in unit], "the unit tests keep their places"
    notebooks = [node.split("::")[0] for node in ordered if node.startswith("book/")]
    assert notebooks[: len(first)] == [f"{name}.ipynb" for name in first]
    others = [node.split("::")[0] for node in as_collected if node.startswith("book/")]
    assert notebooks[len(first) :] == [nb for nb in others if nb[: -len(".ipynb")] not in first]
