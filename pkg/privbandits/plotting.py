"""One figure and table style for the whole book: :func:`use_book_style` once per notebook,
:func:`color_for` (one colour per algorithm in every chapter), :func:`plot_runs` (mean over runs with a
band) and :func:`show_table` (the one way the book shows a table).
"""

from __future__ import annotations

import hashlib
import html
import math
import numbers
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

from ._validation import check_finite_array

__all__ = [
    "ALGORITHM_COLORS",
    "PAGE_WIDTH",
    "author_year",
    "color_for",
    "format_number",
    "new_axes",
    "plot_runs",
    "show_table",
    "use_book_style",
]

#: Colour of each algorithm across the book (colour-blind-safe Okabe-Ito / Tol colours).
#: Every algorithm that Part VI puts side by side has its own colour, at least 25 apart in CIELAB
#: (``tests/test_plotting.py``); algorithms that never share a figure may share one (OFUL and the
#: fair-hiring rows, say). The colours of Part VI's own rows were chosen for that distance; those of
#: algorithms that other parts draw too are as they were.
ALGORITHM_COLORS: dict[str, str] = {
    "UCB": "#000000",
    "NCB": "#000000",
    "Private-UCB": "#999999",
    "Private-UCB (eps per tree)": "#4D9221",
    "Private-UCB (tail bound, eps per tree)": "#332288",
    "DP-SE": "#CCBB44",
    "DP-UCB-BOUND": "#0072B2",
    "DP-UCB": "#009E73",
    "DP-UCB-INT": "#CC79A7",
    "DP-UCB-INT (pure)": "#EE3377",
    "GDP-NCB": "#56B4E9",
    "Anytime GDP-NCB": "#FFB000",
    "AdaP-UCB": "#D55E00",
    "AdaP-KLUCB": "#785EF0",
    "DP-TS": "#8C510A",
    "Lazy-DP-TS": "#00BFC4",
    "Gaussian TS": "#777777",
    "Beta TS": "#000080",
    "LDP-UCB": "#E69F00",
    "LDP-NCB": "#009E73",
    "Anytime LDP-NCB": "#332288",
    "OFUL": "#D55E00",
    "Fair-Greedy": "#000000",
    "Private-Fair-Greedy": "#0072B2",
}

_FALLBACK = ["#56B4E9", "#F0E442", "#882255", "#44AA99", "#999933", "#AA4499", "#332288", "#117733"]


def color_for(name: str) -> str:
    """The book's hex colour for an algorithm, the same in every chapter.

    Parameters
    ----------
    name : str
        A label in :data:`ALGORITHM_COLORS`, else its part before ``" ("`` (unknown: a fixed fallback).

    Returns
    -------
    str
    """
    if name in ALGORITHM_COLORS:
        return ALGORITHM_COLORS[name]
    base = name.split(" (")[0]
    if base in ALGORITHM_COLORS:
        return ALGORITHM_COLORS[base]
    digest = int(hashlib.sha256(base.encode()).hexdigest(), 16)
    return _FALLBACK[digest % len(_FALLBACK)]


#: Width of a figure in inches; at ``figure.dpi`` it is about the width of the book's text column
#: (about 750 px), so a figure is shown near its natural size and its text at the sizes set below.
PAGE_WIDTH = 7.0


def use_book_style() -> None:
    """Apply the book's matplotlib style: :data:`PAGE_WIDTH`-inch figures at 110 dpi, constrained layout."""
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
    """``plt.subplots`` with the panels sharing the width of the book's text column.

    Parameters
    ----------
    ncols, nrows : int
    **kwargs
        ``panel_width``, ``panel_height`` (inches; share :data:`PAGE_WIDTH`, 3 high, 4 alone); rest to ``plt.subplots``.

    Returns
    -------
    tuple
        ``(figure, axes)``.
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
    """Plot the mean of ``values`` over runs with a band, thinned to about ``max_points`` points.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    x : array_like, shape (n,), finite
    values : array_like, shape (runs, n), finite
    label : str
        Legend label; picks the colour (:func:`color_for`) unless ``color`` is given.
    color : str or None
    band : {"quantile", "stderr", "none"}
        Between ``quantiles`` of the runs, mean +- 1.96 standard errors, or none.
    quantiles : tuple of float
    max_points : int
        Log-spaced on a log x axis.
    **line_kwargs
        Passed to ``ax.plot``.
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


