"""Release and grade the book's labs with otter-grader (``book/labs/lab*.ipynb``).

Each lab is an otter-grader *master* notebook (a jupytext pair, edited as ``.py``): reference
solutions between ``# BEGIN SOLUTION`` and ``# END SOLUTION``, public tests between ``# BEGIN
TESTS`` and ``# END TESTS``. Its hidden tests live apart, in ``labs_hidden/<lab>.py`` (one cell per
test, ``# %% question=<name>``), which the book, its sources archive and the student edition leave
out: ``release`` adds them to the autograder only. This script wraps what an instructor needs::

    python tools/labs.py release --term 2027-spring   # every lab -> _build/labs/<lab>/{student,autograder}
    python tools/labs.py grade lab0_laplace subs/*.ipynb      # after `release`: scores, CSV gradebook
    python tools/labs.py env lab0_laplace /tmp/grading-env    # a venv with only what the zip installs
    python tools/labs.py grade lab0_laplace --python /tmp/grading-env/bin/python subs/*.ipynb

``release`` runs ``otter assign`` (which also checks that the reference solution passes every
test); students get ``_build/labs/<lab>/student/`` (the notebook with ``...`` stubs and the public
tests). The autograder zip carries its own environment: ``environment.yml`` pins otter-grader, the
libraries the tests import (the versions of ``requirements-run.txt``) and the package's wheel,
shipped in the zip, so Gradescope or ``otter grade`` builds a grading image from the zip alone.
The term's seed (``--term``/``--seed``, fresh by default) goes into the autograder only
(``lab_term.json``): each term's hidden tests draw new data (``lab_guard.term_seed``).
``grade`` grades each submission in a fresh process, several at a time: by default the zip's
own ``lab_guard.py grade``, which seals the grading code before the submission runs (a submission
that patches ``sys.modules``, builtins, the guard or otter is not graded); with ``--runner otter``,
``otter run`` (no Docker), as Gradescope does, whose kernel may take
:data:`KERNEL_START_SECONDS` to start; a process that does not start is tried again; a top-level cell is
stopped after :data:`CELL_SECONDS` and each hidden check after its own limit (``lab_guard``); a
submission that cannot be graded is reported with the reason and the others are graded; it
writes a CSV gradebook (with CPU seconds, attempts and the reason a submission was not graded)
and otter's messages, which say in words what failed (``lab_guard.hidden_test``). Cells tagged ``book-only``
(the lab page's note on how a student receives the lab, in site-only syntax) are left out of both
versions. The book's build serves each lab's student notebook under ``<site>/run/labs/``
(``_ext/run_it_yourself.py``, through :func:`assign`). The notebooks are stored
without a kernelspec (the book's jupytext pairs carry no notebook metadata), which otter needs:
``release`` adds a Python 3 one, and ``grade`` sets it on submissions saved under another kernel.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABS = ROOT / "book" / "labs"
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}
#: What the hidden tests import besides the package, pinned as in ``requirements-run.txt``: the
#: package's dependencies and its ``accounting`` extra (exact Gaussian calibration, Lab 4).
GRADING_LIBRARIES = ("numpy", "scipy", "numba", "llvmlite", "joblib", "tqdm", "matplotlib", "dp-accounting")
#: The Python of the grading environment (``environment.yml`` of the zip), the book's.
PYTHON_VERSION = "3.11"
#: Shipped in each autograder zip: the rules every test runs under (``hidden_test``: no package call,
#: feedback in words, a time limit, the term's seeds).
GUARD = ROOT / "tools" / "lab_guard.py"
#: Seconds a grading kernel may take to start (nbclient's default, 60 s, fails on a loaded machine).
KERNEL_START_SECONDS = 300
#: Seconds one top-level cell of a submission may run before its kernel is interrupted (the cell
#: then fails and the notebook goes on: an endless loop costs the answers after it in that cell).
CELL_SECONDS = 60
#: Attempts at grading a submission whose kernel did not start (or died) before it is reported.
ATTEMPTS = 2
#: Messages of a kernel that did not start or died (worth another attempt).
KERNEL_FAILURES = ("Kernel didn't respond", "Kernel died", "kernel died", "Timeout waiting for kernel", "DeadKernel")
#: A cell with this tag is shown on the book's lab page only: :func:`assign` drops it from both versions.
BOOK_ONLY = "book-only"
#: The first line of a master notebook's raw configuration cell (otter drops the cell).
LAB_CONFIG = "# ASSIGNMENT CONFIG"
#: The hidden tests, one file per lab (``labs_hidden/<lab>.py``), kept out of the book: :func:`assign`
#: adds them to the master notebook for the autograder only. The site (its lab pages, search index,
#: ``_sources`` and sources archive) and the student edition never see them.
HIDDEN = ROOT / "labs_hidden"
#: A cell of a hidden-tests file starts with this line and the name of its question.
HIDDEN_CELL = "# %% question="
_WHEEL: dict[str, Path] = {}  # the package's wheel, built once per process


def _pins(path: Path) -> dict[str, str]:
    """``name -> "name==version"`` for the pinned lines of a requirements file."""
    pins = {}
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if "==" in line:
            name = line.split("==")[0].split("[")[0].strip().lower()
            pins[name] = line
    return pins


def grading_requirements(wheel_name: str) -> list[str]:
    """The pip requirements of the autograder's environment (written into the zip's ``environment.yml``).

    Parameters
    ----------
    wheel_name : str
        The file name of the package's wheel, shipped in the zip's ``files/``.

    Returns
    -------
    list of str
        ``otter-grader[grading]`` at the version of ``requirements.txt``, the libraries of
        :data:`GRADING_LIBRARIES` at the versions of ``requirements-run.txt``, and the wheel as
        ``./files/<wheel>`` (pip runs in the directory of ``environment.yml``: ``/autograder/source``
        on Gradescope, the unpacked zip for ``tests/test_labs.py``).
    """
    run = _pins(ROOT / "requirements-run.txt")
    full = _pins(ROOT / "requirements.txt")
    otter = full["otter-grader"].replace("otter-grader", "otter-grader[grading]")
    missing = [name for name in GRADING_LIBRARIES if name not in run]
    if missing:
        raise RuntimeError(f"requirements-run.txt pins none of {missing}")
    return [otter, *(run[name] for name in GRADING_LIBRARIES), f"./files/{wheel_name}"]


def package_wheel() -> Path:
    """The package's wheel (built once per process, as the site builds it: ``_ext/run_it_yourself.py``).

    Returns
    -------
    pathlib.Path
        ``privbandits-<version>-py3-none-any.whl`` in a temporary directory.
    """
    if "wheel" not in _WHEEL or not _WHEEL["wheel"].exists():
        spec = importlib.util.spec_from_file_location("run_it_yourself", ROOT / "_ext" / "run_it_yourself.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _WHEEL["wheel"] = module.build_wheel(Path(tempfile.mkdtemp(prefix="privbandits_wheel_")))
    return _WHEEL["wheel"]


def term_settings(term: str | None = None, seed: int | None = None) -> dict:
    """The settings of one term's hidden tests (written into the autograder zip as ``lab_term.json``).

    Parameters
    ----------
    term : str, optional
        A name for the term (e.g. ``"2027-spring"``); without ``seed``, the seed is derived from it.
    seed : int, optional
        The term's seed; with neither argument a fresh one is drawn (``secrets``).

    Returns
    -------
    dict
        ``term``, ``seed`` (an integer in ``[0, 2**32)``) and ``seconds`` (each hidden check's
        time limit, :data:`lab_guard.SECONDS`).
    """
    import hashlib

    if seed is None:
        seed = int.from_bytes(hashlib.sha256(term.encode()).digest()[:4], "big") if term else secrets.randbits(32)
    if not 0 <= int(seed) < 2**32:
        raise ValueError(f"seed: must be in [0, 2**32), got {seed}")
    return {"term": term, "seed": int(seed), "seconds": 120.0}


def _configure(nb: dict, wheel: Path, term_file: Path | None = None) -> None:
    """Add the grading environment to the master notebook's ``# ASSIGNMENT CONFIG`` cell."""
    cells = _config_cells(nb["cells"])
    if len(cells) != 1:
        raise ValueError("a lab needs exactly one raw cell '# ASSIGNMENT CONFIG'")
    source = "".join(cells[0]["source"]).rstrip("\n")
    for key in ("requirements:", "overwrite_requirements:", "python_version:", "autograder_files:"):
        if f"\n{key}" in source:
            raise ValueError(f"the lab sets {key} itself; tools/labs.py sets it")
    source += (
        "\nrequirements: requirements.txt\noverwrite_requirements: true"
        f'\npython_version: "{PYTHON_VERSION}"\nautograder_files:\n  - {wheel.name}\n  - {GUARD.name}\n'
        + (f"  - {term_file.name}\n" if term_file is not None else "")
    )
    cells[0]["source"] = source


