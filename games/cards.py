"""The cards as players see them: faces for the eye, names for screen readers, and what
each of the 52 slots of a table shows."""

from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import engine

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
}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_FACES = {"T": "10"}


def hint_slots(hint: str) -> tuple[engine.Slot, engine.Slot] | None:
    """The card's slot and the gap's slot of a hinted move ("R-C>R-C"); None for "shuffle" or "none"."""
    if ">" not in hint:
        return None
    (source_row, source_col), (target_row, target_col) = (part.split("-") for part in hint.split(">"))
    return (int(source_row), int(source_col)), (int(target_row), int(target_col))


def hint_words(hint: str, position: engine.Position) -> str:
    """A hint ("R-C>R-C", "shuffle", "none") said in the active language."""
    if hint == "shuffle":
        return _("Hint: shuffle now.")
    if hint == "none":
        return _("Hint: nothing helps any more; this game cannot be won from here.")
    slots = hint_slots(hint)
    card = position.card_at(slots[0]) if slots else None
    if slots is None or card is None:
        raise ValueError(f"not a hint of this position: {hint!r}")
    source, target = slots
    return _("Hint: move %(card)s (row %(row)s, column %(col)s) to the gap at row %(to_row)s, column %(to_col)s.") % {
        "card": card_name(card),
        "row": source[0] + 1,
        "col": source[1] + 1,
        "to_row": target[0] + 1,
        "to_col": target[1] + 1,
    }


def line_words(line: str) -> list[str]:
    """A line of moves in notation ("7H:1-4>1-5 ...", or "" for none), each said in the active language."""
    words = []
    for move in map(engine.Move.parse, line.split()):
        words.append(
            _("%(card)s from row %(row)s, column %(col)s to row %(to_row)s, column %(to_col)s")
            % {
                "card": card_name(move.card),
                "row": move.src[0] + 1,
                "col": move.src[1] + 1,
                "to_row": move.dst[0] + 1,
                "to_col": move.dst[1] + 1,
            }
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
        taken = engine.Move.parse(move)
        return _("Move %(number)s: undone, %(card)s back to row %(row)s, column %(col)s") % {
            "number": moves,
            "card": card_name(taken.card),
            "row": taken.src[0] + 1,
            "col": taken.src[1] + 1,
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
        played = engine.Move.parse(move)
        return _("%(card)s to row %(row)s, column %(col)s") % {
            "card": card_name(played.card),
            "row": played.dst[0] + 1,
            "col": played.dst[1] + 1,
        }
    if kind == engine.ActionKind.UNDO:
        taken = engine.Move.parse(move)
        return _("Undone: %(card)s back to row %(row)s, column %(col)s") % {
            "card": card_name(taken.card),
            "row": taken.src[0] + 1,
            "col": taken.src[1] + 1,
        }
    if kind == engine.ActionKind.REDO:
        again = engine.Move.parse(move)
        return _("Redone: %(card)s to row %(row)s, column %(col)s") % {
            "card": card_name(again.card),
            "row": again.dst[0] + 1,
            "col": again.dst[1] + 1,
        }
    if kind == engine.ActionKind.SHUFFLE:
        return ngettext("Shuffled: %(left)s left", "Shuffled: %(left)s left", shuffles_left) % {"left": shuffles_left}
    return ""


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
        return f"{self.row}-{self.col}"

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
        where = {"row": self.row + 1, "col": self.col + 1}
        if not self.card and self.fit:
            return _("Gap, row %(row)s, column %(col)s, %(card)s fits") % {**where, "card": card_name(self.fit)}
        if not self.card:
            return _("Gap, row %(row)s, column %(col)s, nothing can go here") % where
        if self.movable:
            words = _("%(card)s, row %(row)s, column %(col)s, can move")
        elif self.locked:
            words = _("%(card)s, row %(row)s, column %(col)s, in place")
        else:
            words = _("%(card)s, row %(row)s, column %(col)s, cannot move")
        return words % {**where, "card": card_name(self.card)}


class TableFacts(NamedTuple):
    """What the 52 slots of a table are drawn from (:func:`table_facts`): the cards, which
    can move, are in place, cannot be filled or are filled by what, and a hint's two slots."""

    tokens: tuple[str, ...]  # slot by slot, row after row; "" for a gap
    movable: set[engine.Slot]
    locked: frozenset[engine.Slot]
    dead: set[engine.Slot]
    fits: dict[engine.Slot, str]
    hinted: dict[engine.Slot, str]
    over: bool
    replay: bool

    def slot(self, row: int, col: int) -> SlotView:
        place = (row, col)
        return SlotView(
            row,
            col,
            self.tokens[row * engine.COLS + col],
            place in self.locked,
            place in self.movable,
            place in self.dead,
            self.fits.get(place, ""),
            self.over,
            self.replay,
            self.hinted.get(place, ""),
        )

    def slots(self) -> list[list[SlotView]]:
        """The table as 4 rows of 13 slots."""
        return [[self.slot(row, col) for col in range(engine.COLS)] for row in range(engine.ROWS)]

    def changed_from(self, before: TableFacts) -> list[SlotView]:
        """The slots drawn otherwise than in the table ``before``, row after row: those whose
        card or any fact of the slot changed, found without drawing either table."""
        if (self.over, self.replay) != (before.over, before.replay):
            return [view for row in self.slots() for view in row]
        pairs = enumerate(zip(self.tokens, before.tokens, strict=True))
        places = {divmod(i, engine.COLS) for i, (now, was) in pairs if now != was}
        places |= (self.movable ^ before.movable) | (self.locked ^ before.locked) | (self.dead ^ before.dead)
        for now, was in ((self.fits, before.fits), (self.hinted, before.hinted)):
            places |= {place for place in now.keys() | was.keys() if now.get(place) != was.get(place)}
        return [self.slot(row, col) for row, col in sorted(places)]


def table_facts(state: engine.GameState, *, replay: bool = False, hint: str = "") -> TableFacts:
    """What the table of ``state`` shows: which cards can move, which gaps can be filled
    and by what, and the card and gap of a ``hint`` ("R-C>R-C").  In a finished game or a
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
    hinted_slots = hint_slots(hint)
    return TableFacts(
        tokens=tuple(token or "" for row in position.rows() for token in row),
        movable=movable,
        locked=locked,
        dead=set(position.dead_gaps()),
        fits=fits,
        hinted={hinted_slots[0]: "from", hinted_slots[1]: "to"} if hinted_slots else {},
        over=over,
        replay=replay,
    )


def table_slots(state: engine.GameState, *, replay: bool = False, hint: str = "") -> list[list[SlotView]]:
    """The table of ``state`` as 4 rows of 13 slots (:func:`table_facts`)."""
    return table_facts(state, replay=replay, hint=hint).slots()
