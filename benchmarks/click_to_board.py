"""A move as a player feels it: click-to-board time in Chromium, and the answer's size on the wire.

Run: .venv/bin/python benchmarks/click_to_board.py [--moves 100] [--warmup 5] [--deal 1] [--motion both]

It starts gunicorn with the production settings on a fresh SQLite database (the helpers of
load.py), opens a game in Debian's Chromium (/usr/bin/chromium, through Playwright) and
clicks cards the page marks movable, one at a time, shuffling when stuck and starting the
next deal when a game ends; only moves are measured, after --warmup unmeasured ones.

Before each click it waits for the last card to land, and rests the pointer on the card
(which lifts, with motion) for two frames, as a player's pointer comes to a card before
the click.  For each move, the page itself (performance.now()) times from the click event to the
moment the grid shows the next version (a MutationObserver, so htmx's settle delay is not
counted: a move's answer swaps in the slots that changed, then game.js puts the version on
the grid; an answer of the whole table swaps in a new grid), and reads the answer's sizes from the browser's resource
timing: encodedBodySize is the body as it crossed the wire, decodedBodySize the HTML.
With ``--delays`` (ms each way, Chromium's network emulation), it also times from the click to
the card drawn in its gap (the first slot whose card changes: at once where the page draws a
legal move itself, issue 26, else with the answer).  It prints the median and p95 of each,
beside the targets (the card within a frame, 16 ms; at most 3 KB on the wire), once with the
browser asking for reduced motion and once
without, where static/games/game.js notes where the cards stand before the swap and, in the
frame after it, slides the cards that changed places (the board itself changes at once).  Last,
the server CPU that gzip adds to a move: Django's ``compress_string`` on one real answer,
timed in this process.

With ``--actions ROUNDS`` (issue 45) it times instead, at each delay and with reduced motion, a
legal click, Undo, a click the page's rule refuses and the DOM floor (a card moved into a gap
by DOM operations alone, in the same page), ROUNDS each: from the click to the first change
drawn (a slot's card, or the note), and each against the floor.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import database, gunicorn, manage, server_env  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TARGET_FRAME_MS = 16
TARGET_WIRE_BYTES = 3 * 1024

# Installed in every page: the click's time, then the first grid with another version.
# probe.next() is a promise of the next time: waiting on it costs the page nothing, where
# Playwright's wait_for_function would run a check on every frame while the move is out.
PROBE = """
window.probe = {times: [], drawn: [], t0: null, drawnAt: null, version: null, resolve: null};
probe.next = function () { return new Promise(function (resolve) { probe.resolve = resolve; }); };
document.addEventListener("click", function (event) {
  if (!event.target.closest("#grid .slot")) return;
  probe.t0 = performance.now();
  probe.drawnAt = null;
  probe.version = document.getElementById("grid").dataset.version;
}, true);
new MutationObserver(function (records) {
  var grid = document.getElementById("grid");
  if (probe.t0 === null || !grid) return;
  var now = performance.now();
  // The card drawn in its gap: the first slot to change its card after the click (at once,
  // when the page draws the move itself; with the answer, when it does not).
  if (probe.drawnAt === null && records.some(function (r) { return r.attributeName === "data-card"; })) {
    probe.drawnAt = now - probe.t0;
  }
  if (grid.dataset.version === probe.version) return;
  probe.times.push(now - probe.t0);
  probe.drawn.push(probe.drawnAt === null ? now - probe.t0 : probe.drawnAt);
  probe.t0 = null;
  if (probe.resolve) probe.resolve(probe.times.length);
}).observe(document, {childList: true, subtree: true, attributes: true,
                      attributeFilter: ["data-version", "data-card"]});
