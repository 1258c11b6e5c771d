"""pytest's hooks for the whole repository: the book's notebooks run longest first.

README command 2 runs ``--nbmake book tests`` on pytest-xdist's ``worksteal`` scheduler. It hands each
worker a contiguous half of the collected items, runs them in order, and lets an idle worker take
the back half of a busy worker's queue, except its last two items, which that worker runs. In path
order the notebooks end with Part VI's (1-1.5 minutes each, cold), so the run ended with one worker
on one of them and the other idle (about 150 CPU seconds idle of a cold run on 2 cores; benchmarks/README.md,
session 21). Here the notebooks keep their places among the collected items but are put in the
order the build starts them (``execution_first`` in ``_config.yml``: the longest chapters), the rest
after them in path order, so the items left at the end of a queue are short. Only the order changes:
the same items run, each in its own kernel, whatever order they come in.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent


def _longest_first() -> list[str]:
    """The documents the build starts first (``_config.yml``), as paths without suffix; [] if none."""
    config = ROOT / "_config.yml"
    if not config.exists():
        return []
    sphinx_config = (yaml.safe_load(config.read_text()).get("sphinx") or {}).get("config") or {}
    return list(sphinx_config.get("execution_first") or [])


def pytest_collection_modifyitems(config, items) -> None:
    """Put the notebooks (nbmake's items) in the build's start order, in the places they hold."""
    first = {doc: rank for rank, doc in enumerate(_longest_first())}
    slots = [i for i, item in enumerate(items) if item.path.suffix == ".ipynb"]
    if not first or len(slots) < 2:
        return

    def rank(item) -> int:
        try:
            doc = item.path.resolve().relative_to(ROOT).with_suffix("").as_posix()
        except ValueError:  # a notebook outside the repository
            return len(first)
        return first.get(doc, len(first))

    notebooks = sorted((items[i] for i in slots), key=rank)  # stable: the rest keep their path order
    for i, item in zip(slots, notebooks):
        items[i] = item
