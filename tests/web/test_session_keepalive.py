"""A guest's session (and with it their games) lives a year from the last day they played."""

from datetime import date, timedelta

import pytest
from django.contrib.sessions.models import Session

from games.ownership import SEEN_KEY

pytestmark = pytest.mark.django_db


def test_playing_on_a_later_day_pushes_the_session_expiry_back(client, monkeypatch):
    game_url = client.post("/new/", {"deal_number": 3}).url
    key = client.session.session_key
    first = Session.objects.get(session_key=key).expire_date

    class Tomorrow(date):
        @classmethod
        def today(cls):
            return date.today() + timedelta(days=40)

    monkeypatch.setattr("games.ownership.date", Tomorrow)
    assert client.get(game_url).status_code == 200
    later = Session.objects.get(session_key=key).expire_date
    assert later > first  # saved again, so its year counts from now
    assert client.session[SEEN_KEY] == Tomorrow.today().isoformat()


def test_the_same_day_writes_no_session(client, django_assert_max_num_queries):
    game_url = client.post("/new/", {"deal_number": 3}).url
    with django_assert_max_num_queries(2):  # the session and the game; no session write
        client.get(game_url)
