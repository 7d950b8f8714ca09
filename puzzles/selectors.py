"""What the puzzles' pages read (docs/RULES.md, "Puzzles"): an owner's attempt, and a player's
rating and its history for the profile."""

from __future__ import annotations

from typing import NamedTuple

from addiction_site.ownership import Owner
from puzzles.models import Attempt, Solver

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
