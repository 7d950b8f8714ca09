"""A player a live race's start could not deal a game to is marked (``unable``) rather than
holding the start up (issue 42).  Rolling-safe: the column has a database default."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('races', '0004_race_roster'),
    ]

    operations = [
        migrations.AddField(
            model_name='entry',
            name='unable',
            field=models.BooleanField(db_default=False, default=False, help_text="Could not be dealt a game at the live race's start: too many games in progress."),
        ),
    ]
