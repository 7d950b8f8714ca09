"""The home page is a table (issue 45): a new visitor lands on a deal, its first click starts
the game and is played, the how-to closes for good, and a game resumed on the home page plays
there as on its own page."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser.test_small_screens import ada, log_in  # noqa: F401 - ada: a fixture
from tests.browser.test_table_changes import GAME_URL, TABLE


def test_a_new_visitor_lands_on_a_table_and_its_first_click_starts_the_game(live_server, page: Page):
    page.goto(f"{live_server.url}/")
    expect(page.locator("#grid.drawn")).to_be_visible()
    expect(page.locator("#howto")).to_be_visible()
    lit = page.locator("#grid .slot.hint-from")
    card = lit.get_attribute("data-card")
    target = page.locator("#grid .slot.hint-to").get_attribute("data-slot")
    lit.click()
    expect(page).to_have_url(GAME_URL)
    expect(page.locator(f'#grid [data-slot="{target}"]')).to_have_attribute("data-card", card)
    game = Game.objects.get()
    assert (game.version, game.origin) == (1, Game.Origin.CHOSEN)  # seen before its start
    # The home page now resumes it, and plays there: a move drawn, confirmed by the server.
    page.goto(f"{live_server.url}/")
    expect(page.locator("#grid")).to_have_attribute("action", re.compile(rf"/game/{game.pk}/move/$"))
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    page.locator("#grid .slot.movable").first.click()
    expect(page.locator("#grid")).to_have_attribute("data-version", "2")
    shown = page.evaluate(TABLE)
    page.goto(f"{live_server.url}/game/{game.pk}/")
    assert page.evaluate(TABLE)["slots"] == shown["slots"]


def test_the_how_to_closes_for_good(live_server, page: Page):
    page.goto(f"{live_server.url}/")
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    page.locator("#howto-close").click()
    expect(page.locator("#howto")).to_be_hidden()
    page.reload()
    expect(page.locator("#grid.drawn")).to_be_visible()
    expect(page.locator("#howto")).to_be_hidden()  # told once in this browser
    assert Game.objects.count() == 0


def test_the_table_is_on_the_first_screen_of_a_phone_and_a_laptop(live_server, page: Page):
    for width, height in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/")
        box = page.locator("#grid").bounding_box()
        assert box["y"] < height / 2, (width, box)  # the table starts in the screen's upper half
        if width > 700:
            assert box["y"] + box["height"] <= height, (width, box)  # whole, on a laptop


def test_on_a_phone_the_header_keeps_to_two_rows_signed_in_or_not(live_server, browser, ada):  # noqa: F811
    """Issue 45: the language form took a row of its own (132 px of header at 390 wide); it is
    at the foot of the page now, and the table starts higher."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        for signed_in in (False, True):
            if signed_in:
                log_in(page, live_server)
            page.goto(f"{live_server.url}/")
            header = page.locator(".site-header").bounding_box()
            assert header["height"] <= 2 * 44 + 4, (signed_in, header)
            expect(page.locator(".site-footer #language-select")).to_be_attached()
            assert page.locator("#grid").bounding_box()["y"] < 844 / 2
    finally:
        context.close()


def test_on_a_laptop_no_empty_band_stands_above_the_table(live_server, page: Page):
    """Issue 45: the room kept for the note was two empty lines between the buttons and the
    table at 1280x800; it is one, and a one-line note fills it without moving the table."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/deal/77/")
    page.get_by_role("button", name="Play deal #77").click()
    expect(page).to_have_url(GAME_URL)
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    band = page.evaluate(
        "() => document.getElementById('grid').getBoundingClientRect().top"
        " - document.getElementById('actions').getBoundingClientRect().bottom"
    )
    assert band <= 40, band
    top = page.locator("#grid").bounding_box()["y"]
    page.locator("#grid .slot.card:not(.movable):not(.locked)").first.click()  # refused: a one-line note
    expect(page.locator("#note .warning")).to_be_visible()
    assert page.locator("#grid").bounding_box()["y"] == top
