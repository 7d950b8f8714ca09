"""The cap on a game's shuffles, generated from the engine's variants (games.models,
``shuffles_of_its_variant``) where two checks spelled it by hand (issue 41): each variant's
shuffles used at most its own.  The rows allowed are the same (every variant is one the engine
has), so the new check is added before the two old ones go, and code of either release writes
only rows both accept: safe under a rolling deploy (tests/migration/test_rolling_safe.py)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_dealt_ahead'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('shuffles_used__lte', 3), ('variant', 'addiction')), models.Q(('shuffles_used__lte', 2), ('variant', 'montana')), models.Q(('shuffles_used__lte', 2), ('variant', 'spaces')), models.Q(('shuffles_used__lte', 2), ('variant', 'blue-moon')), models.Q(('shuffles_used__lte', 2), ('variant', 'red-moon')), _connector='OR'), name='game_shuffles_within_its_variant'),
        ),
        migrations.RemoveConstraint(
            model_name='game',
            name='game_shuffles_at_most_3',
        ),
        migrations.RemoveConstraint(
            model_name='game',
            name='game_shuffles_of_its_variant',
        ),
    ]
