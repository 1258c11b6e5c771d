"""The built book in a real browser: headless Chromium, driven over the Chrome DevTools Protocol.

Tests ``_build/html`` (written by ``jupyter-book build .``, which CI runs before the tests), served
over http from a thread, in Debian's ``chromium``. For every page of ``_toc.yml`` (and ``index.html``):

* math is rendered: every ``.math`` node holds an ``mjx-container``, MathJax reports no error
  (``mjx-merror``), pages whose source has math show some, and no raw TeX (``$...$``, ``\\(``,
  ``$$``, ``\\begin{``) is left in the text outside code;
* every ``<img>`` loads (made eager first, so lazy images count too);
* no console error, no uncaught exception, no failed or >= 400 request, nothing left pending;
* no request leaves the site (a script or style from a CDN), online or not;
* one search box shows (the header's search button: ``_config.yml`` drops the sidebar's field).

What a reader sees (issues 24 and 34): no table or code wider than the column; images shown small
open full size; no program-printed number or raw BibTeX key in the text (the package reference
included); no visible ``glue`` call; at most 3,000 words of prose and 150 visible code lines per
page (the package reference aside); every figure in a numbered caption, with alt text that is not
a file path; on a phone (400 px) no equation or figure cut off and no page that scrolls sideways.

Without a browser, every built ``.html`` file is read as text: no notebook widget (a progress bar
drawn as an ipywidget, whose page myst-nb makes load ``require.js`` and the widget manager from
CDNs), and no ``<script>``, ``<link>``, ``<img>``, ``<iframe>`` or ``<source>`` that loads from
another site.

The search page finds ``Laplace`` and ``Nash`` in chapter pages.

Without a build or without ``chromium`` the tests skip, unless ``CI`` is set: then they fail, so CI
cannot skip the browser silently. The websocket client is tornado's (installed with Jupyter).
"""

from __future__ import annotations

import asyncio
import functools
import html.parser
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
CHROMIUM = shutil.which("chromium")


def _toc_pages() -> list[str]:
    """The html pages the book is made of: ``index.html`` and one page per ``_toc.yml`` entry."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                files.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk({key: value for key, value in toc.items() if key != "root"})
    return ["index.html"] + [f"{Path(f).with_suffix('')}.html" for f in files]


PAGES = _toc_pages()
# the chapters: pages of the numbered parts (not the root, not the back matter)
CHAPTERS = {
    f"{chapter['file']}.html"
    for part in yaml.safe_load((ROOT / "_toc.yml").read_text())["parts"]
    if part.get("numbered")
    for chapter in part["chapters"]
}


def _few(items: list, shown: int = 10) -> str:
    """The first ``shown`` items, and how many there are in all."""
    return repr(items[:shown]) + (f" ... ({len(items)} in all)" if len(items) > shown else "")


def _unavailable(reason: str):
    """Skip locally; fail under CI, where the browser test must run."""
    if IN_CI:
        pytest.fail(f"{reason} (CI is set, so the browser test may not be skipped)")
    pytest.skip(reason)


# --- a minimal synchronous DevTools client ----------------------------------------------------


class CDPError(RuntimeError):
    pass


class DevTools:
    """One websocket to the browser; commands are answered in order, events are handed to a sink."""

    def __init__(self, ws_url: str):
        from tornado.websocket import websocket_connect

        self._loop = asyncio.new_event_loop()
        self._ws = self._run(lambda: websocket_connect(ws_url, max_message_size=1 << 28), timeout=30)
        self._next_id = 0
        self.sink = None  # called with every event message

    def _run(self, start, timeout):
        """Run the awaitable ``start()`` on this client's loop (tornado binds futures to the running loop)."""

        async def run():
            return await asyncio.wait_for(start(), timeout)

        return self._loop.run_until_complete(run())

    def _read(self, timeout: float) -> dict | None:
        """The next message, or None if none arrives within ``timeout`` seconds."""
        try:
            message = self._run(self._ws.read_message, max(timeout, 0.001))
        except TimeoutError:
            return None
        if message is None:
            raise CDPError("the browser closed the DevTools connection")
        message = json.loads(message)
        if "method" in message and self.sink is not None:
            self.sink(message)
        return message

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 30):
        self._next_id += 1
        request = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            request["sessionId"] = session
        self._run(lambda: self._ws.write_message(json.dumps(request)), timeout)
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            message = self._read(remaining)
            if message is not None and message.get("id") == request["id"]:
                if "error" in message:
                    raise CDPError(f"{method}: {message['error'].get('message')}")
                return message["result"]
        raise TimeoutError(f"{method}: no answer within {timeout} s")

    def pump(self, timeout: float) -> bool:
        """Read (and dispatch) events for up to ``timeout`` seconds; True if one arrived."""
        return self._read(timeout) is not None

    def close(self):
        self._ws.close()
        self._loop.close()


