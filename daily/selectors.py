"""The queries behind the daily deal's pages: a player's games of a day, and the calendar."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from addiction_site.ownership import Owner
from daily import deals
from daily.models import DailySeed, SolverDaily
from games.models import Game, daily_revealed
from games.selectors import owned_games

CALENDAR_DAYS = 42  # six weeks back


def games_of_day(owner: Owner, day: date) -> list[Game]:
    """``owner``'s games of ``day``'s daily deal, the first started first."""
    return list(owned_games(owner, daily=day).order_by("created_at", "pk"))


def seed_made(day: date) -> DailySeed | None:
    """The day's seed if it was made (daily/services.py, ``seed_of``), or None: a page only reads it."""
    return DailySeed.objects.filter(day=day).first()


def next_is_ranked(owner: Owner, day: date) -> bool:
    """Whether ``owner``'s next game of ``day``'s daily would be the ranked one (docs/RULES.md,
    "The daily deal"): their first of that day, played that day.  A game of the day deleted
    unplayed leaves no trace, so it does not count; any other game of it, practice
    included, does.  A guest's is not when another player's ranked game of that day came from
    the same address and browser (a fresh guest per try would otherwise get a ranked game
    each).  The page's button and the start (daily/services.py) both ask this."""
    if day != deals.today() or owned_games(owner, daily=day).exists():
        return False
    if owner.user_id is None and owner.browser_key:
        same_browser = Game.objects.filter(daily=day, origin=Game.Origin.DAILY, browser_key=owner.browser_key)
        return not same_browser.exists()
    return True


def calendar_days(owner: Owner, today: date) -> list[dict]:
    """The last six weeks of daily deals, today first, each with the owner's result on it:
    their ranked game's status, else their first practice game's, else ""."""
    first = max(deals.FIRST_DAY, today - timedelta(days=CALENDAR_DAYS - 1))
    results: dict[date | None, str] = {}  # every day is a date: the query asks for a range of them
    for day, status, origin in (
        owned_games(owner, daily__gte=first, daily__lte=today)
        .order_by("created_at", "pk")
        .values_list("daily", "status", "origin")
    ):
        if origin == Game.Origin.DAILY or day not in results:
            results[day] = status
    days = []
    day = today
    while day >= first:
        days.append({"day": day, "deal_number": deals.deal_number_of(day), "result": results.get(day, "")})
        day -= timedelta(days=1)
    return days


def solver_daily_of(day: date) -> SolverDaily | None:
    """The solver's game of ``day``'s daily, done or on its way (daily/services.py), or None."""
    return SolverDaily.objects.filter(day=day).first()


def days_without_solver_daily(*, since: date, now: datetime) -> list[date]:
    """The days from ``since`` whose seed was made and is revealed at ``now``, and whose solver's
    game was never asked for (daily/tasks.py asks for them)."""
    made = DailySeed.objects.filter(day__gte=since).exclude(day__in=SolverDaily.objects.values("day"))
    return [day for day in made.order_by("day").values_list("day", flat=True) if daily_revealed(day, now)]