def hidden_tests(name: str, hidden: Path = HIDDEN) -> dict[str, list[str]]:
    """The hidden tests of a lab, by question (the cells of ``labs_hidden/<lab>.py``).

    Parameters
    ----------
    name : str
        The lab (e.g. ``"lab0_laplace"``).
    hidden : pathlib.Path
        The folder of the hidden-tests files (default :data:`HIDDEN`).

    Returns
    -------
    dict
        Question name -> the sources of its hidden test cells, in order.

    Raises
    ------
    FileNotFoundError
        If the lab has no hidden-tests file (e.g. in the site's sources archive, which leaves them
        out): say where an instructor's copy must have it.
    """
    import re

    path = hidden / f"{name}.py"
    if not path.is_file():
        raise FileNotFoundError(
            f"no hidden tests for {name}: {path} is missing (the book's public sources leave the hidden tests"
            " out; release from the instructors' repository, which has labs_hidden/)"
        )
    cells: dict[str, list[str]] = {}
    for part in re.split(rf"(?=^{re.escape(HIDDEN_CELL)})", path.read_text(), flags=re.M):
        if part.startswith(HIDDEN_CELL):
            header, body = part.split("\n", 1)
            cells.setdefault(header[len(HIDDEN_CELL) :].strip(), []).append(body.strip("\n") + "\n")
    return cells


#: Stands for a hidden test where the lab's hidden tests are not used (the student notebook of the
#: site and of the student edition): otter needs as many tests as a question's ``points`` list has.
PLACEHOLDER = '''""" # BEGIN TEST CONFIG
hidden: true
"""  # END TEST CONFIG


def test_placeholder_{n}():
    pass  # a hidden test stands here in the instructor's release (labs_hidden/)


test_placeholder_{n}()
'''


def _add_hidden(nb: dict, cells: dict[str, list[str]] | None) -> None:
    """Insert each question's hidden test cells before its ``# END TESTS`` cell (after its public tests);
    ``cells`` None: as many placeholders as the question's ``points`` list counts tests beyond its public ones."""
    import uuid

    import yaml

    left, question, out, points, n = dict(cells or {}), None, [], None, 0
    in_tests, public = False, 0
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "raw" and source.startswith("# BEGIN QUESTION"):
            config = yaml.safe_load(source) or {}
            question, points = config.get("name"), config.get("points")
        elif cell["cell_type"] == "raw" and source.strip() == "# BEGIN TESTS":
            in_tests, public = True, 0
        elif cell["cell_type"] == "code" and in_tests:
            public += 1
        elif cell["cell_type"] == "raw" and source.strip() == "# END TESTS":
            in_tests = False
            if cells is None:
                count = len(points) - public if isinstance(points, list) else 0
                texts = [PLACEHOLDER.format(n=n + i) for i in range(count)]
                n += count
            else:
                texts = left.pop(question, [])
            for text in texts:
                code = {"cell_type": "code", "execution_count": None, "id": uuid.uuid4().hex[:8], "metadata": {}}
                out.append({**code, "outputs": [], "source": text})
        out.append(cell)
    if left:
        raise ValueError(f"hidden tests name questions the lab does not have: {sorted(left)}")
    nb["cells"] = out


#: Lines a hidden test shares with other code (messages a student is shown, imports, the guard's preamble).
SHARED_LINES = ('"', 'f"', "'", "f'", ")", "import ", "from ", "try:", "except ", "with hidden_test(", "# a time limit")


