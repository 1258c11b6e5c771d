"""Tests of privbandits.plotting (headless backend)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from privbandits import plotting  # noqa: E402


def test_colours_are_stable_and_shared_across_labels():
    assert plotting.color_for("DP-UCB") == plotting.color_for("DP-UCB (ε=0.1)") == plotting.ALGORITHM_COLORS["DP-UCB"]
    assert plotting.color_for("some new algorithm") == plotting.color_for("some new algorithm")


def test_plot_runs_draws_mean_and_band():
    plotting.use_book_style()
    fig, ax = plotting.new_axes()
    values = np.vstack([np.arange(10.0), np.arange(10.0) + 2])
    plotting.plot_runs(ax, np.arange(1, 11), values, "UCB")
    np.testing.assert_allclose(ax.lines[0].get_ydata(), np.arange(10.0) + 1)
    assert len(ax.collections) == 1  # the band
    with pytest.raises(ValueError, match="values"):
        plotting.plot_runs(ax, np.arange(3), values, "UCB")
    with pytest.raises(ValueError, match="band"):
        plotting.plot_runs(ax, np.arange(1, 11), values, "UCB", band="iqr")
