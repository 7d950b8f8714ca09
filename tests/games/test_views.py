"""The game's pages and posts: htmx partials and plain forms, refusals, ownership, limits."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client

from addiction_site.ownership import GUEST_COOKIE
from games import engine
from games.models import Action, Game
from tests.helpers import (
    HTMX,
    ONE_MOVE_FROM_STUCK,
    ONE_MOVE_FROM_WIN,
    STUCK,
    TWO_COLUMN_0_GAPS,
    a_movable_slot,
    act,
    grid,
    new_game,
    parse_html,
    set_layout,
    snapshot,
    statements,
    text_of,
)

pytestmark = pytest.mark.django_db

REDIRECTS = (302, 303)
POST_ENDPOINTS = ["move", "undo", "shuffle", "resign"]


def an_immovable_card(game: Game) -> engine.Slot:
    position = Game.objects.get(pk=game.pk).state().position
    movable = {move.src for move in position.legal_moves()}
    return next((r, c) for r in range(4) for c in range(13) if position.card_at((r, c)) and (r, c) not in movable)


def assert_refused_with_the_board(response, status: int, note: str, game: Game) -> None:
    """A refusal: ``status``, the note in the page, and the board as stored."""
    assert response.status_code == status
    assert note in text_of(response)
    assert_board_is(grid(response), game)


def assert_board_is(board, game: Game) -> None:
    """The grid shows exactly the stored game."""
    game.refresh_from_db()
    assert board.position == game.position
    assert (board.version, board.status, board.moves, board.shuffles_left) == (
        game.version,
        game.status,
        game.moves,
        game.shuffles_left,
    )


def win(client, game: Game) -> Game:
    set_layout(game, ONE_MOVE_FROM_WIN)
    assert act(client, game, "move", slot=(0, 12)).status_code == 200
    game.refresh_from_db()
    assert game.status == "won"
    return game


def lose_stuck(client, game: Game) -> Game:
    set_layout(game, ONE_MOVE_FROM_STUCK, shuffles_used=3)
    assert act(client, game, "move", slot=(0, 12)).status_code == 200
    game.refresh_from_db()
    assert (game.status, game.resigned) == ("lost", False)
    return game


def resign(client, game: Game) -> Game:
    assert act(client, game, "resign").status_code == 200
    game.refresh_from_db()
    return game


# --------------------------------------------------------------------------- pages and partials


def is_whole_page(response) -> bool:
    """A whole page (html and body, nothing swapped out of band), not htmx's partial."""
    page = parse_html(response)
    return bool(page.find_all("html") and page.find_all("body")) and not page.find_all(hx_swap_oob=True)


def test_the_game_page_is_a_full_page(client, game):
    response = client.get(f"/game/{game.pk}/")
    assert response.status_code == 200
    assert is_whole_page(response)
    assert parse_html(response).find(id="status").tag == "section"
    assert_board_is(grid(response), game)


def test_the_grid_and_its_actions_post_to_the_one_action_view(client, game):
    page = parse_html(client.get(f"/game/{game.pk}/"))
    form = page.find(id="grid")
    assert form["action"] == form["hx-post"] == f"/game/{game.pk}/move/"
    actions = {button["formaction"] for button in page.find(id="actions").find_all("button", formaction=True)}
    assert actions == {f"/game/{game.pk}/{kind}/" for kind in ("undo", "redo", "shuffle", "resign", "hint")}


def test_htmx_gets_only_the_grid_and_the_status_bar(client, game):
    for send in (
        lambda: client.get(f"/game/{game.pk}/", headers=HTMX),
        lambda: act(client, game, "move", slot=a_movable_slot(game)),
    ):
        response = send()
        assert response.status_code == 200
        page = parse_html(response)
        assert not page.find_all("html") and not page.find_all("body")
        status = page.find(id="status")
        assert (status.tag, status["hx-swap-oob"]) == ("section", "true")
        assert_board_is(grid(response), game)


