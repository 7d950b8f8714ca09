"""``manage.py housekeeping``: what it removes (guests' games never played after a day, guests'
games untouched for a year, expired sessions, old django-axes records), what it never touches
(accounts' games, recent guest games), a dry run, and a second run that finds nothing."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from addiction_site.ownership import Owner
from games.management.commands import housekeeping
from games.models import Action, Game
from games.services import game_start
from records.models import BoardEntry
from tests.helpers import a_movable_slot, act_on_service
from tests.winning import quick_win, recorded_win, user_owner

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def guest(name: str) -> Owner:
    return Owner(user_id=None, guest_token=f"guest-{name}")


def aged(game: Game, *, created: timedelta, last_action: timedelta | None = None) -> Game:
    """``game`` as if created ``created`` ago, and last played ``last_action`` ago (never: None)."""
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        created_at=now - created, last_action_at=None if last_action is None else now - last_action
    )
    return game


def played(owner: Owner, *, created: timedelta, last_action: timedelta, resign: bool = False) -> Game:
    game = game_start(owner=owner, deal_number=1)
    act_on_service(owner, game, "move", a_movable_slot(game))
    if resign:
        act_on_service(owner, game, "resign")
    return aged(game, created=created, last_action=last_action)


def unplayed(owner: Owner, *, created: timedelta) -> Game:
    return aged(game_start(owner=owner, deal_number=1), created=created)


def housekeep(*args: str) -> str:
    out = StringIO()
    call_command("housekeeping", *args, stdout=out)
    return out.getvalue()


def remaining(*games: Game) -> set[int]:
    return set(Game.objects.filter(pk__in=[game.pk for game in games]).values_list("pk", flat=True))


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Game, Action, BoardEntry, Session, AccessAttempt, AccessLog, AccessFailureLog)
    }


# --------------------------------------------------------------------------- guests' games


def test_guest_games_never_played_go_a_day_after_they_were_created():
    old = unplayed(guest("a"), created=DAY + timedelta(minutes=1))
    young = unplayed(guest("b"), created=DAY - timedelta(minutes=1))
    played_once = played(guest("c"), created=2 * DAY, last_action=2 * DAY)
    output = housekeep()
    assert remaining(old, young, played_once) == {young.pk, played_once.pk}
    assert "guest games never played, created over 1 day ago: 1 removed" in output


def test_guest_games_untouched_for_a_year_go_finished_or_not():
    year = timedelta(days=365)
    idle = played(guest("a"), created=year + 9 * DAY, last_action=year + DAY)
    finished = played(guest("b"), created=year + 9 * DAY, last_action=year + DAY, resign=True)
    never_played = unplayed(guest("c"), created=year + DAY)
    recent = played(guest("d"), created=year + 9 * DAY, last_action=year - DAY)  # created long ago, played since
    assert Game.objects.get(pk=finished.pk).is_over
    output = housekeep()
    assert remaining(idle, finished, never_played, recent) == {recent.pk}
    assert not Action.objects.filter(game_id__in=[idle.pk, finished.pk]).exists()  # their logs went with them
    assert "guest games untouched for 365 days, finished or not: 3 removed" in output
    assert "guest games never played, created over 1 day ago: 0 removed" in output  # counted once


def test_games_of_accounts_are_never_removed():
    ada = User.objects.create_user("ada")
    owner = user_owner(ada)
    ancient = 3 * timedelta(days=365)
    win = recorded_win(owner, quick_win(), finished_at=timezone.now() - ancient)
    assert win.ranked and BoardEntry.objects.filter(game=win).exists()
    games = [
        aged(win, created=ancient, last_action=ancient),
        unplayed(owner, created=ancient),
        played(owner, created=ancient, last_action=ancient),
        played(owner, created=ancient, last_action=ancient, resign=True),
    ]
    before = counts()
    housekeep()
    assert remaining(*games) == {game.pk for game in games}
    assert counts() == before
    assert Game.objects.get(pk=win.pk).ranked


def test_the_ages_are_settings(settings):
    settings.ADDICTION_GUEST_UNPLAYED_DAYS = 3
    settings.ADDICTION_GUEST_IDLE_DAYS = 30
    two_days = unplayed(guest("a"), created=2 * DAY)
    four_days = unplayed(guest("b"), created=4 * DAY)
    month = played(guest("c"), created=31 * DAY, last_action=31 * DAY)
    housekeep()
    assert remaining(two_days, four_days, month) == {two_days.pk}


def test_games_go_in_batches_each_in_its_own_transaction(monkeypatch):
    monkeypatch.setattr(housekeeping, "BATCH", 2)
    games = [unplayed(guest(str(n)), created=2 * DAY) for n in range(5)]
    with CaptureQueriesContext(connection) as queries:
        assert "never played, created over 1 day ago: 5 removed" in housekeep()
    assert remaining(*games) == set()
    deletes = [query["sql"] for query in queries if query["sql"].startswith('DELETE FROM "games_game"')]
    assert len(deletes) == 3  # 2 + 2 + 1


# --------------------------------------------------------------------------- sessions and login records


def session(key: str, expires_in: timedelta) -> Session:
    return Session.objects.create(session_key=key, session_data="", expire_date=timezone.now() + expires_in)


def test_expired_sessions_go():
    session("expired" + "x" * 25, -timedelta(seconds=1))
    session("current" + "x" * 25, timedelta(days=300))
    assert "expired sessions: 1 removed" in housekeep()
    assert list(Session.objects.values_list("session_key", flat=True)) == ["current" + "x" * 25]


def login_records(age: timedelta, username: str) -> None:
    common = {
        "username": username,
        "ip_address": "10.1.1.1",
        "user_agent": "test",
        "http_accept": "*/*",
        "path_info": "/accounts/login/",
    }
    AccessAttempt.objects.create(**common, get_data="", post_data="", failures_since_start=1)
    AccessLog.objects.create(**common)
    AccessFailureLog.objects.create(**common)
    for model in (AccessAttempt, AccessLog, AccessFailureLog):  # attempt_time is set on creation
        model.objects.filter(username=username).update(attempt_time=timezone.now() - age)


def test_django_axes_records_go_after_thirty_days():
    login_records(30 * DAY + timedelta(minutes=1), "old")
    login_records(30 * DAY - timedelta(minutes=1), "recent")
    output = housekeep()
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        assert list(model.objects.values_list("username", flat=True)) == ["recent"], model
    assert "django-axes access attempts older than 30 days: 1 removed" in output
    assert "django-axes access logs older than 30 days: 1 removed" in output
    assert "django-axes access failures older than 30 days: 1 removed" in output


def test_background_task_results_go_once_done_and_old(settings):
    """Issue 46: django-tasks-db keeps a row for every task; nothing removed them."""
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    now = timezone.now()

    def task(status, finished_ago):
        return DBTaskResult.objects.create(
            status=status,
            finished_at=None if finished_ago is None else now - finished_ago,
            args_kwargs={"args": [], "kwargs": {}},
            task_path="games.tasks.analysis_task",
            backend_name="default",
            run_after=now,
        ).pk

    gone = {task(TaskResultStatus.SUCCESSFUL, 2 * DAY), task(TaskResultStatus.FAILED, 31 * DAY)}
    kept = {
        task(TaskResultStatus.SUCCESSFUL, timedelta(hours=1)),
        task(TaskResultStatus.FAILED, 5 * DAY),  # read in the admin first
        task(TaskResultStatus.READY, None),
        task(TaskResultStatus.RUNNING, None),
    }
    output = housekeep()
    assert set(DBTaskResult.objects.values_list("pk", flat=True)) == kept and not gone & kept
    assert "background task results finished over 1 day ago: 1 removed" in output
    assert "background task results failed over 30 days ago: 1 removed" in output


def test_axes_records_failed_logins_only(client):
    User.objects.create_user("pat", password="Right-password-8812")
    client.post("/accounts/login/", {"username": "pat", "password": "wrong"}, REMOTE_ADDR="10.1.1.1")
    assert AccessAttempt.objects.count() == 1  # what the login lock counts
    response = client.post(
        "/accounts/login/", {"username": "pat", "password": "Right-password-8812"}, REMOTE_ADDR="10.1.1.1"
    )
    assert response.status_code == 302
    assert not AccessLog.objects.exists()
    assert not AccessFailureLog.objects.exists()


# --------------------------------------------------------------------------- a dry run, and running again


def a_bit_of_everything() -> list[Game]:
    session("expired" + "x" * 25, -timedelta(seconds=1))
    login_records(31 * DAY, "old")
    return [
        unplayed(guest("a"), created=2 * DAY),
        played(guest("b"), created=400 * DAY, last_action=400 * DAY),
        unplayed(guest("c"), created=timedelta(hours=1)),
    ]


def test_a_dry_run_counts_and_changes_nothing():
    a_bit_of_everything()
    before = counts()
    output = housekeep("--dry-run")
    assert counts() == before
    assert output.splitlines() == [
        "guest games never played, created over 1 day ago: 1 to remove",
        "guest games untouched for 365 days, finished or not: 1 to remove",
        "expired sessions: 1 to remove",
        "django-axes access attempts older than 30 days: 1 to remove",
        "django-axes access logs older than 30 days: 1 to remove",
        "django-axes access failures older than 30 days: 1 to remove",
        "background task results finished over 1 day ago: 0 to remove",
        "background task results failed over 30 days ago: 0 to remove",
        "analyses asked for again: 0 to do",
        "daily seeds made ahead: 2 to do",
        "solver's daily games asked for: 0 to do",
        "races closed at their time: 0 to do",
        "games read for puzzles: 0 to do",
        "first puzzles missing: 0 to do",
        "day's puzzles left unfinished, ended: 0 to do",
    ]


def test_running_twice_is_harmless():
    kept = a_bit_of_everything()[-1]
    first = housekeep()
    after_first = counts()
    second = housekeep()
    assert counts() == after_first
    assert remaining(kept) == {kept.pk}
    assert first.count(": 1 removed") == 6
    assert second.count(": 0 removed") == 8 and ": 1" not in second


def test_quiet_from_cron_with_v_0_and_still_at_work():
    """Issue 30: cron mails whatever a job prints; ``-v 0`` prints nothing, and removes as always."""
    owner = Owner(user_id=None, guest_token="g" * 32)
    old = unplayed(owner, created=timedelta(days=2))
    assert housekeep("-v", "0") == ""
    assert remaining(old) == set()
    assert "removed" in housekeep()  # the default still says what went