#: A cell that is exactly a BibTeX key of the book's form (``azize2022privacy``): never shown raw.
_BIBTEX_KEY = re.compile(r"^[a-z][a-z-]*\d{4}[a-z0-9]*$")
#: Characters of table text that fit the book's text column at the tables' font size (0.85 em).
TABLE_WIDTH = 100
#: Dash shown for a missing value (NaN or None) unless the caller names another word.
MISSING = "–"


def _superscript(exponent: int) -> str:
    """``10^exponent`` as inline math for the page."""
    return f'<span class="math notranslate nohighlight">\\(10^{{{exponent}}}\\)</span>'


def format_number(value: Any, digits: int = 3) -> str:
    """One number as the book prints it: ``"11,000"``, ``"0.123"``, ``"2.50"``, ``"∞"``.

    Parameters
    ----------
    value : int or float
    digits : int >= 1
        Significant figures of a non-integer (a shorter exact decimal as it is); integers and values of at
        least ``10^(digits - 1)`` whole, with thousands separators.

    Returns
    -------
    str
        Below a thousandth ``a × 10^k`` in inline math; :data:`MISSING` for NaN.
    """
    if not isinstance(digits, numbers.Integral) or digits < 1:
        raise ValueError(f"digits must be an integer >= 1, got {digits!r}")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"value must be a real number, got {value!r}")
    x = float(value)
    if math.isnan(x):
        return MISSING
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == 0:
        return "0"
    if isinstance(value, numbers.Integral) or (abs(x) >= 10 ** (digits - 1) and x == round(x)):
        return f"{round(x):,}".replace("-", "−")
    if abs(x) >= 10 ** (digits - 1):
        return f"{x:,.0f}".replace("-", "−")
    exponent = math.floor(math.log10(abs(x)))
    if exponent < -3:
        mantissa = f"{x / 10**exponent:.{digits - 1}f}"
        if float(mantissa) >= 10:  # rounding carried into the next power
            exponent += 1
            mantissa = f"{x / 10**exponent:.{digits - 1}f}"
        return f'<span class="math notranslate nohighlight">\\({mantissa} \\times 10^{{{exponent}}}\\)</span>'
    decimals = max(0, digits - 1 - exponent)
    if float(f"{x:.{digits}g}") == x:  # an exact short decimal (a parameter such as 0.25): as is
        decimals = len(f"{abs(x):.{decimals}f}".rstrip("0").partition(".")[2])
    text = f"{x:,.{decimals}f}"
    if float(text.replace(",", "")) != 0 and math.floor(math.log10(abs(float(text.replace(",", ""))))) > exponent:
        decimals = max(0, decimals - 1)  # 0.9996 -> "1.00", not "1.000"
        text = f"{x:,.{decimals}f}"
    return text.replace("-", "−")


def _format_horizon(value: Any) -> str:
    """A horizon: a power of ten as ``10^k`` in math, anything else as a whole number."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value) and value > 0:
        k = round(math.log10(value))
        if 10**k == value and k >= 3:
            return _superscript(k)
    return _format_cell(value, None)


def _find_bib() -> Path | None:
    """The book's ``references.bib``: in the working directory, a parent, or a parent's ``book/``."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        for candidate in (folder / "references.bib", folder / "book" / "references.bib"):
            if candidate.is_file():
                return candidate
    return None


def _bib_entries(path: Path) -> dict[str, dict[str, str]]:
    """The ``author`` and ``year`` fields of every entry of a BibTeX file, by key."""
    text = path.read_text(encoding="utf-8")
    entries = {}
    for match in re.finditer(r"@\w+\s*\{\s*([^,\s]+)\s*,(.*?)\n\}", text, flags=re.DOTALL):
        fields = dict(
            (name.lower(), value.strip())
            for name, value in re.findall(r"(\w+)\s*=\s*\{((?:[^{}]|\{[^{}]*\})*)\}", match.group(2))
        )
        entries[match.group(1)] = fields
    return entries


