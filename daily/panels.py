"""The daily deal's parts of the game's pages (games/registry.py): today's daily on the home
page, and the note under a daily game's table."""

from __future__ import annotations

from daily import deals
from daily.selectors import games_of_day
from games import registry
from games.models import Game


def today_on_home(request, _subject) -> dict:
    """Today's daily: its number, and the player's ranked game of it."""
    today = deals.today()
    games = games_of_day(request.owner, today)
    return {
        "today": today,
        "daily_number": deals.deal_number_of(today),
        "daily_game": next((game for game in games if game.origin == Game.Origin.DAILY), None),
    }


def note_of_game(_request, game: Game) -> dict | None:
    """Whether a daily deal's game is ranked, with the day's board: only on a daily's game."""
    return {"game": game} if game.daily else None


def link_in_lobby(_request, _subject) -> dict:
    return {}


def register() -> None:
    registry.add_panel("lobby", "daily/_lobby.html", link_in_lobby)
    registry.add_panel("home", "daily/_today.html", today_on_home)
    registry.add_panel("game_footer", "daily/_game_note.html", note_of_game)
