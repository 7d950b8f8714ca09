"""The puzzles kept (issue 47): each a position where a win without another shuffle exists and a
choice matters, as puzzles/build.py finds and grades it, with its Glicko-2 rating
(puzzles/glicko.py; 1500 ± 350 until players try it).  Where it came from: a fresh deal's win
(``game`` empty) or, later, a finished game's slip (never the player's name)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import engine
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
    decisions = models.PositiveSmallIntegerField(
        default=1, db_default=1
    )  # positions on the line where a move loses the win
    to_settle = models.PositiveSmallIntegerField(default=1, db_default=1)  # moves of the line until every line wins
    grade = models.FloatField()  # puzzles.build.Puzzle.difficulty, before any player has tried it
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    from_game = models.BooleanField(default=False, db_default=False)  # a real game's slip, not a fresh deal's
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["variant", "position"], name="puzzle_position_unique")]
        indexes = [models.Index(fields=["variant", "rating"], name="puzzle_variant_rating")]

    def __str__(self) -> str:
        return f"puzzle {self.pk}: {self.variant} deal {self.deal_number}, step {self.step}"


def _one_kind_of_owner(name: str) -> models.CheckConstraint:
    """A row is an account's or a guest's, never both (as a game is: addiction_site/ownership.py)."""
    return models.CheckConstraint(condition=Q(owner__isnull=True) | Q(guest_token=""), name=name)


class Solver(models.Model):
    """A player's puzzle rating (docs/RULES.md, "Puzzles"): an account's, or a guest's by their
    token until they sign up; Glicko-2 (puzzles/glicko.py), 1500 ± 350 at first."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="puzzle_rating"
    )
    guest_token = models.CharField(max_length=64, blank=True, default="")
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    solved = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            _one_kind_of_owner("puzzle_solver_one_kind_of_owner"),
            models.UniqueConstraint(fields=["guest_token"], condition=~Q(guest_token=""), name="puzzle_solver_guest"),
        ]

    def __str__(self) -> str:
        return f"puzzle rating {self.rating:.0f} ± {self.deviation:.0f}"


PLAYING_REGULAR = Q(status="playing", daily__isnull=True)  # an attempt under way at a puzzle not a day's


class Attempt(models.Model):
    """One player's try at one puzzle: the position as it stands, the moves played, and how it
    ended (docs/RULES.md, "Puzzles"): solved, or failed at the move that lost the win, with a
    move that kept it.  Only a player's first attempt at a puzzle moves the ratings."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        SOLVED = "solved", _("solved")
        FAILED = "failed", _("failed")

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    guest_token = models.CharField(max_length=64, blank=True, default="", db_index=True)
    position = models.CharField(max_length=400)  # as it stands now
    played = models.TextField(blank=True, default="")  # the moves played, in the engine's notation
    moves = models.PositiveIntegerField(default=0)
    rest = models.PositiveSmallIntegerField(default=0)  # moves played for the player once every line won
    version = models.PositiveIntegerField(default=0)  # one more with every move: a stale page is told apart
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    slip = models.CharField(max_length=16, blank=True, default="")  # the move that lost the win
    kept = models.CharField(max_length=16, blank=True, default="")  # a move that would have kept it
    proof_nodes = models.PositiveIntegerField(null=True, blank=True)  # positions the proof of the loss searched
    rated = models.BooleanField(default=False)  # the player's first attempt at this puzzle
    rating_after = models.FloatField(null=True, blank=True)  # the player's rating once it ended, if rated
    daily = models.DateField(null=True, blank=True)  # the day whose daily puzzle it plays
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            _one_kind_of_owner("puzzle_attempt_one_kind_of_owner"),
            # One attempt a day at the day's puzzle, and one other puzzle at a time, whatever two
            # requests at once (a double click) try.
            models.UniqueConstraint(
                fields=["owner", "daily"],
                condition=Q(owner__isnull=False, daily__isnull=False),
                name="puzzle_daily_once",
            ),
            models.UniqueConstraint(
                fields=["guest_token", "daily"],
                condition=~Q(guest_token="") & Q(daily__isnull=False),
                name="puzzle_daily_once_guest",
            ),
            models.UniqueConstraint(
                fields=["owner"], condition=Q(owner__isnull=False) & PLAYING_REGULAR, name="puzzle_one_at_a_time"
            ),
            models.UniqueConstraint(
                fields=["guest_token"],
                condition=~Q(guest_token="") & PLAYING_REGULAR,
                name="puzzle_one_at_a_time_guest",
            ),
        ]
        indexes = [models.Index(fields=["owner", "finished_at"], name="puzzle_attempt_owner_finished")]

    def __str__(self) -> str:
        return f"attempt {self.pk} at puzzle {self.puzzle_id} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING

    @property
    def rules(self) -> engine.Variant:
        """The engine's variant of its table (what games/_grid.html reads of a game, as ``cols``)."""
        return engine.variant_of(self.puzzle.variant)

    @property
    def cols(self) -> int:
        return self.rules.cols


class DailyPuzzle(models.Model):
    """The puzzle of a UTC day, the same for everyone (docs/RULES.md, "Puzzles"): chosen the
    first time the day's is asked for, and kept."""

    day = models.DateField(unique=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="days")

    def __str__(self) -> str:
        return f"daily puzzle of {self.day}"


class Mined(models.Model):
    """A finished game the supply has read for puzzles (puzzles/services.py, puzzles_mine): read
    once, whatever it gave.  The puzzles themselves never point back at it."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="+")
    found = models.PositiveSmallIntegerField(default=0)
