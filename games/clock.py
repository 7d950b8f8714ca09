"""The game's clock: the server's time, with pauses capped (docs/RULES.md, "Counting")."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime

from django.conf import settings
from django.utils import timezone

from games.models import Game


def utc_day(now: datetime | None = None) -> date:
    """The current UTC day: the day of the daily deal and of the day's board."""
    return (now or timezone.now()).astimezone(UTC).date()


def idle_cap_ms() -> int:
    """The most a pause counts in a game's time (``ADDICTION_IDLE_CAP_SECONDS``), in milliseconds."""
    return settings.ADDICTION_IDLE_CAP_SECONDS * 1000


def elapsed_at(game: Game, now: datetime) -> int:
    """The game's time in milliseconds at ``now``: each pause counts at most the idle cap."""
    if game.is_over or game.last_action_at is None:
        return game.elapsed_ms
    return game.elapsed_ms + min(pause_ms(game, now), idle_cap_ms())


def tick_ms_left(game: Game, now: datetime) -> int:
    """How much longer from ``now`` a page may tick the game's clock on before the pause stops
    counting (the idle cap, less the pause so far); 0 while the clock does not run."""
    running = game.started_at is not None and not game.is_over
    return max(0, idle_cap_ms() - pause_ms(game, now)) if running else 0


def pause_ms(game: Game, now: datetime) -> int:
    """How long the game has waited since its clock last moved (0 before it started or once over)."""
    if game.is_over or game.last_action_at is None:
        return 0
    return max(0, int((now - game.last_action_at).total_seconds() * 1000))


def seconds_until(start: datetime | None, now: datetime) -> int:
    """Whole seconds from ``now`` until ``start`` (when a game's clock starts, a race's countdown
    ends), rounded up so that a countdown never shows 0 early; 0 once it has come, or with none."""
    if start is None or start <= now:
        return 0
    return max(1, math.ceil((start - now).total_seconds()))
