"""The game's words, in the player's language: a card's name and face, a move, a hint, an
action just played or a replay's step, a refusal, a pause and the idle cap, a game's pace and
review, the limits' notes, and each variant's rules in a line.  The one place where the
engine's codes (a Refusal, an ActionKind) become words."""

from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import engine, evidence, pace
from games.clock import idle_cap_ms, pause_ms
from games.models import Game
from games.selectors import game_pace

# Each card's name whole, so that each language says it its own way (the order of the words,
# a rank's gender) and a name costs one lookup in the catalog.
CARD_NAMES = {
    "2S": gettext_lazy("Two of spades"),
    "3S": gettext_lazy("Three of spades"),
    "4S": gettext_lazy("Four of spades"),
    "5S": gettext_lazy("Five of spades"),
    "6S": gettext_lazy("Six of spades"),
    "7S": gettext_lazy("Seven of spades"),
    "8S": gettext_lazy("Eight of spades"),
    "9S": gettext_lazy("Nine of spades"),
    "TS": gettext_lazy("Ten of spades"),
    "JS": gettext_lazy("Jack of spades"),
    "QS": gettext_lazy("Queen of spades"),
    "KS": gettext_lazy("King of spades"),
    "2H": gettext_lazy("Two of hearts"),
    "3H": gettext_lazy("Three of hearts"),
    "4H": gettext_lazy("Four of hearts"),
    "5H": gettext_lazy("Five of hearts"),
    "6H": gettext_lazy("Six of hearts"),
    "7H": gettext_lazy("Seven of hearts"),
    "8H": gettext_lazy("Eight of hearts"),
    "9H": gettext_lazy("Nine of hearts"),
    "TH": gettext_lazy("Ten of hearts"),
    "JH": gettext_lazy("Jack of hearts"),
    "QH": gettext_lazy("Queen of hearts"),
    "KH": gettext_lazy("King of hearts"),
    "2D": gettext_lazy("Two of diamonds"),
    "3D": gettext_lazy("Three of diamonds"),
    "4D": gettext_lazy("Four of diamonds"),
    "5D": gettext_lazy("Five of diamonds"),
    "6D": gettext_lazy("Six of diamonds"),
    "7D": gettext_lazy("Seven of diamonds"),
    "8D": gettext_lazy("Eight of diamonds"),
    "9D": gettext_lazy("Nine of diamonds"),
    "TD": gettext_lazy("Ten of diamonds"),
    "JD": gettext_lazy("Jack of diamonds"),
    "QD": gettext_lazy("Queen of diamonds"),
    "KD": gettext_lazy("King of diamonds"),
    "2C": gettext_lazy("Two of clubs"),
    "3C": gettext_lazy("Three of clubs"),
    "4C": gettext_lazy("Four of clubs"),
    "5C": gettext_lazy("Five of clubs"),
    "6C": gettext_lazy("Six of clubs"),
    "7C": gettext_lazy("Seven of clubs"),
    "8C": gettext_lazy("Eight of clubs"),
    "9C": gettext_lazy("Nine of clubs"),
    "TC": gettext_lazy("Ten of clubs"),
    "JC": gettext_lazy("Jack of clubs"),
    "QC": gettext_lazy("Queen of clubs"),
    "KC": gettext_lazy("King of clubs"),
    # The aces are on the table only in Blue Moon and Red Moon, heading the rows.
    "AS": gettext_lazy("Ace of spades"),
    "AH": gettext_lazy("Ace of hearts"),
    "AD": gettext_lazy("Ace of diamonds"),
    "AC": gettext_lazy("Ace of clubs"),
}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_FACES = {"T": "10"}


def where(slot: engine.Slot, prefix: str = "") -> dict[str, int]:
    """A slot as the words say it, row and column counted from 1: ``{"row": 2, "col": 5}``
    for slot 1-4; with ``prefix="to_"``, ``{"to_row": ..., "to_col": ...}``."""
    return {f"{prefix}row": slot[0] + 1, f"{prefix}col": slot[1] + 1}


def logged_move(text: str) -> engine.Move:
    """A move as a log or a line keeps it (``7H:1-4>1-5``), to be said: read as on the widest
    table, since a slot is the same slot on every table (engine.STRIDE), and the move was
    checked against its own table when it was played or found."""
    return engine.Move.parse(text, engine.MAX_COLS)


