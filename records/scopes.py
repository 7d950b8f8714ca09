"""The boards' scopes, decided once (docs/RULES.md, "Leaderboards"): which board a win stands
on is a :class:`Scope`, kept in ``BoardEntry.scope`` as its text.  The default variant's scopes
are bare (as they were before the other variants came); another variant's are its key, a
slash, then the scope: ``montana/all``, ``blue-moon/deal:12345``.

>>> str(Scope.week(date(2026, 11, 29), "montana")), Scope.parse("deal:12345")
('montana/week:2026-W48', Scope(kind='deal', period='12345', variant='addiction'))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta

from django.utils.translation import gettext_lazy as _

from games import engine
from games.clock import utc_day
from games.models import Game

KINDS = ("all", "week", "day", "daily", "deal")
"""The kinds of scope, the broadest first: a win's record sentence says the broadest's old figure."""

WORDS = {
    "all": _("all time"),
    "week": _("this week"),
    "day": _("today"),
    "deal": _("this deal"),
    "daily": _("today's daily"),
}


@dataclass(frozen=True)
class Scope:
    """One board's scope: its ``kind`` (:data:`KINDS`), its ``period`` (the ISO week
    ``2026-W48``, the UTC day ``2026-11-29``, the deal's number; "" for all time) and its
    ``variant``'s key."""

    kind: str
    period: str = ""
    variant: str = engine.DEFAULT_VARIANT.key

    def __str__(self) -> str:
        text = f"{self.kind}:{self.period}" if self.period else self.kind
        return text if engine.variant_of(self.variant).default else f"{self.variant}/{text}"

    @classmethod
    def parse(cls, text: str) -> Scope:
        """The scope a kept text names (what ``str`` wrote); ValueError for any other text."""
        variant, slash, rest = text.partition("/")
        if not slash:
            variant, rest = engine.DEFAULT_VARIANT.key, text
        kind, _colon, period = rest.partition(":")
        scope = cls(kind, period, engine.variant_of(variant).key)
        # All time has no period, every other kind one; the daily deal is the default variant's.
        well_formed = kind in KINDS and (kind == "all") == (not period) and "/" not in period
        if not well_formed or kind == "daily" and slash or str(scope) != text:
            raise ValueError(f"not a board's scope: {text!r}")
        return scope

    @classmethod
    def all_time(cls, variant: str = engine.DEFAULT_VARIANT.key) -> Scope:
        return cls("all", "", variant)

    @classmethod
    def week(cls, day: date, variant: str = engine.DEFAULT_VARIANT.key) -> Scope:
        """The ISO week of ``day``: ``week:2026-W48``."""
        year, week, _weekday = day.isocalendar()
        return cls("week", f"{year}-W{week:02d}", variant)

    @classmethod
    def day(cls, day: date, variant: str = engine.DEFAULT_VARIANT.key) -> Scope:
        """A UTC day of random deals' wins: ``day:2026-11-29``."""
        return cls("day", day.isoformat(), variant)

    @classmethod
    def deal(cls, deal_number: int, variant: str = engine.DEFAULT_VARIANT.key) -> Scope:
        """One deal's board: ``deal:12345``."""
        return cls("deal", str(deal_number), variant)

    @classmethod
    def daily(cls, day: date) -> Scope:
        """A day's daily board: ``daily:2026-12-01`` (the daily deal is the default variant's)."""
        return cls("daily", day.isoformat())

    @property
    def words(self) -> str:
        """The scope for players, in the active language: "this week"."""
        return str(WORDS[self.kind])

    @property
    def breadth(self) -> int:
        """Its place in :data:`KINDS`: 0 for the broadest, all time."""
        return KINDS.index(self.kind)

    def finished_between(self) -> tuple[datetime, datetime] | None:
        """For a week or a day: the UTC moments its wins finished from and before; else None."""
        if self.kind == "week":
            year, week = self.period.split("-W")
            first = date.fromisocalendar(int(year), int(week), 1)
            return _utc_midnight(first), _utc_midnight(first + timedelta(7))
        if self.kind == "day":
            day = date.fromisoformat(self.period)
            return _utc_midnight(day), _utc_midnight(day + timedelta(1))
        return None

    def of_variant(self, variant: str) -> Scope:
        return replace(self, variant=variant)


def _utc_midnight(day: date) -> datetime:
    return datetime.combine(day, datetime.min.time(), tzinfo=UTC)


PERIODS = {"all": _("All time"), "week": _("This week (UTC)"), "today": _("Today (UTC)")}
"""The global boards' periods, by their ``?period=`` in the leaderboard's address, with their
words: the periods of a random deal's wins (:func:`period_scope`)."""


def period_scope(period: str, day: date, variant: str = engine.DEFAULT_VARIANT.key) -> Scope:
    """The scope of a leaderboard's period (:data:`PERIODS`; any other is all time) on the UTC ``day``."""
    if period == "today":
        return Scope.day(day, variant)
    if period == "week":
        return Scope.week(day, variant)
    return Scope.all_time(variant)


def board_scopes(game: Game) -> list[Scope]:
    """The boards' scopes a win belongs to (docs/RULES.md, "Leaderboards"), each of its own
    variant's boards: a random deal's win ranks all time, in its week and day (UTC) and on its
    deal's board; a chosen deal's on its deal's board only; the first daily game of a day on
    that day's daily board; a daily played again (practice) and a race's game nowhere."""
    if game.origin == Game.Origin.DAILY:
        return [Scope.daily(game.daily)]  # type: ignore[arg-type]  # a daily game has its day
    if game.origin in (Game.Origin.PRACTICE, Game.Origin.RACE):  # a race ranks its own players only
        return []
    deal = Scope.deal(game.deal_number, game.variant)
    if game.origin != Game.Origin.RANDOM:
        return [deal]
    day = utc_day(game.finished_at)  # a win has finished
    return [Scope.all_time(game.variant), Scope.week(day, game.variant), Scope.day(day, game.variant), deal]
