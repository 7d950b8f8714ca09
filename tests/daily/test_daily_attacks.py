"""Studying the daily with a throwaway guest (issue 42; docs/RULES.md, "The daily deal"),
played through the site: a guest plays today's daily first and sees what its shuffles deal; the
study tells another player nothing, since their luck is their own, and a fresh guest from the
same address and browser gets practice, not a second ranked game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from daily import deals, services
from daily.models import DailySeed, PlayerSeed
from games import engine
from games.models import Game
from games.services import game_verify, seed_digest
from tests.helpers import act, text_of

pytestmark = pytest.mark.django_db

A_BROWSER = {"REMOTE_ADDR": "203.0.113.20", "HTTP_USER_AGENT": "Study/1.0"}


def start_daily(client: Client) -> Game:
    response = client.post("/daily/start/")
    assert response.status_code == 302, response.status_code
    page = client.get(response.url)
    assert page.status_code == 200
    return Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))


def study(client: Client, game: Game, moves: int = 3) -> engine.Position:
    """A few moves, then a shuffle, through the game's page: the table the shuffle dealt."""
    for _ in range(moves):
        position = Game.objects.get(pk=game.pk).state().position
        legal = position.legal_moves()
        if not legal:
            break
        assert act(client, game, "move", slot=legal[0].src).status_code == 200
    assert act(client, game, "shuffle").status_code == 200
    return Game.objects.get(pk=game.pk).state().position


def test_a_throwaway_guests_study_of_the_daily_tells_another_player_nothing():
    scout = Client(**A_BROWSER)
    studied = start_daily(scout)
    assert studied.origin == Game.Origin.DAILY  # the scout's own ranked game
    seen = study(scout, studied)

    player = Client(REMOTE_ADDR="198.51.100.30", HTTP_USER_AGENT="Firefox")
    game = start_daily(player)
    assert game.origin == Game.Origin.DAILY and game.deal_number == studied.deal_number  # the same deal...
    page = text_of(player.get(f"/game/{game.pk}/"))
    assert game.seed_sha256 in page and game.seed not in page  # its own seed, committed before the first move
    assert game.seed != studied.seed
    assert study(player, game) != seen  # ...but the same clicks and shuffle deal another table


def test_a_fresh_guest_from_the_same_address_and_browser_gets_practice():
    first = start_daily(Client(**A_BROWSER))
    second = start_daily(Client(**A_BROWSER))  # a new cookie: another guest, the same browser
    elsewhere = start_daily(Client(REMOTE_ADDR="198.51.100.31", HTTP_USER_AGENT="Study/1.0"))
    assert first.guest_token != second.guest_token
    assert (first.origin, second.origin, elsewhere.origin) == ("daily", "practice", "daily")
    daily_page = text_of(Client(**A_BROWSER).get("/daily/"))
    assert DailySeed.objects.get(day=deals.today()).seed_sha256 in daily_page  # the day's, committed too


def test_after_the_day_a_players_seed_verifies_as_made_from_the_days_and_a_tampered_one_does_not():
    client = Client(**A_BROWSER)
    game = start_daily(client)
    assert act(client, game, "resign").status_code == 200
    day = deals.today() - timedelta(days=1)  # the game is made yesterday's, revealed now
    Game.objects.filter(pk=game.pk).update(daily=day)
    PlayerSeed.objects.filter(game=game).update(day=day)
    seed = services.seed_of(day).seed
    key = PlayerSeed.objects.get(game=game).player_key
    made = deals.player_seed(seed, key)
    Game.objects.filter(pk=game.pk).update(seed=made, seed_sha256=seed_digest(made))  # as if dealt yesterday
    checks = {check.label: check for check in game_verify(Game.objects.get(pk=game.pk)).checks}
    (own,) = [check for label, check in checks.items() if "player's key" in label]
    assert own.ok and key.startswith("guest:") and game.guest_token not in key  # the key names no token

    PlayerSeed.objects.filter(game=game).update(player_key="guest:someone-else")
    checks = game_verify(Game.objects.get(pk=game.pk)).checks
    assert not [check for check in checks if "player's key" in check.label][0].ok
