"""Two players play today's daily deal in their browsers and both stand on its daily board.

The day's deal and seed are set to a win the tests know (tests/winning.py), so that the
clicks can be spelled out; everything else is the site as it runs.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, time

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, expect

from daily import deals
from daily.models import DailySeed
from games.models import Game
from games.services import seed_digest
from tests.winning import paced_clock, quick_win

PASSWORD = "plum-orchard-lantern-42"


def play_the_daily(browser: Browser, live_server, name: str, actions) -> int:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main form").get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/daily/")
    page.get_by_role("button", name="Play today's daily").click()
    expect(page).to_have_url(re.compile(r"/game/\d+/$"))
    grid = page.locator("#grid")
    for number, (kind, slot) in enumerate(actions, start=1):
        if kind == "move":
            page.locator(f'#grid [data-slot="{slot[0]}-{slot[1]}"]').click()
        else:
            page.locator("#status").get_by_role("button", name=re.compile(r"^Shuffle")).click()
        expect(grid).to_have_attribute("data-version", str(number))
    expect(grid).to_have_attribute("data-status", "won")
    game_id = int(re.search(r"/game/(\d+)/$", page.url).group(1))
    context.close()
    return game_id


def test_two_players_play_the_daily_and_both_stand_on_its_board(live_server, browser: Browser, monkeypatch):
    win = quick_win()
    today = deals.today()
    monkeypatch.setattr(deals, "deal_number_of", lambda day: win.deal_number)
    # Each player's luck is their own (docs/RULES.md, "The daily deal"): here both get the searched win's.
    monkeypatch.setattr(deals, "player_seed", lambda day_seed, key: str(win.seed))
    DailySeed.objects.create(day=today, seed=str(win.seed), seed_sha256=seed_digest(str(win.seed)))
    for name in ("ada", "bob"):
        User.objects.create_user(name, password=PASSWORD)

    # The server times each click a second apart (a person's pace), from now, or from 23:40 when
    # the 240 paced seconds would carry the games past the day's end (the test failed at 23:56).
    latest = datetime.combine(today, time(23, 40), tzinfo=UTC)
    with paced_clock(start=min(timezone.now(), latest)):
        games = [play_the_daily(browser, live_server, name, win.actions) for name in ("ada", "bob")]
    assert list(Game.objects.filter(pk__in=games).values_list("origin", "daily", "ranked")) == [
        ("daily", today, True),
        ("daily", today, True),
    ]

    page = browser.new_page()
    page.goto(f"{live_server.url}/daily/{today.isoformat()}/leaderboard/")
    rows = page.locator("#board tr[data-player]")
    expect(rows).to_have_count(2)
    assert sorted(rows.evaluate_all("rows => rows.map(row => row.dataset.player)")) == ["ada", "bob"]
    page.goto(f"{live_server.url}/leaderboards/")
    expect(page.locator("#daily-top tr[data-player]")).to_have_count(2)
    expect(page.locator("#board tr[data-player]")).to_have_count(0)  # a daily is not a random deal
    page.close()
