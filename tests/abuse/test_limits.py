"""The rate limits on costly requests (addiction_site/limits.py; docs/RULES.md, "Limits";
issue 25): per address and per owner, 429 with Retry-After and words saying when; kept
replays and analyses are read freely (an analysis searched once: tests/games/test_analysis.py).  Two app servers
sharing one limit: tests/cluster/test_shared_limits.py."""

from __future__ import annotations

from unittest import mock

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Analysis, Claimed, Game
from games.services import game_act
from tests.helpers import HTMX, act, logged_in, new_game, parse_html, text_of
from tests.winning import guest_owner

pytestmark = pytest.mark.django_db
OFF = "100000/h"  # a rate that no test reaches


@pytest.fixture
def rates(settings):
    """Set one kind's rates: ``rates("start", "3/h", OFF)``.  Hourly, so that no window ends mid-test."""

    def set_rates(kind: str, by_address: str, by_owner: str) -> None:
        settings.ADDICTION_RATES = {**settings.ADDICTION_RATES, kind: (by_address, by_owner)}

    return set_rates


def start(client: Client, address: str = "203.0.113.7", **extra):
    return client.post("/new/", {"deal_number": ""}, REMOTE_ADDR=address, **extra)


def test_one_address_without_cookies_gets_only_so_many_games(rates):
    rates("new_guest", "3/h", OFF)
    for _ in range(3):
        assert start(Client()).status_code == 302  # a new guest each time, as a cookieless script is
    refused = start(Client())
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 0 < wait <= 3600
    assert "try again in" in text_of(refused)
    assert parse_html(refused).find(class_="error-page").attrs["data-retry-after"] == str(wait)
    assert Game.objects.count() == 3  # the refused start stored nothing
    assert start(Client(), address="198.51.100.9").status_code == 302  # another address is not held back


def test_a_day_of_new_guests_from_one_address_is_bounded_too(rates):
    rates("new_guest", "100/h,2/d", OFF)  # every rate of a kind holds: here the day's
    assert [start(Client()).status_code for _ in range(3)] == [302, 302, 429]


def test_players_sharing_an_address_are_limited_each_by_their_own_starts(rates):
    rates("start", OFF, "1/h")
    ada, bob = Client(), Client()
    for client in (ada, bob):  # each a new guest, then one start of their own
        assert start(client).status_code == 302
        assert start(client).status_code == 302
    assert start(ada).status_code == 429 and start(bob).status_code == 429


def test_one_player_from_many_addresses_is_limited_too(rates):
    rates("start", OFF, "2/h")
    client = Client()
    assert start(client, "198.51.100.1").status_code == 302  # a new guest: its address's limit alone
    assert start(client, "198.51.100.2").status_code == 302  # the guest's first, by its cookie
    assert start(client, "198.51.100.3").status_code == 302
    assert start(client, "198.51.100.4").status_code == 429


def test_the_deal_and_daily_starts_count_against_the_same_limit(rates):
    rates("start", OFF, "1/h")
    client = Client()
    assert client.post("/deal/5/start/", REMOTE_ADDR="203.0.113.7").status_code == 302  # a new guest
    assert client.post("/daily/start/", REMOTE_ADDR="203.0.113.7").status_code == 302
    assert client.post("/deal/6/start/", REMOTE_ADDR="203.0.113.7").status_code == 429


def test_hints_over_the_limit_answer_the_table_with_when_to_try_again(client, rates):
    rates("hint", OFF, "1/h")
    game = new_game(client, 5)
    assert act(client, game, "hint").status_code == 200
    game.refresh_from_db()
    refused = act(client, game, "hint")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many hints" in text_of(refused)
    parse_html(refused).find(id="grid")  # htmx swaps the whole table in, with the note
    plain = act(client, game, "hint", htmx=False)
    assert plain.status_code == 429 and "try again in" in text_of(plain)


def finished(client) -> Game:
    game = new_game(client, 5)
    return game_act(owner=guest_owner(client), game_id=game.pk, version=game.version, kind="resign").game


def test_a_replay_not_yet_kept_counts_and_a_kept_one_is_read_freely(client, rates):
    rates("replay", OFF, "1/h")
    first, second = finished(client), finished(client)
    assert client.get(f"/game/{first.pk}/replay/").status_code == 200  # played and kept
    for _ in range(3):
        assert client.get(f"/game/{first.pk}/replay/0/").status_code == 200
        assert client.get(f"/game/{first.pk}/verify/").status_code == 200
    refused = client.get(f"/game/{second.pk}/replay/")
    assert refused.status_code == 429  # this one would be played: over the limit
    assert client.get(f"/game/{second.pk}/verify/").status_code == 429


def test_a_kept_replay_is_not_played_again(client):
    game = finished(client)
    client.get(f"/game/{game.pk}/replay/")
    with mock.patch("games.replay.replay_states", side_effect=AssertionError("played again")):
        assert client.get(f"/game/{game.pk}/replay/0/").status_code == 200
        assert client.get(f"/game/{game.pk}/verify/").status_code == 200


def test_verdicts_over_the_limit_wait_and_kept_ones_do_not(client, rates):
    """Asking for an analysis (the button of a game that has none, a POST) is limited; reading
    one, done or on its way, is not, and a GET asks for nothing (issue 41)."""
    rates("verdict", OFF, "1/h")
    first, second = finished(client), finished(client)
    assert "unasked" in client.get(f"/game/{second.pk}/verdict/", headers=HTMX).content.decode()  # a GET asks nothing
    assert not Analysis.objects.exists()
    assert 'data-verdict="' in client.post(f"/game/{first.pk}/verdict/", headers=HTMX).content.decode()
    waiting = client.post(f"/game/{second.pk}/verdict/", headers=HTMX)
    assert waiting.status_code == 429 and waiting["Retry-After"] and "Too many analyses" in text_of(waiting)
    assert "data-verdict" not in waiting.content.decode() and not Analysis.objects.filter(game=second).exists()
    assert client.post(f"/game/{second.pk}/verdict/").status_code == 429
    assert client.get(f"/game/{first.pk}/verdict/", headers=HTMX).status_code == 200  # kept: read freely
    # A page waiting for an analysis already queued asks again freely: it queues nothing.
    third = finished(client)
    Analysis.objects.create(game_id=third.pk, state=Claimed.RUNNING, claimed_at=timezone.now())
    for _ in range(3):
        assert client.get(f"/game/{third.pk}/verdict/").status_code == 200


def test_limits_count_in_the_shared_cache(rates):
    """The counts live in settings.CACHES["default"], which every app server shares."""
    rates("new_guest", "1/h", OFF)
    assert start(Client()).status_code == 302
    with mock.patch("django_ratelimit.core.caches", {"default": mock.Mock(add=lambda *a: False, incr=lambda k: 99)}):
        assert start(Client(), address="192.0.2.1").status_code == 429  # whatever the cache says, counts


def test_a_signed_in_player_is_limited_by_account(rates, django_user_model):
    rates("start", OFF, "1/h")
    ada = logged_in(django_user_model.objects.create_user("ada", password="unused-in-these-tests-1"))
    assert start(ada, "198.51.100.1").status_code == 302
    assert start(ada, "198.51.100.2").status_code == 429
