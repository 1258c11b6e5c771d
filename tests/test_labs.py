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
import subprocess
import sys
from pathlib import Path

import pytest
from _policy_checks import shared_package_wheel

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
            ("block, epsilon / 2, rng, horizon", "block, epsilon, rng, horizon"),
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
    (
        "lab1_hybrid_counter",
        "tree sized by the block, horizon left out",
        "q2_release",
        [
            (
                "block, epsilon / 2, rng, horizon=t0 - 1",
                "block, epsilon / 2, rng",
            )
        ],
    ),
    (
        "lab3_privbern",
        "estimate clipped to [0, 1] (biased)",
        "q2_debias",
        [
            (
                "return 0.5 + (np.asarray(bit_mean, dtype=float) - 0.5) / factor",
                "return np.clip(0.5 + (np.asarray(bit_mean, dtype=float) - 0.5) / factor, 0.0, 1.0)",
            )
        ],
    ),
    (
        "lab5_above_threshold",
        "no query noise",
        "q1_stop",
        [("if q + rng.laplace(0.0, 4 / epsilon) >= noisy_threshold", "if q >= noisy_threshold")],
    ),
    (
        "lab5_above_threshold",
        "threshold redrawn at each query",
        "q1_stop",
        [
            (
                "if q + rng.laplace(0.0, 4 / epsilon) >= noisy_threshold",
                "if q + rng.laplace(0.0, 4 / epsilon) >= threshold + rng.laplace(0.0, 2 / epsilon)",
            )
        ],
    ),
    (
        "lab5_above_threshold",
        "query noise 2/eps",
        "q1_stop",
        [("rng.laplace(0.0, 4 / epsilon)", "rng.laplace(0.0, 2 / epsilon)")],
    ),
    (
        "lab6_frontier",
        "lock-in counted where no run learned",
        "q1_locked_in",
        [("    if not np.any(finals < threshold / 2):\n        return 0.0\n", "")],
    ),
    ("lab6_frontier", "threshold from the largest gap", "q1_locked_in", [("gaps[gaps > 0].min()", "gaps.max()")]),
    (
        "lab6_frontier",
        "ties only when equal",
        "q2_ranking",
        [("abs(r - low) <= 1e-9 * max(abs(r), abs(low))", "r == low")],
    ),
    (
        "lab6_frontier",
        "replay: the reward of the round before",
        "q3_replay",
        [("agent.update((log[t, arm] - low)", "agent.update((log[t - 1, arm] - low)")],
    ),
    (
        "lab6_frontier",
        "replay: ratings not mapped",
        "q3_replay",
        [("(log[t, arm] - low) / (high - low)", "log[t, arm]")],
    ),
]

#: Answers with no privacy or no information (no noise, constants): each question named scores
#: nothing, since its public sanity checks are worth 0 points: (lab, label, {function: (arguments,
#: line, ...)}).
NO_PRIVACY = [
    ("lab0_laplace", "no noise", {"laplace_release": ("value, sensitivity, epsilon, rng", "return value")}),
    (
        "lab0_laplace",
        "zero release",
        {"laplace_release": ("value, sensitivity, epsilon, rng", "return 0.0 * np.asarray(value, dtype=float)")},
    ),
    (
        "lab1_hybrid_counter",
        "no noise",
        {"hybrid_release": ("stream, epsilon, rng", "return np.cumsum(np.asarray(stream, dtype=float))")},
    ),
    (
        "lab3_privbern",
        "reward as the bit (no noise)",
        {"privbern_release": ("rewards, epsilon, rng", "return (np.asarray(rewards) >= 0.5).astype(np.int64)")},
    ),
    (
        "lab3_privbern",
        "coin flips (no information)",
        {
            "privbern_release": (
                "rewards, epsilon, rng",
                "return (rng.random(np.shape(rewards)) < 0.5).astype(np.int64)",
            )
        },
    ),
    (
        "lab4_private_ridge",
        "constants",
        {
            "gaussian_sigma": ("sensitivity, epsilon, delta", "return 1e6"),
            "tree_sigma": ("epsilon_reg, delta_reg, horizon, l_tilde", "return 1e6"),
            "private_theta": ("M, gamma", "return np.zeros(np.shape(M)[0] - 1)"),
        },
    ),
    (
        "lab5_above_threshold",
        "no noise",
        {
            "above_threshold": (
                "queries, threshold, epsilon, rng",
                "above = np.asarray(queries) >= threshold",
                "return int(above.argmax()) if above.any() else len(queries)",
            )
        },
    ),
    (
        "lab5_above_threshold",
        "never stops",
        {"above_threshold": ("queries, threshold, epsilon, rng", "return len(queries)")},
    ),
    (
        "lab6_frontier",
        "replay: arm 0 in every round",
        {"replay": ("policy, log, seed, low=0.0, high=1.0", "return np.zeros(len(log), dtype=np.int64)")},
    ),
]

#: Answers that call the package's implementation of what the question asks for: the grading
#: guard (tools/lab_guard.py, shipped in the zip) makes it raise, and the question scores nothing.
WRAPPERS = [
    (
        "lab0_laplace",
        "laplace_mechanism",
        {
            "laplace_release": (
                "value, sensitivity, epsilon, rng",
                "from privbandits.mechanisms import laplace_mechanism",
                "return laplace_mechanism(value, sensitivity, epsilon, rng)",
            )
        },
    ),
    (
        "lab1_hybrid_counter",
        "hybrid_prefix_sums",
        {
            "hybrid_release": (
                "stream, epsilon, rng",
                "from privbandits import mechanisms",
                "return mechanisms.hybrid_prefix_sums(stream, epsilon, rng)",
            )
        },
    ),
    (
        "lab2_gdp_index",
        "dp_ncb",
        {
            "phase1_threshold": (
                "horizon, epsilon, c=3.0, constant=1600.0",
                "import privbandits.policies.dp_ncb as d",
                "return d.phase1_threshold_gdp(horizon, epsilon, c, constant)",
            ),
            "gdp_index": (
                "mu_tilde, n, log_t, epsilon, c, alpha",
                "from privbandits.policies.dp_ncb import gdp_index as g",
                "return g(mu_tilde, n, log_t, epsilon, c, alpha)",
            ),
        },
    ),
    (
        "lab3_privbern",
        "privbern",
        {
            "privbern_release": (
                "rewards, epsilon, rng",
                "from privbandits.mechanisms import privbern",
                "return privbern(rewards, epsilon, rng)",
            ),
            "debias": (
                "bit_mean, epsilon",
                "from privbandits.mechanisms import privbern_mean",
                "slope = privbern_mean(1.0, epsilon) - privbern_mean(0.0, epsilon)",
                "return (np.asarray(bit_mean, dtype=float) - privbern_mean(0.0, epsilon)) / slope",
            ),
        },
    ),
    (
        "lab4_private_ridge",
        "gaussian_sigma and tree_sigma",
        {
            "gaussian_sigma": (
                "sensitivity, epsilon, delta",
                "from privbandits import mechanisms",
                "return mechanisms.gaussian_sigma(sensitivity, epsilon, delta)",
            ),
            "tree_sigma": (
                "epsilon_reg, delta_reg, horizon, l_tilde",
                "from privbandits.policies.fair_hiring import calibration",
                "return calibration.tree_sigma(epsilon_reg, delta_reg, horizon, l_tilde)",
            ),
        },
    ),
    (
        "lab5_above_threshold",
        "sparse_vector_budget",
        {
            "svt_split": (
                "horizon, epsilon, sv_fraction",
                "from privbandits.policies.dp_ncb import sparse_vector_budget",
                "b = sparse_vector_budget(horizon, epsilon, sv_fraction)",
                "return b.eps_stop, b.eps_per_release",
            )
        },
    ),
    (
        "lab6_frontier",
        "tail_summary and ranking",
        {
            "locked_in_fraction": (
                "finals, gaps, horizon",
                "from privbandits import bernoulli_instance, frontier",
                "instance = bernoulli_instance(np.max(gaps) - np.asarray(gaps, dtype=float))",
                "return frontier.tail_summary(np.asarray(finals, dtype=float), instance, horizon).locked_in",
            ),
            "winners": ("regrets", "from privbandits.frontier import ranking", "return ranking(regrets)[0]"),
        },
    ),
    (
        "lab6_frontier",
        "policy.run on the log as a reward table",
        {
            "replay": (
                "policy, log, seed, low=0.0, high=1.0",
                "from privbandits import bernoulli_instance",
                "table = (np.asarray(log, dtype=float) - low) / (high - low)",
                "instance = bernoulli_instance(np.full(table.shape[1], 0.5)).with_table(table)",
                "return policy.run(instance, len(table), np.random.default_rng(seed))['arms']",
            )
        },
    ),
]

#: The question each function of NO_PRIVACY and WRAPPERS answers.
QUESTION_OF = {
    "laplace_release": "q2_release",
    "hybrid_release": "q2_release",
    "privbern_release": "q1_release",
    "gaussian_sigma": "q1_gaussian",
    "tree_sigma": "q2_tree_sigma",
    "private_theta": "q3_ridge",
    "above_threshold": "q1_stop",
    "phase1_threshold": "q1_threshold",
    "gdp_index": "q2_index",
    "debias": "q2_debias",
    "svt_split": "q2_budget",
    "locked_in_fraction": "q1_locked_in",
    "winners": "q2_ranking",
    "replay": "q3_replay",
}

