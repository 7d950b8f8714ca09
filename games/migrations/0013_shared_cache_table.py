"""The table of Django's database cache (settings.CACHES["default"] without REDIS_URL), where
the rate limits count and finished games' replays are kept: made here so that `migrate`
alone sets a site up.  createcachetable makes only the tables missing, and none for Redis."""

from django.core.management import call_command
from django.db import migrations


def make_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("games", "0012_review_of_machine_pace")]

    operations = [migrations.RunPython(make_cache_table, migrations.RunPython.noop, elidable=True)]
