"""A guest plays a few moves, signs up mid-game, and finds that game in "My games".

Deal #1 again; the test asks the engine for the moves rather than spelling them out.
"""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from games import engine
from games.models import Game

DEAL = 1
GAME_URL = re.compile(r"/game/(\d+)/$")
MOVES = 3


def table(page: Page) -> dict[str, str]:
    """The ``data-card`` of every slot the page shows."""
    return page.eval_on_selector_all(
        "#grid [data-slot]", "slots => Object.fromEntries(slots.map(s => [s.dataset.slot, s.dataset.card]))"
    )


def counters(page: Page) -> dict[str, str]:
    grid = page.locator("#grid")
    names = ("data-version", "data-status", "data-moves", "data-shuffles-left")
    return {name: grid.get_attribute(name) for name in names}


def cards_of(position: engine.Position) -> dict[str, str]:
    return {f"{r}-{c}": token or "" for r, row in enumerate(position.rows()) for c, token in enumerate(row)}


def test_signing_up_mid_game_keeps_the_game_in_my_games(live_server, page: Page):
    page.goto(f"{live_server.url}/deal/{DEAL}/")
    page.get_by_role("button", name=f"Play deal #{DEAL}").click()
    expect(page).to_have_url(GAME_URL)
    game_id = int(GAME_URL.search(page.url).group(1))

    # A few moves as a guest: each one a card that goes right of another, so one click moves it.
    position = engine.deal(DEAL)
    for played in range(1, MOVES + 1):
        move = next(m for m in position.legal_moves() if m.dst[1] != 0)
        page.locator(f'#grid [data-slot="{move.src[0]}-{move.src[1]}"]').click()
        expect(page.locator("#grid")).to_have_attribute("data-moves", str(played))
        position = position.play(move)
    before_table, before_counters = table(page), counters(page)
    assert before_table == cards_of(position)
    assert Game.objects.get(pk=game_id).owner is None

    # Sign up through the form linked from the page's header.
    page.locator(".site-header").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Email (optional)").fill("ada@example.org")
    page.get_by_label("Password", exact=True).fill("plum-orchard-lantern-42")
    page.get_by_label("Password confirmation").fill("plum-orchard-lantern-42")
    page.locator("form").get_by_role("button", name="Sign up").click()

    expect(page).to_have_url(re.compile(r"/my-games/$"))
    expect(page.locator(".site-header")).to_contain_text("ada")
    row = page.locator(f'#games-in-progress tr[data-game="{game_id}"]')
    expect(row).to_be_visible()
    expect(row.locator("td").nth(0)).to_have_text(f"#{DEAL}")
    expect(row.locator("td").nth(1)).to_have_text(str(MOVES))
    assert Game.objects.get(pk=game_id).owner == User.objects.get(username="ada")

    row.get_by_role("link", name="Resume").click()
    expect(page).to_have_url(re.compile(rf"/game/{game_id}/$"))
    expect(page.locator("#grid")).to_have_attribute("data-moves", str(MOVES))
    assert table(page) == before_table
    assert counters(page) == before_counters

    # And it plays on as the account's game.
    move = next(m for m in position.legal_moves() if m.dst[1] != 0)
    page.locator(f'#grid [data-slot="{move.src[0]}-{move.src[1]}"]').click()
    expect(page.locator("#grid")).to_have_attribute("data-moves", str(MOVES + 1))
    assert table(page) == cards_of(position.play(move))
