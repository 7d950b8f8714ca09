"""Which deal a UTC day plays and which days can be played: the daily deal's rules
(docs/RULES.md, "The daily deal"), decided here once and read by the rest of the app."""

from __future__ import annotations

import hashlib
from datetime import date, datetime

from games import engine
from games.clock import utc_day as today

__all__ = ["FIRST_DAY", "VARIANT", "deal_number_of", "is_playable", "today"]

FIRST_DAY = date(2026, 12, 1)
"""The first day with a daily deal: the calendar starts here."""

VARIANT = engine.DEFAULT_VARIANT
"""The game the daily deal is a deal of: Addiction (docs/RULES.md, "The daily deal")."""


def deal_number_of(day: date) -> int:
    """The deal a day plays: the first 8 bytes (big-endian) of SHA-256 of the text
    ``"daily:YYYY-MM-DD"``, modulo engine.DRAWN_DEALS (999,999,999), plus 1.  Anyone can compute it; nobody can
    choose it."""
    digest = hashlib.sha256(f"daily:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % engine.DRAWN_DEALS + 1


def is_playable(day: date, now: datetime | None = None) -> bool:
    """Days from the first daily up to today can be played (past ones as practice)."""
    return FIRST_DAY <= day <= today(now)
