"""The races' parts of other apps' pages (games/registry.py): the invitation to race on the home
page, a race's standings beside its games (and their countdown), and a player's races on their
profile."""

from __future__ import annotations

from django.utils import timezone

from games import registry
from games.models import Game
from races.selectors import entry_of_game, races_of


def invitation(_request, _subject) -> dict:
    return {}


def standings_beside(_request, game: Game) -> dict | None:
    """A race's game shows its race's standings, live; any other game nothing."""
    entry = entry_of_game(game)
    return None if entry is None else {"race": entry.race, "entry": entry}


def history(_request, player) -> dict:
    """The races a player joined, on their profile: the newest first, with their place once closed."""
    return {"races": races_of(player, timezone.now())}


def register() -> None:
    registry.add_panel("lobby", "races/_lobby.html", invitation)
    registry.add_panel("home_end", "races/_invitation.html", invitation)
    registry.add_panel("game_aside", "races/_panel.html", standings_beside)
    registry.add_panel("profile", "races/_history.html", history)
