"""A hint and the winning move sent together never leave a game both assisted and ranked
(docs/RULES.md, "Hints and assisted games"; issue 25's hint race).

The hint does not change the game's version, so the winning move's compare-and-set lets it
through whatever the hint did; the win is ranked from the ``assisted`` stored under the row
the move's UPDATE holds (services.game_act).  The interleaving that broke it (the move reads
the game, the hint lands, the move writes and ranks) is forced here on any database; the
race itself, a hint and the last move fired together by two threads, runs on PostgreSQL.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from addiction_site.ownership import Owner
from games import engine, services
from games.models import Action, Game
from games.services import ActionRefused, StaleVersion, game_act, game_start, hint_for
from tests.winning import Record, play_actions, quick_win, reseed

GUEST = Owner(user_id=None, guest_token="hint-race-guest")
ROUNDS = 50


def one_move_from_winning() -> tuple[Game, tuple[str, engine.Slot | None]]:
    """A real game of a known win, played but for its last action; and that action."""
    win = quick_win()
    game = reseed(game_start(owner=GUEST, deal_number=win.deal_number, origin=Game.Origin.RANDOM), win.seed)
    start = timezone.now() - timedelta(hours=1)
    game = play_actions(GUEST, game, win.actions[:-1], start=start, step=timedelta(seconds=2))
    return game, win.actions[-1]


@pytest.mark.django_db
def test_a_hint_that_lands_between_the_moves_read_and_write_leaves_the_win_unranked(monkeypatch):
    game, (kind, slot) = one_move_from_winning()
    real_elapsed_at = services.elapsed_at

    def hint_lands_now(*args, **kwargs):  # called after game_act read the game, before its UPDATE
        Game.objects.filter(pk=game.pk).update(assisted=True, hint="none", hint_version=game.version)
        return real_elapsed_at(*args, **kwargs)

    monkeypatch.setattr(services, "elapsed_at", hint_lands_now)
    won = game_act(owner=GUEST, game_id=game.pk, version=game.version, kind=kind, slot=slot).game
    stored = Game.objects.get(pk=game.pk)
    assert (stored.status, stored.assisted, stored.ranked) == ("won", True, False)
    assert won.ranked is False


def copy_of(record: Record) -> Game:
    """A fresh copy of a game in play (its row and its log), for the next round."""
    game = Game.objects.create(**record.fields, **GUEST.stamp())
    Action.objects.bulk_create(
        Action(game=game, number=n, kind=k, move=m, elapsed_ms=e, undo_top=u, redo_top=r)
        for n, k, m, e, u, r in record.actions
    )
    return game


@pytest.mark.postgres
def test_a_hint_and_the_winning_move_together_never_rank_an_assisted_game(transactional_db):
    first, (kind, slot) = one_move_from_winning()
    record = Record.of(first)
    both = []
    for _ in range(ROUNDS):
        game = copy_of(record)
        barrier = threading.Barrier(2, timeout=60)

        def hint() -> None:
            try:
                barrier.wait()
                hint_for(owner=GUEST, game_id=game.pk, version=game.version)
            except (StaleVersion, ActionRefused):
                pass
            finally:
                connection.close()

        def move() -> None:
            try:
                barrier.wait()
                game_act(owner=GUEST, game_id=game.pk, version=game.version, kind=kind, slot=slot)
            except StaleVersion:
                pass
            finally:
                connection.close()

        threads = [threading.Thread(target=hint), threading.Thread(target=move)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        stored = Game.objects.get(pk=game.pk)
        both.append(stored.assisted and stored.ranked)
        Game.objects.filter(pk=game.pk).delete()
    assert not any(both), f"{sum(both)} of {ROUNDS} games both assisted and ranked"
