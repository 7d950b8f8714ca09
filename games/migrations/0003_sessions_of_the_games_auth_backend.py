"""Sessions signed in through Django's ModelBackend now name games.auth.ModelBackend, its
subclass that reads the user with a plain SELECT (games/auth.py).  Django trusts only a
session whose backend is still listed in AUTHENTICATION_BACKENDS: without this, every
player signed in before the change would find themselves signed out."""

from django.db import migrations

OLD = "django.contrib.auth.backends.ModelBackend"
NEW = "games.auth.ModelBackend"


def _rename(apps, before: str, after: str) -> None:
    from django.contrib.sessions.backends.db import SessionStore  # only its encoding is used

    codec = SessionStore()
    for session in apps.get_model("sessions", "Session").objects.iterator():
        data = codec.decode(session.session_data)
        if data.get("_auth_user_backend") == before:
            data["_auth_user_backend"] = after
            session.session_data = codec.encode(data)
            session.save(update_fields=["session_data"])


def forwards(apps, schema_editor):
    _rename(apps, OLD, NEW)


def backwards(apps, schema_editor):
    _rename(apps, NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [("games", "0002_drop_redundant_indexes"), ("sessions", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