def hidden_fingerprints(name: str, hidden: Path = HIDDEN) -> dict[str, set[str]]:
    """What would show a lab's hidden tests if it reached a public file (``tests/test_labs.py`` looks for it).

    Parameters
    ----------
    name : str
        The lab.
    hidden : pathlib.Path
        The folder of the hidden-tests files (default :data:`HIDDEN`).

    Returns
    -------
    dict
        ``names``: the hidden tests' function names; ``seeds``: their ``seed(n)`` calls, as written;
        ``lines``: their lines of code and comment of 32 characters or more (stripped; shorter ones,
        such as ``horizon, epsilon, fraction``, are common code) that no other cell of the lab's
        page holds, leaving out :data:`SHARED_LINES` (e.g. their messages, which a student is
        shown as feedback).
    """
    import re

    cells = re.split(r"(?=^# %%)", (LABS / f"{name}.py").read_text(), flags=re.M)
    public = "\n".join(c for c in cells if "# BEGIN TEST CONFIG" not in c)  # what the page may show
    names, seeds, lines = set(), set(), set()
    for text in (t for texts in hidden_tests(name, hidden).values() for t in texts):
        names.update(re.findall(r"^def (test_\w+)", text, flags=re.M))
        seeds.update(s for s in re.findall(r"\bseed\(\d+\)", text) if s not in public)
        for line in (line.strip() for line in text.splitlines()):
            if len(line) >= 32 and line not in public and not line.startswith(SHARED_LINES):
                lines.add(line)
    return {"names": names, "seeds": seeds, "lines": lines}


def lab_names() -> list[str]:
    """Names of the labs (the master notebooks ``book/labs/lab*.ipynb``).

    Returns
    -------
    list of str
        The notebooks' stems, sorted.
    """
    return sorted(p.stem for p in LABS.glob("lab*.ipynb"))


def is_master(path: Path) -> bool:
    """Whether a notebook is a lab's master notebook (it has a raw ``# ASSIGNMENT CONFIG`` cell).

    Parameters
    ----------
    path : pathlib.Path
        A ``.ipynb`` file.

    Returns
    -------
    bool
        False for a student notebook (otter drops the configuration) and for any other notebook.
    """
    return bool(_config_cells(json.loads(path.read_text()).get("cells", [])))


def _config_cells(cells: list[dict]) -> list[dict]:
    """The raw cells that hold ``# ASSIGNMENT CONFIG`` (a master notebook has one)."""
    return [c for c in cells if c["cell_type"] == "raw" and LAB_CONFIG in "".join(c["source"])]


def assign(
    name: str,
    dest: Path,
    *,
    run_tests: bool = True,
    root: Path = LABS,
    wheel: Path | None = None,
    term: dict | None = None,
    hidden: Path | None = HIDDEN,
) -> Path:
    """Run ``otter assign`` on one lab's master notebook (with its hidden tests, :func:`hidden_tests`).

    Parameters
    ----------
    name : str
        The lab (e.g. ``"lab0_laplace"``).
    dest : pathlib.Path
        Output directory (replaced): ``dest/student/<name>.ipynb`` (stubs, public tests) and
        ``dest/autograder/`` (reference solution, all tests, and the zip file otter grades with).
    run_tests : bool
        Let otter run every test against the reference solution (it raises if one fails).
    root : pathlib.Path
        The directory holding the master notebooks (default ``book/labs``).
    wheel : pathlib.Path, optional
        The package's wheel for the autograder zip (default: :func:`package_wheel`, built here).
    term : dict, optional
        The term's settings (:func:`term_settings`), written as ``lab_term.json`` into the
        autograder (zip and directory) only: the hidden tests draw their randomness from the
        term's seed (``lab_guard.term_seed``). Without it the hidden tests use the seeds written
        in their file.
    hidden : pathlib.Path, optional
        The folder of the hidden-tests files (default :data:`HIDDEN`); None for the student
        notebook alone (the site and the student edition: they need no hidden test, and the
        autograder then has none).

    Returns
    -------
    pathlib.Path
        ``dest``.

    Raises
    ------
    RuntimeError
        If otter fails (e.g. a test fails on the reference solution), with otter's log.
    FileNotFoundError
        If ``hidden`` is given and holds no hidden tests for the lab.
    """
    master = root / f"{name}.ipynb"
    if not master.exists():
        raise ValueError(f"name: no lab {master}; labs are {lab_names()}")
    if dest.exists():
        shutil.rmtree(dest)
    with tempfile.TemporaryDirectory(prefix="lab_master_") as tmp:
        nb = json.loads(master.read_text())
        nb["cells"] = [c for c in nb["cells"] if BOOK_ONLY not in c.get("metadata", {}).get("tags", [])]
        _add_hidden(nb, None if hidden is None else hidden_tests(name, hidden))
        wheel = wheel or package_wheel()
        term_file = None
        if term is not None:
            term_file = Path(tmp) / TERM_FILE
            term_file.write_text(json.dumps(term) + "\n")
        _configure(nb, wheel, term_file)
        shutil.copy(wheel, Path(tmp) / wheel.name)
        shutil.copy(GUARD, Path(tmp) / GUARD.name)
        (Path(tmp) / "requirements.txt").write_text("\n".join(grading_requirements(wheel.name)) + "\n")
        nb.setdefault("metadata", {})["kernelspec"] = KERNELSPEC
        nb["metadata"].setdefault("language_info", {"name": "python"})
        copy = Path(tmp) / master.name
        copy.write_text(json.dumps(nb, indent=1, ensure_ascii=False))
        for extra in master.parent.iterdir():  # data files a lab may read
            if extra.suffix not in (".py", ".ipynb", ".md") and extra.is_file():
                shutil.copy(extra, Path(tmp) / extra.name)
        from otter.assign import main as otter_assign

        for attempt in range(1, ATTEMPTS + 1):
            log = io.StringIO()
            try:
                with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log), _patient_kernels():
                    otter_assign(str(copy), str(dest.resolve()), no_pdfs=True, no_run_tests=not run_tests)
                break
            except BaseException as exc:
                text = f"{log.getvalue()}\n{exc!r}"
                if attempt < ATTEMPTS and any(k in text for k in KERNEL_FAILURES):
                    shutil.rmtree(dest, ignore_errors=True)
                    continue  # the machine was too busy to start a kernel: once more
                raise RuntimeError(f"otter assign failed on {master} (attempt {attempt}):\n{log.getvalue()}") from exc
    points = _question_points(dest / "autograder" / master.name)
    for version in ("student", "autograder"):
        path = dest / version / master.name
        nb = json.loads(path.read_text())
        cells = nb["cells"]
        if cells and "otter.Notebook(" in "".join(cells[0]["source"]):
            # otter puts its init cell above the title: move it below the opening text
            prose = next((i for i, c in enumerate(cells[1:], 1) if c["cell_type"] != "markdown"), len(cells))
            cells.insert(prose - 1, cells.pop(0))
        for cell in cells:
            source = "".join(cell["source"])
            if cell["cell_type"] == "code" and "otter.Notebook(" in source:
                cell["source"] = INIT_CELL.format(name=name)
            elif cell["cell_type"] == "markdown":
                cell["source"] = _plain_markdown(source, points)
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return dest


