"""The abuse tests' harness: who sends a request, the request, and the oracle of what it may change.

Every request goes through :meth:`Harness.send`, which snapshots every game row and every
game's action count before and after, and fails when the answer is a 5xx or when a game
changed that the request had no right to change.  Only these may change anything:

- a well-formed, current-version action that the rules allow, POSTed by the game's owner
  (past the CSRF check): its own game, by exactly one Action, to the state the engine gives;
- starting a game (``/new/``, ``/deal/<n>/start/``): one new game, of the requester, which
  may drop the requester's games in progress that have no action (the limit of games in
  progress); a deal's page (``/deal/<n>/``) starts nothing;
- deleting an unfinished game of the requester;
- signing up or logging in: the guest games of that browser pass to the account.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import SESSION_KEY as USER_KEY
from django.db.models import Count, Max
from django.test import Client
from django.test.client import BOUNDARY, encode_multipart

from games import engine
from games.models import Action, Game
from tests.helpers import guest_token_of

ACTIONS = ("move", "undo", "redo", "shuffle", "resign")
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}
SLOTS = {f"{row}-{col}": (row, col) for row in range(engine.ROWS) for col in range(engine.COLS)}
MAX_VERSION = 2**31 - 1


# --------------------------------------------------------------------------- who asks


@dataclass(frozen=True)
class Identity:
    """Who the server takes a browser for: its session as stored, and its guest cookie."""

    user_id: int | None
    token: str

    def owns(self, row: dict) -> bool:
        if self.user_id is not None:
            return row["owner_id"] == self.user_id
        return bool(self.token) and row["owner_id"] is None and row["guest_token"] == self.token


def identity(client: Client) -> Identity:
    token = guest_token_of(client)
    cookie = client.cookies.get(settings.SESSION_COOKIE_NAME)
    if cookie is None or not cookie.value:
        return Identity(None, token)
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=cookie.value)
    user = session.get(USER_KEY)
    return Identity(int(user), "") if user else Identity(None, token)


@dataclass(eq=False)
class Actor:
    """A browser: its client, and whether that client enforces CSRF checks like a real one."""

    name: str
    client: Client
    csrf: bool = False

    def __repr__(self) -> str:
        return f"<{self.name}>"

    def csrf_token(self) -> str:
        cookie = self.client.cookies.get(settings.CSRF_COOKIE_NAME)
        return cookie.value if cookie is not None else ""


def browser(*, csrf: bool = False) -> Client:
    """A test client that shows a server error as a 500 answer instead of raising it."""
    return Client(enforce_csrf_checks=csrf, raise_request_exception=False)


# --------------------------------------------------------------------------- what is asked


@dataclass
class Req:
    """One request, and what it means to the oracle (``endpoint``, ``pk``).

    ``data`` is a query (safe methods) or a form (other methods) when a dict; a str or
    bytes is sent as the raw body with ``content_type``.
    """

    method: str
    path: str
    data: Any = None
    endpoint: str = "page"
    pk: int | None = None
    headers: dict = field(default_factory=dict)
    content_type: str | None = None
    meta: dict = field(default_factory=dict)  # WSGI environ entries, e.g. REMOTE_ADDR

    def __repr__(self) -> str:
        data = repr(self.data)
        data = data if len(data) < 300 else data[:300] + "..."
        return f"{self.method} {self.path[:200]} data={data} headers={self.headers}"

    def form(self) -> dict:
        return self.data if isinstance(self.data, dict) and self.method not in SAFE_METHODS else {}


def send(client: Client, req: Req):
    headers = dict(req.headers)
    if req.method in SAFE_METHODS and (req.data is None or isinstance(req.data, dict)):
        query = urlencode(req.data or {}, doseq=True)
        return client.generic(req.method, f"{req.path}?{query}" if query else req.path, headers=headers, **req.meta)
    if req.method == "POST" and isinstance(req.data, dict):
        return client.post(req.path, req.data, headers=headers, **req.meta)
    body = req.data
    if isinstance(body, dict):
        body = urlencode(body, doseq=True)
    return client.generic(
        req.method,
        req.path,
        data=body or "",
        headers=headers,
        content_type=req.content_type or "application/x-www-form-urlencoded",
        **req.meta,
    )


def body_too_big(req: Req) -> bool:
    """Whether ``send`` sends ``req`` with a form body over DATA_UPLOAD_MAX_MEMORY_SIZE, which
    the site refuses (400) before anything else looks at it (addiction_site/request_body.py)."""
    if req.method in SAFE_METHODS and (req.data is None or isinstance(req.data, dict)):
        return False  # a query, no body
    if req.method == "POST" and isinstance(req.data, dict):
        body = encode_multipart(BOUNDARY, req.data)
    elif (req.content_type or "application/x-www-form-urlencoded").split(";")[0] in FORMS:
        body = urlencode(req.data, doseq=True) if isinstance(req.data, dict) else req.data or b""
    else:
        return False  # a body the site never reads
    return len(body.encode() if isinstance(body, str) else body) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE


# --------------------------------------------------------------------------- what the database holds


@dataclass
class Snapshot:
    games: dict[int, dict]
    actions: dict[int, tuple[int, int]]  # game id -> (count, highest number)


def snapshot() -> Snapshot:
    games = {row["id"]: row for row in Game.objects.values()}
    actions = {
        game_id: (count, top)
        for game_id, count, top in Action.objects.order_by()
        .values("game_id")
        .annotate(count=Count("id"), top=Max("number"))
        .values_list("game_id", "count", "top")
    }
    return Snapshot(games, actions)


def state_of(row: dict) -> engine.GameState:
    """The stored game's state, with the move undo would take back and the one redo would play
    again (read from its log) as its history and its undone moves."""
    state = Game(**row).state()
    if row["undo_top"] and row["status"] == engine.Status.PLAYING:
        taken = Action.objects.get(game_id=row["id"], number=row["undo_top"]).move
        state = state._replace(history=(engine.Move.parse(taken),))
    if row["redo_top"] and row["status"] == engine.Status.PLAYING:
        again = Action.objects.get(game_id=row["id"], number=row["redo_top"]).move
        state = state._replace(undone=(engine.Move.parse(again),))
    return state


# --------------------------------------------------------------------------- how a form reads a field


def last(value):
    """The value a form field reads when a key is sent several times: the last one."""
    if isinstance(value, (list, tuple)):
        return value[-1] if value else None
    return value


def form_version(value) -> tuple[int | None, bool]:
    """(the version a posted value stands for or None if refused, whether it is plain digits).

    Non-canonical text (" 3", "3.0", "+3", full-width digits) is what Django's
    IntegerField makes of it; only plain ASCII digits make an action that *must* apply.
    """
    value = last(value)
    if value is None or value == "":
        return None, False
    text = str(value)
    try:
        number = int(re.sub(r"\.0*\s*$", "", text))
    except ValueError:
        return None, False
    if not 0 <= number <= MAX_VERSION:
        return None, False
    return number, text.isascii() and text.isdigit() and str(number) == text


def form_slot(value) -> tuple[engine.Slot | None, bool]:
    """(the slot a posted value names or None, whether it is exactly ``ROW-COL``)."""
    value = last(value)
    if not isinstance(value, str):
        value = "" if value is None else str(value)
    slot = SLOTS.get(value.strip())
    return slot, slot is not None and value in SLOTS


def legal_result(
    state: engine.GameState, kind: str, slot: engine.Slot | None, to: engine.Slot | None = None
) -> engine.GameState | None:
    """The state ``kind`` leads to, or None when the rules refuse it (a move to ``to``, the
    gap a drag or a hint names, or else the click rule's)."""
    if state.is_over:
        return None
    if kind == "move" and to is not None:
        try:
            return state.act(engine.ActionKind.MOVE, slot=slot, to=to)[0]
        except engine.IllegalAction:
            return None
    if kind == "move":
        move = state.position.move_for_slot(slot)
        return state.play(move) if move is not None else None
    if kind == "undo":
        return state.undo() if state.history else None
    if kind == "redo":
        return state.redo() if state.undone else None
    if kind == "shuffle":
        return state.shuffle() if state.shuffles_left > 0 else None
    return state.resign()


# --------------------------------------------------------------------------- the oracle


@dataclass
class Expect:
    """What a request may change, and the answers it may get (None: any but a 5xx)."""

    action: tuple | None = None  # (pk, kind, slot, expected state, must)
    create: bool = False
    delete: int | None = None  # a game that must be deleted (no action yet) or given up (docs/RULES.md, "Deleting")
    claim: str = ""  # a guest token whose games may pass to an account
    statuses: set[int] | None = None


def expect(req: Req, who: Identity, csrf_ok: bool, before: Snapshot) -> Expect:
    row = before.games.get(req.pk) if req.pk is not None else None
    mine = row is not None and who.owns(row)
    unsafe_ok = req.method not in SAFE_METHODS and csrf_ok
    if body_too_big(req):
        return Expect(statuses={400})
    if req.endpoint in ACTIONS:
        return _expect_action(req, row, mine, csrf_ok)
    if req.endpoint in ("new", "deal_start"):
        return Expect(create=req.method == "POST" and csrf_ok)
    if req.endpoint == "delete":
        if req.method == "POST" and csrf_ok and mine and row["status"] == engine.Status.PLAYING:
            return Expect(delete=req.pk)
        return Expect()
    if req.endpoint in ("login", "signup") and unsafe_ok:
        return Expect(claim=who.token)
    return Expect()


def _expect_action(req: Req, row: dict | None, mine: bool, csrf_ok: bool) -> Expect:
    if req.method in SAFE_METHODS:
        return Expect(statuses={405})
    if not csrf_ok:
        return Expect(statuses={403})
    if req.method != "POST":
        return Expect(statuses={405})
    if not mine:
        return Expect(statuses={404})
    htmx = req.headers.get("HX-Request") == "true"
    form = req.form()
    version, plain_version = form_version(form.get("version"))
    slot, plain_slot = form_slot(form.get("slot")) if req.endpoint == "move" else (None, True)
    # The gap a drag or a hint names: optional, but when sent it must be a slot.
    raw_to = last(form.get("to"))  # a RegexField does not strip: only "" is no gap at all
    to_sent = req.endpoint == "move" and raw_to is not None and str(raw_to) != ""
    to, plain_to = form_slot(form.get("to")) if to_sent else (None, True)
    plain_slot = plain_slot and plain_to
    # A value Django reads leniently (" 0-1", "٣") may also be refused by the body parser.
    lenient = {400} if not (plain_version and plain_slot) else set()
    if version is None or slot is None and req.endpoint == "move" or to_sent and to is None:
        return Expect(statuses={400})
    refused = ({409, 422} if htmx else {302}) | lenient
    if version != row["version"]:
        return Expect(statuses=refused)
    result = legal_result(state_of(row), req.endpoint, slot, to)
    if result is None:
        return Expect(statuses=refused)
    must = plain_version and plain_slot
    return Expect(action=(req.pk, req.endpoint, slot, result, must), statuses=({200} if htmx else {302}) | lenient)


class Harness:
    """Sends requests and checks each against the oracle; keeps the latest snapshot."""

    def __init__(self):
        self.before = snapshot()
        self.requests = 0
        self.changed = 0  # actions applied
        self.statuses: Counter[int] = Counter()

    def resync(self) -> None:
        """Take a new snapshot after a change made outside ``send`` (a test's own set-up)."""
        self.before = snapshot()

    def send(self, actor: Actor, req: Req, *, csrf: str = "none"):
        """Send ``req`` as ``actor``; ``csrf`` is "none", "wrong" or "right" (the X-CSRFToken header)."""
        if csrf == "right":
            req.headers["X-CSRFToken"] = actor.csrf_token()
        elif csrf == "wrong":
            req.headers["X-CSRFToken"] = "x" * 32
        csrf_ok = not actor.csrf or (csrf == "right" and bool(actor.csrf_token()))
        before = self.before
        who = identity(actor.client)
        expected = expect(req, who, csrf_ok, before)
        response = send(actor.client, req)
        self.requests += 1
        self.statuses[response.status_code] += 1
        where = f"{actor!r} {req!r} -> {response.status_code}"
        assert response.status_code < 500, where
        if expected.statuses is not None:
            assert response.status_code in expected.statuses, f"{where}, expected one of {expected.statuses}"
        after = self.before = snapshot()
        self._compare(before, after, expected, identity(actor.client), where)
        return response

    def _compare(self, before: Snapshot, after: Snapshot, expected: Expect, who_after: Identity, where: str):
        new = after.games.keys() - before.games.keys()
        gone = before.games.keys() - after.games.keys()
        assert not new or (expected.create and len(new) == 1), f"{where}: games {sorted(new)} appeared"
        for pk in new:
            row = after.games[pk]
            assert who_after.owns(row) and row["version"] == 0 and pk not in after.actions, f"{where}: new game {row}"
        dropped = {
            pk
            for pk in gone
            if new
            and who_after.owns(before.games[pk])
            and before.games[pk]["version"] == 0
            and before.games[pk]["status"] == engine.Status.PLAYING
        }
        # A chosen deal's game with no action goes; a random deal's is given up (on the record).
        unplayed = (
            expected.delete
            and before.games[expected.delete]["version"] == 0
            and before.games[expected.delete]["origin"] != "random"
        )
        deleted = {expected.delete} if unplayed else set()
        assert gone - dropped == deleted, f"{where}: games {sorted(gone)} gone"
        action = expected.action
        for pk in before.games.keys() & after.games.keys():
            old, now = before.games[pk], after.games[pk]
            old_log, now_log = before.actions.get(pk, (0, None)), after.actions.get(pk, (0, None))
            if old == now and old_log == now_log:
                assert not (action and action[0] == pk and action[4]), f"{where}: the action did not apply"
                continue
            if action and action[0] == pk:
                self._check_action(old, now, old_log, now_log, action, where)
            elif new and self._given_up_for_room(old, now, who_after):
                continue  # a random deal without an action, given up to make room for the new game
            elif expected.delete == pk:  # a played game deleted: given up and off My games, still on the record
                assert (now["status"], now["resigned"], now["removed"]) == ("lost", True, True), f"{where}: {now}"
                assert now_log == (old_log[0] + 1, now["version"]), f"{where}: actions {old_log} -> {now_log}"
            elif self._shown(old, now) and old_log == now_log:
                continue  # a game page, shown for the first time, started the game's clock
            elif expected.claim and old["owner_id"] is None and old["guest_token"] == expected.claim:
                rest = {key for key in old if old[key] != now[key]} - {"owner_id", "guest_token"}
                assert not rest and old_log == now_log, f"{where}: claimed game {pk} changed in {rest}"
                assert now["owner_id"] == who_after.user_id and now["guest_token"] == "", f"{where}: claim of {pk}"
            else:
                raise AssertionError(f"{where}: game {pk} changed\n  before {old} {old_log}\n  after  {now} {now_log}")

    @staticmethod
    def _given_up_for_room(old: dict, now: dict, who: Identity) -> bool:
        return (
            who.owns(old)
            and old["version"] == 0
            and old["origin"] == "random"
            and (now["status"], now["resigned"], now["removed"], now["version"]) == ("lost", True, True, 1)
        )

    @staticmethod
    def _shown(old: dict, now: dict) -> bool:
        """Only the clock's start changed, as the first showing of a game's board does."""
        changed = {key for key in old if old[key] != now[key]}
        return old["started_at"] is None and changed <= {"started_at", "last_action_at"}

    def _check_action(self, old, now, old_log, now_log, action, where):
        pk, kind, _slot, result, _must = action
        assert now["version"] == old["version"] + 1, f"{where}: version {old['version']} -> {now['version']}"
        assert now_log == (old_log[0] + 1, now["version"]), f"{where}: actions {old_log} -> {now_log}"
        stored, result = Game(**now).state(), result._replace(history=(), undone=())  # undo and redo read the log
        assert stored == result, f"{where}: stored {stored!r}, the rules give {result!r}"
        logged = Action.objects.get(game_id=pk, number=now["version"])
        assert logged.kind == kind, f"{where}: logged {logged}"
        self.changed += 1
