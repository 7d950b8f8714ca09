"""What the game's templates get, in one place: the cards as players see them (faces for
the eye, names for screen readers), what each of the 52 slots of a table (56 on a moon's) shows, the status
bar, and the words for a move, a hint, a refusal or a pause.  The other apps' presenters
build on these (records/presenters.py)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from addiction_site.ownership import SiteRequest
from games import engine, pace
from games.clock import elapsed_at, idle_cap_ms, pause_ms, tick_ms_left
from games.models import Action, Game
from games.preferences import drawn_as, marks_movable
from games.selectors import game_analysis, game_pace

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
    for move in (engine.Move.parse(text, engine.MAX_COLS) for text in line.split()):
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
        taken = engine.Move.parse(move, engine.MAX_COLS)
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
        played = engine.Move.parse(move, engine.MAX_COLS)
        return _("%(card)s to row %(row)s, column %(col)s") % {"card": card_name(played.card), **where(played.dst)}
    if kind == engine.ActionKind.UNDO:
        taken = engine.Move.parse(move, engine.MAX_COLS)
        return _("Undone: %(card)s back to row %(row)s, column %(col)s") % {
            "card": card_name(taken.card),
            **where(taken.src),
        }
    if kind == engine.ActionKind.REDO:
        again = engine.Move.parse(move, engine.MAX_COLS)
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


class SlotView(NamedTuple):
    """What one slot of a table shows and can do.  A value: equal slots are drawn alike,
    and the template tag ``slots`` draws each distinct one once."""

    row: int
    col: int
    card: str  # the token, "" for a gap
    locked: bool = False
    movable: bool = False
    dead: bool = False  # a gap that nothing can fill
    fit: str = ""  # a gap's card that a click brings there
    over: bool = False  # the game is over: nothing can be clicked
    replay: bool = False  # a step of a replay: a picture, not a button
    hinted: str = ""  # "from": the card a hint moves; "to": the gap it goes to
    moved: bool = False  # a replay's step: the card that step moved (or an undo put back)

    @property
    def name(self) -> str:
        """ "ROW-COL", as the forms post it."""
        return engine.slot_name((self.row, self.col))

    @property
    def face(self) -> str:
        return RANK_FACES.get(self.card[0], self.card[0]) if self.card else ""

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self.card[1]] if self.card else ""

    @property
    def classes(self) -> str:
        """The slot's classes after ``slot``, as the stylesheet and the script read them."""
        hinted = f" hint-{self.hinted}" if self.hinted else ""
        if not self.card:
            return ("gap dead" if self.dead else "gap") + hinted
        return (
            "card"
            + " red" * (self.card[1] in "HD")
            + " locked" * self.locked
            + " movable" * self.movable
            + " moved" * self.moved
            + hinted
        )

    def drawing(self) -> dict:
        """What games/_slot.html draws, as plain values."""
        return {
            **self._asdict(),
            "name": self.name,
            "face": self.face,
            "symbol": self.symbol,
            "classes": self.classes,
            "label": self.label(),
        }

    def label(self) -> str:
        """The slot's words for screen readers, in the active language."""
        at = where((self.row, self.col))
        if not self.card and self.fit:
            return _("Gap, row %(row)s, column %(col)s, %(card)s fits") % {**at, "card": card_name(self.fit)}
        if not self.card:
            return _("Gap, row %(row)s, column %(col)s, nothing can go here") % at
        if self.movable:
            words = _("%(card)s, row %(row)s, column %(col)s, can move")
        elif self.locked:
            words = _("%(card)s, row %(row)s, column %(col)s, in place")
        else:
            words = _("%(card)s, row %(row)s, column %(col)s, cannot move")
        return words % {**at, "card": card_name(self.card)}