#: The name of the term's settings in the autograder (read by ``lab_guard``).
TERM_FILE = "lab_term.json"


#: Code that makes nbconvert's executor patient (run in the grading Python, which may lack this
#: file): ``patch(start_seconds, cell_seconds)`` waits that long for a kernel and, if ``cell_seconds``,
#: interrupts a submission's top-level cell after that long and goes on with the next (otter's own
#: cells, which run the checks, are not limited here: each hidden check has its own limit, lab_guard).
PATIENT_KERNELS = """
from nbconvert.preprocessors import ExecutePreprocessor

_original_init = ExecutePreprocessor.__init__


def _otter_cell(cell):
    return "otter" in cell.source or "grader." in cell.source


def patch(start_seconds, cell_seconds):
    def __init__(self, *args, **kwargs):
        _original_init(self, *args, **kwargs)
        self.startup_timeout = int(start_seconds)
        if cell_seconds:
            self.timeout_func = lambda cell: None if _otter_cell(cell) else cell_seconds
            self.interrupt_on_timeout = True
            self.error_on_timeout = {
                "ename": "CellTimeout",
                "evalue": f"this cell ran longer than {cell_seconds:g} s and was stopped",
                "traceback": [],
            }

    ExecutePreprocessor.__init__ = __init__


def unpatch():
    ExecutePreprocessor.__init__ = _original_init
"""

#: ``python -c`` program: ``otter run`` with :data:`PATIENT_KERNELS` (arguments: start and cell seconds, then otter's).
OTTER_RUN = (
    PATIENT_KERNELS
    + """
import sys

patch(float(sys.argv[1]), float(sys.argv[2]))
sys.argv = ["otter", *sys.argv[3:]]
from otter.cli import cli

cli()
"""
)


@contextlib.contextmanager
def _patient_kernels(cell_seconds: float | None = None):
    """:data:`PATIENT_KERNELS` in this process while the block runs (``otter assign`` runs here)."""
    space: dict = {}
    exec(PATIENT_KERNELS, space)
    space["patch"](KERNEL_START_SECONDS, cell_seconds)
    try:
        yield
    finally:
        space["unpatch"]()


#: The student notebook's first code cell: otter's checks read the public tests stored in the
#: notebook file, so it must find that file even when renamed on download (``lab0 (1).ipynb``).
INIT_CELL = """# Initialize Otter (finds this notebook even if it was renamed)
import glob
import json
import os

import otter


def _this_notebook(name="{name}"):
    session = globals().get("__session__")  # the running notebook's path (recent Jupyter servers)
    if isinstance(session, str) and session.endswith(".ipynb") and os.path.isfile(session):
        return session
    for path in sorted(glob.glob("*.ipynb"), key=os.path.getmtime, reverse=True):
        try:
            with open(path, encoding="utf-8") as f:
                if json.load(f)["metadata"]["otter"]["assignment_name"] == name:
                    return path
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None


grader = otter.Notebook(_this_notebook())"""


def _question_points(notebook: Path) -> list[float]:
    """Each question's points, in order, from the tests otter stored in an output notebook."""
    from otter.test_files import create_test_file

    tests = json.loads(notebook.read_text())["metadata"]["otter"]["tests"]
    with tempfile.TemporaryDirectory(prefix="lab_points_") as tmp:
        totals = []
        for question, code in tests.items():
            path = Path(tmp) / f"{question}.py"
            path.write_text(code)
            totals.append(float(create_test_file(str(path), None).possible))
    return totals


def _question_points_of(tests_dir: Path) -> list[float]:
    """Each question's points from a directory of otter test files (see :func:`extract_tests`)."""
    from otter.test_files import create_test_file

    return [float(create_test_file(str(path), None).possible) for path in sorted(tests_dir.glob("*.py"))]


def _title(doc: str) -> str:
    """The first heading of a page of the book (``doc`` relative to ``book/labs``)."""
    for suffix in (".py", ".md"):
        path = (LABS / doc).with_suffix(suffix)
        if path.exists():
            for line in path.read_text().splitlines():
                line = line.removeprefix("# ").strip() if suffix == ".py" else line.strip()
                if line.startswith("# "):
                    return line[2:].strip()
    raise ValueError(f"doc: no page {doc} in the book")


def _plain_markdown(text: str, points: list[float]) -> str:
    """Markdown that plain Jupyter renders: no ``{doc}`` roles (the page's title, quoted: a link
    would break in a notebook downloaded on its own), no ``\\eps`` macro, and each "**Question N.**"
    followed by its points."""
    import re

    text = re.sub(r"\{doc\}`([^`<]+)`", lambda m: f"“{_title(m.group(1))}” (a page of the book)", text)
    text = re.sub(r"\\eps(?![a-zA-Z])", r"\\varepsilon", text)

    def with_points(m):
        total = points[int(m.group(1)) - 1]
        return f"**Question {m.group(1)}** ({total:g} point{'s' if total != 1 else ''})."

    return re.sub(r"\*\*Question (\d+)\.\*\*", with_points, text)


