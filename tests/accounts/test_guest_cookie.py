"""The guest cookie carries only tokens the server issued (addiction_site/ownership.py;
issue 25): signed with the token's issue day, __Host- prefixed where cookies are Secure; a
planted or forged token is a new guest; cookies of old are re-issued once, then refused."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from addiction_site.ownership import GUEST_COOKIE, OLD_GUEST_COOKIE, Owner, guest_cookie_value, read_guest_cookie
from games.models import Game
from games.services import game_start
from tests.helpers import guest_token_of, new_game

pytestmark = pytest.mark.django_db
TODAY = date.today().isoformat()


def test_the_cookie_is_prefixed_and_signed_with_its_issue_day(client):
    assert GUEST_COOKIE == "__Host-addiction_guest"  # the tests' cookies are Secure, as in production
    response = client.post("/new/", {"deal_number": 3})
    cookie = response.cookies[GUEST_COOKIE]
    assert cookie["secure"] and cookie["path"] == "/" and not cookie["domain"]  # what __Host- requires
    read = read_guest_cookie(cookie.value)
    assert read is not None and read.signed and (read.issued, read.seen) == (TODAY, TODAY)


def test_a_forged_or_planted_token_is_a_new_guest(client):
    victim = game_start(owner=Owner(user_id=None, guest_token="v" * 32), deal_number=4)
    forged = guest_cookie_value("v" * 32, TODAY, TODAY)[:-2] + "xx"  # a signature not the server's
    for value in (forged, f"{'v' * 32}.{TODAY}.{TODAY}:made-up", f"{'v' * 32}.{TODAY}.{TODAY}"):
        client.cookies[GUEST_COOKIE] = value
        assert client.get(f"/game/{victim.pk}/").status_code == 404, value
        assert guest_token_of(client) == ""


def test_an_unsigned_cookie_of_old_is_believed_once_and_reissued_signed(client):
    game = game_start(owner=Owner(user_id=None, guest_token="o" * 32), deal_number=4)
    client.cookies[OLD_GUEST_COOKIE] = f"{'o' * 32}.2026-11-29"  # as the site wrote it before
    response = client.get(f"/game/{game.pk}/")
    assert response.status_code == 200
    renewed = read_guest_cookie(response.cookies[GUEST_COOKIE].value)
    assert renewed is not None and renewed.signed and renewed.token == "o" * 32
    assert renewed.issued == "2026-11-29"  # the oldest day it knew of
    assert response.cookies[OLD_GUEST_COOKIE]["max-age"] == 0  # the old name is dropped
    del client.cookies[OLD_GUEST_COOKIE]
    assert client.get(f"/game/{game.pk}/").status_code == 200  # by the signed cookie now


def test_unsigned_cookies_are_refused_from_the_settings_day(client, settings):
    game = game_start(owner=Owner(user_id=None, guest_token="o" * 32), deal_number=4)
    settings.ADDICTION_GUEST_UNSIGNED_UNTIL = date.today() - timedelta(days=1)
    client.cookies[GUEST_COOKIE] = f"{'o' * 32}.2026-11-29"
    assert client.get(f"/game/{game.pk}/").status_code == 404
    new_game(client, 5)  # a new guest, with a token of its own
    assert guest_token_of(client) not in ("", "o" * 32)
    assert Game.objects.filter(guest_token="o" * 32).count() == 1  # the old guest's game untouched
