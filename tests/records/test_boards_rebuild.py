"""A ranked win whose log is later found false leaves the boards; the player's next best takes its place."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from games.models import Action
from games.services import game_rank
from records.models import BoardEntry
from tests.winning import quick_win, recorded_win, user_owner

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def entries(user) -> dict:
    return {(e.board, e.scope): e.game_id for e in BoardEntry.objects.filter(user=user)}


def test_a_win_found_false_again_leaves_the_boards_and_the_next_best_returns():
    player = User.objects.create_user("carol")
    win = quick_win()
    slow = recorded_win(user_owner(player), win, finished_at=START, step=timedelta(seconds=3))
    fast = recorded_win(user_owner(player), win, finished_at=START + timedelta(hours=1), step=timedelta(seconds=1))
    assert slow.ranked and fast.ranked
    assert entries(player)[("time", "all")] == fast.pk

    Action.objects.filter(game=fast, number=1).update(move="2S:0-0>1-0")  # the fast win's log, tampered
    assert game_rank(game=fast) is False

    after = entries(player)
    assert fast.pk not in after.values()
    assert after[("time", "all")] == slow.pk
    assert set(after) == {
        (board, scope)
        for board in ("time", "moves")
        for scope in ("all", "week:2026-W48", "day:2026-11-25", f"deal:{win.deal_number}")
    }
