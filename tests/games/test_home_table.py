"""The home page is a table (issue 45; docs/RULES.md, "The home page"): the game in progress
played last, or the deal drawn for this browser, kept in a signed cookie and never stored by a
GET; a click on it starts that random deal, its clock from when it was first shown, and plays
the click; a first visit gets a three-sentence how-to with a legal move lit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone

from games import drawn, engine
from games.models import Game
from tests.helpers import account, grid, logged_in, new_game, parse_html

pytestmark = pytest.mark.django_db


def drawn_table(page):
    """The home page's table of the deal drawn for this browser: (deal number, {slot: card})."""
    document = parse_html(page)
    table = document.find(id="grid")
    assert "drawn" in table.classes and table["action"] == "/new/drawn/"
    number = int(document.find("p", class_="drawn-note").text.split("#")[1].split(",")[0])
    return number, {slot["data-slot"]: slot["data-card"] for slot in table.find_all("button", data_slot=True)}


def laid_out(number: int, variant: str = "addiction") -> dict[str, str]:
    position = engine.deal(number, variant)
    return {f"{r}-{c}": card or "" for r, row in enumerate(position.rows()) for c, card in enumerate(row)}


def test_a_visitor_lands_on_a_table_and_nothing_is_stored(client):
    page = client.get("/")
    assert page.status_code == 200
    number, shown = drawn_table(page)
    assert shown == laid_out(number)  # the deal's own layout, face up
    assert 1 <= number <= engine.DRAWN_DEALS
    assert Game.objects.count() == 0  # a GET makes no game...
    assert set(page.cookies) - {"csrftoken"} == {drawn.COOKIE}  # ...no guest, no session: the signed deal
    assert "private" in page["Cache-Control"]
    again = client.get("/")
    assert drawn_table(again) == (number, shown)  # a reload never draws another deal
    assert drawn.COOKIE not in again.cookies  # nor writes the cookie again


def test_a_forged_cookie_is_not_read():
    visitor = Client()
    number, _ = drawn_table(visitor.get("/"))
    kept = visitor.cookies[drawn.COOKIE].value
    visitor.cookies[drawn.COOKIE] = kept[:-2] + ("AA" if not kept.endswith("AA") else "BB")
    answer = visitor.get("/")
    assert drawn.COOKIE in answer.cookies  # none kept: a deal drawn afresh, and kept
    assert drawn.drawn_deal(client_request(visitor), "addiction").number == drawn_table(answer)[0]


def test_a_click_on_the_drawn_table_starts_that_random_deal_and_plays_the_click(client):
    number, _ = drawn_table(client.get("/"))
    shown_at = drawn.drawn_deal(client_request(client), "addiction").shown
    position = engine.deal(number)
    move = position.legal_moves()[0]
    answer = client.post("/new/drawn/", {"variant": "addiction", "slot": "{}-{}".format(*move.src)})
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/game/{game.pk}/"
    assert (game.deal_number, game.origin, game.variant) == (number, Game.Origin.RANDOM, "addiction")
    assert abs(game.started_at - shown_at) < timedelta(milliseconds=2)  # its clock from when it was shown
    state = game.state()
    assert game.version == 1 and game.moves == 1
    assert state.position.card_at(move.dst) == move.card  # the click played, as the rule picks it
    assert drawn.drawn_deal(client_request(client), "addiction") is None  # its game started
    # Now the home page shows that game, and a tab shows another deal drawn for this browser.
    home = client.get("/")
    assert grid(home).attrs["action"] == f"/game/{game.pk}/move/"
    assert drawn.COOKIE in client.get("/?variant=addiction").cookies  # a new deal drawn for it


def client_request(client):
    """A request carrying ``client``'s cookies, as the server reads them."""
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.COOKIES = {name: morsel.value for name, morsel in client.cookies.items()}
    return request


