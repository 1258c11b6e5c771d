"""Build the student edition of the book: every solution removed from pages, search index and downloads.

Usage (from the repository root)::

    python tools/student_edition.py                 # strip, then build (executes every notebook)
    python tools/student_edition.py --no-execute    # the same pages without outputs (quick check)
    python tools/student_edition.py --strip-only    # only write the stripped source tree

The edition is built from a stripped *copy* of the sources, so nothing the build writes (HTML pages,
``searchindex.js``, ``_sources/`` and the download buttons' ``.ipynb``/``.md`` files) can contain a
solution:

* every ``:::{solution}`` colon-fence block is removed from the markdown cells of the notebooks and
  from the ``.md`` pages (``{solution-start}``/``{solution-end}`` blocks are not used by the book and
  are refused, so that a new form of solution cannot slip through);
* a code cell whose glued numbers are quoted only by solutions is removed (or, when a later cell
  uses a name it defines, kept without its comments), so neither its code nor its glued values
  appear in the edition;
* each lab (``book/labs/*.ipynb`` with an ``# ASSIGNMENT CONFIG`` cell) is replaced by its student
  version, written by otter-grader (``otter assign``): the reference solutions become ``...`` stubs
  and no hidden test is added (they live in ``labs_hidden/``, which the edition does not copy). The
  labs are not executed (a stub cannot run), and the instructor notes (``book/labs/instructors.md``) are left out;
* the jupytext ``.py`` twins are not copied (the build reads the ``.ipynb``).

Output: the stripped tree in ``<out>/src`` and the HTML in ``<out>/html`` (default
``_build/student``).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SOLUTION_OPEN = re.compile(r"^(?P<fence>:{3,})\{solution\}")
FORBIDDEN = re.compile(r"\{solution-(start|end)\}|^\s*(`{3,}|~{3,})\s*\{solution\}", re.MULTILINE)
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
GLUE_CALL = re.compile(r"""\bglue\(\s*["']([^"']+)["']""")
GLUE_ROLE = re.compile(r"\{glue(?::[a-z]+)?\}`([^`:]+)")
SOLUTION_NOTE = "numbers that the solutions quote"
INSTRUCTOR_PAGES = ("book/labs/instructors",)


def strip_solutions(text: str) -> tuple[str, list[str]]:
    """Remove every ``:::{solution}`` colon-fence block from MyST markdown.

    Parameters
    ----------
    text : str
        MyST markdown (a page or a notebook's markdown cell).

    Returns
    -------
    stripped : str
        The text without the solution blocks (and without the blank line after each).
    removed : list of str
        The removed blocks, fences included, in order.

    Raises
    ------
    ValueError
        If a solution is written in a form this function does not remove (a backtick fence or the
        gated ``{solution-start}``/``{solution-end}`` form), or a solution block is not closed.
    """
    if FORBIDDEN.search(text):
        raise ValueError("text: a solution in a form other than a ':::{solution}' colon fence")
    lines = text.split("\n")
    out: list[str] = []
    removed: list[str] = []
    i = 0
    while i < len(lines):
        match = SOLUTION_OPEN.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        fence = match["fence"]
        closing = re.compile(rf"^{fence}:*\s*$")
        j, in_code = i + 1, None
        while j < len(lines):
            code = FENCE.match(lines[j])
            if in_code is None and code:
                in_code = code[1]
            elif in_code is not None and lines[j].strip().startswith(in_code) and not lines[j].strip()[len(in_code) :]:
                in_code = None
            elif in_code is None and closing.match(lines[j]):
                break
            j += 1
        if j == len(lines):
            raise ValueError(f"text: the solution block opened by {lines[i]!r} is not closed")
        removed.append("\n".join(lines[i : j + 1]))
        i = j + 1
        if i < len(lines) and not lines[i].strip() and (not out or not out[-1].strip()):
            i += 1  # drop the blank line that separated the block from what follows
    while out and not out[-1].strip() and len(out) > 1 and not out[-2].strip():
        out.pop()
    return "\n".join(out), removed


def _assigned_and_loaded(source: str) -> tuple[set[str], set[str]]:
    """Names a code cell binds and names it reads (magics and shell lines are ignored)."""
    code = "\n".join(line for line in source.split("\n") if not line.lstrip().startswith(("%", "!")))
    tree = ast.parse(code)
    stored, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (stored if isinstance(node.ctx, ast.Store | ast.Del) else loaded).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            stored.add(node.name)
        elif isinstance(node, ast.alias):
            stored.add((node.asname or node.name).split(".")[0])
    return stored, loaded


def strip_notebook(nb: dict) -> tuple[dict, list[str]]:
    """Remove the solutions, and the code that only feeds them, from a notebook (nbformat JSON).

    Parameters
    ----------
    nb : dict
        The notebook as read by ``json.load``; not modified.

    Returns
    -------
    stripped : dict
        A copy without solution blocks; a code cell whose every glued key is quoted only inside
        solutions is removed when no later cell reads a name it binds, and otherwise kept with its
        comment lines removed. Outputs are dropped from every cell.
    removed : list of str
        The removed solution blocks and code cells.
    """
    nb = json.loads(json.dumps(nb))
    removed: list[str] = []
    solution_text = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell.update(outputs=[], execution_count=None)
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            stripped, blocks = strip_solutions(source)
            if blocks:
                removed += blocks
                solution_text += blocks
                cell["source"] = stripped
    kept_markdown = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    quoted_elsewhere = set(GLUE_ROLE.findall(kept_markdown))
    quoted_in_solutions = set(GLUE_ROLE.findall("\n".join(solution_text)))
    cells = nb["cells"]
    keep = []
    for index, cell in enumerate(cells):
        source = "".join(cell["source"])
        keys = set(GLUE_CALL.findall(source)) if cell["cell_type"] == "code" else set()
        if keys and keys <= quoted_in_solutions and not keys & quoted_elsewhere:
            stored, _ = _assigned_and_loaded(source)
            later = set()
            for other in cells[index + 1 :]:
                if other["cell_type"] == "code":
                    later |= _assigned_and_loaded("".join(other["source"]))[1]
            removed.append(source)
            if stored & later:
                cell["source"] = "\n".join(line for line in source.split("\n") if not line.lstrip().startswith("#"))
            else:
                continue
        keep.append(cell)
    for cell in keep:  # the sentence that introduces a removed cell ("... the numbers that the solutions quote")
        if cell["cell_type"] == "markdown" and SOLUTION_NOTE in "".join(cell["source"]):
            paragraphs = "".join(cell["source"]).split("\n\n")
            cell["source"] = "\n\n".join(p for p in paragraphs if SOLUTION_NOTE not in p.replace("\n", " "))
    nb["cells"] = [c for c in keep if c["cell_type"] != "markdown" or "".join(c["source"]).strip()]
    return nb, removed


def _labs():
    """``tools/labs.py``, imported from next to this file."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        import labs
    finally:
        sys.path.pop(0)
    return labs


def _student_lab(master: Path, workdir: Path) -> Path:
    """Run ``otter assign`` on a lab's master notebook (``tools/labs.py``); the student notebook's path."""
    dest = _labs().assign(master.stem, workdir / master.stem, run_tests=False, root=master.parent, hidden=None)
    return dest / "student" / master.name


def write_stripped_tree(dest: Path, root: Path = ROOT) -> dict[str, list[str]]:
    """Write the student edition's sources (config, toc, book) to ``dest``.

    Parameters
    ----------
    dest : pathlib.Path
        Target directory; replaced if it exists.
    root : pathlib.Path, optional
        The repository root.

    Returns
    -------
    dict
        For each source file (relative path), the removed solution blocks and cells; for a lab, the
        master notebook's solution lines.
    """
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in ("_ext", "_extra", "pkg"):  # pkg: the build ships the package's wheel (_ext/run_it_yourself.py)
        shutil.copytree(root / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md", "requirements-run.txt", "requirements-data.txt"):
        shutil.copy2(root / name, dest / name)
    (dest / "benchmarks").mkdir()  # book/benchmarks.md serves the benchmark notes
    shutil.copy2(root / "benchmarks" / "README.md", dest / "benchmarks" / "README.md")
    removed: dict[str, list[str]] = {}
    book = root / "book"
    with tempfile.TemporaryDirectory(prefix="student_labs_") as labs_tmp:
        for path in sorted(book.rglob("*")):
            rel = path.relative_to(root)
            if path.is_dir() or any(p.startswith((".", "_")) for p in rel.parts[1:]) or "__pycache__" in rel.parts:
                continue
            if str(rel.with_suffix("")) in INSTRUCTOR_PAGES:
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix == ".py" and path.with_suffix(".ipynb").exists():
                continue  # the jupytext twin: the build reads the .ipynb
            if path.suffix == ".ipynb" and _labs().is_master(path):
                student = _student_lab(path, Path(labs_tmp))
                shutil.copy(student, target)
                removed[str(rel)] = _lab_solution_lines(path)
            elif path.suffix == ".ipynb":
                nb, blocks = strip_notebook(json.loads(path.read_text()))
                target.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
                removed[str(rel)] = blocks
            elif path.suffix == ".md":
                text, blocks = strip_solutions(path.read_text())
                target.write_text(text)
                removed[str(rel)] = blocks
            else:
                shutil.copy(path, target)
    config = yaml.safe_load((root / "_config.yml").read_text())
    config["title"] = f"{config['title']} (student edition)"
    config.setdefault("execute", {})["exclude_patterns"] = ["book/labs/*"]
    config.setdefault("sphinx", {}).setdefault("config", {})["hide_solutions"] = True
    (dest / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    for part in toc.get("parts", []):
        part["chapters"] = [c for c in part["chapters"] if c.get("file") not in INSTRUCTOR_PAGES]
    toc["parts"] = [p for p in toc.get("parts", []) if p["chapters"]]
    (dest / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False, allow_unicode=True))
    return removed


def _lab_solution_lines(master: Path) -> list[str]:
    """The lines of a lab's master notebook between ``# BEGIN SOLUTION`` and ``# END SOLUTION``."""
    nb = json.loads(master.read_text())
    lines = []
    for cell in nb["cells"]:
        inside = False
        for line in "".join(cell["source"]).split("\n"):
            if line.strip().startswith("# END SOLUTION"):
                inside = False
            elif inside or line.rstrip().endswith("# SOLUTION"):
                lines.append(line)
            if line.strip().startswith("# BEGIN SOLUTION"):
                inside = True
    return lines


def jupyter_book_command() -> list[str]:
    """How to run Jupyter Book with this Python's own tools (no activated venv needed).

    Returns
    -------
    list of str
        The ``jupyter-book`` script next to this Python (a venv's ``bin/``) if there is one,
        otherwise Jupyter Book's command line run by this Python (``-c``), never a ``jupyter-book``
        found elsewhere on ``PATH``.
    """
    script = Path(sys.executable).parent / "jupyter-book"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from jupyter_book.cli.main import main; sys.exit(main())"]


def _own_tools_env() -> dict:
    """The environment for the build: this Python's ``bin/`` first on ``PATH`` (its kernel, its tools)."""
    import os

    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def main(argv: list[str] | None = None) -> int:
    """Command line: strip the sources, then build the student edition with Jupyter Book.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status of the build (0 on success).
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "student", help="output directory")
    parser.add_argument("--no-execute", action="store_true", help="build without executing the notebooks")
    parser.add_argument("--strip-only", action="store_true", help="only write the stripped sources")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    src = args.out / "src"
    removed = write_stripped_tree(src)
    n_blocks = sum(len(v) for v in removed.values())
    print(f"stripped sources in {src}: {n_blocks} solution blocks, cells and lab lines removed", flush=True)
    if args.strip_only:
        return 0
    if args.no_execute:
        config_path = src / "_config.yml"
        config = yaml.safe_load(config_path.read_text())
        config["execute"]["execute_notebooks"] = "off"
        config_path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    html = args.out / "html"
    if html.exists():
        shutil.rmtree(html)
    # without execution the glued numbers are missing (warnings), so -W only for the executed edition
    strict = [] if args.no_execute else ["-W"]
    status = subprocess.run(
        [*jupyter_book_command(), "build", str(src), *strict, "--keep-going"], cwd=src, env=_own_tools_env()
    ).returncode
    if status == 0:
        shutil.move(src / "_build" / "html", html)
        print(f"student edition in {html / 'index.html'} ({time.perf_counter() - start:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
