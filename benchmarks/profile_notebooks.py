"""Issue 37's profile: each notebook executed alone, cold, in a kernel of its own, with its CPU time by kind.

Each notebook runs in a fresh process (nbclient, in the notebook's folder, as myst-nb runs it) with an
empty result cache and an empty numba cache of its own (``PRIVBANDITS_CACHE_DIR`` and
``NUMBA_CACHE_DIR`` set to new folders under ``--scratch``, for this measurement only) and
``PRIVBANDITS_N_JOBS=1``, so that the kernel's CPU time is the notebook's whole cost. A first cell
added to the executed copy (never to the file) installs ``benchmarks/_nb_profile.py``'s probes; a last
one writes ``<out>/<part>__<name>.json``: CPU seconds by kind (compile, simulation, audit, plotting,
cache I/O, imports, kernel start-up, other), each numba kernel compiled and its CPU time, each cache
key computed (its configuration and the CPU time before its store) and the CPU time of every cell;
and the executed notebook (``<part>__<name>.ipynb``, without the probes' cells), whose glued values
``tools/fingerprint.py``'s ``glued`` reads. ``--parallel N`` runs the notebooks N at a time in list
order on one shared pair of empty caches, as the book build does.

Usage (from the repository root)::

    PYTHONPATH=pkg python benchmarks/profile_notebooks.py --out /tmp/prof book/part5_audit/audit.ipynb ...
    PYTHONPATH=pkg python benchmarks/profile_notebooks.py --out /tmp/prof --report   # the tables

``--report`` prints the per-notebook table, the cache keys asked by several notebooks and the kernels
compiled by several notebooks, as benchmarks/README.md ("Issue 37") shows them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KINDS = [
    "kernel start-up",
    "imports",
    "compile",
    "numba cache load",
    "simulation",
    "audit",
    "cache I/O",
    "plotting",
    "other",
]


def _name(notebook: Path) -> str:
    return f"{notebook.parent.name}__{notebook.stem}"


def execute_one(notebook: Path, out: Path) -> None:
    """Execute ``notebook`` with the probes (in this process's environment) and write its record."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(notebook, as_version=4)
    record = out / f"{_name(notebook)}.json"
    first = f"import sys; sys.path.insert(0, {str(HERE)!r}); import _nb_profile; _nb_profile.start()"
    nb.cells.insert(0, nbformat.v4.new_code_cell(first))
    nb.cells.append(nbformat.v4.new_code_cell(f"_nb_profile.dump({str(record)!r})"))
    resources = {"metadata": {"path": str(notebook.parent)}}
    client = NotebookClient(nb, timeout=3600, kernel_name="python3", resources=resources)
    client.execute()
    nb.cells = nb.cells[1:-1]  # the executed notebook, without the probes' cells (its glued values)
    nbformat.write(nb, out / f"{_name(notebook)}.ipynb")


def run(notebooks: list[Path], out: Path, scratch: Path, parallel: int = 1) -> None:
    """Each notebook in a process of its own, cold: one after the other, each with empty caches of its
    own (``parallel`` 1), or ``parallel`` at a time in list order sharing one pair of empty caches, as
    the book build runs them."""
    out.mkdir(parents=True, exist_ok=True)
    shared = scratch / "shared"
    shutil.rmtree(shared, ignore_errors=True)
    running: list[tuple[Path, subprocess.Popen, float, Path]] = []
    queue = list(notebooks)
    start_all = time.time()
    while queue or running:
        while queue and len(running) < parallel:
            notebook = queue.pop(0)
            fresh = shared if parallel > 1 else scratch / _name(notebook)
            if parallel == 1:
                shutil.rmtree(fresh, ignore_errors=True)
            env = dict(os.environ)
            env.update(
                PRIVBANDITS_CACHE_DIR=str(fresh / "results"),
                NUMBA_CACHE_DIR=str(fresh / "numba"),
                PRIVBANDITS_N_JOBS="1",
            )
            command = [sys.executable, __file__, "--one", str(notebook), "--out", str(out)]
            log = out / f"{_name(notebook)}.log"
            proc = subprocess.Popen(command, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
            running.append((notebook, proc, time.time(), fresh))
        time.sleep(0.5)
        for item in [r for r in running if r[1].poll() is not None]:
            running.remove(item)
            notebook, proc, started, fresh = item
            wall = time.time() - started
            status = "ok" if proc.returncode == 0 else f"FAILED ({proc.returncode})"
            print(f"{notebook}: {status}, {wall:.1f} s wall", flush=True)
            record = out / f"{_name(notebook)}.json"
            if record.exists():
                data = json.loads(record.read_text())
                data["process_wall"] = wall
                data["load_after"] = os.getloadavg()[0]
                record.write_text(json.dumps(data, indent=1))
            if parallel == 1:
                shutil.rmtree(fresh, ignore_errors=True)
    print(f"all: {time.time() - start_all:.1f} s wall", flush=True)
    shutil.rmtree(shared, ignore_errors=True)


def report(out: Path) -> None:
    """Print the per-notebook table, the shared cache keys and the kernels compiled by several notebooks."""
    records = {p.stem: json.loads(p.read_text()) for p in sorted(out.glob("*.json"))}
    print("| notebook | CPU s | " + " | ".join(KINDS) + " | keys computed | wall s |")
    print("| --- | ---: | " + " | ".join("---:" for _ in KINDS) + " | ---: | ---: |")
    totals = defaultdict(float)
    for name, r in sorted(records.items(), key=lambda kv: -kv[1]["total_cpu"]):
        computed = sum(1 for k in r["keys"].values() if k.get("stored"))
        cells = " | ".join(f"{r['kinds'].get(k, 0.0):.1f}" for k in KINDS)
        print(f"| {name} | {r['total_cpu']:.1f} | {cells} | {computed} | {r.get('process_wall', 0):.0f} |")
        totals["CPU"] += r["total_cpu"]
        for k in KINDS:
            totals[k] += r["kinds"].get(k, 0.0)
    print(f"| all | {totals['CPU']:.1f} | " + " | ".join(f"{totals[k]:.1f}" for k in KINDS) + " | | |")

    by_key = defaultdict(list)
    for name, r in records.items():
        for key, entry in r["keys"].items():
            if entry.get("stored"):
                by_key[key].append((name, entry.get("compute_cpu", 0.0), entry.get("config", "")))
    shared = {k: v for k, v in by_key.items() if len(v) > 1}
    print(f"\ncache keys computed: {len(by_key)} distinct; by more than one notebook: {len(shared)}")
    repeat = 0.0
    for key, entries in sorted(shared.items(), key=lambda kv: -sum(e[1] for e in kv[1])):
        costs = sorted(e[1] for e in entries)
        repeat += sum(costs[:-1])
        names = ", ".join(f"{n} {c:.1f}" for n, c, _ in entries)
        print(f"- {key[:10]} ({names}): {entries[0][2][:160]}")
    print(f"CPU s of computations repeated across notebooks (all but the dearest of each shared key): {repeat:.1f}")

    kernels = defaultdict(dict)
    for name, r in records.items():
        for c in r["compiles"]:
            kernels[c["kernel"]][name] = kernels[c["kernel"]].get(name, 0.0) + c["cpu"]
    print("\n| kernel | notebooks compiling it | CPU s each (mean) | CPU s in all |")
    print("| --- | ---: | ---: | ---: |")
    once = every = 0.0
    for kernel, per in sorted(kernels.items(), key=lambda kv: -sum(kv[1].values())):
        every += sum(per.values())
        once += max(per.values())
        if len(per) > 1:
            print(f"| {kernel} | {len(per)} | {sum(per.values()) / len(per):.2f} | {sum(per.values()):.1f} |")
    print(
        f"compile CPU s, summed over notebooks: {every:.1f}; each kernel once: {once:.1f}; repeated: {every - once:.1f}"
    )


def makespan(work: list[float], processes: int, cores: int = 2) -> float:
    """Wall time of jobs of ``work`` CPU seconds each, started in list order, ``processes`` at a time on
    ``cores`` shared fairly (each running job gets ``min(1, cores / running)`` of a core): a model
    that takes each notebook as one thread and ignores its waits."""
    queue, running, now = list(work), [], 0.0
    while queue or running:
        while queue and len(running) < processes:
            running.append(queue.pop(0))
        rate = min(1.0, cores / len(running))
        step = min(running) / rate
        now += step
        running = [w - step * rate for w in running if w - step * rate > 1e-9]
    return now


def schedule(out: Path, first: list[str]) -> None:
    """The model's build wall time for the order of ``first`` (then by CPU) and longest first, 2 and 3 at a time."""
    records = {p.stem: json.loads(p.read_text())["total_cpu"] for p in sorted(out.glob("*.json"))}
    named = [n for n in first if n in records]
    given = named + sorted((n for n in records if n not in named), key=lambda n: -records[n])
    longest = sorted(records, key=lambda n: -records[n])
    print(f"CPU s in all: {sum(records.values()):.0f}; on 2 cores at best {sum(records.values()) / 2:.0f} s")
    for label, order in (("execution_first order", given), ("longest first", longest)):
        for processes in (2, 3):
            wall = makespan([records[n] for n in order], processes)
            print(f"{label}, {processes} at a time: {wall:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/nb_profile_scratch"))
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--parallel", type=int, default=1, help="notebooks at a time, sharing empty caches")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--first", nargs="*", default=None, help="with --report: the start order to model")
    args = parser.parse_args()
    if args.one:
        execute_one(args.one.resolve(), args.out.resolve())
    elif args.report:
        report(args.out)
        if args.first is not None:
            schedule(args.out, args.first)
    else:
        run([p.resolve() for p in args.notebooks], args.out.resolve(), args.scratch, args.parallel)


if __name__ == "__main__":
    main()
