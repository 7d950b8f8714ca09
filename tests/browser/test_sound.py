"""Sounds are a setting, off unless chosen (issue 26): with it on, a move, a shuffle and a win
each make theirs (Web Audio, made in the page); with it off, nothing sounds."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.test_instant_moves import open_deal
from tests.browser.test_keys import settled


def test_sounds_play_only_when_chosen(live_server, page: Page):
    open_deal(live_server, page)
    page.locator("#grid .slot.movable").first.click()
    settled(page, 1)
    assert page.evaluate("() => window.addictionSounds || []") == []  # off by default
    page.goto(f"{live_server.url}/settings/")
    page.locator("input[name=sound]").check()
    page.locator("main form button[type=submit]").click()
    open_deal(live_server, page, deal=2)
    page.locator("#grid .slot.movable").first.click()
    settled(page, 1)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#shuffle-button").click()
    settled(page, 2)
    expect(page.locator("#grid")).to_have_attribute("data-shuffles-left", "2")
    assert page.evaluate("() => window.addictionSounds") == ["move", "shuffle"]


def test_a_win_plays_its_notes(live_server, page: Page):
    from games.models import Game
    from tests.helpers import ONE_MOVE_FROM_WIN, set_layout

    page.context.add_cookies([{"name": "addiction_sound", "value": "on", "url": live_server.url}])
    pk = open_deal(live_server, page, deal=4)
    set_layout(Game.objects.get(pk=pk), ONE_MOVE_FROM_WIN)
    page.reload()
    page.locator('#grid [data-slot="0-12"]').click()
    expect(page.locator("#grid")).to_have_attribute("data-status", "won")
    expect(page.locator(".htmx-settling, .htmx-request")).to_have_count(0)
    assert page.evaluate("() => window.addictionSounds")[-1] == "win"
