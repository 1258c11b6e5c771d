"""The student edition (``python tools/student_edition.py``) carries no solution anywhere.

* Unit tests of the stripping (``strip_solutions``, ``strip_notebook``): blocks removed, fences
  inside a solution respected, other forms of solution refused.
* The stripped source tree (``write_stripped_tree``): no ``{solution}`` directive, no code cell
  that only feeds solutions, and each lab replaced by its otter student version.
* A build of that tree with execution off (the same pages, search index, ``_sources`` and
  ``_downloads`` the real command writes, without outputs, and the labs' student notebooks under
  ``run/labs/``): every file under the output is searched for distinctive sentences of every
  solution of the book and for the labs' reference solution lines. The real command executes
  every notebook (several minutes), which is what ``--no-execute`` saves here; the stripping is
  the same.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from _policy_checks import shared_package_wheel

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("student_edition", ROOT / "tools" / "student_edition.py")
edition = importlib.util.module_from_spec(_spec)
sys.modules["student_edition"] = edition
_spec.loader.exec_module(edition)
_spec = importlib.util.spec_from_file_location("labs_tool_for_edition", ROOT / "tools" / "labs.py")
labs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(labs)


def test_strip_removes_blocks_and_keeps_the_rest():
    text = (
        "Intro.\n\n:::{exercise}\n:label: ex\n\nDo it.\n:::\n\n:::{solution} ex\n:label: sol\n:class: dropdown\n\n"
        "The answer is 42.\n\n```python\n:::\n```\n\nStill the solution.\n:::\n\nAfter.\n"
    )
    stripped, removed = edition.strip_solutions(text)
    assert "42" not in stripped and "Still the solution" not in stripped
    assert "Do it." in stripped and "After." in stripped and "Intro." in stripped
    assert len(removed) == 1 and "Still the solution" in removed[0]


def test_strip_handles_longer_fences():
    text = "::::{solution} ex\nA.\n:::{note}\nB.\n:::\nC.\n::::\nD."
    stripped, removed = edition.strip_solutions(text)
    assert stripped.strip() == "D." and len(removed) == 1


@pytest.mark.parametrize(
    "text",
    ["```{solution} ex\nA.\n```\n", ":::{solution-start} ex\nA.\n:::{solution-end}\n:::\n", ":::{solution} ex\nA.\n"],
)
def test_strip_refuses_what_it_cannot_strip(text):
    with pytest.raises(ValueError, match="text"):
        edition.strip_solutions(text)


def test_strip_notebook_removes_cells_feeding_only_solutions():
    def cell(kind, source):
        return {"cell_type": kind, "source": source, "metadata": {}, **({"outputs": []} if kind == "code" else {})}

    nb = {
        "cells": [
            cell("code", 'a = 1\nglue("kept", a, display=False)'),
            cell(
                "markdown", "Text {glue:text}`kept`.\n\nThe cell below computes the numbers that the solutions quote."
            ),
            cell("code", '# secret hint\nb = 2\nglue("only_sol", b, display=False)'),
            cell("code", '# hint\nc = 3\nglue("only_sol2", c, display=False)'),
            cell("markdown", ":::{solution} ex\nValue {glue:text}`only_sol` and {glue:text}`only_sol2`.\n:::"),
            cell("code", "print(c)"),
        ],
        "metadata": {},
    }
    out, removed = edition.strip_notebook(nb)
    sources = ["".join(c["source"]) for c in out["cells"]]
    assert not any('only_sol"' in s or "secret" in s for s in sources)  # b is read by no later cell: removed
    assert "c = 3" in sources[-2] and "# hint" not in sources[-2]  # c is read later: kept, comments dropped
    assert sources[1] == "Text {glue:text}`kept`." and sources[-1] == "print(c)"
    assert len(removed) == 3


def _distinctive_sentences(block: str) -> list[str]:
    """Runs of 6 or more plain words from a solution (no markup), long enough to be unique to it."""
    body = "\n".join(line for line in block.split("\n")[1:] if not line.startswith(":"))
    body = re.sub(r"\{[^}]*\}`[^`]*`|`[^`]*`|\$[^$]*\$", "|", body)
    runs = re.findall(r"[A-Za-z][A-Za-z0-9 ,'.:;()-]{35,}", body.replace("\n", " "))
    sentences = [" ".join(r.split()) for r in runs if len(r.split()) >= 6]
    if not sentences:  # a solution that is mostly mathematics: its longest formula
        raw = "\n".join(line for line in block.split("\n")[1:] if not line.startswith(":"))
        sentences = sorted(re.findall(r"\$([^$]{25,})\$", raw), key=len)[-1:]
    return sentences


@pytest.fixture(scope="module")
def stripped(tmp_path_factory):
    shared_package_wheel(edition._labs(), tmp_path_factory)  # the labs' zips: one wheel per run
    dest = tmp_path_factory.mktemp("student") / "src"
    removed = edition.write_stripped_tree(dest)
    return dest, removed


def test_every_solution_of_the_book_is_stripped(stripped):
    dest, removed = stripped
    n_sources = sum(len(re.findall(r"^:{3,}\{solution\}", p.read_text(), re.M)) for p in (ROOT / "book").rglob("*.md"))
    n_sources += sum(
        len(re.findall(r"^:{3,}\{solution\}", "".join(c["source"]), re.M))
        for p in (ROOT / "book").rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts
        for c in json.loads(p.read_text())["cells"]
        if c["cell_type"] == "markdown"
    )
    n_removed = sum(1 for blocks in removed.values() for b in blocks if re.match(r":{3,}\{solution\}", b))
    assert n_sources >= 25 and n_removed == n_sources
    for path in dest.rglob("*"):
        if path.suffix in (".md", ".ipynb"):
            assert "{solution}" not in path.read_text(), path
    # no jupytext twin of a chapter or lab (the .py files of _ext/ and of the package carry no solution)
    assert not [p for p in dest.rglob("*.py") if p.relative_to(dest).parts[0] == "book"]
    assert not (dest / "book" / "labs" / "instructors.md").exists()
    # no hidden test of a lab (its code, its name or its guard) in the edition's sources
    hidden, code = set(), set()
    for lab in labs.lab_names():
        found = labs.hidden_fingerprints(lab)
        hidden |= found["names"]
        code |= found["seeds"] | found["lines"]
    assert len(hidden) >= 10, hidden
    assert not (dest / "labs_hidden").exists()
    for path in dest.rglob("*"):
        if path.is_file() and path.suffix in (".md", ".ipynb", ".py", ".txt", ".yml"):
            text = path.read_text(errors="ignore")
            assert "BEGIN TEST CONFIG" not in text, path
            assert not [h for h in hidden if h in text], path
            assert not [c for c in code if c in text], (path, [c for c in code if c in text])
            # the guard's name appears only where a lab's public checks run under it (students see
            # the same feedback there): in a notebook cell that defines public checks and nothing else
            if "hidden_test(" in text:
                assert path.suffix == ".ipynb" and path.parent.name == "labs", path
                for cell in json.loads(text)["cells"]:
                    source = "".join(cell["source"])
                    if "hidden_test(" in source:
                        names = re.findall(r"^def (test_\w+)", source, flags=re.M)
                        assert names and not set(names) & hidden, (path, names)


def test_jupyter_book_runs_with_this_pythons_tools():
    """``student_edition.py`` runs Jupyter Book from this Python's own environment, whatever PATH holds."""
    command = edition.jupyter_book_command()
    assert command[0] in (str(Path(sys.executable).parent / "jupyter-book"), sys.executable)
    env = edition._own_tools_env()
    env["PATH"] = env["PATH"].split(":", 1)[0]  # this Python's bin/ only: no activated venv, no system tools
    done = subprocess.run([*command, "--version"], capture_output=True, text=True, env=env)
    assert done.returncode == 0 and "Jupyter Book" in done.stdout, done.stdout + done.stderr


