"""The words and faces of the cards: names for screen readers, symbols for the eye."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine

RANK_NAMES = {
    "2": gettext_lazy("Two"), "3": gettext_lazy("Three"), "4": gettext_lazy("Four"),
    "5": gettext_lazy("Five"), "6": gettext_lazy("Six"), "7": gettext_lazy("Seven"),
    "8": gettext_lazy("Eight"), "9": gettext_lazy("Nine"), "T": gettext_lazy("Ten"),
    "J": gettext_lazy("Jack"), "Q": gettext_lazy("Queen"), "K": gettext_lazy("King"),
}
SUIT_NAMES = {
    "S": gettext_lazy("spades"), "H": gettext_lazy("hearts"),
    "D": gettext_lazy("diamonds"), "C": gettext_lazy("clubs"),
}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANK_FACES = {"T": "10"}


def card_names() -> dict[str, str]:
    """Every card's name in the active language, by token: "Seven of hearts"."""
    return _card_names(get_language())


@lru_cache(maxsize=None)
def _card_names(language: str) -> dict[str, str]:
    of = _("%(rank)s of %(suit)s")
    ranks = {rank: str(name) for rank, name in RANK_NAMES.items()}
    suits = {suit: str(name) for suit, name in SUIT_NAMES.items()}
    return {rank + suit: of % {"rank": ranks[rank], "suit": suits[suit]} for rank in ranks for suit in suits}


@dataclass(frozen=True)
class Cell:
    slot: str  # "ROW-COL", as the forms post it
    card: str  # the token, "" for a gap
    face: str
    symbol: str
    red: bool
    locked: bool
    dead: bool
    label: str

    @property
    def classes(self) -> str:
        """The slot's classes after ``slot``, as the stylesheet and the script read them."""
        if not self.card:
            return "gap dead" if self.dead else "gap"
        return "card" + " red" * self.red + " locked" * self.locked


def gap_label(r: int, c: int, fit: str) -> str:
    """A gap's words for screen readers; ``fit`` is the card that can go there, or ""."""
    if fit:
        return _("Gap, row %(row)s, column %(col)s, %(card)s fits") % {
            "row": r + 1, "col": c + 1, "card": card_names()[fit]}
    return _("Gap, row %(row)s, column %(col)s, nothing can go here") % {"row": r + 1, "col": c + 1}


def card_label(r: int, c: int, token: str, *, locked: bool, movable: bool) -> str:
    """A card's words for screen readers: "Seven of hearts, row 2, column 5, can move"."""
    words = _("can move") if movable else (_("in place") if locked else _("cannot move"))
    return _("%(card)s, row %(row)s, column %(col)s, %(state)s") % {
        "card": card_names()[token], "row": r + 1, "col": c + 1, "state": words}


def cells(state: engine.GameState) -> list[list[Cell]]:
    """The table of a replay as 4 rows of 13 cells, none of which can move.

    The game page draws its table with games/table.py instead, which is faster.
    """
    position = state.position
    locked = position.locked()
    dead = set(position.dead_gaps())
    rows = []
    for r, row in enumerate(position.rows()):
        out = []
        for c, token in enumerate(row):
            slot = (r, c)
            if token is None:
                out.append(Cell(f"{r}-{c}", "", "", "", False, False, slot in dead, gap_label(r, c, "")))
                continue
            out.append(Cell(
                f"{r}-{c}", token, RANK_FACES.get(token[0], token[0]), SUIT_SYMBOLS[token[1]],
                token[1] in "HD", slot in locked, False,
                card_label(r, c, token, locked=slot in locked, movable=False),
            ))
        rows.append(out)
    return rows
