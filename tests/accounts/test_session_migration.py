"""Migration 0004: players signed in while the site had its own authentication backend stay
signed in now that it uses Django's ModelBackend again.

Django trusts a session only while the backend it names is in AUTHENTICATION_BACKENDS, so a
session written the old way (``_auth_user_backend`` = "games.auth.ModelBackend") signs
nobody in until the migration renames its backend.
"""

from importlib import import_module

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY
from django.contrib.auth import SESSION_KEY as USER_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore

from addiction_site.ownership import LEGACY_SESSION_KEY

pytestmark = pytest.mark.django_db

migration = import_module("games.migrations.0004_sessions_of_djangos_model_backend")
OLD_BACKEND = "games.auth.ModelBackend"


def signed_in_the_old_way(client, user: User) -> SessionStore:
    """A session that names the removed backend, as migration 0003 left them; ``client`` holds it."""
    session = SessionStore()
    session.update(
        {USER_KEY: str(user.pk), BACKEND_SESSION_KEY: OLD_BACKEND, HASH_SESSION_KEY: user.get_session_auth_hash()}
    )
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    return session


def who(client):
    """The user the site takes ``client`` for."""
    return client.get("/my-games/").context["user"]


def stored(session: SessionStore) -> dict:
    return SessionStore(session.session_key).load()


def test_a_session_of_the_old_backend_signs_in_again_after_the_migration(client):
    ada = User.objects.create_user("ada", password="lantern-orchard-plum-3")
    session = signed_in_the_old_way(client, ada)
    assert not who(client).is_authenticated  # a backend no longer listed is not trusted

    migration.forwards(apps, None)
    assert stored(session)[BACKEND_SESSION_KEY] == "django.contrib.auth.backends.ModelBackend"
    assert who(client) == ada

    migration.backwards(apps, None)
    assert stored(session)[BACKEND_SESSION_KEY] == OLD_BACKEND
    assert not who(client).is_authenticated


def test_the_migration_changes_nothing_else_in_any_session(client):
    ada = User.objects.create_user("ada", password="lantern-orchard-plum-3")
    signed_in = signed_in_the_old_way(client, ada)
    guest = SessionStore()  # a guest's session from before the guest cookie
    guest[LEGACY_SESSION_KEY] = "t" * 32
    guest.save()
    before = {"signed in": stored(signed_in), "guest": stored(guest)}

    migration.forwards(apps, None)
    after = {"signed in": stored(signed_in), "guest": stored(guest)}
    assert after["guest"] == before["guest"]
    assert {**after["signed in"], BACKEND_SESSION_KEY: OLD_BACKEND} == before["signed in"]

    migration.backwards(apps, None)
    assert {"signed in": stored(signed_in), "guest": stored(guest)} == before
