"""Stored runs: their provenance, the digest check, and the two comparisons a chapter makes with them."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

from privbandits import cache
from privbandits.provenance import (
    PROVENANCE_FIELDS,
    StoredRunError,
    check_close,
    check_digest,
    check_same_mean,
    machine_description,
    provenance,
)

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("stored_runs", ROOT / "tools" / "stored_runs.py")
stored_runs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stored_runs)

MODULES = ("privbandits.policies.ucb", "privbandits.metrics")


def test_provenance_records_what_made_a_run():
    fields = provenance(MODULES, "python make.py --runs 3", 7, "abc")
    assert set(fields) == set(PROVENANCE_FIELDS)
    assert str(fields["code_digest"]) == cache.source_hash(MODULES)
    assert [str(m) for m in fields["code_depends_on"]] == sorted(MODULES)
    assert int(fields["seed"]) == 7 and str(fields["command"]) == "python make.py --runs 3"
    assert str(fields["machine"]) == machine_description() and "numpy" in str(fields["machine"])
    check_digest(fields, "made.npz")  # what provenance writes, check_digest accepts


@pytest.mark.parametrize(
    "depends_on, seed, match",
    [
        ((), 0, "depends_on"),
        (("numpy",), 0, "depends_on"),
        ((np,), 0, "depends_on"),
        (MODULES, -1, "seed"),
        (MODULES, 1.5, "seed"),
        (MODULES, True, "seed"),
    ],
)
def test_provenance_rejects_bad_input(depends_on, seed, match):
    with pytest.raises(ValueError, match=match):
        provenance(depends_on, "cmd", seed)


def _stale(fields, **changes):
    out = dict(fields)
    out.update({k: np.array(v) for k, v in changes.items()})
    return out


def test_check_digest_fails_on_other_code_and_says_how_to_remake():
    fields = provenance(MODULES, "python make.py; then python make.py --more", 0)
    with pytest.raises(StoredRunError, match=r"stale.*python make.py ; python make.py --more.*stored_runs.py stamp"):
        check_digest(_stale(fields, code_digest="0" * 64), "x.npz")
    with pytest.raises(StoredRunError, match="no longer has"):
        check_digest(_stale(fields, code_depends_on=["privbandits.gone"]), "x.npz")
    with pytest.raises(StoredRunError, match="no provenance"):
        check_digest({"command": np.array("c")}, "x.npz")


def test_check_digest_sees_an_edit_of_code_but_not_of_a_docstring(tmp_path, monkeypatch):
    # a copy of the package whose ucb module is then edited: the digest recorded before must fail after
    package = tmp_path / "privbandits"
    shutil.copytree(Path(cache.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "_ROOT", package)
    fields = provenance(("privbandits.policies.ucb",), "cmd", 0)
    module = package / "policies" / "ucb.py"
    source = module.read_text()
    module.write_text(source.replace('"""', '"""An edited docstring. ', 1))
    check_digest(fields, "x.npz")  # a docstring keeps the digest
    module.write_text(source + "\nEDITED = 1\n")
    with pytest.raises(StoredRunError, match="stale"):
        check_digest(fields, "x.npz")


def test_check_close_is_a_relative_tolerance():
    stored = np.array([1.0, 2e-3, np.nan, 5.0])
    assert check_close(stored.copy(), stored, 1e-9, "same") == 0.0
    rounded = stored * (1 + 1e-14)
    assert 0 < check_close(rounded, stored, 1e-9, "rounded") < 1e-13
    with pytest.raises(StoredRunError, match=r"moved: relative difference 1e-06 > 1e-09"):
        check_close(stored * np.array([1, 1 + 1e-6, 1, 1]), stored, 1e-9, "moved")
    with pytest.raises(StoredRunError, match="NaN"):
        check_close(np.array([1.0, 2e-3, 0.0, 5.0]), stored, 1e-9, "nan moved")
    with pytest.raises(StoredRunError, match="shape"):
        check_close(stored[:3], stored, 1e-9, "short")
    assert check_close(2.0, 2.0 + 1e-15, 1e-9, "scalars") < 1e-9
    for rtol in (0, -1e-9, 1, float("nan"), "1e-9"):
        with pytest.raises(ValueError, match="rtol"):
            check_close(stored, stored, rtol, "bad")


def test_check_same_mean_passes_rounding_and_fails_a_shift():
    # Two samples of one law (fixed seed): the check fails for such a pair with probability about
    # 8e-4 (t, 18 df, |t| > 4); this seed's pair is one that passes, as almost every seed's does.
    rng = np.random.default_rng(33)
    stored = rng.normal(730.0, 19.0, 10)
    assert check_same_mean(stored.copy(), stored, "same") == 0.0
    assert abs(check_same_mean(stored - 0.6, stored, "rounding moved every trial")) < 0.1
    assert abs(check_same_mean(rng.normal(730.0, 19.0, 10), stored, "another draw")) < 4
    with pytest.raises(StoredRunError, match="standard errors"):
        check_same_mean(stored + 60.0, stored, "shifted by 10 standard errors")
    with pytest.raises(StoredRunError, match="constant"):
        check_same_mean(np.ones(5), np.zeros(5), "constant")
    with pytest.raises(ValueError, match="computed"):
        check_same_mean(np.array([1.0]), stored, "one trial")
    with pytest.raises(ValueError, match="stored"):
        check_same_mean(stored, np.array([1.0, np.nan]), "nan")
    with pytest.raises(ValueError, match="z"):
        check_same_mean(stored, stored, "bad z", z=0)


def test_every_stored_run_of_the_book_is_listed_and_made_by_this_code():
    on_disk = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "book").rglob("*.npz"))
    assert on_disk == sorted(stored_runs.STORED_RUNS), "tools/stored_runs.py must list every stored run"
    for name, script in stored_runs.STORED_RUNS.items():
        assert (ROOT / script).is_file(), script
        with np.load(ROOT / name) as stored:
            assert set(PROVENANCE_FIELDS) <= set(stored.files), name
            modules = sorted(str(m) for m in stored["code_depends_on"])
            assert modules == sorted(stored_runs.depends_on(name)), f"{name}: not the modules its script declares"
            check_digest(stored, name)


def test_stamp_renews_the_digest_and_keeps_the_arrays(tmp_path):
    name = "book/part2_dp_ncb/results_1e7.npz"
    path = tmp_path / "results.npz"
    shutil.copy(ROOT / name, path)
    with np.load(path) as before:
        arrays = {k: before[k] for k in before.files}
    stale = _stale(arrays, code_digest="0" * 64)
    np.savez_compressed(path, **stale)
    with np.load(path) as stored, pytest.raises(StoredRunError):
        check_digest(stored, "results.npz")
    note = stored_runs.stamp(path, stored_runs.depends_on(name), "a test")
    assert "000000000000 ->" in note and note.endswith("because a test")
    with np.load(path) as after:
        check_digest(after, "results.npz")
        assert str(after["stamped"]).endswith(note)
        for key in arrays:
            if key not in ("code_digest", "stamped"):
                assert np.array_equal(after[key], arrays[key]), key


def test_stamp_refuses_when_the_fingerprint_changed(monkeypatch, capsys):
    monkeypatch.setattr(stored_runs, "_fingerprint_differences", lambda: ["UCB[default]@bernoulli: changed"])
    monkeypatch.setattr(stored_runs, "stamp", lambda *args: pytest.fail("stamped despite a changed fingerprint"))
    assert stored_runs.main(["stamp", "book/part2_dp_ncb/results_1e7.npz", "--reason", "r"]) == 1
    assert "UCB[default]" in capsys.readouterr().err


def test_stamp_takes_the_file_name_a_page_prints_and_refuses_an_unknown_one(monkeypatch):
    stamped = []
    monkeypatch.setattr(stored_runs, "_fingerprint_differences", lambda: [])
    monkeypatch.setattr(stored_runs, "stamp", lambda path, modules, reason: stamped.append(path) or "ok")
    assert stored_runs.main(["stamp", "results_1e7.npz", "--reason", "r"]) == 0
    assert stamped == [ROOT / "book/part2_dp_ncb/results_1e7.npz"]
    with pytest.raises(SystemExit):
        stored_runs.main(["stamp", "results_other.npz", "--reason", "r"])


@pytest.mark.parametrize("threads, fails", [(1, False), (2, True)])
def test_machine_says_when_openblas_did_not_take_the_thread_count(monkeypatch, threads, fails):
    """CI's another-processor step sets OPENBLAS_NUM_THREADS=1; ``machine`` fails if OpenBLAS runs otherwise."""
    import threadpoolctl

    info = [{"internal_api": "openblas", "num_threads": threads, "architecture": "Haswell"}]
    monkeypatch.setattr(threadpoolctl, "threadpool_info", lambda: info)
    for name in ("OPENBLAS_CORETYPE", "NUMBA_CPU_NAME", "NPY_DISABLE_CPU_FEATURES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    lines, failed = stored_runs.machine()
    assert f"OpenBLAS threads: {threads}" in lines
    assert failed == (["OPENBLAS_NUM_THREADS=1, but OpenBLAS runs [2] threads"] if fails else [])
