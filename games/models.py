"""What the server keeps of each game: its current state, and the log that replays to it."""

import operator
from datetime import UTC, date, datetime, time, timedelta
from functools import reduce

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine

STATUS_WORDS = {engine.Status.PLAYING: _("playing"), engine.Status.WON: _("won"), engine.Status.LOST: _("lost")}


class VariantChoices(models.TextChoices):
    """What the site says of a game of the family; its members come from the engine."""

    @classmethod
    def named(cls, key: str | None) -> "VariantChoices":
        """The variant a page's ``?variant=`` names; the default one for anything else."""
        return cls(key) if key in cls.values else cls(engine.DEFAULT_VARIANT.key)

    @property
    def rules(self) -> engine.Variant:
        return engine.variant_of(self.value)


# The games of the family (docs/RULES.md, "The variants"), each by the key and with the name the
# engine gives it (engine.VARIANTS: the one place they are written), the name translated: the
# members are ADDICTION, MONTANA, SPACES, BLUE_MOON and RED_MOON.
Variant = VariantChoices(  # type: ignore[call-overload]
    "Variant", [(rules.key.upper().replace("-", "_"), (rules.key, _(rules.name))) for rules in engine.VARIANTS.values()]
)


def variant_field(help_text) -> models.CharField:
    """The column that says which variant a row plays (a game's, a race's): the default one
    unless told, and for every row from before the variants (the database's default)."""
    return models.CharField(
        max_length=10,
        choices=Variant.choices,
        default=engine.DEFAULT_VARIANT.key,
        db_default=engine.DEFAULT_VARIANT.key,
        help_text=help_text,
    )


def shuffles_of_its_variant() -> Q:
    """A game's shuffles used are at most its variant's (docs/RULES.md, "The variants"), for
    every variant the engine has: the database's check."""
    return reduce(
        operator.or_, (Q(variant=rules.key, shuffles_used__lte=rules.shuffles) for rules in engine.VARIANTS.values())
    )


def daily_closes_at(day: date) -> datetime:
    """When a day's ranked daily games stop counting: the end of the UTC day (docs/RULES.md,
    "The daily deal"); actions after it play on as practice."""
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC)


def daily_revealed_at(day: date) -> datetime:
    """When a day's seed (and with it that day's replays) may be shown: the end of the day plus
    ``ADDICTION_DAILY_REVEAL_GRACE_SECONDS``, which outlasts any action of a ranked game sent
    as the day ended."""
    return daily_closes_at(day) + timedelta(seconds=settings.ADDICTION_DAILY_REVEAL_GRACE_SECONDS)


def daily_revealed(day: date, now: datetime | None = None) -> bool:
    """Whether a day's seed may be shown at ``now`` (:func:`daily_revealed_at`)."""
    return (now or timezone.now()) >= daily_revealed_at(day)


