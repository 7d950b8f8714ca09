"""A game dealt to start later says so (``Game.dealt_ahead``) rather than being told by its
origin (issue 41).  Rolling-safe: the column has a database default, so a server still on the
code before writes rows the new code reads right; and the live races' games dealt by that
code and still counting down (a race's game, not played, whose clock starts after it was made)
are marked here, so that none shows its table early once the new code serves it."""

from django.db import migrations, models
from django.db.models import F


def mark_games_counting_down(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(origin="race", version=0, started_at__gt=F("created_at")).update(dealt_ahead=True)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_shuffles_of_its_variant'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='dealt_ahead',
            field=models.BooleanField(db_default=False, default=False, help_text="Dealt to start later, at its start time (a live race's game): until then its table is hidden and it takes no action."),
        ),
        migrations.RunPython(mark_games_counting_down, migrations.RunPython.noop),
    ]
