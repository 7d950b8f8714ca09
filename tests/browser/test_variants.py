"""The family's variants in real Chromium (issue 29): Blue Moon chosen on the home page and
played by keyboard, with undo, redo and a hint; a Montana game and a Red Moon game won in the
browser, their replays stepped, and the Red Moon win on its own variant's boards.

A win is reached as tests/winning.py reaches one: a seeded random playout found by the engine
alone (for the variant), played through ``services.game_act`` at a person's pace but for its
last move, which the browser makes.  So the log replays to the win (the replay shows it, and
the win ranks), which a table written straight into the database would not do.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from functools import cache

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from addiction_site.ownership import Owner
from games import engine
from games.models import Action, Game
from games.services import game_act, game_start
from tests.browser.test_drag import drag
from tests.browser.test_keyboard import focused_slot
from tests.browser.test_play import cards_of, counters, slot, slot_name, table
from tests.winning import SEED, reseed, user_owner

GAME_URL = re.compile(r"/game/(\d+)/$")
PASSWORD = "plum-orchard-lantern-42"
ACES = {"AS", "AH", "AD", "AC"}


# --------------------------------------------------------------------------- helpers


@pytest.fixture
def page(page: Page):
    """The browser tests' page, failing the test on a script error or on a server error (5xx)
    answered to any of its requests."""
    troubles: list[str] = []
    page.on("pageerror", lambda error: troubles.append(f"script error: {error}"))
    page.on(
        "response",
        lambda response: (
            troubles.append(f"{response.request.method} {response.url}: {response.status}")
            if response.status >= 500
            else None
        ),
    )
    yield page
    assert not troubles, troubles


@cache
def variant_win(variant: str, seed: int = SEED) -> tuple[int, tuple[tuple[str, engine.Slot | None], ...]]:
    """The first deal of ``variant`` whose seeded random playout (clicks on movable cards,
    a shuffle when stuck) wins with the secret ``seed``: its number and its actions."""
    for deal_number in range(1, 2000):
        rng = random.Random(f"addiction-tests:{variant}:{deal_number}")
        state = engine.GameState.start(deal_number=deal_number, seed=seed, variant=variant)
        actions: list[tuple[str, engine.Slot | None]] = []
        while not state.is_over and len(actions) < 400:
            sources = sorted({move.src for move in state.position.legal_moves()})
            action = ("move", rng.choice(sources)) if sources else ("shuffle", None)
            state, _move = state.act(action[0], slot=action[1])
            actions.append(action)
        if state.status is engine.Status.WON:
            return deal_number, tuple(actions)
    raise AssertionError(f"no random playout of {variant} won")  # pragma: no cover


def state_after(variant: str, deal_number: int, actions, seed: int = SEED) -> engine.GameState:
    state = engine.GameState.start(deal_number=deal_number, seed=seed, variant=variant)
    for kind, where in actions:
        state, _move = state.act(kind, slot=where)
    return state


def play_all_but_the_last(owner: Owner, game: Game, actions) -> Game:
    """Play ``actions`` but the last through the services, a second apart, ending a second ago."""
    start = timezone.now() - timedelta(seconds=len(actions))
    Game.objects.filter(pk=game.pk).update(started_at=start, last_action_at=start)
    for number, (kind, where) in enumerate(actions[:-1]):
        game_act(
            owner=owner,
            game_id=game.pk,
            version=number,
            kind=kind,
            slot=where,
            now=start + timedelta(seconds=number + 1),
        )
    return Game.objects.get(pk=game.pk)


def playing(moves: int, shuffles_left: int = 2, version: int | None = None) -> dict[str, str]:
    """The grid's counters (test_play.counters) of a game going on."""
    version = moves if version is None else version
    return {
        "data-version": str(version),
        "data-status": "playing",
        "data-moves": str(moves),
        "data-shuffles-left": str(shuffles_left),
    }


def stored_position(game_id: int) -> engine.Position:
    game = Game.objects.get(pk=game_id)
    return engine.Position.parse(game.position, game.variant)


