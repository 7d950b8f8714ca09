"""games/sessions.py: Django's database sessions, read with a plain SELECT."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.sessions import SessionStore


def test_the_site_uses_it():
    assert settings.SESSION_ENGINE == "games.sessions"


def test_a_saved_session_reads_back(db):
    store = SessionStore()
    store["addiction_guest"] = "a-token"
    store.save()
    again = SessionStore(store.session_key)
    assert again["addiction_guest"] == "a-token"
    assert again.session_key == store.session_key


def test_an_expired_session_reads_empty_and_its_key_is_dropped(db):
    store = SessionStore()
    store["addiction_guest"] = "a-token"
    store.save()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    again = SessionStore(store.session_key)
    assert again.get("addiction_guest") is None
    assert again.session_key is None


def test_an_unknown_key_reads_empty(db):
    store = SessionStore("x" * 32)
    assert dict(store.items()) == {} and store.session_key is None


def test_tampered_data_reads_empty(db):
    store = SessionStore()
    store["addiction_guest"] = "a-token"
    store.save()
    Session.objects.filter(session_key=store.session_key).update(session_data="not-signed:data")
    assert SessionStore(store.session_key).get("addiction_guest") is None


def test_a_decoded_session_is_a_copy_each_time(db):
    store = SessionStore()
    store["addiction_guest"] = "a-token"
    store["nested"] = {"list": [1, 2]}
    store.save()
    first = SessionStore(store.session_key)
    first["nested"]["list"].append(3)  # changed in memory, never saved
    first["addiction_guest"] = "changed"
    again = SessionStore(store.session_key)
    assert again["nested"] == {"list": [1, 2]} and again["addiction_guest"] == "a-token"


def test_a_changed_session_decodes_anew(db):
    store = SessionStore()
    store["addiction_guest"] = "a-token"
    store.save()
    assert SessionStore(store.session_key)["addiction_guest"] == "a-token"
    store["addiction_guest"] = "another"
    store.save()
    assert SessionStore(store.session_key)["addiction_guest"] == "another"