def autograder_zip(dest: Path) -> Path:
    """The zip file otter grades with, in an :func:`assign` output directory.

    Parameters
    ----------
    dest : pathlib.Path
        The directory given to :func:`assign`.

    Returns
    -------
    pathlib.Path
        ``dest/autograder/<lab>-autograder_<timestamp>.zip`` (the newest).

    Raises
    ------
    FileNotFoundError
        If there is none.
    """
    zips = sorted((dest / "autograder").glob("*.zip"), key=lambda p: p.stat().st_mtime)
    if not zips:
        raise FileNotFoundError(f"no autograder zip under {dest}: run `python tools/labs.py release` first")
    return zips[-1]


def extract_tests(dest: Path) -> Path:
    """Extract the test files of a lab's autograder zip into ``dest/tests``.

    Parameters
    ----------
    dest : pathlib.Path
        The directory given to :func:`assign`.

    Returns
    -------
    pathlib.Path
        ``dest/tests``, holding one ``<question>.py`` per question (public and hidden cases).
    """
    out = dest / "tests"
    out.mkdir(exist_ok=True)
    with zipfile.ZipFile(autograder_zip(dest)) as archive:
        for member in archive.namelist():
            if member.startswith("tests/") and member.endswith(".py"):
                (out / Path(member).name).write_bytes(archive.read(member))
    return out


def zip_requirements(zip_path: Path) -> list[str]:
    """The pip requirements of an autograder zip (the ``pip:`` list of its ``environment.yml``).

    Parameters
    ----------
    zip_path : pathlib.Path
        An autograder zip written by :func:`assign`.

    Returns
    -------
    list of str
        The requirements, as otter's ``setup.sh`` installs them on Gradescope.
    """
    import yaml

    with zipfile.ZipFile(zip_path) as archive:
        env = yaml.safe_load(archive.read("environment.yml"))
    return [req for dep in env["dependencies"] if isinstance(dep, dict) for req in dep.get("pip", [])]


def grading_environment(zip_path: Path, dest: Path) -> Path:
    """A virtual environment holding only what an autograder zip installs.

    ``python -m venv dest``, then ``pip install`` of :func:`zip_requirements` run in the unpacked
    zip (``dest/source``, where ``./files/<wheel>`` points), as otter's ``setup.sh`` does on
    Gradescope (there with conda's Python of the same version).

    Parameters
    ----------
    zip_path : pathlib.Path
        An autograder zip written by :func:`assign`.
    dest : pathlib.Path
        The new environment's directory (must not exist).

    Returns
    -------
    pathlib.Path
        The environment's ``python``.

    Raises
    ------
    RuntimeError
        If pip fails, with its output.
    """
    if dest.exists():
        raise ValueError(f"dest: {dest} exists; give a new directory")
    subprocess.run([sys.executable, "-m", "venv", str(dest)], check=True)
    source = dest / "source"
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(source)
    python = dest / "bin" / "python"
    cmd = [str(python), "-m", "pip", "install", "--quiet", "--no-compile", *zip_requirements(zip_path)]
    done = subprocess.run(cmd, cwd=source, capture_output=True, text=True, env=_clean_env(python))
    if done.returncode != 0:
        raise RuntimeError(f"pip failed in {dest}: {' '.join(cmd)}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return python


def _clean_env(python: Path) -> dict:
    """The environment variables for a command of another Python: no PYTHONPATH, its bin/ first."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def grade(
    zip_path: Path,
    submission: Path,
    *,
    python: Path | None = None,
    timeout: float | None = None,
    cell_seconds: float | None = CELL_SECONDS,
    attempts: int = ATTEMPTS,
    runner: str = "sealed",
) -> dict:
    """Grade one submission in a fresh process: the sealed runner (default), or ``otter run``.

    ``runner="sealed"``: ``python lab_guard.py grade`` (the zip's own guard, run from its
    ``files/``) grades the submission in a fresh Python that imports the grading code (otter's
    test runner, the package, every module the tests import) and seals it *before* the
    submission's code runs (``lab_guard.Seal``), so a submission that replaces a module in
    ``sys.modules``, a builtin, the guard or otter's checks is found and not graded (every
    question 0, the reason in its messages and in ``tampered``); no kernel is started.

    ``runner="otter"``: ``otter run`` (no container), as Gradescope grades the zip, with
    :data:`PATIENT_KERNELS`: its kernel may take :data:`KERNEL_START_SECONDS` to start. There the
    submission's kernel also runs otter's checks and writes the results, so it is *not* proof
    against a submission that patches them.

    Either way a top-level cell of the submission that runs longer than ``cell_seconds`` is
    stopped (it fails; the notebook goes on), and a process that does not start or dies is tried
    again, up to ``attempts`` times in all.

    Parameters
    ----------
    zip_path : pathlib.Path
        The zip file in ``<dest>/autograder/`` written by :func:`assign`.
    submission : pathlib.Path
        The student's notebook.
    python : pathlib.Path, optional
        The Python that runs otter and the submission's kernel (e.g. from
        :func:`grading_environment`); default this one, with its environment.
    timeout : float, optional
        Seconds before the grading is stopped (``TimeoutError``); default none.
    cell_seconds : float, optional
        Seconds allowed to each top-level cell of the submission (default :data:`CELL_SECONDS`;
        None: no limit).
    attempts : int
        Attempts when the kernel does not start or dies (>= 1).
    runner : {"sealed", "otter"}
        How to grade (above).

    Returns
    -------
    dict
        ``score``, ``possible`` and ``tests`` (name -> score), ``messages`` (name -> what the
        student is told for the tests of that question, hidden ones included), the wall time in
        ``seconds``, the CPU time of the grading processes in ``cpu_seconds`` (user + system), the
        number of ``attempts``, and for the sealed runner ``tampered`` (None, or what the
        submission replaced).

    Raises
    ------
    TypeError
        If ``zip_path`` or ``submission`` is not a path.
    ValueError
        If ``zip_path`` or ``submission`` is not an existing file, a time limit is not positive,
        ``attempts`` < 1, or the submission is not a Python notebook (e.g. a truncated upload),
        saying why.
    RuntimeError
        If otter fails, with the end of its message (after ``attempts`` kernel failures, saying so).
    TimeoutError
        If grading takes longer than ``timeout`` (otter and its kernel are then stopped).
    """
    zip_path = _existing("zip_path", zip_path)
    submission = _existing("submission", submission)
    timeout, cell_seconds = _seconds("timeout", timeout), _seconds("cell_seconds", cell_seconds)
    if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
        raise ValueError(f"attempts must be an integer >= 1, got {attempts!r}")
    if runner not in RUNNERS:
        raise ValueError(f"runner must be one of {RUNNERS}, got {runner!r}")
    start = time.perf_counter()
    notebook = _readable_notebook(submission)
    cpu = 0.0
    run = _sealed_run if runner == "sealed" else _otter_run
    for attempt in range(1, attempts + 1):
        try:
            result, used = run(zip_path, submission, notebook, python, timeout, cell_seconds)
            cpu += used
            break
        except _KernelFailure as exc:
            cpu += exc.cpu_seconds
            if attempt == attempts:
                raise RuntimeError(f"the kernel did not start or died, {attempts} attempts: {exc}") from None
            time.sleep(5.0 * attempt)  # a busy machine: give it a moment
    result.update(seconds=time.perf_counter() - start, cpu_seconds=cpu, attempts=attempt)
    return result


#: How :func:`grade` grades: ``"sealed"`` (a fresh Python, the grading code sealed) or ``"otter"`` (``otter run``).
RUNNERS = ("sealed", "otter")


#: Set in a grading's environment (to a value of its own): every process the grading starts inherits
#: it, the kernel included, which ``jupyter_client`` starts in a session of its own.
RUN_MARKER = "PRIVBANDITS_GRADING_RUN"


def _run_group(cmd, *, env, cwd, timeout, stdin_text=""):
    """Run a command in a session of its own; (output, return code, CPU seconds). Every process it
    started is stopped when it ends or runs out of time, those in other sessions (its kernel) included.

    The output goes to a file, not a pipe: a process left alive that holds the output (a kernel, in
    the session ``jupyter_client`` gives it, which a stop of the command's process group misses)
    cannot keep this call waiting. CI once waited on such a pipe until its time ran out."""
    import resource

    marker = secrets.token_hex(16)
    env = {**(os.environ if env is None else env), RUN_MARKER: marker}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as log:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        try:  # stdin written within the time limit too (a command that exits without reading it is fine)
            proc.communicate(stdin_text, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise TimeoutError(f"grading took longer than {timeout:g} s; stopped") from None
        finally:
            _stop_everything(proc, marker)  # anything the submission or the kernel left running
        log.seek(0)
        output = log.read()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # shared with other threads' gradings: exact with --jobs 1, an estimate otherwise
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return output, proc.returncode, cpu


def _stop_everything(proc: subprocess.Popen, marker: str) -> None:
    """SIGKILL ``proc``'s process group and every process whose environment holds ``marker``; reap ``proc``.

    The scan is repeated until it finds none (at most 50 times): a process may start another one
    between a scan and the kill."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    for _ in range(50):
        left = _marked_processes(marker)
        if not left:
            break
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)
    proc.wait()  # killed: returns at once