class Game(models.Model):
    """One game of one deal, owned by an account or by a guest (a token in their browser's cookie).

    The columns hold the engine's :class:`~games.engine.GameState` (see ``state()``), plus
    ownership, time and a version that goes up with every action, so that a page rendered
    from an older version can be told apart from the current one.

    The moves that undo can take back are not copied into the row (a game may have
    thousands): ``undo_top`` names the logged action whose move undo takes back next, and
    each logged action keeps the ``undo_top`` that followed it, so an undo reads two log
    rows whatever the game's length.
    """

    Variant = Variant

    class Status(models.TextChoices):
        """The engine's statuses (engine.Status), with the words the admin shows."""

        PLAYING = engine.Status.PLAYING.value, _("playing")
        WON = engine.Status.WON.value, _("won")
        LOST = engine.Status.LOST.value, _("lost")

    class Origin(models.TextChoices):
        """How a game began, which decides the boards its win can enter (docs/RULES.md, "Leaderboards")."""

        RANDOM = "random", _("random deal")
        CHOSEN = "chosen", _("chosen deal")
        DAILY = "daily", _("daily deal")
        PRACTICE = "practice", _("daily deal, practice")
        RACE = "race", _("race")

    class Review(models.TextChoices):
        """A win's standing with the moderators (docs/RULES.md, "Human pace")."""

        NONE = "", _("not reviewed")
        HELD = "held", _("held for review")
        PENDING = "pending", _("pending review")
        CLEARED = "cleared", _("cleared by its evidence")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected: not ranked")

    VERDICTS = [
        ("won", _("could have been won")),
        ("proved_lost", _("no win was possible")),
        ("unknown", _("not decided within the search budget")),
    ]

    # No index of its own: the indexes below begin with it.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="games", db_index=False
    )
    guest_token = models.CharField(max_length=64, blank=True, db_index=True)
    variant = variant_field(_("The game of the family it plays: its table, its shuffles and its boards."))
    deal_number = models.BigIntegerField()
    seed = models.CharField(max_length=40, help_text=_("The secret shuffle seed, a decimal integer."))
    seed_sha256 = models.CharField(max_length=64)
    position = models.CharField(max_length=200)
    moves = models.PositiveIntegerField(default=0)
    shuffles_used = models.PositiveSmallIntegerField(default=0)
    undo_top = models.PositiveIntegerField(
        default=0, help_text=_("The number of the action whose move undo takes back next; 0 when there is none.")
    )
    redo_top = models.PositiveIntegerField(
        default=0, help_text=_("The number of the undo whose move redo plays again next; 0 when there is none.")
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    resigned = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=0)
    elapsed_ms = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When the clock started: when the game was dealt.")
    )
    last_action_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ranked = models.BooleanField(
        default=False, help_text=_("A win whose log replays to a won position; only these enter the boards.")
    )
    origin = models.CharField(max_length=8, choices=Origin.choices, default=Origin.CHOSEN)
    daily = models.DateField(null=True, blank=True, help_text=_("The day whose daily deal this game plays."))
    removed = models.BooleanField(
        default=False, help_text=_("Deleted by its player after an action: given up, off My games, kept on the record.")
    )
    assisted = models.BooleanField(default=False, help_text=_("A hint was shown in this game: it is never ranked."))
    review = models.CharField(
        max_length=8,
        blank=True,
        choices=Review.choices,
        default=Review.NONE,
        help_text=_(
            "A win played faster than a person plays is held, and one that would enter the first places of a "
            "board with evidence far from a person's play is pending: on no board until staff approve it."
        ),
    )
    hint = models.CharField(
        max_length=16,
        blank=True,
        help_text=_('The last hint: "R-C>R-C" (a card\'s slot to its gap), "shuffle" or "none".'),
    )
    hint_version = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("The version of the game the last hint was found for.")
    )
    verdict = models.CharField(
        max_length=12,
        blank=True,
        choices=VERDICTS,
        help_text=_("For a lost game: could the stretch from the last shuffle have been won?"),
    )
    verdict_line = models.TextField(blank=True, help_text=_("A winning line from the last shuffle, if one was found."))
    dealt_ahead = models.BooleanField(
        default=False,
        db_default=False,
        help_text=_(
            "Dealt to start later, at its start time (a live race's game): until then its table "
            "is hidden and it takes no action."
        ),
    )
    sealed = models.BooleanField(
        default=False,
        db_default=False,
        help_text=_("A race's game: its seed, shared by the race, stays secret until the race closes."),
    )
    address_key = models.CharField(
        max_length=32,
        blank=True,
        default="",
        db_default="",
        help_text=_("A keyed hash of the address the game was started from (never the address itself)."),
    )
    browser_key = models.CharField(
        max_length=32,
        blank=True,
        default="",
        db_default="",
        help_text=_("A keyed hash of the address and browser the game was started from."),
    )

    class Meta:
        ordering = ["-last_action_at", "-created_at"]
        indexes = [
            models.Index(fields=["owner", "status", "finished_at"], name="game_owner_status_finished"),
            models.Index(fields=["daily", "owner"], name="game_daily_owner", condition=Q(daily__isnull=False)),
            # A profile (records/selectors.py, profile_of): the ranked wins' best figures and the
            # latest for the chart (their figures carried in the index), the daily games' days,
            # and the lost games proved unwinnable, each read from the player's own range.
            models.Index(
                fields=["owner", "variant", "finished_at"],
                name="game_owner_ranked_wins",
                include=["elapsed_ms", "moves"],
                condition=Q(status="won", ranked=True),
            ),
            models.Index(fields=["owner", "daily"], name="game_owner_dailies", condition=Q(origin="daily")),
            models.Index(
                fields=["owner", "variant"],
                name="game_owner_proved_lost",
                condition=Q(status="lost", verdict="proved_lost"),
            ),
            # One place's games of a day: the evidence on a win, the redraws an account claims.
            models.Index(fields=["address_key", "created_at"], name="game_address_created"),
            models.Index(fields=["browser_key", "created_at"], name="game_browser_created"),
            # The moderators' queue: the held wins, oldest first.
            models.Index(fields=["finished_at"], name="game_held_for_review", condition=Q(review="held")),
            models.Index(fields=["finished_at"], name="game_pending_review", condition=Q(review="pending")),
        ]
        constraints = [
            models.CheckConstraint(condition=shuffles_of_its_variant(), name="game_shuffles_within_its_variant"),
            models.CheckConstraint(condition=Q(deal_number__gte=1), name="game_deal_number_positive"),
            models.CheckConstraint(condition=Q(elapsed_ms__gte=0), name="game_elapsed_not_negative"),
            # A game is an account's or a guest's, never both: a guest token alone finds a guest's games.
            models.CheckConstraint(condition=Q(owner__isnull=True) | Q(guest_token=""), name="game_one_kind_of_owner"),
            # A player's first daily game of a day is the ranked one; later ones are practice.
            models.UniqueConstraint(
                fields=["owner", "daily"],
                condition=Q(origin="daily", owner__isnull=False),
                name="game_one_ranked_daily_per_player",
            ),
            models.UniqueConstraint(
                fields=["guest_token", "daily"],
                condition=Q(origin="daily", owner__isnull=True),
                name="game_one_ranked_daily_per_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.variant} deal {self.deal_number}, {self.status})"

    @property
    def rules(self) -> engine.Variant:
        """The engine's variant this game plays."""
        return engine.variant_of(self.variant)

    @property
    def cols(self) -> int:
        """The width of its table: 13, or 14 where the aces stay."""
        return self.rules.cols

    # The game's rule questions are the engine's, asked of the columns that hold the answers.
    @property
    def is_over(self) -> bool:
        return engine.Status(self.status).over

    def starts_later(self, now) -> bool:
        """Whether the game was dealt to start later (``dealt_ahead``: a live race deals its
        games so, to start together, races/services.py) and its start time is still after
        ``now``: until then its table is not shown and it takes no action.  Any other game's
        clock starts as it is dealt, whatever the clocks of two servers say."""
        return self.dealt_ahead and self.version == 0 and self.started_at is not None and now < self.started_at

    @property
    def shuffles_left(self) -> int:
        return engine.shuffles_left(self.shuffles_used, self.variant)

    @property
    def tops(self) -> engine.Tops:
        return engine.Tops(self.undo_top, self.redo_top)

    @property
    def can_undo(self) -> bool:
        return self.tops.can_undo(engine.Status(self.status))

    @property
    def can_redo(self) -> bool:
        return self.tops.can_redo(engine.Status(self.status))

    @property
    def hint_now(self) -> engine.Hint | None:
        """The hint found for the game as it is now, or None if none was asked for."""
        return None if self.is_over else self.hint_at(self.version)

    def hint_at(self, version: int) -> engine.Hint | None:
        """The hint found for the game at ``version`` (the one kept is the latest asked for), or None."""
        return engine.Hint.parse(self.hint, self.cols) if self.hint and self.hint_version == version else None

    @property
    def seed_shown(self) -> bool:
        """Whether the seed may be shown: once the game is over, for a daily deal's game once
        its day's seed is revealed too (every ranked game of a day shares it), and for a
        race's game once the race has closed (races/services.py unseals its games)."""
        if not self.is_over or self.sealed:
            return False
        return self.daily is None or daily_revealed(self.daily)

    @property
    def seed_revealed_on(self):
        """The UTC day a daily game's seed is revealed (the day after its daily's), or None."""
        return self.daily + timedelta(days=1) if self.daily else None

    @property
    def out_of_actions(self) -> bool:
        """Lost because it reached the most actions a game may have (engine.MAX_ACTIONS)."""
        return self.state().out_of_actions

    def state(self) -> engine.GameState:
        """The engine's view of this game, built from the columns (again only when they change).

        Its ``history`` is empty: the moves undo can take back stay in the log, and the
        service reads the one an undo needs (services.game_act).
        """
        columns = self._state_columns()
        built = self.__dict__.get("_engine_state")
        if built is None or built[0] != columns:
            built = (
                columns,
                engine.GameState(
                    position=engine.Position.parse(self.position, self.variant),
                    seed=int(self.seed),
                    deal_number=self.deal_number,
                    moves=self.moves,
                    shuffles_used=self.shuffles_used,
                    status=engine.Status(self.status),
                    resigned=self.resigned,
                ),
            )
            self._engine_state = built
        return built[1]

    def set_state(self, state: engine.GameState) -> None:
        self.position = str(state.position)
        self.moves = state.moves
        self.shuffles_used = state.shuffles_used
        self.status = state.status.value
        self.resigned = state.resigned
        self._engine_state = self._state_columns(), state._replace(history=(), undone=())

    def _state_columns(self) -> tuple:
        return (
            self.position,
            self.moves,
            self.shuffles_used,
            self.status,
            self.resigned,
            self.seed,
            self.deal_number,
            self.variant,
        )


class Action(models.Model):
    """One player action, numbered from 1 within its game; replaying them from the deal
    and the game's seed gives the stored state exactly."""

    KINDS = [
        (engine.ActionKind.MOVE.value, _("move")),
        (engine.ActionKind.UNDO.value, _("undo")),
        (engine.ActionKind.REDO.value, _("redo")),
        (engine.ActionKind.SHUFFLE.value, _("shuffle")),
        (engine.ActionKind.RESIGN.value, _("resign")),
    ]

    # No index of its own: the unique (game, number) below begins with it.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions", db_index=False)
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=KINDS)
    move = models.CharField(max_length=16, blank=True, help_text=_("The move played, or taken back by undo."))
    elapsed_ms = models.BigIntegerField(help_text=_("The game's time once this action was done."))
    undo_top = models.PositiveIntegerField(default=0, help_text=_("The game's undo_top once this action was done."))
    redo_top = models.PositiveIntegerField(default=0, help_text=_("The game's redo_top once this action was done."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="action_number_unique_in_game")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.number} {self.kind} {self.move}".rstrip()


class Claimed(models.TextChoices):
    """Where a piece of background work stands (games/background.py claims it)."""

    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")


class BackgroundWork(models.Model):
    """A piece of work done in the background, once (games/background.py): queued when asked
    for, claimed by the one worker that does it, done."""

    state = models.CharField(max_length=8, choices=Claimed.choices, default=Claimed.QUEUED)
    requested_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True, help_text=_("When a worker took it on."))
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        # The work not done yet, counted at each /metrics scrape (addiction_site/metrics.py): a small
        # index, since done rows, nearly all of them, are left out.
        indexes = [models.Index(fields=["state"], name="%(app_label)s_%(class)s_pending", condition=~Q(state="done"))]

    @property
    def done(self) -> bool:
        return self.state == Claimed.DONE


