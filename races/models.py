"""Races (docs/RULES.md, "Races"): players on the same deal with the same luck, live or as a
challenge open for a while, each in a game of their own."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Game, variant_field

MAX_PLAYERS = 8


class Race(models.Model):
    class Mode(models.TextChoices):
        LIVE = "live", _("live")
        CHALLENGE = "challenge", _("challenge")

    class State(models.TextChoices):
        OPEN = "open", _("open")  # players join; a challenge's players also play
        RUNNING = "running", _("running")  # a live race, started: its games are on
        CLOSED = "closed", _("closed")  # results final, seed and tables shown

    code = models.CharField(max_length=16, unique=True, help_text=_("The race's name in its link."))
    host = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    host_guest_token = models.CharField(max_length=64, blank=True)
    variant = variant_field(_("The game of the family every player of the race plays."))
    deal_number = models.BigIntegerField()
    seed = models.CharField(max_length=40, help_text=_("The race's secret shuffle seed, every game's."))
    seed_sha256 = models.CharField(max_length=64)
    mode = models.CharField(max_length=10, choices=Mode.choices)
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True, help_text=_("A live race: when every clock started."))
    closes_at = models.DateTimeField(null=True, blank=True, help_text=_("When the race closes at the latest."))
    closed_at = models.DateTimeField(null=True, blank=True)
    roster = models.PositiveIntegerField(
        default=0,
        db_default=0,
        help_text=_("How many times its players changed (a join, a removal): orders two snapshots of the race."),
    )

    def __str__(self) -> str:
        return f"race {self.code} ({self.mode}, deal #{self.deal_number})"

    @property
    def is_closed(self) -> bool:
        return self.state == self.State.CLOSED

    @property
    def deal_public(self) -> bool:
        """Whether anyone may see the race's deal: once a live race has started, or once the
        race has closed (docs/RULES.md, "Races").  A challenge's player sees it before that,
        from when their own game is dealt (:meth:`deal_shown_to`)."""
        return self.is_closed or (self.mode == self.Mode.LIVE and self.state == self.State.RUNNING)

    def deal_shown_to(self, entry: "Entry | None") -> bool:
        """Whether the player of ``entry`` (None: a visitor who has not joined) may see the deal."""
        return self.deal_public or (entry is not None and entry.game_id is not None)


class Entry(models.Model):
    """A player in a race, under the name they chose for it, and their game once it is dealt."""

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(max_length=24)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    guest_token = models.CharField(max_length=64, blank=True)
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="race_entry")
    joined_at = models.DateTimeField(auto_now_add=True)
    too_fast = models.BooleanField(
        default=False,
        db_default=False,
        help_text=_(
            'Its game ended at a pace no person plays (docs/RULES.md, "Human pace"): it ranks after the '
            "games at a person's pace."
        ),
    )
    unable = models.BooleanField(
        default=False,
        db_default=False,
        help_text=_("Could not be dealt a game at the live race's start: too many games in progress."),
    )

    class Meta:
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["race", "name"], name="race_entry_name"),
            models.UniqueConstraint(fields=["race", "user"], condition=Q(user__isnull=False), name="race_entry_user"),
            models.UniqueConstraint(
                fields=["race", "guest_token"], condition=~Q(guest_token=""), name="race_entry_guest"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.race.code}"