def test_htmx_restoring_history_gets_the_whole_page_and_answers_vary_on_htmx(client, game):
    """A page htmx does not keep in its history cache (hx-history="false") is asked for again
    with HX-History-Restore-Request: it must come whole, not as the bare table."""
    page = client.get(f"/game/{game.pk}/")
    assert parse_html(page).find_all(hx_history="false")
    restored = client.get(f"/game/{game.pk}/", headers={**HTMX, "HX-History-Restore-Request": "true"})
    assert is_whole_page(restored)
    partial = client.get(f"/game/{game.pk}/", headers=HTMX)
    for response in (page, restored, partial):
        assert {"HX-Request", "HX-Boosted"} <= {h.strip() for h in response["Vary"].split(",")}


def start_with_csrf(browser: Client, deal_number: int = 5):
    """The game page of a game started as a browser that checks CSRF does: the deal page's
    button posts its form's token."""
    deal = browser.get(f"/deal/{deal_number}/")
    token = parse_html(deal).find_all("input", name="csrfmiddlewaretoken")[0]["value"]
    return browser.get(browser.post(f"/deal/{deal_number}/start/", {"csrfmiddlewaretoken": token}).url)


def test_htmx_answers_rely_on_the_csrf_header_and_keep_the_cookie():
    """htmx sends the page's token in X-CSRFToken, so its answers need no form field, and
    they leave the CSRF cookie alone; the page itself has both, for posts without htmx."""
    browser = Client(enforce_csrf_checks=True)
    page = start_with_csrf(browser)
    token = json.loads(parse_html(page).find("body")["hx-headers"])["X-CSRFToken"]
    posting = [form for form in parse_html(page).find_all("form") if form.get("method") == "post"]
    assert len(posting) >= 3  # the grid (whose form the actions' buttons post too), New game, the language
    assert all(form.find_all("input", name="csrfmiddlewaretoken") for form in posting)
    game = Game.objects.get(pk=int(page.request["PATH_INFO"].strip("/").split("/")[-1]))
    slot = a_movable_slot(game)
    with_token = {**HTMX, "X-CSRFToken": token}
    for answer in (
        browser.post(f"/game/{game.pk}/move/", {"version": 0, "slot": f"{slot[0]}-{slot[1]}"}, headers=with_token),
        browser.post(f"/game/{game.pk}/undo/", {"version": 1}, headers=with_token),
        browser.get(f"/game/{game.pk}/", headers=HTMX),
    ):
        assert answer.status_code == 200
        assert not parse_html(answer).find_all(name="csrfmiddlewaretoken")
        assert settings.CSRF_COOKIE_NAME not in answer.cookies
    assert Game.objects.get(pk=game.pk).version == 2


def test_new_game_forms_are_boosted_and_a_boosted_game_page_is_whole(client, game):
    forms = parse_html(act(client, game, "move", slot=a_movable_slot(game))).find_all("form", action="/new/")
    assert forms and all((form["method"], form["hx-boost"]) == ("post", "true") for form in forms)
    # htmx follows the boosted post's redirect with its headers: that page must come whole.
    page = client.get(f"/game/{game.pk}/", headers={**HTMX, "HX-Boosted": "true"})
    assert is_whole_page(page)


def test_an_htmx_move_answers_with_the_new_board(client, game):
    before = game.state()
    slot = a_movable_slot(game)
    board = grid(act(client, game, "move", slot=slot))
    after = before.play(before.position.move_for_slot(slot))
    assert board.position == str(after.position)
    assert (board.version, board.moves) == (1, 1)
    assert_board_is(board, game)


def test_a_plain_post_redirects_to_the_game_page(client, game):
    response = act(client, game, "move", slot=a_movable_slot(game), htmx=False)
    assert response.status_code in REDIRECTS
    assert response.url == f"/game/{game.pk}/"
    board = grid(client.get(response.url))
    assert board.moves == 1
    assert_board_is(board, game)


def test_a_plain_refusal_redirects_and_the_note_shows_once(client, game):
    before = snapshot(game)
    response = act(client, game, "move", slot=an_immovable_card(game), htmx=False)
    assert response.status_code in REDIRECTS
    page = client.get(response.url)
    assert "That card cannot move." in text_of(page)
    assert "That card cannot move." not in text_of(client.get(response.url))
    assert snapshot(game) == before


