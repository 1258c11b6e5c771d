"""A class of N Lab 0 submissions to time ``tools/labs.py grade`` on (issue 38).

    python benchmarks/bench_lab_class.py /tmp/bench_class --n 20
    /usr/bin/time -v python tools/labs.py grade lab0_laplace --out /tmp/bench_class/release --jobs 2 \\
        --csv /tmp/bench_class/gradebook.csv /tmp/bench_class/subs/*.ipynb

The first command releases Lab 0 (``labs.assign`` without running the tests, a fixed term seed) into
``<folder>/release/lab0_laplace`` and writes N submissions into ``<folder>/subs``, cycling through the
kinds of ``tests/test_labs.py``'s class run of Lab 0 but its endless loop (which costs its time limits,
60 s a cell and 120 s a check, whatever the grader): the reference (half the class), no noise, a
constant, a wrapper of the package, a private-helper wrapper, half the noise, the sensitivity ignored
and a raising cell. The second grades them as an instructor does; its wall time and CPU are the
measurement.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    """Write the release and the submissions (see the module docstring).

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--n", type=int, default=20, help="submissions (>= 1)")
    args = parser.parse_args(argv)
    if args.n < 1:
        raise ValueError(f"--n must be >= 1, got {args.n}")
    tests = _module("test_labs_for_bench", ROOT / "tests" / "test_labs.py")
    labs = tests.labs
    release = args.folder / "release" / "lab0_laplace"
    dest = labs.assign("lab0_laplace", release, run_tests=False, term=labs.term_settings(seed=20270101))
    kinds = [c for c in tests.CLASS_RUN if c[0] == "lab0_laplace" and c[1] != "endless loop"]
    order = [k for k in kinds if k[1] != "correct"]
    correct = next(k for k in kinds if k[1] == "correct")
    subs = args.folder / "subs"
    shutil.rmtree(subs, ignore_errors=True)
    subs.mkdir(parents=True)
    work = args.folder / "work"
    for i in range(args.n):
        kind = correct if i % 2 == 0 else order[(i // 2) % len(order)]
        work.mkdir(parents=True, exist_ok=True)
        made = tests._class_submission(dest, "lab0_laplace", kind[2], work)
        shutil.move(made, subs / f"student_{i + 1:03d}.ipynb")
        print(f"student_{i + 1:03d}.ipynb: {kind[1]}, expected {kind[3]}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
