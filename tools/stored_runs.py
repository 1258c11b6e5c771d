"""The book's stored runs: which script makes each, whether each still belongs to the code, and stamping.

A stored run is an ``.npz`` next to a chapter, made by a script in ``benchmarks/`` because it takes
longer than a build may (README, "What reproduces how"). Each records what made it
(:func:`privbandits.provenance.provenance`: the package version, the code digest of the modules the
result depends on, the commit, the command, the seed, the machine), and the chapter that reads it
checks the digest (:func:`privbandits.provenance.check_digest`).

Usage (from the repository root)::

    python tools/stored_runs.py status              # each file: its script, and whether its digest is current
    python tools/stored_runs.py machine             # how this machine computes (checks the variables below)
    python tools/stored_runs.py stamp FILE [FILE ...] --reason "why the runs are unchanged"

``stamp`` gives a file the current digest without running it again. That is right only when the
code change alters no run, and the evidence it asks for is the fingerprint
(``tests/test_fingerprint.py``: every policy setting's records hashed on small fixed-seed runs):
``stamp`` recomputes the fingerprint's policy part and refuses if it differs from
``tools/fingerprint_reference.json`` as committed (an edited reference is refused too). The
fingerprint does not cover everything a stored run depends on (its own calibrated settings,
branches reached only at long horizons, the metrics, Part VI's batch means, the census data), so
a stamp is a claim its author makes, backed by the fingerprint and by the recomputations of the
pages that read the file, not a proof. A change that alters runs must make the file again with
its script. A stamp keeps every array of the file and adds to its ``stamped`` field the commit, the
earlier digest and the reason.

``machine`` prints what decides this machine's rounding: the processor, OpenBLAS's kernel, the CPU
numba compiles for and numpy's enabled SIMD loops. Where ``OPENBLAS_CORETYPE``, ``NUMBA_CPU_NAME`` or
``NPY_DISABLE_CPU_FEATURES`` is set (``.ci/run``'s step "as on another processor"), it fails unless
each took effect, so that the step cannot pass by replaying this machine's own arithmetic.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

#: every stored run of the book -> the script that makes it (which declares DEPENDS_ON)
STORED_RUNS = {
    "book/part2_dp_ncb/results_1e7.npz": "benchmarks/run_dp_ncb_1e7.py",
    "book/part2_dp_ncb/results_authors.npz": "benchmarks/run_dp_ncb_authors.py",
    "book/part4_fair_hiring/results_500k.npz": "benchmarks/run_fair_hiring_500k.py",
    "book/part4_fair_hiring/results_hiring_authors.npz": "benchmarks/run_fair_hiring_authors.py",
    "book/part6_frontier/results_frontier.npz": "benchmarks/run_frontier.py",
}


def _load_module(path: Path, name: str):
    """Import a script or tool by its path (``benchmarks/`` and ``tools/`` are not packages)."""
    sys.path.insert(0, str(path.parent))  # the benchmarks import their _timing helper
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def depends_on(stored_run: str) -> tuple[str, ...]:
    """The package modules a stored run depends on, as its script declares them."""
    script = ROOT / STORED_RUNS[stored_run]
    return tuple(_load_module(script, f"_script_{script.stem}").DEPENDS_ON)


def status() -> list[tuple[str, str, str]]:
    """(file, script, state) of every stored run; state is "current", "stale: ..." or "no provenance"."""
    from privbandits.provenance import StoredRunError, check_digest

    rows = []
    for name, script in STORED_RUNS.items():
        with np.load(ROOT / name) as stored:
            try:
                check_digest(stored, name)
                state = "current"
            except StoredRunError as error:
                state = f"stale or unrecorded: {error}"
        rows.append((name, script, state))
    return rows


def _fingerprint_differences() -> list[str]:
    """The fingerprint's policy part recomputed and compared with the committed reference (empty: the same)."""
    edited = subprocess.run(
        ["git", "diff", "--quiet", "HEAD", "--", "tools/fingerprint_reference.json"], cwd=ROOT, check=False
    )
    if edited.returncode != 0:  # 1: edited; other codes: no git (a source archive), where nothing can be compared
        return ["tools/fingerprint_reference.json differs from the committed one: commit or undo it first"]
    fingerprint = _load_module(ROOT / "tools" / "fingerprint.py", "_fingerprint")
    reference = json.loads((ROOT / "tools" / "fingerprint_reference.json").read_text())
    return fingerprint.compare(reference, {"policies": fingerprint.policy_fingerprint(progress=True)})


