"""Real data sets used by the book (loaded offline when possible)."""

from .census import CensusHiringData, load_adult, load_census_hiring, load_folktables_income

__all__ = ["CensusHiringData", "load_adult", "load_census_hiring", "load_folktables_income"]