def author_year(key: str, bib: str | Path | None = None) -> str:
    """A BibTeX key as the book's author-year citation: ``"Azize and Basu 2022"``, ``"Auer et al. 2002"``.

    Parameters
    ----------
    key : str
    bib : str, Path or None
        The BibTeX file (``None``: the book's ``references.bib``, found from the working directory).

    Returns
    -------
    str
    """
    path = Path(bib) if bib is not None else _find_bib()
    if path is None or not path.is_file():
        raise ValueError(f"bib must be a BibTeX file; found none for key {key!r}")
    entry = _bib_entries(path).get(key)
    if entry is None or "year" not in entry or not (entry.get("author") or entry.get("editor")):
        raise ValueError(f"key must be an entry of {path} with an author and a year, got {key!r}")
    people = [p.strip() for p in re.split(r"\s+and\s+", entry.get("author") or entry["editor"]) if p.strip()]
    last = [(p.split(",")[0] if "," in p else p.split()[-1]).strip("{} ") for p in people]
    names = last[0] if len(last) == 1 else f"{last[0]} and {last[1]}" if len(last) == 2 else f"{last[0]} et al."
    return f"{names} {entry['year']}"


def _format_cell(
    value: Any,
    fmt: str | Callable[[Any], str] | None,
    digits: int = 3,
    missing: str = MISSING,
    bib: str | Path | None = None,
) -> str:
    """One cell as HTML: ``fmt``, yes/no, :func:`format_number`, or text with keys cited."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return missing
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, numbers.Real) and math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if fmt is not None:
        return fmt(value) if callable(fmt) else fmt.format(value)
    if isinstance(value, numbers.Real):
        return format_number(value, digits)
    text = _cite_in_text(str(value), bib)
    if _BIBTEX_KEY.match(text):
        raise ValueError(f"a table cell is a raw BibTeX key ({text!r}): name its column in citations=")
    return html.escape(text)


def _cite_in_text(text: str, bib: str | Path | None) -> str:
    """Every word of ``text`` that is a key of the book's BibTeX file, as author-year."""
    words = set(re.findall(r"\b[a-z][a-z-]*\d{4}[a-z0-9]*\b", text))
    if not words:
        return text
    path = Path(bib) if bib is not None else _find_bib()
    entries = _bib_entries(path) if path is not None and path.is_file() else {}
    for word in words:
        if word in entries:
            text = re.sub(rf"\b{re.escape(word)}\b", author_year(word, path), text)
    return text


def _html_table(header: list[str], body: list[list[str]], caption: str | None) -> str:
    """A plain HTML table (cells already HTML) that scrolls sideways on a narrow screen."""
    head = "".join(f'<th style="text-align:left">{h}</th>' for h in header)
    rows = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in body)
    cap = f"<caption>{caption}</caption>" if caption else ""
    return (
        '<div class="pb-table" style="overflow-x:auto;max-width:100%">'
        f'<table class="dataframe pb-table">{cap}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>'
    )


def _text_width(text: str) -> int:
    """Visible characters of a cell's HTML (markup stripped, math counted by its digits)."""
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"\\\((.*?)\\\)", lambda m: re.sub(r"[\\{}^]|times", "", m.group(1)), text)
    return len(html.unescape(text))


#: A cell of text longer than this wraps onto several lines (at its spaces) in the page.
WRAP_WIDTH = 30


def _column_width(header: str, cells: list[str]) -> int:
    """Characters a column needs: its widest cell (wrapping at WRAP_WIDTH) or its header's longest word."""
    need = [max((len(w) for w in header.split()), default=0)]
    for cell in cells:
        text = re.sub(r"<[^>]+>", "", cell)
        longest_word = max((_text_width(w) for w in text.split()), default=0)
        need.append(max(longest_word, min(_text_width(cell), WRAP_WIDTH)))
    return max(need) + 2


class Table:
    """An HTML table for a notebook page, as :func:`show_table` returns it.

    Attributes
    ----------
    parts : list of tuple
        ``(header, rows)`` of each part shown; cells are HTML.
    html : str
    """

    def __init__(self, parts: list[tuple[list[str], list[list[str]]]], html_text: str):
        self.parts = parts
        self.html = html_text

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return f"Table({len(self.parts)} part(s), {sum(len(rows) for _, rows in self.parts)} rows)"


