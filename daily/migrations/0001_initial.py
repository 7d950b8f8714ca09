"""DailySeed, made by the games app (migration 0008), becomes the daily app's.

State only: the table ``games_dailyseed`` stays as it is, rows and all; games/migrations/0010
removed the model from the games app's picture first.
"""

from django.db import migrations, models

from addiction_site.moved_models import content_types_moved


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0010_records_and_daily_move_to_their_apps"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DailySeed",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("day", models.DateField(unique=True)),
                        ("seed", models.CharField(max_length=40)),
                        ("seed_sha256", models.CharField(max_length=64)),
                    ],
                    options={"db_table": "games_dailyseed"},
                )
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_moved("games", "daily", "dailyseed"), migrations.RunPython.noop),
    ]
