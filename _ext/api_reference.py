"""Sphinx extension: the package reference reads like the chapters (issue 34).

* Citations. The package's docstrings cite papers by their BibTeX key in double backticks
  (``sarkar2026dpncb``), the convention of CONTRIBUTING.md, so that ``help()`` in a terminal names
  the paper. On the site a key that ``book/references.bib`` holds becomes a citation as the
  chapters write it: ``(``key``)`` a parenthetical one (``:cite:p:``), any other mention of the key
  (in backticks or bare, as in a ``#:`` comment) a textual one (``:cite:t:``), "Azize and Basu
  [2022]", each linked to its entry in the bibliography. Lines of a doctest (``>>>``) are left alone.
* Module constants. autodoc shows a module constant's value as Python prints it
  (``DELTA = 4.5399929762484854e-05``); this shows it as the source writes it
  (``DELTA = float(np.exp(-10))``) whenever that differs and fits one line, as
  ``autodoc_preserve_defaults`` does for default arguments.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
from pathlib import Path

from sphinx.ext.autodoc import DataDocumenter
from sphinx.util.inspect import object_description

_SOURCE_VALUE_MAX = 80  # characters: a longer expression is left to autodoc's own value


def _keys(app) -> set[str]:
    """The book's BibTeX keys; the file is found from the book's root as well, for a one-page build
    (``jupyter-book build book/<part>/<page>.ipynb``), whose source folder is the page's."""
    keys = set()
    for name in app.config.bibtex_bibfiles:
        roots = (Path(app.srcdir), Path(app.confdir), Path(__file__).resolve().parent.parent)
        path = next((root / name for root in roots if (root / name).is_file()), None)
        if path is None:
            raise FileNotFoundError(f"bibtex_bibfiles: {name} not found under {', '.join(map(str, roots))}")
        keys.update(re.findall(r"@\w+\s*\{\s*([^,\s]+)\s*,", path.read_text(encoding="utf-8")))
    return keys


def _citation_patterns(keys: set[str]) -> list[tuple[re.Pattern, str]]:
    alternatives = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    return [
        (re.compile(rf"\(``({alternatives})``\)"), r":cite:p:`\1`"),
        (re.compile(rf"``({alternatives})``"), r":cite:t:`\1`"),
        # bare: not part of a longer word, a literal or a role already written
        (re.compile(rf"(?<![\w`:/.-])({alternatives})(?![\w`/-])"), r":cite:t:`\1`"),
    ]


_PATTERNS: list[tuple[re.Pattern, str]] = []


def _cite_keys(app, what, name, obj, options, lines):
    patterns = _PATTERNS
    for i, line in enumerate(lines):
        if line.lstrip().startswith((">>>", "...")):
            continue
        for pattern, replacement in patterns:
            line = pattern.sub(replacement, line)
        lines[i] = line


def _set_patterns(app):
    _PATTERNS[:] = _citation_patterns(_keys(app))


@functools.cache
def _module_assignments(module_name: str, source: str) -> dict[str, str]:
    """Top-level ``NAME = expression`` of a module: the expression's source text, by name."""
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        segment = ast.get_source_segment(source, value)
        for target in targets:
            if isinstance(target, ast.Name) and segment is not None:
                found[target.id] = segment
    return found


class SourceValueDataDocumenter(DataDocumenter):
    """A module constant with its value as the source writes it (when it differs and is short)."""

    priority = DataDocumenter.priority + 1

    def _source_value(self) -> str | None:
        try:
            source = inspect.getsource(self.parent)
        except (TypeError, OSError):
            return None
        segment = _module_assignments(self.parent.__name__, source).get(self.objpath[-1])
        if segment is None or "\n" in segment or len(segment) > _SOURCE_VALUE_MAX:
            return None
        try:
            if segment == object_description(self.object):
                return None
        except ValueError:
            pass
        return segment

    def should_suppress_value_header(self) -> bool:
        return super().should_suppress_value_header() or self._source_value() is not None

    def add_directive_header(self, sig: str) -> None:
        super().add_directive_header(sig)
        if self.options.no_value or self.options.annotation or self.should_suppress_directive_header():
            return
        segment = self._source_value()
        if segment is not None:
            self.add_line("   :value: " + segment, self.get_sourcename())


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    app.connect("builder-inited", _set_patterns)
    app.connect("autodoc-process-docstring", _cite_keys)
    app.add_autodocumenter(SourceValueDataDocumenter, override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
