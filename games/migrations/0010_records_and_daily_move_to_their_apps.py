"""BoardEntry and Player move to the records app, DailySeed to the daily app (issue #24).

Only Django's picture of the models changes: the tables keep their names (each model says
its ``db_table``), so no row is touched.  The apps that take them over create them the same
way, state only, in records/migrations/0001 and daily/migrations/0001, which run after this.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_redo_top_in_the_log"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="BoardEntry"),
                migrations.DeleteModel(name="Player"),
                migrations.DeleteModel(name="DailySeed"),
            ],
            database_operations=[],
        ),
    ]
