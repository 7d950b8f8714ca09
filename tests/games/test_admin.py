"""Staff pages of a game (games/admin.py) and the cookies every visitor gets: what they may show."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from addiction_site.ownership import Owner
from daily import deals, services
from games.services import game_act, game_start
from tests.helpers import logged_in, text_of

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