class PageLog:
    """What one page did: console errors, exceptions, failed requests, requests in flight."""

    def __init__(self, session: str):
        self.session = session
        self.errors: list[str] = []
        self.urls: dict[str, str] = {}
        self.loaders: dict[str, str] = {}  # request -> the document (loader) that made it
        self.in_flight: set[str] = set()
        self.document = None  # the loader of the main frame's current document

    def pending(self) -> list[str]:
        """Requests of the current document still under way (a redirect abandons the old one's)."""
        return sorted(self.urls[r] for r in self.in_flight if self.loaders[r] == self.document)

    def __call__(self, event: dict):
        if event.get("sessionId") != self.session:
            return
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"])
            self.errors.append(f"console.{params['type']}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text", "")
            self.errors.append(f"uncaught exception: {text} ({details.get('url', '')}:{details.get('lineNumber')})")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            self.errors.append(f"log error ({entry['source']}): {entry['text']} {entry.get('url', '')}".rstrip())
        elif method == "Page.frameNavigated" and not params["frame"].get("parentId"):
            self.document = params["frame"]["loaderId"]
        elif method == "Network.requestWillBeSent":
            self.urls[params["requestId"]] = params["request"]["url"]
            self.loaders[params["requestId"]] = params.get("loaderId")
            self.in_flight.add(params["requestId"])
        elif method == "Network.loadingFinished":
            self.in_flight.discard(params["requestId"])
        elif method == "Network.loadingFailed":
            self.in_flight.discard(params["requestId"])
            url = self.urls.get(params["requestId"], "?")
            self.errors.append(f"request failed: {url}: {params['errorText']}")
        elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
            response = params["response"]
            self.errors.append(f"HTTP {response['status']}: {response['url']}")


# Resolves once the page is settled: MathJax has typeset, every image (made eager) is loaded or
# broken, fonts are loaded.
READY_JS = """(async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const images = Array.from(document.images);
  for (const img of images) img.loading = 'eager';
  await Promise.all(images.map(img => img.complete ? null : new Promise(done => {
    img.addEventListener('load', done); img.addEventListener('error', done);
  })));
  await document.fonts.ready;
  return true;
})()"""

# The page's facts. Text is gathered per block element (so `$a_i$` split by a stray <em> still
# reads as one string), leaving out code, scripts and MathJax's own output.
FACTS_JS = r"""(() => {
  const skip = 'pre, code, kbd, samp, script, style, textarea, mjx-container, .highlight';
  const block = 'p, li, dt, dd, td, th, h1, h2, h3, h4, h5, h6, caption, figcaption, div, section, body';
  const texts = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(skip)) continue;
    const owner = parent.closest(block);
    texts.set(owner, (texts.get(owner) || '') + node.data);
  }
  return {
    url: location.href,
    mathjax_loaded: !!(window.MathJax && MathJax.startup && MathJax.startup.document),
    math_nodes: document.querySelectorAll('.math').length,
    mjx_containers: document.querySelectorAll('mjx-container').length,
    unrendered_math: Array.from(document.querySelectorAll('.math'))
      .filter(e => !e.querySelector('mjx-container')).map(e => e.textContent.trim().slice(0, 120)),
    math_errors: Array.from(document.querySelectorAll('mjx-merror'))
      .map(e => e.getAttribute('data-mjx-error') || e.textContent),
    images: Array.from(document.images)
      .map(i => ({src: i.currentSrc || i.src, complete: i.complete, width: i.naturalWidth})),
    search_links: Array.from(document.querySelectorAll('#search-results ul.search li a')).map(a => a.href),
    search_boxes: Array.from(document.querySelectorAll('.search-button__button'))
      .filter(b => b.getClientRects().length > 0).length,
    texts: Array.from(texts.values()).filter(t => t.trim()),
  };
})()"""


# What a reader sees in the article: what overflows the column, images shown small with no way to
# open them, the text outside code (outputs included), the prose alone, the visible code lines.
READING_JS = r"""(() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  const box = article.getBoundingClientRect();
  // rendered and not folded away (a closed <details>, e.g. a hide-input cell, keeps boxes in Chromium)
  const shown = el =>
    (el.offsetParent !== null || el.getClientRects().length > 0) && !el.closest('details:not([open])');
  const snippet = el => el.tagName.toLowerCase() + ': ' + (el.innerText || '').trim().slice(0, 80).replace(/\s+/g, ' ');
  const overflow = [];
  for (const el of article.querySelectorAll('table, pre')) {
    if (!shown(el) || !(el.innerText || '').trim()) continue;  // no rendered text: folded away (a toggle)
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 2 || r.right > box.right + 2) overflow.push(snippet(el));
  }
  const small_images = [];
  for (const img of article.querySelectorAll('img')) {
    if (!shown(img) || !img.naturalWidth) continue;
    const width = Math.round(img.getBoundingClientRect().width);
    if (width < img.naturalWidth / 2 && !img.closest('a[href]'))
      small_images.push(`${img.getAttribute('src')} (${width} of ${img.naturalWidth} px)`);
  }
  const copy = article.cloneNode(true);
  // the text a reader reads: no code (but cell outputs, which print results), no signatures, no math
  copy.querySelectorAll('.cell_input, dt.sig, script, style, mjx-container, .headerlink').forEach(e => e.remove());
  copy.querySelectorAll('code, div.highlight').forEach(e => { if (!e.closest('.cell_output')) e.remove(); });
  const holder = document.createElement('div');
  holder.style.cssText = 'position:absolute; left:-99999px; width:' + box.width + 'px';
  holder.appendChild(copy);
  document.body.appendChild(holder);
  const text = copy.innerText;
  copy.querySelectorAll('.cell_output, pre, table, .highlight').forEach(e => e.remove());
  const prose = copy.innerText;
  holder.remove();
  const inputs = Array.from(article.querySelectorAll('.cell_input pre')).filter(shown);
  const overflow_narrow = [];  // cut at the right edge: a display equation or a figure wider than the column
  for (const el of article.querySelectorAll('mjx-container[display="true"], img')) {
    if (!shown(el)) continue;
    if (el.getBoundingClientRect().right > box.right + 2)
      overflow_narrow.push(el.tagName.toLowerCase() + ' ' + (el.getAttribute('src') || el.textContent.slice(0, 60)));
  }
  // figures: every image of the article in a numbered figure, with alt text that describes it
  const figures = Array.from(article.querySelectorAll('img')).map(img => {
    const figure = img.closest('figure');
    const number = figure && figure.querySelector('figcaption .caption-number');
    const caption = figure && figure.querySelector('figcaption');
    return {
      src: img.getAttribute('src') || '',
      alt: img.getAttribute('alt') || '',
      number: number ? number.innerText.trim() : '',
      caption: caption ? caption.innerText.replace(number ? number.innerText : '', '').trim() : '',
    };
  });
  // sideways scroll: the document wider than the window; the widest elements that stick out (not
  // those inside a box that scrolls by itself, which do not widen the page)
  const root = document.documentElement;
  const sticking_out = [];
  if (root.scrollWidth > root.clientWidth + 1) {
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.right <= root.clientWidth + 1 || !shown(el)) continue;
      if (Array.from(el.children).some(c => c.getBoundingClientRect().right > root.clientWidth + 1)) continue;
      sticking_out.push(`${snippet(el)} (right edge ${Math.round(r.right)} px)`);
    }
  }
  return {
    figures: figures,
    document_width: root.scrollWidth,
    window_width: root.clientWidth,
    sticking_out: sticking_out,
    overflow_narrow: overflow_narrow,
    overflow: overflow,
    small_images: small_images,
    text: text,
    prose_words: (prose.match(/\S+/g) || []).length,
    code_lines: inputs.reduce((n, pre) => n + pre.innerText.replace(/\n$/, '').split('\n').length, 0),
    code: inputs.map(pre => pre.innerText).join('\n'),
  };
})()"""