#: Routes to a question's answer through the package's private helpers, numba kernels and aliases
#: (the guard blocks every call of the package from the submission, whatever its name): each
#: question named scores nothing and is told that its code calls the package.
PRIVATE_ROUTES = [
    (
        "lab0_laplace",
        "laplace_draw kernel through getattr",
        {
            "laplace_release": (
                "value, sensitivity, epsilon, rng",
                "import privbandits.mechanisms as m",
                "draw = getattr(m, 'laplace' + '_draw')",
                "v = np.asarray(value, dtype=float)",
                "b = laplace_scale(sensitivity, epsilon)",
                "out = v + np.array([draw(rng, b) for _ in range(v.size)]).reshape(v.shape)",
                "return float(out) if out.ndim == 0 else out",
            )
        },
    ),
    (
        "lab1_hybrid_counter",
        "private _hybrid_prefix_sums kernel",
        {
            "hybrid_release": (
                "stream, epsilon, rng",
                "from privbandits.mechanisms import _hybrid_prefix_sums as h",
                "return h(np.asarray(stream, dtype=float), epsilon / 2, epsilon / 2, rng)",
            )
        },
    ),
    (
        "lab2_gdp_index",
        "np.vectorize of the package's threshold",
        {
            "phase1_threshold": (
                "horizon, epsilon, c=3.0, constant=1600.0",
                "from privbandits.policies import dp_ncb",
                "return float(np.vectorize(dp_ncb.phase1_threshold_gdp)(horizon, epsilon, c, constant))",
            )
        },
    ),
    (
        "lab3_privbern",
        "thresholding.mapped_mean and thresholding._observe",
        {
            "privbern_release": (
                "rewards, epsilon, rng",
                "from privbandits.policies import thresholding",
                "r = np.asarray(rewards, dtype=float)",
                "bits = [thresholding._observe(rng, x, epsilon, thresholding.PRIVBERN) for x in r.ravel()]",
                "return np.asarray(bits).reshape(r.shape).astype(np.int64)",
            ),
            "debias": (
                "bit_mean, epsilon",
                "from privbandits.policies.thresholding import mapped_mean",
                "f = [mapped_mean][0]",
                "lo, hi = f(0.0, epsilon), f(1.0, epsilon)",
                "return (np.asarray(bit_mean, dtype=float) - lo) / (hi - lo)",
            ),
        },
    ),
    (
        "lab4_private_ridge",
        "a dict of package functions",
        {
            "gaussian_sigma": (
                "sensitivity, epsilon, delta",
                "from privbandits import mechanisms",
                "table = {'sigma': mechanisms.gaussian_sigma}",
                "return table['sigma'](sensitivity, epsilon, delta)",
            )
        },
    ),
    (
        "lab5_above_threshold",
        "laplace_draw kernel for the noise",
        {
            "above_threshold": (
                "queries, threshold, epsilon, rng",
                "from privbandits.mechanisms import laplace_draw",
                "noisy_threshold = threshold + laplace_draw(rng, 2 / epsilon)",
                "for i, q in enumerate(queries):",
                "    if q + laplace_draw(rng, 4 / epsilon) >= noisy_threshold:",
                "        return i",
                "return len(queries)",
            )
        },
    ),
    (
        "lab6_frontier",
        "frontier.is_tie in the student's loop",
        {
            "winners": (
                "regrets",
                "from privbandits import frontier",
                "finite = {k: float(v) for k, v in regrets.items() if np.isfinite(v)}",
                "low = min(finite.values())",
                "return [k for k, v in finite.items() if frontier.is_tie(v, low)]",
            )
        },
    ),
    (
        "lab6_frontier",
        "the agent's compiled steps called without the agent",
        {
            "replay": (
                "policy, log, seed, low=0.0, high=1.0",
                "log = (np.asarray(log, dtype=float) - low) / (high - low)",
                "n_rounds, n_arms = log.shape",
                "rng = np.random.default_rng(seed)",
                "args = policy._step_args(n_arms, n_rounds)",
                "state = policy._init(n_arms, n_rounds, *args)",
                "arms = []",
                "for t in range(n_rounds):",
                "    arms.append(int(policy._choose(rng, state, t, n_rounds, *args)))",
                "    policy._update(rng, state, t, arms[-1], float(log[t, arms[-1]]), n_rounds, *args)",
                "return np.array(arms)",
            )
        },
    ),
]

#: A class, as the rules grade it (Labs 0, 3 and 5): (lab, label, change, {question: points}). A
#: change is ("functions", {function: (arguments, line, ...)}), ("edits", [(old, new)]) or
#: ("cell", source inserted before the first answer). The rules: a private release scores all its
#: points or none (all_or_nothing), so no noise, half the noise, a constant and a release that
#: ignores the sensitivity score nothing on it; a call of the package scores nothing; a cell that
#: raises costs only what it defines; an endless loop in a function costs only its question.
CLASS_RUN = [
    ("lab0_laplace", "correct", ("edits", []), {"q1_scale": 2, "q2_release": 4}),
    ("lab0_laplace", "no noise", ("functions", dict(NO_PRIVACY[0][2])), {"q1_scale": 2, "q2_release": 0}),
    ("lab0_laplace", "constant", ("functions", dict(NO_PRIVACY[1][2])), {"q1_scale": 2, "q2_release": 0}),
    ("lab0_laplace", "wrapper", ("functions", dict(WRAPPERS[0][2])), {"q1_scale": 2, "q2_release": 0}),
    (
        "lab0_laplace",
        "private-helper wrapper",
        ("functions", dict(PRIVATE_ROUTES[0][2])),
        {"q1_scale": 2, "q2_release": 0},
    ),
    ("lab0_laplace", "half noise", ("edits", WRONG[1][3]), {"q1_scale": 2, "q2_release": 0}),
    (
        "lab0_laplace",
        "sensitivity ignored",
        ("edits", [("laplace_scale(sensitivity, epsilon), size", "laplace_scale(1.0, epsilon), size")]),
        {"q1_scale": 2, "q2_release": 0},
    ),
    ("lab0_laplace", "a raising cell", ("cell", "raise RuntimeError('unfinished')"), {"q1_scale": 2, "q2_release": 4}),
    (
        "lab0_laplace",
        "endless loop",
        ("functions", {"laplace_release": ("value, sensitivity, epsilon, rng", "while True:", "    pass")}),
        {"q1_scale": 2, "q2_release": 0},
    ),
    ("lab3_privbern", "correct", ("edits", []), {"q1_release": 3, "q2_debias": 3}),
    ("lab3_privbern", "no noise", ("functions", dict(NO_PRIVACY[3][2])), {"q1_release": 0, "q2_debias": 3}),
    ("lab3_privbern", "constant", ("functions", dict(NO_PRIVACY[4][2])), {"q1_release": 0, "q2_debias": 3}),
    ("lab3_privbern", "wrapper", ("functions", dict(WRAPPERS[3][2])), {"q1_release": 0, "q2_debias": 0}),
    (
        "lab3_privbern",
        "private-helper wrapper",
        ("functions", dict(PRIVATE_ROUTES[3][2])),
        {"q1_release": 0, "q2_debias": 0},
    ),
    ("lab3_privbern", "half noise", ("edits", WRONG[6][3]), {"q1_release": 0, "q2_debias": 3}),
    (  # the release takes no sensitivity: its analogue, the reward's range ignored (rounded to a bit)
        "lab3_privbern",
        "sensitivity ignored",
        (
            "edits",
            [
                (
                    "p = (r * np.exp(epsilon) + 1 - r) / (1 + np.exp(epsilon))",
                    "p = (np.round(r) * np.exp(epsilon) + 1 - np.round(r)) / (1 + np.exp(epsilon))",
                )
            ],
        ),
        {"q1_release": 0, "q2_debias": 3},
    ),
    ("lab3_privbern", "a raising cell", ("cell", "import no_such_module"), {"q1_release": 3, "q2_debias": 3}),
    (
        "lab3_privbern",
        "endless loop",
        ("functions", {"debias": ("bit_mean, epsilon", "while True:", "    pass")}),
        {"q1_release": 3, "q2_debias": 0},
    ),
    ("lab5_above_threshold", "correct", ("edits", []), {"q1_stop": 4, "q2_budget": 2}),
    ("lab5_above_threshold", "no noise", ("functions", dict(NO_PRIVACY[6][2])), {"q1_stop": 0, "q2_budget": 2}),
    ("lab5_above_threshold", "constant", ("functions", dict(NO_PRIVACY[7][2])), {"q1_stop": 0, "q2_budget": 2}),
    ("lab5_above_threshold", "wrapper", ("functions", dict(WRAPPERS[5][2])), {"q1_stop": 4, "q2_budget": 0}),
    (
        "lab5_above_threshold",
        "private-helper wrapper",
        ("functions", dict(PRIVATE_ROUTES[5][2])),
        {"q1_stop": 0, "q2_budget": 2},
    ),
    ("lab5_above_threshold", "half noise", ("edits", WRONG[10][3]), {"q1_stop": 0, "q2_budget": 2}),
    (  # the rule takes no sensitivity: its analogue, each noisy value scaled as one count query's
        "lab5_above_threshold",
        "sensitivity ignored",
        (
            "edits",
            [
                ("rng.laplace(0.0, 2 / epsilon)", "rng.laplace(0.0, 1 / epsilon)"),
                ("rng.laplace(0.0, 4 / epsilon)", "rng.laplace(0.0, 1 / epsilon)"),
            ],
        ),
        {"q1_stop": 0, "q2_budget": 2},
    ),
    ("lab5_above_threshold", "a raising cell", ("cell", "1 / 0"), {"q1_stop": 4, "q2_budget": 2}),
    (
        "lab5_above_threshold",
        "endless loop",
        ("functions", {"above_threshold": ("queries, threshold, epsilon, rng", "while True:", "    pass")}),
        {"q1_stop": 0, "q2_budget": 2},
    ),
]

