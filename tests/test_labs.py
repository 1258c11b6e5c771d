"""The labs' autograding is real: the reference passes, the stub and plausible wrong answers fail.

For every lab (``book/labs/lab*.ipynb``, otter-grader master notebooks) ``otter assign`` writes the
student version and the autograder (``tools/labs.py``), then the otter test files grade:

* the reference solution (otter's autograder notebook): full marks;
* the student version as released (the ``...`` stubs): no marks;
* plausible wrong answers (below): fewer than full marks, and the named question loses points;
  for the privacy labs the "noise halved" answers must fail a statistical test case (the auditor
  of ``privbandits.audit`` or a goodness-of-fit test against the package's mechanism; each case
  states its false-failure probability in its comment, with fixed seeds).

Grading here runs each notebook's code in this process (``tools/labs.grade_in_process``: otter's
own test files and scoring, without a kernel per submission); one end-to-end ``otter run`` (the
command instructors use) checks that path on Lab 0.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("otter", reason="otter-grader is pinned in requirements.txt")

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("labs_tool", ROOT / "tools" / "labs.py")
labs = importlib.util.module_from_spec(_spec)
sys.modules["labs_tool"] = labs
_spec.loader.exec_module(labs)

LABS = labs.lab_names()

#: Plausible wrong answers: (lab, label, question that must lose points, [(reference line, wrong line)]).
WRONG = [
    (
        "lab0_laplace",
        "scale halved",
        "q1_scale",
        [("return sensitivity / epsilon", "return sensitivity / (2 * epsilon)")],
    ),
    (
        "lab0_laplace",
        "release with half the noise",
        "q2_release",
        [("laplace_scale(sensitivity, epsilon), size", "laplace_scale(sensitivity, epsilon) / 2, size")],
    ),
    (
        "lab1_hybrid_counter",
        "epsilon to each part (Tossou and Dimitrakakis)",
        "q2_release",
        [
            ("rng.laplace(0.0, 2 / epsilon)", "rng.laplace(0.0, 1 / epsilon)"),
            ("binary_tree_prefix_sums(block, epsilon / 2, rng", "binary_tree_prefix_sums(block, epsilon, rng"),
        ],
    ),
    ("lab1_hybrid_counter", "scales not split", "q1_scales", [("half = epsilon / 2", "half = epsilon")]),
    (
        "lab2_gdp_index",
        "square root over the whole last term",
        "q2_index",
        [
            (
                "4 * math.sqrt(2 * alpha / epsilon) * log_t**1.5 / n",
                "4 * math.sqrt(2 * alpha * log_t**3 / (epsilon * n))",
            )
        ],
    ),
    ("lab2_gdp_index", "log T squared in the first term", "q1_threshold", [("c * c * log_t +", "c * c * log_t**2 +")]),
    (
        "lab3_privbern",
        "release at 2 epsilon (noise halved)",
        "q1_release",
        [
            (
                "p = (r * np.exp(epsilon) + 1 - r) / (1 + np.exp(epsilon))",
                "p = (r * np.exp(2 * epsilon) + 1 - r) / (1 + np.exp(2 * epsilon))",
            )
        ],
    ),
    (
        "lab3_privbern",
        "debiasing with tanh(eps) for tanh(eps/2)",
        "q2_debias",
        [("factor = (np.exp(epsilon) - 1) / (np.exp(epsilon) + 1)", "factor = np.tanh(epsilon)")],
    ),
    (
        "lab4_private_ridge",
        "Gaussian sigma halved",
        "q1_gaussian",
        [("math.log(1.25 / delta)) / epsilon", "math.log(1.25 / delta)) / (2 * epsilon)")],
    ),
    (
        "lab4_private_ridge",
        "shift by Gamma, not 2 Gamma",
        "q3_ridge",
        [("+ 2 * gamma * np.eye(d)", "+ gamma * np.eye(d)")],
    ),
    (
        "lab5_above_threshold",
        "noise halved",
        "q1_stop",
        [
            ("rng.laplace(0.0, 2 / epsilon)", "rng.laplace(0.0, 1 / epsilon)"),
            ("rng.laplace(0.0, 4 / epsilon)", "rng.laplace(0.0, 2 / epsilon)"),
        ],
    ),
    ("lab5_above_threshold", "floor(log2 T) + 1 releases", "q2_budget", [("bit_length() - 1)", "bit_length())")]),
]

#: Wrong answers that a statistical test case (the auditor, or a goodness-of-fit test against the
#: package's mechanism) must catch, not only a comparison of formulas: (lab, label) -> that case.
STATISTICAL = {
    ("lab0_laplace", "release with half the noise"): "test_release_audit",
    ("lab1_hybrid_counter", "epsilon to each part (Tossou and Dimitrakakis)"): "test_release_matches_package",
    ("lab3_privbern", "release at 2 epsilon (noise halved)"): "test_release_audit",
    ("lab4_private_ridge", "Gaussian sigma halved"): "test_sigma_audit",
    ("lab5_above_threshold", "noise halved"): "test_stop_law",
}


def test_every_lab_has_a_wrong_answer():
    assert len(LABS) >= 6
    assert {w[0] for w in WRONG} == set(LABS)


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    out = tmp_path_factory.mktemp("labs")
    dists = {}
    for name in LABS:
        dest = labs.assign(name, out / name, run_tests=False)
        labs.extract_tests(dest)
        dists[name] = dest
    return dists


def _grade(dest: Path, notebook: Path) -> dict:
    return labs.grade_in_process(dest / "tests", notebook)


@pytest.mark.parametrize("name", LABS)
def test_reference_gets_full_marks(name, released):
    dest = released[name]
    result = _grade(dest, dest / "autograder" / f"{name}.ipynb")
    assert not result["errors"], result["errors"]
    assert result["possible"] > 0 and result["score"] == result["possible"], result


@pytest.mark.parametrize("name", LABS)
def test_stub_gets_no_marks(name, released):
    dest = released[name]
    student = dest / "student" / f"{name}.ipynb"
    text = student.read_text()
    assert "# BEGIN SOLUTION" not in text and "hidden: true" not in text
    hidden = [m for f in (dest / "tests").glob("*.py") for m in re.findall(r"hidden=True\)\ndef (\w+)", f.read_text())]
    assert hidden, f"{name} has no hidden tests"
    assert not [h for h in hidden if h in text], "the student version carries hidden tests"
    result = _grade(dest, student)
    assert result["score"] == 0, result


def _wrong_notebook(dest: Path, name: str, edits, tmp_path: Path) -> Path:
    nb = json.loads((dest / "autograder" / f"{name}.ipynb").read_text())
    for old, new in edits:
        hits = [c for c in nb["cells"] if c["cell_type"] == "code" and old in "".join(c["source"])]
        assert len(hits) == 1, f"{name}: the reference line {old!r} is in {len(hits)} cells"
        hits[0]["source"] = "".join(hits[0]["source"]).replace(old, new)
    path = tmp_path / f"{name}.ipynb"
    path.write_text(json.dumps(nb))
    return path


@pytest.mark.parametrize("name, label, question, edits", WRONG, ids=[f"{w[0]}-{w[1]}" for w in WRONG])
def test_wrong_answer_fails(name, label, question, edits, released, tmp_path):
    dest = released[name]
    result = _grade(dest, _wrong_notebook(dest, name, edits, tmp_path))
    assert result["score"] < result["possible"], result
    assert result["tests"][question] < result["question_possible"][question], result
    if (name, label) in STATISTICAL:
        case = STATISTICAL[name, label]
        assert case in result["failed_cases"][question], f"{label}: {case} passed; failed: {result['failed_cases']}"


def test_otter_run_end_to_end(released):
    """The instructors' command, `otter run` (a kernel per submission), on Lab 0."""
    dest = released["lab0_laplace"]
    zip_path = labs.autograder_zip(dest)
    reference = labs.grade(zip_path, dest / "autograder" / "lab0_laplace.ipynb")
    assert reference["score"] == reference["possible"] > 0, reference
    stub = labs.grade(zip_path, dest / "student" / "lab0_laplace.ipynb")
    assert stub["score"] == 0, stub
