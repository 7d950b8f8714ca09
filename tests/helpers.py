"""Helpers of the web tests: post an action, read a page's HTML, set a table, count queries.

Plain functions and constants, imported where needed (``from tests.helpers import act, grid``);
the fixtures live in tests/conftest.py.  Pages are read by parsing their HTML
(:func:`parse_html`), never by matching markup as text, so that the order of attributes
or a change of white space in a template breaks no test.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from html.parser import HTMLParser

from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.test.utils import CaptureQueriesContext

from addiction_site.ownership import GUEST_COOKIE, Owner, guest_cookie_token
from games import engine
from games.models import Action, Game
from games.services import game_act


def examples(full: int) -> int:
    """How many examples a Hypothesis test tries: ``full`` in the "ci" profile, a quarter of it
    (at least 10) in the "dev" profile a contributor runs by default (tests/conftest.py)."""
    return full if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else max(10, full // 4)


def account(name: str = "ada") -> User:
    """An account with a password no test types (tests that log in through the form make their own)."""
    return User.objects.create_user(name, password="unused-in-these-tests-1")


def logged_in(user: User) -> Client:
    """A client logged in as ``user``, without the login form."""
    client = Client()
    client.force_login(user)
    return client


HTMX = {"HX-Request": "true"}
"""The header htmx sends with each of its requests: ``client.post(url, data, headers=HTMX)``."""

# --------------------------------------------------------------------------- tables to play on
# Positions in the notation of docs/RULES.md; each docstring draws the board.

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


def set_layout(game: Game, text: str, *, shuffles_used: int = 0, moves: int = 0) -> Game:
    """Give ``game`` the position ``text`` (still playing, its seed kept) and save it."""
    state = game.state()
    game.set_state(
        engine.GameState(
            position=engine.Position.parse(text),
            seed=state.seed,
            deal_number=game.deal_number,
            moves=moves,
            shuffles_used=shuffles_used,
        )
    )
    game.save()
    return game


# --------------------------------------------------------------------------- playing


def new_game(client, deal_number: int = 1) -> Game:
    """Start a game of ``deal_number`` as the player behind ``client``, as the home page does,
    and open it as the browser does after the redirect, which starts its clock."""
    response = client.post("/new/", {"deal_number": deal_number})
    assert response.status_code == 302, response.status_code
    assert client.get(response.url).status_code == 200
    return Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))


def guest_token_of(client) -> str:
    """The guest token in ``client``'s guest cookie ("" without one)."""
    cookie = client.cookies.get(GUEST_COOKIE)
    return guest_cookie_token(cookie.value) if cookie is not None else ""


def a_movable_slot(game: Game | int) -> engine.Slot:
    """A slot whose click moves a card in ``game`` (a Game or its id) as it is stored now."""
    pk = game if isinstance(game, int) else game.pk
    return Game.objects.get(pk=pk).state().position.legal_moves()[0].src


def act(
    client,
    game: Game | int,
    kind: str,
    *,
    slot: engine.Slot | str | None = None,
    version: int | str | None = None,
    htmx: bool = True,
):
    """POST one action (move, undo, shuffle, resign) to ``game`` (a Game or its id) as the
    page would: with the game's current version unless told, and a ``slot`` for a move
    (``(row, col)`` or ``"ROW-COL"``); as htmx does, or as a plain form with ``htmx=False``."""
    pk = game if isinstance(game, int) else game.pk
    data = {"version": Game.objects.get(pk=pk).version if version is None else version}
    if slot is not None:
        data["slot"] = slot if isinstance(slot, str) else f"{slot[0]}-{slot[1]}"
    return client.post(f"/game/{pk}/{kind}/", data, headers=HTMX if htmx else {})


def act_on_service(
    owner: Owner,
    game: Game,
    kind: str,
    slot: engine.Slot | None = None,
    *,
    version: int | None = None,
    now: datetime | None = None,
) -> Game:
    """One action through ``services.game_act`` rather than the pages, with the game's
    current version unless told."""
    if version is None:
        version = Game.objects.get(pk=game.pk).version
    return game_act(owner=owner, game_id=game.pk, version=version, kind=kind, slot=slot, now=now).game


def snapshot(game: Game) -> dict:
    """Every column of the stored game, and its actions, to show that nothing changed."""
    row = Game.objects.filter(pk=game.pk).values().get()
    row["actions"] = list(Action.objects.filter(game_id=game.pk).values_list("number", "kind", "move"))
    return row


# --------------------------------------------------------------------------- queries


