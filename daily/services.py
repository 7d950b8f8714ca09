"""The daily deal's writes: the day's secret seed, made the first time anyone asks and kept,
and how a day's game starts.  Which deal a day plays and which days can be played are
daily/deals.py's; the streaks a player's dailies make are the records' (records/selectors.py).
docs/RULES.md, "The daily deal", says the rules.
"""

from __future__ import annotations

import secrets
from datetime import date, timedelta
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from addiction_site.ownership import Owner
from daily import deals
from daily.models import DailySeed, SolverDaily
from daily.selectors import next_is_ranked
from games import engine, solver
from games.background import claim_work, queue_work
from games.models import Claimed, Game, daily_revealed
from games.services import game_start, seed_digest


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


def seeds_made_ahead(*, now, dry_run: bool = False) -> int:
    """Make today's and tomorrow's seeds if they are not made yet (the hourly housekeeping), so
    that the daily page shows the day's fingerprint from the day's first minute, before anyone
    starts it; how many were (or would be) made."""
    today = deals.today(now)
    missing = [day for day in (today, today + timedelta(days=1)) if not DailySeed.objects.filter(day=day).exists()]
    if not dry_run:
        for day in missing:
            seed_of(day)
    return len(missing)


def daily_start(*, owner: Owner, day: date) -> Game:
    """A new game of ``day``'s daily deal.  The owner's first of that day, played that day, is
    the ranked one, with the day's seed; any other (a second try, a past day) is practice.
    A practice game of today has a seed of its own, so that no practice shows what the ranked
    games' shuffles will deal; a past day's plays with that day's seed, revealed since.

    Two first tries at once cannot both be ranked: a unique constraint allows one ranked
    daily game per player and day, and the loser of that race becomes practice.
    """
    seed = seed_of(day).seed
    deal = partial(game_start, owner=owner, deal_number=deals.deal_number_of(day), daily=day, variant=deals.VARIANT.key)
    if next_is_ranked(owner, day):
        try:
            with transaction.atomic():
                return deal(origin=Game.Origin.DAILY, seed=seed)
        except IntegrityError:
            pass
    own_seed = None if day == deals.today() else seed  # None: game_start draws a new secret seed
    return deal(origin=Game.Origin.PRACTICE, seed=own_seed)


def solver_daily_queue(day: date) -> bool:
    """Ask for the solver's game of ``day``'s daily (once its seed is revealed): True when a
    task must be enqueued for it."""
    return daily_revealed(day) and queue_work(SolverDaily, day=day)


def solver_daily_play(day: date) -> bool:
    """Play ``day``'s daily deal with the day's seed by the solver's own hints, as a player
    who follows every one would (the deep search at each stretch's first hint, as the site
    runs it), and keep how it went.  Once a day; returns whether this call played it."""
    if not daily_revealed(day) or not claim_work(SolverDaily, day=day):
        return False
    start = engine.GameState.start(
        deal_number=deals.deal_number_of(day), seed=int(seed_of(day).seed), variant=deals.VARIANT
    )
    end = solver.follow_hints(start, deep_budget=settings.ADDICTION_DEEP_BUDGET).state
    SolverDaily.objects.filter(day=day, state=Claimed.RUNNING).update(
        state=Claimed.DONE,
        finished_at=timezone.now(),
        won=end.status is engine.Status.WON,
        moves=end.moves,
        shuffles_used=end.shuffles_used,
    )
    return True
