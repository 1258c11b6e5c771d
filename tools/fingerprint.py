"""A fingerprint of everything the package and the book compute, to prove a refactor changes no run.

Two parts, each a map from a name to a short hash:

``policies``
    Every policy class of :mod:`privbandits.policies` run through the package's simulators on fixed
    seeds, in its default configuration, in its ``as_run_by_authors()`` configuration where it declares
    departures, with every bool field switched from its default alone (the departure flags and the other
    switches), and with each option of its string-valued fields the default does not use. The
    bandit policies go through :func:`~privbandits.simulate.simulate` (on a Bernoulli and on a mixed
    instance) and, when they record arms, :func:`~privbandits.simulate.simulate_mean_rewards`; the
    contextual hiring policies of Part IV through their own
    :func:`~privbandits.simulate.simulate_hiring`. The hash covers every record's name,
    dtype, shape and bytes, so it changes when any run changes by one bit. Small horizon, a few runs:
    about 20 s with the compiled kernels in numba's cache.

``chapters``
    Every glued value (myst-nb ``glue``: an output whose metadata holds ``scrapbook``) of every
    notebook in ``_toc.yml``: its ``text/plain`` and a hash of its other mime types. Read from the
    executed notebooks in myst-nb's jupyter-cache (``_build/.jupyter_cache``) after a build, matched
    to the current sources (a notebook edited since the build is reported missing), or, with
    ``--execute``, by executing the notebooks (slow: minutes per chapter).

Usage (from the repository root, with ``PYTHONPATH=pkg``)::

    python tools/fingerprint.py                      # print the policy part
    python tools/fingerprint.py --chapters           # also the chapters, from the build's cache
    python tools/fingerprint.py --chapters --execute book/labs/lab0_laplace   # execute those
    python tools/fingerprint.py --write tools/fingerprint_reference.json
    python tools/fingerprint.py --compare tools/fingerprint_reference.json     # exit 1 on a change

``--compare`` compares only the parts (and, for chapters, only the notebooks) computed on this call.
``tests/test_fingerprint.py`` recomputes the policy part and compares it with the reference.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import inspect
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
HORIZON = 600
RUNS = 3
SEED = 2026
HIRING_HORIZON = 120
HIRING_RUNS = 2

#: values for the fields a policy requires (no default)
REQUIRED = {"epsilon": 1.0, "tau": 0.5, "delta": 0.1}
#: the options of string-valued fields (each one the default does not use gets its own run)
CHOICES = {
    "bonus": ("matched", "printed"),
    "phase1_rule": ("printed", "sparse_vector"),
    "base": ("gdp", "ldp"),
    "mechanism": ("privbern", "laplace"),
    "rank_method": ("histogram", "brute"),
    "calibration": ("printed", "tight"),
    "l_tilde_rule": ("sum", "norm", "data"),
    "per_tree_budget": ("eps/k", "eps"),
    "width": ("printed", "tail_bound"),
    "offset_log": ("log2", "ln"),
}
#: further settings that change what a run does (beyond defaults, flags and choices)
EXTRA = {
    "FixedBudgetThresholding": [{"epsilon": 1.0}, {"epsilon": 1.0, "mechanism": "laplace"}, {"checkpoints": (50, 200)}],
    "FixedConfidenceThresholding": [{"epsilon": 2.0}, {"epsilon": 2.0, "mechanism": "laplace"}],
    # at the default epsilon = 0.2, Phase I lasts the whole horizon, where these flags change nothing
    "LDPNCB": [
        {"epsilon": 5.0},
        {"epsilon": 5.0, "log_window": True},
        {"epsilon": 5.0, "phase1_noise_as_location": True},
    ],
    "GDPNCB": [{"epsilon": float("inf")}],
    "DPUCBInt": [{"simplified_intervals": True, "v": 1.5}],
    # the package's Private-UCB before issue #26 (its former default)
    "PrivateUCB": [{"per_tree_budget": "eps", "width": "tail_bound"}],
}


def digest(records: dict[str, Any]) -> str:
    """sha256 (first 16 hex digits) of every record's name, dtype, shape and bytes."""
    h = hashlib.sha256()
    for name in sorted(records):
        value = np.ascontiguousarray(records[name])
        h.update(f"{name}|{value.dtype.str}|{value.shape}|".encode())
        h.update(value.tobytes())
    return h.hexdigest()[:16]


def _variants(cls: type) -> list[tuple[str, Any]]:
    """(label, policy) for the default, the authors' configuration, each bool flipped, each option."""
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name != "_"}
    base = {n: REQUIRED[n] for n, f in fields.items() if f.default is dataclasses.MISSING}
    settings: list[tuple[str, dict]] = [("default", {})]
    for name, f in fields.items():
        if isinstance(f.default, bool):
            settings.append((f"{name}={not f.default}", {name: not f.default}))
        elif name in CHOICES:
            settings += [(f"{name}={c}", {name: c}) for c in CHOICES[name] if c != f.default]
    settings += [(",".join(f"{k}={v}" for k, v in s.items()), s) for s in EXTRA.get(cls.__name__, [])]
    out = []
    for label, change in settings:
        try:
            out.append((label, cls(**{**base, **change})))
        except ValueError as exc:  # a switch that is valid only with another one: say so, skip it
            out.append((label, f"invalid: {exc}"))
    if cls.departures:
        out.append(("as_run_by_authors", cls.as_run_by_authors()))
    return out