@pytest.mark.slow
def test_student_build_has_no_solution_text(stripped, tmp_path):
    """Build the stripped tree (execution off) and grep every output file for every solution."""
    pytest.importorskip("jupyter_book")
    dest, removed = stripped
    src = tmp_path / "src"
    shutil.copytree(dest, src)
    config, changed = re.subn(r"(?m)^(\s*execute_notebooks:) \S+", r"\1 'off'", (src / "_config.yml").read_text())
    assert changed == 1, "_config.yml has no execute_notebooks setting to switch off"
    (src / "_config.yml").write_text(config)
    done = subprocess.run(
        [*edition.jupyter_book_command(), "build", str(src), "--keep-going"], capture_output=True, text=True
    )
    html = src / "_build" / "html"
    assert done.returncode == 0 and (html / "index.html").exists(), done.stdout[-3000:] + done.stderr[-3000:]
    assert (html / "searchindex.js").exists() and list((html / "_sources").rglob("*.ipynb"))
    # each lab's student notebook is served under run/labs/ (searched below with everything else)
    labs = sorted(p.name for p in (dest / "book" / "labs").glob("lab*.ipynb"))
    assert len(labs) >= 7 and sorted(p.name for p in (html / "run" / "labs").glob("*.ipynb")) == labs

    needles: dict[str, str] = {}
    for source, blocks in removed.items():
        for block in blocks:
            if re.match(r":{3,}\{solution\}", block):
                sentences = _distinctive_sentences(block)
                assert sentences, f"no distinctive sentence found in a solution of {source}: {block[:200]}"
                needles.update({s: source for s in sentences})
            elif source.startswith("book/labs/"):  # the labs' reference solution lines
                line = block.strip()
                if len(line) > 25:
                    needles[line] = source
            else:  # a removed code cell: its longest line
                line = max((x.strip() for x in block.split("\n")), key=len)
                needles[line] = source
    assert len(needles) >= 40
    # compare on words only: the HTML and the search index escape quotes, Sphinx turns ' into
    # a typographic quote, and the notebooks' JSON splits sentences over lines
    originals = _norm(
        " ".join(p.read_text().replace("\\n", " ") for p in (ROOT / "book").rglob("*") if p.suffix in (".md", ".ipynb"))
    )
    assert all(_norm(n) in originals for n in needles), "a needle is not in the book's sources"
    hits, found_exercise = [], False
    for path in html.rglob("*"):
        if not path.is_file() or path.suffix in (".png", ".svg", ".ico", ".woff", ".woff2", ".ttf", ".eot", ".gif"):
            continue
        text = _norm(_text_of(path).replace("\\n", " "))
        hits += [(str(path.relative_to(html)), n) for n in needles if _norm(n) in text]
        found_exercise |= _norm("Halve the noise of the binary mechanism") in text  # positive control
    assert found_exercise, "the search does not find the text of an exercise, which the edition keeps"
    assert not hits, hits[:10]


def _text_of(path: Path) -> str:
    """A served file's text; for the sources' ``.tar.gz``, its members' texts but the package's.

    The package (``pkg/`` in the archive, and the wheel) is public by design: the student site ships
    it, and some of its lines are the labs' reference lines (the labs forbid calling it instead).
    """
    if path.suffix == ".whl":
        return ""
    if path.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(path) as tar:
            return " ".join(
                tar.extractfile(m).read().decode(errors="ignore")
                for m in tar.getmembers()
                if m.isfile() and "pkg" not in Path(m.name).parts
            )
    return path.read_text(errors="ignore")


def test_text_of_reads_inside_the_sources_archive(tmp_path):
    for name in ("a.md", "b.py"):
        (tmp_path / name).write_text(f"a hidden solution sentence in {name}")
    with tarfile.open(tmp_path / "s.tar.gz", "w:gz") as tar:
        tar.add(tmp_path / "a.md", arcname="src/book/a.md")
        tar.add(tmp_path / "b.py", arcname="src/pkg/b.py")
    text = _text_of(tmp_path / "s.tar.gz")
    assert "solution sentence in a.md" in text and "b.py" not in text


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[A-Za-z0-9]+", text))
