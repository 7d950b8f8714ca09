"""Leaving the site: the account page, downloading one's data as JSON, deleting the account after
the password, and the privacy page that says what is kept and for how long.

Two players, Ada and Brian, each with a game in progress (with actions) and a ranked win (with
its board entries): whatever Ada downloads or deletes, Brian's data stays out of it.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client

from games.models import Action, Game
from games.preferences import CHOICES, VARIANT_COOKIE
from games.services import game_start
from records.models import BoardEntry
from tests.helpers import a_movable_slot, act_on_service, parse_html, text_of
from tests.winning import quick_win, recorded_win, user_owner

pytestmark = pytest.mark.django_db

PASSWORD = "plum-orchard-lantern-42"
START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def a_player(name: str, *, deal_number: int) -> User:
    """A player with a won game (ranked, on the boards) and a game of ``deal_number`` in progress."""
    user = User.objects.create_user(name, f"{name}@example.org", PASSWORD)
    owner = user_owner(user)
    recorded_win(owner, quick_win(), finished_at=START)
    game = game_start(owner=owner, deal_number=deal_number)
    for _ in range(2):
        game = act_on_service(owner, game, "move", a_movable_slot(game))
    return user


@pytest.fixture
def ada() -> User:
    return a_player("ada", deal_number=1)


@pytest.fixture
def brian() -> User:
    return a_player("brian", deal_number=2)


@pytest.fixture
def ada_client(client, ada) -> Client:
    client.force_login(ada)
    return client


def holdings(user: User) -> tuple[int, int, int]:
    """How many games, logged actions and board entries ``user`` has."""
    return (
        Game.objects.filter(owner=user).count(),
        Action.objects.filter(game__owner=user).count(),
        BoardEntry.objects.filter(user=user).count(),
    )


# --------------------------------------------------------------------------- the account page


def test_the_account_page_links_everything_a_player_can_do_with_their_account(ada_client):
    response = ada_client.get("/accounts/")
    assert response.status_code == 200
    page = parse_html(response)
    for href in ("/accounts/password/", "/accounts/email/", "/accounts/data/", "/accounts/delete/", "/privacy/"):
        assert page.find_all("a", href=href), href
    assert "ada@example.org" in text_of(response)
    assert page.find("div", class_="account").find_all("a", href="/accounts/") != []  # the header's link


@pytest.mark.parametrize("url", ["/accounts/", "/accounts/data/", "/accounts/delete/"])
def test_account_pages_need_a_login(client, url):
    response = client.get(url)
    assert response.status_code == 302 and response.url == f"/accounts/login/?next={url}"


# --------------------------------------------------------------------------- the download


def download(client) -> tuple:
    response = client.get("/accounts/data/")
    assert response.status_code == 200
    return response, json.loads(b"".join(response.streaming_content))


def test_the_download_holds_the_account_its_games_with_their_logs_and_its_board_entries(ada_client, ada, brian):
    response, data = download(ada_client)
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="addiction-ada-')
    assert "no-store" in response["Cache-Control"]

    assert data["format"] == "addiction-solitaire/account-data/1"
    assert data["account"]["username"] == "ada" and data["account"]["email"] == "ada@example.org"
    assert data["account"]["email_confirmed"] is False  # she never followed the link mailed at sign-up
    assert data["account"]["date_joined"].startswith(str(ada.date_joined.date()))
    games = {game.pk: game for game in Game.objects.filter(owner=ada)}
    assert sorted(game["id"] for game in data["games"]) == sorted(games)
    for exported in data["games"]:
        game = games[exported["id"]]
        assert (exported["deal_number"], exported["status"], exported["moves"], exported["elapsed_ms"]) == (
            game.deal_number,
            game.status,
            game.moves,
            game.elapsed_ms,
        )
        log = list(game.actions.order_by("number").values_list("number", "kind", "move"))
        assert [(action["number"], action["kind"], action["move"]) for action in exported["actions"]] == log
        assert log
    assert {(entry["board"], entry["scope"], entry["game"]) for entry in data["board_entries"]} == set(
        BoardEntry.objects.filter(user=ada).values_list("board", "scope", "game_id")
    )
    assert data["board_entries"]


def test_the_download_holds_nothing_of_another_player_nor_any_secret(ada_client, ada, brian):
    response, data = download(ada_client)
    text = json.dumps(data)
    assert "brian" not in text
    theirs = set(Game.objects.filter(owner=brian).values_list("pk", flat=True))
    assert theirs and not theirs & {game["id"] for game in data["games"]}
    assert not theirs & {entry["game"] for entry in data["board_entries"]}
    assert ada.password not in text and "password" not in text
    for game in Game.objects.filter(owner=ada):  # a game in progress's seed would tell its shuffles
        assert game.seed not in text
        assert "seed" not in next(g for g in data["games"] if g["id"] == game.pk)


def test_the_download_holds_the_races_the_player_joined_and_not_the_others(ada_client, ada, brian):
    """Races plug their part into the download (games/registry.py, add_exporter): the privacy
    page promises everything that is the player's (issue 41)."""
    from races.services import race_join, race_open

    race = race_open(owner=user_owner(ada), name="Ada", mode="challenge", deal_number=17)
    race_join(race=race, owner=user_owner(brian), name="Brian")
    race_open(owner=user_owner(brian), name="B", mode="live", deal_number=18)  # not Ada's
    _response, data = download(ada_client)
    (row,) = data["races"]
    assert (row["race"], row["name"], row["hosted"], row["mode"]) == (race.code, "Ada", True, "challenge")
    assert row["game"] in {game["id"] for game in data["games"]}  # her game of it is among her games
    assert race.seed not in json.dumps(data)  # a race's seed stays secret until it closes


