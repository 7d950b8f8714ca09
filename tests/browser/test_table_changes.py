"""The game page gets only the slots that changed after each action (views.table_changes):
after moves, an undo, a redo and a shuffle, clicked as a player would, the table in the page
is exactly the table a reload draws, and the focus stays on the table."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from games.models import Game

GAME_URL = re.compile(r"/game/(\d+)/$")

# Each slot as the page shows it, and the grid's figures (but its time, which moves on).
TABLE = """() => {
  var grid = document.getElementById("grid");
  var figures = {};
  for (var a of grid.attributes) {
    if (a.name.startsWith("data-") && a.name !== "data-elapsed-ms") figures[a.name] = a.value;
  }
  figures.version_field = grid.querySelector("input[name=version]").value;
  var slots = Array.from(grid.querySelectorAll("button.slot")).map(function (s) {
    return [s.id, s.dataset.slot, s.dataset.card, s.className, s.getAttribute("aria-label"), s.textContent,
            s.hasAttribute("hx-swap-oob")];
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
