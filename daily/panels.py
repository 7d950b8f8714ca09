"""The daily deal's parts of the game's pages (games/registry.py): today's daily on the home
page, the note under a daily game's table, and a finished daily's result to share."""

from __future__ import annotations

from datetime import date

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from daily import deals
from daily.selectors import games_of_day
from games import registry
from games.models import Game
from games.presenters.words import duration

IN_PLACE, NOT_IN_PLACE = "\U0001f7e9", "\u2b1c"  # a green square, a white one


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


def share_text(game: Game, day: date, link: str) -> str:
    """A finished daily's result as people share a daily game's (docs/RULES.md, "The daily
    deal"): the day, won or lost, the time, moves and shuffles used, then a row of squares for
    each of the table's rows, a green one for each card in place from its start, and the link.
    Nothing of the deal itself (no card, no move), so it gives nothing away before the reveal."""
    figures = {
        "day": day.isoformat(),
        "time": duration(game.elapsed_ms),
        "moves": ngettext("%(count)s move", "%(count)s moves", game.moves) % {"count": game.moves},
        "shuffles": ngettext("%(count)s shuffle", "%(count)s shuffles", game.shuffles_used)
        % {"count": game.shuffles_used},
    }
    # Translators: the first line of a shared daily result; the names stand for "2026-12-06",
    # "3:12.4", "87 moves" and "2 shuffles".
    heads = {
        (True, True): _("Addiction daily %(day)s: won in %(time)s, %(moves)s, %(shuffles)s"),
        (True, False): _("Addiction daily %(day)s: lost after %(time)s, %(moves)s, %(shuffles)s"),
        (False, True): _("Addiction daily %(day)s, practice: won in %(time)s, %(moves)s, %(shuffles)s"),
        (False, False): _("Addiction daily %(day)s, practice: lost after %(time)s, %(moves)s, %(shuffles)s"),
    }
    head = heads[game.origin == Game.Origin.DAILY, game.status == "won"] % figures
    position = game.state().position
    locked, cols = position.locked(), game.cols - 1
    rows = ["".join(IN_PLACE if (row, col) in locked else NOT_IN_PLACE for col in range(cols)) for row in range(4)]
    return "\n".join([head, *rows, link])


def share_of_game(request, game: Game) -> dict | None:
    """A finished daily game's result to share (a text to copy, and a Share button with scripts)."""
    if not game.daily or not game.is_over:
        return None
    link = request.build_absolute_uri(reverse("daily:daily_day", args=[game.daily]))
    return {"text": share_text(game, game.daily, link)}


def link_in_lobby(_request, _subject) -> dict:
    return {}


def register() -> None:
    registry.add_panel("lobby", "daily/_lobby.html", link_in_lobby)
    registry.add_panel("over", "games/_share.html", share_of_game)
    registry.add_panel("home", "daily/_today.html", today_on_home)
    registry.add_panel("game_footer", "daily/_game_note.html", note_of_game)