def log_in(page: Page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main form").get_by_role("button", name="Log in").click()
    expect(page.locator(".site-header .account")).to_contain_text(username)


def step_the_replay(page: Page, game_id: int, variant: str, deal_number: int, last: int, won: engine.Position) -> None:
    """The finished game's replay, opened from its page: the deal, a step forward, the won end."""
    page.locator(".after-game").get_by_role("link", name="Replay").click()
    expect(page).to_have_url(re.compile(rf"/game/{game_id}/replay/$"))
    steps = page.locator("#replay .replay-steps span")
    expect(steps).to_have_text(f"Step 0 of {last}")
    expect(page.locator("#replay-action")).to_have_text("The deal.")
    if engine.VARIANTS[variant].cols == 14:
        expect(page.locator("#grid")).to_have_class(re.compile(r"\bwide\b"))
    else:
        expect(page.locator("#grid")).not_to_have_class(re.compile(r"\bwide\b"))
    assert table(page) == cards_of(engine.deal(deal_number, variant))

    page.locator("#replay").get_by_role("link", name="Forward").click()
    expect(steps).to_have_text(f"Step 1 of {last}")
    expect(page).to_have_url(re.compile(rf"/game/{game_id}/replay/1/$"))
    expect(page.locator("#replay-action")).to_have_text(re.compile(r"^Move 1: "))
    expect(page.locator("#grid .slot.moved")).to_have_count(1)

    page.locator("#replay").get_by_role("link", name="End").click()
    expect(steps).to_have_text(f"Step {last} of {last}")
    expect(page.locator("#grid")).to_have_attribute("data-status", "won")
    assert table(page) == cards_of(won)


# --------------------------------------------------------------------------- the tests


def test_blue_moon_from_the_home_tab_by_keyboard_with_undo_redo_and_a_hint(live_server, page: Page):
    page.goto(f"{live_server.url}/")
    tab = page.locator('a[data-variant="blue-moon"]')
    tab.click()
    expect(page).to_have_url(re.compile(r"/\?variant=blue-moon$"))
    expect(page.locator('a[data-variant="blue-moon"]')).to_have_attribute("aria-current", "true")
    expect(page.locator("#variant-summary")).to_contain_text("Blue Moon")
    random_form = page.locator("form").filter(has=page.get_by_role("button", name="Play a random deal"))
    expect(random_form.locator('input[name="variant"]')).to_have_value("blue-moon")
    random_form.get_by_role("button", name="Play a random deal").click()
    expect(page).to_have_url(GAME_URL)
    game_id = int(GAME_URL.search(page.url).group(1))
    game = Game.objects.get(pk=game_id)
    assert (game.variant, game.origin) == ("blue-moon", Game.Origin.RANDOM)

    # A 14-column table, the aces heading the rows in column 0, two shuffles.
    grid = page.locator("#grid")
    expect(grid).to_have_class(re.compile(r"\bwide\b"))
    expect(page.locator("#grid [data-slot]")).to_have_count(56)
    opening = stored_position(game_id)
    assert opening == engine.deal(game.deal_number, "blue-moon")
    shown = table(page)
    assert shown == cards_of(opening)
    assert {shown[f"{row}-0"] for row in range(4)} == ACES
    assert counters(page) == playing(0)
    expect(page.locator("#shuffle-button")).to_have_text("Shuffle (2 left)")
    expect(page.locator("#status .variant-name")).to_have_text("Blue Moon")

    # The arrows walk a 14-column table: left of column 0 is column 13.
    slot(page, "0-0").focus()
    page.keyboard.press("ArrowLeft")
    assert focused_slot(page) == "0-13"
    page.keyboard.press("ArrowRight")
    assert focused_slot(page) == "0-0"

    # Walk to a card the engine says a click moves, and press Enter.
    assert opening.legal_moves(), f"deal #{game.deal_number} has no move at all (about one deal in 20,000)"
    move = next(opening.move_for_slot(m.src) for m in opening.legal_moves())
    assert move is not None
    for _ in range(move.src[0]):
        page.keyboard.press("ArrowDown")
    for _ in range(move.src[1]):
        page.keyboard.press("ArrowRight")
    assert focused_slot(page) == slot_name(move.src)
    page.keyboard.press("Enter")
    expect(grid).to_have_attribute("data-moves", "1")
    after = opening.play(move)
    expect(slot(page, slot_name(move.dst))).to_have_attribute("data-card", move.card)
    assert table(page) == cards_of(after)
    assert stored_position(game_id) == after
    expect(page.locator("#undo-button")).to_be_enabled()
    expect(page.locator("#redo-button")).to_be_disabled()

    # Undo takes it back and counts as a move; redo plays it again and counts too.
    page.locator("#undo-button").click()
    expect(grid).to_have_attribute("data-moves", "2")
    assert table(page) == cards_of(opening)
    expect(page.locator("#redo-button")).to_be_enabled()
    expect(page.locator("#undo-button")).to_be_disabled()
    page.locator("#redo-button").click()
    expect(grid).to_have_attribute("data-moves", "3")
    assert table(page) == cards_of(after)
    expect(page.locator("#redo-button")).to_be_disabled()
    expect(page.locator("#undo-button")).to_be_enabled()
    assert counters(page) == playing(3)
    expect(page.locator("#moves-count")).to_have_text("3")
    expect(page.locator("#shuffles-left-count")).to_have_text("2")
    assert list(Action.objects.filter(game_id=game_id).order_by("number").values_list("kind", "move")) == [
        ("move", str(move)),
        ("undo", str(move)),
        ("redo", str(move)),
    ]

    # A hint (the first asks first) marks its card and gap, or the shuffle; it moves nothing.
    dialogs = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    page.locator("#hint-button").click()
    expect(page.locator("#status .assisted")).to_be_visible()
    assert dialogs == ["Games with hints are not ranked. Show a hint?"]
    game = Game.objects.get(pk=game_id)
    assert game.assisted and game.hint_version == 3
    hint = engine.Hint.parse(game.hint, 14)
    if hint.kind is engine.HintKind.MOVE:
        expect(grid).to_have_attribute("data-hint", game.hint)
        assert any((m.src, m.dst) == (hint.src, hint.dst) for m in after.legal_moves()), (game.hint, str(after))
        expect(slot(page, slot_name(hint.src))).to_have_class(re.compile(r"\bhint-from\b"))
        expect(slot(page, slot_name(hint.dst))).to_have_class(re.compile(r"\bhint-to\b"))
        expect(page.locator("#status .note .hint")).to_contain_text("Hint: move")
    else:
        assert hint.kind is engine.HintKind.SHUFFLE, game.hint  # two shuffles are left
        expect(page.locator("#shuffle-button")).to_have_class(re.compile(r"\bhinted\b"))
    assert counters(page) == playing(3)
    assert table(page) == cards_of(after)


def test_a_montana_game_is_won_by_a_click_and_its_replay_steps(live_server, page: Page):
    deal_number, actions = variant_win("montana")
    page.goto(f"{live_server.url}/deal/{deal_number}/?variant=montana")
    expect(page.locator("main h1")).to_contain_text("Montana")
    page.get_by_role("button", name=f"Play deal #{deal_number}").click()
    expect(page).to_have_url(GAME_URL)
    game_id = int(GAME_URL.search(page.url).group(1))
    game = Game.objects.get(pk=game_id)
    assert game.variant == "montana" and game.owner_id is None and game.guest_token
    grid = page.locator("#grid")
    expect(grid).not_to_have_class(re.compile(r"\bwide\b"))
    expect(page.locator("#grid [data-slot]")).to_have_count(52)
    assert table(page) == cards_of(engine.deal(deal_number, "montana"))
    expect(grid).to_have_attribute("data-shuffles-left", "2")

    # One move before the win, through the services, with the searched secret seed.
    reseed(game, SEED)
    game = play_all_but_the_last(Owner(user_id=None, guest_token=game.guest_token), game, actions)
    before = state_after("montana", deal_number, actions[:-1])
    assert (game.position, game.moves, game.shuffles_used) == (str(before.position), before.moves, before.shuffles_used)
    kind, last = actions[-1]
    assert kind == "move" and last[1] == 12, actions[-1]  # the last card leaves column 12 for its place
    page.reload()
    expect(grid).to_have_attribute("data-version", str(len(actions) - 1))
    assert table(page) == cards_of(before.position)
    expect(grid).to_have_attribute("data-shuffles-left", str(before.shuffles_left))

    with page.expect_response(re.compile(r"/move/$")) as answer:
        slot(page, slot_name(last)).click()
    assert answer.value.status == 200, f"the winning move was answered {answer.value.status}"
    expect(grid).to_have_attribute("data-status", "won")
    expect(grid).to_have_attribute("data-moves", str(before.moves + 1))
    expect(page.locator("#status .result.won")).to_contain_text(f"You won, in {before.moves + 1} moves")
    won = state_after("montana", deal_number, actions).position
    assert won.is_won() and won.gaps() == [(row, 12) for row in range(4)]
    assert table(page) == cards_of(won)
    game = Game.objects.get(pk=game_id)
    assert game.status == "won" and game.ranked, (game.status, game.ranked, game.review)

    step_the_replay(page, game_id, "montana", deal_number, len(actions), won)


def test_a_red_moon_win_by_a_drag_ranks_on_the_red_moon_boards(live_server, page: Page):
    ada = User.objects.create_user("ada", password=PASSWORD)
    deal_number, actions = variant_win("red-moon")
    game = game_start(
        owner=user_owner(ada), deal_number=deal_number, origin=Game.Origin.RANDOM, seed=str(SEED), variant="red-moon"
    )
    game = play_all_but_the_last(user_owner(ada), game, actions)
    before = state_after("red-moon", deal_number, actions[:-1])
    assert (game.position, game.moves, game.shuffles_used) == (str(before.position), before.moves, before.shuffles_used)
    kind, last = actions[-1]
    assert kind == "move" and last[1] == 13, actions[-1]  # the last card leaves column 13 for its place
    move = before.position.move_for_slot(last)

    log_in(page, live_server, "ada")
    page.goto(f"{live_server.url}/game/{game.pk}/")
    grid = page.locator("#grid")
    expect(grid).to_have_class(re.compile(r"\bwide\b"))
    expect(page.locator("#grid [data-slot]")).to_have_count(56)
    shown = table(page)
    assert shown == cards_of(before.position)
    assert {shown[f"{row}-0"] for row in range(4)} == ACES
    expect(grid).to_have_attribute("data-version", str(len(actions) - 1))

    with page.expect_response(re.compile(r"/move/$")) as answer:
        drag(page, slot_name(move.src), slot_name(move.dst))
    assert answer.value.status == 200, f"the winning move was answered {answer.value.status}"
    expect(grid).to_have_attribute("data-status", "won")
    expect(page.locator("#status .result.won")).to_contain_text(f"You won, in {before.moves + 1} moves")
    won = state_after("red-moon", deal_number, actions).position
    assert won.is_won() and won.gaps() == [(row, 13) for row in range(4)]
    assert table(page) == cards_of(won)
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.ranked, game.variant) == ("won", True, "red-moon"), (game.ranked, game.review)
    assert game.actions.order_by("-number").first().move == str(move)
    scopes = page.locator("#bests li").evaluate_all("items => items.map(item => item.dataset.scope)")
    assert f"red-moon/deal:{deal_number}" in scopes, scopes

    # The deal's Red Moon board, from the game's own link, and the Red Moon boards of random deals.
    page.locator(".after-game").get_by_role("link", name="Leaderboard of this deal").click()
    expect(page).to_have_url(re.compile(rf"/deal/{deal_number}/leaderboard/\?variant=red-moon$"))
    expect(page.locator("main h1")).to_contain_text("Red Moon")
    expect(page.locator(f'#board tr[data-player="ada"][data-game="{game.pk}"]')).to_have_count(1)
    page.goto(f"{live_server.url}/leaderboards/?variant=red-moon")
    expect(page.locator(f'#board tr[data-player="ada"][data-game="{game.pk}"]')).to_have_count(1)
    # Addiction's boards, and another variant's, do not show it.
    for query in ("", "?variant=blue-moon"):
        page.goto(f"{live_server.url}/deal/{deal_number}/leaderboard/{query}")
        expect(page.locator("#board tr[data-player]")).to_have_count(0)
    for query in ("", "?variant=montana"):
        page.goto(f"{live_server.url}/leaderboards/{query}")
        expect(page.locator("#board tr[data-player]")).to_have_count(0)

    page.goto(f"{live_server.url}/game/{game.pk}/")
    step_the_replay(page, game.pk, "red-moon", deal_number, len(actions), won)


