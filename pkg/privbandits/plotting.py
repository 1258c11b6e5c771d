"""One figure style for the whole book.

* :func:`use_book_style` sets fonts, grid and sizes once per notebook.
* :func:`color_for` gives each algorithm one colour, the same in every chapter (known names are
  fixed below; a new name gets a stable colour from its hash).
* :func:`plot_runs` draws the mean over runs with a band (quantiles or standard error).
"""

from __future__ import annotations

import hashlib
from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

from ._validation import check_finite_array

__all__ = ["ALGORITHM_COLORS", "PAGE_WIDTH", "color_for", "use_book_style", "plot_runs", "new_axes"]

#: Colour of each algorithm across the book (colour-blind-safe Okabe-Ito / Tol colours).
ALGORITHM_COLORS: dict[str, str] = {
    "UCB": "#000000",
    "NCB": "#000000",
    "Private-UCB": "#D55E00",
    "DP-UCB-BOUND": "#0072B2",
    "DP-UCB": "#009E73",
    "DP-UCB-INT": "#CC79A7",
    "GDP-NCB": "#0072B2",
    "LDP-NCB": "#009E73",
    "AdaP-UCB": "#D55E00",
    "AdaP-KLUCB": "#CC3311",  # Tol vivid red, as in Part VI
    "LDP-UCB": "#E69F00",
    "OFUL": "#D55E00",
    "Fair-Greedy": "#000000",
    "Private-Fair-Greedy": "#0072B2",
}

_FALLBACK = ["#56B4E9", "#F0E442", "#882255", "#44AA99", "#999933", "#AA4499", "#332288", "#117733"]


def color_for(name: str) -> str:
    """The book's colour for algorithm ``name``.

    Parameters
    ----------
    name : str
        An algorithm's name or legend label; the part before any ``" ("`` is looked up in
        :data:`ALGORITHM_COLORS`, and a name not there gets a fixed colour from a fallback palette.

    Returns
    -------
    str
        A hex colour.
    """
    base = name.split(" (")[0]
    if base in ALGORITHM_COLORS:
        return ALGORITHM_COLORS[base]
    digest = int(hashlib.sha256(base.encode()).hexdigest(), 16)
    return _FALLBACK[digest % len(_FALLBACK)]


#: Width of a figure in inches; at ``figure.dpi`` it is about the width of the book's text column
#: (about 750 px), so a figure is shown near its natural size and its text at the sizes set below.
PAGE_WIDTH = 7.0


def use_book_style() -> None:
    """Apply the book's matplotlib style (call once at the top of a notebook).

    Figures are :data:`PAGE_WIDTH` inches wide at 110 dpi, about the width of the page's text
    column, so that the font sizes below are the sizes a reader sees (tick labels and legends about
    12 px). Layout is constrained, so titles, labels and legends do not overlap.
    """
    mpl.rcParams.update(
        {
            "figure.figsize": (PAGE_WIDTH, 4.0),
            "figure.dpi": 110,
            "savefig.dpi": 150,
            "figure.constrained_layout.use": True,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "font.size": 9.5,
            "axes.titlesize": 10,
            "axes.labelsize": 9.5,
            "xtick.labelsize": 8.5,
            "ytick.labelsize": 8.5,
            "legend.fontsize": 8.5,
            "legend.frameon": True,
            "legend.framealpha": 0.85,
            "legend.edgecolor": "0.85",
            "legend.handlelength": 1.6,
            "legend.borderaxespad": 0.3,
            "lines.linewidth": 1.6,
            "font.family": "DejaVu Sans",
        }
    )


def new_axes(ncols: int = 1, nrows: int = 1, **kwargs: Any) -> tuple[plt.Figure, Any]:
    """A figure as wide as the book's text column: ``plt.subplots`` with the panels sharing its width.

    Parameters
    ----------
    ncols, nrows : int
        The grid of panels.
    **kwargs
        ``panel_width`` and ``panel_height`` (inches; by default the panels share
        :data:`PAGE_WIDTH` and are 3.0 inches high when there are several, 4.0 for one panel), the
        rest passed to ``plt.subplots``.

    Returns
    -------
    tuple
        ``(figure, axes)`` as ``plt.subplots`` returns them.
    """
    width = kwargs.pop("panel_width", PAGE_WIDTH / ncols)
    height = kwargs.pop("panel_height", 3.0 if nrows > 1 or ncols > 1 else 4.0)
    return plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), constrained_layout=True, **kwargs)


def plot_runs(
    ax: Any,
    x: Any,
    values: Any,
    label: str,
    *,
    color: str | None = None,
    band: str = "quantile",
    quantiles: tuple[float, float] = (0.05, 0.95),
    max_points: int = 400,
    **line_kwargs: Any,
) -> None:
    """Plot the mean of ``values`` over runs, with a band.

    Long series are thinned to about ``max_points`` points (log-spaced where the x axis is
    logarithmic).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        The axes to draw on.
    x : array_like
        Shape ``(n,)``: the x values.
    values : array_like
        Shape ``(runs, n)``: one row per run.
    label : str
        The legend label; also picks the colour (:func:`color_for`) unless ``color`` is given.
    color : str or None
        The colour of line and band.
    band : {"quantile", "stderr", "none"}
        ``"quantile"``: between the given ``quantiles`` of the runs; ``"stderr"``: mean +- 1.96
        standard errors; ``"none"``: no band.
    quantiles : tuple of float
        The quantiles of the band (default 5%-95%).
    max_points : int
        About how many points to draw.
    **line_kwargs
        Passed to ``ax.plot``.

    Raises
    ------
    ValueError
        If ``x`` or ``values`` is not finite, ``values`` does not have shape ``(runs, len(x))``, or
        ``band`` is not one of the three.
    """
    x_arr = check_finite_array("x", x, ndim=1)
    vals = check_finite_array("values", values, ndim=2)
    if vals.shape[1] != x_arr.size:
        raise ValueError(f"values must have shape (runs, {x_arr.size}), got {vals.shape}")
    if band not in {"quantile", "stderr", "none"}:
        raise ValueError(f"band must be 'quantile', 'stderr' or 'none', got {band!r}")
    if x_arr.size > max_points:
        if ax.get_xscale() == "log" and x_arr.min() > 0:
            idx = np.unique(np.geomspace(1, x_arr.size, max_points).astype(int) - 1)
        else:
            idx = np.unique(np.linspace(0, x_arr.size - 1, max_points).astype(int))
        x_arr, vals = x_arr[idx], vals[:, idx]
    color = color or color_for(label)
    mean = vals.mean(axis=0)
    ax.plot(x_arr, mean, label=label, color=color, **line_kwargs)
    if band == "quantile" and vals.shape[0] > 1:
        lo, hi = np.quantile(vals, quantiles, axis=0)
        ax.fill_between(x_arr, lo, hi, color=color, alpha=0.18, linewidth=0)
    elif band == "stderr" and vals.shape[0] > 1:
        half = 1.96 * vals.std(axis=0, ddof=1) / np.sqrt(vals.shape[0])
        ax.fill_between(x_arr, mean - half, mean + half, color=color, alpha=0.18, linewidth=0)
