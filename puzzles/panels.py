"""The puzzles' parts of other apps' pages (games/registry.py): a link to the puzzles above the
home page's table, and a player's puzzle rating with its chart on their profile."""

from __future__ import annotations

from games import registry
from puzzles.selectors import history_of
from records.selectors import chart_points


def invitation(_request, _subject) -> dict:
    return {}


def rating_on_profile(_request, player) -> dict | None:
    """An account's puzzle rating and its course (the latest rated attempts), or nothing before
    their first."""
    history = history_of(player)
    if history.rating is None:
        return None
    return {"rating": history.rating, "chart": chart_points(history.points)}


def register() -> None:
    registry.add_panel("lobby", "puzzles/_lobby.html", invitation)
    registry.add_panel("profile", "puzzles/_profile.html", rating_on_profile)
