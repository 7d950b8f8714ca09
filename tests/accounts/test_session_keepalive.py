"""A player's games live a year from the last day they played: a guest's cookie and a
signed-in player's session are sent again, or saved again, once a day they are used.
A guest's token kept in a session, as before the guest cookie, is moved into it.

All of it is addiction_site.ownership.OwnerMiddleware's work on the way out; on the way in it only
reads who the owner is, so a visitor who only looks gets no cookie and no session."""

from datetime import date, timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session

from addiction_site.ownership import GUEST_COOKIE, LEGACY_SESSION_KEY, SEEN_KEY, Owner, guest_cookie_value
from games.models import Game
from games.services import game_start
from tests.helpers import guest_token_of, new_game

pytestmark = pytest.mark.django_db

YEAR = 60 * 60 * 24 * 365


class Later(date):
    @classmethod
    def today(cls):
        return date.today() + timedelta(days=40)


PASSWORD = "lantern-plum-orchard-8"
# Pages a visitor may look at without playing, and one that is not found.
LOOKING = [
    "/",
    "/how-to-play/",
    "/my-games/",
    "/leaderboards/",
    "/deal/3/leaderboard/",
    "/deal/3/",
    "/robots.txt",
    "/accounts/login/",
    "/accounts/signup/",
    "/game/1/",
]


def test_looking_at_pages_sets_no_cookie_of_ours_and_saves_no_session(client):
    """Reading the owner has no side effects: only starting a game makes a guest."""
    for path in LOOKING:
        response = client.get(path)
        assert response.status_code in (200, 404), path
        assert GUEST_COOKIE not in response.cookies, path
        assert settings.SESSION_COOKIE_NAME not in response.cookies, path
    refused = client.post("/new/", {"deal_number": "0"})  # a game that is not started makes no guest either
    assert refused.status_code == 400 and GUEST_COOKIE not in refused.cookies
    assert not Session.objects.exists() and not Game.objects.exists()
    assert guest_token_of(client) == ""


@pytest.mark.parametrize(
    "start",
    [lambda client: client.post("/new/", {"deal_number": 3}), lambda client: client.post("/deal/3/start/")],
    ids=["new game", "deal page"],
)
def test_a_guest_has_a_cookie_for_a_year_and_no_session(client, start):
    response = start(client)
    assert response.status_code == 302
    cookie = response.cookies[GUEST_COOKIE]
    assert cookie["max-age"] == YEAR and cookie["httponly"] and cookie["samesite"] == "Lax"
    today = date.today().isoformat()
    assert cookie.value == guest_cookie_value(guest_token_of(client), today, today)  # signed, with its issue day
    assert len(guest_token_of(client)) == 32
    assert not Session.objects.exists()


def test_a_guest_playing_on_a_later_day_gets_the_cookie_again(client, monkeypatch):
    game_url = client.post("/new/", {"deal_number": 3}).url
    token = guest_token_of(client)
    assert GUEST_COOKIE not in client.get(game_url).cookies  # the same day: not sent again
    monkeypatch.setattr("addiction_site.ownership.date", Later)
    response = client.get(game_url)
    assert response.status_code == 200
    issued, later = date.today().isoformat(), Later.today().isoformat()
    assert response.cookies[GUEST_COOKIE].value == guest_cookie_value(token, issued, later)
    assert response.cookies[GUEST_COOKIE]["max-age"] == YEAR  # a year from the later day


def test_a_rotated_key_signs_a_guests_cookie_again_on_their_next_visit(client, settings):
    """Issue 46: a guest whose cookie the old key signed keeps their games through a rotation,
    and their cookie carries the new key's signature from their next visit, that very day, so
    dropping the old key later loses them nothing."""
    game_url = client.post("/new/", {"deal_number": 3}).url
    token, today = guest_token_of(client), date.today().isoformat()
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-key-" + "k" * 50
    response = client.get(game_url)
    assert response.status_code == 200  # still theirs, by the fallback
    assert response.cookies[GUEST_COOKIE].value == guest_cookie_value(token, today, today)  # now the new key's
    settings.SECRET_KEY_FALLBACKS = []
    assert client.get(game_url).status_code == 200  # the old key gone: still theirs


def test_a_guest_page_reads_no_session(client, django_assert_max_num_queries):
    game_url = client.post("/new/", {"deal_number": 3}).url
    with django_assert_max_num_queries(1):  # the game alone: its clock has run since the start
        assert client.get(game_url).status_code == 200
    with django_assert_max_num_queries(1):  # the game alone
        assert client.get(game_url).status_code == 200


@pytest.mark.parametrize("value", ["", "short.2026-11-29", "x" * 31 + "!.2026-11-29", "." * 40])
def test_a_malformed_guest_cookie_owns_nothing_and_is_replaced_when_needed(client, value):
    client.cookies[GUEST_COOKIE] = value
    assert client.get("/my-games/").status_code == 200
    assert guest_token_of(client) == ""
    client.post("/new/", {"deal_number": 3})
    assert len(guest_token_of(client)) == 32


def test_the_cookies_are_secure_when_the_session_cookie_is(client, settings):
    settings.SESSION_COOKIE_SECURE = True
    response = client.post("/new/", {"deal_number": 3})
    assert response.cookies[GUEST_COOKIE]["secure"]
    marking = client.post("/settings/mark-movable/", {"on": "0", "next": "/"})
    assert marking.cookies["addiction_mark_movable"]["secure"] and marking.cookies["addiction_mark_movable"]["httponly"]


def a_guest_of_old(client, token: str) -> tuple[Game, SessionStore]:
    """A guest game whose token ``client`` holds in its session, as before the guest cookie."""
    game = game_start(owner=Owner(user_id=None, guest_token=token), deal_number=4)
    session = SessionStore()
    session[LEGACY_SESSION_KEY] = token
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    return game, session


def test_a_guest_whose_token_is_in_a_session_of_old_keeps_their_games(client):
    """Before the guest cookie, the token lived in the session: it moves into the cookie."""
    token = "t" * 32
    game, session = a_guest_of_old(client, token)
    response = client.get(f"/game/{game.pk}/")
    assert response.status_code == 200
    assert guest_token_of(client) == token
    assert LEGACY_SESSION_KEY not in SessionStore(session.session_key).load()
    assert client.get(f"/game/{game.pk}/").status_code == 200  # from the cookie now


def test_logging_in_claims_the_games_of_a_token_in_a_session_of_old(client):
    game, _session = a_guest_of_old(client, "u" * 32)
    User.objects.create_user("ada", password=PASSWORD)
    assert client.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code == 302
    assert Game.objects.get(pk=game.pk).owner.username == "ada"


def test_logging_in_drops_the_guest_cookie(client):
    """The account has the guest's games now (tests/accounts/test_accounts.py); the cookie goes."""
    new_game(client, 3)
    User.objects.create_user("ada", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302
    assert (response.cookies[GUEST_COOKIE].value, response.cookies[GUEST_COOKIE]["max-age"]) == ("", 0)
    assert guest_token_of(client) == ""


def test_a_signed_in_browser_still_sending_a_guest_cookie_has_it_dropped(client):
    client.force_login(User.objects.create_user("ada", password=PASSWORD))
    client.cookies[GUEST_COOKIE] = f"{'g' * 32}.{date.today().isoformat()}"
    response = client.get("/")
    assert response.status_code == 200
    assert (response.cookies[GUEST_COOKIE].value, response.cookies[GUEST_COOKIE]["max-age"]) == ("", 0)


def test_a_signed_in_players_session_is_saved_again_on_a_later_day(client, monkeypatch):
    client.force_login(User.objects.create_user("ada", password=PASSWORD))
    game_url = client.post("/new/", {"deal_number": 3}).url
    key = client.session.session_key
    first = Session.objects.get(session_key=key).expire_date
    monkeypatch.setattr("addiction_site.ownership.date", Later)
    assert client.get(game_url).status_code == 200
    assert Session.objects.get(session_key=key).expire_date > first  # its year counts from now
    assert client.session[SEEN_KEY] == Later.today().isoformat()
