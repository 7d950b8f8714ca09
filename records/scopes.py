"""The boards' scopes, written once (docs/RULES.md, "Leaderboards"): which board a win
stands on is a scope string kept in ``BoardEntry.scope``."""

from __future__ import annotations

from datetime import date

ALL = "all"


def week_scope(day: date) -> str:
    """The ISO week of ``day``: ``week:2026-W48``."""
    year, week, _weekday = day.isocalendar()
    return f"week:{year}-W{week:02d}"


def day_scope(day: date) -> str:
    """A UTC day of random deals' wins: ``day:2026-11-29``."""
    return f"day:{day.isoformat()}"


def deal_scope(deal_number: int) -> str:
    """One deal's board: ``deal:12345``."""
    return f"deal:{deal_number}"


def daily_scope(day: date) -> str:
    """A day's daily board: ``daily:2026-12-01``."""
    return f"daily:{day.isoformat()}"
