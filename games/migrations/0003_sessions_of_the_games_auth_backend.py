"""Sessions signed in through Django's ModelBackend were made to name
games.auth.ModelBackend, a subclass the site used for a while (0004 renames them back)."""

from django.db import migrations

from games.migrations._session_backends import rename_backend

OLD = "django.contrib.auth.backends.ModelBackend"
NEW = "games.auth.ModelBackend"


def forwards(apps, schema_editor):
    rename_backend(apps, OLD, NEW)


def backwards(apps, schema_editor):
    rename_backend(apps, NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [("games", "0002_drop_redundant_indexes"), ("sessions", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
