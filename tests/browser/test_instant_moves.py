"""Instant moves (static/games/moves.js and queue.js; issue 26): a legal move is drawn in the
page before the server answers, the answer confirms it without a change, quick clicks queue
in order, a refused one repaints the server's table, and a click while a shuffle is out is
not lost.  The server is slowed here, as a phone on mobile data would see it."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from games import views
from games.models import Game
from tests.browser.test_table_changes import GAME_URL, TABLE

SLOW = 0.4  # seconds the server takes for each action here


@pytest.fixture
def slow_server(monkeypatch):
    real = views.game_act

    def slow(**kwargs):
        time.sleep(SLOW)
        return real(**kwargs)

    monkeypatch.setattr(views, "game_act", slow)


def open_deal(live_server, page: Page, deal: int = 1) -> int:
    page.goto(f"{live_server.url}/deal/{deal}/")
    page.get_by_role("button", name=f"Play deal #{deal}").click()
    expect(page).to_have_url(GAME_URL)
    page.wait_for_function("() => window.htmx && window.AddictionRule")  # the scripts, before any click or key
    return int(GAME_URL.search(page.url).group(1))


# What the eye sees of each slot: its card, its marks (htmx's own request class aside) and face.
# Its words for screen readers (aria-label) are the server's, in the player's language: they
# come with the answer, which is also when the live region says the move.
SEEN = """() => Array.from(document.querySelectorAll("#grid button.slot")).map(function (s) {
  return [s.dataset.slot, s.dataset.card, s.className.replace(/ ?htmx-request/, ""), s.innerHTML];
})"""


# Click a movable card and read, in the same task, where its card is drawn now.
CLICK_AND_LOOK = """() => {
  var table = {};
  document.querySelectorAll("#grid button.slot").forEach(function (s) { table[s.dataset.slot] = s.dataset.card; });
  var card = document.querySelector("#grid .slot.movable");
  var move = window.AddictionRule.moveFor(table, card.dataset.slot);
  var t0 = performance.now();
  card.click();
  var target = document.querySelector('#grid [data-slot="' + move.to + '"]');
  return {card: table[move.from], from: move.from, to: move.to, there: target.dataset.card,
          left: card.dataset.card, ms: performance.now() - t0,
          moves: document.getElementById("moves-count").textContent,
          version: document.getElementById("grid").dataset.version};
}"""


def test_a_legal_move_is_drawn_before_the_answer_and_the_answer_changes_nothing(live_server, page: Page, slow_server):
    pk = open_deal(live_server, page)
    looked = page.evaluate(CLICK_AND_LOOK)
    assert looked["there"] == looked["card"] and looked["left"] == ""  # drawn in the click's own task
    assert (looked["moves"], looked["version"]) == ("1", "0")  # counted at once; the server has not answered
    drawn = page.evaluate(SEEN)
    expect(page.locator("#grid")).to_have_attribute("data-version", "1")
    confirmed = page.evaluate(TABLE)
    assert page.evaluate(SEEN) == drawn  # the server's answer changed nothing the page drew
    page.reload()
    assert page.evaluate(TABLE)["slots"] == confirmed["slots"]
    assert Game.objects.get(pk=pk).version == 1


def test_quick_clicks_queue_in_order_and_all_land(live_server, page: Page, slow_server):
    pk = open_deal(live_server, page, deal=3)
    for _ in range(4):
        page.evaluate("() => document.querySelector('#grid .slot.movable').click()")
    expect(page.locator("#moves-count")).to_have_text("4")
    expect(page.locator("#grid")).to_have_attribute("data-version", "4", timeout=10_000)
    shown = page.evaluate(TABLE)
    page.reload()
    assert page.evaluate(TABLE)["slots"] == shown["slots"]
    assert Game.objects.get(pk=pk).version == 4


def test_a_refused_click_in_the_queue_repaints_the_servers_table(live_server, page: Page, slow_server):
    pk = open_deal(live_server, page)
    page.evaluate("""() => {
      document.querySelector('#grid .slot.movable').click();
      var stuck = document.querySelector('#grid .slot.card:not(.movable):not(.locked)');
      stuck.click();
      document.querySelector('#grid .slot.movable').click();
    }""")
    expect(page.locator("#status .note .warning")).to_contain_text("cannot move", timeout=10_000)
    expect(page.locator("#grid")).to_have_attribute("data-version", "1")
    time.sleep(SLOW * 2)  # nothing queued after the refusal is sent
    assert Game.objects.get(pk=pk).version == 1
    shown = page.evaluate(TABLE)
    page.reload()
    assert page.evaluate(TABLE)["slots"] == shown["slots"]


def test_a_click_right_after_a_shuffle_is_not_lost(live_server, page: Page, slow_server):
    """It used to be dropped (the grid took one request at a time); now it waits for the
    shuffle and the server decides it on the table the shuffle dealt."""
    pk = open_deal(live_server, page)
    page.evaluate("() => document.querySelector('#grid .slot.movable').click()")
    expect(page.locator("#grid")).to_have_attribute("data-version", "1", timeout=10_000)
    posts = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    page.locator("#status button[formaction$='/shuffle/']").click()
    page.evaluate("() => document.querySelector('#grid .slot.card').click()")  # before the new deal is shown
    expect(page.locator("#grid")).to_have_attribute("data-shuffles-left", "2", timeout=10_000)
    deadline = time.monotonic() + 10
    while len(posts) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert [url.rsplit("/", 2)[-2] for url in posts] == ["shuffle", "move"]  # in the order clicked
    page.wait_for_load_state("networkidle")
    game = Game.objects.get(pk=pk)
    assert game.shuffles_used == 1 and game.version in (2, 3)  # the move taken, or refused on the new table


# Ten clicks 20 ms apart, each on the first card the page marks movable as it is then (issue 45:
# on some deals the answers' slots, swapped in over moves drawn after them, let the page draw a
# card the server never moved, and the clicks after it were lost).
BURST = """async () => {
  for (let i = 0; i < 10; i++) {
    const card = document.querySelector("#grid .slot.movable");
    if (card) card.click();
    await new Promise((done) => setTimeout(done, 20));
  }
}"""


@pytest.fixture
def quick_server(monkeypatch):
    """Answers that come back between a burst's clicks, as from a server near by (30 ms)."""
    real = views.game_act

    def quick(**kwargs):
        time.sleep(0.03)
        return real(**kwargs)

    monkeypatch.setattr(views, "game_act", quick)


