"""A race game's pace (issue 42): whether it ended faster than a person plays is kept on its
entry (``too_fast``), read once as it ends.  Rolling-safe: the column has a database default.
The race games already over are judged here by the same rule as from now on (games/pace.py),
so that a race won before this release at a pace no person plays ranks as one won after it."""

from django.db import migrations, models

from games import pace


def judge_finished_games(apps, schema_editor):
    Entry = apps.get_model("races", "Entry")
    Action = apps.get_model("games", "Action")
    finished = Entry.objects.filter(game__isnull=False).exclude(game__status="playing")
    for entry in finished.only("pk", "game_id").iterator(chunk_size=500):
        log = Action.objects.filter(game_id=entry.game_id).order_by("number").values_list("kind", "elapsed_ms")
        if not pace.pace_of(log.iterator(chunk_size=2000)).human:
            Entry.objects.filter(pk=entry.pk).update(too_fast=True)


class Migration(migrations.Migration):

    dependencies = [
        ('races', '0002_race_variant'),
        ('games', '0016_race_games'),
    ]

    operations = [
        migrations.AddField(
            model_name='entry',
            name='too_fast',
            field=models.BooleanField(db_default=False, default=False, help_text='Its game ended at a pace no person plays (docs/RULES.md, "Human pace"): it ranks after the games at a person\'s pace.'),
        ),
        migrations.RunPython(judge_finished_games, migrations.RunPython.noop),
    ]
