"""Puzzles in words and in the table's terms (docs/RULES.md, "Puzzles"): what an attempt's page
draws with the game's own table templates (games/_grid.html, games/_slots.html), how it ended in
words, and the result to share."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from addiction_site.ownership import SiteRequest
from games import engine
from games.preferences import drawn_as, marks_movable
from games.presenters.table import table_slots
from games.presenters.words import line_words, refusal_text, said_words
from puzzles.models import Attempt
from puzzles.services import attempt_state


def table_context(request: SiteRequest, attempt: Attempt, note: str = "", *, moved: bool = False) -> dict:
    """What the attempt's table draws: the game's grid and slots, posting to the attempt; after
    a move (``moved``), what it did, in words, for the live region (docs/TABLE.md, ``#said``)."""
    state = attempt_state(attempt)
    return {
        "attempt": attempt,
        "game": attempt,  # what games/_grid.html reads of a game: cols, rules, is_over, version
        "move_url": attempt_url(attempt) + "move/",
        "figures": {
            "data-version": attempt.version,
            "data-status": state.status.value,
            "data-moves": attempt.moves,
            "data-shuffles-left": 0,
        },
        "slots": table_slots(state),
        "mark_movable": marks_movable(request),
        "drawn_as": drawn_as(request),
        "refused_words": {
            "card": refusal_text(engine.Refusal.CANNOT_MOVE),
            "gap": refusal_text(engine.Refusal.NOTHING_FITS),
        },
        "note": note,
        "said": said_words("move", attempt.played.split()[-1], 0) if moved and attempt.played else "",
        "ending": ending_words(attempt),
    }


def attempt_url(attempt: Attempt) -> str:
    return reverse("puzzles:attempt", args=[attempt.pk])


def ending_words(attempt: Attempt) -> dict:
    """How a finished attempt ended, in words: the result, the move that lost the win and why
    (the search's proof), and the move that kept it."""
    if attempt.status == Attempt.Status.SOLVED:
        result = ngettext("Solved, in %(count)s move.", "Solved, in %(count)s moves.", attempt.moves) % {
            "count": attempt.moves
        }
        if not attempt.rest:
            return {"result": result}
        rest = ngettext(
            "From there every line wins: %(count)s move was played for you to the end.",
            "From there every line wins: %(count)s moves were played for you to the end.",
            attempt.rest,
        ) % {"count": attempt.rest}
        return {"result": result, "reason": rest}
    if attempt.status != Attempt.Status.FAILED:
        return {}
    kept = line_words(attempt.kept)[0] if attempt.kept else ""
    if not attempt.slip:
        return {"result": _("You gave up this puzzle."), "kept": kept}
    return {
        "result": _("Not solved: %(move)s lost the win.") % {"move": line_words(attempt.slip)[0]},
        "reason": ngettext(
            "After it no win is left without a shuffle: the search tried every line from there (%(count)s position).",
            "After it no win is left without a shuffle: the search tried every line from there (%(count)s positions).",
            attempt.proof_nodes or 0,
        )
        % {"count": attempt.proof_nodes or 0},
        "kept": kept,
    }


def share_text(attempt: Attempt, link: str) -> str:
    """A finished puzzle's result to share: which puzzle (the day's, or its number), solved or
    not, the moves, the rating after a rated attempt, and the link; no card and no move."""
    solved = attempt.status == Attempt.Status.SOLVED
    name = (
        _("Addiction daily puzzle %(day)s") % {"day": attempt.daily.isoformat()}
        if attempt.daily
        else _("Addiction puzzle #%(number)s") % {"number": attempt.puzzle_id}
    )
    moves = ngettext("%(count)s move", "%(count)s moves", attempt.moves) % {"count": attempt.moves}
    # Translators: a shared puzzle result's first line: "Addiction puzzle #12: solved in 9 moves".
    head = (_("%(name)s: solved in %(moves)s") if solved else _("%(name)s: not solved, %(moves)s")) % {
        "name": name,
        "moves": moves,
    }
    squares = "🟩" * (attempt.moves - 1) + ("🟥" if attempt.slip else "🟩") if attempt.moves else ""
    lines = [head, ("✅ " if solved else "❌ ") + squares]
    if attempt.rating_after is not None:
        lines.append(_("Puzzle rating: %(rating)s") % {"rating": round(attempt.rating_after)})
    return "\n".join([*lines, link])
