"""What the table and its status bar are drawn from (games/_grid.html, _slots.html,
_status.html, _status_live.html, _actions.html): what each of the 52 slots of a table (56 on a
moon's) shows and can do, the slots an action changed, and the status bar's figures and words."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import NamedTuple

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from addiction_site.ownership import SiteRequest
from games import engine
from games.clock import elapsed_at, tick_ms_left
from games.models import Action, Game
from games.preferences import drawn_as, marks_movable
from games.presenters.words import RANK_FACES, SUIT_SYMBOLS, card_name, hint_words, refusal_text, said_words, where
from games.selectors import undo_move


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

    @property
    def key(self) -> str:
        """A short digest of all the fields: the page keeps the one it shows (_status_live.html)
        and posts it back, so that an answer leaves out actions the page already shows."""
        return hashlib.blake2s(repr(self).encode(), digest_size=6).hexdigest()


@dataclass(frozen=True)
class StatusBar:
    """What the status bar shows besides the game's own columns."""

    note: str  # why the last action was refused, or ""
    said: str  # what the action just played did, for screen readers (announce.js copies it to the live region), or ""
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
        "figures": grid_figures(game, context["bar"].elapsed_ms, undo_move(game, logged)),
        "slots": table_slots(game.state(), hint=game.hint_now),
        "mark_movable": marks_movable(request),
        "drawn_as": drawn_as(request),
        # What the server answers a click the rule refuses, which the page says at once without
        # asking (static/games/moves.js): on a card, on a gap (games.engine.Game.move_for).
        "refused_words": {
            "card": refusal_text(engine.Refusal.CANNOT_MOVE),
            "gap": refusal_text(engine.Refusal.NOTHING_FITS),
        },
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


def grid_figures(game: Game, elapsed_ms: int, undo: str) -> dict:
    """The grid's figures, as its data-* attributes carry them (docs/TABLE.md): _grid.html
    writes them, and an answer of changes sends them for figures.js to put in place.
    ``undo``: the move undo takes back now (games.selectors.undo_move)."""
    return {
        "data-version": game.version,
        "data-status": game.status,
        "data-moves": game.moves,
        "data-shuffles-left": game.shuffles_left,
        "data-elapsed-ms": elapsed_ms,
        "data-hint": str(game.hint_now or ""),  # "": no hint, the attribute goes
        "data-undo": undo,  # "": nothing to take back, the attribute goes
    }


def opening_move(position: engine.Position) -> engine.Move | None:
    """The move the home page's how-to lights on a deal not started (docs/RULES.md, "The home
    page"): a 2 into column 0 if one can go, else a card onto one in place, else the first legal
    move in the table's order; None when nothing moves."""
    locked = position.locked()

    def plain(move: engine.Move) -> tuple:
        row, col = move.dst
        return (col != 0, (row, col - 1) not in locked, move.dst, move.src)

    return min(position.legal_moves(), key=plain, default=None)


def drawn_context(request: SiteRequest, variant: str, number: int, *, first_visit: bool) -> dict:
    """What the home page's table of the deal drawn for this browser draws (games/drawn.py): its
    slots, with the how-to's move lit for a first visit."""
    state = engine.GameState.start(deal_number=number, seed=0, variant=variant)  # the seed deals only shuffles
    move = opening_move(state.position) if first_visit else None
    return {
        "drawn_number": number,
        "drawn_rules": state.variant,
        "slots": table_slots(state, hint=engine.Hint.of(move) if move else None),
        "mark_movable": marks_movable(request),
        "first_visit": first_visit,
    }
