"""Sphinx extension: write every inline ``<script>`` of a page once.

Sphinx 7.4 adds each script registered after the builder starts to the page a second time (once as
filename ``None``, once as ``''``; sphinx-doc/sphinx#13402, fixed upstream in 2025 for Sphinx 8,
while Jupyter Book 1.x requires Sphinx 7). sphinx-thebe registers ``const THEBE_JS_URL = ...`` that way, and declaring a
``const`` twice is a SyntaxError in the console of every page. This drops the repeats.
"""


def _drop_repeated_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not isinstance(scripts, list):
        return
    seen, unique = set(), []
    for script in scripts:
        filename = getattr(script, "filename", script)
        attributes = getattr(script, "attributes", {})
        key = (filename or "", getattr(script, "priority", None), tuple(sorted(attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


def setup(app):
    app.connect("html-page-context", _drop_repeated_scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
