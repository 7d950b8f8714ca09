"""What the site sends: a first visit's bytes on the wire, a page's HTML raw and gzipped, and a
move's answer, headers counted (issue 44).

Run: .venv/bin/python benchmarks/page_weight.py

It starts gunicorn with the production settings on a fresh SQLite database (the helpers of
load.py) and talks HTTP/1.1 to it as a browser with an empty cache does, asking for gzip:
- a first visit to the home page, then to a new game's page: the page and every file it
  links (stylesheet, scripts and the modules game.js imports, icons), each counted once per
  visit as the bytes of its status line, headers and body as they crossed the wire;
- each page's HTML, raw and as sent;
- a move's answer as the game page asks for it (htmx, ``answer=changes``), over 20 moves:
  the median and largest of its headers, body and whole.
Behind nginx the answers carry its own few headers too (Server, Date, Connection), and
HTTP/2 compresses headers: these are the app server's bytes, an upper bound of what a
browser receives over HTTP/2.  Targets (issue 44): a first visit at most 40 KB, a move's
answer at most 1,200 B.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import re
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import database, gunicorn, manage, server_env  # noqa: E402

FIRST_VISIT_TARGET = 40 * 1024
MOVE_TARGET = 1200
LINKED = re.compile(rb'<(?:script|link)\b[^>]*?(?:src|href)="(/static/[^"]+)"')
IMPORTS = re.compile(rb'(?:import|from)\s*"(\./[^"]+\.js)"')
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


class Browser:
    """One browser's connection and cookies; counts the bytes of each answer as sent."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def fetch(self, method: str, path: str, body: str = "", headers: dict | None = None):
        """(status, headers, body as sent, bytes of the status line and headers)."""
        sent = {"Accept-Encoding": "gzip, deflate, br", "Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{key}={value}" for key, value in self.cookies.items())
        if body:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=body or None, headers=sent)
        response = self.conn.getresponse()
        content = response.read()
        head = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + sum(
            len(f"{key}: {value}\r\n") for key, value in response.getheaders()
        )
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        return response.status, response, content, head + 2


def html_of(response, content: bytes) -> bytes:
    return gzip.decompress(content) if response.getheader("Content-Encoding") == "gzip" else content


def visit(browser: Browser, path: str) -> tuple[int, dict[str, int], bytes]:
    """A first visit to ``path``: its bytes on the wire, file by file, and its HTML."""
    status, response, content, head = browser.fetch("GET", path)
    if status != 200:
        sys.exit(f"{path} answered {status}")
    html = html_of(response, content)
    files = {path: head + len(content)}
    queue = [match.decode() for match in LINKED.findall(html)]
    while queue:
        url = queue.pop(0)
        if url in files:
            continue
        status, response, content, head = browser.fetch("GET", url)
        if status != 200:
            sys.exit(f"{url} answered {status}")
        files[url] = head + len(content)
        if url.endswith(".js"):  # an ES module's imports are fetched as well
            body = html_of(response, content)
            folder = url.rsplit("/", 1)[0]
            queue.extend(f"{folder}/{name[2:].decode()}" for name in IMPORTS.findall(body))
    return sum(files.values()), files, html


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="addiction-weight-") as tmp_name:
        tmp = Path(tmp_name)
        with database(False, tmp) as db_env:
            env = server_env(tmp, db_env)
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            server = types.SimpleNamespace(workers=1, threads=1)
            with gunicorn(env, server, tmp) as (port, _pid):
                time.sleep(0.2)
                home_total, home_files, home_html = visit(Browser(port), "/")
                browser = Browser(port)
                token = TOKEN.search(html_of(*browser.fetch("GET", "/")[1:3]))[1].decode()
                status, response, _content, _head = browser.fetch(
                    "POST", "/new/", f"csrfmiddlewaretoken={token}&deal_number=", {"Referer": "http://127.0.0.1/"}
                )
                game_path = response.getheader("Location")
                if status != 302 or not game_path:
                    sys.exit(f"starting a game answered {status}")
                fresh = Browser(port)
                fresh.cookies = dict(browser.cookies)  # the same player, with an empty cache
                game_total, game_files, game_html = visit(fresh, game_path)
                moves = play(browser, game_path, args.moves)
                in_chromium = chromium_visits(port)
    print(f"first visit, empty cache (bytes on the wire, headers included; target {FIRST_VISIT_TARGET:,} B):")
    for name, total, files in (("home page", home_total, home_files), ("game page", game_total, game_files)):
        verdict = "met" if total <= FIRST_VISIT_TARGET else "NOT met"
        print(f"  {name}: {total:,} B in {len(files)} answers ({verdict})")
        for url, size in sorted(files.items(), key=lambda item: -item[1]):
            print(f"    {size:7,} B  {url}")
    print(f"home page HTML: {len(home_html):,} B; game page HTML: {len(game_html):,} B (before gzip)")
    if in_chromium:
        print(
            "first visit in Chromium, empty cache (what it fetched, as its network reports; "
            f"target {FIRST_VISIT_TARGET:,} B):"
        )
        for name, (bodies, heads, count) in in_chromium.items():
            verdict = "met" if bodies + heads <= FIRST_VISIT_TARGET else "NOT met"
            print(
                f"  {name}: {bodies + heads:,} B in {count} answers: {bodies:,} B of bodies, "
                f"{heads:,} B of headers ({verdict})"
            )
    heads, bodies, wholes = zip(*moves, strict=True)
    verdict = "met" if max(wholes) <= MOVE_TARGET else "NOT met"
    print(
        f"a move's answer over {len(moves)} moves: headers median {statistics.median(heads):.0f} B, body median "
        f"{statistics.median(bodies):.0f} B, whole median {statistics.median(wholes):.0f} B, "
        f"largest {max(wholes)} B (target {MOVE_TARGET:,} B: {verdict}); the last one's headers:"
    )
    for key, value in last_headers:
        print(f"    {key}: {value}")
    return 0


