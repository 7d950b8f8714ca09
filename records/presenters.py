"""What the records' templates get besides models: the words of the records a win set."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Game
from games.presenters import duration
from records import scopes
from records.models import BoardEntry
from records.selectors import previous_best


def _kind(scope: str) -> str:
    """A kept scope's kind ("all", "week", "day", "daily", "deal"), whatever its variant."""
    return scopes.variant_and_scope(scope)[1].partition(":")[0]


def _scope_words(scope: str) -> str:
    kind = _kind(scope)
    return str(
        {
            "all": _("all time"),
            "week": _("this week"),
            "day": _("today"),
            "deal": _("this deal"),
            "daily": _("today's daily"),
        }.get(kind, scope)
    )


SCOPE_ORDER = ("all", "week", "day", "daily", "deal")  # the broadest first: its old figure is the one said


def record_news(game: Game, bests: list) -> str:
    """One sentence for every board a win improved (issue 26): "New record: Best time 1:42.3,
    was 1:55.0 (all time #3, this week #1); Fewest moves 117, your first (this deal #1)."
    ``bests`` is records.selectors.personal_bests(game)."""
    parts = []
    for board in (BoardEntry.Board.TIME, BoardEntry.Board.MOVES):
        items = sorted(
            ((entry, rank) for entry, rank in bests if entry.board == board),
            key=lambda item: SCOPE_ORDER.index(_kind(item[0].scope)),
        )
        if not items:
            continue
        places = ", ".join(
            _("%(scope)s #%(rank)d") % {"scope": _scope_words(entry.scope), "rank": rank} for entry, rank in items
        )
        was = previous_best(game, items[0][0])
        if board == BoardEntry.Board.TIME:
            figure, old = duration(game.elapsed_ms), duration(was) if was is not None else ""
        else:
            figure, old = str(game.moves), str(was) if was is not None else ""
        words = {"board": board.label, "figure": figure, "was": old, "places": places}
        if was is None:
            parts.append(_("%(board)s %(figure)s, your first (%(places)s)") % words)
        else:
            parts.append(_("%(board)s %(figure)s, was %(was)s (%(places)s)") % words)
    return _("New record: %(records)s.") % {"records": "; ".join(parts)} if parts else ""
