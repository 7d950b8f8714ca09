"""The daily deal's writes: the day's secret seed, made the first time anyone asks and kept,
each player's own seed of the day made from it, and how a day's game starts.  Which deal a day
plays and which days can be played are daily/deals.py's; the streaks a player's dailies make are
the records' (records/selectors.py).  docs/RULES.md, "The daily deal", says the rules.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import date, timedelta
from functools import partial

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from addiction_site.ownership import Owner
from daily import deals
from daily.models import DailySeed, PlayerSeed, SolverDaily
from daily.selectors import next_is_ranked, seed_made
from games import background, engine, solver
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


def player_key(owner: Owner) -> str:
    """The key that makes ``owner``'s own daily seed with the day's (daily/models.py, PlayerSeed)."""
    if owner.user_id is not None:
        return f"user:{owner.user_id}"
    return "guest:" + hashlib.sha256(owner.guest_token.encode()).hexdigest()[:24]


def daily_start(*, owner: Owner, day: date) -> Game:
    """A new game of ``day``'s daily deal.  The owner's first of that day, played that day, is
    the ranked one; any other (a second try, a past day) is practice.  The ranked game and a
    past day's practice shuffle from the owner's own seed of the day, made from the day's
    secret seed and their key (deals.player_seed), so that nobody learns another's luck by
    playing the day first; a practice game of today has a secret seed of its own, so that no
    practice shows what the player's ranked game's shuffles will deal.

    Two first tries at once cannot both be ranked: a unique constraint allows one ranked
    daily game per player and day, and the loser of that race becomes practice.
    """
    day_seed, key = seed_of(day).seed, player_key(owner)
    deal = partial(game_start, owner=owner, deal_number=deals.deal_number_of(day), daily=day, variant=deals.VARIANT.key)
    if next_is_ranked(owner, day):
        try:
            with transaction.atomic():
                game = deal(origin=Game.Origin.DAILY, seed=deals.player_seed(day_seed, key))
                PlayerSeed.objects.create(game=game, day=day, player_key=key)
                return game
        except IntegrityError:
            pass
    if day == deals.today():
        return deal(origin=Game.Origin.PRACTICE, seed=None)  # None: game_start draws a new secret seed
    with transaction.atomic():
        game = deal(origin=Game.Origin.PRACTICE, seed=deals.player_seed(day_seed, key))
        PlayerSeed.objects.create(game=game, day=day, player_key=key)
    return game


def seed_check(game: Game) -> tuple[str, bool, str, str] | None:
    """The verification's check of a daily game's own seed, once the day's seed is revealed:
    that it is the one made from the day's seed and its player's key (None for any other game)."""
    kept = PlayerSeed.objects.filter(game_id=game.pk).first()
    if kept is None or not daily_revealed(kept.day):
        return None
    day_seed = seed_made(kept.day)  # made when the game was dealt: read only, a page writes nothing
    if day_seed is None:
        return None
    made = deals.player_seed(day_seed.seed, kept.player_key)
    label = _("The seed made from the day's seed and the player's key (%(key)s)") % {"key": kept.player_key}
    return str(label), made == game.seed, game.seed, made


def solver_daily_queue(day: date) -> bool:
    """Ask for the solver's game of ``day``'s daily (once its seed is revealed): True when a
    task must be enqueued for it."""
    return daily_revealed(day) and queue_work(SolverDaily, day=day)


def solver_daily_play(day: date) -> bool:
    """Play ``day``'s daily deal with the solver's own seed of the day by its own hints, as a player
    who follows every one would (the searches in the site's order: solver.follow_hints), and
    keep how it went.  Once a day; returns whether this call played it."""
    if not daily_revealed(day) or not claim_work(SolverDaily, day=day):
        return False
    seed = deals.player_seed(seed_of(day).seed, deals.SOLVER_KEY)  # a player's luck, as any other's
    start = engine.GameState.start(deal_number=deals.deal_number_of(day), seed=int(seed), variant=deals.VARIANT)
    end = solver.follow_hints(
        start, deep_budget=background.deep_budget(), search_budget=background.request_search_budget()
    ).state
    SolverDaily.objects.filter(day=day, state=Claimed.RUNNING).update(
        state=Claimed.DONE,
        finished_at=timezone.now(),
        won=end.status is engine.Status.WON,
        moves=end.moves,
        shuffles_used=end.shuffles_used,
    )
    return True
