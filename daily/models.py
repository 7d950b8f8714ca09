"""What the daily deal keeps: one secret seed per UTC day."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import BackgroundWork, Game


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


class SolverDaily(BackgroundWork):
    """How the solver played a day's daily deal with that day's seed, following its own hints
    as a player would (solver.follow_hints), once the seed is revealed: played once, in the
    background (daily/tasks.py), for players to compare with."""

    day = models.DateField(primary_key=True)
    won = models.BooleanField(default=False)
    moves = models.PositiveIntegerField(default=0)
    shuffles_used = models.PositiveSmallIntegerField(default=0)

    class Meta(BackgroundWork.Meta):
        verbose_name = _("the solver's daily game")

    def __str__(self) -> str:
        return f"the solver's daily {self.day.isoformat()}: {self.state}"


class PlayerSeed(models.Model):
    """What a player's daily game shuffles from, kept for its verification (docs/RULES.md, "The
    daily deal"): the key of its player that, with the day's seed, made its own seed
    (daily/deals.py, ``player_seed``).  An account's key is ``user:<id>``; a guest's is
    ``guest:`` and the start of the SHA-256 of its token, which names no token."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="player_seed")
    day = models.DateField()
    player_key = models.CharField(max_length=48)

    class Meta:
        verbose_name = _("daily player seed")

    def __str__(self) -> str:
        return f"{self.player_key} on {self.day.isoformat()}"
