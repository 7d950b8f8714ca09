"""Sessions signed in through games.auth.ModelBackend (migration 0003) name Django's own
ModelBackend again, now that the site uses it as shipped.  Django trusts only a session
whose backend is still listed in AUTHENTICATION_BACKENDS: without this, every player
signed in before the change would find themselves signed out."""

from django.db import migrations

from games.migrations._session_backends import rename_backend

OURS = "games.auth.ModelBackend"
DJANGOS = "django.contrib.auth.backends.ModelBackend"


def forwards(apps, schema_editor):
    rename_backend(apps, OURS, DJANGOS)


def backwards(apps, schema_editor):
    rename_backend(apps, DJANGOS, OURS)


class Migration(migrations.Migration):
    dependencies = [("games", "0003_sessions_of_the_games_auth_backend")]
    operations = [migrations.RunPython(forwards, backwards)]
