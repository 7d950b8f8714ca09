"""What the records' templates get besides models: the words of the records a win set."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Game, Variant
from games.presenters.words import duration
from records.models import BoardEntry
from records.scopes import Scope
from records.selectors import previous_best


def record_news(game: Game, bests: list) -> str:
    """One sentence for every board a win improved (issue 26): "New record: Best time 1:42.3,
    was 1:55.0 (all time #3, this week #1); Fewest moves 117, your first (this deal #1)."
    ``bests`` is records.selectors.personal_bests(game)."""
    parts = []
    for board in (BoardEntry.Board.TIME, BoardEntry.Board.MOVES):
        items = sorted(
            ((entry, rank) for entry, rank in bests if entry.board == board),
            key=lambda item: Scope.parse(item[0].scope).breadth,  # the broadest first: its old figure is said
        )
        if not items:
            continue
        places = ", ".join(
            _("%(scope)s #%(rank)d") % {"scope": Scope.parse(entry.scope).words, "rank": rank} for entry, rank in items
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


def board_page_context(*, board: str, page, variant=None, period: str | None = None, **more) -> dict:
    """What records/leaderboard.html draws, for every board page (the global boards, a deal's,
    a day's daily board): the page of entries and the choices as the view cleaned them, among
    them the ``?variant=`` its links keep (none for the default variant, whose addresses are
    bare) and the period (none but on the global boards)."""
    variant = variant or Variant.named(None)
    return {
        "board": board,
        "boards": BoardEntry.Board.choices,
        "page": page,
        "variant": variant,
        "variant_param": None if variant.rules.default else variant.value,
        "period": period,
        **more,
    }


def page_choice(query) -> dict:
    """Which page of a board a request's query asks for: its number, and the cursor its link
    carried (records.selectors.board_page)."""
    return {"page": query.get("page"), "after": query.get("after"), "before": query.get("before")}
