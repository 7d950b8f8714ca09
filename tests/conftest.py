"""Shared fixtures and helpers of the web tests: a guest game, posts, and a reader of #grid.

The helpers are plain functions (import them: ``from tests.conftest import play, grid``);
the fixtures need the database and are only set up by tests that ask for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest

from games import engine
from games.models import Action, Game
from games.ownership import GUEST_COOKIE, guest_cookie_token

HTMX = {"HTTP_HX_REQUEST": "true"}

# Fixture positions, in the notation of RULES.md; each docstring draws the board.

ONE_MOVE_FROM_WIN = (
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS / 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH -- / "
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD -- / 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --"
)
"""The won table, except that KS sits at 0-12 and the gap at 0-11 (right of QS).

The one legal move is KS 0-12 -> 0-11, which wins; the other three gaps are right of Kings.
"""

ONE_MOVE_FROM_STUCK = (
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS / 2H 4H 3H 5H 6H 7H 8H 9H TH JH QH KH -- / "
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD -- / 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --"
)
"""Like ONE_MOVE_FROM_WIN, but 3H and 4H are exchanged in row 1 (2H 4H 3H 5H ...).

The one legal move, KS 0-12 -> 0-11, leaves all four gaps in column 12, right of Kings:
stuck, and not won.  With no shuffle left that move loses the game.
"""

STUCK = (
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS -- / 2H 4H 3H 5H 6H 7H 8H 9H TH JH QH KH -- / "
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD -- / 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --"
)
"""ONE_MOVE_FROM_STUCK after its move: every gap in column 12 right of a King, row 1 unsorted."""

TWO_COLUMN_0_GAPS = (
    "-- 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2S / -- 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H / "
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD -- / 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --"
)
"""Gaps at 0-0 and 1-0 (column 0) and at 2-12 and 3-12 (right of Kings, dead).

2S (0-12) and 2H (1-12) each fit both column-0 gaps, and so do 2D (2-0) and 2C (3-0),
which already stand in column 0.  A 2 goes to the topmost gap it fits (0-0); the gap 0-0
takes the topmost 2 not yet in column 0 (2S).  Every other card is stuck in place.
"""


def set_layout(game: Game, text: str, *, shuffles_used: int = 0, moves: int = 0,
               history: tuple[engine.Move, ...] = ()) -> Game:
    """Give ``game`` the position ``text`` (still playing, its seed kept) and save it."""
    state = game.state()
    game.set_state(engine.GameState(
        position=engine.Position.parse(text), seed=state.seed, deal_number=game.deal_number,
        moves=moves, shuffles_used=shuffles_used, history=tuple(history),
    ))
    game.save()
    return game


def guest_token_of(client) -> str:
    """The guest token in ``client``'s guest cookie ("" without one)."""
    cookie = client.cookies.get(GUEST_COOKIE)
    return guest_cookie_token(cookie.value) if cookie is not None else ""


def new_game(client, deal_number: int = 1) -> Game:
    """Start a game of ``deal_number`` as the guest behind ``client``, as the home page does."""
    response = client.post("/new/", {"deal_number": deal_number})
    assert response.status_code == 302, response.status_code
    return Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))


@pytest.fixture
def game(client, db) -> Game:
    """A fresh guest game of deal 1, owned by ``client``'s guest cookie.

    Deal 1, as dealt (gaps at 1-6, 2-6, 2-8, 3-4)::

        7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S
        2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC
        TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD
        QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C

    Tests read the moves from ``game.state()`` rather than trusting this drawing.
    """
    return new_game(client, 1)


def slot_text(slot) -> str:
    return slot if isinstance(slot, str) else f"{slot[0]}-{slot[1]}"


def act(client, game: Game, kind: str, *, version=None, htmx: bool = True, **data):
    """POST one action (move, undo, shuffle, resign) with the game's current version."""
    if version is None:
        version = Game.objects.get(pk=game.pk).version
    headers = HTMX if htmx else {}
    return client.post(f"/game/{game.pk}/{kind}/", {"version": version, **data}, **headers)


def play(client, game: Game, slot, *, htmx: bool = True, version=None):
    """Click ``slot`` (``(row, col)`` or ``"ROW-COL"``): the move that card or gap makes."""
    return act(client, game, "move", version=version, htmx=htmx, slot=slot_text(slot))


def snapshot(game: Game) -> dict:
    """Every column of the stored game, and its actions, to show that nothing changed."""
    row = Game.objects.filter(pk=game.pk).values().get()
    row["actions"] = list(Action.objects.filter(game_id=game.pk).values_list("number", "kind", "move"))
    return row


@dataclass
class Cell:
    card: str
    label: str
    classes: set[str]
    disabled: bool


@dataclass
class Board:
    """What #grid (and #status, when present) says, read from a response's HTML."""

    attrs: dict[str, str] = field(default_factory=dict)
    slots: dict[str, Cell] = field(default_factory=dict)
    status_attrs: dict[str, str] | None = None

    @property
    def version(self) -> int:
        return int(self.attrs["data-version"])

    @property
    def status(self) -> str:
        return self.attrs["data-status"]

    @property
    def moves(self) -> int:
        return int(self.attrs["data-moves"])

    @property
    def shuffles_left(self) -> int:
        return int(self.attrs["data-shuffles-left"])

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def position(self) -> str:
        """The cards of the slots in the notation, to compare with ``str(position)``."""
        rows = [[self.slots[f"{r}-{c}"].card or "--" for c in range(engine.COLS)] for r in range(engine.ROWS)]
        return " / ".join(" ".join(row) for row in rows)


_VOID = {"input", "br", "img", "meta", "link", "hr"}


class _GridParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.board = Board()
        self.found = False
        self.depth = 0  # open elements inside #grid; 0 means outside

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if attrs.get("id") == "status":
            self.board.status_attrs = attrs
        if attrs.get("id") == "grid":
            self.found, self.depth, self.board.attrs = True, 1, attrs
            return
        if self.depth:
            if tag not in _VOID:
                self.depth += 1
            if "data-slot" in attrs:
                self.board.slots[attrs["data-slot"]] = Cell(
                    attrs.get("data-card", ""), attrs.get("aria-label", ""),
                    set(attrs.get("class", "").split()), "disabled" in attrs or attrs.get("aria-disabled") == "true",
                )

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.depth > 1 and tag not in _VOID:
            self.depth -= 1

    def handle_endtag(self, tag):
        if self.depth and tag not in _VOID:
            self.depth -= 1


def grid(response) -> Board:
    """Parse #grid's data-* attributes and its 52 slots from ``response``."""
    parser = _GridParser()
    parser.feed(response.content.decode())
    assert parser.found, "no element with id=grid"
    assert len(parser.board.slots) == engine.ROWS * engine.COLS, len(parser.board.slots)
    return parser.board


def text_of(response) -> str:
    """The response's HTML with tags removed and white space collapsed, for finding notes."""
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'").replace("&quot;", '"')