def _marked_processes(marker: str) -> list[int]:
    """The processes (not this one) whose environment sets :data:`RUN_MARKER` to ``marker`` (Linux's
    ``/proc``; elsewhere none are found, and only the process group is stopped)."""
    needle = f"{RUN_MARKER}={marker}".encode() + b"\0"
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        if entry.name == str(os.getpid()):
            continue
        try:
            environ = b"\0" + (entry / "environ").read_bytes() + b"\0"
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if b"\0" + needle in environ:  # one whole entry of the NUL-separated list
            found.append(int(entry.name))
    return found


def _sealed_run(zip_path, submission, notebook, python, timeout, cell_seconds) -> tuple[dict, float]:
    """One sealed grading (``python lab_guard.py grade`` from the zip): (the result, CPU seconds)."""
    env = _clean_env(python) if python is not None else None
    with tempfile.TemporaryDirectory(prefix="lab_grade_") as out:
        with zipfile.ZipFile(zip_path) as archive:
            archive.extractall(out)
        files, tests = Path(out) / "files", Path(out) / "tests"
        copy = Path(out) / "submission" / _safe_name(submission)
        copy.parent.mkdir()
        copy.write_text(json.dumps(notebook))
        token = secrets.token_hex(16)
        cmd = [str(python or sys.executable), str(files / GUARD.name), "grade", str(tests), str(copy)]
        cmd += ["--cell-seconds", str(cell_seconds or 0)]
        output, code, cpu = _run_group(cmd, env=env, cwd=files, timeout=timeout, stdin_text=token + "\n")
    marker = f"LAB_GUARD_RESULT {token} "
    lines = [line for line in output.splitlines() if line.startswith(marker)]
    if code != 0 or len(lines) != 1:
        said = _otter_error(output, "the sealed runner")
        message = f"the grading stopped without a result (exit status {code}): {said}"
        if code is not None and code < 0:  # killed by a signal (e.g. out of memory): worth another attempt
            raise _KernelFailure(message, cpu)
        raise RuntimeError(message)
    graded = json.loads(lines[0][len(marker) :])
    messages = {  # as otter's results say it
        q: "\n\n".join(graded["messages"].get(q, {}).values()) or f"{q} results: All test cases passed!"
        for q in graded["tests"]
    }
    return {
        "score": graded["score"],
        "possible": graded["possible"],
        "tests": graded["tests"],
        "messages": messages,
        "tampered": graded["tampered"],
        "errors": graded["errors"],
    }, cpu


class _KernelFailure(RuntimeError):
    """The grading kernel did not start or died (worth another attempt)."""

    def __init__(self, message: str, cpu_seconds: float):
        super().__init__(message)
        self.cpu_seconds = cpu_seconds


