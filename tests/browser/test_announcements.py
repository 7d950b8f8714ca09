"""The live region says each thing once (issue 26): a loss without the verdict's placeholder,
then the verdict when it comes; an assisted game's "not ranked" sentence with the hint, not
after every move."""

from __future__ import annotations

import time

from django.db import OperationalError
from playwright.sync_api import Page, expect

from games import background
from tests.browser.test_instant_moves import open_deal
from tests.browser.test_keys import settled

HEARD = """() => {
  window.heard = [];
  new MutationObserver(function () {
    var text = document.getElementById("announcer").textContent.trim();
    if (text) window.heard.push(text);
  }).observe(document.getElementById("announcer"), {childList: true, characterData: true, subtree: true});
}"""


def analysed(game_id: int) -> bool:
    """The worker's part, done by the test: ``background.game_analyse``.  The live server
    shares the test's in-memory database in SQLite's shared-cache mode, where a write that
    meets the server thread's read at that instant is refused at once ("database table is
    locked") instead of waiting as a file database with a busy timeout does; the claim is
    then simply made again."""
    for _attempt in range(10):
        try:
            return background.game_analyse(game_id)
        except OperationalError as refused:
            if "locked" not in str(refused):
                raise
            time.sleep(0.1)
    return background.game_analyse(game_id)


def test_a_loss_is_said_once_and_then_its_verdict(live_server, page: Page, settings):
    # As deployed: the analysis is queued when the game ends and a worker does it later
    # (here the test, once the end screen shows "Analysing the game…").
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend", "QUEUES": ["default"]}}
    game_id = open_deal(live_server, page)
    page.evaluate(HEARD)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#status button[formaction$='/resign/']").click()
    expect(page.locator("#status .verdict.pending")).to_have_count(1)
    assert analysed(game_id)
    expect(page.locator("#status [data-verdict]")).to_have_count(1, timeout=10_000)  # htmx asked again
    page.wait_for_timeout(300)
    heard = page.evaluate("window.heard")
    assert len(heard) == 2, heard
    assert "You gave up this game" in heard[0] and "Analysing" not in heard[0]
    assert "You gave up" not in heard[1] and heard[1] == page.locator("#status [data-verdict]").inner_text().strip()


def test_the_not_ranked_sentence_comes_with_the_hint_not_with_every_move(live_server, page: Page):
    open_deal(live_server, page)
    page.evaluate(HEARD)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#hint-button").click()
    settled(page, 0)
    expect(page.locator("#status .assisted")).to_have_count(1)
    page.wait_for_function("() => window.heard.length >= 1")
    page.locator("#grid .slot.movable").first.click()
    settled(page, 1)
    page.wait_for_function("() => window.heard.length >= 2")
    heard = page.evaluate("window.heard")
    assert "not ranked" in heard[0] and "not ranked" not in heard[-1], heard
