"""Every policy's runs on fixed seeds are those of the reference fingerprint, bit for bit.

``tools/fingerprint_reference.json`` holds the hashes of ``tools/fingerprint.py``'s policy part,
computed on the package before the refactor of issue #25; a change that alters any run of any policy
setting (default, authors' configuration, each flag alone, each option) fails here. A deliberate
change of a run rewrites the reference (``python tools/fingerprint.py --write
tools/fingerprint_reference.json``), and the commit says why.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import nbformat
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("fingerprint", ROOT / "tools" / "fingerprint.py")
fingerprint = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fingerprint)


def test_policy_runs_match_the_reference():
    """Recomputes every policy setting's records (about 5 s once numba's cache holds the kernels)."""
    reference = json.loads((ROOT / "tools" / "fingerprint_reference.json").read_text())
    current = {"policies": fingerprint.policy_fingerprint()}
    problems = fingerprint.compare(reference, current)
    assert not problems, "\n".join(problems)


def test_reference_covers_every_policy_class():
    """Each exported policy class has its default setting in the reference, and no setting is invalid."""
    reference = json.loads((ROOT / "tools" / "fingerprint_reference.json").read_text())["policies"]
    bandit, contextual = fingerprint.policy_classes()
    assert len(bandit) >= 14 and len(contextual) == 3
    for cls in bandit + contextual:
        assert any(key.startswith(f"{cls.__name__}[default]@") for key in reference), cls.__name__
    assert not [key for key, value in reference.items() if value.startswith("invalid")]


def test_digest_sees_one_bit_dtype_and_name():
    arms = np.arange(12, dtype=np.int64)
    base = fingerprint.digest({"arms": arms})
    flipped = arms.copy()
    flipped[5] ^= 1
    assert fingerprint.digest({"arms": flipped}) != base
    assert fingerprint.digest({"arms": arms.astype(np.int32)}) != base
    assert fingerprint.digest({"pulls": arms}) != base
    assert fingerprint.digest({"arms": arms.reshape(3, 4)}) != base
    assert fingerprint.digest({"arms": arms.copy()}) == base


def test_glued_values_are_read_from_scrapbook_outputs():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("glue('k', 3)")
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            {"application/papermill.record/text/plain": "3"},
            metadata={"scrapbook": {"name": "k", "mime_prefix": "application/papermill.record/"}},
        ),
        nbformat.v4.new_output("display_data", {"text/plain": "not glued"}),
        nbformat.v4.new_output(
            "display_data", {"text/plain": "<Figure>", "image/png": "AAAA"}, metadata={"scrapbook": {"name": "fig"}}
        ),
    ]
    nb.cells.append(cell)
    values = fingerprint.glued(nb)
    assert set(values) == {"k", "fig"}
    assert values["k"] == "3"
    assert values["fig"].startswith("<Figure> #")


def test_compare_reports_changes():
    ref = {"policies": {"a": "1", "b": "2"}, "chapters": {"book/x": {"k": "3"}}}
    assert fingerprint.compare(ref, ref) == []
    problems = fingerprint.compare(
        ref, {"policies": {"a": "1", "b": "9", "c": "4"}, "chapters": {"book/x": {"k": "5"}}}
    )
    assert len(problems) == 3
    assert fingerprint.compare(ref, {"policies": {"a": "1"}}) == ["policies: b is gone"]
    assert fingerprint.compare(ref, {"chapters": {"book/x": None}})[0].startswith(
        "chapters: book/x is not in the cache"
    )