def test_undo_and_shuffle_through_the_views(client, game):
    act(client, game, "move", slot=a_movable_slot(game))
    board = grid(act(client, game, "undo"))
    assert board.position == str(engine.deal(1))
    assert (board.moves, board.version) == (2, 2)
    board = grid(act(client, game, "shuffle"))
    assert (board.shuffles_left, board.moves, board.version) == (2, 2, 3)
    assert_board_is(board, game)
    assert list(game.actions.values_list("number", "kind")) == [(1, "move"), (2, "undo"), (3, "shuffle")]


def test_the_grid_data_attributes_match_the_game(client, game):
    for _ in range(3):
        act(client, game, "move", slot=a_movable_slot(game))
    board = grid(client.get(f"/game/{game.pk}/"))
    state = Game.objects.get(pk=game.pk).state()
    assert (board.version, board.status, board.moves, board.shuffles_left) == (3, "playing", state.moves, 3)
    for r in range(engine.ROWS):
        for c in range(engine.COLS):
            assert board.slots[f"{r}-{c}"].card == (state.position.card_at((r, c)) or "")
    assert "mark-movable" in board.classes


def test_labels_say_what_each_slot_can_do(client, game):
    set_layout(game, TWO_COLUMN_0_GAPS)
    slots = grid(client.get(f"/game/{game.pk}/")).slots
    assert "can move" in slots["0-12"].label and "Two of spades" in slots["0-12"].label
    assert "movable" in slots["0-12"].classes
    assert "cannot move" in slots["0-3"].label and "movable" not in slots["0-3"].classes
    assert "in place" in slots["2-1"].label and "locked" in slots["2-1"].classes
    assert "Two of spades fits" in slots["0-0"].label
    assert "nothing can go here" in slots["2-12"].label and "dead" in slots["2-12"].classes


@pytest.mark.parametrize(
    ("click", "moved_from", "moved_to"),
    [
        ("0-0", "0-12", "0-0"),  # a column-0 gap takes the topmost 2 not yet in column 0
        ("1-0", "0-12", "1-0"),
        ("1-12", "1-12", "0-0"),  # a 2 fitting two column-0 gaps goes to the topmost
        ("3-0", "3-0", "0-0"),  # a 2 already in column 0 may still move to another row's
    ],
)
def test_a_two_fitting_two_column_0_gaps(client, game, click, moved_from, moved_to):
    set_layout(game, TWO_COLUMN_0_GAPS)
    before = grid(client.get(f"/game/{game.pk}/")).slots
    after = grid(act(client, game, "move", slot=click)).slots
    assert after[moved_to].card == before[moved_from].card
    assert after[moved_from].card == ""


# --------------------------------------------------------------------------- the end of a game


def test_a_won_game_says_so_and_offers_the_deal_again(client, game):
    game = win(client, game)
    response = client.get(f"/game/{game.pk}/")
    text = text_of(response)
    assert "You won" in text
    assert f"Play deal #{game.deal_number} again" in text
    assert game.seed in text  # the seed is revealed once the game is over
    board = grid(response)
    assert board.status == "won" and all(cell.disabled for cell in board.slots.values())

    again = client.post("/new/", {"deal_number": game.deal_number})
    assert again.status_code in REDIRECTS
    assert Game.objects.get(pk=int(again.url.strip("/").split("/")[-1])).state().position == engine.deal(1)


def test_the_seed_is_hidden_while_playing(client, game):
    text = text_of(client.get(f"/game/{game.pk}/"))
    assert game.seed_sha256 in text and game.seed not in text


def test_a_game_lost_stuck_says_so(client, game):
    lose_stuck(client, game)
    text = text_of(client.get(f"/game/{game.pk}/"))
    assert "No card can move and no shuffle is left: the game is lost." in text
    assert "Play deal #1 again" in text


def test_a_resigned_game_says_so(client, game):
    resign(client, game)
    text = text_of(client.get(f"/game/{game.pk}/"))
    assert "You gave up this game." in text


