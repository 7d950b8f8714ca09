"""Which deal a UTC day plays and which days can be played: the daily deal's rules
(docs/RULES.md, "The daily deal"), decided here once and read by the rest of the app."""

from __future__ import annotations

import hashlib
from datetime import date, datetime

from games import engine
from games.clock import utc_day as today

__all__ = ["FIRST_DAY", "SOLVER_KEY", "VARIANT", "deal_number_of", "is_playable", "player_seed", "today"]

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


SOLVER_KEY = "solver"
"""The player key of the solver's own daily game: its luck is a player's like any other's."""


def player_seed(day_seed: str, player_key: str) -> str:
    """The seed a player's daily game of a day shuffles from: the first 16 bytes (big-endian)
    of SHA-256 of the text ``"<the day's seed>:<the player's key>"``, in decimal.  The deal
    is the day's, the same for everyone; the luck is each player's own, and nobody can learn
    another's by playing the day first.  Once the day's seed is revealed, anyone can compute it."""
    digest = hashlib.sha256(f"{day_seed}:{player_key}".encode()).digest()
    return str(int.from_bytes(digest[:16], "big"))