def test_a_refused_click_starts_the_game_and_says_why(client):
    number, shown = drawn_table(client.get("/"))
    position = engine.deal(number)
    movable = {move.src for move in position.legal_moves()}
    stuck = next(slot for slot, card in shown.items() if card and tuple(map(int, slot.split("-"))) not in movable)
    answer = client.post("/new/drawn/", {"variant": "addiction", "slot": stuck})
    game = Game.objects.get()
    assert game.version == 0 and game.deal_number == number
    assert [str(message) for message in get_messages(answer.wsgi_request)] == ["That card cannot move."]


def test_play_a_random_deal_starts_the_deal_the_home_page_showed(client):
    number, _ = drawn_table(client.get("/?variant=montana"))
    client.post("/new/", {"variant": "montana"})
    game = Game.objects.get()
    assert (game.deal_number, game.variant, game.origin) == (number, "montana", Game.Origin.RANDOM)
    assert game.state().position == engine.deal(number, "montana")


def test_the_clock_of_a_deal_shown_long_ago_counts_at_most_the_idle_cap(client, settings):
    number, _ = drawn_table(client.get("/"))
    request = client_request(client)
    long_ago = drawn.Drawn(number, timezone.now() - timedelta(hours=5))
    from django.http import HttpResponse

    response = HttpResponse()
    drawn.keep(response, request, "addiction", long_ago)
    client.cookies[drawn.COOKIE] = response.cookies[drawn.COOKIE].value
    move = engine.deal(number).legal_moves()[0]
    client.post("/new/drawn/", {"variant": "addiction", "slot": "{}-{}".format(*move.src)})
    game = Game.objects.get()
    assert game.elapsed_ms == settings.ADDICTION_IDLE_CAP_SECONDS * 1000  # the pause, capped


def test_a_first_visit_gets_the_how_to_with_a_legal_move_lit(client):
    page = client.get("/")
    number, _ = drawn_table(page)
    document = parse_html(page)
    howto = document.find(id="howto")
    words = howto.find("p").text.removeprefix("How to play:").removesuffix("Got it").strip()
    assert words.count(".") == 3 and words.endswith(".")  # three sentences
    table = document.find(id="grid")
    lit = table.find(class_="hint-from")["data-slot"], table.find(class_="hint-to")["data-slot"]
    legal = {("{}-{}".format(*m.src), "{}-{}".format(*m.dst)) for m in engine.deal(number).legal_moves()}
    assert lit in legal
    new_game(client)  # a guest with a game is no longer a first visit
    assert not parse_html(client.get("/?variant=addiction")).find_all(id="howto")
    assert not parse_html(logged_in(account("ada")).get("/")).find_all(id="howto")


def test_the_home_page_resumes_the_game_played_last_but_not_a_race_still_counting_down(client):
    first, second = new_game(client, 3), new_game(client, 4)
    Game.objects.filter(pk=first.pk).update(last_action_at=timezone.now())
    assert grid(client.get("/")).attrs["action"] == f"/game/{first.pk}/move/"
    Game.objects.filter(pk=first.pk).update(started_at=timezone.now() + timedelta(minutes=1))  # dealt ahead
    assert grid(client.get("/")).attrs["action"] == f"/game/{second.pk}/move/"
    # Above the table, one tap away: the variants, today's daily, races (and the rules, in the header).
    lobby = parse_html(client.get("/")).find("nav", class_="lobby")
    links = {link.text: link["href"] for link in lobby.find_all("a")}
    assert links["Today's daily"] == "/daily/" and links["Race your friends"] == "/race/new/"
    assert {links[name] for name in ("Addiction", "Montana", "Spaces", "Blue Moon", "Red Moon")} == {
        f"/?variant={key}" for key in ("addiction", "montana", "spaces", "blue-moon", "red-moon")
    }


@pytest.mark.parametrize(
    "posted", [{"variant": "nope"}, {"variant": "addiction", "slot": "9-9"}, {"variant": "addiction", "slot": "0-13"}]
)
def test_bad_posts_get_a_clean_answer(client, posted):
    answer = client.post("/new/drawn/", posted)
    assert answer.status_code in (302, 400)
    if answer.status_code == 302:  # a slot off this table: the game starts, the click is not understood
        assert [str(m) for m in get_messages(answer.wsgi_request)] == ["That request was not understood."]
