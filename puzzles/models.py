"""The puzzles kept (issue 47): each a position where a win without another shuffle exists and a
choice matters, as puzzles/build.py finds and grades it, with its Glicko-2 rating
(puzzles/glicko.py; 1500 ± 350 until players try it).  Where it came from: a fresh deal's win
(``game`` empty) or, later, a finished game's slip (never the player's name)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import variant_field


class Puzzle(models.Model):
    variant = variant_field(_("The game of the family the puzzle's table is from."))
    deal_number = models.BigIntegerField()
    step = models.PositiveIntegerField()  # the moves into the deal's winning line where the position stands
    position = models.CharField(max_length=400)  # the engine's notation (games/engine.py, Position.parse)
    line = models.TextField()  # the winning line, moves in the engine's notation separated by spaces
    nodes = models.PositiveIntegerField()  # positions the solver searched for the line
    first_moves = models.PositiveSmallIntegerField()
    keepers = models.PositiveSmallIntegerField()  # first moves that keep the win
    grade = models.FloatField()  # puzzles.build.Puzzle.difficulty, before any player has tried it
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["variant", "position"], name="puzzle_position_unique")]

    def __str__(self) -> str:
        return f"puzzle {self.pk}: {self.variant} deal {self.deal_number}, step {self.step}"
