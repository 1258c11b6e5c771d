"""Checks shared by the policy test files, and helpers shared by other test files (imported by name:
pytest puts tests/ on sys.path)."""

from __future__ import annotations

import fcntl
import shutil
from pathlib import Path

import numpy as np

from privbandits.environments import BanditInstance, HiringEnvironment, bernoulli_instance


def random_instance(k: int = 10, seed: int = 1) -> BanditInstance:
    """Bernoulli arms with means drawn uniformly from (0.005, 1), the range of DP-NCB's Figure 1(b)."""
    return bernoulli_instance(np.random.default_rng(seed).uniform(0.005, 1, k))


def check_reproducible(policy, horizon: int = 3000) -> None:
    """Two runs from the same seed give identical records, and every arm index is valid."""
    inst = random_instance()
    a = policy.run(inst, horizon, np.random.default_rng(5))
    b = policy.run(inst, horizon, np.random.default_rng(5))
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
    assert a["arms"].min() >= 0 and a["arms"].max() < inst.n_arms


def check_figure_1a_nash_regret_is_finite(policy, horizon: int = 1000) -> None:
    """On Figure 1(a)'s instance (a (2e)^-T arm, which underflows, and a mean-1 arm) the Nash regret
    of 5 runs, computed in log space, is a finite number in [0, 1]."""
    from privbandits.metrics import nash_regret
    from privbandits.simulate import simulate

    inst = bernoulli_instance(log_means=np.array([-horizon * (np.log(2) + 1), 0.0]))
    res = simulate(policy, inst, horizon, runs=5, seed=0, cache=False, progress=False, n_jobs=1)
    nr = nash_regret(res)
    assert np.isfinite(nr) and 0 <= nr <= 1, nr


def synthetic_hiring_env(seed=0, d=5, k=3, n=400):
    """Hiring pools of ``k`` groups shifted along theta*: reward-greedy is unfair, rank-greedy fair."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=d)
    theta /= np.linalg.norm(theta)
    # groups with shifted reward distributions: reward-greedy is unfair, rank-greedy is fair
    pools = []
    for g in range(k):
        x = rng.normal(size=(n, d)) * 0.2 + 0.3 * g * theta
        x /= np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1.0)
        pools.append(x)
    return HiringEnvironment(tuple(pools), theta, noise_sd=0.05)


def one_hot_hiring_env(seed=6, k=3, n=300):
    """Census-like pools: one-hot blocks plus a scaled numeric column, many repeated rows."""
    rng = np.random.default_rng(seed)
    pools = []
    for g in range(k):
        a, b = rng.integers(0, 4, n), rng.integers(0, 3, n)
        x = np.zeros((n, 4 + 3 + k + 1))
        x[np.arange(n), a] = 0.4
        x[np.arange(n), 4 + b] = 0.4
        x[:, 7 + g] = 0.4
        x[:, -1] = rng.integers(0, 5, n) / 10
        pools.append(x)
    theta = rng.normal(size=pools[0].shape[1]) / 3
    return HiringEnvironment(tuple(pools), theta, noise_sd=0.1)


def small_hiring_env():
    """Two small Gaussian pools in four dimensions, for the calibration and L-tilde checks."""
    rng = np.random.default_rng(0)
    theta = rng.normal(size=4)
    theta /= np.linalg.norm(theta)
    pools = tuple(rng.normal(size=(50, 4)) * 0.4 + 0.2 * g for g in range(2))
    return HiringEnvironment(pools, theta, noise_sd=0.1)


PART2_INSTANCE = bernoulli_instance(np.random.default_rng(2026).uniform(0.005, 1, 10))


def part2_runs(policy, horizon=20000, runs=3, seed=5, instance=PART2_INSTANCE):
    """``simulate`` without cache or progress, for the tests of the Part II authors' options."""
    from privbandits.simulate import simulate

    return simulate(policy, instance, horizon, runs=runs, seed=seed, progress=False, cache=False)


def shared_package_wheel(labs, tmp_path_factory) -> Path:
    """The package's wheel for ``labs`` (a loaded ``tools/labs.py``), built once per test run.

    ``labs.package_wheel()`` builds it once per module object (``pip wheel``, about 6 CPU s);
    ``tests/test_labs.py`` and the student edition's copy of ``tools/labs.py`` each had one, in
    each pytest-xdist worker that ran them. The first caller of the run builds it into the run's
    temporary directory (shared by the workers), under an exclusive lock that the others wait for,
    and every caller's ``labs`` is given that file. Within one run the package's sources are the
    same, so the wheel is too.
    """
    base = tmp_path_factory.getbasetemp()
    if base.name.startswith("popen-gw"):  # a pytest-xdist worker's: the run's directory is above it
        base = base.parent
    folder = base / "privbandits_wheel"
    folder.mkdir(exist_ok=True)
    with open(folder / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        built = sorted(folder.glob("*.whl"))
        if not built:
            fresh = labs.package_wheel()
            built = [Path(shutil.copy2(fresh, folder / f"{fresh.name}.part").rename(folder / fresh.name))]
            shutil.rmtree(fresh.parent, ignore_errors=True)  # package_wheel's temporary folder
    labs._WHEEL["wheel"] = built[0]
    return built[0]