def count_queries(client, url: str) -> int:
    """How many SQL statements a GET of ``url`` runs."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries.captured_queries)


def statements(queries: CaptureQueriesContext) -> list[str]:
    """Each SQL statement captured, as its verb and its table ("SELECT games_game",
    "INSERT games_action"); transaction statements by their verb alone ("SAVEPOINT",
    "RELEASE SAVEPOINT", "BEGIN", "COMMIT")."""
    named = []
    for query in queries.captured_queries:
        sql = query["sql"]
        verb = sql.split()[0].upper()
        table = {
            "SELECT": r'\bFROM\s+"?(\w+)',
            "UPDATE": r'^UPDATE\s+"?(\w+)',
            "INSERT": r'^INSERT\s+INTO\s+"?(\w+)',
            "DELETE": r'^DELETE\s+FROM\s+"?(\w+)',
        }.get(verb)
        if table:
            named.append(f"{verb} {re.search(table, sql, re.I).group(1)}")
        else:
            named.append("RELEASE SAVEPOINT" if verb == "RELEASE" else verb)
    return named


# --------------------------------------------------------------------------- reading pages

_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())


class Element:
    """One element of a parsed page: its tag, its attributes, and what it holds."""

    def __init__(self, tag: str, attrs: dict[str, str]):
        self.tag, self.attrs = tag, attrs
        self.children: list[Element | str] = []

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"

    def __getitem__(self, name: str) -> str:
        return self.attrs[name]

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def text(self) -> str:
        """The text inside, white space collapsed, scripts and styles left out."""
        pieces = []

        def gather(element: Element) -> None:
            for child in element.children:
                if isinstance(child, str):
                    pieces.append(child)
                elif child.tag not in ("script", "style"):
                    pieces.append(" ")
                    gather(child)
                    pieces.append(" ")

        gather(self)
        return " ".join("".join(pieces).split())

    def iter(self):
        """Every element inside, in document order."""
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.iter()

    def find_all(self, tag: str | None = None, **attrs) -> list[Element]:
        """The elements inside with ``tag`` (any, if None) and ``attrs``: a value, or True
        for any value.  ``data_slot=`` means ``data-slot``; ``class_="x"`` means that the
        element has the class x among others."""
        wanted = {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
        return [
            element
            for element in self.iter()
            if (tag is None or element.tag == tag) and all(_has(element, name, value) for name, value in wanted.items())
        ]

    def find(self, tag: str | None = None, **attrs) -> Element:
        """The one element inside that :meth:`find_all` finds; fails unless there is exactly one."""
        found = self.find_all(tag, **attrs)
        assert len(found) == 1, f"{len(found)} elements {tag or '*'} {attrs}"
        return found[0]


def _has(element: Element, name: str, value) -> bool:
    if value is True:
        return name in element.attrs
    if name == "class":
        return value in element.classes
    return element.attrs.get(name) == value


class _TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.open[-1].children.append(element)
        if tag not in _VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag):
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse_html(page) -> Element:
    """The document tree of ``page``: a response, or HTML as text."""
    builder = _TreeBuilder()
    builder.feed(page if isinstance(page, str) else page.content.decode())
    builder.close()
    return builder.root


def grid_form_fields(page) -> dict[str, str]:
    """The hidden fields the grid form of ``page`` (a response, or HTML) posts with every
    action, the CSRF token aside: version, answer, drawn, and the ones outside it that belong
    to it (``form="grid"``: actions_shown), as a browser's form, and htmx, send them."""
    html = parse_html(page)
    fields = html.find(id="grid").find_all("input", type="hidden") + html.find_all("input", form="grid")
    return {field["name"]: field.get("value", "") for field in fields if field["name"] != "csrfmiddlewaretoken"}


def text_of(page) -> str:
    """The words a reader sees on ``page`` (a response, or HTML), white space collapsed."""
    return parse_html(page).text


@dataclass
class Cell:
    card: str
    label: str
    classes: set[str]
    disabled: bool


@dataclass
class Board:
    """What #grid (and #status, when present) says, read from a page."""

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


def without_clock(attrs: dict) -> dict:
    """A grid's attributes but its time (data-elapsed-ms, the game's time when it was drawn,
    which moves on between two drawings of the same table)."""
    assert int(attrs["data-elapsed-ms"]) >= 0
    return {name: value for name, value in attrs.items() if name != "data-elapsed-ms"}


def grid(page) -> Board:
    """#grid's data-* attributes and its 52 slots, and #status's attributes, from ``page``
    (a response, or HTML)."""
    document = parse_html(page)
    table = document.find(id="grid")
    slots = {
        element["data-slot"]: Cell(
            element.get("data-card", ""),
            element.get("aria-label", ""),
            element.classes,
            "disabled" in element.attrs or element.get("aria-disabled") == "true",
        )
        for element in table.find_all(data_slot=True)
    }
    assert len(slots) == engine.ROWS * engine.COLS, len(slots)
    status = document.find_all(id="status")
    return Board(table.attrs, slots, status[0].attrs if status else None)


# --------------------------------------------------------------------------- templates

_TAG = re.compile(r"\{%.*?%\}", re.S)
_VARIABLE = re.compile(r"\{\{.*?\}\}", re.S)
_WORD = re.compile(r"[^\W\d_]{2,}")  # two letters or more: a word a reader would see
_SPOKEN_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|placeholder|alt|hx-confirm|data-[\w-]*text)\s*=\s*"([^"]*)"')


def untranslated_words(source: str) -> list[str]:
    """The words of a template's source that a visitor would see and that no translate
    tag covers.

    Translated text, comments, template tags and variables, scripts and the markup itself
    are taken out; what remains of the text between tags, and of the attributes that are
    read out or shown (aria-label, title, ...), should hold no word.
    """
    source = re.sub(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}|\{#.*?#\}", " ", source, flags=re.S)
    source = re.sub(r"\{%\s*blocktrans(?:late)?\b.*?\{%\s*endblocktrans(?:late)?\s*%\}", " ", source, flags=re.S)
    source = re.sub(r"\{%\s*trans(?:late)?\s.*?%\}", " ", source, flags=re.S)
    source = re.sub(r"<(script|style)\b.*?</\1>", " ", source, flags=re.S)
    spoken = " ".join(_SPOKEN_ATTRIBUTES.findall(source))
    text = re.sub(r"<[^>]*>", " ", source) + " " + spoken
    text = re.sub(r"&#?\w+;", " ", _VARIABLE.sub(" ", _TAG.sub(" ", text)))
    return _WORD.findall(text)


def migrate(targets):
    """Migrate the test database to ``targets``; the app registry of the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps
