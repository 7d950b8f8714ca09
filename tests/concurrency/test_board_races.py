"""Two wins of one player entering the boards at the same moment (PostgreSQL, real threads)."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from records.models import BoardEntry
from records.services import boards_enter
from tests.winning import quick_win, recorded_win, user_owner

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def test_simultaneous_wins_keep_the_best_and_never_fail():
    player = User.objects.create_user("erin")
    win = quick_win()
    slow = recorded_win(user_owner(player), win, finished_at=START, step=timedelta(seconds=3))
    fast = recorded_win(user_owner(player), win, finished_at=START + timedelta(minutes=1), step=timedelta(seconds=1))
    for _ in range(5):
        BoardEntry.objects.filter(user=player).delete()
        barrier = threading.Barrier(2)
        errors = []

        def enter(game):
            try:
                with transaction.atomic():
                    barrier.wait(timeout=10)
                    boards_enter(game=game)
            except Exception as error:  # noqa: BLE001 - any failure is the finding
                errors.append(repr(error))
            finally:
                connection.close()

        threads = [threading.Thread(target=enter, args=(game,)) for game in (slow, fast)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        assert errors == []
        best = BoardEntry.objects.get(user=player, board="time", scope="all")
        assert best.game_id == fast.pk and best.first == fast.elapsed_ms