@pytest.mark.parametrize("deal", [500, 3, 41, 77, 1234, 9])
def test_a_burst_of_clicks_never_leaves_a_table_the_server_did_not_reach(live_server, page: Page, quick_server, deal):
    pk = open_deal(live_server, page, deal=deal)
    refused = []
    page.on("response", lambda answer: refused.append(answer.url) if answer.status == 422 else None)
    page.evaluate(BURST)
    page.wait_for_load_state("networkidle")
    version = Game.objects.get(pk=pk).version
    expect(page.locator("#grid")).to_have_attribute("data-version", str(version), timeout=10_000)
    page.wait_for_timeout(300)  # a repaint asked after the last answer has landed
    page.wait_for_load_state("networkidle")
    shown = page.evaluate(TABLE)
    assert shown["figures"]["data-version"] == str(Game.objects.get(pk=pk).version)
    page.reload()
    assert page.evaluate(TABLE)["slots"] == shown["slots"]  # what the page shows is the server's table
    assert not refused  # no click the page drew was refused by the server


def test_a_shuffle_shows_at_once_that_it_is_happening(live_server, page: Page, slow_server):
    """The cards it gathers fade in the click's own task, before the (slowed) answer; the dealt
    table comes without the mark (issue 45)."""
    pk = open_deal(live_server, page, deal=7)
    page.wait_for_function("() => window.htmx && window.AddictionRule")  # the page's scripts are running
    marked = page.evaluate(
        """() => { document.getElementById("shuffle-button").click();
                   const grid = document.getElementById("grid");
                   return [grid.classList.contains("shuffling"), grid.getAttribute("aria-busy")]; }"""
    )
    assert marked == [True, "true"]
    expect(page.locator("#grid")).to_have_attribute("data-shuffles-left", "2", timeout=10_000)
    expect(page.locator("#grid")).not_to_have_class("shuffling")
    assert page.locator("#grid").get_attribute("aria-busy") is None
    assert Game.objects.get(pk=pk).shuffles_used == 1


