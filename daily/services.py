"""The daily deal: one deal a UTC day for everyone, with one secret seed for all its shuffles.

docs/RULES.md, "The daily deal", says the rules; this module is their one implementation:
which deal a day plays (:func:`deal_number_of`), the day's seed (:func:`seed_of`, made the
first time anyone asks and kept), which days can be played and how a day's game starts.
The streaks a player's dailies make are the records' (records/selectors.py).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import date, datetime

from django.db import IntegrityError, transaction

from addiction_site.ownership import Owner
from daily.models import DailySeed
from games import engine
from games.clock import utc_day as today
from games.models import Game
from games.selectors import owned_games
from games.services import game_start, seed_digest

FIRST_DAY = date(2026, 12, 1)
"""The first day with a daily deal: the calendar starts here."""


def deal_number_of(day: date) -> int:
    """The deal a day plays: the first 8 bytes (big-endian) of SHA-256 of the text
    ``"daily:YYYY-MM-DD"``, modulo engine.DRAWN_DEALS (999,999,999), plus 1.  Anyone can compute it; nobody can
    choose it."""
    digest = hashlib.sha256(f"daily:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % engine.DRAWN_DEALS + 1


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
