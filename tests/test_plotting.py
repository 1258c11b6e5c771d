"""Tests of privbandits.plotting (headless backend)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from privbandits import plotting  # noqa: E402
from privbandits.calibration import GLOBAL_ALGORITHMS, LOCAL_ALGORITHMS, PENDING_ALGORITHMS, READINGS  # noqa: E402


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


#: the rows of Part VI's global frontier figures (benchmarks/run_frontier.py's): UCB, every global algorithm
#: and reading calibrate knows, and DP-UCB-INT calibrated at pure eps
PART_VI_GLOBAL = ("UCB", *GLOBAL_ALGORITHMS, "DP-UCB-INT (pure)", *READINGS)


def test_every_part_vi_algorithm_has_its_own_colour():
    rows = (*PART_VI_GLOBAL, *PENDING_ALGORITHMS, "Gaussian TS")
    colours = [plotting.color_for(r) for r in rows]
    assert len(set(colours)) == len(rows), "two algorithms of one Part VI figure share a colour"
    assert plotting.color_for("DP-UCB-INT (pure)") != plotting.color_for("DP-UCB-INT")
    local = [plotting.color_for(r) for r in LOCAL_ALGORITHMS]
    assert len(set(local)) == len(LOCAL_ALGORITHMS)
    assert all(r in plotting.ALGORITHM_COLORS for r in rows)


def _cielab(colour: str) -> np.ndarray:
    """A hex sRGB colour in CIELAB (D65 white)."""
    c = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    c = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ c
    f = np.array([t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz / [0.95047, 1.0, 1.08883]])
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_part_vi_global_rows_are_told_apart():
    """The rows of Part VI's global frontier figures: every two colours at least 25 apart in CIELAB."""
    rows = PART_VI_GLOBAL
    lab = {r: _cielab(plotting.color_for(r)) for r in rows}
    close = [(a, b) for i, a in enumerate(rows) for b in rows[i + 1 :] if np.linalg.norm(lab[a] - lab[b]) < 25]
    assert not close, f"colours too alike: {close}"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (11000, "11,000"),
        (1.1e4, "11,000"),
        (123456.7, "123,457"),
        (0.123456, "0.123"),
        (0.25, "0.25"),
        (2.0, "2"),
        (0.99996, "1.00"),
        (45.67, "45.7"),
        (-0.5, "−0.5"),
        (float("nan"), plotting.MISSING),
        (float("inf"), "∞"),
        (np.int64(100000), "100,000"),
    ],
)
def test_format_number(value, text):
    assert plotting.format_number(value) == text


def test_format_number_tiny_values_are_math_and_bad_input_raises():
    expected = r'<span class="math notranslate nohighlight">\(3.20 \times 10^{-5}\)</span>'
    assert plotting.format_number(3.2e-5) == expected
    assert "10^{-4}" in plotting.format_number(9.996e-5)  # the rounding carries into the exponent
    with pytest.raises(ValueError, match="digits"):
        plotting.format_number(1.0, digits=0)
    with pytest.raises(ValueError, match="value"):
        plotting.format_number("1.0")


def test_author_year(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{one1965x,\n  author = {Warner, Stanley L.},\n  year = {1965}\n}\n"
        "@article{two2022y,\n  author = {Azize, Achraf and Basu, Debabrota},\n  year = {2022}\n}\n"
        "@article{three2002z,\n  author = {Peter Auer and Cesa-Bianchi, Nicol{\\`o} and Fischer, Paul},\n"
        "  year = {2002}\n}\n"
    )
    assert plotting.author_year("one1965x", bib) == "Warner 1965"
    assert plotting.author_year("two2022y", bib) == "Azize and Basu 2022"
    assert plotting.author_year("three2002z", bib) == "Auer et al. 2002"
    with pytest.raises(ValueError, match="key"):
        plotting.author_year("absent2000", bib)


def _table(**columns):
    import pandas as pd

    return pd.DataFrame(columns)


def test_show_table_formats_cells_without_index_nan_or_booleans():
    df = _table(T=[10**5, 10**6], eps=[0.1, float("inf")], regret=[11000.0, float("nan")], ok=[True, False])
    df.index = [7, 8]
    t = plotting.show_table(df, horizons=["T"], formats={"eps": "{:g}"})
    header, rows = t.parts[0]
    assert header == ["T", "eps", "regret", "ok"]  # no index column
    assert rows[0] == [r'<span class="math notranslate nohighlight">\(10^{5}\)</span>', "0.1", "11,000", "yes"]
    assert rows[1][1:] == ["∞", plotting.MISSING, "no"]
    for bad in ("nan", "NaN", "True", "False", "e+0", ">7<", ">8<"):
        assert bad not in t._repr_html_()


def test_show_table_citations_and_raw_keys(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{azize2022privacy,\n  author = {Azize, Achraf and Basu, Debabrota},\n  year = {2022}\n}\n")
    t = plotting.show_table(_table(paper=["azize2022privacy"], x=[1]), citations=["paper"], bib=bib)
    assert t.parts[0][1][0][0] == "Azize and Basu 2022"
    with pytest.raises(ValueError, match="BibTeX"):  # a key of no known entry cannot be cited
        plotting.show_table(_table(paper=["nobody1999unknown"], x=[1]), bib=bib)
    with pytest.raises(ValueError, match="citations"):
        plotting.show_table(_table(x=[1]), citations=["paper"])


def test_show_table_splits_wide_tables_repeating_the_key_column():
    df = _table(name=["a", "b"], **{f"column number {i}": ["x" * 25, "y"] for i in range(6)})
    t = plotting.show_table(df, max_width=80)
    assert len(t.parts) > 1
    for header, rows in t.parts:
        assert header[0] == "name"
        width = sum(plotting._column_width(h, [r[i] for r in rows]) for i, h in enumerate(header))
        assert width <= 80
    shown = [h for header, _ in t.parts for h in header[1:]]
    assert shown == list(df.columns[1:])  # every column once, in order


def test_show_table_collapses_long_tables():
    df = _table(i=list(range(60)), v=[0.5] * 60)
    t = plotting.show_table(df, max_rows=10, short=df.head(3))
    html = t._repr_html_()
    assert html.index("<details>") > html.index("</table>")  # the short table first, the full one collapsed
    assert "The full table (60 rows)" in html
    assert [len(rows) for _, rows in t.parts] == [3, 60]
    with pytest.raises(ValueError, match="max_rows"):
        plotting.show_table(df, max_rows=0)
    with pytest.raises(ValueError, match="df"):
        plotting.show_table([[1, 2]])


def test_show_table_transposes():
    t = plotting.show_table(_table(stat=["mean", "max"], a=[1.5, 2.5], b=[3.5, 4.5]), transpose=True)
    header, rows = t.parts[0]
    assert header == ["stat", "mean", "max"]
    assert rows == [["a", "1.5", "2.5"], ["b", "3.5", "4.5"]]


def test_show_table_cites_keys_inside_text_and_labels_split_parts(tmp_path):
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{azize2022privacy,\n  author = {Azize, Achraf and Basu, Debabrota},\n  year = {2022}\n}\n")
    t = plotting.show_table(_table(note=["Lemma 1 of azize2022privacy (one release)"]), bib=bib)
    assert t.parts[0][1][0][0] == "Lemma 1 of Azize and Basu 2022 (one release)"
    wide = plotting.show_table(_table(a=["x"], **{f"c{i}": ["y" * 28] for i in range(5)}), max_width=60)
    assert "Columns, part 1 of" in wide._repr_html_()
