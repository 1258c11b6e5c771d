"""CONTRIBUTING.md's "Adding an algorithm" runs as written: its code blocks, placed in a copy of the
package, pass the new test file and every generated test the registry line enrols the policy in.

Each block of that section starts with ``# file: <path>`` (a whole file), or ``# file: <path>, in
<dict>`` (entries added to that dict of the file). The test copies ``pkg/``, ``tests/`` and ``tools/`` to a
temporary directory, writes the blocks there and runs pytest in a subprocess with the copy first on
``sys.path``. It costs 30 to 75 s on the 2-core CI machine, loaded (numba compiles the example's
kernel and the generated tests' batch loops in the fresh copy), the new policy's agent included.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## Adding an algorithm"
FILE_LINE = re.compile(r"^# file: (?P<path>\S+?)(?:, in (?P<dict>\w+))?$")
#: The generated tests a registry line enrols a policy in: parametrised by the registry (their ids name
#: the policy: ``Laplace-ETC``, or its class ``LaplaceETC``) or looping over it; ``-k`` selects them, so
#: the run stays short. (A bare ``Laplace`` also selected other policies' cases, the thresholding
#: agents ``Alg. 1 (Laplace)`` and ``Alg. 2 (Laplace)``, 8 of the copy's 13 CPU s of tests: numba
#: compiles every kernel afresh in the copy. Those run in the suite itself.)
GENERATED = [
    "tests/test_simulate.py",
    "tests/test_calibration.py",
    "tests/test_base.py",
    "tests/test_api_inputs.py",
    "tests/test_agents.py",
]
SELECT = "laplace_etc or Laplace-ETC or LaplaceETC or registered or policy_list or pending_is_exactly"


def guide_blocks() -> list[tuple[str, str | None, str]]:
    """``(path, dict or None, code)`` of every Python block of the section, from its ``# file:`` line."""
    text = (ROOT / "CONTRIBUTING.md").read_text()
    section = text[text.index(SECTION) :]
    section = section[: section.index("\n## ", len(SECTION))]
    out = []
    for code in re.findall(r"^```python\n(.*?)^```", section, flags=re.MULTILINE | re.DOTALL):
        first, _, rest = code.partition("\n")
        match = FILE_LINE.match(first)
        assert match, f"a block of {SECTION!r} does not start with '# file: <path>': {first!r}"
        out.append((match["path"], match["dict"], rest))
    return out


def place(root: Path, path: str, into: str | None, code: str) -> None:
    """Write ``code`` at ``root / path``, or add it to the dict ``into`` of that file."""
    target = root / path
    if into is None:
        assert not target.exists(), f"{path} exists already: the guide's example must add a new file"
        target.write_text(code)
        return
    lines = target.read_text().split("\n")
    opening = [i for i, line in enumerate(lines) if re.match(rf"{into}\b.*= \{{$", line)]
    assert len(opening) == 1, f"{path} has no single line opening the dict {into} (`{into}... = {{`)"
    lines[opening[0] + 1 : opening[0] + 1] = code.rstrip("\n").split("\n")
    target.write_text("\n".join(lines))


def test_the_guide_names_where_each_block_goes():
    blocks = guide_blocks()
    assert [(path, into) for path, into, _ in blocks] == [
        ("pkg/privbandits/policies/laplace_etc.py", None),
        ("tests/test_laplace_etc.py", None),
        ("pkg/privbandits/calibration.py", "_GLOBAL"),
    ]


def test_the_guide_s_example_passes_the_suite_s_generated_tests(tmp_path):
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", ".hypothesis")
    shutil.copytree(ROOT / "pkg", tmp_path / "pkg", ignore=ignore)
    for folder in ("tests", "tools"):  # tools: test_api_inputs checks the labs' grader too
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for path, into, code in guide_blocks():
        place(tmp_path, path, into, code)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "pkg"), "PRIVBANDITS_PROGRESS": "0", "PRIVBANDITS_N_JOBS": "1"}
    env["PRIVBANDITS_CACHE_DIR"] = str(tmp_path / "cache")
    probe = [sys.executable, "-c", "import privbandits.policies.laplace_etc as m; print(m.__file__)"]
    where = subprocess.run(probe, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert where.stdout.strip() == str(tmp_path / "pkg" / "privbandits" / "policies" / "laplace_etc.py"), where
    command = [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "tests/test_laplace_etc.py"]
    done = subprocess.run([*command, *GENERATED, "-k", SELECT], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"the guide's example fails:\n{done.stdout[-6000:]}{done.stderr[-2000:]}"
    ran = re.findall(r"^(tests/.*?) PASSED", done.stdout, flags=re.MULTILINE)
    assert len([t for t in ran if t.startswith("tests/test_laplace_etc.py")]) == 4
    # the policy's own parametrised cases (by its registry name, or its class for the parameter checks;
    # test_base enrols exported classes only, which the guide's example is not): each file must show one
    for path, label in (
        ("tests/test_simulate.py", "Laplace-ETC"),
        ("tests/test_calibration.py", "Laplace-ETC"),
        ("tests/test_api_inputs.py", "LaplaceETC"),
        ("tests/test_agents.py", "Laplace-ETC"),
    ):
        assert any(t.startswith(path) and label in t for t in ran), f"{path} ran no case of {label}"
