"""Phones and small screens in real Chromium (issue 13): no page scrolls sideways at
390x844, the board takes the whole width held upright, touch controls are 44 px, and held
sideways the board and its controls fit the screen while playing and after the end.

The player, ada, has games whose deal numbers are as long as they come (19 digits): one
in progress and one given up, and a real win on the boards.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from games import engine
from games.models import Game
from games.services import game_act, game_start
from tests.helpers import ONE_MOVE_FROM_WIN, set_layout
from tests.winning import quick_win, recorded_win, user_owner

PASSWORD = "plum-orchard-lantern-42"
LONGEST = engine.MAX_DEAL


@pytest.fixture
def ada(db) -> User:
    return User.objects.create_user("ada", password=PASSWORD)


def log_in(page: Page, live_server, username: str = "ada") -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main form").get_by_role("button", name="Log in").click()
    expect(page.locator(".site-header .account")).to_contain_text(username)


def playing(user, deal_number: int) -> Game:
    return game_start(owner=user_owner(user), deal_number=deal_number)


def given_up(user, deal_number: int) -> Game:
    game = playing(user, deal_number)
    return game_act(owner=user_owner(user), game_id=game.pk, version=game.version, kind=engine.ActionKind.RESIGN).game


def won(user, deal_number: int) -> Game:
    """A game of ``deal_number`` won by its last move (not ranked: its table was set)."""
    game = set_layout(playing(user, deal_number), ONE_MOVE_FROM_WIN, moves=80)
    return game_act(
        owner=user_owner(user), game_id=game.pk, version=game.version, kind=engine.ActionKind.MOVE, slot=(0, 12)
    ).game


def box(page: Page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def test_no_page_scrolls_sideways_on_a_phone(live_server, browser: Browser, ada):
    in_progress = playing(ada, LONGEST)
    finished = given_up(ada, LONGEST - 1)
    recorded_win(user_owner(ada), quick_win(), finished_at=timezone.now() - timedelta(hours=1))
    pages = {
        "home": "/",
        "game": f"/game/{in_progress.pk}/",
        "finished game": f"/game/{finished.pk}/",
        "my games": "/my-games/",
        "leaderboards": "/leaderboards/",
        "a deal's board": f"/deal/{LONGEST}/leaderboard/",
        "profile": "/players/ada/",
        "verify": f"/game/{finished.pk}/verify/",
        "replay": f"/game/{finished.pk}/replay/",
        "rules": "/how-to-play/",
    }
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        log_in(page, live_server)
        wide = {}
        for name, url in pages.items():
            page.goto(live_server.url + url)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide[name] = width
        page.get_by_role("button", name="Log out").click()
        for name, url in {"login": "/accounts/login/", "signup": "/accounts/signup/"}.items():
            page.goto(live_server.url + url)
            expect(page.locator("main h1")).to_be_visible()
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide[name] = width
        assert wide == {}, f"pages wider than the phone: {wide}"
    finally:
        context.close()


def test_upright_the_board_takes_the_width_and_touch_controls_are_44px(live_server, browser: Browser, ada):
    game = playing(ada, 123_456_789)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        log_in(page, live_server)
        page.goto(f"{live_server.url}/game/{game.pk}/")
        grid = box(page, "#grid")
        assert grid["x"] >= 0 and grid["x"] + grid["width"] <= 390
        assert grid["width"] >= 380, grid
        card = box(page, '#grid [data-slot="0-0"]')
        assert card["width"] >= 27 and card["height"] >= 38, card
        rank = page.eval_on_selector("#grid .card .rank", "el => parseFloat(getComputedStyle(el).fontSize)")
        assert rank >= 14, f"the rank is drawn in {rank}px type"

        controls = page.locator(
            "#status button:visible, .site-header button, .site-header select, .site-header a:visible,"
            " .game-footer button:visible"
        )
        assert controls.count() >= 10
        small = {}
        for index in range(controls.count()):
            control = controls.nth(index)
            size = control.bounding_box()
            if size["width"] < 44 or size["height"] < 44:
                small[control.inner_text() or control.get_attribute("name")] = (size["width"], size["height"])
        assert small == {}, f"controls smaller than 44x44 px: {small}"
    finally:
        context.close()


def fits(page: Page) -> None:
    """The board, the counters, the note and the actions are all within a 844x390 screen."""
    for selector in ("#grid", "#status .counters", "#status .note", "#status .actions"):
        part = box(page, selector)
        assert part["x"] >= 0 and part["y"] >= 0, selector
        assert part["x"] + part["width"] <= 844 and part["y"] + part["height"] <= 390, (selector, part)


@pytest.mark.parametrize("end", ["playing", "won", "lost"])
def test_sideways_the_board_and_its_controls_fit_the_screen(live_server, browser: Browser, ada, end):
    game = {"playing": playing, "won": won, "lost": given_up}[end](ada, 123_456_789)
    context = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        log_in(page, live_server)
        page.goto(f"{live_server.url}/game/{game.pk}/")
        expect(page.locator("#grid")).to_have_attribute("data-status", end)
        assert page.evaluate("scrollY") == 0
        fits(page)
        if end == "playing":  # with the longest note a game in play shows: a hint, and "assisted"
            page.once("dialog", lambda dialog: dialog.accept())
            page.get_by_role("button", name="Hint").click()
            expect(page.locator("#status .note")).to_contain_text("Assisted game")
            fits(page)
        card = box(page, '#grid [data-slot="0-0"]')
        assert card["height"] >= 55, card
    finally:
        context.close()


def on_page(page: Page, selector: str) -> dict:
    """Where ``selector`` stands on the page (not in the viewport: a tall page may scroll)."""
    return page.eval_on_selector(
        selector,
        "e => { var r = e.getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }",
    )


@pytest.mark.parametrize("size", [(390, 844), (844, 390), (1280, 800)])
def test_a_note_does_not_move_the_board(live_server, browser: Browser, ada, size):
    game = playing(ada, 1)
    position = game.state().position
    movable = {move.src for move in position.legal_moves()}
    stuck = next(
        (r, c)
        for r, row in enumerate(position.rows())
        for c, token in enumerate(row)
        if token and (r, c) not in movable and (r, c) not in position.locked()
    )
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        log_in(page, live_server)
        page.goto(f"{live_server.url}/game/{game.pk}/")
        before = on_page(page, "#grid")
        page.locator(f'#grid [data-slot="{stuck[0]}-{stuck[1]}"]').click()
        expect(page.locator("#status .note")).to_contain_text("That card cannot move.")
        expect(page.locator(".htmx-settling, .htmx-request, .htmx-added")).to_have_count(0)
        assert on_page(page, "#grid") == before
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#status .note")).to_contain_text("Hint: move")
        expect(page.locator(".htmx-settling, .htmx-request, .htmx-added")).to_have_count(0)
        assert on_page(page, "#grid") == before
    finally:
        context.close()
