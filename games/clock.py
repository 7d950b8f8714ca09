"""The game's clock: the server's time, with pauses capped (docs/RULES.md, "Counting")."""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.conf import settings
from django.utils import timezone

from games.models import Game


def utc_day(now: datetime | None = None) -> date:
    """The current UTC day: the day of the daily deal and of the day's board."""
    return (now or timezone.now()).astimezone(UTC).date()


def elapsed_at(game: Game, now: datetime) -> int:
    """The game's time in milliseconds at ``now``: each pause counts at most the idle cap."""
    if game.is_over or game.last_action_at is None:
        return game.elapsed_ms
    return game.elapsed_ms + min(pause_ms(game, now), settings.ADDICTION_IDLE_CAP_SECONDS * 1000)


def pause_ms(game: Game, now: datetime) -> int:
    """How long the game has waited since its clock last moved (0 before it started or once over)."""
    if game.is_over or game.last_action_at is None:
        return 0
    return max(0, int((now - game.last_action_at).total_seconds() * 1000))