def test_a_click_the_rule_refuses_is_answered_at_once_and_never_posted(live_server, page: Page, slow_server):
    """Issue 45: the page's rule refuses it in the server's words, in the click's own task, and
    nothing goes to the server (the server stays the judge of everything posted)."""
    pk = open_deal(live_server, page, deal=7)
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    posted = []
    page.on("request", lambda request: posted.append(request.url) if request.method == "POST" else None)
    said = page.evaluate(
        """() => { const card = document.querySelector("#grid .slot.card:not(.movable)");
                   card.click();
                   return document.getElementById("note").textContent.trim(); }"""
    )
    assert said == "That card cannot move."
    expect(page.locator("#announcer")).to_have_text("That card cannot move.")
    page.wait_for_timeout(2 * SLOW * 1000)
    assert posted == [] and Game.objects.get(pk=pk).version == 0


def test_undo_is_drawn_at_once_and_the_answer_changes_nothing(live_server, page: Page, slow_server):
    """Issue 45: the grid names the move undo takes back (data-undo), so the card goes back in
    the click's own task, counted, with the focus on it; the (slowed) answer confirms it."""
    pk = open_deal(live_server, page, deal=3)
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    before = page.evaluate(SEEN)
    page.evaluate("() => document.querySelector('#grid .slot.movable').click()")
    expect(page.locator("#grid")).to_have_attribute("data-version", "1", timeout=10_000)
    expect(page.locator("#undo-button")).to_be_enabled()
    # The move's request wholly done (its queue emptied after the swap): an undo clicked while it
    # is still out waits its turn, and is drawn then (failed once under CI's load).
    page.wait_for_load_state("networkidle")
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.locator("#undo-button").focus()
    looked = page.evaluate(
        """() => { const t0 = performance.now();
                   document.getElementById("undo-button").click();
                   const focused = document.activeElement;
                   return {ms: performance.now() - t0, version: document.getElementById("grid").dataset.version,
                           moves: document.getElementById("moves-count").textContent,
                           focused: focused.dataset.slot || focused.id, card: focused.dataset.card || ""}; }"""
    )
    assert (looked["version"], looked["moves"]) == ("1", "2")  # drawn and counted; not answered yet
    drawn = page.evaluate(SEEN)
    assert [slot[:2] for slot in drawn] == [slot[:2] for slot in before]  # every card back where it was
    assert looked["card"]  # the focus went with the card taken back
    expect(page.locator("#grid")).to_have_attribute("data-version", "2", timeout=10_000)
    page.wait_for_load_state("networkidle")
    # the answer changed nothing drawn
    assert [slot[:3] for slot in page.evaluate(SEEN)] == [slot[:3] for slot in drawn]
    assert page.evaluate("() => document.activeElement.dataset.slot") == looked["focused"]
    game = Game.objects.get(pk=pk)
    assert (game.version, game.moves, game.can_undo) == (2, 2, False)
    assert page.locator("#grid").get_attribute("data-undo") is None  # nothing more to take back


def test_a_drawn_move_whose_answer_never_comes_gives_way_to_the_servers_table(live_server, page: Page, monkeypatch):
    """The server erred (500, which htmx does not swap in): the page shows the server's table
    again rather than a move it never made."""
    pk = open_deal(live_server, page, deal=3)
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    served = page.evaluate(TABLE)

    def broken(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(views, "game_act", broken)
    page.evaluate("() => document.querySelector('#grid .slot.movable').click()")
    expect(page.locator("#moves-count")).to_have_text("0", timeout=10_000)
    assert page.evaluate(TABLE)["slots"] == served["slots"]
    assert Game.objects.get(pk=pk).version == 0
