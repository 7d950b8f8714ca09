"""BoardEntry and Player, made by the games app (migrations 0007, 0008), become the records'.

State only: the tables ``games_boardentry`` and ``games_player`` stay as they are, rows and
all; games/migrations/0010 removed the models from the games app's picture first.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from addiction_site.moved_models import content_types_moved


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0010_records_and_daily_move_to_their_apps"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "hidden_from_boards",
                            models.BooleanField(
                                default=False,
                                help_text=(
                                    "Staff hid this player from every board; clearing it brings the entries back."
                                ),
                            ),
                        ),
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="player",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={"db_table": "games_player"},
                ),
                migrations.CreateModel(
                    name="BoardEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "board",
                            models.CharField(choices=[("time", "Best time"), ("moves", "Fewest moves")], max_length=5),
                        ),
                        ("scope", models.CharField(max_length=32)),
                        ("first", models.BigIntegerField(help_text="The board's figure: milliseconds, or moves.")),
                        ("second", models.BigIntegerField(help_text="The other figure, which breaks ties.")),
                        ("finished_at", models.DateTimeField()),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="board_entries",
                                to="games.game",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="board_entries",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_boardentry",
                        "indexes": [
                            models.Index(
                                fields=["board", "scope", "first", "second", "finished_at"], name="board_entry_rank"
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("user", "board", "scope"), name="board_entry_one_per_player"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(
            content_types_moved("games", "records", "boardentry", "player"), migrations.RunPython.noop
        ),
    ]
