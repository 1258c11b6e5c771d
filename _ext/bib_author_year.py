"""Sphinx extension: an author-year bibliography, to match the author-year citations of the text.

The chapters cite with ``bibtex_reference_style: author_year`` ("Barman et al. [2023]"), but
pybtex's ``plain`` style labels the bibliography's entries with numbers. This registers the
pybtex formatting style ``authoryear``: ``plain``'s entries and sort order, labelled
"Auer et al., 2002" (one author: "Warner, 1965"; two: "Azize and Basu, 2022"; a letter is
appended when two entries would get the same label). ``_config.yml`` selects it with
``bibtex_default_style: authoryear``.
"""

from collections import Counter

from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle


def _last_name(person):
    return " ".join(part.strip("{}") for part in person.prelast_names + person.last_names)


def _author_year(entry):
    persons = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [_last_name(p) for p in persons]
    if not names:
        who = entry.fields.get("key", entry.key)
    elif len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    return f"{who}, {entry.fields.get('year', 'n.d.')}"


class AuthorYearLabelStyle(BaseLabelStyle):
    """Labels "Author et al., year", made unique with a, b, ... after the year."""

    def format_labels(self, sorted_entries):
        entries = list(sorted_entries)
        labels = [_author_year(e) for e in entries]
        counts, seen = Counter(labels), Counter()
        for label in labels:
            if counts[label] > 1:
                yield label + "abcdefghijklmnopqrstuvwxyz"[seen[label]]
                seen[label] += 1
            else:
                yield label


class AuthorYearStyle(PlainStyle):
    """pybtex's ``plain`` style with author-year labels."""

    default_label_style = AuthorYearLabelStyle


def setup(app):
    register_plugin("pybtex.style.labels", "authoryear", AuthorYearLabelStyle)
    register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
