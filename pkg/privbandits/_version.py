"""The package's version, on its own so that :mod:`.cache` reads it without importing the package."""

__version__ = "0.1.0"  # keep equal to the version in pyproject.toml
