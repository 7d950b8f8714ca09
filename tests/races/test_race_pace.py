"""A race game's pace (docs/RULES.md, "Races", "Human pace"; issue 42): a game that ends faster
than a person plays is marked beside its figures and ranks after the games at a person's pace."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.test import Client
from django.utils import timezone

from games import registry
from games.models import Game
from games.services import seed_digest, win_review
from races import stream
from races.models import Entry, Race
from races.selectors import FAST, GAVE_UP, HELD, PLAYING, UNABLE, WON, News, Snapshot, Standing, news, rank_key
from races.services import race_join, race_open, race_start
from tests.helpers import account, act_on_service
from tests.races.test_race_attacks import WIN
from tests.races.test_races import standings
from tests.winning import SECOND, play_actions, user_owner

pytestmark = pytest.mark.django_db

MACHINE = timedelta(milliseconds=20)


def row(entry_id: int, state: str, *, in_place: int = 0, elapsed_ms: int = 0, pace: str = "") -> Standing:
    return Standing(entry_id, f"P{entry_id}", entry_id, state, in_place, 50, 0, elapsed_ms, 1, pace=pace)


def test_a_game_played_faster_than_a_person_ranks_after_every_game_at_a_persons_pace():
    rows = [
        row(1, WON, in_place=48, elapsed_ms=3_000, pace=HELD),  # the fastest win, by a script
        row(2, PLAYING, in_place=10, elapsed_ms=90_000),
        row(3, GAVE_UP, in_place=30, elapsed_ms=60_000),
        row(4, WON, in_place=48, elapsed_ms=200_000),
        row(5, GAVE_UP, in_place=40, elapsed_ms=2_000, pace=FAST),
        row(6, UNABLE),
        row(7, WON, in_place=48, elapsed_ms=4_000, pace=HELD),
    ]
    assert [r.entry_id for r in sorted(rows, key=rank_key)] == [4, 3, 2, 1, 7, 5, 6]


def test_a_finish_faster_than_a_person_is_said_so_and_the_ranks_it_loses_are_no_overtakes():
    before = Snapshot(Race.State.RUNNING, (row(1, PLAYING, in_place=40), row(2, PLAYING, in_place=20)))
    after = Snapshot(Race.State.RUNNING, (row(2, PLAYING, in_place=20), row(1, WON, in_place=48, pace=HELD)))
    assert news(before, after) == [News("fast", "P1")]
    assert stream.said(News("fast", "P1")) == "P1 finished faster than a person plays."
    started = Snapshot(Race.State.RUNNING, (row(2, PLAYING), row(1, UNABLE)))
    waiting = Snapshot(Race.State.OPEN, (row(1, "waiting"), row(2, "waiting")))
    assert news(waiting, started) == [News("started")]  # nobody overtook a player who could not play


def a_live_race_of_ada_and_bot():
    """A live race of two accounts on a deal that WIN wins, started: (race, ada's, bot's, WIN)."""
    ada, bot = user_owner(account("ada")), user_owner(account("bot"))
    race = race_open(owner=ada, name="Ada", mode="live", deal_number=WIN.deal_number)
    Race.objects.filter(pk=race.pk).update(seed=str(WIN.seed), seed_sha256=seed_digest(str(WIN.seed)))
    race_join(race=race, owner=bot, name="Bot")
    race = race_start(race=Race.objects.get(pk=race.pk), owner=ada)
    games = {entry.name: entry.game for entry in race.entries.select_related("game")}
    return race, (ada, games["Ada"]), (bot, games["Bot"]), WIN


def test_a_moderator_who_approves_a_held_race_win_lifts_its_mark():
    race, (ada, ada_game), (bot, bot_game), win = a_live_race_of_ada_and_bot()
    play_actions(bot, bot_game, win.actions, start=race.started_at, step=MACHINE)
    play_actions(ada, ada_game, win.actions, start=race.started_at, step=SECOND)
    rows = standings(Client(), race)
    assert list(rows) == ["Ada", "Bot"]
    assert Entry.objects.get(race=race, name="Bot").too_fast and not Entry.objects.get(race=race, name="Ada").too_fast
    win_review(game_id=bot_game.pk, approve=True)
    assert list(standings(Client(), race)) == ["Bot", "Ada"]  # by time, now that a person vouched for it
    win_review(game_id=bot_game.pk, approve=False)
    assert list(standings(Client(), race)) == ["Ada", "Bot"]


def test_a_game_given_up_after_a_scripts_moves_is_marked_but_not_held():
    race, (_ada, _ada_game), (bot, bot_game), _win = a_live_race_of_ada_and_bot()
    game = bot_game
    for number in range(4):
        move = game.state().position.legal_moves()[0]
        game = act_on_service(bot, game, "move", move.src, now=race.started_at + number * MACHINE)
    act_on_service(bot, game, "resign", now=race.started_at + 4 * MACHINE)
    page = Client().get(f"/race/{race.code}/standings/").content.decode()
    assert 'data-player="Bot"' in page and 'data-pace="fast"' in page
    assert "played faster than a person plays" in page and "held for review" not in page
    assert Game.objects.get(pk=bot_game.pk).review == Game.Review.NONE  # no win: nothing for moderators
    assert list(standings(Client(), race)) == ["Ada", "Bot"]  # Ada has not moved yet, at a person's pace


def test_race_games_that_ended_before_the_rule_are_judged_by_it():
    race, (_ada, _ada_game), (bot, bot_game), win = a_live_race_of_ada_and_bot()
    play_actions(bot, bot_game, win.actions, start=race.started_at, step=MACHINE)
    Entry.objects.filter(race=race).update(too_fast=False)  # as the rows stood before the migration
    migration = importlib.import_module("races.migrations.0003_entry_too_fast")
    migration.judge_finished_games(apps, None)
    assert list(Entry.objects.filter(race=race, too_fast=True).values_list("name", flat=True)) == ["Bot"]


def test_a_game_over_at_a_persons_pace_is_not_marked():
    race, (ada, ada_game), _bot, _win = a_live_race_of_ada_and_bot()
    start = timezone.now()
    move = ada_game.state().position.legal_moves()[0]
    game = act_on_service(ada, ada_game, "move", move.src, now=max(start, race.started_at) + 2 * SECOND)
    act_on_service(ada, game, "resign", now=max(start, race.started_at) + 4 * SECOND)
    assert not Entry.objects.get(race=race, name="Ada").too_fast
    assert "data-pace" not in Client().get(f"/race/{race.code}/standings/").content.decode()


def test_the_evidence_on_a_win_reads_the_races_its_player_joined():
    ada = account("evidence-ada")
    before = registry.player_facts(ada.pk)["races"]
    race = race_open(owner=user_owner(ada), name="Ada", mode="live", deal_number=None)
    assert Entry.objects.filter(race=race, user=ada).exists()
    assert registry.player_facts(ada.pk)["races"] == before + 1
