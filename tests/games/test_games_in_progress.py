"""Each player, account or guest, has at most ADDICTION_MAX_GAMES_IN_PROGRESS games in
progress: a start at the limit drops their oldest game without an action, or is refused
(docs/RULES.md, "Players, guests and deleting games")."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from addiction_site.ownership import Owner
from games.models import Game
from games.services import TooManyGames, game_start
from tests.helpers import HTMX, a_movable_slot, act, act_on_service, guest_token_of, new_game, parse_html, snapshot

pytestmark = pytest.mark.django_db


def played_games(owner: Owner, count: int, first_deal: int = 100) -> list[Game]:
    """``count`` games of ``owner`` in progress, each with one move."""
    games = []
    for deal_number in range(first_deal, first_deal + count):
        game = game_start(owner=owner, deal_number=deal_number)
        games.append(act_on_service(owner, game, "move", a_movable_slot(game)))
    return games


def in_progress(**owner) -> set[int]:
    return set(Game.objects.filter(status="playing", **owner).values_list("pk", flat=True))


def assert_refused_with_a_link_to_my_games(response, limit: int) -> None:
    assert response.status_code == 409
    note = parse_html(response).find(id="too-many-games")
    assert f"You already have {limit} games in progress" in note.text
    assert note.find("a")["href"] == "/my-games/"


def test_the_51st_game_drops_the_oldest_game_not_played_yet(client):
    assert settings.ADDICTION_MAX_GAMES_IN_PROGRESS == 50
    first = new_game(client, 1)
    owner = Owner(user_id=None, guest_token=guest_token_of(client))
    act_on_service(owner, first, "move", a_movable_slot(first))
    unplayed = [new_game(client, deal_number) for deal_number in range(2, 4)]
    finished = new_game(client, 4)
    act_on_service(owner, finished, "resign")  # a finished game does not count
    played_games(owner, 47, first_deal=5)
    before = in_progress(guest_token=owner.guest_token)
    assert len(before) == 50

    newest = new_game(client, 99)
    assert in_progress(guest_token=owner.guest_token) == before - {unplayed[0].pk} | {newest.pk}
    assert Game.objects.filter(pk=finished.pk).exists()
    newer = new_game(client, 98)
    assert in_progress(guest_token=owner.guest_token) == before - {unplayed[0].pk, unplayed[1].pk} | {
        newest.pk,
        newer.pk,
    }


def test_at_the_limit_with_every_game_played_a_new_game_is_refused(client, settings):
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 3
    played = new_game(client, 1)
    owner = Owner(user_id=None, guest_token=guest_token_of(client))
    act_on_service(owner, played, "move", a_movable_slot(played))
    played_games(owner, 2)
    before = {game.pk: snapshot(game) for game in Game.objects.all()}

    home = client.post("/new/", {"deal_number": "8"})
    assert_refused_with_a_link_to_my_games(home, 3)
    assert parse_html(home).find("input", name="deal_number")["value"] == "8"
    assert [row["data-game"] for row in parse_html(home).find(id="games-in-progress").find_all("tr", data_game=True)]
    deal = client.post("/deal/8/start/")
    assert_refused_with_a_link_to_my_games(deal, 3)
    assert parse_html(deal).find("form", action="/deal/8/start/").find("button").text == "Play deal #8"
    boosted = client.post("/new/", {"deal_number": str(played.deal_number)}, headers={**HTMX, "HX-Boosted": "true"})
    assert_refused_with_a_link_to_my_games(boosted, 3)  # "Play deal #n again" on a game page
    assert {game.pk: snapshot(game) for game in Game.objects.all()} == before

    act(client, played, "resign")  # finishing one makes room
    assert client.post("/new/", {"deal_number": "8"}).status_code == 302


def test_an_accounts_and_a_guests_limits_are_separate(settings):
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 2
    ada = User.objects.create_user("ada", password="unused-in-these-tests-1")
    account = Client()
    account.force_login(ada)
    guest = Client()
    new_game(guest, 1)
    guest_owner = Owner(user_id=None, guest_token=guest_token_of(guest))
    played_games(Owner(user_id=ada.pk, guest_token=""), 2)
    played_games(guest_owner, 1)
    assert account.post("/new/", {}).status_code == 409  # ada's two played games fill her limit
    assert guest.post("/new/", {}).status_code == 302  # the guest's one unplayed game is dropped
    assert len(in_progress(guest_token=guest_owner.guest_token)) == 2
    assert guest.post("/new/", {}).status_code == 302
    assert len(in_progress(owner=ada)) == 2 and len(in_progress(guest_token=guest_owner.guest_token)) == 2


def test_game_start_drops_as_many_unplayed_games_as_it_takes_or_none(settings):
    """Games that came from a guest when logging in may leave an account above the limit."""
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 5
    ada = Owner(user_id=User.objects.create_user("ada").pk, guest_token="")
    played = played_games(ada, 2)
    unplayed = [game_start(owner=ada, deal_number=deal_number) for deal_number in (1, 2, 3)]
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 3
    newest = game_start(owner=ada, deal_number=4)
    assert in_progress(owner_id=ada.user_id) == {played[0].pk, played[1].pk, newest.pk}

    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 5
    more = [game_start(owner=ada, deal_number=5), *played_games(ada, 1, first_deal=6)]
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 2  # 5 in progress, 2 unplayed: 4 would have to go
    with pytest.raises(TooManyGames) as refused:
        game_start(owner=ada, deal_number=7)
    assert refused.value.limit == 2
    assert in_progress(owner_id=ada.user_id) == {played[0].pk, played[1].pk, newest.pk, *(g.pk for g in more)}
    assert not Game.objects.filter(pk__in=[game.pk for game in unplayed]).exists()