class TableFacts(NamedTuple):
    """What the 52 slots of a table (56 where the aces stay) are drawn from (:func:`table_facts`): the cards, which
    can move, are in place, cannot be filled or are filled by what, and a hint's two slots."""

    tokens: tuple[str, ...]  # slot by slot, row after row; "" for a gap
    movable: set[engine.Slot]
    locked: frozenset[engine.Slot]
    dead: set[engine.Slot]
    fits: dict[engine.Slot, str]
    hinted: dict[engine.Slot, str]
    over: bool
    replay: bool
    cols: int = engine.COLS  # 14 where the aces stay (Blue Moon, Red Moon)

    def slot(self, row: int, col: int) -> SlotView:
        place = (row, col)
        return SlotView(
            row,
            col,
            self.tokens[row * self.cols + col],
            place in self.locked,
            place in self.movable,
            place in self.dead,
            self.fits.get(place, ""),
            self.over,
            self.replay,
            self.hinted.get(place, ""),
        )

    def slots(self) -> list[list[SlotView]]:
        """The table as 4 rows of 13 slots (14 where the aces stay)."""
        return [[self.slot(row, col) for col in range(self.cols)] for row in range(engine.ROWS)]

    def changed_from(self, before: TableFacts) -> list[SlotView]:
        """The slots drawn otherwise than in the table ``before``, row after row: those whose
        card or any fact of the slot changed, found without drawing either table."""
        if (self.over, self.replay) != (before.over, before.replay):
            return [view for row in self.slots() for view in row]
        pairs = enumerate(zip(self.tokens, before.tokens, strict=True))
        places = {divmod(i, self.cols) for i, (now, was) in pairs if now != was}
        places |= (self.movable ^ before.movable) | (self.locked ^ before.locked) | (self.dead ^ before.dead)
        for now, was in ((self.fits, before.fits), (self.hinted, before.hinted)):
            places |= {place for place in now.keys() | was.keys() if now.get(place) != was.get(place)}
        return [self.slot(row, col) for row, col in sorted(places)]


def table_facts(state: engine.GameState, *, replay: bool = False, hint: engine.Hint | None = None) -> TableFacts:
    """What the table of ``state`` shows: which cards can move, which gaps can be filled
    and by what, and the card and gap of a move's ``hint``.  In a finished game or a
    replay nothing can move."""
    position = state.position
    over = state.is_over
    moves = [] if over or replay else position.legal_moves()
    movable = {move.src for move in moves}
    fits: dict[engine.Slot, str] = {}
    for move in moves:
        fits.setdefault(move.dst, move.card)
    for r, c in fits:
        if c == 0:  # a 2 goes to the topmost column-0 gap it fits; the click rule says which
            click = position.move_for_slot((r, c))
            if click is not None:  # always, for a gap some card fits
                fits[r, c] = click.card
    locked = position.locked()
    # A card in place may still move (a 2 heading its run, to another column-0 gap), which
    # only undoes progress: the move stays legal, but the card is not marked as one that can.
    movable -= locked
    return TableFacts(
        tokens=tuple(token or "" for row in position.rows() for token in row),
        movable=movable,
        locked=locked,
        dead=set(position.dead_gaps()),
        fits=fits,
        hinted={hint.src: "from", hint.dst: "to"} if hint and hint.kind is engine.HintKind.MOVE else {},  # type: ignore[dict-item]
        over=over,
        replay=replay,
        cols=position.variant.cols,
    )


def table_slots(
    state: engine.GameState, *, replay: bool = False, hint: engine.Hint | None = None
) -> list[list[SlotView]]:
    """The table of ``state`` as 4 rows of 13 slots, or 14 (:func:`table_facts`)."""
    return table_facts(state, replay=replay, hint=hint).slots()


# What the player reads when the rules refuse an action; other refusals cannot come
# from a click on the page, and get the general words.
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


@dataclass(frozen=True)
class Actions:
    """All that the game's actions (_actions.html) are drawn from, and nothing else: a value,
    so that it is also their fragment's cache key (_status_live.html)."""

    game_pk: int
    deal_number: int
    variant: str
    over: bool
    won: bool
    signed_in: bool
    can_undo: bool
    can_redo: bool
    stuck: bool
    hint_shuffle: bool  # the hint for the table as it is says to shuffle
    shuffles_left: int
    assisted: bool
    language: str


@dataclass(frozen=True)
class StatusBar:
    """What the status bar shows besides the game's own columns."""

    note: str  # why the last action was refused, or ""
    said: str  # what the action just played did, for screen readers (game.js copies it to the live region), or ""
    hint: str  # the hint for the table as it is, in words, or ""
    stuck: bool  # playing, and no card can move
    elapsed_ms: int  # the game's time now
    tick_ms_left: int  # how long the page's clock may tick on before the idle cap
    actions: Actions


