"""pytest's hooks for the whole repository: the book's notebooks run longest first.

README command 2 runs ``--nbmake book tests`` on pytest-xdist's ``worksteal`` scheduler. It hands each
worker a contiguous share of the collected items (a half on 2 CPUs), runs them in order, and lets an
idle worker take the back half of a busy worker's queue, except its last two items, which that worker
runs. In path order the notebooks end with Part VI's (1-1.5 minutes each, cold), so a cold run on 2
cores ended with one worker in one of them and the other idle (about 75 idle core-seconds in its last
300 s; benchmarks/README.md, issue 37, session 21). Here the notebooks keep their places among the collected
items but are put in the order a cold build starts them (``execution_first`` in ``_config.yml``: the
longest chapters), the others after them in the order collected, so the items left at the end of a
queue are short. Only the order changes: the same items run, each in its own kernel.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent


def _longest_first() -> list[str]:
    """The documents the build starts first (``_config.yml``), as paths without suffix; [] if none."""
    import yaml  # here: a run without the book's requirements still collects its unit tests

    config = ROOT / "_config.yml"
    if not config.exists():
        return []
    loaded = yaml.safe_load(config.read_text())
    sphinx = loaded.get("sphinx") if isinstance(loaded, dict) else None
    sphinx_config = sphinx.get("config") if isinstance(sphinx, dict) else None
    first = sphinx_config.get("execution_first") if isinstance(sphinx_config, dict) else None
    return [str(doc) for doc in first] if isinstance(first, list) else []


def pytest_collection_modifyitems(config, items) -> None:
    """Put the notebooks (nbmake's items) in the build's start order, in the places they hold."""
    slots = [i for i, item in enumerate(items) if item.path.suffix == ".ipynb"]
    if len(slots) < 2:
        return
    first = {doc: rank for rank, doc in enumerate(_longest_first())}

    def rank(item) -> int:
        try:
            doc = item.path.resolve().relative_to(ROOT).with_suffix("").as_posix()
        except ValueError:  # a notebook outside the repository
            return len(first)
        return first.get(doc, len(first))

    notebooks = sorted((items[i] for i in slots), key=rank)  # stable: the rest keep the order collected
    for i, item in zip(slots, notebooks):
        items[i] = item
