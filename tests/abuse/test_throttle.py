"""Password guessing is throttled by django-axes: 5 failures for one (user name, address) pair
lock that pair out for 15 minutes (from its last attempt) with a 429 page; other addresses
and other user names are not affected, and a success resets the count.

django-axes needs the request, so these tests log in by POSTing the login form (never
``client.login``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.utils import reset
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db

PASSWORD = "Right-password-8812"
HOME = "10.1.1.1"
AWAY = "10.2.2.2"


@pytest.fixture
def pat(db) -> User:
    return User.objects.create_user("pat", password=PASSWORD)


def log_in(client: Client, password: str, *, username: str = "pat", address: str = HOME, path="/accounts/login/"):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(client: Client) -> bool:
    return SESSION_KEY in client.session


def assert_locked_out(response) -> None:
    assert response.status_code == 429
    assert "registration/locked_out.html" in [template.name for template in response.templates]
    assert "Too many attempts" in response.content.decode()


def fail(client: Client, times: int, **where) -> list[int]:
    return [log_in(client, "wrong password", **where).status_code for _ in range(times)]


@pytest.fixture
def clock(monkeypatch):
    """Move time forward for Django and django-axes, which imported ``now`` by name."""
    import axes.attempts
    import axes.handlers.proxy

    real_now = timezone.now
    offset = [timedelta()]

    def now():
        return real_now() + offset[0]

    for module in (timezone, axes.attempts, axes.handlers.proxy):
        monkeypatch.setattr(module, "now", now)

    class Clock:
        def advance(self, delta: timedelta) -> None:
            offset[0] += delta

    return Clock()


def test_four_failures_leave_the_form_the_fifth_locks(client, pat):
    assert fail(client, 4) == [200] * 4  # the form again, with its error
    assert_locked_out(log_in(client, "wrong password"))  # axes locks at the failure that reaches 5
    assert_locked_out(log_in(client, "wrong password"))  # the 6th attempt
    assert not logged_in(client)


def test_a_locked_pair_refuses_even_the_right_password(client, pat):
    fail(client, 5)
    assert_locked_out(log_in(client, PASSWORD))
    assert not logged_in(client)
    assert_locked_out(log_in(Client(), PASSWORD))  # a fresh browser from the same address: same pair


def test_another_address_or_another_name_can_still_log_in(client, pat):
    User.objects.create_user("sam", password=PASSWORD)
    fail(client, 6)
    elsewhere = Client()
    assert log_in(elsewhere, PASSWORD, address=AWAY).status_code == 302
    assert logged_in(elsewhere)
    sam = Client()
    assert log_in(sam, PASSWORD, username="sam").status_code == 302  # same address, other user name
    assert logged_in(sam)


def test_the_lock_lifts_fifteen_minutes_after_the_last_failure(client, pat, clock):
    fail(client, 5)
    clock.advance(timedelta(minutes=15, seconds=1))
    assert log_in(client, PASSWORD).status_code == 302
    assert logged_in(client)


def test_attempts_during_the_lock_restart_its_fifteen_minutes(client, pat, clock):
    """django-axes' default (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT): whoever keeps
    trying stays locked out; the 15 minutes count from the last attempt."""
    fail(client, 5)
    clock.advance(timedelta(minutes=14, seconds=50))
    assert_locked_out(log_in(client, PASSWORD))
    clock.advance(timedelta(seconds=11))  # 15:01 after the 5th failure, 0:11 after the last attempt
    assert_locked_out(log_in(client, PASSWORD))
    clock.advance(timedelta(minutes=15, seconds=1))
    assert log_in(client, PASSWORD).status_code == 302


def test_an_administrator_can_lift_the_lock(client, pat):
    fail(client, 5)
    assert reset(ip=HOME, username="pat") >= 1
    assert log_in(client, PASSWORD).status_code == 302
    assert logged_in(client)


def test_a_success_resets_the_count(client, pat):
    assert fail(client, 4) == [200] * 4
    assert log_in(client, PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    assert not logged_in(client)
    assert fail(client, 4) == [200] * 4  # counted from zero again: four more do not lock
    assert_locked_out(log_in(client, "wrong password"))


def test_the_admin_login_is_throttled_too(client, pat):
    assert fail(client, 4, path="/admin/login/") == [200] * 4
    assert_locked_out(log_in(client, "wrong password", path="/admin/login/"))
    assert_locked_out(log_in(client, PASSWORD))  # the same pair, locked on the site's login as well


def test_unknown_user_names_are_throttled_like_real_ones(client):
    assert fail(client, 4, username="nobody-by-this-name") == [200] * 4
    assert_locked_out(log_in(client, "x", username="nobody-by-this-name"))


def test_an_overlong_user_name_is_recorded_cut_to_its_column(client):
    """Django's login form takes a user name of any length; axes' column holds 255 characters
    (on PostgreSQL a longer one failed to save: a 500).  Such names are still throttled."""
    from axes.models import AccessAttempt

    name = "x" * 5000
    assert fail(client, 4, username=name) == [200] * 4
    assert [len(attempt.username) for attempt in AccessAttempt.objects.all()] == [255]
    assert_locked_out(log_in(client, "x", username=name))
