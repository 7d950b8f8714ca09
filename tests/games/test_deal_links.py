"""A deal's link only shows the deal (or takes the player to their game of it in progress);
its button starts one; robots.txt keeps crawlers off the game pages (docs/RULES.md,
"Players, guests and deleting games")."""

from __future__ import annotations

from urllib.robotparser import RobotFileParser

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client

from addiction_site.ownership import GUEST_COOKIE
from games import engine
from games.models import Game
from tests.helpers import a_movable_slot, act, guest_token_of, new_game, parse_html

pytestmark = pytest.mark.django_db


def start_button(page):
    """The deal page's form that starts a game: (its action, its button's text)."""
    (form,) = [form for form in parse_html(page).find_all("form") if form["action"].endswith("/start/")]
    assert form["method"] == "post" and form.find_all("input", name="csrfmiddlewaretoken")
    return form["action"], form.find("button").text


def game_id(response) -> int:
    return int(response.url.strip("/").split("/")[-1])


# --------------------------------------------------------------------------- a deal's link


def test_a_deal_link_shows_the_deal_and_creates_nothing(client):
    response = client.get("/deal/4242/")
    assert response.status_code == 200
    assert start_button(response) == ("/deal/4242/start/", "Play deal #4242")
    page = parse_html(response)
    assert page.find("h1").text == "Deal #4242"
    assert page.find_all("a", href="/deal/4242/leaderboard/")
    assert not Game.objects.exists() and not Session.objects.exists()
    assert GUEST_COOKIE not in response.cookies and guest_token_of(client) == ""
    assert settings.SESSION_COOKIE_NAME not in response.cookies


def test_a_crawler_following_deal_links_creates_nothing(client):
    for number in (1, 2, 3, 1, engine.MAX_DEAL):
        assert client.get(f"/deal/{number}/").status_code == 200
        assert client.head(f"/deal/{number}/").status_code == 200
    assert not Game.objects.exists() and not Session.objects.exists() and guest_token_of(client) == ""


def test_the_deal_pages_button_starts_a_game_of_that_deal(client):
    action, _text = start_button(client.get("/deal/4242/"))
    response = client.post(action)
    assert response.status_code == 302
    game = Game.objects.get()
    assert response.url == f"/game/{game.pk}/"
    assert (game.deal_number, game.guest_token, game.version) == (4242, guest_token_of(client), 0)
    assert game.state().position == engine.deal(4242)
    assert GUEST_COOKIE in response.cookies


def test_starting_a_deal_needs_the_csrf_token():
    browser = Client(enforce_csrf_checks=True)
    page = browser.get("/deal/7/")
    assert browser.post("/deal/7/start/").status_code == 403
    assert not Game.objects.exists()
    token = parse_html(page).find_all("input", name="csrfmiddlewaretoken")[0]["value"]
    assert browser.post("/deal/7/start/", {"csrfmiddlewaretoken": token}).status_code == 302
    assert Game.objects.get().deal_number == 7


def test_a_get_on_the_start_url_is_405_and_creates_nothing(client):
    assert client.get("/deal/7/start/").status_code == 405
    assert not Game.objects.exists() and GUEST_COOKIE not in client.cookies


def test_a_deal_link_takes_a_player_to_their_game_of_it_in_progress(client):
    game = new_game(client, 12345)
    response = client.get("/deal/12345/")
    assert response.status_code == 302 and response.url == f"/game/{game.pk}/"
    assert Game.objects.count() == 1
    # Of two games of the deal in progress, the last played.
    other = game_id(client.post("/deal/12345/start/"))
    assert client.get("/deal/12345/").url == f"/game/{other}/"
    act(client, game, "move", slot=a_movable_slot(game))
    assert client.get("/deal/12345/").url == f"/game/{game.pk}/"
    # Once both are over, the link shows the deal again, to start a new game.
    act(client, game, "resign")
    act(client, other, "resign")
    assert client.get("/deal/12345/").status_code == 200
    assert Game.objects.count() == 2


def test_the_deal_pages_button_starts_a_new_game_even_with_one_in_progress(client):
    game = new_game(client, 55)
    response = client.post("/deal/55/start/")
    assert response.status_code == 302 and response.url != f"/game/{game.pk}/"
    assert Game.objects.filter(deal_number=55, status="playing").count() == 2


def test_a_deal_link_is_per_player(client):
    mine = new_game(client, 777)
    stranger = Client()
    assert stranger.get("/deal/777/").status_code == 200
    theirs = game_id(stranger.post("/deal/777/start/"))
    assert theirs != mine.pk
    assert client.get("/deal/777/").url == f"/game/{mine.pk}/"
    assert stranger.get("/deal/777/").url == f"/game/{theirs}/"


@pytest.mark.parametrize("number", ["1", str(engine.MAX_DEAL)])
def test_deal_links_at_the_limits(client, number):
    assert client.get(f"/deal/{number}/").status_code == 200
    response = client.post(f"/deal/{number}/start/")
    assert response.status_code == 302
    assert client.get(response.url).status_code == 200
    assert Game.objects.get().deal_number == int(number)


@pytest.mark.parametrize("number", ["0", str(2**63), "9" * 19, "9" * 25, "-1", "x"])
def test_deal_links_out_of_range_are_404(client, number):
    assert client.get(f"/deal/{number}/").status_code == 404
    assert client.post(f"/deal/{number}/start/").status_code == 404
    assert not Game.objects.exists() and GUEST_COOKIE not in client.cookies


def test_every_link_to_a_deal_is_a_plain_link_and_every_start_a_post(client):
    """The game page's share link and a deal board's link lead to the deal page; nothing on
    a page links to the start URL, which only a form posts to."""
    game = new_game(client, 31)
    pages = [client.get(f"/game/{game.pk}/"), client.get("/deal/31/leaderboard/"), Client().get("/deal/31/")]
    links = [link["href"] for page in pages for link in parse_html(page).find_all("a")]
    assert "/deal/31/" in links
    assert not [href for href in links if href.endswith("/start/")]


# --------------------------------------------------------------------------- robots.txt


def test_robots_txt_keeps_crawlers_off_games_deals_and_accounts(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    robots = RobotFileParser()
    robots.parse(response.content.decode().splitlines())
    for path in (
        "/game/1/",
        "/game/1/verify/",
        "/deal/5/",
        "/deal/5/start/",
        "/new/",
        "/accounts/login/",
        "/accounts/signup/",
        "/my-games/",
    ):
        assert not robots.can_fetch("AnyBot", path), path
    for path in ("/", "/how-to-play/", "/leaderboards/", "/players/ada/"):
        assert robots.can_fetch("AnyBot", path), path
    assert not response.content.decode().startswith(("{", "\n"))  # the template's comment leaves no trace
    assert GUEST_COOKIE not in response.cookies and not Session.objects.exists()