#: Broken AboveThreshold rules may keep at most the audit's point of q1_stop (they are private).
AT_MOST = {
    ("lab5_above_threshold", label): ("q1_stop", 1.0)
    for label in ("no query noise", "threshold redrawn at each query", "query noise 2/eps")
}

#: Wrong answers that a statistical test case (the auditor, or a goodness-of-fit test against the
#: package's mechanism) must catch, not only a comparison of formulas: (lab, label) -> that case.
STATISTICAL = {
    ("lab0_laplace", "release with half the noise"): "test_release_audit",
    ("lab1_hybrid_counter", "epsilon to each part (Tossou and Dimitrakakis)"): "test_release_matches_package",
    ("lab3_privbern", "release at 2 epsilon (noise halved)"): "test_release_audit",
    ("lab4_private_ridge", "Gaussian sigma halved"): "test_sigma_audit",
    ("lab5_above_threshold", "noise halved"): "test_stop_law",
    ("lab1_hybrid_counter", "tree sized by the block, horizon left out"): "test_release_matches_package",
    ("lab3_privbern", "estimate clipped to [0, 1] (biased)"): "test_debias_unbiased",
    ("lab5_above_threshold", "no query noise"): "test_stop_law",
    ("lab5_above_threshold", "threshold redrawn at each query"): "test_stop_law",
    ("lab5_above_threshold", "query noise 2/eps"): "test_stop_law",
}


def test_every_lab_has_a_wrong_answer():
    assert len(LABS) >= 6
    assert {w[0] for w in WRONG} == set(LABS)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The package's wheel, built once per run (not once per worker and module), as ``labs.package_wheel()``."""
    return shared_package_wheel(labs, tmp_path_factory)


@pytest.fixture(scope="module")
def released(tmp_path_factory, wheel):
    out = tmp_path_factory.mktemp("labs")
    dists = {}
    for name in LABS:
        dest = labs.assign(name, out / name, run_tests=False)
        labs.extract_tests(dest)
        dists[name] = dest
    return dists


def _grade(dest: Path, notebook: Path, **options) -> dict:
    return labs.grade_in_process(dest / "tests", notebook, **options)


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
    if (name, label) in AT_MOST:
        q, most = AT_MOST[name, label]
        assert result["tests"][q] <= most, result
    _assert_feedback(result)


def _replace_functions(dest: Path, name: str, functions: dict, tmp_path: Path) -> Path:
    nb = json.loads((dest / "autograder" / f"{name}.ipynb").read_text())
    for func, (arguments, *lines) in functions.items():
        code = f"def {func}({arguments}):\n" + "".join(f"    {line}\n" for line in lines)
        hits = [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).startswith(f"def {func}(")]
        assert len(hits) == 1, f"{name}: {func} is defined in {len(hits)} cells"
        hits[0]["source"] = code
    path = tmp_path / f"{name}.ipynb"
    path.write_text(json.dumps(nb))
    return path


@pytest.mark.parametrize("name, label, functions", NO_PRIVACY, ids=[f"{w[0]}-{w[1]}" for w in NO_PRIVACY])
def test_no_privacy_scores_nothing(name, label, functions, released, tmp_path):
    """No noise, or an answer that ignores its input, earns no more than the sanity checks (0 points)."""
    dest = released[name]
    result = _grade(dest, _replace_functions(dest, name, functions, tmp_path))
    for func in functions:
        assert result["tests"][QUESTION_OF[func]] == 0, (label, result)
    _assert_feedback(result)
    from otter.test_files import create_test_file

    cases = [c for f in (dest / "tests").glob("*.py") for c in create_test_file(str(f), None).test_cases]
    public = [c.points for c in cases if not c.hidden]
    assert public and all(p == 0 for p in public), f"public sanity checks carry points: {public}"


def test_student_checks_work_in_a_renamed_notebook(released, tmp_path):
    """`grader.check` in plain Jupyter (a kernel, no book) in a notebook renamed on download; the
    student notebook's markdown has no site-only syntax and shows each question's points."""
    import nbformat
    from nbclient import NotebookClient

    dest = released["lab0_laplace"]
    student = json.loads((dest / "student" / "lab0_laplace.ipynb").read_text())
    text = "".join("".join(c["source"]) for c in student["cells"] if c["cell_type"] == "markdown")
    assert "{doc}" not in text and "\\eps" not in text.replace("\\epsilon", ""), "site-only syntax"
    assert "**Question 1** (2 points)" in text and "**Question 2** (4 points)" in text
    nb = json.loads((dest / "autograder" / "lab0_laplace.ipynb").read_text())  # the stubs filled in
    path = tmp_path / "lab0_laplace (1).ipynb"
    path.write_text(json.dumps(nb))
    (tmp_path / "notes.ipynb").write_text(json.dumps(nbformat.v4.new_notebook()))  # another notebook there
    executed = NotebookClient(nbformat.read(path, 4), timeout=600, resources={"metadata": {"path": str(tmp_path)}})
    executed = executed.execute()
    checks = [c for c in executed.cells if c.cell_type == "code" and "grader.check(" in c.source]
    assert len(checks) == 2
    for cell in checks:
        shown = json.dumps(cell.outputs)
        assert "passed" in shown and "Error" not in shown, shown


def test_batch_grading_survives_bad_submissions(released, tmp_path):
    """The instructors' command (the sealed runner: a fresh Python per submission, two at a time) on a batch of
    Lab 0 with a renamed copy of the reference under another kernel's name, the stub, a truncated
    upload, the reference with an endless loop in a top-level cell before its second answer, and an
    answer that wraps the package: the truncated upload is reported with the reason; the loop's cell
    is stopped after the cell limit and the rest of that notebook graded (full marks: the loop
    costs only its cell); the wrapper scores 0 on its question, told so in words; the gradebook has
    a line for each."""
    dest = released["lab0_laplace"]
    reference = json.loads((dest / "autograder" / "lab0_laplace.ipynb").read_text())
    reference["metadata"]["kernelspec"] = {
        "name": "conda-env-course-py",
        "display_name": "Course",
        "language": "python",
    }
    renamed = tmp_path / "lab0_laplace (1).ipynb"
    renamed.write_text(json.dumps(reference))
    truncated = tmp_path / "truncated.ipynb"
    truncated.write_text(json.dumps(reference)[:5000])
    looping = json.loads((dest / "autograder" / "lab0_laplace.ipynb").read_text())
    second = next(i for i, c in enumerate(looping["cells"]) if "".join(c["source"]).startswith("def laplace_release("))
    loop_cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    looping["cells"].insert(second, {**loop_cell, "source": "while True:\n    pass"})
    endless = tmp_path / "endless.ipynb"
    endless.write_text(json.dumps(looping))
    wrapper = _replace_functions(dest, "lab0_laplace", dict(WRAPPERS[0][2]), tmp_path)  # calls the package
    subs = [renamed, dest / "student" / "lab0_laplace.ipynb", truncated, endless, wrapper]
    # the cell limit: Lab 0's other top-level cells (imports, definitions, two public checks) take
    # milliseconds; the loop burns a core until the limit stops it
    rows = labs.grade_batch(labs.autograder_zip(dest), subs, jobs=2, timeout=900, cell_seconds=5)
    ref, stub, bad, loop, wrapped = rows
    assert wrapped["tests"] == {"q1_scale": 2.0, "q2_release": 0.0}, wrapped  # the guard works in the runner
    said = wrapped["messages"]["q2_release"]
    assert "your code calls the package's privbandits.mechanisms.laplace_mechanism" in said, said
    assert "default_rng" not in said and "seed(" not in said, said
    assert ref["score"] == ref["possible"] > 0 and ref["attempts"] == 1 and ref["cpu_seconds"] > 0, ref
    assert stub["score"] == 0, stub
    assert bad["score"] is None and "not a notebook" in bad["error"], bad
    assert loop["score"] == loop["possible"] > 0 and loop["seconds"] >= 5, loop
    assert "auditor" not in ref["messages"]["q2_release"] and ref["messages"]["q2_release"], ref["messages"]
    gradebook = tmp_path / "gradebook.csv"
    labs.write_gradebook(rows, gradebook)
    lines = gradebook.read_text().splitlines()
    header = "submission,score,possible,q1_scale,q2_release,seconds,cpu_seconds,attempts,error"
    assert lines[0] == header and len(lines) == 6, lines
    assert json.loads((tmp_path / "gradebook.csv.messages.json").read_text())[str(truncated)]["error"]


