"""The home page is a table (issue 45; docs/RULES.md, "The home page"): the game in progress
played last, or the deal drawn for this browser, kept in a signed cookie and never stored by a
GET; a click on it starts that deal (seen before its start: its own deal's board only) and plays
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
    number = int(document.find("p", class_="drawn-note").text.split("#")[1].split(":")[0])
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
    assert drawn.drawn_deal(client_request(visitor), "addiction") == drawn_table(answer)[0]


def test_a_click_on_the_drawn_table_starts_that_deal_and_plays_the_click(client):
    number, _ = drawn_table(client.get("/"))
    position = engine.deal(number)
    move = position.legal_moves()[0]
    before = timezone.now()
    answer = client.post("/new/drawn/", {"variant": "addiction", "slot": "{}-{}".format(*move.src)})
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/game/{game.pk}/"
    # Seen before its start: ranked as a chosen deal (its deal's board), its clock from the start.
    assert (game.deal_number, game.origin, game.variant) == (number, Game.Origin.CHOSEN, "addiction")
    assert game.started_at >= before
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


def test_play_a_random_deal_starts_one_nobody_has_seen(client):
    """The deal the home page shows is known to the player: "Play a random deal" draws another,
    secretly, which ranks on every board (docs/RULES.md, "The home page")."""
    shown, _ = drawn_table(client.get("/?variant=montana"))
    client.post("/new/", {"variant": "montana"})
    game = Game.objects.get()
    assert (game.variant, game.origin) == ("montana", Game.Origin.RANDOM)
    assert game.deal_number != shown  # one in 999,999,999 to fail by chance
    assert drawn.drawn_deal(client_request(client), "montana") == shown  # the shown one stays for its table


def test_without_its_cookie_a_click_starts_nothing_and_a_new_deal_is_shown(client):
    client.get("/")
    client.cookies.pop(drawn.COOKIE)
    answer = client.post("/new/drawn/", {"variant": "addiction", "slot": "0-1"})
    assert answer.status_code == 302 and answer["Location"] == "/?variant=addiction"
    assert not Game.objects.exists()
    assert "no longer kept" in str(list(get_messages(answer.wsgi_request))[0])


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
    ("posted", "status", "games"),
    [
        ({"variant": "nope"}, 400, 0),  # not a variant: the form says so, nothing starts
        ({"variant": "addiction", "slot": "9-9"}, 400, 0),  # not a slot
        ({"variant": "addiction", "slot": "0-13"}, 302, 1),  # a slot off this table: started, the click refused
    ],
)
def test_bad_posts_get_a_clean_answer(client, posted, status, games):
    client.get("/")
    answer = client.post("/new/drawn/", posted)
    assert answer.status_code == status and Game.objects.count() == games
    if status == 302:
        assert Game.objects.get().version == 0
        assert [str(m) for m in get_messages(answer.wsgi_request)] == ["That request was not understood."]