def _otter_run(zip_path, submission, notebook, python, timeout, cell_seconds) -> tuple[dict, float]:
    """One ``otter run`` of a submission: (the graded result, CPU seconds of otter and its kernel)."""
    env = _clean_env(python) if python is not None else None
    with tempfile.TemporaryDirectory(prefix="lab_grade_") as out:
        copy = Path(out) / "submission" / _safe_name(submission)
        copy.parent.mkdir()
        copy.write_text(json.dumps(notebook))
        cmd = [
            str(python or sys.executable),
            "-c",
            OTTER_RUN,
            str(KERNEL_START_SECONDS),
            str(cell_seconds or 0),
            "run",
            "--no-logo",
            "-a",
            str(zip_path),
            "-o",
            out,
            str(copy),
        ]
        # otter, and the kernel it starts in a session of its own, are stopped together (_run_group); the
        # CPU seconds are otter's and its kernel's (the kernel is otter's child, counted when otter reaps it)
        output, returncode, cpu = _run_group(cmd, env=env, cwd=out, timeout=timeout)
        results_path = Path(out) / "results.json"
        if returncode != 0 or not results_path.exists():
            message = _otter_error(output)
            if any(k in output for k in KERNEL_FAILURES):
                raise _KernelFailure(message, cpu)
            raise RuntimeError(message)
        results = json.loads(results_path.read_text())
    graded = [t for t in results["tests"] if "max_score" in t]
    tests = {t["name"]: float(t.get("score") or 0.0) for t in graded}
    return {
        "score": sum(tests.values()),
        "possible": float(sum(t["max_score"] for t in graded)),
        "tests": tests,
        "messages": {t["name"]: t.get("output", "") for t in graded},
    }, cpu


def _safe_name(path: Path) -> str:
    """A file name otter accepts for a submission (no spaces or brackets, e.g. ``lab0 (1).ipynb``)."""
    stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in path.stem)
    return f"{stem or 'submission'}.ipynb"


def _existing(name: str, value, *, directory: bool = False) -> Path:
    """``value`` as a Path to an existing file (or folder); ValueError/TypeError naming ``name``."""
    if not isinstance(value, (str, Path)):
        raise TypeError(f"{name} must be a path (str or pathlib.Path), got {type(value).__name__}")
    path = Path(value)
    if not (path.is_dir() if directory else path.is_file()):
        raise ValueError(f"{name} must be an existing {'folder' if directory else 'file'}, got {str(path)!r}")
    return path


def _seconds(name: str, value) -> float | None:
    """A time limit: None (no limit) or a finite number of seconds > 0; ValueError naming ``name``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        raise ValueError(f"{name} must be None or a number of seconds in (0, inf), got {value!r}")
    return float(value)


def _readable_notebook(path: Path) -> dict:
    """The submission as a notebook, its kernel set to Python 3; ValueError saying why it is not one."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a notebook (truncated or damaged file?): {exc}") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise ValueError("not a notebook: no list of cells")
    language = nb.get("metadata", {}).get("kernelspec", {}).get("language", "python")
    if language.lower() != "python":
        raise ValueError(f"the notebook's kernel is for {language}, not Python")
    nb.setdefault("metadata", {})["kernelspec"] = KERNELSPEC  # e.g. "python3.11" or a conda env's name
    return nb


def _otter_error(output: str, who: str = "otter") -> str:
    """The informative end of the grader's output (otter's, or the sealed runner's): from the last
    traceback's exception line on."""
    lines = [line for line in output.strip().splitlines() if line.strip() and "Kernel is running over TCP" not in line]
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith("Traceback"):
            tail = [line for line in lines[i:] if not line.startswith(" ")]
            return " | ".join(tail[-3:])
    return " | ".join(lines[-3:]) or f"{who} failed without a message"


def grade_batch(
    zip_path: Path,
    submissions: list[Path],
    *,
    jobs: int = 2,
    timeout: float = 600.0,
    python: Path | None = None,
    progress=None,
    cell_seconds: float | None = CELL_SECONDS,
    attempts: int = ATTEMPTS,
    runner: str = "sealed",
) -> list[dict]:
    """Grade many submissions, ``jobs`` at a time; a submission that fails does not stop the rest.

    Parameters
    ----------
    zip_path : pathlib.Path
        The lab's autograder zip.
    submissions : list of pathlib.Path
        The notebooks.
    jobs : int
        Submissions graded at the same time (each runs its own ``otter run`` and kernel).
    timeout : float
        Seconds allowed per submission (see :func:`grade`).
    python : pathlib.Path, optional
        The Python that grades (see :func:`grade`).
    progress : callable, optional
        Called with each finished row.
    cell_seconds, attempts, runner
        See :func:`grade`.

    Returns
    -------
    list of dict
        One row per submission, in the given order: ``submission``, and :func:`grade`'s result, or
        ``error`` (why it could not be graded) with ``score`` None.
    """
    from concurrent.futures import ThreadPoolExecutor

    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    zip_path = _existing("zip_path", zip_path)  # before any submission: one bad zip is every row's error
    _seconds("timeout", timeout), _seconds("cell_seconds", cell_seconds)

    def one(submission: Path) -> dict:
        row = {"submission": str(submission)}
        try:
            row.update(
                grade(
                    zip_path,
                    submission,
                    python=python,
                    timeout=timeout,
                    cell_seconds=cell_seconds,
                    attempts=attempts,
                    runner=runner,
                )
            )
        except (ValueError, RuntimeError, TimeoutError, OSError) as exc:
            row.update(score=None, error=str(exc))
        if progress is not None:
            progress(row)
        return row

    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, submissions))


def write_gradebook(rows: list[dict], path: Path) -> None:
    """Write graded rows as a CSV gradebook, and otter's messages as JSON next to it.

    Parameters
    ----------
    rows : list of dict
        From :func:`grade_batch`.
    path : pathlib.Path
        The CSV: one line per submission with ``submission``, ``score``, ``possible``, one column
        per question, ``seconds`` (wall), ``cpu_seconds``, ``attempts`` and ``error`` (empty if
        graded; otherwise why not, e.g. a kernel that did not start in any attempt). ``<path>.messages.json`` holds,
        per submission, otter's output for each question (hidden tests included).
    """
    import csv

    questions = sorted({q for row in rows for q in row.get("tests", {})})
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["submission", "score", "possible", *questions, "seconds", "cpu_seconds", "attempts", "error"])
        for row in rows:
            tests = row.get("tests", {})
            writer.writerow(
                [
                    row["submission"],
                    "" if row.get("score") is None else f"{row['score']:g}",
                    f"{row['possible']:g}" if "possible" in row else "",
                    *(f"{tests[q]:g}" if q in tests else "" for q in questions),
                    f"{row['seconds']:.1f}" if "seconds" in row else "",
                    f"{row['cpu_seconds']:.1f}" if "cpu_seconds" in row else "",
                    row.get("attempts", ""),
                    row.get("error", ""),
                ]
            )
    messages = {row["submission"]: row.get("messages", {}) or {"error": row.get("error", "")} for row in rows}
    path.with_suffix(path.suffix + ".messages.json").write_text(json.dumps(messages, indent=1) + "\n")