@pytest.mark.parametrize("runner", labs.RUNNERS)
def test_a_kernel_that_does_not_start_is_tried_again(runner, released, tmp_path, monkeypatch):
    """A kernel (or the sealed runner's process) that does not start or dies (a loaded machine) is
    tried again; if it never starts, the gradebook says so in the submission's error column and the
    batch goes on."""
    calls = []

    def flaky(zip_path, submission, notebook, python, timeout, cell_seconds):
        calls.append(submission.name)
        if submission.name == "never.ipynb" or calls.count(submission.name) == 1:
            raise labs._KernelFailure("RuntimeError: Kernel didn't respond in 300 seconds", 1.5)
        return {"score": 6.0, "possible": 6.0, "tests": {"q1_scale": 2.0, "q2_release": 4.0}, "messages": {}}, 4.0

    monkeypatch.setattr(labs, "_otter_run" if runner == "otter" else "_sealed_run", flaky)
    monkeypatch.setattr(labs.time, "sleep", lambda seconds: None)
    reference = released["lab0_laplace"] / "autograder" / "lab0_laplace.ipynb"
    (tmp_path / "never.ipynb").write_text(reference.read_text())
    unused_zip = tmp_path / "unused.zip"  # must exist (grade_batch checks it); _otter_run is replaced
    unused_zip.touch()
    rows = labs.grade_batch(unused_zip, [reference, tmp_path / "never.ipynb"], jobs=1, runner=runner)
    assert rows[0]["score"] == 6.0 and rows[0]["attempts"] == 2 and rows[0]["cpu_seconds"] == 5.5, rows[0]
    assert rows[1]["score"] is None and "did not start or died, 2 attempts" in rows[1]["error"], rows[1]
    labs.write_gradebook(rows, tmp_path / "gradebook.csv")
    last = (tmp_path / "gradebook.csv").read_text().splitlines()[-1]
    assert "Kernel didn't respond" in last, last