def test_upright_a_moon_table_is_fourteen_rows_of_four_and_a_hint_is_brought_into_view(live_server, browser):
    """On a phone held upright the moon's 14 columns become 14 rows of cards a thumb can hit, the
    page never scrolls sideways, and a hinted card below the screen is scrolled to."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server.url}/deal/35/?variant=red-moon")
        page.get_by_role("button", name="Play deal #35").click()
        expect(page).to_have_url(GAME_URL)
        ace, below, beside, last = (
            page.locator(f'#grid [data-slot="{name}"]').bounding_box() for name in ("0-0", "0-1", "1-0", "0-13")
        )
        assert ace and below and beside and last
        assert min(ace["width"], ace["height"]) >= 44
        assert abs(below["x"] - ace["x"]) < 1 and below["y"] > ace["y"]  # a game row runs down the screen
        assert abs(beside["y"] - ace["y"]) < 1 and beside["x"] > ace["x"]
        assert last["y"] > 844  # the row's 14th card starts below the first screen
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#hint-button").click()
        expect(page.locator("#grid")).to_have_attribute("data-hint", re.compile(r"."))
        hint = page.locator("#grid").get_attribute("data-hint")
        if ">" in hint:  # a move: its card is brought onto the screen once the answer settles
            expect(page.locator("#grid .hint-from")).to_be_in_viewport(ratio=1)
        assert not errors, errors
    finally:
        context.close()