def table_context(request: SiteRequest, game: Game, note: str = "", logged: Action | None = None) -> dict:
    """What the table's templates (_grid.html, _status.html) draw: the slots and the status bar."""
    context = status_bar_context(request, game, note, logged)
    return {
        **context,
        "figures": grid_figures(game, context["bar"].elapsed_ms),
        "slots": table_slots(game.state(), hint=game.hint_now),
        "mark_movable": marks_movable(request),
        "drawn_as": drawn_as(request),
    }


def status_bar_context(request: SiteRequest, game: Game, note: str = "", logged: Action | None = None) -> dict:
    """What the status bar's templates (_status.html, _status_live.html) draw; ``logged`` is
    the action just played, whose words the live region says."""
    now = timezone.now()
    state, hint = game.state(), game.hint_now  # the hint read from its column once
    stuck = not game.is_over and state.position.is_stuck()
    actions = Actions(
        game_pk=game.pk,
        deal_number=game.deal_number,
        variant=game.variant,
        over=game.is_over,
        won=game.status == engine.Status.WON,
        signed_in=request.user.is_authenticated,
        can_undo=game.can_undo,
        can_redo=game.can_redo,
        stuck=stuck,
        hint_shuffle=hint == engine.SHUFFLE_NOW,
        shuffles_left=game.shuffles_left,
        assisted=game.assisted,
        language=get_language(),
    )
    return {
        "game": game,
        "bar": StatusBar(
            note=note,
            said=said_words(logged.kind, logged.move, game.shuffles_left) if logged else "",
            hint=hint_words(hint, state.position) if hint else "",
            stuck=stuck,
            elapsed_ms=elapsed_at(game, now),
            tick_ms_left=tick_ms_left(game, now),
            actions=actions,
        ),
        "max_actions": engine.MAX_ACTIONS,
    }


def grid_figures(game: Game, elapsed_ms: int) -> dict:
    """The grid's figures, as its data-* attributes carry them (docs/TABLE.md): _grid.html
    writes them, and an answer of changes sends them for game.js to put in place."""
    return {
        "data-version": game.version,
        "data-status": game.status,
        "data-moves": game.moves,
        "data-shuffles-left": game.shuffles_left,
        "data-elapsed-ms": elapsed_ms,
        "data-hint": str(game.hint_now or ""),  # "": no hint, the attribute goes
    }


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
    """What a won game's player is told of its review (docs/RULES.md, "Human pace"), or ""."""
    if game.review == Game.Review.HELD:
        why = "; ".join(pace_words(game_pace(game)))
        return _(
            "This win is held for review and is on no board for now: it was played faster than a "
            "person plays (%(why)s). If a moderator approves it, it enters the boards."
        ) % {"why": why}
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


@dataclass(frozen=True)
class Picture:
    """A table drawn as a picture for the rules page: its slots, and what it shows in words."""

    name: str
    slots: list
    caption: str
    wide: bool = False  # a table of 14 columns (Blue Moon, Red Moon)


@lru_cache(maxsize=1)
def _rules_states() -> tuple:
    """The rules page's example tables, played by the engine (the same each time): a deal, the
    table after its first move, a table with cards in place, and that table after a shuffle."""
    import random

    deal = engine.GameState.start(deal_number=1, seed=2026)
    first = deal.position.legal_moves()[0]
    moved = deal.play(first)
    rng, state = random.Random(7), deal
    while len(state.position.locked()) < 5 and state.shuffles_left > 1:
        moves = state.position.legal_moves()
        state = state.play(rng.choice(moves)) if moves else state.act(engine.ActionKind.SHUFFLE)[0]
    locked = state
    shuffled, _move = locked.act(engine.ActionKind.SHUFFLE)
    return deal, (moved, first), locked, shuffled