# A grading whose command leaves a process behind in a session of its own, as jupyter_client starts
# the kernel, with the command's output still open: the child's pid goes to a file, then it sleeps.
_LEAVES_A_CHILD = """
import pathlib, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
pathlib.Path(sys.argv[2]).write_text(str(child.pid))
print("child started", flush=True)
time.sleep(float(sys.argv[1]))
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, killed but not yet reaped by its new parent, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="finds the left processes in Linux's /proc")
@pytest.mark.parametrize("parent_seconds, timeout", [(0.0, 60.0), (600.0, 3.0)], ids=["exits", "times out"])
def test_a_grading_stops_what_it_leaves_running_and_never_hangs(parent_seconds, timeout, tmp_path):
    """CI once hung here until its 90 minutes ran out: a grading's kernel, in a session of its own,
    outlived a stopped ``otter run`` and held its output pipe, which ``_run_group`` read to the end.
    Now the call returns when the command ends (or its time runs out) and the left process is killed.
    Run in a thread so that a regression fails this test instead of hanging the suite."""
    import threading
    import time

    done: dict = {}
    pid_file = tmp_path / "child.pid"
    cmd = [sys.executable, "-c", _LEAVES_A_CHILD, str(parent_seconds), str(pid_file)]

    def call():
        try:
            done["result"] = labs._run_group(cmd, env=None, cwd=None, timeout=timeout)
        except TimeoutError as exc:
            done["timeout"] = exc

    start = time.monotonic()
    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "the grading call hung on the process its command left running"
    if parent_seconds:
        assert "timeout" in done and "longer than 3 s" in str(done["timeout"]), done
    else:
        output, code, _ = done["result"]
        assert code == 0 and "child started" in output and time.monotonic() - start < 60, (output, code)
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), "the process the command left running is still alive"


def test_autograder_zip_carries_its_environment(released, tmp_path):
    """In a venv holding ONLY what the autograder zip installs (its environment.yml's pip list: otter,
    the pinned libraries and the package's wheel shipped in the zip), `otter run` grades the
    reference at full marks and a planted wrong answer below: what Gradescope or `otter grade`
    would do with the zip (there in conda's Python of the same version); the sealed runner
    (``labs.py grade``'s default) grades the reference at full marks there too."""
    from concurrent.futures import ThreadPoolExecutor

    zips = {name: labs.autograder_zip(released[name]) for name in ("lab0_laplace", "lab1_hybrid_counter")}
    requirements = labs.zip_requirements(zips["lab0_laplace"])
    assert any(r.startswith("otter-grader[grading]==") for r in requirements), requirements
    assert {"numpy", "scipy"} <= {r.split("==")[0] for r in requirements}, requirements
    assert any(r.startswith("./files/privbandits-") and r.endswith(".whl") for r in requirements), requirements
    python = labs.grading_environment(zips["lab0_laplace"], tmp_path / "venv")
    # the venv is isolated: the package comes from the zip's wheel, and what only the machine has is absent
    probe = "import importlib.util as u, privbandits; print(privbandits.__file__); print(u.find_spec('pytest'))"
    out = labs.subprocess.run([str(python), "-c", probe], capture_output=True, text=True, env=labs._clean_env(python))
    assert out.returncode == 0, out.stderr
    location, pytest_spec = out.stdout.split("\n")[:2]
    assert location.startswith(str(tmp_path / "venv")) and pytest_spec == "None", out.stdout

    lab0 = released["lab0_laplace"]
    edits = next(w[3] for w in WRONG if w[:2] == ("lab0_laplace", "release with half the noise"))
    wrong = _wrong_notebook(lab0, "lab0_laplace", edits, tmp_path)  # caught by the auditor, from the wheel
    jobs = [
        (zips["lab0_laplace"], lab0 / "autograder" / "lab0_laplace.ipynb", "otter"),
        (zips["lab0_laplace"], wrong, "otter"),
        (
            zips["lab1_hybrid_counter"],
            released["lab1_hybrid_counter"] / "autograder" / "lab1_hybrid_counter.ipynb",
            "otter",
        ),
        (zips["lab0_laplace"], lab0 / "autograder" / "lab0_laplace.ipynb", "sealed"),
    ]
    # each grading may take its kernel's whole start patience (KERNEL_START_SECONDS) and then grade
    timeout = 2 * labs.KERNEL_START_SECONDS
    with ThreadPoolExecutor(len(jobs)) as pool:
        ref0, wrong0, ref1, sealed0 = pool.map(
            lambda job: labs.grade(*job[:2], python=python, timeout=timeout, runner=job[2]), jobs
        )
    assert sealed0["score"] == sealed0["possible"] > 0 and sealed0["tampered"] is None, sealed0
    assert ref0["score"] == ref0["possible"] > 0, ref0
    assert ref1["score"] == ref1["possible"] > 0, ref1
    assert wrong0["tests"]["q2_release"] < ref0["tests"]["q2_release"], wrong0
    assert "auditor found a privacy violation" in wrong0["messages"]["q2_release"], wrong0["messages"]


@pytest.mark.parametrize("name, label, functions", WRAPPERS, ids=[f"{w[0]}-{w[1]}" for w in WRAPPERS])
def test_calling_the_package_scores_nothing(name, label, functions, released, tmp_path):
    """A submission that wraps the package's implementation of a question scores zero on it."""
    dest = released[name]
    result = _grade(dest, _replace_functions(dest, name, functions, tmp_path))
    for func in functions:
        question = QUESTION_OF[func]
        assert result["tests"][question] == 0, (label, result)
        assert set(result["failed_cases"][question]) >= {
            c
            for f in [dest / "tests" / f"{question}.py"]
            for c in re.findall(r"hidden=True\)\ndef (\w+)", f.read_text())
        }, result
    _assert_feedback(result)


def test_syllabus_points_are_the_labs(released):
    """The syllabus's table of points is what each lab's tests are worth, and lists every lab."""
    text = (ROOT / "book" / "labs" / "syllabus.md").read_text()
    table = dict(re.findall(r"^\| \{doc\}`(lab\w+)` \| (\d+) \|$", text, flags=re.M))
    assert set(table) == set(LABS), table
    for name in LABS:
        tests = released[name] / "tests"
        assert sum(labs._question_points_of(tests)) == float(table[name]), name


def _site_extension():
    """``_ext/run_it_yourself.py``, the Sphinx extension that serves the labs' student notebooks."""
    spec = importlib.util.spec_from_file_location("run_it_yourself_for_tests", ROOT / "_ext" / "run_it_yourself.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", LABS)
def test_lab_page_says_how_a_student_receives_it(name):
    """The page opens with its title and the chapter it practises (a link to a page of the book),
    then the ``lab-notebook`` note in the one cell tagged ``book-only`` (which the student notebook
    leaves out); the page has no hidden test (they live in ``labs_hidden/``)."""
    cells = json.loads((ROOT / "book" / "labs" / f"{name}.ipynb").read_text())["cells"]
    first = "".join(cells[0]["source"])
    assert cells[0]["cell_type"] == "markdown" and first.startswith("# Lab "), first[:80]
    chapters = re.findall(r"\{doc\}`\.\./([\w/]+)`", first)
    assert chapters and all(list((ROOT / "book").glob(f"{c}.*")) for c in chapters), chapters
    tagged = [i for i, c in enumerate(cells) if labs.BOOK_ONLY in c.get("metadata", {}).get("tags", [])]
    assert tagged == [1], tagged
    assert "".join(cells[1]["source"]).split() == [":::{lab-notebook}", ":::"]
    assert not [c for c in cells if "BEGIN TEST CONFIG" in "".join(c["source"])]  # labs_hidden/ only


def test_site_serves_the_released_student_notebook(released, tmp_path):
    """The book's build writes each lab page's student notebook under ``run/labs/`` (the
    extension's ``build-finished`` step, through ``tools/labs.py``): the notebook ``release`` gives
    students, with no site-only syntax; in the student edition, where the page already is the
    student notebook, it serves the page's notebook."""
    from types import SimpleNamespace

    ext = _site_extension()

    def build(srcdir: Path, outdir: Path) -> Path:
        (outdir / "run").mkdir(parents=True)
        (outdir / "run" / ext.wheel_name()).write_bytes(b"stand-in")  # only zipped into the autograder
        docs = {"book/intro", "book/labs/labs", "book/labs/instructors", "book/labs/lab0_laplace"}
        app = SimpleNamespace(
            builder=SimpleNamespace(format="html"),
            env=SimpleNamespace(found_docs=docs),
            srcdir=str(srcdir),
            outdir=str(outdir),
        )
        ext._ship_labs(app, None)
        return outdir / "run" / "labs"

    served = build(ROOT, tmp_path / "full")
    assert sorted(p.name for p in served.iterdir()) == ["lab0_laplace.ipynb"]
    student = json.loads((served / "lab0_laplace.ipynb").read_text())
    released_nb = json.loads((released["lab0_laplace"] / "student" / "lab0_laplace.ipynb").read_text())
    assert [c["source"] for c in student["cells"]] == [c["source"] for c in released_nb["cells"]]
    text = json.dumps(student)
    for site_only in ("# BEGIN SOLUTION", "hidden: true", "lab-notebook", ":::", "{doc}", labs.BOOK_ONLY):
        assert site_only not in text, site_only
    assert labs.is_master(ROOT / "book" / "labs" / "lab0_laplace.ipynb")
    assert not labs.is_master(served / "lab0_laplace.ipynb")

    edition = tmp_path / "edition" / "book" / "labs"  # the student edition's tree: the page is the student's
    edition.mkdir(parents=True)
    (edition / "lab0_laplace.ipynb").write_text(json.dumps(student))
    served = build(tmp_path / "edition", tmp_path / "student_site")
    assert json.loads((served / "lab0_laplace.ipynb").read_text()) == student


def test_built_lab_pages_link_their_student_notebook():
    """On the full build (``_build/html``, as CI builds it before the tests), each lab page links
    its student notebook under ``run/labs/``, and the site serves that file."""
    html = ROOT / "_build" / "html"
    if not (html / "index.html").exists():
        pytest.skip("build the book first (jupyter-book build .)")
    for name in LABS:
        page = (html / "book" / "labs" / f"{name}.html").read_text()
        links = re.findall(r'href="([^"]*run/labs/[^"]*)"', page)
        assert links == [f"../../run/labs/{name}.ipynb"], (name, links)
        served = html / "run" / "labs" / f"{name}.ipynb"
        assert served.is_file(), served
        assert "# BEGIN SOLUTION" not in served.read_text()


def test_student_text_names_the_book_pages_it_cannot_link():
    # a student notebook is often downloaded on its own, where a relative link to a page breaks
    text = labs._plain_markdown("*Part IV, {doc}`../part4_fair_hiring/fair_hiring`. Use $\\eps$.*", [1.0])
    assert "](" not in text and "{doc}" not in text and "\\eps" not in text
    assert "“Private and meritocratically fair hiring” (a page of the book)" in text


def _guard():
    """``tools/lab_guard.py``, imported as the grading kernel imports it."""
    if str(labs.GUARD.parent) not in sys.path:
        sys.path.insert(0, str(labs.GUARD.parent))
    import lab_guard

    return lab_guard


def _assert_feedback(result: dict, name: str | None = None) -> None:
    """Every failed hidden check tells the student what is wrong in words: otter quotes the test's
    ``with hidden_test(...)`` line (not the line that failed) and the message, with no seed (and,
    given the lab, none of its hidden tests' code lines or ``seed(n)`` calls)."""
    found = labs.hidden_fingerprints(name) if name else {"lines": set(), "seeds": set()}
    for question, cases in result["messages"].items():
        for case, message in cases.items():
            leaks = [x for x in found["lines"] | found["seeds"] if x in message]
            assert not leaks, (question, case, leaks)
            lines = message.split("\n")
            assert lines[2].strip().startswith("with hidden_test("), (question, case, message)
            said = lines[-1]
            assert said.startswith(("Feedback: ", "PackageCalled: ")), (question, case, message)
            words = said.split(": ", 1)[1]
            assert len(words) > 20 and not words.startswith("("), (question, case, message)
            for code in ("default_rng", "seed(", "seed=", "assert "):
                assert code not in message, (question, case, code, message)


def _sanitised_names(functions: dict) -> str:
    return "-".join(sorted(functions))


@pytest.mark.parametrize("name, label, functions", PRIVATE_ROUTES, ids=[f"{w[0]}-{w[1]}" for w in PRIVATE_ROUTES])
def test_private_routes_to_the_answer_score_nothing(name, label, functions, released, tmp_path):
    """Private helpers, numba kernels and aliases of the package are blocked like its public answer."""
    dest = released[name]
    result = _grade(dest, _replace_functions(dest, name, functions, tmp_path))
    for func in functions:
        question = QUESTION_OF[func]
        assert result["tests"][question] == 0, (label, result)
        said = " ".join(result["messages"][question].values())
        assert "your code calls the package's privbandits." in said, (label, result["messages"])
    _assert_feedback(result)


def test_guard_blocks_every_package_callable(tmp_path):
    """Found by introspection: every callable the package defines (public and private functions,
    methods, numba kernels, lru_cache wrappers; classes through their methods), called from a
    submission inside a hidden check, fails it with PackageCalled; the same call from the test
    itself is free, and so is what a lab allows."""
    import dataclasses

    guard = _guard()
    found = guard.package_callables()
    assert len(found) > 150, len(found)
    assert {
        "privbandits.policies.thresholding._observe",
        "privbandits.policies.thresholding.mapped_mean",
        "privbandits.mechanisms.laplace_draw",
    } <= set(found)
    student = {}
    source = (
        "import numpy as np\n"
        "from privbandits.mechanisms import binary_tree_prefix_sums\n"
        "def call(f, n, keywords=()):\n"
        "    out = f(*([None] * n), **dict.fromkeys(keywords))\n"
        "    return next(out) if hasattr(out, '__next__') else out\n"
        "def tree():\n    return binary_tree_prefix_sums(np.zeros(4), 1.0, np.random.default_rng(0))\n"
    )
    exec(compile(source, str(tmp_path / "submission.ipynb"), "exec"), student)

    def arguments(obj) -> tuple[int, list[str]]:  # required positional count, required keywords
        import inspect

        try:
            params = inspect.signature(obj).parameters.values()
        except (TypeError, ValueError):
            return 0, []
        required = [p for p in params if p.default is p.empty]
        positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in required)
        return positional, [p.name for p in required if p.kind is p.KEYWORD_ONLY]

    def own_code(obj) -> bool:  # a class whose construction runs package code
        return any(
            getattr(getattr(obj, m, None), "__code__", None) is not None
            and getattr(obj, m).__code__.co_filename.startswith(str(ROOT / "pkg"))
            for m in ("__init__", "__new__") + (("__post_init__",) if dataclasses.is_dataclass(obj) else ())
        )

    missed = []
    for dotted, obj in found.items():
        if isinstance(obj, type) and (getattr(obj, "__abstractmethods__", None) or not own_code(obj)):
            continue  # a record or an abstract class: constructing it computes nothing (its methods are probed)
        try:
            with guard.hidden_test(seconds=30):
                student["call"](obj, *arguments(obj))
        except guard.PackageCalled as exc:
            assert "your code calls the package's privbandits." in str(exc), (dotted, exc)
        except BaseException as exc:  # noqa: BLE001
            missed.append(f"{dotted}: {type(exc).__name__}: {exc}")
        else:
            missed.append(f"{dotted}: no error")
    assert not missed, "\n".join(missed)

    from privbandits.mechanisms import privbern_mean

    with guard.hidden_test(seconds=30):  # the test calls the package: free
        privbern_mean(0.3, 1.0)
    allowed = "privbandits.mechanisms.binary_tree_prefix_sums"
    with guard.hidden_test(allow=(allowed,), seconds=30):  # what the lab allows
        student["tree"]()
    with pytest.raises(guard.PackageCalled, match="binary_tree_prefix_sums"):  # not allowed here
        with guard.hidden_test(seconds=30):
            student["tree"]()
    with pytest.raises(guard.PackageCalled):  # caught by the submission: still a failure
        with guard.hidden_test(seconds=30):
            try:
                student["call"](privbern_mean, 2)
            except Exception:  # noqa: BLE001
                pass


def test_guard_feedback_time_limit_and_seeds(tmp_path):
    """A failed check says what is wrong in words; a loop stops at the time limit; ``seed(n)`` is n
    without a term and a fresh seed for each term."""
    guard = _guard()
    student = {}
    exec(
        compile(
            "def loop():\n    while True:\n        try:\n            pass\n"
            "        except Exception:\n            pass\n"
            "def boom(x):\n    return x.nope\n",
            str(tmp_path / "submission.ipynb"),
            "exec",
        ),
        student,
    )
    with pytest.raises(guard.Feedback, match=r"stopped after 1 s: your code took too long"):
        with guard.hidden_test(seconds=1):
            student["loop"]()
    with pytest.raises(
        guard.Feedback, match=r"^your code raised AttributeError: 'int' object has no attribute 'nope'$"
    ):
        with guard.hidden_test():
            student["boom"](3)
    with pytest.raises(guard.Feedback, match=r"^your value 3 is not 4$"):
        with guard.hidden_test():
            raise AssertionError("your value 3 is not 4")  # (pytest rewrites an assert's message)
    assert guard.term_seed(8, {}) == 8
    spring, autumn = ({"seed": labs.term_settings(t)["seed"]} for t in ("2027-spring", "2027-autumn"))
    assert labs.term_settings("2027-spring") == labs.term_settings("2027-spring")
    assert len({guard.term_seed(8, spring), guard.term_seed(8, autumn), guard.term_seed(9, spring), 8}) == 4


def _test_cells(name: str) -> list[tuple[bool, str]]:
    """(hidden?, source) of each test cell of a lab: the master notebook's (between ``# BEGIN TESTS``
    and ``# END TESTS``: public) and its hidden-tests file's."""
    cells, inside = [], False
    for cell in re.split(r"(?=^# %%)", (ROOT / "book" / "labs" / f"{name}.py").read_text(), flags=re.M):
        if "# BEGIN TESTS" in cell or "# END TESTS" in cell:
            inside = "# BEGIN TESTS" in cell
        elif inside and cell.startswith("# %%"):
            cells.append(("# BEGIN TEST CONFIG" in cell, cell.split("\n", 1)[1]))
    assert not any(hidden for hidden, _ in cells), f"{name}: a hidden test in the book's page (labs_hidden/ only)"
    cells += [(True, text) for texts in labs.hidden_tests(name).values() for text in texts]
    return cells


@pytest.mark.parametrize("name", LABS)
def test_tests_run_under_the_guard(name):
    """Each test of a lab (public and hidden) runs its whole body inside ``with hidden_test(...)``,
    so every call of the submission is guarded, timed and reported in words; each assertion
    carries a message in words; the hidden tests draw their randomness from ``seed(n)`` (the
    term's seeds)."""
    import ast

    cells = _test_cells(name)
    assert any(hidden for hidden, _ in cells) and not all(hidden for hidden, _ in cells)
    for hidden, cell in cells:
        tree = ast.parse(cell)
        func = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
        kinds = [type(n).__name__ for n in func.body]
        assert kinds == ["Try", "With"], (func.name, kinds)
        assert ast.unparse(func.body[1].items[0].context_expr).startswith("hidden_test("), func.name
        if hidden:
            assert not re.search(r"default_rng\(\d|seed=\d", cell), func.name
        for node in ast.walk(func):
            if isinstance(node, ast.Assert):
                assert isinstance(node.msg, ast.Constant | ast.JoinedStr), (func.name, ast.unparse(node))


def _class_submission(dest: Path, name: str, change, tmp_path: Path) -> Path:
    kind, what = change
    if kind == "functions":
        return _replace_functions(dest, name, what, tmp_path)
    if kind == "edits":
        return _wrong_notebook(dest, name, what, tmp_path)
    nb = json.loads((dest / "autograder" / f"{name}.ipynb").read_text())
    first = next(
        i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and "otter" not in "".join(c["source"])
    )
    nb["cells"].insert(
        first + 1, {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": what}
    )
    path = tmp_path / f"{name}.ipynb"
    path.write_text(json.dumps(nb))
    return path


#: The time limit of an endless loop's class run (seconds, each check and each top-level cell).
LOOP_SECONDS = 2


@pytest.mark.parametrize("name, label, change, expected", CLASS_RUN, ids=[f"{c[0]}-{c[1]}" for c in CLASS_RUN])
def test_class_run(name, label, change, expected, released, tmp_path, monkeypatch):
    """A class's submissions grade as the rules say (see CLASS_RUN), with feedback in words that
    quotes none of the lab's hidden code or seeds. Cost: the 27 cases about 50 CPU s (102 s wall at
    load 5-9, 55 s of it the three endless loops waiting out their limits when those were 5 s).

    An endless loop is graded with :data:`LOOP_SECONDS` for each check and each top-level cell: the
    loop burns a core until it is stopped (3 or 4 times per lab here; the limit is wall time, a timer),
    and the other question's checks in the same grading must still pass under it (the slowest, Lab 3's
    release audit, took under 0.5 s of wall time at load 10)."""
    options = {}
    if label == "endless loop":  # short limits: each check, and each top-level cell that calls the loop
        monkeypatch.setenv("LAB_GUARD_SECONDS", str(LOOP_SECONDS))
        options["cell_seconds"] = LOOP_SECONDS
    dest = released[name]
    result = _grade(dest, _class_submission(dest, name, change, tmp_path), **options)
    assert result["tests"] == {q: float(v) for q, v in expected.items()}, (label, result)
    assert result["tampered"] is None, result
    _assert_feedback(result, name)
    if label == "endless loop":
        said = " ".join(m for cases in result["messages"].values() for m in cases.values())
        assert f"stopped after {LOOP_SECONDS} s" in said, said


#: What Lab 6's Question 3 lets a submission call while it is graded: the agent's API, nothing else
#: of the package (not ``policy.run``, the instance builders, or the compiled steps the agent calls).
AGENT_ALLOW = tuple(
    f"privbandits.policies.base.{name}"
    for name in ("Policy.agent", "Agent.choose", "Agent.update", "Agent.records", "Agent.guarantee")
)


def _replay(*body: str) -> dict:
    """A ``replay`` of Lab 6's Question 3: the reference's opening lines, then ``body`` as its loop and return."""
    head = ("log = np.asarray(log, dtype=float)", "n_rounds, n_arms = log.shape")
    return {"replay": ("policy, log, seed, low=0.0, high=1.0", *head, *body)}


_MAPPED = "(log[t, arm] - low) / (high - low)"
#: The wrong kinds a class writes for ``replay`` (Lab 6, Question 3, 3 points: 2 for playing the
#: policy's run, 1 for mapping ratings onto [0, 1]): (label, function, points, what the student is told).
REPLAY_KINDS = [
    (
        "correct",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, seed)",
            "arms = []",
            "for t in range(n_rounds):",
            "    arm = agent.choose()",
            f"    agent.update({_MAPPED})",
            "    arms.append(arm)",
            "return arms",
        ),
        3,
        None,
    ),
    (
        "a new agent each round",
        _replay(
            "arms = []",
            "for t in range(n_rounds):",
            "    agent = policy.agent(n_arms, n_rounds, seed)",
            "    arm = agent.choose()",
            f"    agent.update({_MAPPED})",
            "    arms.append(arm)",
            "return np.array(arms)",
        ),
        0,
        "a new agent's first choice: make the agent once, before the loop",
    ),
    (
        "update before choose",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, seed)",
            "arm = 0",
            "for t in range(n_rounds):",
            f"    agent.update({_MAPPED})",
            "    arm = agent.choose()",
            "return agent.records()['arms']",
        ),
        0,
        "update() called before choose()",
    ),
    (
        "the reward of the next round",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, seed)",
            "for t in range(n_rounds):",
            "    arm = agent.choose()",
            "    agent.update((log[t + 1, arm] - low) / (high - low))",
            "return agent.records()['arms']",
        ),
        0,
        "raised IndexError: index 600 is out of bounds for axis 0 with size 600 (the log has one row per round",
    ),
    (
        "the reward of the round before",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, seed)",
            "for t in range(n_rounds):",
            "    arm = agent.choose()",
            "    agent.update((log[t - 1, arm] - low) / (high - low))",
            "return agent.records()['arms']",
        ),
        0,
        "in round t, the reward of round t - 1",
    ),
    (
        "the reward of another arm",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, seed)",
            "for t in range(n_rounds):",
            "    arm = agent.choose()",
            "    agent.update((log[t, (arm + 1) % n_arms] - low) / (high - low))",
            "return agent.records()['arms']",
        ),
        0,
        "where the policy plays arm",
    ),
    (
        "the log read as (arm, round)",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, seed)",
            "for t in range(n_rounds):",
            "    arm = agent.choose()",
            "    agent.update((log[arm, t] - low) / (high - low))",
            "return agent.records()['arms']",
        ),
        0,
        "the reward of arm a in round t is log[t, a]",
    ),
    (
        "stars fed to the agent (ratings not mapped)",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, seed)",
            "for t in range(n_rounds):",
            "    agent.update(log[t, agent.choose()])",
            "return agent.records()['arms']",
        ),
        2,
        "passes the agent a reward outside [0, 1]",
    ),
    (
        "ratings divided by their maximum",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, seed)",
            "for t in range(n_rounds):",
            "    arm = agent.choose()",
            "    agent.update(log[t, arm] / high)",
            "return agent.records()['arms']",
        ),
        2,
        "mapped onto [0, 1] by (r - low) / (high - low)",
    ),
    (
        "a generator of its own",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, np.random.default_rng())",
            "for t in range(n_rounds):",
            "    arm = agent.choose()",
            f"    agent.update({_MAPPED})",
            "return agent.records()['arms']",
        ),
        0,
        "plays other arms when called again with the same seed",
    ),
    (
        "the seed ignored",
        _replay(
            "agent = policy.agent(n_arms, n_rounds, 12345)",
            "for t in range(n_rounds):",
            "    arm = agent.choose()",
            f"    agent.update({_MAPPED})",
            "return agent.records()['arms']",
        ),
        0,
        "plays the same arms for two different seeds",
    ),
]


