"""Staff pages of a game (games/admin.py) and the cookies every visitor gets: what they may show."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from addiction_site.ownership import Owner
from daily import deals, services
from games.models import Action
from games.services import game_act, game_start
from tests.helpers import logged_in, parse_html, text_of

pytestmark = pytest.mark.django_db


def staff() -> Client:
    return logged_in(User.objects.create_superuser("root", password="unused-in-these-tests-1"))


def test_the_game_admin_shows_a_seed_only_once_anyone_may_see_it():
    guest = Owner(user_id=None, guest_token="admin-seed-guest")
    playing = game_start(owner=guest, deal_number=3)
    daily = services.daily_start(owner=guest, day=deals.today())
    lost = game_start(owner=guest, deal_number=4)
    game_act(owner=guest, game_id=lost.pk, version=0, kind="resign")
    daily_lost = game_act(owner=guest, game_id=daily.pk, version=0, kind="resign").game
    admin = staff()
    for hidden in (playing, daily_lost):  # in play; over, but its day is not
        page = text_of(admin.get(f"/admin/games/game/{hidden.pk}/change/"))
        assert hidden.seed not in page and "Not revealed yet" in page and hidden.seed_sha256 in page
    page = text_of(admin.get(f"/admin/games/game/{lost.pk}/change/"))
    assert lost.seed in page and "Not revealed yet" not in page
    assert daily_lost.daily == timezone.now().date()


def test_the_language_cookie_is_for_the_sites_own_requests_and_no_script(client, settings):
    response = client.post("/i18n/setlang/", {"language": "it", "next": "/"})
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "it"
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


def test_in_production_the_language_cookie_is_secure(settings):
    assert not settings.DEBUG  # the tests run the production settings (tests/settings.py)
    assert settings.LANGUAGE_COOKIE_SECURE and settings.SESSION_COOKIE_SECURE


def a_long_game(actions: int):
    """A guest's game of ``actions`` moves: a 2 going back and forth between column-0 gaps, or any move."""
    guest = Owner(user_id=None, guest_token="admin-log-guest")
    game = game_start(owner=guest, deal_number=1)
    for _ in range(actions):
        state = game.state()
        moves = state.position.legal_moves()
        if not moves:
            game = game_act(owner=guest, game_id=game.pk, version=game.version, kind="shuffle").game
            continue
        game = game_act(owner=guest, game_id=game.pk, version=game.version, kind="move", slot=moves[0].src).game
    return game


def test_a_long_games_page_shows_its_last_actions_and_links_to_its_whole_log_a_page_at_a_time():
    game = a_long_game(230)
    assert game.version >= 200
    admin = staff()
    page = admin.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    assert len(page.content) < 60_000  # 35 KB; the inline of every action made such a page 359 KB
    tree = parse_html(page)
    shown = [int(row["data-number"]) for row in tree.find_all("tr", data_number=True)]
    assert shown == list(range(game.version - 19, game.version + 1))  # the last 20, in order
    link = tree.find("a", class_="game-log-all")
    assert f"{game.version} actions" in link.text
    log = admin.get(link["href"])
    assert log.status_code == 200
    rows = parse_html(log).find("table", id="result_list").find("tbody").find_all("tr")
    assert len(rows) == 100  # a page at a time
    assert "?game__exact=" in link["href"] and admin.get(link["href"] + "&p=3").status_code == 200


def test_the_log_cannot_be_edited_or_deleted_from_the_admin():
    game = a_long_game(3)
    action = Action.objects.filter(game=game).first()
    admin = staff()
    assert admin.get("/admin/games/action/add/").status_code == 403
    assert admin.post(f"/admin/games/action/{action.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Action.objects.filter(pk=action.pk).exists()