MOVABLE = re.compile(rb'<button[^>]*value="(\d+-\d+)"[^>]*class="[^"]*\bmovable\b')


CHROMIUM = "/usr/bin/chromium"


def chromium_visits(port: int) -> dict:
    """The home page, then a new game's page, each opened by Chromium with an empty cache, as a
    player's first visit is (the game started from the home page's form, then the cache
    cleared and the page loaded again); per page, the bytes of the answers' bodies and headers
    as Chromium's network saw them, and how many.  Empty without Chromium and Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {}
    if not Path(CHROMIUM).exists():
        return {}
    found = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        # The page's own bytes, as before the service worker: a later page would otherwise come
        # from its cache, which is not a first visit's.  What the worker adds is measured below.
        page = browser.new_context(service_workers="block").new_page()
        client = page.context.new_cdp_session(page)
        seen: list = []
        page.on("requestfinished", lambda request: seen.append(request))

        def cold(name: str, load) -> None:
            client.send("Network.clearBrowserCache")
            seen.clear()
            answer = load()
            if answer is None or answer.status != 200:
                sys.exit(f"Chromium opened the {name} with {answer and answer.status}")
            page.wait_for_load_state("networkidle")
            sizes = [request.sizes() for request in seen]
            bodies = sum(size["responseBodySize"] for size in sizes)
            found[name] = (bodies, sum(size["responseHeadersSize"] for size in sizes), len(sizes))

        cold("home page", lambda: page.goto(f"http://127.0.0.1:{port}/", wait_until="load"))
        with page.expect_navigation():
            page.locator("form[action='/new/'] button[type=submit]").first.click()
        cold("game page", lambda: page.reload(wait_until="load"))
        # The service worker's install (games/templates/games/sw.js): what it fetches after the
        # home page has loaded, every file it keeps, as Chromium's network reports them.
        context = browser.new_context()
        fetched: list = []
        context.on("requestfinished", lambda request: fetched.append(request))
        visit = context.new_page()
        visit.goto(f"http://127.0.0.1:{port}/", wait_until="load")
        visit.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
        visit.wait_for_load_state("networkidle")
        worker = [request for request in fetched if request.service_worker is not None]
        sizes = [request.sizes() for request in worker]
        found["the service worker's install (after the home page)"] = (
            sum(max(0, size["responseBodySize"]) for size in sizes),
            sum(size["responseHeadersSize"] for size in sizes),
            len(sizes),
        )
        browser.close()
    return found


last_headers: list[tuple[str, str]] = []


def play(browser: Browser, game_path: str, moves: int) -> list[tuple[int, int, int]]:
    """``moves`` moves as the game page posts them (a card it marks movable each time, read
    from the page, which is not counted); each answer's (headers, body, whole) bytes."""
    sizes = []
    for _ in range(moves):
        _status, response, content, _head = browser.fetch("GET", game_path)
        html = html_of(response, content)
        movable = MOVABLE.search(html)
        if not movable:
            break  # stuck: enough moves for the figures
        drawn = re.search(rb'name="drawn" value="([^"]+)"', html)[1].decode()
        version = re.search(rb'data-version="(\d+)"', html)[1].decode()
        shown = re.search(rb'name="actions_shown" value="([^"]*)"', html)  # the grid form's, as htmx posts it
        body = (
            f"version={version}&slot={movable[1].decode()}&answer=changes&drawn={drawn.replace(' ', '+')}"
            f"&actions_shown={shown[1].decode() if shown else ''}"
        )
        headers = {
            "HX-Request": "true",
            "X-CSRFToken": browser.cookies.get("csrftoken", ""),
            "Referer": "http://127.0.0.1/",
        }
        status, response, content, head = browser.fetch("POST", f"{game_path}move/", body, headers)
        if status != 200 or response.getheader("HX-Reswap") != "none":
            sys.exit(f"a move answered {status} with the whole table: the page's fields have changed")
        sizes.append((head, len(content), head + len(content)))
        last_headers[:] = response.getheaders()
    if not sizes:
        sys.exit("no card could move on the deal")
    return sizes


if __name__ == "__main__":
    sys.exit(main())
