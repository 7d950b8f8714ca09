"""The daily deal: one deal a UTC day for everyone, with one secret seed for all its shuffles.

docs/RULES.md, "The daily deal", says the rules; this module is their one implementation:
which deal a day plays (:func:`deal_number_of`), the day's seed (:func:`seed_of`, made the
first time anyone asks and kept), and the streaks a player's dailies make.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import DailySeed, Game
from games.ownership import Owner, owned_games
from games.services import game_start, seed_digest

FIRST_DAY = date(2026, 12, 1)
"""The first day with a daily deal: the calendar starts here."""

DAILY_DEALS = 999_999_999
"""A daily deal's number is one of 1 .. this, as a random deal's."""


def today(now: datetime | None = None) -> date:
    """The current UTC day."""
    return (now or timezone.now()).astimezone(UTC).date()


def deal_number_of(day: date) -> int:
    """The deal a day plays: the first 8 bytes (big-endian) of SHA-256 of the text
    ``"daily:YYYY-MM-DD"``, modulo 999,999,999, plus 1.  Anyone can compute it; nobody can
    choose it."""
    digest = hashlib.sha256(f"daily:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % DAILY_DEALS + 1


def seed_of(day: date) -> DailySeed:
    """The day's seed, made (once, whoever asks first) if it does not exist yet."""
    found = DailySeed.objects.filter(day=day).first()
    if found is not None:
        return found
    seed = str(secrets.randbits(128))
    try:
        with transaction.atomic():
            return DailySeed.objects.create(day=day, seed=seed, seed_sha256=seed_digest(seed))
    except IntegrityError:  # another request made it at the same moment: theirs stands
        return DailySeed.objects.get(day=day)


def daily_start(*, owner: Owner, day: date) -> Game:
    """A new game of ``day``'s daily deal with the day's seed.  The owner's first of that day,
    played that day, is the ranked one; any other (a second try, a past day) is practice.

    Two first tries at once cannot both be ranked: a unique constraint allows one ranked
    daily game per player and day, and the loser of that race becomes practice.
    """
    seed = seed_of(day).seed
    number = deal_number_of(day)
    first = day == today() and not owned_games(owner, daily=day).exists()
    if first:
        try:
            with transaction.atomic():
                return game_start(owner=owner, deal_number=number, origin=Game.Origin.DAILY, daily=day, seed=seed)
        except IntegrityError:
            pass
    return game_start(owner=owner, deal_number=number, origin=Game.Origin.PRACTICE, daily=day, seed=seed)


def is_playable(day: date, now: datetime | None = None) -> bool:
    """Days from the first daily up to today can be played (past ones as practice)."""
    return FIRST_DAY <= day <= today(now)


@dataclass(frozen=True)
class Streaks:
    """Runs of consecutive UTC days, each ending today or yesterday for the current one."""

    played_current: int
    played_best: int
    won_current: int
    won_best: int


def _runs(days: set[date], now_day: date) -> tuple[int, int]:
    """The current run (ending today, or yesterday while today is still to play) and the longest."""
    best = run = 0
    previous = None
    for day in sorted(days):
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = 0
    day = now_day if now_day in days else now_day - timedelta(days=1)
    while day in days:
        current += 1
        day -= timedelta(days=1)
    return current, best


def streaks(first_games: list[tuple[date, bool]], now: datetime | None = None) -> Streaks:
    """Streaks from a player's ranked daily games, one per day: (day, won)."""
    now_day = today(now)
    played = {day for day, _won in first_games}
    won = {day for day, was_won in first_games if was_won}
    played_current, played_best = _runs(played, now_day)
    won_current, won_best = _runs(won, now_day)
    return Streaks(played_current, played_best, won_current, won_best)
