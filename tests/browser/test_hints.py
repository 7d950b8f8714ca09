"""Hints in real Chromium: a signed-in player asks for hints (the H key, then "Show me") until
a deal the tests know to be winnable is won; the game is assisted and on no board.

Deal 17 can be won from its opening without a shuffle, and the solver's hints win it in
about a hundred moves (tests/games/test_hints.py pins the verdict of the same deal).
"""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games.models import Game
from records.models import BoardEntry

DEAL = 17
GAME_URL = re.compile(r"/game/(\d+)/$")


def test_hints_win_a_winnable_deal_and_the_game_is_assisted_and_unranked(live_server, page: Page):
    User.objects.create_user("ada", password="plum-orchard-lantern-42")
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill("plum-orchard-lantern-42")
    page.locator("main form").get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/deal/{DEAL}/")
    page.get_by_role("button", name=f"Play deal #{DEAL}").click()
    expect(page).to_have_url(GAME_URL)
    game_id = int(GAME_URL.search(page.url).group(1))
    grid = page.locator("#grid")

    # The first hint asks first; the H key asks as the button does.
    page.once("dialog", lambda dialog: dialog.accept())
    page.keyboard.press("h")
    expect(grid).to_have_attribute("data-hint", re.compile(r"^\d-\d+>\d-\d+$"))
    hint = grid.get_attribute("data-hint")
    source, target = hint.split(">")
    expect(page.locator(f'#grid [data-slot="{source}"]')).to_have_class(re.compile(r"\bhint-from\b"))
    expect(page.locator(f'#grid [data-slot="{target}"]')).to_have_class(re.compile(r"\bhint-to\b"))
    expect(page.locator("#status .note")).to_contain_text("Hint: move")
    assert Game.objects.get(pk=game_id).assisted

    # "Show me" plays the hints, here without the pause between them, until the game is won.
    demo = page.locator("#demo")
    expect(demo).to_be_visible()
    page.evaluate("document.getElementById('demo').dataset.paceMs = '0'")
    demo.click()
    expect(grid).to_have_attribute("data-status", "won", timeout=120_000)
    expect(page.locator("#status")).to_contain_text("Assisted game")

    game = Game.objects.get(pk=game_id)
    assert game.status == "won" and game.assisted and not game.ranked and game.owner.username == "ada"
    assert not BoardEntry.objects.filter(game=game).exists()
    page.goto(f"{live_server.url}/leaderboards/")
    expect(page.locator("main")).not_to_contain_text("ada")
