"""Password guessing is throttled by django-axes: 5 failures for one (user name, address) pair
lock that pair out for 15 minutes (from its last attempt) with a 429 page; other addresses
and other user names are not affected, and a success resets the count.

Password spraying, a few guesses at each of many user names, is throttled per address: the
30th failure from one address, whatever the user names, locks that address (and only it)
the same way.  Sign-ups are throttled per address too: 10 accounts in any hour.

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


# --------------------------------------------------------------------------- password spraying


def spray(client: Client, names: list[str], rounds: int, address: str = HOME) -> list[int]:
    """Guess at each name in turn, ``rounds`` times over: never 5 at one name."""
    return [
        log_in(client, f"guess {n}", username=name, address=address).status_code
        for n in range(rounds)
        for name in names
    ]


NAMES = ["pat"] + [f"player{n}" for n in range(29)]


def test_spraying_many_names_from_one_address_locks_that_address(client, pat):
    statuses = spray(client, NAMES, rounds=4)  # 120 attempts, 4 at each of 30 names
    assert statuses[:29] == [200] * 29
    assert statuses[29:] == [429] * 91  # the 30th failure from the address locks it
    response = log_in(Client(), PASSWORD)
    assert_locked_out(response)  # even the right password, from a fresh browser there
    assert "from your address, for many user names" in response.content.decode()
    assert not logged_in(client)


def test_a_sprayed_address_does_not_lock_the_player_out_from_elsewhere(client, pat):
    spray(client, NAMES, rounds=4)
    elsewhere = Client()
    assert log_in(elsewhere, PASSWORD, address=AWAY).status_code == 302
    assert logged_in(elsewhere)


def test_fewer_failures_from_an_address_lock_nothing(client, pat):
    assert spray(client, NAMES[1:], rounds=1) == [200] * 29  # 29 failures
    assert log_in(client, PASSWORD).status_code == 302
    assert logged_in(client)


def test_a_success_from_the_address_does_not_reset_its_count(client, pat):
    """A sprayer with an account of their own cannot wipe the address's failures by logging in."""
    assert spray(client, NAMES[1:], rounds=1) == [200] * 29
    assert log_in(client, PASSWORD).status_code == 302  # pat's own pair is reset, no other
    client.post("/accounts/logout/")
    assert_locked_out(log_in(client, "wrong", username="someone-else"))  # the 30th failure


def test_the_address_lock_lifts_after_the_cool_off(client, pat, clock):
    spray(client, NAMES, rounds=1)
    assert_locked_out(log_in(client, PASSWORD))
    clock.advance(timedelta(minutes=15, seconds=1))
    assert log_in(client, PASSWORD).status_code == 302


def test_a_pair_lock_keeps_its_own_words(client, pat):
    fail(client, 4)
    response = log_in(client, "wrong password")
    assert_locked_out(response)
    assert "for this user name from your address" in response.content.decode()


# --------------------------------------------------------------------------- sign-ups


def sign_up(client: Client, username: str, address: str = HOME):
    return client.post(
        "/accounts/signup/", {"username": username, "password1": PASSWORD, "password2": PASSWORD}, REMOTE_ADDR=address
    )


def test_the_eleventh_sign_up_from_an_address_in_an_hour_is_refused(clock):
    assert [sign_up(Client(), f"new{n}").status_code for n in range(10)] == [302] * 10
    clock.advance(timedelta(minutes=59))
    refused = sign_up(Client(), "new10")
    assert refused.status_code == 429
    assert "Too many accounts have been created from your address" in refused.content.decode()
    assert "registration/signup.html" in [template.name for template in refused.templates]
    assert not User.objects.filter(username="new10").exists()
    assert Client().get("/accounts/signup/", REMOTE_ADDR=HOME).status_code == 429  # the page says so at once


def test_another_address_can_still_sign_up(clock):
    for n in range(10):
        sign_up(Client(), f"new{n}")
    assert sign_up(Client(), "elsewhere", address=AWAY).status_code == 302
    assert User.objects.filter(username="elsewhere").exists()


def test_an_hour_after_a_sign_up_it_no_longer_counts(clock):
    sign_up(Client(), "first")
    clock.advance(timedelta(minutes=30))
    for n in range(9):
        sign_up(Client(), f"new{n}")
    assert sign_up(Client(), "refused").status_code == 429
    clock.advance(timedelta(minutes=30, seconds=1))  # an hour after the first, not yet the others
    assert sign_up(Client(), "again").status_code == 302
    assert sign_up(Client(), "refused").status_code == 429


def test_only_accounts_created_count(client):
    for _ in range(20):
        assert client.get("/accounts/signup/", REMOTE_ADDR=HOME).status_code == 200
    for n in range(20):  # refused by the form: the passwords differ
        response = client.post(
            "/accounts/signup/", {"username": f"new{n}", "password1": PASSWORD, "password2": "x"}, REMOTE_ADDR=HOME
        )
        assert response.status_code == 400
    assert sign_up(Client(), "counted").status_code == 302


def test_a_count_lasts_the_hour_in_the_database_cache():
    """Issue 46's review: the database cache's incr wrote the counter back with Django's default
    5-minute timeout, so a sign-up counted for 5 minutes, not an hour."""
    from datetime import UTC, datetime

    from django.core.cache import caches
    from django.db import connection
    from django.test import RequestFactory, override_settings

    from accounts import throttle

    database_cache = {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "addiction_cache"}
    with override_settings(CACHES={"default": database_cache}):
        request = RequestFactory().post("/accounts/signup/", REMOTE_ADDR=HOME)
        for _ in range(3):
            throttle.signup_counted(request)
        assert throttle.recent("signups", request) == 3
        with connection.cursor() as cursor:
            cursor.execute("SELECT expires FROM addiction_cache WHERE cache_key LIKE %s", ["%accounts:signups:%"])
            (expires,) = cursor.fetchone()
        if isinstance(expires, str):
            expires = datetime.fromisoformat(expires)
        if timezone.is_naive(expires):
            expires = timezone.make_aware(expires, UTC)
        assert expires - timezone.now() > timedelta(minutes=55), expires
        caches["default"].clear()
