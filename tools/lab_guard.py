"""Grading guard of the book's labs: the package's own implementation of a question raises.

``tools/labs.py`` ships this module in each autograder zip (otter copies it next to the submission,
where the grading kernel imports it). A hidden test calls the student's function inside
``forbid(function, "privbandits.<module>.<name>", ...)``: while it runs, every binding of those
objects (in the package's modules and in the submission's namespace, e.g. after ``from
privbandits.mechanisms import laplace_mechanism``) is replaced by a function that raises
:class:`PackageCalled`, so a submission that wraps the package fails every hidden test of the
question and scores zero on it.
"""

from __future__ import annotations

import contextlib
import importlib
import sys


class PackageCalled(AssertionError):
    """The submission called the package's implementation of what the question asks for."""


def _raiser(name: str):
    """A stand-in for ``name`` that raises when called."""

    def called(*args, **kwargs):
        raise PackageCalled(f"your code calls the package's {name}; this question asks you to write it yourself")

    return called


@contextlib.contextmanager
def forbid(function, *names: str):
    """Make the package's ``names`` raise while the block runs (see the module docstring).

    Parameters
    ----------
    function : callable
        The student's function; its module namespace is searched too.
    *names : str
        Dotted names of the package's objects, e.g. ``"privbandits.mechanisms.laplace_mechanism"``.

    Yields
    ------
    None
    """
    banned = {}
    for name in names:
        module, attr = name.rsplit(".", 1)
        banned[id(getattr(importlib.import_module(module), attr))] = name
    spaces = [vars(m) for n, m in list(sys.modules.items()) if m is not None and n.split(".")[0] == "privbandits"]
    spaces.append(getattr(function, "__globals__", {}))
    swapped = []
    for space in spaces:
        for key, value in list(space.items()):
            if id(value) in banned:
                swapped.append((space, key, value))
                space[key] = _raiser(banned[id(value)])
    try:
        yield
    finally:
        for space, key, value in reversed(swapped):
            space[key] = value
