"""What progress bars cost a chapter's execution: one notebook executed with them on and off, in turn.

Each execution runs the notebook as the book build does (jupyter-cache's executor, the notebook's
folder as working directory) in a fresh kernel with an empty simulation cache, so every result is
computed; numba's compiled kernels are reused (run once before measuring to warm them). With
``ipywidgets`` installed the bars are widgets, as on a reader's machine with otter-grader.

    python benchmarks/bench_progress.py book/part1_private_ucb/private_ucb.ipynb --repeats 2
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import nbformat
from jupyter_cache.executors.utils import single_nb_execution


def execute(path: Path, progress: bool) -> tuple[float, int]:
    """Seconds to execute ``path`` cold, and how many widget outputs it produced."""
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="bench-progress-") as cache:
        saved = {k: os.environ.get(k) for k in ("PRIVBANDITS_CACHE_DIR", "PRIVBANDITS_PROGRESS")}
        os.environ["PRIVBANDITS_CACHE_DIR"] = cache
        os.environ["PRIVBANDITS_PROGRESS"] = "1" if progress else "0"
        try:
            start = time.perf_counter()
            result = single_nb_execution(nb, cwd=str(path.parent), timeout=1800, allow_errors=False, meta_override=True)
            seconds = time.perf_counter() - start
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
    if result.err is not None:
        raise RuntimeError(f"{path} failed: {result.exc_string}")
    widgets = sum(
        "application/vnd.jupyter.widget-view+json" in out.get("data", {})
        for cell in nb.cells
        for out in cell.get("outputs", [])
    )
    return seconds, widgets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--repeats", type=int, default=2, help="pairs of executions (on, off)")
    args = parser.parse_args()
    for _ in range(args.repeats):
        for progress in (True, False):
            seconds, widgets = execute(args.notebook, progress)
            print(f"progress {'on ' if progress else 'off'}: {seconds:6.1f} s, {widgets} widget outputs", flush=True)


if __name__ == "__main__":
    main()