def hint_words(hint: engine.Hint, position: engine.Position) -> str:
    """A hint said in the active language."""
    if hint.kind is engine.HintKind.SHUFFLE:
        return _("Hint: shuffle now.")
    if hint.kind is engine.HintKind.NOTHING:
        return _("Hint: nothing helps any more; this game cannot be won from here.")
    assert hint.src is not None and hint.dst is not None  # a move's hint has both slots
    card = position.card_at(hint.src)
    if card is None:
        raise ValueError(f"not a hint of this position: {hint}")
    return _("Hint: move %(card)s (row %(row)s, column %(col)s) to the gap at row %(to_row)s, column %(to_col)s.") % {
        "card": card_name(card),
        **where(hint.src),
        **where(hint.dst, "to_"),
    }


def line_words(line: str) -> list[str]:
    """A line of moves in notation ("7H:1-4>1-5 ...", or "" for none), each said in the active language."""
    words = []
    for move in (logged_move(text) for text in line.split()):
        words.append(
            _("%(card)s from row %(row)s, column %(col)s to row %(to_row)s, column %(to_col)s")
            % {"card": card_name(move.card), **where(move.src), **where(move.dst, "to_")}
        )
    return words


def step_words(kind: str, move: str, moves: int, shuffles_left: int) -> str:
    """What one logged action did, in the active language, for a replay: ``kind`` and
    ``move`` as the log keeps them (an undo's move is the one it takes back), ``moves`` and
    ``shuffles_left`` the counters after it, so moves are numbered from 1 as the game
    counts them (an undo is a move): "Move 12: Two of spades from row 2, column 9 to row 2,
    column 1", "Move 13: undone, Two of spades back to row 2, column 9", "Move 14: redone, Two
    of spades from row 2, column 9 to row 2, column 1", "Shuffle: 2 left"; "Gave up" for giving up."""
    if kind == engine.ActionKind.MOVE:
        return _("Move %(number)s: %(move)s") % {"number": moves, "move": line_words(move)[0]}
    if kind == engine.ActionKind.UNDO:
        taken = logged_move(move)
        return _("Move %(number)s: undone, %(card)s back to row %(row)s, column %(col)s") % {
            "number": moves,
            "card": card_name(taken.card),
            **where(taken.src),
        }
    if kind == engine.ActionKind.REDO:
        return _("Move %(number)s: redone, %(move)s") % {"number": moves, "move": line_words(move)[0]}
    if kind == engine.ActionKind.SHUFFLE:
        return ngettext("Shuffle: %(left)s left", "Shuffle: %(left)s left", shuffles_left) % {"left": shuffles_left}
    return _("Gave up")


def said_words(kind: str, move: str, shuffles_left: int) -> str:
    """What an action just did, in the active language, for the live region of the table
    (a screen reader says it after each action): "Seven of hearts to row 2, column 5",
    "Undone: Seven of hearts back to row 2, column 9", "Shuffled: 2 left"; "" for giving up,
    which the result says."""
    if kind == engine.ActionKind.MOVE:
        played = logged_move(move)
        return _("%(card)s to row %(row)s, column %(col)s") % {"card": card_name(played.card), **where(played.dst)}
    if kind == engine.ActionKind.UNDO:
        taken = logged_move(move)
        return _("Undone: %(card)s back to row %(row)s, column %(col)s") % {
            "card": card_name(taken.card),
            **where(taken.src),
        }
    if kind == engine.ActionKind.REDO:
        again = logged_move(move)
        return _("Redone: %(card)s to row %(row)s, column %(col)s") % {
            "card": card_name(again.card),
            **where(again.dst),
        }
    if kind == engine.ActionKind.SHUFFLE:
        return ngettext("Shuffled: %(left)s left", "Shuffled: %(left)s left", shuffles_left) % {"left": shuffles_left}
    return ""


def duration(milliseconds) -> str:
    """A game's time to the tenth of a second (docs/RULES.md, "Counting"): M:SS.t, or
    H:MM:SS.t from an hour on.  Tenths are cut, not rounded, as the boards rank on milliseconds.
    The one way a time is written: the template filter ``duration`` is this."""
    tenths = max(0, int(milliseconds or 0) // 100)
    seconds, tenth = divmod(tenths, 10)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}.{tenth}"
    return f"{minutes}:{seconds:02d}.{tenth}"


def card_name(token: str) -> str:
    """A card's name in the active language: "Seven of hearts"."""
    return str(CARD_NAMES[token])


