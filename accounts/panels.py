"""The accounts' parts of the game's pages (games/registry.py): signing up, offered where it
keeps something a guest has."""

from __future__ import annotations

from games import registry


def sign_up_for_the_boards(_request, actions) -> dict | None:
    """A guest's won game: an account puts such a win on the boards."""
    return {} if actions.won and not actions.signed_in else None


def sign_up_to_keep_games(request, _subject) -> dict | None:
    """A guest's My games: an account keeps them on every device."""
    return None if request.user.is_authenticated else {}


def register() -> None:
    registry.add_panel("after_game", "accounts/_sign_up_for_the_boards.html", sign_up_for_the_boards)
    registry.add_panel("my_games", "accounts/_sign_up_to_keep_games.html", sign_up_to_keep_games)