def test_a_stuck_game_with_shuffles_left_offers_the_shuffle(client, game):
    set_layout(game, STUCK, shuffles_used=1)
    response = client.get(f"/game/{game.pk}/")
    assert "No card can move. Shuffle the cards that are not in place (2 shuffles left)." in text_of(response)
    button = parse_html(response).find("button", formaction=f"/game/{game.pk}/shuffle/")
    assert button["form"] == "grid" and "primary" in button.classes and "disabled" not in button.attrs
    board = grid(act(client, game, "shuffle"))
    assert (board.status, board.shuffles_left) == ("playing", 1)


# --------------------------------------------------------------------------- refusals

REFUSALS = {
    # id: (layout, shuffles_used, kind, slot, note)
    "card that cannot move": (TWO_COLUMN_0_GAPS, 0, "move", "0-3", "That card cannot move."),
    "dead gap": (TWO_COLUMN_0_GAPS, 0, "move", "2-12", "No card can go into that gap."),
    "nothing to undo": (TWO_COLUMN_0_GAPS, 0, "undo", None, "There is no move to undo since the last shuffle."),
    "no shuffle left": (ONE_MOVE_FROM_WIN, 3, "shuffle", None, "No shuffle is left."),
}


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize(("layout", "shuffles_used", "kind", "slot", "note"), REFUSALS.values(), ids=REFUSALS.keys())
def test_refusals_answer_422_with_the_board_and_a_note(client, game, htmx, layout, shuffles_used, kind, slot, note):
    set_layout(game, layout, shuffles_used=shuffles_used)
    before = snapshot(game)
    data = {"slot": slot} if slot else {}
    response = act(client, game, kind, htmx=htmx, **data)
    if htmx:
        assert_refused_with_the_board(response, 422, note, game)
    else:
        assert response.status_code in REDIRECTS
        assert note in text_of(client.get(response.url))
    assert snapshot(game) == before


@pytest.mark.parametrize("ending", [win, lose_stuck, resign])
@pytest.mark.parametrize(
    ("kind", "slot"), [("move", "0-11"), ("move", "0-12"), ("undo", None), ("shuffle", None), ("resign", None)]
)
def test_every_action_on_a_finished_game_is_refused(client, game, ending, kind, slot):
    ending(client, game)
    before = snapshot(game)
    response = act(client, game, kind, **({"slot": slot} if slot else {}))
    assert_refused_with_the_board(response, 422, "This game is over.", game)
    assert snapshot(game) == before


def test_a_stale_version_is_409_with_the_current_board(client, game):
    act(client, game, "move", slot=a_movable_slot(game))
    before = snapshot(game)
    for kind in POST_ENDPOINTS:
        response = act(client, game, kind, version=0, slot="0-0")
        assert_refused_with_the_board(response, 409, "This page was out of date", game)
    assert snapshot(game) == before


def test_a_stale_plain_post_redirects_with_the_note(client, game):
    act(client, game, "move", slot=a_movable_slot(game))
    before = snapshot(game)
    response = act(client, game, "undo", version=0, htmx=False)
    assert response.status_code in REDIRECTS
    assert "This page was out of date" in text_of(client.get(response.url))
    assert snapshot(game) == before


def test_a_double_click_moves_once(client, game):
    slot = a_movable_slot(game)
    first, second = act(client, game, "move", slot=slot, version=0), act(client, game, "move", slot=slot, version=0)
    assert (first.status_code, second.status_code) == (200, 409)
    game.refresh_from_db()
    assert (game.version, game.moves, game.actions.count()) == (1, 1, 1)
    assert grid(second).position == grid(first).position == game.position