def test_the_download_reads_many_games_in_a_few_queries(ada_client, ada, django_assert_max_num_queries):
    owner = user_owner(ada)
    for deal_number in range(10, 30):
        game = game_start(owner=owner, deal_number=deal_number)
        act_on_service(owner, game, "move", a_movable_slot(game))
    # session, user, its confirmed address, games, their actions, board entries, races
    with django_assert_max_num_queries(10):
        _response, data = download(ada_client)
    assert len(data["games"]) == 22


def test_a_player_without_games_downloads_an_empty_record(client):
    user = User.objects.create_user("cleo", "", PASSWORD)
    client.force_login(user)
    _response, data = download(client)
    assert data["account"]["email"] == "" and data["games"] == [] and data["board_entries"] == []


# --------------------------------------------------------------------------- deletion


def delete_account(client, password: str = PASSWORD):
    return client.post("/accounts/delete/", {"password": password})


def test_the_delete_page_asks_for_the_password_and_deletes_nothing(ada_client, ada):
    response = ada_client.get("/accounts/delete/")
    assert response.status_code == 200
    assert parse_html(response).find("form", action="/accounts/delete/").find_all("input", type="password")
    assert User.objects.filter(pk=ada.pk).exists()


@pytest.mark.parametrize("password", ["not-my-password", "", PASSWORD.upper()])
def test_a_wrong_password_deletes_nothing(ada_client, ada, password):
    before = holdings(ada)
    response = delete_account(ada_client, password)
    assert response.status_code == 400
    assert response.context["form"].errors["password"]
    assert User.objects.filter(pk=ada.pk).exists() and holdings(ada) == before
    assert ada_client.session.get(SESSION_KEY) == str(ada.pk)


def test_a_wrong_password_counts_as_a_failed_login(ada_client, ada):
    """django-axes counts it, so a borrowed session cannot guess the password here for ever."""
    delete_account(ada_client, "not-my-password")
    assert AccessAttempt.objects.filter(username="ada").exists()