REFUSALS = {
    engine.Refusal.GAME_OVER: gettext_lazy("This game is over."),
    engine.Refusal.NOTHING_FITS: gettext_lazy("No card can go into that gap."),
    engine.Refusal.CANNOT_MOVE: gettext_lazy("That card cannot move."),
    engine.Refusal.NOTHING_TO_UNDO: gettext_lazy("There is no move to undo since the last shuffle."),
    engine.Refusal.NOTHING_TO_REDO: gettext_lazy("There is no undone move to redo."),
    engine.Refusal.NO_SHUFFLE_LEFT: gettext_lazy("No shuffle is left."),
}
STALE = gettext_lazy("This page was out of date; here is the table as it is now.")


def refusal_text(reason: engine.Refusal) -> str:
    """Why an action was refused, in the player's language."""
    return str(REFUSALS[reason]) if reason in REFUSALS else _("The rules do not allow that.")


def break_words(game: Game, now) -> str:
    """For a game resumed after a pause longer than the idle cap: how much of it was counted."""
    pause, cap = pause_ms(game, now) // 1000, idle_cap_ms() // 1000
    if pause <= cap:
        return ""
    return _(
        "Welcome back. You were away for %(away)s; %(counted)s of it counts in this game's time "
        "(a pause counts at most %(cap)s)."
    ) % {"away": pause_words(pause), "counted": pause_words(cap), "cap": idle_cap_words()}


