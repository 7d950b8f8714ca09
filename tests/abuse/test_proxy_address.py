"""Behind our proxy, the login lock keys on the player's address, not the proxy's."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from addiction_site import settings as site_settings

pytestmark = pytest.mark.django_db


def fail_five_times(client, **meta):
    for _ in range(5):
        client.post("/accounts/login/", {"username": "alice", "password": "wrong"}, **meta)


@pytest.fixture
def alice():
    return User.objects.create_user("alice", password="correct horse battery")


def test_behind_one_proxy_a_guesser_does_not_lock_out_the_player(alice, monkeypatch):
    monkeypatch.setattr(site_settings, "ADDICTION_PROXY_HOPS", 1)
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    fail_five_times(Client(), HTTP_X_FORWARDED_FOR="203.0.113.9", **proxy)
    assert (
        Client()
        .post(
            "/accounts/login/", {"username": "alice", "password": "wrong"}, HTTP_X_FORWARDED_FOR="203.0.113.9", **proxy
        )
        .status_code
        == 429
    )
    answer = Client().post(
        "/accounts/login/",
        {"username": "alice", "password": "correct horse battery"},
        HTTP_X_FORWARDED_FOR="198.51.100.7",
        **proxy,
    )
    assert answer.status_code == 302


def test_a_forged_left_entry_is_not_believed(alice, monkeypatch):
    monkeypatch.setattr(site_settings, "ADDICTION_PROXY_HOPS", 1)
    for forged in ("1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4", "5.5.5.5"):
        Client().post(
            "/accounts/login/",
            {"username": "alice", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"{forged}, 203.0.113.9",
            REMOTE_ADDR="127.0.0.1",
        )
    locked = Client().post(
        "/accounts/login/",
        {"username": "alice", "password": "correct horse battery"},
        HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.9",
        REMOTE_ADDR="127.0.0.1",
    )
    assert locked.status_code == 429


def test_without_a_proxy_the_header_is_ignored(alice):
    fail_five_times(Client(), HTTP_X_FORWARDED_FOR="203.0.113.9", REMOTE_ADDR="10.0.0.5")
    locked = Client().post(
        "/accounts/login/",
        {"username": "alice", "password": "correct horse battery"},
        HTTP_X_FORWARDED_FOR="198.51.100.7",
        REMOTE_ADDR="10.0.0.5",
    )
    assert locked.status_code == 429
