"""What the puzzles' pages and services read (docs/RULES.md, "Puzzles"): an owner's attempts and
rating, the lobby's figures, a player's rating and its history for the profile, and the
finished games the supply may read."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from addiction_site.ownership import Owner
from games import engine
from games.models import Claimed, Game
from puzzles import glicko
from puzzles.models import Attempt, DailyPuzzle, Mined, Puzzle, Solver

CHART_ATTEMPTS = 200  # the profile's chart shows this many of the latest rated attempts


def attempt_of(owner: Owner, pk: int) -> Attempt | None:
    """``owner``'s attempt ``pk``, or None: someone else's is not found either."""
    return Attempt.objects.filter(owner.owns(), pk=pk).select_related("puzzle").first()


class History(NamedTuple):
    rating: Solver | None
    points: list[tuple]  # (finished_at, rating after) of the latest rated attempts, oldest first


def history_of(player) -> History:
    """An account's puzzle rating, and its course over the latest rated attempts."""
    rating = Solver.objects.filter(owner=player).first()
    if rating is None:  # no rated puzzle yet: nothing more to read
        return History(None, [])
    latest = (
        Attempt.objects.filter(owner=player, rated=True, rating_after__isnull=False)
        .order_by("-finished_at", "-pk")
        .values_list("finished_at", "rating_after")[:CHART_ATTEMPTS]
    )
    return History(rating, [(when, round(value or 0)) for when, value in reversed(list(latest))])


def solver_of(owner: Owner) -> Solver | None:
    """``owner``'s puzzle rating, or None before their first rated attempt."""
    if owner.user_id is not None:
        return Solver.objects.filter(owner_id=owner.user_id).first()
    if owner.guest_token:
        return Solver.objects.filter(guest_token=owner.guest_token).first()
    return None


def rating_of(owner: Owner) -> glicko.Rating:
    found = solver_of(owner)
    return glicko.Rating() if found is None else glicko.Rating(found.rating, found.deviation, found.volatility)


def attempt_in_progress(owner: Owner) -> Attempt | None:
    """``owner``'s unfinished attempt at a puzzle that is not a day's, the latest, or None."""
    return (
        Attempt.objects.filter(owner.owns(), status=Attempt.Status.PLAYING, daily__isnull=True)
        .order_by("-started_at", "-pk")
        .first()
    )


def lobby_of(owner: Owner, today: date) -> dict:
    """What /puzzles/ shows an owner: their rating, the puzzle under way, whether there is any
    puzzle to play today, the day's if chosen (none is chosen by looking), the owner's attempt at
    it, how many puzzles there are, and their latest finished attempts."""
    owned = Attempt.objects.filter(owner.owns())
    return {
        "rating": solver_of(owner),
        "in_progress": attempt_in_progress(owner),
        "daily": Puzzle.objects.exists(),
        "daily_chosen": DailyPuzzle.objects.filter(day=today).values_list("puzzle_id", flat=True).first(),
        "daily_attempt": owned.filter(daily=today).first(),
        "count": Puzzle.objects.count(),
        "recent": owned.exclude(status=Attempt.Status.PLAYING).select_related("puzzle").order_by("-finished_at")[:10],
    }


def puzzle_of(pk: int) -> Puzzle | None:
    return Puzzle.objects.filter(pk=pk).first()


def minable_games(now: datetime | None = None) -> QuerySet[Game]:
    """The finished games the supply may read, oldest first: analysed, their seed revealed (a
    day's daily only once its day's seed is, never a race's still sealed), not deleted by their
    player, and not read already."""
    now = now or timezone.now()
    grace = timedelta(seconds=settings.ADDICTION_DAILY_REVEAL_GRACE_SECONDS)
    last_revealed = (now - grace).date() - timedelta(days=1)  # games.models.daily_revealed, for a column
    return (
        Game.objects.filter(
            status__in=[engine.Status.WON.value, engine.Status.LOST.value],
            analysis__state=Claimed.DONE,
            sealed=False,
            removed=False,
        )
        .filter(Q(daily__isnull=True) | Q(daily__lte=last_revealed))
        .exclude(pk__in=Mined.objects.values("game_id"))
        .order_by("finished_at", "pk")
    )
