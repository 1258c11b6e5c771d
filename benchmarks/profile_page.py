"""Profile one book page cold: CPU seconds per code cell, cProfile of the whole, numba's compilations.

Usage (from the repository root; empty caches, so that the page computes and compiles everything):

    PYTHONPATH=pkg PRIVBANDITS_CACHE_DIR=$(mktemp -d) NUMBA_CACHE_DIR=$(mktemp -d) PRIVBANDITS_N_JOBS=1 \
        PRIVBANDITS_PROGRESS=0 python benchmarks/profile_page.py book/part4_fair_hiring/paper_scale.py [out.prof]

The page's jupytext ``.py`` is executed cell by cell in this process, in the page's folder (not in
a kernel, figures not rendered: the Agg backend), each cell's wall and CPU seconds printed; then the
CPU seconds of numba's compilations, by function (a compilation includes those it triggers), and,
with ``out.prof``, the cProfile statistics of the cells for ``python -m pstats``.
"""

import cProfile
import os
import sys
import time
from collections import Counter

import jupytext
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from numba.core import event  # noqa: E402


class CompileTimes(event.Listener):
    """CPU seconds of each ``numba:compile`` event, keyed by (nesting depth, function)."""

    def __init__(self):
        self.stack, self.seconds = [], Counter()

    def on_start(self, ev):
        self.stack.append(time.process_time())

    def on_end(self, ev):
        func = getattr(ev.data.get("dispatcher"), "py_func", None)
        name = func.__qualname__ if func is not None else "?"
        self.seconds[(len(self.stack) - 1, name)] += time.process_time() - self.stack.pop()


def main(page, out=None):
    compiles = CompileTimes()
    event.register("numba:compile", compiles)
    notebook = jupytext.read(page)
    out = out and os.path.abspath(out)
    os.chdir(os.path.dirname(os.path.abspath(page)))  # where the page runs in the build
    namespace = {"__name__": "__main__"}
    profile = cProfile.Profile()
    rows = []
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for i, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        wall, cpu = time.perf_counter(), time.process_time()
        profile.enable()
        exec(compile(cell.source, f"<cell {i}>", "exec"), namespace)
        profile.disable()
        plt.close("all")
        first = next((line for line in cell.source.splitlines() if line.strip()), "")
        rows.append((i, time.perf_counter() - wall, time.process_time() - cpu, first[:72]))
    print(f"{page}: {time.perf_counter() - wall0:.1f} s wall, {time.process_time() - cpu0:.1f} s CPU")
    for i, wall, cpu, first in rows:
        print(f"  cell {i:3d} {wall:7.1f} s wall {cpu:7.1f} s CPU  {first}")
    top = sum(s for (depth, _), s in compiles.seconds.items() if depth == 0)
    print(f"numba compilations: {top:.1f} s CPU in all; by function (CPU s, depth 0 = called from Python):")
    for (depth, name), seconds in compiles.seconds.most_common(20):
        print(f"  {seconds:6.2f}  depth {depth}  {name}")
    if out:
        profile.dump_stats(out)


if __name__ == "__main__":
    main(*sys.argv[1:3])