@pytest.mark.parametrize("label, functions, points, said", REPLAY_KINDS, ids=[k[0] for k in REPLAY_KINDS])
def test_replay_wrong_kinds_are_told_what_is_wrong(label, functions, points, said, released, tmp_path):
    """Lab 6's Question 3 (replay a reward log through a policy's agent), as a class writes it: each
    wrong kind scores what the rules give and is told its mistake in words, quoting none of the hidden
    tests' code or seeds; the other questions keep their points. About 1 CPU s each."""
    dest = released["lab6_frontier"]
    result = _grade(dest, _replace_functions(dest, "lab6_frontier", functions, tmp_path))
    assert result["tests"] == {"q1_locked_in": 4.0, "q2_ranking": 2.0, "q3_replay": float(points)}, (label, result)
    assert result["tampered"] is None and not result["errors"], result
    told = " ".join(result["messages"].get("q3_replay", {}).values())
    if said is None:
        assert not told, told
    else:
        assert said in told, (label, told)
        assert "your code calls the package" not in told, told  # the agent's calls are allowed
    _assert_feedback(result, "lab6_frontier")


def test_guard_allows_the_agents_methods_only(tmp_path):
    """``allow`` names methods too (``module.Class.method``): under Lab 6's allowance a submission may
    drive ``policy.agent`` / ``choose`` / ``update`` / ``records`` / ``guarantee``, and is still
    blocked from ``policy.run``, the instance builders and the compiled steps the agent calls
    (``Policy._choose``), told what it may call; without it, the agent is blocked too. Every test of
    the question allows exactly :data:`AGENT_ALLOW`."""
    import ast

    import numpy as np

    from privbandits import bernoulli_instance
    from privbandits.policies import DPUCB

    guard = _guard()
    student = {}
    source = (
        "import numpy as np\n"
        "def drive(policy, log, seed):\n"
        "    agent = policy.agent(log.shape[1], log.shape[0], seed)\n"
        "    for t in range(log.shape[0]):\n"
        "        agent.update(log[t, agent.choose()])\n"
        "    agent.guarantee()\n"
        "    return agent.records()['arms']\n"
        "def run(policy, instance, n, seed):\n"
        "    return policy.run(instance, n, np.random.default_rng(seed))['arms']\n"
        "def step(policy, log, seed):\n"
        "    agent = policy.agent(log.shape[1], log.shape[0], seed)\n"
        "    return policy._choose(agent.rng, agent._state, 0, agent.horizon, *agent._args)\n"
    )
    exec(compile(source, str(tmp_path / "submission.ipynb"), "exec"), student)
    policy = DPUCB(epsilon=1.0)
    log = (np.random.default_rng(3).random((200, 3)) < 0.5).astype(float)
    instance = bernoulli_instance([0.5, 0.5, 0.5]).with_table(log)
    with guard.hidden_test(allow=AGENT_ALLOW, seconds=60):
        arms = student["drive"](policy, log, 4)
    np.testing.assert_array_equal(arms, policy.run(instance, 200, np.random.default_rng(4))["arms"])
    for name, args in (("run", (policy, instance, 200, 4)), ("step", (policy, log, 4))):
        with pytest.raises(guard.PackageCalled, match="allows only Policy.agent, Agent.choose") as caught:
            with guard.hidden_test(allow=AGENT_ALLOW, seconds=60):
                student[name](*args)
        assert ("Policy.run" if name == "run" else "_choose") in str(caught.value), caught.value
    with pytest.raises(guard.PackageCalled, match="Policy.agent; .* allows no function of privbandits"):
        with guard.hidden_test(seconds=60):
            student["drive"](policy, log, 4)
    cells = [cell for _, cell in _test_cells("lab6_frontier") if "def test_replay" in cell]
    assert len(cells) == 3, len(cells)  # the public check and the two hidden ones
    for cell in cells:
        call = next(
            n
            for n in ast.walk(ast.parse(cell))
            if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "hidden_test"
        )
        assert ast.literal_eval(call.keywords[0].value) == AGENT_ALLOW, ast.unparse(call)