def _git_head() -> str:
    """The repository's HEAD commit, with ``+changes`` when the work tree differs from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, cwd=ROOT)
        dirty = subprocess.run(["git", "status", "--porcelain", "pkg"], capture_output=True, text=True, cwd=ROOT)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def stamp(path: Path, modules: tuple[str, ...], reason: str) -> str:
    """Give the stored run at ``path`` the current digest of ``modules`` (the caller checked the fingerprint)."""
    from privbandits.provenance import provenance

    with np.load(path) as stored:
        arrays = {key: stored[key] for key in stored.files}
    with zipfile.ZipFile(path) as archive:
        compressed = any(info.compress_type != zipfile.ZIP_STORED for info in archive.infolist())
    old_digest = str(arrays.get("code_digest", arrays.get("source_hash", "none recorded")))
    fields = provenance(modules, str(arrays["command"]), int(arrays["seed"]), str(arrays.get("commit", "unknown")))
    # a file made before provenance was recorded keeps "not recorded" as its machine, not this one's
    fields["machine"] = arrays.get("machine", np.array("not recorded (made before provenance was kept)"))
    note = f"at {_git_head()}: digest {old_digest[:12]} -> {str(fields['code_digest'])[:12]}, because {reason}"
    earlier = str(arrays["stamped"]) + "; then " if "stamped" in arrays else ""
    arrays.pop("source_hash", None)  # superseded by code_digest (the whole package's hash)
    arrays.update(fields)
    arrays["stamped"] = np.array(earlier + note)
    (np.savez_compressed if compressed else np.savez)(path, **arrays)
    return note


def machine() -> tuple[list[str], list[str]]:
    """What decides this machine's rounding, as lines, and the emulation variables that did not take effect."""
    import numba
    import scipy.linalg  # noqa: F401 (loads scipy's OpenBLAS, the LAPACK numba's np.linalg.solve calls)
    from numpy._core._multiarray_umath import __cpu_features__
    from threadpoolctl import threadpool_info

    from privbandits.provenance import machine_description

    openblas = [i for i in threadpool_info() if i.get("internal_api") == "openblas"]
    blas = sorted({str(i.get("architecture")) for i in openblas})
    threads = sorted({int(i.get("num_threads", 0)) for i in openblas})
    target = numba.config.CPU_NAME or "host"
    enabled = [name for name, on in __cpu_features__.items() if on]
    lines = [
        machine_description(),
        f"OpenBLAS kernels: {', '.join(blas) or 'none loaded'}",
        f"OpenBLAS threads: {', '.join(map(str, threads)) or 'none loaded'}",
        f"numba compiles for: {target}, features {numba.config.CPU_FEATURES!r} (None: the host's)",
        f"numpy SIMD features enabled: {' '.join(enabled)}",
    ]
    failed = []
    wanted = os.environ.get("OPENBLAS_CORETYPE")
    if wanted and [b.lower() for b in blas] != [wanted.lower()]:
        failed.append(f"OPENBLAS_CORETYPE={wanted}, but OpenBLAS runs {blas}")
    wanted = os.environ.get("OPENBLAS_NUM_THREADS")  # OpenBLAS runs at most one thread per logical CPU
    if wanted and threads != [min(int(wanted), os.cpu_count() or 1)]:
        failed.append(f"OPENBLAS_NUM_THREADS={wanted}, but OpenBLAS runs {threads} threads")
    wanted = os.environ.get("NUMBA_CPU_NAME")
    if wanted and target != wanted:
        failed.append(f"NUMBA_CPU_NAME={wanted}, but numba compiles for {target}")
    for feature in os.environ.get("NPY_DISABLE_CPU_FEATURES", "").replace(",", " ").split():
        if __cpu_features__.get(feature):
            failed.append(f"NPY_DISABLE_CPU_FEATURES names {feature}, which numpy still uses")
    return lines, failed


def main(argv: list[str] | None = None) -> int:
    """Command line: ``status``, ``machine`` or ``stamp``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("status", help="each stored run and whether its digest is current")
    sub.add_parser("machine", help="how this machine computes; fails if an emulation variable did not take effect")
    stamp_parser = sub.add_parser("stamp", help="give files the current digest, if the fingerprint is unchanged")
    stamp_parser.add_argument("files", nargs="+", metavar="FILE", help="a path of STORED_RUNS, or its file name")
    stamp_parser.add_argument("--reason", required=True, help="why the code change keeps the runs")
    args = parser.parse_args(argv)
    if args.command == "status":
        for name, script, state in status():
            print(f"{name}  (made by {script})\n    {state}")
        return 0
    if args.command == "machine":
        lines, failed = machine()
        print("\n".join(lines))
        for line in failed:
            print(f"did not take effect: {line}", file=sys.stderr)
        return 1 if failed else 0
    by_name = {Path(name).name: name for name in STORED_RUNS}  # the pages' errors name the file alone
    unknown = [f for f in args.files if f not in STORED_RUNS and f not in by_name]
    if unknown:
        parser.error(f"not a stored run: {', '.join(unknown)} (known: {', '.join(sorted(STORED_RUNS))})")
    args.files = [f if f in STORED_RUNS else by_name[f] for f in args.files]
    problems = _fingerprint_differences()
    if problems:
        print("the fingerprint differs from the reference: some runs changed, make the files again", file=sys.stderr)
        print("\n".join(problems), file=sys.stderr)
        return 1
    for name in args.files:
        print(f"stamped {name}: {stamp(ROOT / name, depends_on(name), args.reason)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