def policy_classes() -> tuple[list[type], list[type]]:
    """The concrete bandit and contextual policy classes exported by :mod:`privbandits.policies`."""
    from privbandits import policies
    from privbandits.policies.base import ContextualPolicy, Policy

    found = [getattr(policies, n) for n in policies.__all__]
    concrete = [c for c in found if inspect.isclass(c) and not inspect.isabstract(c)]
    return ([c for c in concrete if issubclass(c, Policy)], [c for c in concrete if issubclass(c, ContextualPolicy)])


def _hiring_env():
    """A small synthetic hiring environment: 3 groups of 60 candidates in 4 dimensions."""
    from privbandits.policies import HiringEnvironment

    rng = np.random.default_rng(7)
    theta = rng.normal(size=4)
    theta /= np.linalg.norm(theta)
    pools = []
    for g in range(3):
        x = rng.normal(size=(60, 4)) * 0.3 + 0.2 * g * theta
        pools.append(x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1.0))
    return HiringEnvironment(tuple(pools), theta, noise_sd=0.1)


def policy_fingerprint(progress: bool = False) -> dict[str, str]:
    """The ``policies`` part: ``"<Class>[<setting>]@<simulator>/<instance>"`` to :func:`digest`."""
    from privbandits.environments import bernoulli_instance, mixed_instance
    from privbandits.simulate import simulate, simulate_hiring, simulate_mean_rewards

    opts = {"n_jobs": 1, "progress": False}
    instances = {
        "bernoulli": bernoulli_instance([0.8, 0.65, 0.4, 0.2], name="fingerprint"),
        "mixed": mixed_instance([0.7, 0.55, 0.3], name="fingerprint-mixed"),
    }
    out: dict[str, str] = {}
    bandit, contextual = policy_classes()
    for key, label, policy in _valid_settings(bandit, out, progress):
        for iname, instance in instances.items():
            if iname != "bernoulli" and label != "default":
                continue  # the other instance in the default configuration only
            result = simulate(policy, instance, HORIZON, RUNS, SEED, cache=False, **opts)
            out[f"{key}@simulate/{iname}"] = digest(result.records)
        if policy.records_arms:
            mean = simulate_mean_rewards(policy, instances["bernoulli"], HORIZON, RUNS, SEED, cache=False, **opts)
            fields = {f.name: getattr(mean, f.name) for f in dataclasses.fields(mean)}
            out[f"{key}@simulate_mean_rewards/bernoulli"] = digest(_arrays_of(fields))
    env = _hiring_env()
    for key, _, policy in _valid_settings(contextual, out, progress):
        records = simulate_hiring(policy, env, HIRING_HORIZON, HIRING_RUNS, SEED, use_cache=False, **opts)
        out[f"{key}@simulate_hiring/synthetic"] = digest(records)
    return out


def _valid_settings(classes: list[type], out: dict[str, str], progress: bool):
    """``("<Class>[<setting>]", setting, policy)`` of each valid setting; an invalid one's message goes into ``out``."""
    for cls in classes:
        for label, policy in _variants(cls):
            key = f"{cls.__name__}[{label}]"
            if isinstance(policy, str):
                out[key] = policy
                continue
            yield key, label, policy  # the caller fingerprints it before the next is made
            if progress:
                print(key, file=sys.stderr)


def _arrays_of(fields: dict[str, Any]) -> dict[str, np.ndarray]:
    """The array-valued fields of a result, a dict field's entries as ``field.key``."""
    out = {}
    for name, value in fields.items():
        if isinstance(value, dict):
            out.update(
                {f"{name}.{k}": v for k, v in value.items() if isinstance(v, (np.ndarray, np.generic, int, float))}
            )
        elif isinstance(value, (np.ndarray, np.generic, int, float)) and not isinstance(value, bool):
            out[name] = value
    return out


# --------------------------------------------------------------------------------------------
# Chapters: glued values
# --------------------------------------------------------------------------------------------