def test_a_term_release_draws_fresh_hidden_tests(wheel, tmp_path, monkeypatch):
    """``release --term``/``--seed`` writes the term's seed into the autograder only (zip and
    directory), never into the student notebook; two terms differ; the reference still scores
    full marks under the term's seeds."""
    terms = [labs.term_settings("2027-spring"), labs.term_settings("2027-autumn")]
    assert terms[0]["seed"] != terms[1]["seed"]
    for i, term in enumerate(terms):
        dest = labs.assign("lab0_laplace", tmp_path / f"term{i}", run_tests=False, wheel=wheel, term=term)
        import zipfile

        with zipfile.ZipFile(labs.autograder_zip(dest)) as archive:
            assert json.loads(archive.read(f"files/{labs.TERM_FILE}")) == term  # next to lab_guard.py
        student = (dest / "student" / "lab0_laplace.ipynb").read_text()
        assert str(term["seed"]) not in student and labs.TERM_FILE not in student
        assert (dest / "autograder" / labs.TERM_FILE).is_file()
    tests = labs.extract_tests(dest)
    monkeypatch.chdir(dest / "autograder")  # where the grading kernel finds lab_term.json
    result = labs.grade_in_process(tests, dest / "autograder" / "lab0_laplace.ipynb")
    assert result["score"] == result["possible"] > 0, result


def _public_text_with_hidden(text: str, found: dict) -> list[str]:
    """Whatever of a lab's hidden tests (their names, code lines, seeds) a public text holds."""
    return sorted(x for key in ("names", "seeds", "lines") for x in found[key] if x in text)