def grade_in_process(tests_dir: Path, submission: Path, *, cell_seconds: float | None = CELL_SECONDS) -> dict:
    """Grade a submission in this process: ``lab_guard.grade_notebook``, what :func:`grade` runs in a fresh one.

    The code cells are executed with ``exec`` in a fresh namespace of this process (a cell that
    raises is skipped, as otter skips it; otter's own cells, ``otter.Notebook`` and
    ``grader.check``, are left out), then otter's test files (``create_test_file(...).run``), the
    grading code sealed (``lab_guard.Seal``). Used by the test suite, where starting a Python per
    submission would cost most of the time; a submission that patches modules would leave this
    process patched, so the tests of such submissions grade with :func:`grade`.

    Parameters
    ----------
    tests_dir : pathlib.Path
        The test files (``tests/*.py`` of the autograder zip, extracted by the caller).
    submission : pathlib.Path
        The notebook to grade.
    cell_seconds : float, optional
        Seconds allowed to each code cell (``SIGALRM``; the cell is then stopped and counted as
        raising, as ``otter run`` with :data:`PATIENT_KERNELS` does); None: no limit.

    Returns
    -------
    dict
        ``score``, ``possible``, ``tests`` (question -> score), ``question_possible`` (question ->
        points), ``failed_cases`` (question -> names of its failed test cases), ``messages``
        (question -> failed case -> what otter shows the student), ``errors`` (the cells that
        raised) and ``tampered`` (None, or what the submission replaced of the grading's code).

    Raises
    ------
    TypeError
        If ``tests_dir`` or ``submission`` is not a path.
    ValueError
        If ``tests_dir`` is not an existing folder, ``submission`` not an existing notebook, or
        ``cell_seconds`` not positive, saying why.
    """
    tests_dir = _existing("tests_dir", tests_dir, directory=True)
    submission = _existing("submission", submission)
    cell_seconds = _seconds("cell_seconds", cell_seconds)
    _readable_notebook(submission)  # ValueError saying why, for a file that is not a notebook
    if str(GUARD.parent) not in sys.path:  # the guard the autograder zip ships next to the submission
        sys.path.insert(0, str(GUARD.parent))
    import lab_guard

    return lab_guard.grade_notebook(tests_dir, submission, cell_seconds=cell_seconds)


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring).

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    release = sub.add_parser("release", help="otter assign every lab (or the ones named)")
    release.add_argument("labs", nargs="*", default=None)
    release.add_argument("--out", type=Path, default=ROOT / "_build" / "labs")
    release.add_argument("--term", default=None, help="the term's name (its seed is derived from it)")
    release.add_argument("--seed", type=int, default=None, help="the term's seed (default: from --term, or fresh)")
    grading = sub.add_parser("grade", help="grade submissions of one lab (after release)")
    grading.add_argument("lab")
    grading.add_argument("submissions", nargs="+", type=Path)
    grading.add_argument("--out", type=Path, default=ROOT / "_build" / "labs")
    grading.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="submissions graded at once")
    grading.add_argument("--timeout", type=float, default=600.0, help="seconds allowed per submission")
    grading.add_argument("--csv", type=Path, default=None, help="gradebook (default <out>/<lab>/gradebook.csv)")
    grading.add_argument("--python", type=Path, default=None, help="grade with this Python (e.g. a `env` venv)")
    grading.add_argument(
        "--cell-timeout", type=float, default=CELL_SECONDS, help="seconds per top-level cell of a submission (0: none)"
    )
    grading.add_argument("--attempts", type=int, default=ATTEMPTS, help="attempts when a kernel does not start")
    grading.add_argument(
        "--runner", choices=RUNNERS, default="sealed", help="sealed: a fresh Python, patching found; otter: otter run"
    )
    environment = sub.add_parser("env", help="make a venv holding only what a lab's autograder zip installs")
    environment.add_argument("lab")
    environment.add_argument("dest", type=Path)
    environment.add_argument("--out", type=Path, default=ROOT / "_build" / "labs")
    args = parser.parse_args(argv)
    if args.command == "release":
        term = term_settings(args.term, args.seed)
        print(f"term {term['term'] or '(unnamed)'}: hidden tests drawn with seed {term['seed']} (in the zips only)")
        for name in args.labs or lab_names():
            start = time.perf_counter()
            dest = assign(name, args.out / name, term=term)
            print(
                f"{name}: students get {dest / 'student'}; grade with the zip in {dest / 'autograder'}"
                f" ({time.perf_counter() - start:.1f} s)"
            )
        return 0
    zip_path = autograder_zip(args.out / args.lab)
    if args.command == "env":
        print(
            f"grade with: python tools/labs.py grade {args.lab} --python {grading_environment(zip_path, args.dest)} ..."
        )
        return 0
    start = time.perf_counter()

    def show(row: dict) -> None:
        if row.get("score") is None:
            print(f"{row['submission']}: NOT GRADED: {row['error']}", flush=True)
        else:
            print(
                f"{row['submission']}: {row['score']:g} / {row['possible']:g} ({row['seconds']:.1f} s)  {row['tests']}",
                flush=True,
            )

    rows = grade_batch(
        zip_path,
        args.submissions,
        jobs=args.jobs,
        timeout=args.timeout,
        python=args.python,
        progress=show,
        cell_seconds=args.cell_timeout or None,
        attempts=args.attempts,
        runner=args.runner,
    )
    csv_path = args.csv or args.out / args.lab / "gradebook.csv"
    write_gradebook(rows, csv_path)
    failed = [r for r in rows if r.get("score") is None]
    print(
        f"graded {len(rows) - len(failed)} of {len(rows)} submissions in {time.perf_counter() - start:.1f} s"
        f" ({args.jobs} at a time); gradebook {csv_path}, otter's messages {csv_path}.messages.json"
    )
    for row in failed:
        print(f"  not graded: {row['submission']}: {row['error']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
