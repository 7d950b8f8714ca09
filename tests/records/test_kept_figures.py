"""The figures the records keep as games end (a player's record, the board entries) are the
ones made again from scratch from the games: compared after a mixed run of play, games ending
out of order, a guest's games claimed, and a win ranked no more."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from games.models import Game
from games.services import game_start, games_claim, win_review
from records.models import BoardEntry, PlayerRecord
from records.services import boards_rebuild, guest_claimed, record_rebuild, records_rebuild
from tests.helpers import act_on_service
from tests.winning import Owner, copy_win, quick_wins, recorded_win, user_owner

pytestmark = pytest.mark.django_db

DAY = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def kept_records() -> dict:
    return {
        (record.user_id, record.variant): tuple(getattr(record, field) for field in PlayerRecord.FOLDED)
        for record in PlayerRecord.objects.all()
    }


def kept_entries() -> set:
    return set(BoardEntry.objects.values_list("user_id", "board", "scope", "game_id", "first", "second", "shown"))


def from_scratch(user_ids) -> tuple[dict, set]:
    """The records and the entries made again from the games, in a transaction rolled back."""
    kept = kept_records(), kept_entries()
    for user_id in user_ids:
        boards_rebuild(user_id=user_id)
        records_rebuild(user_id=user_id)
    made = kept_records(), kept_entries()
    PlayerRecord.objects.all().delete()
    BoardEntry.objects.all().delete()
    return kept, made


def finish(owner: Owner, deal_number: int, kind: str, now: datetime, assisted: bool = False) -> Game:
    game = game_start(owner=owner, deal_number=deal_number)
    if assisted:
        Game.objects.filter(pk=game.pk).update(assisted=True)  # a hint was shown (the hint's own write)
    return act_on_service(owner, game, kind, now=now)


def test_records_and_boards_kept_as_games_end_equal_those_made_from_scratch():
    rng = random.Random(44)
    players = [User.objects.create_user(name, password="unused-in-these-tests-1") for name in ("ada", "bob", "cy")]
    short_win, long_win = quick_wins(2)
    bases = {
        user.pk: [
            recorded_win(user_owner(user), short_win, finished_at=DAY, step=2 * timedelta(seconds=1)),
            recorded_win(user_owner(user), long_win, finished_at=DAY + timedelta(minutes=1)),
        ]
        for user in players
    }
    now = DAY + timedelta(hours=1)
    for turn in range(40):
        user = rng.choice(players)
        owner = user_owner(user)
        now += timedelta(minutes=rng.randint(1, 30))
        roll = rng.random()
        if roll < 0.45:
            # Now and then a win that finished before the last game folded in (two games ending at once).
            at = now - timedelta(hours=2) if rng.random() < 0.2 else now
            copy_win(rng.choice(bases[user.pk]), owner=owner, finished_at=at, elapsed_ms=rng.randint(60, 900) * 1000)
        else:
            finish(owner, 100 + turn, "resign", now, assisted=roll > 0.85)
    # A guest's finished games come into ada's account.
    guest = Owner(user_id=None, guest_token="guest-of-ada")
    copy_win(bases[players[0].pk][0], owner=guest, finished_at=DAY - timedelta(days=1), elapsed_ms=50_000)
    finish(guest, 300, "resign", DAY - timedelta(hours=5))
    games_claim(user=players[0], guest_token=guest.guest_token)
    guest_claimed(user=players[0])  # as logging in does after a claim (accounts/receivers.py)
    # A win of bob's that a moderator rejects leaves the boards (games.services.win_review).
    wins = Game.objects.filter(owner=players[1], status="won", ranked=True).order_by("elapsed_ms")
    Game.objects.filter(pk=wins[0].pk).update(review=Game.Review.PENDING)
    win_review(game_id=wins[0].pk, approve=False)

    (records, entries), (records_again, entries_again) = from_scratch([user.pk for user in players])
    assert records == records_again
    assert entries == entries_again
    assert sum(played for played, *_ in records.values()) == Game.objects.filter(assisted=False).count()
    assert {assisted for _, _, assisted, *_ in records.values()} != {0}  # the assisted games were counted apart


def test_a_game_ending_out_of_order_makes_the_record_again():
    ada = User.objects.create_user("ada", password="unused-in-these-tests-1")
    owner = user_owner(ada)
    base = recorded_win(owner, quick_wins(1)[0], finished_at=DAY)
    finish(owner, 40, "resign", DAY + timedelta(hours=1))
    copy_win(base, owner=owner, finished_at=DAY + timedelta(minutes=30))  # ended before the loss was folded
    record = PlayerRecord.objects.get(user=ada)
    assert (record.played, record.won, record.current_streak, record.best_streak) == (3, 2, 0, 2)
    assert (record.played, record.won, record.best_streak) == tuple(
        getattr(record_rebuild(user_id=ada.pk, variant=record.variant), field)
        for field in ("played", "won", "best_streak")
    )


def test_a_game_ended_by_an_older_server_is_counted_at_the_next_end():
    """A game that ended without being folded (an app server on the code before the records,
    during a rolling deploy) is found when the player's next game ends: the record is made again."""
    ada = User.objects.create_user("ada", password="unused-in-these-tests-1")
    owner = user_owner(ada)
    finish(owner, 40, "resign", DAY)
    unfolded = game_start(owner=owner, deal_number=41)
    Game.objects.filter(pk=unfolded.pk).update(status="lost", resigned=True, finished_at=DAY + timedelta(hours=1))
    finish(owner, 42, "resign", DAY + timedelta(hours=2))
    record = PlayerRecord.objects.get(user=ada)
    assert (record.played, record.won, record.through_game) == (3, 0, Game.objects.order_by("-pk")[0].pk)
