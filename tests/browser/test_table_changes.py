"""The game page gets only the slots that changed after each action (views.table_changes):
after moves, an undo, a redo and a shuffle, clicked as a player would, the table in the page
is exactly the table a reload draws, and the focus stays on the table.  table.js redraws a
changed slot where it stands (its attributes and its face) rather than replacing it, so the
slot pressed keeps the focus throughout."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser.test_play import start

GAME_URL = re.compile(r"/game/(\d+)/$")

# Each slot as the page shows it, and the grid's figures (but its time, which moves on).
TABLE = """() => {
  var grid = document.getElementById("grid");
  var figures = {};
  for (var a of grid.attributes) {
    if (a.name.startsWith("data-") && a.name !== "data-elapsed-ms") figures[a.name] = a.value;
  }
  figures.version_field = grid.querySelector("input[name=version]").value;
  // Every attribute the server draws (the page's scripts own a slot's tabindex and style), and the face.
  var slots = Array.from(grid.querySelectorAll("button.slot")).map(function (s) {
    var drawn = Array.from(s.attributes).filter(function (a) { return a.name !== "tabindex" && a.name !== "style"; })
      .map(function (a) { return a.name + "=" + a.value; }).sort();
    return [drawn, s.innerHTML, s.hasAttribute("hx-swap-oob")];
  });
  var counters = Array.from(document.querySelectorAll("#status .counters dd")).filter(function (dd) {
    return !dd.querySelector("time");
  }).map(function (dd) { return dd.textContent; });
  return {figures: figures, slots: slots, counters: counters};
}"""


def test_after_each_action_the_page_shows_the_table_a_reload_draws(live_server, page: Page):
    page.goto(f"{live_server.url}/deal/1/")
    page.get_by_role("button", name="Play deal #1").click()
    expect(page).to_have_url(GAME_URL)
    pk = int(GAME_URL.search(page.url).group(1))
    grid = page.locator("#grid")
    answers = []
    page.on("response", lambda response: answers.append(response) if "/game/" in response.url else None)
    actions = ["move", "move", "undo", "redo", "move", "shuffle", "move"]
    for number, action in enumerate(actions, start=1):
        if action == "move":
            page.locator("#grid .slot.movable").first.click()
        else:
            page.locator(f"#status button[formaction$='/{action}/']").click()
        expect(grid).to_have_attribute("data-version", str(number))
        expect(page.locator(".htmx-added, .htmx-settling")).to_have_count(0)  # the answer has settled
        shown = page.evaluate(TABLE)
        assert page.evaluate("document.activeElement && document.activeElement !== document.body")
        page.reload()
        expect(grid).to_have_attribute("data-version", str(number))
        drawn = page.evaluate(TABLE)
        assert shown["figures"] == drawn["figures"], action
        assert shown["slots"] == drawn["slots"], action
        assert not any(slot[-1] for slot in shown["slots"])  # no slot keeps its out-of-band marker
        assert shown["counters"] == drawn["counters"], action
    game = Game.objects.get(pk=pk)
    assert game.version == len(actions) and game.shuffles_used == 1
    # The answers were the slots that changed, not whole tables.
    moves = [r for r in answers if r.request.method == "POST" and r.url.endswith("/move/")]
    assert moves and all(r.headers.get("hx-reswap") == "none" for r in moves)


# At each new version of the grid: is the focus still on the very element that was pressed?
WATCH_FOCUS = """() => {
  var pressed = document.activeElement;
  window.focusSeen = [];
  document.addEventListener("focusout", function () { window.focusSeen.push("focusout"); }, true);
  new MutationObserver(function () { window.focusSeen.push(document.activeElement === pressed); })
    .observe(document.getElementById("grid"), {attributes: true, attributeFilter: ["data-version"]});
}"""


def test_the_slot_pressed_keeps_the_focus_through_the_move(live_server, page: Page):
    """Not even for the moment between the swap and htmx's settling does the focus leave
    the slot: the slot is redrawn in place (a card there becomes a gap), not replaced."""
    start(page, live_server)
    card = page.locator("#grid .slot.movable").first
    name = card.get_attribute("data-slot")
    card.focus()
    page.evaluate(WATCH_FOCUS)
    page.keyboard.press("Enter")
    expect(page.locator("#grid")).to_have_attribute("data-version", "1")
    expect(page.locator(".htmx-added, .htmx-settling")).to_have_count(0)
    assert page.evaluate("window.focusSeen") == [True]
    assert page.evaluate("document.activeElement.dataset.slot") == name
    expect(page.locator(f"#grid .slot[data-slot='{name}']")).to_have_class(re.compile(r"\bgap\b"))