def show_table(
    df: Any,
    *,
    formats: dict[str, str | Callable[[Any], str]] | None = None,
    horizons: tuple[str, ...] | list[str] = (),
    citations: tuple[str, ...] | list[str] = (),
    digits: int = 3,
    missing: str = MISSING,
    keys: int = 1,
    max_width: int = TABLE_WIDTH,
    max_rows: int = 20,
    short: Any = None,
    caption: str | None = None,
    transpose: bool = False,
    bib: str | Path | None = None,
) -> Table:
    """Show a table the book's way: the one table helper of every chapter.

    No index column; numbers by :func:`format_number`; yes/no for booleans; ``missing`` for NaN and None;
    ``horizons`` as powers of ten; ``citations`` (and known keys in any text) as author-year, a raw unknown
    key refused. Wider than ``max_width``: split into parts repeating the first ``keys`` columns; longer
    than ``max_rows``: ``short``, then the full table collapsed.

    Parameters
    ----------
    df : pandas.DataFrame
    formats : dict or None
        Column to a ``str.format`` pattern or a function returning HTML.
    horizons, citations : sequence of str
        Columns of horizons, and of BibTeX keys.
    digits : int >= 1
    missing : str
    keys : int >= 0
    max_width : int >= 20
        Characters that fit the text column.
    max_rows : int >= 1
    short : pandas.DataFrame or None
    caption : str or None
    transpose : bool
        Rows as columns.
    bib : str, Path or None
        As for :func:`author_year`.

    Returns
    -------
    Table
    """
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    if not isinstance(digits, numbers.Integral) or digits < 1:
        raise ValueError(f"digits must be an integer >= 1, got {digits!r}")
    if not isinstance(keys, numbers.Integral) or keys < 0:
        raise ValueError(f"keys must be an integer >= 0, got {keys!r}")
    if not isinstance(max_width, numbers.Integral) or max_width < 20:
        raise ValueError(f"max_width must be an integer >= 20, got {max_width!r}")
    if not isinstance(max_rows, numbers.Integral) or max_rows < 1:
        raise ValueError(f"max_rows must be an integer >= 1, got {max_rows!r}")
    if short is not None and not isinstance(short, pd.DataFrame):
        raise ValueError(f"short must be a pandas DataFrame or None, got {type(short).__name__}")
    formats = dict(formats or {})
    for name, group in (("formats", formats), ("horizons", horizons), ("citations", citations)):
        unknown = [c for c in group if c not in df.columns]
        if unknown:
            raise ValueError(f"{name} names columns that the table does not have: {unknown}")

    def cells(frame: Any) -> tuple[list[str], list[list[str]]]:
        frame = frame.reset_index() if frame.index.name is not None else frame.reset_index(drop=True)
        if transpose:
            first = str(frame.columns[0])
            frame = frame.set_index(first).T.reset_index().rename(columns={"index": first})
        header = [html.escape(str(c)) for c in frame.columns]
        body = []
        for row in frame.itertuples(index=False):
            out = []
            for col, value in zip(frame.columns, row):
                if col in citations and isinstance(value, str):
                    out.append(html.escape(author_year(value, bib)))
                elif col in horizons:
                    out.append(_format_horizon(value) if value is not None else missing)
                else:
                    out.append(_format_cell(value, formats.get(col), digits, missing, bib))
            body.append(out)
        return header, body

    def split(header: list[str], body: list[list[str]]) -> list[tuple[list[str], list[list[str]]]]:
        widths = [_column_width(h, [r[i] for r in body]) for i, h in enumerate(header)]
        lead = min(keys, len(header))
        parts, current, used = [], [], sum(widths[:lead])
        for i in range(lead, len(header)):
            if current and used + widths[i] > max_width:
                parts.append(current)
                current, used = [], sum(widths[:lead])
            current.append(i)
            used += widths[i]
        parts.append(current)
        if len(parts) == 1:
            return [(header, body)]
        return [
            ([header[j] for j in [*range(lead), *idx]], [[r[j] for j in [*range(lead), *idx]] for r in body])
            for idx in parts
        ]

    def render(frame: Any, cap: str | None) -> tuple[list, str]:
        pieces = split(*cells(frame))
        text = "".join(
            _html_table(
                h, b, cap if len(pieces) == 1 else f"{cap + ', c' if cap else 'C'}olumns, part {n + 1} of {len(pieces)}"
            )
            for n, (h, b) in enumerate(pieces)
        )
        return pieces, text

    if len(df) <= max_rows:
        pieces, text = render(df, caption)
        return Table(pieces, text)
    pieces, text = [], ""
    if short is not None:
        pieces, text = render(short, caption)
    full_pieces, full = render(df, None)
    summary = f"The full table ({len(df):,} rows)" if short is not None else f"{caption or 'Table'} ({len(df):,} rows)"
    text += f"<details><summary>{html.escape(summary)}</summary>{full}</details>"
    return Table(pieces + full_pieces, text)