BAD_POSTS = {
    # id: (kind, data)
    "move without anything": ("move", {}),
    "move without version": ("move", {"slot": "0-0"}),
    "move without slot": ("move", {"version": "0"}),
    "garbage version": ("move", {"version": "x", "slot": "0-0"}),
    "empty version": ("move", {"version": "", "slot": "0-0"}),
    "negative version": ("move", {"version": "-1", "slot": "0-0"}),
    "fractional version": ("move", {"version": "0.5", "slot": "0-0"}),
    "huge version": ("move", {"version": "9" * 30, "slot": "0-0"}),
    "slot 9-9": ("move", {"version": "0", "slot": "9-9"}),
    "slot x": ("move", {"version": "0", "slot": "x"}),
    "empty slot": ("move", {"version": "0", "slot": ""}),
    "slot 0-13": ("move", {"version": "0", "slot": "0-13"}),
    "slot 4-0": ("move", {"version": "0", "slot": "4-0"}),
    "slot -1-0": ("move", {"version": "0", "slot": "-1-0"}),
    "slot 0-1-2": ("move", {"version": "0", "slot": "0-1-2"}),
    "slot 00-01": ("move", {"version": "0", "slot": "00-01"}),
    "slot with NUL": ("move", {"version": "0", "slot": "0-1\x00"}),
    "slot in wide digits": ("move", {"version": "0", "slot": "\uff10-\uff11"}),
    "slot as tuple text": ("move", {"version": "0", "slot": "(0, 1)"}),
    "slot with a space": ("move", {"version": "0", "slot": " 0-1"}),
    "gap of one space": ("move", {"version": "0", "slot": "0-1", "to": " "}),
    "undo without version": ("undo", {}),
    "shuffle with garbage version": ("shuffle", {"version": "abc"}),
    "resign with version NUL": ("resign", {"version": "0\x00"}),
}


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize(("kind", "data"), BAD_POSTS.values(), ids=BAD_POSTS.keys())
def test_malformed_posts_are_400_and_change_nothing(client, game, htmx, kind, data):
    before = snapshot(game)
    response = client.post(f"/game/{game.pk}/{kind}/", data, headers=HTMX if htmx else {})
    assert response.status_code == 400
    assert "That request was not understood." in text_of(response)
    assert_board_is(grid(response), game)
    assert snapshot(game) == before


# --------------------------------------------------------------------------- who may see what


def test_another_session_gets_404_on_the_game_and_its_posts(client, game):
    before = snapshot(game)
    stranger = Client()
    new_game(stranger, 1)  # a stranger with a session and games of their own
    for other in (stranger, Client()):
        assert other.get(f"/game/{game.pk}/").status_code == 404
        assert other.get(f"/game/{game.pk}/", headers=HTMX).status_code == 404
        for kind in POST_ENDPOINTS:
            assert act(other, game.pk, kind, version=0, slot="0-0").status_code == 404
            assert other.post(f"/game/{game.pk}/{kind}/", {"version": "x"}).status_code == 404
    assert snapshot(game) == before


def test_the_same_guest_cookie_sees_the_same_game(client, game):
    act(client, game, "move", slot=a_movable_slot(game))
    act(client, game, "shuffle")
    mine = grid(client.get(f"/game/{game.pk}/"))
    again = Client()
    again.cookies[GUEST_COOKIE] = client.cookies[GUEST_COOKIE].value
    theirs = grid(again.get(f"/game/{game.pk}/"))
    assert (theirs.position, theirs.version, theirs.moves, theirs.shuffles_left, theirs.status) == (
        mine.position,
        mine.version,
        mine.moves,
        mine.shuffles_left,
        mine.status,
    )
    assert act(again, game, "move", slot=a_movable_slot(game)).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/game/999999/",
        "/game/0/",
        "/game/999999999999999999/",
        "/game/99999999999999999999999/",
        "/game/-1/",
        "/game/abc/",
        "/game/1.0/",
    ],
)
def test_unknown_games_are_404(client, game, path):
    assert client.get(path).status_code == 404
    assert client.get(path, headers=HTMX).status_code == 404


@pytest.mark.parametrize("game_id", ["999999", "999999999999999999", "99999999999999999999999"])
@pytest.mark.parametrize("kind", POST_ENDPOINTS)
def test_posts_to_unknown_games_are_404(client, game, game_id, kind):
    assert client.post(f"/game/{game_id}/{kind}/", {"version": 0, "slot": "0-0"}, headers=HTMX).status_code == 404
    assert client.post(f"/game/{game_id}/{kind}/", {}).status_code == 404


@pytest.mark.parametrize("kind", POST_ENDPOINTS)
def test_get_on_a_post_endpoint_is_405(client, game, kind):
    assert client.get(f"/game/{game.pk}/{kind}/").status_code == 405
    assert not game.actions.exists()