@pytest.mark.parametrize("checkout", [True, False])
def test_sources_archive_leaves_out_a_virtual_environment_in_the_checkout(tmp_path, monkeypatch, checkout):
    """A venv made inside the checkout (any name: the folder holding ``pyvenv.cfg``) is not a source: git lists
    it as untracked, and the site's archive once held a whole ``.venv`` (310 MB), hidden-test look-alikes too."""
    ext = _site_extension()
    for name in (
        "README.md",
        "pkg/mod.py",
        ".venv/pyvenv.cfg",
        ".venv/lib/site.py",
        "tools/env2/pyvenv.cfg",
        "tools/env2/bin/x.py",
        "tools/venv_notes.md",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x\n")
    if checkout:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.setattr(ext, "ROOT", tmp_path)
    assert ext.source_files() == ["README.md", "pkg/mod.py", "tools/venv_notes.md"]


def test_public_edition_ships_no_hidden_test(wheel, tmp_path):
    """The hidden tests (``labs_hidden/``) reach the instructor's autograder zip and nothing public:
    not the book's lab pages (``.py``/``.ipynb``, which the site renders, indexes for search, copies
    to ``_sources`` and offers for download), not the student notebook the site serves (written
    without them: placeholders stand for them, so the points shown are the release's), not the
    sources archive (its list of files), and, when the site is built, not its pages, search index or
    sources. Their code, names and ``seed(n)`` calls are looked for (``labs.hidden_fingerprints``);
    the student edition is searched in ``tests/test_student_edition.py``. About 10 CPU s (an ``otter
    assign`` of each lab without tests)."""
    import zipfile

    ext = _site_extension()
    archived = ext.source_files()
    assert archived and not [f for f in archived if f.split("/")[0] == "labs_hidden"], "hidden tests archived"
    assert all((ROOT / "labs_hidden" / f"{name}.py").is_file() for name in LABS)
    everything = {"names": set(), "seeds": set(), "lines": set()}
    for name in LABS:
        found = labs.hidden_fingerprints(name)
        assert found["names"] and found["lines"], name
        for key in everything:
            everything[key] |= found[key]
        for page in (ROOT / "book" / "labs" / f"{name}.py", ROOT / "book" / "labs" / f"{name}.ipynb"):
            assert not _public_text_with_hidden(page.read_text(), found), (
                page,
                _public_text_with_hidden(page.read_text(), found),
            )
        public = labs.assign(name, tmp_path / name, run_tests=False, wheel=wheel, hidden=None)  # as the site does
        for path in public.rglob("*"):
            if path.suffix == ".zip":
                with zipfile.ZipFile(path) as archive:
                    text = "".join(
                        archive.read(m).decode(errors="ignore")
                        for m in archive.namelist()
                        if m.endswith((".py", ".ipynb"))
                    )
            elif path.suffix in (".ipynb", ".py"):
                text = path.read_text()
            else:
                continue
            assert not _public_text_with_hidden(text, found), (path, _public_text_with_hidden(text, found))
    # the archive's files: no hidden test's code or seed anywhere (this test and test_labs' wrong
    # answers name some hidden tests, to check which one catches an answer: names only there)
    for rel in archived:
        if not rel.endswith((".py", ".ipynb", ".md", ".txt", ".yml", ".json", ".toml")):
            continue
        text = (ROOT / rel).read_text(errors="ignore")
        leaks = _public_text_with_hidden(
            text, {**everything, "names": set() if rel.startswith("tests/") else everything["names"]}
        )
        assert not leaks, (rel, leaks)
    html = ROOT / "_build" / "html"
    if (html / "index.html").exists():  # CI builds the site before the tests
        for path in [
            html / "searchindex.js",
            *(html / "book" / "labs").glob("*.html"),
            *(html / "_sources").rglob("*"),
        ]:
            if path.is_file():
                leaks = _public_text_with_hidden(path.read_text(errors="ignore"), everything)
                # Sphinx keeps the words of a page's older versions in searchindex.js (with no page
                # left) when it rebuilds over an older _build: rebuild from an empty _build/html
                hint = "if _build/html predates the move of the hidden tests, delete it and build again"
                assert not leaks, (path, leaks, hint)


#: Submissions that patch the grading instead of answering (route -> the code of a cell added after
#: the first one): each would lift a wrong answer to full marks where nothing checks identities.
TAMPERING = {
    "sys.modules entry of privbandits": (  # the auditor, and scipy.stats's test of the noise law
        "import sys, types, scipy\n"
        "from scipy import stats\n"
        "fake = types.ModuleType('privbandits.audit')\n"
        "fake.audit = lambda *a, **k: types.SimpleNamespace(violation=False, verdict='')\n"
        "sys.modules['privbandits.audit'] = fake\n"
        "law = types.ModuleType('scipy.stats')\n"
        "law.laplace, law.kstest = stats.laplace, lambda *a, **k: types.SimpleNamespace(pvalue=1.0)\n"
        "sys.modules['scipy.stats'] = scipy.stats = law\n"
    ),
    "the guard module replaced in sys.modules": (
        "import contextlib, sys, types\n"
        "fake = types.ModuleType('lab_guard')\n"
        "fake.hidden_test = lambda allow=(), seconds=None: contextlib.nullcontext(int)\n"
        "sys.modules['lab_guard'] = fake\n"
    ),
    "the guard function replaced": (
        "import contextlib, lab_guard\n"
        "lab_guard.hidden_test = lambda allow=(), seconds=None: contextlib.nullcontext(int)\n"
    ),
    "otter's check monkeypatched": (
        "from otter.test_files import abstract_test\n"
        "abstract_test.TestFile.score = property(lambda self: self.possible)\n"
    ),
    "a builtin replaced": "import builtins\nbuiltins.abs = lambda x: 0.0\n",
    "the seal emptied, then sys.modules patched": (  # the seal is reachable; the runner holds its state
        "import lab_guard, sys, types\n"
        "lab_guard._SEAL.entries, lab_guard._SEAL.modules = (), ()\n"
        "fake = types.ModuleType('privbandits.audit')\n"
        "fake.audit = lambda *a, **k: types.SimpleNamespace(violation=False, verdict='')\n"
        "sys.modules['privbandits.audit'] = fake\n"
    ),
    "the auditor's code swapped": (
        "import types\nfrom privbandits.audit import audit\n"
        "def _fake(*a, **k):\n    return types.SimpleNamespace(violation=False, verdict='')\n"
        "audit.__code__ = _fake.__code__\n"
    ),
    "scipy.stats.kstest replaced in place": (  # a module the tests import (sealed with them)
        "import types, scipy.stats\nscipy.stats.kstest = lambda *a, **k: types.SimpleNamespace(pvalue=1.0)\n"
    ),
    "scipy.stats.beta.ppf added to the instance": (  # the auditor's Clopper-Pearson bound
        "import numpy as np, scipy.stats\n"
        "scipy.stats.beta.ppf = lambda q, a, b: (np.zeros if q < 0.5 else np.ones)(np.shape(a))\n"
    ),
    "score added to otter's subclass": (  # an added key that shadows an inherited one
        "from otter.test_files import exception_test\n"
        "exception_test.ExceptionTestFile.score = property(lambda self: self.possible)\n"
    ),
    "the seal set to None": "import lab_guard\nlab_guard._SEAL = None\n",
}
#: Cells that change nothing the grading reads: graded as the wrong answer alone (2 of 6), untampered.
NO_EFFECT = {
    "test files rewritten on disk": (  # the tests are read before the first cell runs
        "import glob, os, sys\n"
        "for p in glob.glob(os.path.join(sys.argv[2], '*.py')):\n"
        "    t = open(p).read().replace('assert ', 'assert True or ')\n"
        "    open(p, 'w').write(t)\n"
    ),
    "a cell that calls sys.exit()": "import sys\nsys.exit(0)\n",  # skipped as a raising cell
    "a cell that raises KeyboardInterrupt": "raise KeyboardInterrupt\n",
}


@pytest.fixture(scope="module")
def lab0_zip(released):
    return labs.autograder_zip(released["lab0_laplace"])


@pytest.mark.parametrize("route", [*TAMPERING, *NO_EFFECT])
def test_patching_the_grading_is_not_graded(route, released, lab0_zip, tmp_path):
    """A submission that patches ``sys.modules``, a builtin, the guard or otter's checks (with a wrong
    answer: half the noise, or the package's own release, which the guard would catch) is found by
    the seal the fresh grading process takes before the submission runs (``lab_guard.Seal``; emptying
    the seal itself is found too, the runner holding its state; an attribute added to a sealed
    class or instance, e.g. ``score`` on otter's subclass, too): every question scores 0 and the
    student is told what was replaced. The :data:`NO_EFFECT` cells (rewriting the test files on
    disk, which the runner read before the first cell; ``sys.exit()``) change nothing: the wrong
    answer alone is graded, 2 of 6. The first route is also graded
    without the seal, to show that the patch would have worked (the half-noise release then passes
    the auditor's check). A fresh Python per submission: about 5 CPU s each."""
    dest = released["lab0_laplace"]
    wrong = _wrong_notebook(dest, "lab0_laplace", WRONG[1][3], tmp_path)  # half the noise: q2 fails
    if route.startswith("the guard"):  # the package's release (the guard's PackageCalled): q2 fails
        wrong = _replace_functions(dest, "lab0_laplace", dict(WRAPPERS[0][2]), tmp_path)
    nb = json.loads(wrong.read_text())
    first = next(
        i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and "otter" not in "".join(c["source"])
    )
    source = TAMPERING.get(route) or NO_EFFECT[route]
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": source}
    nb["cells"].insert(first + 1, cell)
    path = tmp_path / "tampered.ipynb"
    path.write_text(json.dumps(nb))
    result = labs.grade(lab0_zip, path, timeout=600)
    if route in NO_EFFECT:
        assert result["tampered"] is None and result["tests"] == {"q1_scale": 2.0, "q2_release": 0.0}, (route, result)
        return
    assert result["tampered"] and result["score"] == 0 and result["possible"] == 6, (route, result)
    for question, said in result["messages"].items():
        assert said.startswith("Tampered: not graded: your notebook replaces "), (question, said)
    if route == "sys.modules entry of privbandits":
        tests = labs.extract_tests(dest)
        program = (
            "import json, sys\nsys.path.insert(0, sys.argv[1])\nimport lab_guard\n"
            "print(json.dumps(lab_guard.grade_notebook(sys.argv[2], sys.argv[3], seal=False)['tests']))"
        )
        done = subprocess.run(
            [sys.executable, "-c", program, str(labs.GUARD.parent), str(tests), str(path)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert json.loads(done.stdout.strip().splitlines()[-1]) == {"q1_scale": 2.0, "q2_release": 4.0}, done.stderr
