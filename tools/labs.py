"""Release and grade the book's labs with otter-grader (``book/labs/lab*.ipynb``).

Each lab is an otter-grader *master* notebook (a jupytext pair, edited as ``.py``): reference
solutions between ``# BEGIN SOLUTION`` and ``# END SOLUTION``, public and hidden tests between
``# BEGIN TESTS`` and ``# END TESTS``. This script wraps the two otter commands an instructor needs::

    python tools/labs.py release                  # every lab -> _build/labs/<lab>/{student,autograder}
    python tools/labs.py grade lab0_laplace sub1.ipynb sub2.ipynb ...   # after `release`

``release`` runs ``otter assign`` (which also checks that the reference solution passes every
test); students get ``_build/labs/<lab>/student/`` (the notebook with ``...`` stubs and the public
tests). ``grade`` runs ``otter run`` (no Docker) with the zip file in ``_build/labs/<lab>/autograder/`` on
each submission and prints its score. The notebooks are stored without a kernelspec (the book's
jupytext pairs carry no notebook metadata), which otter needs: ``release`` adds a Python 3 one.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABS = ROOT / "book" / "labs"
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}


def lab_names() -> list[str]:
    """Names of the labs (the master notebooks ``book/labs/lab*.ipynb``).

    Returns
    -------
    list of str
        The notebooks' stems, sorted.
    """
    return sorted(p.stem for p in LABS.glob("lab*.ipynb"))


def assign(name: str, dest: Path, *, run_tests: bool = True, root: Path = LABS) -> Path:
    """Run ``otter assign`` on one lab's master notebook.

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

    Returns
    -------
    pathlib.Path
        ``dest``.

    Raises
    ------
    RuntimeError
        If otter fails (e.g. a test fails on the reference solution), with otter's log.
    """
    master = root / f"{name}.ipynb"
    if not master.exists():
        raise ValueError(f"name: no lab {master}; labs are {lab_names()}")
    if dest.exists():
        shutil.rmtree(dest)
    with tempfile.TemporaryDirectory(prefix="lab_master_") as tmp:
        nb = json.loads(master.read_text())
        nb.setdefault("metadata", {})["kernelspec"] = KERNELSPEC
        nb["metadata"].setdefault("language_info", {"name": "python"})
        copy = Path(tmp) / master.name
        copy.write_text(json.dumps(nb, indent=1, ensure_ascii=False))
        for extra in master.parent.iterdir():  # data files a lab may read
            if extra.suffix not in (".py", ".ipynb", ".md") and extra.is_file():
                shutil.copy(extra, Path(tmp) / extra.name)
        from otter.assign import main as otter_assign

        log = io.StringIO()
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                otter_assign(str(copy), str(dest.resolve()), no_pdfs=True, no_run_tests=not run_tests)
        except BaseException as exc:
            raise RuntimeError(f"otter assign failed on {master}:\n{log.getvalue()}") from exc
    for version in ("student", "autograder"):  # otter puts its init cell above the title: move it below
        path = dest / version / master.name
        nb = json.loads(path.read_text())
        cells = nb["cells"]
        if len(cells) > 1 and "otter.Notebook(" in "".join(cells[0]["source"]) and cells[1]["cell_type"] == "markdown":
            cells[0], cells[1] = cells[1], cells[0]
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    return dest


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


def grade(zip_path: Path, submission: Path) -> dict:
    """Grade one submission with ``otter run`` (no container).

    Parameters
    ----------
    zip_path : pathlib.Path
        The zip file in ``<dest>/autograder/`` written by :func:`assign`.
    submission : pathlib.Path
        The student's notebook.

    Returns
    -------
    dict
        ``score``, ``possible`` and ``tests`` (name -> score) from otter's ``results.json``, and the
        wall time in ``seconds``.
    """
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lab_grade_") as out:
        subprocess.run(
            [sys.executable, "-m", "otter", "run", "--no-logo", "-a", str(zip_path), "-o", out, str(submission)],
            check=True,
            capture_output=True,
            text=True,
        )
        results = json.loads((Path(out) / "results.json").read_text())
    graded = [t for t in results["tests"] if "max_score" in t]
    tests = {t["name"]: float(t.get("score") or 0.0) for t in graded}
    return {
        "score": sum(tests.values()),
        "possible": float(sum(t["max_score"] for t in graded)),
        "tests": tests,
        "seconds": time.perf_counter() - start,
    }


def _case_name(case) -> str:
    """The test function's name of an otter test case (otter itself numbers them "q1 - 2")."""
    func = getattr(case.body, "test_func", None)
    return func.__name__ if func is not None else case.name


def grade_in_process(tests_dir: Path, submission: Path) -> dict:
    """Grade a submission without a kernel: run its code cells here, then otter's test files.

    The same test files and scoring as :func:`grade` (otter's ``create_test_file(...).run``), but
    the code cells are executed with ``exec`` in a fresh namespace of this process (a cell that
    raises is skipped, as otter skips it), and otter's own cells (``otter.Notebook``,
    ``grader.check``) are left out. Used by the test suite, where starting a kernel per
    submission would cost most of the time.

    Parameters
    ----------
    tests_dir : pathlib.Path
        The test files (``tests/*.py`` of the autograder zip, extracted by the caller).
    submission : pathlib.Path
        The notebook to grade.

    Returns
    -------
    dict
        ``score``, ``possible``, ``tests`` (question -> score), ``question_possible`` (question ->
        points), ``failed_cases`` (question -> names of its failed test cases) and ``errors`` (the
        cells that raised).
    """
    from otter.test_files import create_test_file

    nb = json.loads(submission.read_text())
    namespace: dict = {"__name__": "__main__"}
    errors = []
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] != "code" or "otter.Notebook(" in source or "grader.check" in source:
            continue
        try:
            exec(compile(source, str(submission), "exec"), namespace)
        except Exception as exc:  # a student's cell may raise anything
            errors.append(f"{type(exc).__name__}: {exc}")
    tests, possible, failed = {}, {}, {}
    for path in sorted(tests_dir.glob("*.py")):
        test_file = create_test_file(str(path), None)
        test_file.run(namespace)
        tests[path.stem] = float(test_file.score)
        possible[path.stem] = float(test_file.possible)
        failed[path.stem] = [_case_name(r.test_case) for r in test_file.test_case_results if not r.passed]
    return {
        "score": sum(tests.values()),
        "possible": sum(possible.values()),
        "tests": tests,
        "question_possible": possible,
        "failed_cases": failed,
        "errors": errors,
    }


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
    grading = sub.add_parser("grade", help="grade submissions of one lab (after release)")
    grading.add_argument("lab")
    grading.add_argument("submissions", nargs="+", type=Path)
    grading.add_argument("--out", type=Path, default=ROOT / "_build" / "labs")
    args = parser.parse_args(argv)
    if args.command == "release":
        for name in args.labs or lab_names():
            start = time.perf_counter()
            dest = assign(name, args.out / name)
            print(
                f"{name}: students get {dest / 'student'}; grade with the zip in {dest / 'autograder'}"
                f" ({time.perf_counter() - start:.1f} s)"
            )
        return 0
    zip_path = autograder_zip(args.out / args.lab)
    for submission in args.submissions:
        r = grade(zip_path, submission)
        print(f"{submission}: {r['score']:g} / {r['possible']:g} ({r['seconds']:.1f} s)  {r['tests']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