def test_the_right_password_deletes_the_account_and_all_of_its_data_and_nothing_else(ada_client, ada, brian, caplog):
    brians = holdings(brian)
    assert all(holdings(ada)) and all(brians)
    ada_games = list(Game.objects.filter(owner=ada).values_list("pk", flat=True))
    with caplog.at_level(logging.INFO, logger="accounts"):
        response = delete_account(ada_client)
    assert (response.status_code, response["Location"]) == (302, "/accounts/deleted/")  # no form to resend
    response = ada_client.get(response["Location"])
    assert "Account deleted" in text_of(response) and "you are logged out" in text_of(response)
    assert not User.objects.filter(username="ada").exists()
    assert not Game.objects.filter(pk__in=ada_games).exists()
    assert not Action.objects.filter(game_id__in=ada_games).exists()
    assert not BoardEntry.objects.filter(game_id__in=ada_games).exists()
    assert holdings(brian) == brians

    assert SESSION_KEY not in ada_client.session
    assert ada_client.get("/accounts/").status_code == 302  # logged out
    [record] = [record for record in caplog.records if record.name == "accounts"]
    assert record.levelno == logging.INFO and "ada" in record.getMessage() and PASSWORD not in record.getMessage()


def test_deleting_needs_a_post_with_its_csrf_token(ada, ada_client):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ada)
    assert strict.post("/accounts/delete/", {"password": PASSWORD}).status_code == 403
    assert ada_client.put("/accounts/delete/").status_code == 405
    assert User.objects.filter(pk=ada.pk).exists()


# --------------------------------------------------------------------------- the privacy page


def test_every_page_links_to_the_privacy_page(client):
    footer = parse_html(client.get("/")).find("footer")
    assert [link.text for link in footer.find_all("a", href="/privacy/")] == ["Privacy"]


def test_the_privacy_page_names_each_cookie_and_each_duration_from_the_settings(client, settings):
    settings.ADDICTION_LOGIN_RECORD_DAYS = 12
    settings.ADDICTION_GUEST_IDLE_DAYS = 90
    settings.AXES_COOLOFF_TIME = settings.AXES_COOLOFF_TIME * 2
    response = client.get("/privacy/")
    assert response.status_code == 200
    page = parse_html(response)
    assert {code.text for code in page.find_all("code")} == {
        "sessionid",
        "csrftoken",
        "__Host-addiction_guest",  # Secure cookies here, as in production: the __Host- prefix
        "addiction_mark_movable",
        "addiction_theme",
        "addiction_motion",
        "addiction_deck",
        "addiction_face",
        "addiction_sound",
        "addiction_variant",  # missing before issue 41
        "django_language",
    }
    # Every cookie of the settings, however many there come to be (games/preferences.py).
    assert {choice.cookie for choice in CHOICES.values()} | {VARIANT_COOKIE} <= {
        code.text for code in page.find_all("code")
    }
    text = text_of(response)
    assert "deleted after 12 days" in text and "deleted 90 days after they were last played" in text
    assert "30 minutes after the last failure" in text
    assert "It lasts 365 days from the last day you used the site" in text
    assert page.find_all("a", href="/accounts/login/?next=/accounts/")


def test_the_mails_sender_is_the_sites_own_name_not_webmaster_at_localhost(monkeypatch):
    """Issue 26: Django's default sender is refused by mail servers; ours names the site."""
    import importlib

    import addiction_site.settings as site_settings

    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "play.example.org,www.play.example.org")
    monkeypatch.delenv("DEFAULT_FROM_EMAIL", raising=False)
    try:
        assert importlib.reload(site_settings).DEFAULT_FROM_EMAIL == "Addiction <noreply@play.example.org>"
        monkeypatch.setenv("DEFAULT_FROM_EMAIL", "Games <games@example.org>")
        assert importlib.reload(site_settings).DEFAULT_FROM_EMAIL == "Games <games@example.org>"
    finally:
        monkeypatch.undo()
        importlib.reload(site_settings)