@pytest.mark.parametrize("path", ["/new/", "/settings/mark-movable/"])
def test_get_on_the_other_posts_is_405(client, path):
    assert client.get(path).status_code == 405


def test_a_post_without_the_csrf_token_is_403_and_changes_nothing():
    browser = Client(enforce_csrf_checks=True)
    page = start_with_csrf(browser)
    game = Game.objects.get(pk=int(page.request["PATH_INFO"].strip("/").split("/")[-1]))
    before = snapshot(game)
    slot = a_movable_slot(game)
    assert (
        browser.post(f"/game/{game.pk}/move/", {"version": 0, "slot": f"{slot[0]}-{slot[1]}"}, headers=HTMX).status_code
        == 403
    )
    assert browser.post(f"/game/{game.pk}/resign/", {"version": 0}).status_code == 403
    assert snapshot(game) == before

    token = parse_html(page).find_all("input", name="csrfmiddlewaretoken")[0]["value"]
    response = browser.post(
        f"/game/{game.pk}/move/",
        {"version": 0, "slot": f"{slot[0]}-{slot[1]}", "csrfmiddlewaretoken": token},
        headers=HTMX,
    )
    assert response.status_code == 200


# --------------------------------------------------------------------------- new games and deals


def test_a_new_random_game(client, db):
    response = client.post("/new/", {"deal_number": ""})
    assert response.status_code in REDIRECTS
    game = Game.objects.get()
    assert response.url == f"/game/{game.pk}/"
    assert game.state().position == engine.deal(game.deal_number)
    assert client.get(response.url).status_code == 200


@pytest.mark.parametrize("number", ["1", "2", str(engine.MAX_DEAL)])
def test_a_new_game_of_a_chosen_deal(client, db, number):
    game = new_game(client, int(number))
    assert game.deal_number == int(number)
    assert game.state().position == engine.deal(int(number))


@pytest.mark.parametrize("number", ["0", "-5", "abc", "1.5", str(2**63), "9" * 40, "1e3"])
def test_a_bad_deal_number_is_400_with_the_form_error(client, db, number):
    response = client.post("/new/", {"deal_number": number})
    assert response.status_code == 400
    page = parse_html(response)
    field = page.find("input", name="deal_number")
    assert (field["aria-invalid"], field["aria-describedby"]) == ("true", "deal-errors")
    assert page.find(id="deal-errors").text
    assert not Game.objects.exists()


# --------------------------------------------------------------------------- the marking setting; what a move costs


def test_marking_movable_cards_can_be_turned_off_and_on(client, game):
    page = f"/game/{game.pk}/"
    response = client.post("/settings/mark-movable/", {"on": "0", "next": page})
    assert response.status_code in REDIRECTS and response.url == page
    assert "mark-movable" not in grid(client.get(page)).classes
    assert "Mark cards that can move" in text_of(client.get(page))
    assert "mark-movable" not in grid(act(client, game, "move", slot=a_movable_slot(game))).classes

    client.post("/settings/mark-movable/", {"on": "1", "next": page})
    assert "mark-movable" in grid(client.get(page)).classes


@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/", "", "javascript:alert(1)"])
def test_marking_does_not_redirect_off_site(client, db, next_url):
    response = client.post("/settings/mark-movable/", {"on": "0", "next": next_url})
    assert response.status_code in REDIRECTS and response.url == "/"


# What one move costs, statement by statement; the same on SQLite and on PostgreSQL.  A test
# runs inside a transaction of its own, so the move's transaction.atomic() shows there as a
# savepoint; outside one it is BEGIN ... COMMIT (the last test below).
GUEST_MOVE = [
    "SELECT games_game",  # the game, found through the owner's filter
    "SAVEPOINT",  # transaction.atomic()
    "UPDATE games_game",  # the compare-and-set on the version and the owner
    "INSERT games_action",  # the action's line in the log
    "RELEASE SAVEPOINT",
]
SIGNED_IN_MOVE = [
    "SELECT django_session",  # the session, for the user it names
    "SELECT auth_user",  # the user: the owner
    *GUEST_MOVE,
]