def toc_notebooks() -> list[Path]:
    """Every notebook of ``_toc.yml`` (the files listed that exist as ``.ipynb``), in toc order."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            files.append(chapter["file"])
            files += [s["file"] for s in chapter.get("sections", [])]
    return [ROOT / f"{f}.ipynb" for f in files if (ROOT / f"{f}.ipynb").exists()]


def glued(nb) -> dict[str, str]:
    """A notebook's glued values: key to ``text/plain`` (plus ``#<hash>`` of any other mime type)."""
    out = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            scrap = output.get("metadata", {}).get("scrapbook")
            if not scrap:
                continue
            prefix = scrap.get("mime_prefix", "")  # glue(..., display=False) prefixes the mime types
            data = {k[len(prefix) :] if k.startswith(prefix) else k: v for k, v in output.get("data", {}).items()}
            other = {k: v for k, v in sorted(data.items()) if k != "text/plain"}
            text = data.get("text/plain", "")
            text = "".join(text) if isinstance(text, list) else text
            if other:
                text += " #" + hashlib.sha256(json.dumps(other, sort_keys=True).encode()).hexdigest()[:16]
            out[scrap["name"]] = text
    return out


def chapter_fingerprint(
    cache_path: Path, execute: list[str] | None = None, only: list[str] | None = None
) -> dict[str, Any]:
    """The ``chapters`` part: notebook path (relative to the root) to its :func:`glued` values.

    From the jupyter-cache at ``cache_path`` (a notebook with no record matching its current source
    maps to ``None``), or, for the notebooks in ``execute`` (paths without suffix, or ``["all"]``),
    by executing them as myst-nb does. ``only`` restricts the notebooks.
    """
    import nbformat

    paths = toc_notebooks()
    wanted = set(only or []) | set(execute or []) - {"all"}
    if wanted:
        paths = [p for p in paths if str(p.relative_to(ROOT).with_suffix("")) in wanted]
    out: dict[str, Any] = {}
    cache = None
    for path in paths:
        rel = str(path.relative_to(ROOT).with_suffix(""))
        nb = nbformat.read(path, as_version=4)
        if execute and ("all" in execute or rel in execute):
            from jupyter_cache.executors.utils import single_nb_execution

            result = single_nb_execution(nb, cwd=str(path.parent), timeout=1800, allow_errors=False, meta_override=True)
            if result.err is not None:
                raise RuntimeError(f"{rel}: execution failed:\n{result.exc_string}")
            out[rel] = glued(nb)
            continue
        if cache is None:
            from jupyter_cache import get_cache

            if not cache_path.exists():
                raise FileNotFoundError(f"no jupyter-cache at {cache_path}: build the book first, or use --execute")
            cache = get_cache(str(cache_path))
        try:
            record = cache.match_cache_notebook(nb)
        except KeyError:
            out[rel] = None  # not executed since its last edit
            continue
        out[rel] = glued(cache.get_cache_bundle(record.pk).nb)
    return out


def compare(reference: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Differences between two fingerprints, over the parts and notebooks ``current`` holds."""
    problems = []
    for part in ("policies", "chapters"):
        if part not in current:
            continue
        ref, cur = reference.get(part, {}), current[part]
        names = set(cur) if part == "chapters" else set(ref) | set(cur)
        for name in sorted(names):
            if part == "chapters" and cur[name] is None:
                problems.append(f"chapters: {name} is not in the cache (edited since the build?)")
            elif name not in ref:
                problems.append(f"{part}: {name} is new")
            elif name not in cur:
                problems.append(f"{part}: {name} is gone")
            elif part == "chapters":
                keys = set(ref[name] or {}) | set(cur[name])
                for key in sorted(keys):
                    a, b = (ref[name] or {}).get(key), cur[name].get(key)
                    if a != b:
                        problems.append(f"chapters: {name}: glue {key!r}: {a!r} -> {b!r}")
            elif ref[name] != cur[name]:
                problems.append(f"{part}: {name}: {ref[name]} -> {cur[name]}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chapters", action="store_true", help="add the chapters' glued values")
    parser.add_argument("--no-policies", action="store_true", help="leave out the policy part")
    parser.add_argument("--cache", type=Path, default=ROOT / "_build" / ".jupyter_cache", help="jupyter-cache path")
    parser.add_argument("--execute", nargs="+", metavar="NOTEBOOK", help="execute these (or 'all') instead")
    parser.add_argument("--only", nargs="+", metavar="NOTEBOOK", help="only these notebooks (book/... no suffix)")
    parser.add_argument("--write", type=Path, help="write the fingerprint to this JSON file")
    parser.add_argument("--compare", type=Path, help="compare with this JSON file; exit 1 on a difference")
    parser.add_argument("--progress", action="store_true", help="name each policy as it is done (stderr)")
    args = parser.parse_args(argv)

    os.environ.setdefault("PRIVBANDITS_PROGRESS", "0")
    current: dict[str, Any] = {}
    if not args.no_policies:
        current["policies"] = policy_fingerprint(progress=args.progress)
    if args.chapters or args.execute:
        current["chapters"] = chapter_fingerprint(args.cache, args.execute, args.only)
    if args.write:
        args.write.write_text(json.dumps(current, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    if args.compare:
        problems = compare(json.loads(args.compare.read_text()), current)
        for line in problems:
            print(line)
        print(f"{len(problems)} difference(s) from {args.compare}")
        return 1 if problems else 0
    if not args.write:
        print(json.dumps(current, indent=1, sort_keys=True, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
