"""games/sessions.py: Django's database sessions, read with a plain SELECT."""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.sessions import SessionStore


def test_the_site_uses_it():
    assert settings.SESSION_ENGINE == "games.sessions"


def test_a_saved_session_reads_back(db):
    store = SessionStore()
    store["a_key"] = "a-token"
    store.save()
    again = SessionStore(store.session_key)
    assert again["a_key"] == "a-token"
    assert again.session_key == store.session_key


def test_an_expired_session_reads_empty_and_its_key_is_dropped(db):
    store = SessionStore()
    store["a_key"] = "a-token"
    store.save()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    again = SessionStore(store.session_key)
    assert again.get("a_key") is None
    assert again.session_key is None


def test_an_unknown_key_reads_empty(db):
    store = SessionStore("x" * 32)
    assert dict(store.items()) == {} and store.session_key is None


def test_tampered_data_reads_empty(db):
    store = SessionStore()
    store["a_key"] = "a-token"
    store.save()
    Session.objects.filter(session_key=store.session_key).update(session_data="not-signed:data")
    assert SessionStore(store.session_key).get("a_key") is None


def test_a_decoded_session_is_a_copy_each_time(db):
    store = SessionStore()
    store["a_key"] = "a-token"
    store["nested"] = {"list": [1, 2]}
    store.save()
    first = SessionStore(store.session_key)
    first["nested"]["list"].append(3)  # changed in memory, never saved
    first["a_key"] = "changed"
    again = SessionStore(store.session_key)
    assert again["nested"] == {"list": [1, 2]} and again["a_key"] == "a-token"


def test_a_changed_session_decodes_anew(db):
    store = SessionStore()
    store["a_key"] = "a-token"
    store.save()
    assert SessionStore(store.session_key)["a_key"] == "a-token"
    store["a_key"] = "another"
    store.save()
    assert SessionStore(store.session_key)["a_key"] == "another"


def test_the_migration_moves_sessions_of_djangos_model_backend_to_ours(client, db):
    """Sessions signed in before games.auth.ModelBackend stay signed in (migration 0003)."""
    from django.apps import apps
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
    from django.contrib.auth import SESSION_KEY as USER_KEY
    from django.contrib.auth.models import User

    migration = import_module("games.migrations.0003_sessions_of_the_games_auth_backend")
    user = User.objects.create_user("ada", password="lantern-orchard-plum-3")
    store = SessionStore()
    store.update({USER_KEY: str(user.pk), BACKEND_SESSION_KEY: migration.OLD,
                  HASH_SESSION_KEY: user.get_session_auth_hash()})
    store.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
    assert not client.get("/my-games/").context["user"].is_authenticated  # no longer a listed backend
    migration.forwards(apps, None)
    assert SessionStore(store.session_key)[BACKEND_SESSION_KEY] == migration.NEW
    assert client.get("/my-games/").context["user"] == user
    migration.backwards(apps, None)
    assert SessionStore(store.session_key)[BACKEND_SESSION_KEY] == migration.OLD