def test_an_htmx_move_by_a_guest_reads_the_game_once_and_writes_two_rows(client, game, django_assert_num_queries):
    slot = a_movable_slot(game)
    with django_assert_num_queries(5) as queries:  # 3 statements, and the savepoint's 2
        response = act(client, game, "move", slot=slot, version=0)
    assert response.status_code == 200
    assert statements(queries) == GUEST_MOVE
    assert Action.objects.filter(game=game).count() == 1


def test_a_move_answered_with_only_what_changed_makes_the_same_statements(client, game, django_assert_num_queries):
    row, col = a_movable_slot(game)
    with django_assert_num_queries(5) as queries:
        response = client.post(
            f"/game/{game.pk}/move/",
            {"version": 0, "slot": f"{row}-{col}", "answer": "changes", "drawn": "en marked"},
            headers=HTMX,
        )
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert statements(queries) == GUEST_MOVE


def test_an_htmx_move_by_a_signed_in_player_reads_the_session_and_the_user_besides(
    client, django_user_model, django_assert_num_queries
):
    client.force_login(django_user_model.objects.create_user("ada", password="lantern-plum-orchard-6"))
    game = new_game(client, 1)  # the day's first request, which saves the session (its keep-alive)
    slot = a_movable_slot(game)
    with django_assert_num_queries(7) as queries:
        response = act(client, game, "move", slot=slot, version=0)
    assert response.status_code == 200
    assert statements(queries) == SIGNED_IN_MOVE


@pytest.mark.django_db(transaction=True)
def test_outside_a_tests_transaction_a_move_is_one_transaction_of_two_writes(client, django_assert_num_queries):
    game = new_game(client, 1)
    slot = a_movable_slot(game)
    with django_assert_num_queries(5) as queries:
        response = act(client, game, "move", slot=slot, version=0)
    assert response.status_code == 200
    # SQLite's BEGIN is BEGIN IMMEDIATE (settings' transaction_mode): it takes the write lock at once.
    assert statements(queries) == ["SELECT games_game", "BEGIN", "UPDATE games_game", "INSERT games_action", "COMMIT"]


# --------------------------------------------------------------------------- the actions' fragment cache


def actions_shown(answer) -> list[tuple]:
    """What the actions of an answer offer: each button's and link's target, state and words."""
    actions = parse_html(answer).find("div", class_="actions")
    return [
        (
            element.tag,
            element.get("formaction") or element.get("href") or element.get("action"),
            "disabled" in element.attrs,
            sorted(element.classes),
            element.text,
        )
        for element in actions.iter()
        if element.tag in ("button", "a", "form")
    ]


def test_htmx_answers_show_the_actions_that_a_fresh_drawing_shows(client, game):
    """htmx's answers take the actions from Django's fragment cache.  Through moves, an undo
    back to nothing to undo, shuffles, being stuck and the end, each answer's actions must
    be what the page draws afresh; a cache key that missed one thing they show would fail."""
    from django.core.cache import caches

    def check(answer):
        assert answer.status_code == 200
        cached = actions_shown(answer)
        caches["local"].clear()
        assert cached == actions_shown(client.get(f"/game/{game.pk}/", headers=HTMX))

    check(act(client, game, "move", slot=a_movable_slot(game)))  # Undo on
    check(act(client, game, "undo"))  # Undo off again
    check(act(client, game, "move", slot=a_movable_slot(game)))
    check(act(client, game, "shuffle"))  # one shuffle fewer, Undo off
    # Two moves from stuck: QS to 0-10, then KS to 0-11 leaves every gap right of a King.
    two_moves_from_stuck = ONE_MOVE_FROM_STUCK.replace("JS QS -- KS", "JS -- QS KS")
    set_layout(Game.objects.get(pk=game.pk), two_moves_from_stuck, shuffles_used=2)
    check(act(client, game, "move", slot="0-11"))  # Undo on, one shuffle left
    check(act(client, game, "move", slot="0-12"))  # the same, but stuck: Shuffle is the way on
    check(act(client, game, "shuffle"))  # none left
    check(act(client, game, "resign"))  # over: the links after a game
