"""What the daily deal keeps: one secret seed per UTC day."""

from django.db import models


class DailySeed(models.Model):
    """The secret seed of one UTC day's daily deal: every daily game of that day shuffles
    from it, so the same position shuffled after the same number of shuffles deals alike
    for everyone.  Its SHA-256 is shown from the start of the day; the seed the day after."""

    day = models.DateField(unique=True)
    seed = models.CharField(max_length=40)
    seed_sha256 = models.CharField(max_length=64)

    class Meta:
        db_table = "games_dailyseed"  # made by the games app before the split

    def __str__(self) -> str:
        return f"Daily {self.day.isoformat()}"