"""
# The sizes of the last answer to a move, and its time from the request's start to the answer's last byte.
LAST_MOVE_SIZES = """() => {
  var moves = performance.getEntriesByType("resource").filter(e => /\\/move\\/$/.test(e.name));
  var last = moves[moves.length - 1];
  return last && last.responseEnd
    ? [last.encodedBodySize, last.decodedBodySize, last.responseEnd - last.startTime] : null;
}"""


# For --actions: the time from any click to the first thing it changes on the table (a slot's
# card) or in the note, whichever comes first.  window.floor moves a card into a gap by DOM
# operations alone, as the page draws a legal move but without the rule, the marks or anything
# else (the DOM floor); called twice it puts the card back.
ACTIONS_PROBE = """
window.first = {t0: null, ms: null};
document.addEventListener("click", function () { first.t0 = performance.now(); first.ms = null; }, true);
function inNote(node) {
  return node.nodeType === 1 && (node.id === "note" || !!node.closest("#note") || !!node.querySelector("#note"));
}
new MutationObserver(function (records) {
  if (first.t0 === null || first.ms !== null) return;
  if (records.some(function (r) {
    return r.attributeName === "data-card" || inNote(r.target) || Array.from(r.addedNodes).some(inNote);
  })) first.ms = performance.now() - first.t0;
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-card"]});
window.floor = {there: null};
document.addEventListener("DOMContentLoaded", function () {
  var button = document.createElement("button");
  button.id = "floor"; button.type = "button"; button.textContent = "floor";
  document.body.prepend(button);
  button.addEventListener("click", function () {
    var from, to;
    if (floor.there) { from = floor.there[1]; to = floor.there[0]; floor.there = null; }
    else {
      from = document.querySelector("#grid .slot.card:not(.locked)");
      to = document.querySelector("#grid .slot.gap");
      floor.there = [from, to];
    }
    to.replaceChildren.apply(to, from.childNodes);
    to.dataset.card = from.dataset.card;
    from.dataset.card = "";
  });
});
"""
KINDS = ("legal move", "undo", "refused click", "DOM floor")


def time_actions(page, base: str, deal: int, rounds: int) -> dict[str, list[float]]:
    """``rounds`` times each: a legal click, Undo, a click the rule refuses and the DOM floor,
    each from the click (a real one, through the pointer) to the first change it draws; a move
    and an undo are then waited for until the server's answer is in."""
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    start_game(page, base, deal)
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    grid = page.locator("#grid")

    def click(locator, kind: str, answered: bool) -> None:
        version = grid.get_attribute("data-version")
        locator.click()
        if answered:
            page.wait_for_selector(f"#grid:not([data-version='{version}'])", state="attached")
        else:
            page.wait_for_function("() => first.ms !== null")  # a refusal's note, however it comes
        page.wait_for_load_state("networkidle")
        page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        times[kind].append(page.evaluate("first.ms"))

    for _ in range(rounds):
        if grid.get_attribute("data-status") != "playing" or not page.locator("#grid .slot.movable").count():
            deal += 1
            start_game(page, base, deal)
        click(page.locator("#grid .slot.movable").first, "legal move", True)
        click(page.locator("#undo-button"), "undo", True)
        click(page.locator("#grid .slot.card:not(.movable):not(.locked)").first, "refused click", False)
        for _there_and_back in range(2):
            click(page.locator("#floor"), "DOM floor", False)
    return times


def report_actions(delay: int, times: dict[str, list[float]]) -> None:
    figures = "  ".join(
        f"{kind}: median {statistics.median(values):.1f} ms, p95 {percentile(values, 0.95):.1f} ms"
        for kind, values in times.items()
    )
    floor = statistics.median(times["DOM floor"])
    ratios = ", ".join(f"{kind} {statistics.median(times[kind]) / floor:.1f}x" for kind in KINDS[:3])
    print(f"{delay} ms each way, click to the first change drawn: {figures}")
    print(f"    against the DOM floor: {ratios} (target: each within a frame, {TARGET_FRAME_MS} ms)")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def start_game(page, base: str, deal: int) -> None:
    page.goto(f"{base}/deal/{deal}/")
    page.locator("form[action$='/start/'] button[type=submit]").click()
    page.wait_for_selector("#grid[data-version='0']", state="attached")


def play(page, base: str, deal: int, moves: int, warmup: int):
    """Click ``warmup + moves`` moves; return the measured times to the server's answer and to
    the card drawn in its gap (ms), the answers' resource timings (wire bytes, HTML bytes, ms
    to the last byte) and the last answer's HTML."""
    sizes: list[list[float]] = []
    answer = {}
    page.on("response", lambda response: answer.update(body=response) if response.url.endswith("/move/") else None)
    start_game(page, base, deal)
    played = 0
    while played < warmup + moves:
        grid = page.locator("#grid")
        if grid.get_attribute("data-status") != "playing":
            deal += 1
            start_game(page, base, deal)
            continue
        card = page.locator("#grid .slot.movable").first
        if not card.count():
            version = grid.get_attribute("data-version")
            page.locator("#status button[formaction$='/shuffle/']").click()
            page.wait_for_selector(f"#grid:not([data-version='{version}'])", state="attached")
            continue
        page.wait_for_function("document.getAnimations().length === 0")  # the last card has landed
        card.hover()  # the pointer comes to rest on the card (which lifts) before the click, as a player's does
        page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        page.evaluate("performance.clearResourceTimings(); window.moved = probe.next(); null")
        card.click()
        page.evaluate("window.moved")
        page.wait_for_function(f"({LAST_MOVE_SIZES})() !== null")
        played += 1
        if played > warmup:
            sizes.append(page.evaluate(LAST_MOVE_SIZES))
    times, drawn = page.evaluate("probe.times")[-moves:], page.evaluate("probe.drawn")[-moves:]
    return times, drawn, sizes, answer["body"].body()


def gzip_cost_us(html: bytes, runs: int = 500) -> float:
    """Microseconds Django's compress_string (what GZipMiddleware calls) takes on ``html``, median."""
    from django.utils.text import compress_string

    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        compress_string(html, max_random_bytes=100)
        samples.append((time.perf_counter() - start) * 1e6)
    return statistics.median(samples)


MOTIONS = {"reduce": "reduced motion (no slide)", "no-preference": "motion (cards slide)"}


def report(motion: str, delay: int, warmup: int, times: list[float], drawn: list[float], sizes) -> None:
    wire, decoded, fetched = ([s[i] for s in sizes] for i in range(3))
    median, instant = statistics.median(times), statistics.median(drawn)
    print(f"{MOTIONS[motion]}, {delay} ms each way: {len(times)} moves, {warmup} unmeasured first")
    print(
        f"  click to card in its gap: median {instant:.1f} ms, p95 {percentile(drawn, 0.95):.1f} ms  "
        f"(target: within a frame, {TARGET_FRAME_MS} ms: {'met' if instant <= TARGET_FRAME_MS else 'NOT met'})"
    )
    print(
        f"  click to the server's confirmation: median {median:.1f} ms, p95 {percentile(times, 0.95):.1f} ms, "
        f"max {max(times):.1f} ms"
    )
    print(f"    of which the request to its answer's last byte: median {statistics.median(fetched):.1f} ms")
    print(
        f"  answer on the wire: median {statistics.median(wire):.0f} B, p95 {percentile(wire, 0.95):.0f} B, "
        f"max {max(wire):.0f} B  (target: at most {TARGET_WIRE_BYTES} B: "
        f"{'met' if max(wire) <= TARGET_WIRE_BYTES else 'NOT met'})"
    )
    print(f"  answer's HTML:      median {statistics.median(decoded):.0f} B, max {max(decoded):.0f} B")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100, help="moves measured in each motion setting")
    parser.add_argument("--warmup", type=int, default=5, help="moves played first, not measured")
    parser.add_argument("--deal", type=int, default=1, help="the first deal played")
    parser.add_argument(
        "--delays",
        default="0,50,150",
        help="network delays to measure, ms each way (Chromium's network emulation: twice that a round trip)",
    )
    parser.add_argument(
        "--motion",
        choices=[*MOTIONS, "both"],
        default="both",
        help="the browser's prefers-reduced-motion (default: both, one after the other)",
    )
    parser.add_argument(
        "--actions",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="instead of moves: a legal move, Undo, a refused click and the DOM floor, ROUNDS each (reduced motion)",
    )
    args = parser.parse_args()
    motions = list(MOTIONS) if args.motion == "both" else [args.motion]
    if args.actions:
        motions = ["reduce"]
    with tempfile.TemporaryDirectory() as folder, database(False, Path(folder)) as db_env:
        tmp = Path(folder)
        env = server_env(tmp, db_env)
        manage(env, "migrate")
        manage(env, "collectstatic", "--noinput")
        with gunicorn(env, types.SimpleNamespace(workers=2, threads=1), tmp) as (port, _pid):
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                print("Chromium against gunicorn (2 workers), SQLite")
                for delay in (int(d) for d in args.delays.split(",")):
                    for motion in motions:  # each a new guest, from the same deal
                        page = browser.new_context(reduced_motion=motion).new_page()
                        page.add_init_script(ACTIONS_PROBE if args.actions else PROBE)
                        network = page.context.new_cdp_session(page)
                        conditions = {"offline": False, "downloadThroughput": -1, "uploadThroughput": -1}
                        network.send("Network.enable")
                        network.send("Network.emulateNetworkConditions", {**conditions, "latency": 2 * delay})
                        base = f"http://127.0.0.1:{port}"
                        if args.actions:
                            report_actions(delay, time_actions(page, base, args.deal, args.actions))
                            page.context.close()
                            continue
                        times, drawn, sizes, html = play(page, base, args.deal, args.moves, args.warmup)
                        page.context.close()
                        report(motion, delay, args.warmup, times, drawn, sizes)
                browser.close()
    if args.actions:
        return
    html = gzip.decompress(html) if html[:2] == b"\x1f\x8b" else html
    print(
        f"gzip's server CPU per move: {gzip_cost_us(html):.0f} us (compress_string on a {len(html)}-byte answer, "
        f"median of 500, {len(gzip.compress(html))} B gzipped)"
    )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