def rules_pictures() -> list[Picture]:
    """The rules page's pictures (issue 26), each drawn by the table's own templates."""
    deal, (moved, first), locked, shuffled = _rules_states()
    after_move = table_slots(moved, replay=True)
    row, col = first.dst
    after_move[row][col] = after_move[row][col]._replace(moved=True)
    in_place = len(locked.position.locked())
    return [
        Picture(
            "deal",
            table_slots(deal, replay=True),
            _("The deal: 48 cards in 4 rows of 13, and 4 gaps where the aces were."),
        ),
        Picture("move", after_move, _("A move: %(move)s.") % {"move": line_words(str(first))[0]}),
        Picture(
            "locked",
            table_slots(locked, replay=True),
            ngettext(
                "%(count)d card in place (marked ✓): a run from a 2 in column 0, each the next of its suit.",
                "%(count)d cards in place (marked ✓): runs from a 2 in column 0, each card the next of its suit.",
                in_place,
            )
            % {"count": in_place},
        ),
        Picture(
            "shuffle",
            table_slots(shuffled, replay=True),
            _("After a shuffle: the cards in place stay; the others are dealt again, with 4 new gaps."),
        ),
    ]


@lru_cache(maxsize=1)
def _variant_states() -> tuple:
    """Each variant's example tables for the rules page: its deal 1, and that deal after a first
    shuffle (each row's cards in place kept, and for Montana and the moons the gaps right after them)."""
    tables = []
    for variant in engine.VARIANTS.values():
        deal = engine.GameState.start(deal_number=1, seed=2026, variant=variant)
        tables.append((variant, deal, deal.shuffle()))
    return tuple(tables)


def variant_pictures() -> dict[str, list[Picture]]:
    """The rules page's pictures of each variant (issue 29): its deal, and its table after a
    shuffle, by the variant's key with "_" for "-" (``blue_moon``)."""
    pictures = {}
    for variant, deal, shuffled in _variant_states():
        wide = variant.wide
        name = str(Game.Variant(variant.key).label)
        pictures[variant.key.replace("-", "_")] = [  # names a template can look up
            Picture(
                f"{variant.key}-deal", table_slots(deal, replay=True), _("%(game)s: deal #1.") % {"game": name}, wide
            ),
            Picture(
                f"{variant.key}-shuffle",
                table_slots(shuffled, replay=True),
                _("%(game)s: deal #1 after a shuffle.") % {"game": name},
                wide,
            ),
        ]
    return pictures


class StretchWords(NamedTuple):
    """One stretch of a finished game's analysis, in words (docs/RULES.md, "Analysis")."""

    start: int  # the replay step it starts at: the deal (0) or a shuffle
    label: str  # "From the deal", "After shuffle 2"
    verdict: str  # solver.Verdict's value: won, proved_lost, unknown
    line: list[str]  # a winning line from its start, in words
    slip: int | None  # the replay step after which no win was left, if one was
    played: str  # what the player did at that step
    instead: str  # a move that kept the win there


class AnalysisWords(NamedTuple):
    done: bool
    stretches: list[StretchWords]
    fewest_moves: int | None
    asked: bool = True  # False: nobody asked for it yet (a game from before analyses)

    @property
    def slips(self) -> list[StretchWords]:
        return [stretch for stretch in self.stretches if stretch.slip is not None]

    def at(self, step: int) -> dict:
        """What the replay says at ``step``: the stretch that starts there, the one that slipped there."""
        return {
            "starts": next((s for s in self.stretches if s.start == step and s.verdict == "won"), None),
            "slips": next((s for s in self.stretches if s.slip == step), None),
        }


def analysis_words(game: Game) -> AnalysisWords:
    """What the end screen and the replay say of ``game``'s analysis: not done yet, or each
    stretch's verdict and slip in words."""
    analysis = game_analysis(game)
    if analysis is None or not analysis.done:
        return AnalysisWords(False, [], None, asked=analysis is not None)
    stretches = []
    for entry in analysis.stretches:
        used = entry["shuffles_used"]
        label = _("From the deal") if not used else _("After shuffle %(number)s") % {"number": used}
        kind = entry.get("played_kind", "")
        if kind == engine.ActionKind.SHUFFLE.value:
            played = _("the shuffle")
        elif kind == engine.ActionKind.RESIGN.value:
            played = _("giving up")
        elif entry["played"]:
            played = line_words(entry["played"])[0]
        else:
            played = ""
        stretches.append(
            StretchWords(
                start=entry["start"],
                label=str(label),
                verdict=entry["verdict"],
                line=line_words(entry["line"]),
                slip=entry["slip"],
                played=str(played),
                instead=line_words(entry["instead"])[0] if entry["instead"] else "",
            )
        )
    return AnalysisWords(True, stretches, analysis.fewest_moves)
