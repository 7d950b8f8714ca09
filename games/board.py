"""What the grid template shows of a game: one cell per slot, with words for screen readers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
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
    movable: bool
    dead: bool
    label: str

    @property
    def classes(self) -> str:
        """The slot's classes after ``slot``, as the stylesheet and the script read them."""
        if not self.card:
            return "gap dead" if self.dead else "gap"
        return "card" + " red" * self.red + " locked" * self.locked + " movable" * self.movable


def cells(state: engine.GameState, *, playable: bool = True) -> list[list[Cell]]:
    """The table as 4 rows of 13 cells; with ``playable`` off (a replay), none can move."""
    position = state.position
    moves = position.legal_moves() if playable and not state.is_over else []
    movable = {move.src for move in moves}
    fits = {}
    for move in moves:
        fits.setdefault(move.dst, move)
    locked = position.locked()
    dead = set(position.dead_gaps())
    # Each word is translated once per table: a gettext call costs microseconds, and
    # 52 labels made word by word took over 250 calls, a tenth of a move's time.
    names = card_names()
    gap_fits = _("Gap, row %(row)s, column %(col)s, %(card)s fits")
    gap_empty = _("Gap, row %(row)s, column %(col)s, nothing can go here")
    card_label = _("%(card)s, row %(row)s, column %(col)s, %(state)s")
    can_move_words, in_place_words, cannot_move_words = _("can move"), _("in place"), _("cannot move")
    rows = []
    for r, row in enumerate(position.rows()):
        out = []
        for c, token in enumerate(row):
            slot = (r, c)
            where = {"row": r + 1, "col": c + 1}
            if token is None:
                if slot in fits:
                    fit = position.move_for_slot(slot) if c == 0 else fits[slot]
                    label = gap_fits % {**where, "card": names[fit.card]}
                else:
                    label = gap_empty % where
                out.append(Cell(f"{r}-{c}", "", "", "", False, False, False, slot in dead, label))
                continue
            can_move = slot in movable
            state_words = can_move_words if can_move else (in_place_words if slot in locked else cannot_move_words)
            label = card_label % {**where, "card": names[token], "state": state_words}
            out.append(Cell(
                f"{r}-{c}", token, RANK_FACES.get(token[0], token[0]), SUIT_SYMBOLS[token[1]],
                token[1] in "HD", slot in locked, can_move, False, label,
            ))
        rows.append(out)
    return rows


def slots_html(rows: list[list[Cell]], *, over: bool) -> SafeString:
    """The 52 slot buttons of the grid, row by row.

    Built here rather than by a template loop: a move's answer is mostly this markup,
    and the template engine took about a third of a move's server time to write it.
    Each distinct button is escaped and formatted once, then reused from the cache.
    """
    return mark_safe("".join(
        '<div class="row">' + "".join(_slot_button(cell, over) for cell in row) + "</div>" for row in rows
    ))


@lru_cache(maxsize=50_000)
def _slot_button(cell: Cell, over: bool) -> str:
    face = format_html(
        '<span class="rank" aria-hidden="true">{}</span><span class="suit" aria-hidden="true">{}</span>',
        cell.face, cell.symbol,
    ) if cell.card else ""
    return format_html(
        '<button type="submit" name="slot" value="{0}" data-slot="{0}" data-card="{1}" aria-label="{2}"{3}'
        ' class="slot {4}">{5}</button>',
        cell.slot, cell.card, cell.label, mark_safe(' aria-disabled="true"') if over else "", cell.classes, face,
    )