class Browser:
    """Headless Chromium with one DevTools connection; ``visit`` loads a page in a fresh tab."""

    def __init__(self, executable: str, profile: Path):
        args = [
            executable,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            "about:blank",
        ]
        self.stderr = profile / "chromium-stderr.log"  # a file, not a pipe nobody reads
        with self.stderr.open("wb") as stderr:
            self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
        self.devtools = None
        try:
            port_file = profile / "DevToolsActivePort"
            deadline = time.monotonic() + 30
            while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
                if self.process.poll() is not None:
                    raise RuntimeError(
                        f"chromium exited ({self.process.returncode}): {self.stderr.read_text()[-2000:]}"
                    )
                if time.monotonic() > deadline:
                    raise RuntimeError("chromium wrote no DevToolsActivePort within 30 s")
                time.sleep(0.05)
            port, path = port_file.read_text().splitlines()[:2]
            self.devtools = DevTools(f"ws://127.0.0.1:{port}{path}")
            self.version = self.devtools.call("Browser.getVersion")["product"]
        except BaseException:
            self.quit()
            raise

    def visit(self, url: str, until: str = "true", timeout: float = 30, width: int = 1300) -> dict:
        """Load ``url`` in a new tab and return its facts (``FACTS_JS``) and ``errors``.

        Waits for the load (following a meta refresh), then ``READY_JS``, then for the JS
        expression ``until`` to be true, then for the network to be idle for 0.3 s.
        """
        cdp = self.devtools
        target = cdp.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = cdp.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        log = PageLog(session)
        cdp.sink = log
        deadline = time.monotonic() + timeout

        def evaluate(expression: str, await_promise: bool = False):
            result = cdp.call(
                "Runtime.evaluate",
                {"expression": expression, "awaitPromise": await_promise, "returnByValue": True},
                session,
                timeout=max(deadline - time.monotonic(), 0.1),
            )
            if "exceptionDetails" in result:
                raise CDPError(f"evaluating {expression[:60]!r}: {result['exceptionDetails']}")
            return result["result"].get("value")

        def poll(expression: str, what: str):
            while True:
                try:
                    if evaluate(expression):
                        return
                except CDPError:  # the document is being replaced (navigation): ask again
                    pass
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{url}: {what} within {timeout} s")
                cdp.pump(0.05)

        try:
            for domain in ("Page", "Runtime", "Log", "Network"):
                cdp.call(f"{domain}.enable", session=session)
            cdp.call(  # a desktop window (1,300 px) or a phone (400 px)
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600},
                session,
            )
            navigation = cdp.call("Page.navigate", {"url": url}, session)
            if navigation.get("errorText"):
                raise CDPError(f"{url}: {navigation['errorText']}")
            poll(
                "location.href !== 'about:blank' && document.readyState === 'complete'"
                " && !document.querySelector('meta[http-equiv=\"refresh\" i]')",
                "not loaded",
            )
            evaluate(READY_JS, await_promise=True)
            poll(until, f"{until!r} not true")
            quiet_since = time.monotonic()
            while log.pending() or time.monotonic() - quiet_since < 0.3:
                if time.monotonic() > deadline:
                    log.errors.append(f"requests still pending after {timeout} s: {log.pending()}")
                    break
                if cdp.pump(0.05):
                    quiet_since = time.monotonic()
            facts = evaluate(FACTS_JS)
            facts["reading"] = evaluate(READING_JS)
        finally:
            cdp.sink = None
            cdp.call("Target.closeTarget", {"targetId": target})
        facts["errors"] = log.errors
        facts["requests"] = sorted(set(log.urls.values()))
        return facts

    def quit(self):
        """Close the browser; kill its process group (its own session, started above) if it lingers."""
        try:
            if self.devtools is not None:
                self.devtools.call("Browser.close", timeout=5)
                self.devtools.close()
            self.process.wait(timeout=10)
        except Exception:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # helpers (zygote, renderers) may outlive the main process
        except ProcessLookupError:
            pass
        self.process.wait()