class Analysis(BackgroundWork):
    """A finished game's analysis (games/background.py, docs/RULES.md "Analysis"): for each
    stretch between shuffles, whether it could have been won with no further shuffle and
    where that win slipped away.  Searched once, in the background, and then only read."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="analysis")
    stretches = models.JSONField(
        default=list, blank=True, help_text=_("One entry a stretch: its steps, verdict, winning line and slip.")
    )
    fewest_moves = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("For a win: the fewest moves of a win the search found.")
    )
    nodes = models.PositiveBigIntegerField(default=0, help_text=_("Positions the searches visited."))

    class Meta(BackgroundWork.Meta):
        verbose_name_plural = _("analyses")

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}: {self.state}"


class StretchSearch(BackgroundWork):
    """The background search for an outright win from a stretch's start or from where a hint
    leads (games/background.py): one a position, whoever asked, searched once."""

    position = models.CharField(max_length=64, primary_key=True, help_text=_("SHA-256 of the position's notation."))
    found = models.BooleanField(default=False, help_text=_("Whether the search found a winning line."))
    nodes = models.PositiveBigIntegerField(default=0)
    asked_from = models.CharField(
        max_length=32,
        blank=True,
        default="",
        db_default="",
        help_text=_("The address key of the game whose hint asked for it first (a cap per address)."),
    )
    dealt = models.BooleanField(
        default=False,
        db_default=False,
        help_text=_("Asked for at a stretch's start (the deal, a shuffle) rather than by a hint."),
    )

    class Meta(BackgroundWork.Meta):
        indexes = [
            *BackgroundWork.Meta.indexes,
            models.Index(fields=["asked_from"], name="search_pending_by_address", condition=~Q(state="done")),
        ]

    def __str__(self) -> str:
        return f"search from {self.position[:12]}: {self.state}"


class KnownStep(models.Model):
    """A position on a winning line a background search found: the hint there is its move,
    the same for every player who reaches it (docs/RULES.md, "Hints")."""

    position = models.CharField(max_length=64, primary_key=True, help_text=_("SHA-256 of the position's notation."))
    move = models.CharField(max_length=16, help_text=_('The move to play: "R-C>R-C".'))
    to_win = models.PositiveSmallIntegerField(help_text=_("Moves left on the line, this one included."))

    def __str__(self) -> str:
        return f"{self.position[:12]}: {self.move}"


class Evidence(models.Model):
    """The evidence on a win (games/evidence.py; docs/RULES.md, "Review before the top"): the
    facts read when it was won, and the solver's share of its moves once its analysis found
    the lines; its score, and the signs that made it.  Weighed again, it is written over."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="evidence")
    score = models.PositiveSmallIntegerField()
    signs = models.JSONField(default=list, help_text=_("The keys of the signs found (games/evidence.py, Sign)."))
    facts = models.JSONField(default=dict)
    solver_share = models.FloatField(
        null=True, blank=True, help_text=_("The share of the moves on the solver's line; empty until the analysis.")
    )
    weighed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("evidence")
        verbose_name_plural = _("evidence")

    def __str__(self) -> str:
        return f"Evidence on game {self.game_id}: {self.score}"
