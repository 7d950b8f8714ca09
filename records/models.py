"""What the records keep: each player's best ranked wins on the boards, and moderation flags."""

import math

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game, variant_field


class BoardEntry(models.Model):
    """A player's best ranked win on one board, kept up to date as games are won.

    One row per (player, board, scope): the scope is ``all``, a week (``week:2026-W48``),
    a day (``day:2026-11-29``) or a deal (``deal:12345``), of Addiction; another variant's
    scopes carry its key before them (``montana/all``, records/scopes.py).  Keeping the best per player
    here makes every board page a single indexed range scan, however many games exist.
    """

    class Board(models.TextChoices):
        TIME = "time", _("Best time")
        MOVES = "moves", _("Fewest moves")

        @classmethod
        def named(cls, name: str | None) -> "BoardEntry.Board":
            """The board a page's ``?board=`` names; Best time for anything else."""
            return cls(name) if name in cls.values else cls.TIME

    # No index of its own: the unique (user, board, scope) below begins with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="board_entries", db_index=False
    )
    board = models.CharField(max_length=5, choices=Board.choices)
    scope = models.CharField(max_length=48)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="board_entries")
    first = models.BigIntegerField(help_text=_("The board's figure: milliseconds, or moves."))
    second = models.BigIntegerField(help_text=_("The other figure, which breaks ties."))
    finished_at = models.DateTimeField()
    shown = models.BooleanField(
        default=True,
        db_default=True,  # an app server still on the code before it inserts entries without it
        help_text=_("Whether the boards show it: its player is active and not hidden by staff."),
    )

    ORDER = ("first", "second", "finished_at", "id")
    """How a board ranks its entries, best first, decided here once: its figure, then the other
    figure, then who finished first, then who entered first.  A board's page, a rank and a new
    best all read it (records/selectors.py, records/services.py)."""

    def ranks_before(self, other: "BoardEntry") -> bool:
        """Whether this entry stands above ``other`` on their board, by ORDER; an entry not saved
        yet has no id and comes last among equals, so it never passes one with the same figures
        and finishing time."""
        return self._order_key() < other._order_key()

    def _order_key(self) -> tuple:
        return tuple(getattr(self, field) if field != "id" or self.id is not None else math.inf for field in self.ORDER)

    class Meta:
        db_table = "games_boardentry"  # made by the games app before the split: the table keeps its name
        constraints = [models.UniqueConstraint(fields=["user", "board", "scope"], name="board_entry_one_per_player")]
        # A board's page, a rank and a cursor read one range of this index, in ORDER, and
        # only the entries the boards show: no join to the users for the moderation flags.
        indexes = [
            models.Index(
                fields=["board", "scope", "first", "second", "finished_at", "id"],
                name="board_entry_shown_rank",
                condition=models.Q(shown=True),
            ),
            # The boards' index before ``shown``: the app servers still on that code read it
            # during a rolling deploy (docs/OPERATIONS.md); dropped in a later release.
            models.Index(fields=["board", "scope", "first", "second", "finished_at"], name="board_entry_rank"),
        ]

    def __str__(self) -> str:
        return f"{self.board}/{self.scope}: {self.user_id} {self.first}/{self.second}"


class Player(models.Model):
    """What the site keeps about an account besides Django's user: moderation flags."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    hidden_from_boards = models.BooleanField(
        default=False, help_text=_("Staff hid this player from every board; clearing it brings the entries back.")
    )
    guests_claimed = models.PositiveIntegerField(
        default=0,
        help_text=_(
            "How many guests' games came into this account as it signed up or logged in: "
            "a fresh guest per deal shows here."
        ),
    )

    class Meta:
        db_table = "games_player"  # made by the games app before the split

    def __str__(self) -> str:
        return f"Player {self.user_id}"


class HeldWin(Game):
    """The moderators' queue (records/admin.py): games whose win was played faster than a
    person plays, and their review (docs/RULES.md, "Human pace")."""

    class Meta:
        proxy = True
        verbose_name = _("win held for review")
        verbose_name_plural = _("wins held for review")


class Redraw(models.Model):
    """A draw given up, counted on an account's record (docs/RULES.md, "Review before the
    top"): a game dealt to another guest from the same address and browser, in the day before
    the account claimed a guest's win, and not won.  Drawing deals with fresh guests and
    claiming only the winner's then costs what losing them would: each counts as played."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="redraws")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="redraw")
    counted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("draw given up")
        verbose_name_plural = _("draws given up")

    def __str__(self) -> str:
        return f"Redraw of game {self.game_id} on {self.user_id}"


class PlayerRecord(models.Model):
    """A player's record in one variant, kept as their games end (records/services.py,
    ``record_game_over``), so that a profile reads one row instead of every game: the games
    finished and won, apart from the assisted ones, and the runs of wins.  Folded in the order
    the games finished (``through``); a game that ends out of that order, or games claimed
    from a guest, make it again from the games (``record_rebuild``), which gives the same row."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="records", db_index=False)
    variant = variant_field(_("The game of the family this record counts."))
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    assisted_played = models.PositiveIntegerField(default=0)
    assisted_won = models.PositiveIntegerField(default=0)
    current_streak = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)
    through_at = models.DateTimeField(null=True, help_text=_("When the last game folded in finished."))
    through_game = models.BigIntegerField(default=0, help_text=_("The last game folded in (ties on the time)."))

    FOLDED = ("played", "won", "assisted_played", "assisted_won", "current_streak", "best_streak")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "variant"], name="player_record_one_per_variant")]

    def __str__(self) -> str:
        return f"Record of {self.user_id} in {self.variant}: {self.won}/{self.played}"
