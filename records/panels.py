"""The records' parts of the game's pages (games/registry.py): the records a win set, inside
its result, and the links to a deal's board."""

from __future__ import annotations

from games import registry
from games.models import Game
from records.presenters import record_news
from records.scopes import Scope
from records.selectors import personal_bests


def records_set(_request, game: Game) -> dict | None:
    """The boards on which a won game is now its player's best, each with its rank, and one
    sentence for them all; nothing for a win that set none."""
    bests = personal_bests(game)
    if not bests:
        return None
    return {
        "bests": [(entry, rank, Scope.parse(entry.scope)) for entry, rank in bests],
        "news": record_news(game, bests),
    }


def board_of_deal(_request, subject) -> dict:
    """The link to the board of the deal ``subject`` plays: a game, a finished game's actions
    (games.presenters.table.Actions), or a deal page's {deal_number, variant}."""
    if isinstance(subject, dict):
        return {"deal_number": subject["deal_number"], "variant": subject["variant"]}
    return {"deal_number": subject.deal_number, "variant": subject.variant}


def register() -> None:
    registry.add_panel("won", "records/_won.html", records_set)
    registry.add_panel("game_footer", "records/_deal_board.html", board_of_deal)
    registry.add_panel("after_game", "records/_deal_board_link.html", board_of_deal)
    registry.add_panel("deal", "records/_deal_board.html", board_of_deal)