# --- fixtures -------------------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="session")
def site():
    """Base URL of ``_build/html``, served over http (search and MathJax need http, not file://)."""
    if not (HTML / "index.html").exists():
        _unavailable(f"{HTML / 'index.html'} missing: build the book first (jupyter-book build .)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(HTML)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        _unavailable("chromium not found on PATH (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="privbandits-chromium-", ignore_cleanup_errors=True) as profile:
        browser = Browser(CHROMIUM, Path(profile))
        yield browser
        browser.quit()


def _visitor(site, browser, width: int):
    """Page facts by page path at one window width, each page visited once per session."""
    cache: dict[str, dict] = {}

    def visit(page: str) -> dict:
        if page not in cache:
            assert (HTML / page).exists(), f"{page} is in _toc.yml but not in the build"
            cache[page] = browser.visit(f"{site}/{page}", width=width)
        return cache[page]

    return visit


@pytest.fixture(scope="session")
def visited(site, browser):
    """Page facts in a desktop window, 1,300 px wide."""
    return _visitor(site, browser, 1300)


@pytest.fixture(scope="session")
def visited_narrow(site, browser):
    """Page facts on a phone, 400 px wide."""
    return _visitor(site, browser, 400)


# --- what to expect --------------------------------------------------------------------------------

# In source markdown: $x$, $$, \( \[, {math}, \begin{...} (after removing code and escaped dollars).
MATH_IN_SOURCE = re.compile(r"\$\$|\$[^$\s]|\\\(|\\\[|\{math\}|\\begin\{")
# In rendered text: TeX that MathJax never saw. A `$...$` span counts when it could be inline math
# as myst's dollarmath reads it (no space inside either dollar, no digit after the closing one).
RAW_TEX = re.compile(r"\$\$|\\\(|\\\)|\\\[|\\\]|\\begin\{|\$[^$\s](?:[^$]{0,300}?[^$\s])?\$(?!\d)")


def _markdown_of(page: str) -> str:
    """The markdown a page was built from (for notebooks: its markdown cells), code removed."""
    stem = Path(page).with_suffix("")
    sources = sorted((HTML / "_sources").glob(f"{stem}.*"))
    assert sources, f"no source of {page} under _build/html/_sources"
    text = sources[0].read_text()
    if sources[0].name.endswith(".ipynb"):
        cells = json.loads(text)["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    text = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.S | re.M)  # fenced code
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code
    return text.replace("\\$", "")


def _source_page(facts: dict) -> str:
    """The page shown (after any redirect), relative to the site root."""
    return urlsplit(facts["url"]).path.lstrip("/")


# --- tests -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_math_rendered(visited, page):
    facts = visited(page)
    shown = _source_page(facts)
    problems = []
    if facts["math_errors"]:
        problems.append(f"MathJax errors: {_few(facts['math_errors'])}")
    if facts["unrendered_math"]:
        problems.append(f"math nodes MathJax did not typeset: {_few(facts['unrendered_math'])}")
    raw = [match.group(0)[:120] for text in facts["texts"] for match in RAW_TEX.finditer(text)]
    if raw:
        problems.append(f"raw TeX left in the text: {_few(raw)}")
    if MATH_IN_SOURCE.search(_markdown_of(shown)):
        if not facts["mathjax_loaded"]:
            problems.append("its source has math but MathJax did not start")
        elif not (facts["math_nodes"] and facts["mjx_containers"]):
            problems.append("its source has math but the page shows none")
    assert not problems, f"{shown}:\n" + "\n".join(problems)


@pytest.mark.parametrize("page", PAGES)
def test_images_load(visited, page):
    facts = visited(page)
    broken = [image["src"] for image in facts["images"] if not (image["complete"] and image["width"] > 0)]
    assert not broken, f"{_source_page(facts)}: images that did not load: {_few(broken)}"


@pytest.mark.parametrize("page", PAGES)
def test_one_search_box(visited, page):
    # the theme shows a search field in the sidebar and a search button in the article's header, both
    # opening one dialog; _config.yml's html_sidebars leaves the field out
    facts = visited(page)
    assert facts["search_boxes"] == 1, f"{_source_page(facts)}: {facts['search_boxes']} search boxes shown"


@pytest.mark.parametrize("page", PAGES)
def test_no_console_errors(visited, page):
    facts = visited(page)
    assert not facts["errors"], f"{_source_page(facts)}:\n" + "\n".join(facts["errors"])


@pytest.mark.parametrize("page", PAGES)
def test_no_request_leaves_the_site(site, visited, page):
    facts = visited(page)
    host = urlsplit(site).netloc
    away = [url for url in facts["requests"] if _off_site(url) and urlsplit(url).netloc != host]
    assert not away, f"{_source_page(facts)} loads from other sites: {_few(away)}"


# --- what a reader sees: the reading edition (issue 24) ----------------------------------------------

PROSE_WORDS_MAX = 3000  # a lecture: one sitting (issue 34; 4,000 before)
CODE_LINES_MAX = 150  # visible code lines (hidden cells still run, and do not count)
BIBTEX_KEYS = set(re.findall(r"@\w+\{([^,\s]+),", (ROOT / "book" / "references.bib").read_text()))
# numbers as a program prints them, not as a reader writes them: np.float64(28994.0), 1.1e+04, 1e-05
RAW_NUMBER = re.compile(r"np\.(?:float|int)\d*\(|\d[eE][+-]\d")

# The package reference (generated from docstrings) is looked up, not read in a sitting. Its
# docstrings cite papers by BibTeX key, the package's convention; _ext/api_reference.py renders each
# key as a citation, so a key left in its text fails here as in a chapter.
REFERENCE_PAGES = {page for page in PAGES if page.startswith("book/api")}
# alt text that is a file name or path (myst-nb's alt when a cell's metadata gives none)
FILE_PATH_ALT = re.compile(r"^\S*[/\\]\S*$|\.(png|jpe?g|gif|svg|webp|pdf)$", re.I)

# (check, page) pairs not yet in the reading edition; each is an expected failure that must fail
# (strict), so that a page brought up to the edition fails here until it is taken off this list.
# A new page that fails a check is fixed, not listed here.
READING_PENDING: dict[tuple[str, str], str] = {}


def _reading_params(check: str) -> list:
    return [
        pytest.param(page, marks=pytest.mark.xfail(strict=True, reason=READING_PENDING[(check, page)]))
        if (check, page) in READING_PENDING
        else page
        for page in PAGES
    ]


@pytest.mark.parametrize("page", _reading_params("overflow"))
def test_no_table_or_code_overflows_the_column(visited, page):
    facts = visited(page)
    assert not facts["reading"]["overflow"], f"{_source_page(facts)}: wider than the column at 1,300 px: " + _few(
        facts["reading"]["overflow"]
    )


@pytest.mark.parametrize("page", _reading_params("images"))
def test_images_shown_at_half_their_size_or_open_full_size(visited, page):
    facts = visited(page)
    small = facts["reading"]["small_images"]
    assert not small, f"{_source_page(facts)}: images shown below half size that cannot be opened: {_few(small)}"


@pytest.mark.parametrize("page", _reading_params("numbers"))
def test_numbers_and_citations_written_for_a_reader(visited, page):
    facts = visited(page)
    text = facts["reading"]["text"]
    raw = sorted({match.group(0) for match in RAW_NUMBER.finditer(text)})
    keys = sorted(k for k in BIBTEX_KEYS if re.search(rf"\b{re.escape(k)}\b", text))
    assert not raw and not keys, f"{_source_page(facts)}: program-printed numbers {raw}, BibTeX keys {keys}"


@pytest.mark.parametrize("page", _reading_params("glue"))
def test_no_glue_call_on_show(visited, page):
    facts = visited(page)
    lines = [line.strip() for line in facts["reading"]["code"].splitlines() if "glue(" in line]
    assert not lines, f"{_source_page(facts)}: visible glue calls (hide the cell): {_few(lines)}"


@pytest.mark.parametrize("page", _reading_params("length"))
def test_page_is_one_sitting(visited, page):
    facts = visited(page)
    if page in REFERENCE_PAGES:
        pytest.skip("the package reference is looked up, not read in one sitting")
    words, lines = facts["reading"]["prose_words"], facts["reading"]["code_lines"]
    assert words <= PROSE_WORDS_MAX and lines <= CODE_LINES_MAX, (
        f"{_source_page(facts)}: {words} words of prose (at most {PROSE_WORDS_MAX}) and {lines} visible code lines "
        f"(at most {CODE_LINES_MAX})"
    )


@pytest.mark.parametrize("page", _reading_params("narrow"))
def test_equations_and_figures_fit_a_phone(visited_narrow, page):
    facts = visited_narrow(page)
    assert not facts["reading"]["overflow_narrow"], f"{_source_page(facts)} at 400 px: " + _few(
        facts["reading"]["overflow_narrow"]
    )


@pytest.mark.parametrize("page", _reading_params("sideways"))
def test_no_sideways_scroll_on_a_phone(visited_narrow, page):
    # long inline code, a URL or a signature wider than the column widens the whole page on a phone
    facts = visited_narrow(page)
    reading = facts["reading"]
    assert reading["document_width"] <= reading["window_width"], (
        f"{_source_page(facts)} at 400 px: the page is {reading['document_width']} px wide in a "
        f"{reading['window_width']} px window; sticking out: {_few(reading['sticking_out'])}"
    )


def test_file_path_alt_is_recognised():
    assert FILE_PATH_ALT.search("../_images/abc123.png") and FILE_PATH_ALT.search("_build/jupyter_execute/x.svg")
    assert FILE_PATH_ALT.search("figure.png")
    assert not FILE_PATH_ALT.search("Log-log plot of regret against the round; UCB's curve is straight.")
    assert not FILE_PATH_ALT.search("Five panels, 0.25/0.5 marked")


@pytest.mark.parametrize("page", _reading_params("figures"))
def test_figures_have_a_numbered_caption_and_alt_text(visited, page):
    facts = visited(page)
    problems = []
    for figure in facts["reading"]["figures"]:
        name = figure["src"].rsplit("/", 1)[-1]
        if not (figure["number"] and figure["caption"]):
            problems.append(f"{name}: no numbered caption")
        alt = figure["alt"].strip()
        if not alt or FILE_PATH_ALT.search(alt):
            problems.append(f"{name}: alt text {alt!r} does not describe the figure")
    assert not problems, f"{_source_page(facts)}: " + _few(problems)


# --- the built files, read as text (no browser needed) ----------------------------------------------

WIDGET_MIME = re.compile(r"application/vnd\.jupyter\.widget-(view|state)\+json")
# the attribute through which each tag loads something as the page opens (<a href> is a link, not a load)
LOADING_ATTRIBUTES = {"script": "src", "link": "href", "img": "src", "iframe": "src", "source": "src"}


class _Loads(html.parser.HTMLParser):
    """The URLs a page loads by itself: ``src``/``href`` of the tags in ``LOADING_ATTRIBUTES``."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attribute = LOADING_ATTRIBUTES.get(tag)
        value = dict(attrs).get(attribute) if attribute else None
        if value:
            self.urls.append(value)


def _off_site(url: str) -> bool:
    """Whether ``url`` points at another site (a scheme with a host, or protocol-relative ``//host``)."""
    parts = urlsplit(url.strip())
    return bool(parts.netloc) or parts.scheme not in ("", "data", "blob")


def _built_pages() -> list[Path]:
    if not (HTML / "index.html").exists():
        _unavailable(f"{HTML / 'index.html'} missing: build the book first (jupyter-book build .)")
    return sorted(HTML.rglob("*.html"))


def test_off_site_check_tells_local_from_remote():
    assert _off_site("https://cdn.example.org/require.js") and _off_site("//cdn.example.org/x.js")
    assert not _off_site("../_static/x.js") and not _off_site("_static/x.css?v=1") and not _off_site("data:,x")
    parser = _Loads()
    parser.feed('<script src="https://a/x.js"></script><a href="https://b/"></a><link rel="x" href="/y.css">')
    assert parser.urls == ["https://a/x.js", "/y.css"]


def test_built_pages_have_no_widget_and_load_nothing_from_other_sites():
    problems = []
    for path in _built_pages():
        text = path.read_text(errors="replace")
        name = str(path.relative_to(HTML))
        if WIDGET_MIME.search(text):
            problems.append(f"{name}: a notebook widget ({WIDGET_MIME.search(text).group(0)})")
        parser = _Loads()
        parser.feed(text)
        problems += [f"{name}: loads {url}" for url in parser.urls if _off_site(url)]
    assert not problems, "\n".join(problems[:40]) + (f"\n... ({len(problems)} in all)" if len(problems) > 40 else "")


@pytest.mark.parametrize("term", ["Laplace", "Nash"])
def test_search_finds_term(site, browser, term):
    assert (HTML / "search.html").exists(), "search.html is not in the build"
    facts = browser.visit(
        f"{site}/search.html?q={term}",
        until="(document.querySelector('#search-results .search-summary') || {}).innerText",
    )
    assert not facts["errors"], f"search.html?q={term}:\n" + "\n".join(facts["errors"])
    found = {urlsplit(link).path.lstrip("/") for link in facts["search_links"]}
    assert found & CHAPTERS, f"searching {term!r} found no chapter page: {sorted(found)}"


@pytest.mark.parametrize("term", ["GDPNCB", "calibrate"])
def test_search_finds_the_package_reference(site, browser, term):
    # the API reference is searchable: a class and a function of the package lead to their page
    facts = browser.visit(
        f"{site}/search.html?q={term}",
        until="(document.querySelector('#search-results .search-summary') || {}).innerText",
    )
    assert not facts["errors"], f"search.html?q={term}:\n" + "\n".join(facts["errors"])
    found = {urlsplit(link).path.lstrip("/") for link in facts["search_links"]}
    hits = found & REFERENCE_PAGES
    assert hits, f"searching {term!r} found no page of the package reference: {sorted(found)}"
