"""Signing up, logging in and logging out say what happened, once, on the next page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.helpers import parse_html

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-and-unusual-pass-2026"


def messages_of(response) -> list[str]:
    return [item.text for item in parse_html(response).find_all("li", class_="success")]


def test_signing_up_welcomes_the_new_player_by_name(client):
    response = client.post(
        "/accounts/signup/", {"username": "ada", "password1": PASSWORD, "password2": PASSWORD}, follow=True
    )
    assert messages_of(response) == ["Welcome, ada: your account is made, and you are logged in."]
    assert messages_of(client.get("/")) == []


def test_logging_in_says_as_whom(client):
    User.objects.create_user("grace", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "grace", "password": PASSWORD}, follow=True)
    assert messages_of(response) == ["You are logged in as grace."]
    assert messages_of(client.get("/")) == []


def test_a_failed_login_says_nothing_of_the_kind(client):
    User.objects.create_user("grace", password=PASSWORD)
    response = client.post("/accounts/login/", {"username": "grace", "password": "wrong"})
    assert messages_of(response) == []


def test_logging_out_says_so(client):
    User.objects.create_user("grace", password=PASSWORD)
    client.post("/accounts/login/", {"username": "grace", "password": PASSWORD}, follow=True)
    response = client.post("/accounts/logout/", follow=True)
    assert messages_of(response) == ["You are logged out."]
    assert messages_of(client.get("/")) == []


def test_logging_out_when_not_logged_in_says_nothing(client):
    assert messages_of(client.post("/accounts/logout/", follow=True)) == []
