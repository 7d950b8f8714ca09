"""The boards' scopes, written once (docs/RULES.md, "Leaderboards"): which board a win
stands on is a scope string kept in ``BoardEntry.scope``.  Addiction's scopes are the bare
ones (as they were before the other variants came); another variant's are its key, a slash,
then the scope: ``montana/all``, ``blue-moon/deal:12345``."""

from __future__ import annotations

from datetime import date

ALL = "all"
ADDICTION = "addiction"


def of_variant(scope: str, variant: str) -> str:
    """``scope`` on the boards of ``variant``: ``montana/week:2026-W48``; Addiction's as it is."""
    return scope if variant == ADDICTION else f"{variant}/{scope}"


def variant_and_scope(scope: str) -> tuple[str, str]:
    """The variant a kept scope belongs to, and the scope within it: what :func:`of_variant` joined."""
    variant, slash, rest = scope.partition("/")
    return (variant, rest) if slash else (ADDICTION, scope)


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
