"""A finished game in real Chromium: its seed shows as it ends; its replay's Play steps through it, Pause stops it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser.test_play import start

MOVES = 4


def play_and_give_up(page: Page, live_server) -> int:
    """Deal #1: MOVES moves on cards the page marks movable, then Give up; the game's id."""
    game_id = start(page, live_server)
    grid = page.locator("#grid")
    for moves in range(1, MOVES + 1):
        page.locator("#grid .slot.movable").first.click()
        expect(grid).to_have_attribute("data-moves", str(moves))
    page.evaluate("window.notReloaded = true")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Give up").click()
    expect(grid).to_have_attribute("data-status", "lost")
    # The answer that ended the game brought the revealed seed, without a reload.
    seed = Game.objects.get(pk=game_id).seed
    expect(page.locator("#fairness")).to_contain_text(f"The seed, revealed now the game is over: {seed}")
    assert page.evaluate("window.notReloaded") is True
    return game_id


def test_play_steps_to_the_end_and_pause_stops(live_server, page: Page):
    game_id = play_and_give_up(page, live_server)
    last = MOVES + 1
    page.goto(f"{live_server.url}/game/{game_id}/replay/")
    play = page.locator("#replay-play")
    steps = page.locator(".replay-steps span")
    expect(play).to_have_text("Play")
    expect(page.locator("#replay-action")).to_have_text("The deal.")

    play.click()
    expect(play).to_have_text("Pause")
    expect(steps).to_have_text(f"Step 2 of {last}")
    play.click()  # the button is drawn again with each step, and still answers
    expect(play).to_have_text("Play")
    paused = steps.inner_text()
    page.wait_for_timeout(2500)  # longer than two steps' pace: nothing moves while paused
    expect(steps).to_have_text(paused)
    expect(page).to_have_url(re.compile(rf"/game/{game_id}/replay/\d+/$"))

    play.click()
    expect(steps).to_have_text(f"Step {last} of {last}", timeout=15_000)
    expect(play).to_have_text("Play")
    expect(page.locator("#replay-action")).to_have_text("Gave up")
    expect(page).to_have_url(re.compile(rf"/game/{game_id}/replay/{last}/$"))
    assert page.locator("#grid .slot.moved").count() == 0


def test_without_scripts_the_replay_steps_by_its_links(live_server, browser):
    context = browser.new_context(java_script_enabled=True)
    page = context.new_page()
    game_id = play_and_give_up(page, live_server)
    cookies = context.cookies()
    context.close()
    context = browser.new_context(java_script_enabled=False)
    context.add_cookies(cookies)
    page = context.new_page()
    page.goto(f"{live_server.url}/game/{game_id}/replay/")
    expect(page.locator("#replay-play")).to_be_hidden()
    page.get_by_role("link", name="Forward").click()
    expect(page).to_have_url(re.compile(rf"/game/{game_id}/replay/1/$"))
    step = re.compile(r"^Move 1: .+ from row \d+, column \d+ to row \d+, column \d+$")
    expect(page.locator("#replay-action")).to_have_text(step)
    assert page.locator("#grid .slot.moved").count() == 1
    context.close()
