"""The races' parts of the game's pages (games/registry.py): the invitation to race on the home
page, and a race's standings beside its games (and their countdown)."""

from __future__ import annotations

from games import registry
from games.models import Game
from races.selectors import entry_of_game


def invitation(_request, _subject) -> dict:
    return {}


def standings_beside(_request, game: Game) -> dict | None:
    """A race's game shows its race's standings, live; any other game nothing."""
    entry = entry_of_game(game)
    return None if entry is None else {"race": entry.race, "entry": entry}


def register() -> None:
    registry.add_panel("home_end", "races/_invitation.html", invitation)
    registry.add_panel("game_aside", "races/_panel.html", standings_beside)
