"""A race counts the changes to its players (``roster``: a join, a removal), which orders two
snapshots of it now that a removal leaves fewer rows (issue 42).  Rolling-safe: the column has
a database default."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('races', '0003_entry_too_fast'),
    ]

    operations = [
        migrations.AddField(
            model_name='race',
            name='roster',
            field=models.PositiveIntegerField(db_default=0, default=0, help_text='How many times its players changed (a join, a removal): orders two snapshots of the race.'),
        ),
    ]