def pause_words(seconds: int) -> str:
    """A pause said for people, in its largest unit: "3 days", "5 hours", "2 minutes", "40 seconds"."""
    for unit, words in (
        (86400, lambda n: ngettext("%(count)d day", "%(count)d days", n)),
        (3600, lambda n: ngettext("%(count)d hour", "%(count)d hours", n)),
        (60, lambda n: ngettext("%(count)d minute", "%(count)d minutes", n)),
    ):
        if seconds >= unit:
            return words(seconds // unit) % {"count": seconds // unit}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def idle_cap_words() -> str:
    """The idle cap said for people: "2 minutes", "90 seconds"."""
    seconds = idle_cap_ms() // 1000
    if seconds % 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    minutes = seconds // 60
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def pace_words(found: pace.Pace) -> list[str]:
    """Why a game's pace is not a person's (games/pace.py), in words: empty when it is."""
    words = []
    for reason in found.reasons:
        if reason is pace.Reason.FAST_MOVES:
            words.append(
                ngettext(
                    "%(fast)d of its %(moves)d moves came less than %(ms)d ms after the action before",
                    "%(fast)d of its %(moves)d moves came less than %(ms)d ms after the action before",
                    found.fast_moves,
                )
                % {"fast": found.fast_moves, "moves": found.moves, "ms": pace.FAST_MOVE_MS}
            )
        else:
            words.append(
                _("%(per)d ms a move over the whole game, where a person needs at least %(limit)d ms")
                % {"per": found.ms_per_move, "limit": pace.GAME_MS_PER_MOVE}
            )
    return words


def review_note(game: Game) -> str:
    """What a won game's player is told of its review (docs/RULES.md, "Human pace" and "Review
    before the top"), or ""."""
    if game.review == Game.Review.HELD:
        why = "; ".join(pace_words(game_pace(game)))
        return _(
            "This win is held for review and is on no board for now: it was played faster than a "
            "person plays (%(why)s). If a moderator approves it, it enters the boards."
        ) % {"why": why}
    if game.review == Game.Review.PENDING:
        return _(
            "This win would enter the first places of a board, so it is pending review: a moderator "
            "looks at how it was played before it is ranked. Until then it is on no board."
        )
    if game.review == Game.Review.CLEARED:
        return _("This win entered the first places of a board at once: the way it was played is a person's.")
    if game.review == Game.Review.REJECTED:
        return _("A moderator reviewed this win's pace and did not rank it.")
    if game.review == Game.Review.APPROVED:
        return _("A moderator reviewed this win's pace and approved it.")
    return ""


def hint_wait_words(wait: int) -> str:
    """The note for a hint asked for over the limit (addiction_site/limits.py)."""
    return ngettext(
        "Too many hints were asked for from here. Try again in %(seconds)d second.",
        "Too many hints were asked for from here. Try again in %(seconds)d seconds.",
        wait,
    ) % {"seconds": wait}


def verdict_wait_words(wait: int) -> str:
    """The note for an analysis asked for over the limit (addiction_site/limits.py)."""
    return ngettext(
        "Too many analyses were asked for from here. Try again in %(seconds)d second.",
        "Too many analyses were asked for from here. Try again in %(seconds)d seconds.",
        wait,
    ) % {"seconds": wait}


class VariantChoice(NamedTuple):
    """One game of the family as the home page offers it: its key, its name, its rules in a line."""

    key: str
    name: str
    summary: str


# How each kind of opening lays the cards out (engine.Variant.opening, docs/RULES.md, "The variants").
OPENINGS = {
    "aces out": gettext_lazy("48 cards, the aces out"),
    "aces moved": gettext_lazy("All 52 cards in rows of 14, the aces moved to head the rows; runs from the ace"),
    "aces first": gettext_lazy("The aces head the rows with a gap after each, the other 48 cards dealt after them"),
}


def variant_summary(rules: engine.Variant) -> str:
    """A variant's rules in a line, from its facts: its opening, its shuffles and where a
    shuffle puts the gaps."""
    count = rules.shuffles
    if rules.gaps_after_runs:
        shuffles = ngettext(
            "%(count)d shuffle, after which each row's gap stands right after its run.",
            "%(count)d shuffles, after which each row's gap stands right after its run.",
            count,
        )
    else:
        shuffles = ngettext(
            "%(count)d shuffle, after which the gaps fall anywhere.",
            "%(count)d shuffles, after which the gaps fall anywhere.",
            count,
        )
    return _("%(opening)s; %(shuffles)s") % {
        "opening": OPENINGS[rules.opening],
        "shuffles": shuffles % {"count": count},
    }


def variant_intro(rules: engine.Variant) -> str:
    """The home page's first words on the variant chosen: the aim, and its shuffles."""
    if rules.aces_stay:
        aim = _("Put each row in order, ace to King of one suit, by sliding cards into the gaps.")
    else:
        aim = _("Put each row in order, 2 to King of one suit, by sliding cards into the gaps.")
    count = rules.shuffles
    shuffles = ngettext("%(count)d shuffle per game.", "%(count)d shuffles per game.", count) % {"count": count}
    return f"{aim} {shuffles}"


def variant_choices() -> list[VariantChoice]:
    """The variants, the default first, each with its rules in a line (docs/RULES.md, "The variants")."""
    return [VariantChoice(v.value, str(v.label), variant_summary(v.rules)) for v in Game.Variant]


SIGN_WORDS = {
    "long_run": gettext_lazy("a long run of moves with no pause to think"),
    "unread_tables": gettext_lazy("no pause to read the table before the first move of the deal or of any shuffle"),
    "even_pace": gettext_lazy("an even pace, where a person's is uneven"),
    "under_model": gettext_lazy("faster than the fastest person by the Keystroke-Level Model"),
    "solver_line": gettext_lazy("most moves on the solver's own line"),
    "opening_won": gettext_lazy("won from the deal with no shuffle"),
    "new_player": gettext_lazy("a player with little history"),
    "redraws": gettext_lazy("many guests' deals given up or claimed"),
    "crowded_address": gettext_lazy("many other players from the same address that day"),
}
"""The signs of games/evidence.py (Sign), in words for the moderators."""


def evidence_rows(kept) -> dict:
    """The evidence on a win (a games.models.Evidence, or None) as the moderators' queue
    shows it: its score against the threshold, its signs in words, and its facts."""
    if kept is None:
        return {}
    facts = kept.facts
    return {
        "score": kept.score,
        "hold": evidence.HOLD_SCORE,
        "signs": [SIGN_WORDS.get(key, key) for key in kept.signs],
        "facts": [
            (_("Moves"), facts.get("moves")),
            (_("Time (ms)"), facts.get("elapsed_ms")),
            (_("Fastest person's time by the model (ms)"), evidence.Facts(**facts).model_ms if facts else None),
            (_("Think pauses (1.35 s or more)"), facts.get("pauses")),
            (_("Tables read before their first move"), f"{facts.get('stretches_read')} / {facts.get('stretches')}"),
            (_("Longest run with no pause"), facts.get("longest_run")),
            (_("Spread of the gaps"), facts.get("spread")),
            (_("Median gap (ms)"), facts.get("median_gap_ms")),
            (_("Share of moves on the solver's line"), "-" if kept.solver_share is None else kept.solver_share),
            (_("Games before, won"), f"{facts.get('games_before')}, {facts.get('wins_before')}"),
            (_("Draws given up, guests claimed"), f"{facts.get('draws_given_up')}, {facts.get('guests_claimed')}"),
            (_("Races joined"), facts.get("races")),
            (
                _("Other accounts, guests from the address that day"),
                f"{facts.get('address_accounts')}, {facts.get('address_guests')}",
            ),
        ],
    }
