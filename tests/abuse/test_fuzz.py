"""Fuzz of every endpoint: odd methods, fields, ids, owners and tokens never give a 5xx nor
change a game they should not (tests/abuse/harness.py holds the oracle).

Each test builds one small world (two accounts, guests, played and finished games) and sends
it hundreds of requests; the hypothesis examples share that database state.  Every test ends
with ``verify_games``: every stored game still replays from its deal, seed and log.
"""

from __future__ import annotations

import io
import string
from dataclasses import dataclass
from urllib.parse import quote, urlencode

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test.client import encode_multipart
from django.utils.http import url_has_allowed_host_and_scheme
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.models import Game
from tests.abuse.harness import ACTIONS, SLOTS, Actor, Harness, Req, body_too_big, browser, identity, state_of
from tests.helpers import HTMX, examples

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

PASSWORD = "Abuse-test-pw-7319"


def fuzz(full: int):
    return settings(
        max_examples=examples(full),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


# --------------------------------------------------------------------------- the world


@dataclass
class World:
    harness: Harness
    users: dict[str, User]
    actors: dict[str, Actor]

    def __getitem__(self, name: str) -> Actor:
        return self.actors[name]

    def games_of(self, name: str, *, playing: bool | None = None) -> list[int]:
        who = identity(self[name].client)
        return sorted(
            pk
            for pk, row in self.harness.before.games.items()
            if who.owns(row) and (playing is None or (row["status"] == engine.Status.PLAYING) == playing)
        )

    def restore(self) -> None:
        """Log the account holders back in if a fuzzed logout or login moved them."""
        moved = False
        for name in ("alice", "alice-csrf", "bob"):
            user = self.users[name.split("-")[0]]
            if identity(self[name].client).user_id != user.pk:
                self[name].client.cookies.clear()
                self[name].client.force_login(user)
                moved = True
        if moved:
            self.harness.resync()
            for name in ("alice", "alice-csrf", "bob"):
                self.harness.send(self[name], Req("GET", "/"))  # a fresh CSRF cookie


def legal_req(h: Harness, pk: int, kind: str = "move", *, htmx: bool = True) -> Req:
    """A well-formed, current-version request for ``kind`` on game ``pk``."""
    row = h.before.games[pk]
    data = {"version": str(row["version"])}
    if kind == "move":
        moves = state_of(row).position.legal_moves()
        data["slot"] = f"{moves[0].src[0]}-{moves[0].src[1]}" if moves else "0-1"
    return Req("POST", f"/game/{pk}/{kind}/", data, endpoint=kind, pk=pk, headers=dict(HTMX) if htmx else {})


def start(h: Harness, actor: Actor, deal: int | None = None) -> int:
    before = set(h.before.games)
    response = h.send(
        actor, Req("POST", "/new/", {"deal_number": str(deal)} if deal else {}, endpoint="new"), csrf="right"
    )
    assert response.status_code == 302, response.status_code
    (pk,) = set(h.before.games) - before
    return pk


def play(h: Harness, actor: Actor, pk: int, kind: str = "move", times: int = 1) -> None:
    for _ in range(times):
        response = h.send(actor, legal_req(h, pk, kind), csrf="right")
        assert response.status_code == 200, response.status_code


@pytest.fixture
def world(db) -> World:
    """Guests ``guest`` (and ``guest-csrf``, the same browser enforcing CSRF) and ``stranger``;
    accounts ``alice`` (also as ``alice-csrf``) and ``bob``; ``nobody`` has no session.

    Each owner has games in play (some moved, one shuffled) and a resigned one.
    """
    users = {name: User.objects.create_user(name, password=PASSWORD) for name in ("alice", "bob")}
    actors = {name: Actor(name, browser()) for name in ("guest", "stranger", "alice", "bob", "nobody")}
    actors["guest-csrf"] = Actor("guest-csrf", browser(csrf=True), csrf=True)
    actors["alice-csrf"] = Actor("alice-csrf", browser(csrf=True), csrf=True)
    for name in ("alice", "alice-csrf", "bob"):
        actors[name].client.force_login(users[name.split("-")[0]])
    h = Harness()
    for actor in actors.values():
        h.send(actor, Req("GET", "/"))  # the CSRF cookie
    world = World(h, users, actors)
    g1, g2, g3 = (start(h, world["guest"], deal) for deal in (1, 2, 3))
    world["guest-csrf"].client.cookies = world["guest"].client.cookies  # one browser, two behaviours
    play(h, world["guest"], g1, times=3)
    play(h, world["guest"], g2, "resign")
    play(h, world["guest"], g3, "shuffle")
    play(h, world["guest"], g3)
    s1, s2 = start(h, world["stranger"], 1), start(h, world["stranger"], 5)
    play(h, world["stranger"], s1)
    play(h, world["stranger"], s2, "resign")
    a1, a2 = start(h, world["alice"], 1), start(h, world["alice"], 6)
    play(h, world["alice"], a1, times=2)
    play(h, world["alice"], a2, "resign")
    play(h, world["bob"], start(h, world["bob"], 7))
    world["nobody"].client.cookies.clear()
    return world


def verified(world: World) -> None:
    """Run verify_games over every stored game; it raises if any differs from its replay."""
    out = io.StringIO()
    call_command("verify_games", stdout=out)
    assert f"{Game.objects.count()} games checked, 0 differ" in out.getvalue()


# --------------------------------------------------------------------------- odd values

FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
NUMBER_JUNK = [
    "",
    " ",
    "-1",
    "-0",
    "0",
    "1.5",
    "1e3",
    "0x1f",
    "nan",
    "inf",
    "-inf",
    "１",
    "٣",
    "1_0",
    "+1",
    "00",
    str(10**30),
    str(-(10**30)),
    str(2**31),
    str(2**63),
    str(2**64),
    "9" * 5000,
    "\x00",
    "1\x00",
    "null",
    "true",
    "[]",
    "{}",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "%s",
    "{{ 7*7 }}",
    "\u202e1",
    "x" * 100_000,
]
SLOT_JUNK = [
    "3-13",
    "-1-0",
    "0-0-0",
    "",
    "４-５",
    "0-13",
    "4-0",
    "4-12",
    "0--1",
    "0 1",
    "0,1",
    "0_1",
    "00-1",
    "0-01",
    "1-1-",
    "-",
    " ",
    "\x00",
    "0-1\x00",
    "a-b",
    "0-1;DROP TABLE games_game",
    "٠-١",
    "0\u200b-1",
    "0-1" * 1000,
    "x" * 100_000,
    "-0-0",
    "+0-1",
    "0x0-1",
    "1e0-1",
    "0.0-1",
]
TEXT = st.text(max_size=40)
LISTS = st.lists(st.text(max_size=8), max_size=3)
JUNK = st.one_of(
    st.sampled_from(NUMBER_JUNK),
    TEXT,
    st.integers(-(10**30), 10**30),
    LISTS,
    st.floats(allow_nan=True, allow_infinity=True),
)
MISSING = object()
BAD_SEGMENTS = [
    "-1",
    "1.0",
    "1e3",
    "0x10",
    "%20",
    "%201",
    "%EF%BC%91",
    "%D9%A3",
    "9" * 19,
    "9" * 40,
    "abc",
    "%00",
    "1%00",
    "..",
    "%2e%2e",
    "1;1",
    "1,2",
    "+1",
    "1%2F2",
    "%F0%9F%82%A1",
    "x" * 3000,
]
ODD_PATHS = [
    "/game//",
    "/game/1//move/",
    "//game/1/",
    "/game/1/move",
    "/game/1/replay/1/2/",
    "/deal//",
    "/players//",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/game/1/../../admin/",
    "/static/../settings.py",
    "/" + "a" * 5000 + "/",
    "/accounts/login/%00/",
    "/i18n/",
]


def draw_version(data, version: int):
    kind = data.draw(
        st.sampled_from(["current"] * 8 + ["stale", "ahead", "lenient", "junk", "list", "missing"]),
        label="version kind",
    )
    if kind == "current":
        return str(version)
    if kind == "stale":
        return str(version - 1)
    if kind == "ahead":
        return str(version + 1)
    if kind == "lenient":
        return data.draw(
            st.sampled_from(
                [
                    f" {version}",
                    f"{version}.0",
                    f"+{version}",
                    str(version).translate(FULL_WIDTH),
                    f"0{version}",
                    version,
                ]
            )
        )
    if kind == "list":
        return data.draw(st.lists(st.sampled_from([str(version), str(version + 1), "x", ""]), max_size=3))
    if kind == "missing":
        return MISSING
    return data.draw(st.one_of(st.sampled_from(NUMBER_JUNK), JUNK))


def pick(data, items: list, label: str):
    """One of ``items``, a list that depends on the database: drawn as an index in a fixed
    range, so that hypothesis sees the same kind of draw whatever the list holds."""
    return items[data.draw(st.integers(0, 2**16 - 1), label=label) % len(items)]


def draw_slot(data, state: engine.GameState | None):
    kind = data.draw(
        st.sampled_from(["legal"] * 6 + ["gap", "canonical", "padded", "junk", "list", "missing"]), label="slot kind"
    )
    if kind in ("legal", "gap", "canonical", "padded"):
        legal = sorted({move.src for move in state.position.legal_moves()}) if state else []
        gaps = state.position.gaps() if state else []
        pool = legal if kind == "legal" and legal else gaps if kind == "gap" and gaps else list(SLOTS.values())
        row, col = pick(data, pool, "slot")
        slot = f"{row}-{col}"
        return data.draw(st.sampled_from([f" {slot}", f"{slot}\n", f"\t{slot} "])) if kind == "padded" else slot
    if kind == "list":
        return data.draw(st.lists(st.one_of(st.sampled_from(SLOT_JUNK), st.just("0-1")), max_size=3))
    if kind == "missing":
        return MISSING
    return data.draw(st.one_of(st.sampled_from(SLOT_JUNK), JUNK))


def draw_to(data, state: engine.GameState | None):
    """The gap a drag names (``to``): mostly none, else a gap of the table or junk."""
    kind = data.draw(st.sampled_from(["missing"] * 4 + ["gap", "junk"]), label="to kind")
    if kind == "gap" and state is not None and state.position.gaps():
        row, col = pick(data, state.position.gaps(), "to")
        return f"{row}-{col}"
    return MISSING if kind == "missing" else data.draw(st.one_of(st.sampled_from(SLOT_JUNK), JUNK))


def form(**fields) -> dict:
    return {key: value for key, value in fields.items() if value is not MISSING}


def draw_common(data, actor: Actor) -> tuple[dict, str]:
    """An HX-Request header (true, false, odd or none) and a CSRF behaviour for ``actor``."""
    hx = data.draw(st.sampled_from(["true", "true", "true", None, None, "false", "1", "TRUE"]), label="HX-Request")
    csrf = data.draw(st.sampled_from(["right"] * 4 + ["none", "wrong"] if actor.csrf else ["none", "wrong"]))
    return ({"HX-Request": hx} if hx is not None else {}), csrf


# --------------------------------------------------------------------------- property-based


def test_actions_fuzz(world):
    """Moves (by click or to a named gap), undos, redos, shuffles and resignations with any
    actor, game, version, slot, method."""
    h = world.harness
    names = sorted(world.actors)
    applied_in_setup = h.changed

    @fuzz(1000)
    @given(st.data())
    def one_action(data):
        actor = world[data.draw(st.sampled_from(names), label="actor")]
        if actor.name == "nobody":
            actor.client.cookies.clear()
        target = data.draw(st.sampled_from(["mine"] * 6 + ["any", "any", "absurd"]), label="target")
        mine = world.games_of(actor.name, playing=True) if actor.name != "nobody" else []
        if target == "mine" and not mine and actor.name != "nobody":
            mine = [start(h, actor)]
        if target == "absurd":
            pk = data.draw(st.one_of(st.integers(0, 10**18 - 1), st.just(10**18 - 1), st.just(0)), label="pk")
        else:
            pk = pick(data, mine if target == "mine" and mine else sorted(h.before.games), "pk")
        row = h.before.games.get(pk)
        kind = data.draw(
            st.sampled_from(["move"] * 8 + ["undo"] * 3 + ["redo"] * 2 + ["shuffle"] * 2 + ["resign"]), label="kind"
        )
        method = data.draw(st.sampled_from(["POST"] * 12 + ["GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]))
        headers, csrf = draw_common(data, actor)
        version = draw_version(data, row["version"] if row else 0)
        slot = draw_slot(data, state_of(row) if row else None) if kind == "move" else MISSING
        to = draw_to(data, state_of(row) if row else None) if kind == "move" else MISSING
        extra = data.draw(st.dictionaries(st.text(string.ascii_letters, min_size=1, max_size=6), TEXT, max_size=2))
        fields = {**extra, **form(version=version, slot=slot, to=to)}
        h.send(actor, Req(method, f"/game/{pk}/{kind}/", fields, endpoint=kind, pk=pk, headers=headers), csrf=csrf)

    one_action()
    # About one request in six is a legal action of the owner; fewer than one in fourteen (80 in
    # the ci profile's 1,000 examples) means the fuzz lost its way.
    applied = h.changed - applied_in_setup
    assert applied * 14 >= h.requests, f"only {applied} actions applied in {h.requests} requests"
    assert {200, 302, 400, 403, 404, 405, 409, 422} <= set(h.statuses), h.statuses
    verified(world)


PAGE_PATHS = [
    ("/", "page"),
    ("/new/", "new"),
    ("/deal/{deal}/", "page"),
    ("/deal/{deal}/start/", "deal_start"),
    ("/game/{id}/", "page"),
    ("/robots.txt", "page"),
    *((f"/game/{{id}}/{kind}/", kind) for kind in ACTIONS),
    ("/settings/mark-movable/", "page"),
    ("/how-to-play/", "page"),
    ("/my-games/", "page"),
    ("/game/{id}/delete/", "delete"),
    ("/game/{id}/verify/", "page"),
    ("/game/{id}/replay/", "page"),
    ("/game/{id}/replay/{step}/", "page"),
    ("/leaderboards/", "page"),
    ("/deal/{deal}/leaderboard/", "page"),
    ("/players/{name}/", "page"),
    ("/accounts/signup/", "signup"),
    ("/accounts/login/", "login"),
    ("/accounts/logout/", "page"),
    ("/accounts/password/", "page"),
    ("/accounts/password/done/", "page"),
    ("/i18n/setlang/", "page"),
    ("/admin/", "page"),
    ("/admin/login/", "login"),
    ("/admin/auth/user/", "page"),
    ("/admin/auth/user/{id}/change/", "page"),
    ("/admin/axes/accessattempt/", "page"),
    ("/accounts/", "page"),
    ("/accounts/email/", "page"),
    ("/accounts/email/confirm/{name}/", "page"),
    ("/accounts/data/", "page"),
    ("/accounts/delete/", "page"),
    ("/accounts/password/reset/", "page"),
    ("/accounts/password/reset/{name}/{name}/", "page"),
    ("/privacy/", "page"),
]
QUERY_KEYS = st.one_of(
    st.sampled_from(["board", "period", "page", "next", "slot", "version", "deal_number", "on", "language"]),
    st.text(string.ascii_letters + "_[]", min_size=1, max_size=8),
)


def test_pages_fuzz(world):
    """Every URL pattern with real, absurd and malformed ids, odd query strings and any method."""
    h = world.harness
    names = sorted(world.actors)
    numbers = st.one_of(
        st.integers(0, 10**18 - 1).map(str), st.integers(0, 2**64).map(str), st.sampled_from(BAD_SEGMENTS)
    )

    @fuzz(900)
    @given(st.data())
    def one_page(data):
        world.restore()
        actor = world[data.draw(st.sampled_from(names), label="actor")]
        template, endpoint = data.draw(st.sampled_from(PAGE_PATHS), label="path")
        existing = str(pick(data, sorted(h.before.games), "existing id"))
        game_id = data.draw(st.one_of(st.just(existing), numbers), label="id")
        deal = data.draw(st.one_of(st.integers(1, 20).map(str), st.just(str(engine.MAX_DEAL)), numbers), label="deal")
        step = data.draw(st.one_of(st.integers(0, 6).map(str), numbers), label="step")
        name = data.draw(
            st.one_of(st.sampled_from(["alice", "bob", "carol", "ALICE"]), st.text(max_size=60), st.just("x" * 4000)),
            label="name",
        )
        path = template.format(id=game_id, deal=deal, step=step, name=quote(name, safe=""))
        # The admin takes any path under /admin/ (to its login page); the game's converters do not.
        resolved = template.startswith("/admin/") or all(
            f"{{{key}}}" not in template or ok
            for key, ok in (
                ("id", converts(game_id, 18)),
                ("deal", converts(deal, 19)),
                ("step", converts(step, 18)),
                ("name", name != ""),
            )
        )
        pk = int(game_id) if "{id}" in template and converts(game_id, 18) else None
        method = data.draw(
            st.sampled_from(["GET"] * 10 + ["HEAD", "OPTIONS", "POST", "POST", "PUT", "PATCH", "DELETE", "TRACE"]),
            label="method",
        )
        query = data.draw(st.dictionaries(QUERY_KEYS, JUNK, max_size=4), label="query")
        headers, csrf = draw_common(data, actor)
        req = Req(method, path, query, endpoint=endpoint if resolved else "page", pk=pk, headers=headers)
        response = h.send(actor, req, csrf=csrf)
        assert_redirect_stays_here(response, req)
        if not resolved:  # a body over the limit is refused before the URL is resolved
            assert response.status_code == (400 if body_too_big(req) else 404), (req, response.status_code)

    one_page()
    assert {200, 302, 404, 405} <= set(h.statuses), h.statuses
    verified(world)


def converts(segment: str, digits: int) -> bool:
    """Whether the URL converter takes ``segment`` (ASCII digits, at most ``digits`` of them)."""
    return segment.isascii() and segment.isdigit() and len(segment) <= digits


def assert_redirect_stays_here(response, req: Req) -> None:
    """A redirect never leaves the site, whatever ``next`` said."""
    if response.status_code in (301, 302, 303, 307, 308):
        location = response["Location"]
        # url_has_allowed_host_and_scheme refuses any URL over 2048 characters; a long
        # path on this site is still this site.
        head = location[:2048] if location.startswith("/") and not location.startswith(("//", "/\\")) else location
        assert url_has_allowed_host_and_scheme(head, allowed_hosts={"testserver"}), (req, location)


def fresh_guest(h: Harness) -> Actor:
    """A new browser with one game of its own, so that a sign-up or login has something to claim."""
    actor = Actor("fresh-guest", browser())
    start(h, actor, 9)
    return actor


def test_forms_fuzz(world):
    """Every form of the site with absurd fields: new game, settings, sign-up, login, language,
    password change and delete.  Sign-ups and logins may only hand the browser's guest games
    to the account."""
    h = world.harness
    names = sorted(world.actors)
    users = ["alice", "bob"]

    @fuzz(700)
    @given(st.data())
    def one_form(data):
        world.restore()
        which = data.draw(st.sampled_from(["new", "mark", "signup", "login", "language", "password", "delete"]))
        actor = world[data.draw(st.sampled_from(names), label="actor")]
        headers, csrf = draw_common(data, actor)
        method = data.draw(st.sampled_from(["POST"] * 8 + ["GET", "PUT"]), label="method")
        junk = st.one_of(st.sampled_from(NUMBER_JUNK), JUNK)
        if which == "new":
            deal = data.draw(st.one_of(st.integers(1, engine.MAX_DEAL).map(str), junk, st.just(MISSING)))
            req = Req(method, "/new/", form(deal_number=deal), endpoint="new")
        elif which == "mark":
            req = Req(
                method,
                "/settings/mark-movable/",
                form(on=data.draw(st.one_of(st.just("1"), junk)), next=data.draw(st.one_of(redirect_targets(), junk))),
            )
        elif which == "language":
            req = Req(
                method,
                "/i18n/setlang/",
                form(
                    language=data.draw(st.one_of(st.sampled_from(["nl", "it", "hi", "xx", "en-us"]), junk)),
                    next=data.draw(st.one_of(redirect_targets(), junk)),
                ),
            )
        elif which == "password":
            actor = world[data.draw(st.sampled_from(["alice", "bob", "alice-csrf"]))]
            new = data.draw(st.one_of(st.just("Fresh-pw-8841"), junk))
            req = Req(
                method,
                "/accounts/password/",
                form(
                    old_password=data.draw(junk),
                    new_password1=new,
                    new_password2=data.draw(st.one_of(st.just(new), junk)),
                ),
            )
        elif which == "delete":
            mine = world.games_of(actor.name) if actor.name != "nobody" else []
            pk = data.draw(
                st.one_of(
                    st.just(pick(data, mine or sorted(h.before.games), "pk")),
                    st.just(pick(data, sorted(h.before.games), "any pk")),
                    st.integers(0, 10**18 - 1),
                )
            )
            req = Req(method, f"/game/{pk}/delete/", {}, endpoint="delete", pk=pk)
        else:
            actor, csrf = fresh_guest(h), "none"
            if which == "signup":
                username = data.draw(st.one_of(st.from_regex(r"\Au[a-z0-9]{6,12}\Z"), junk), label="username")
                password = data.draw(st.one_of(st.just("Solitaire-pw-3371"), junk))
                req = Req(
                    method,
                    "/accounts/signup/",
                    form(
                        username=username,
                        email=data.draw(st.one_of(st.emails(), junk, st.just(MISSING))),
                        password1=password,
                        password2=data.draw(st.one_of(st.just(password), junk)),
                    ),
                    endpoint="signup",
                )
            else:
                req = Req(
                    method,
                    "/accounts/login/",
                    form(
                        username=data.draw(st.one_of(st.sampled_from(users), junk)),
                        password=data.draw(st.one_of(st.just(PASSWORD), junk)),
                        next=data.draw(st.one_of(redirect_targets(), st.just(MISSING))),
                    ),
                    endpoint="login",
                )
                req.meta["REMOTE_ADDR"] = f"10.{data.draw(st.integers(0, 255))}.0.1"
        req.headers.update(headers)
        response = h.send(actor, req, csrf=csrf)
        assert_redirect_stays_here(response, req)

    one_form()
    assert {200, 302, 400} <= set(h.statuses), h.statuses
    verified(world)


def redirect_targets():
    return st.sampled_from(
        [
            "/",
            "/my-games/",
            "//evil.example/",
            "https://evil.example/",
            "http://testserver/",
            "javascript:alert(1)",
            "/\\evil.example",
            "\\\\evil.example",
            "https:/evil.example",
            " //evil.example",
            "/%2F%2Fevil.example",
            "http://testserver@evil.example/",
            "\x00//evil.example",
            "///evil.example",
            "/game/1/",
        ]
    )


UNREADABLE_KINDS = ["charset", "no boundary", "wrong boundary", "cut short", "too big", "file", "too many fields"]
POST_ONLY = {"file", "too many fields"}  # found by parsing the form, which Django does for a POST only
BODY_METHODS = ["POST"] * 5 + ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"]
CHARSETS = [
    "utf-16",
    "utf-32",
    "utf-16-le",
    "latin-1",
    "cp1252",
    "ascii",
    "utf8",
    "UTF_8",
    "nonsense-xyz",
    "base64",
    "rot13",
    "punycode",
    "undefined",
    "idna",
    "",
]
FORM_TYPE, MULTIPART_TYPE = "application/x-www-form-urlencoded", "multipart/form-data"
NOT_UTF_8 = st.one_of(
    st.sampled_from(CHARSETS), st.text(string.ascii_letters + string.digits + "-_.:", max_size=20)
).filter(lambda charset: charset.lower() != "utf-8")
NO_BOUNDARY = [
    MULTIPART_TYPE,
    f"{MULTIPART_TYPE}; boundary=",
    f'{MULTIPART_TYPE}; boundary=""',
    f"{MULTIPART_TYPE}; charset=utf-8",
]


def encoded(text: str, charset: str) -> bytes:
    """``text`` in ``charset`` if Python can write it so, else in UTF-8 (the site must refuse it either way)."""
    try:
        return text.encode(charset)
    except (LookupError, ValueError):
        return text.encode()


def draw_unreadable(data, fields: dict, kind: str) -> tuple[str, bytes]:
    """(Content-Type, body): ``fields`` as a form the site must not read, in the way ``kind`` says."""
    boundary = data.draw(st.from_regex(r"\A[0-9A-Za-z_-]{1,70}\Z"), label="boundary")
    whole = encode_multipart(boundary, fields)
    if kind == "charset":
        charset = data.draw(NOT_UTF_8, label="charset")
        if data.draw(st.booleans(), label="multipart"):
            return f"{MULTIPART_TYPE}; boundary={boundary}; charset={charset}", whole
        return f"{FORM_TYPE}; charset={charset}", encoded(urlencode(fields, doseq=True), charset)
    if kind == "no boundary":
        return data.draw(st.sampled_from(NO_BOUNDARY), label="content type"), whole
    if kind == "wrong boundary":
        other = boundary + data.draw(st.from_regex(r"\A[0-9A-Za-z_-]{1,8}\Z"), label="suffix")
        return f"{MULTIPART_TYPE}; boundary={other}", whole
    if kind == "cut short":
        return f"{MULTIPART_TYPE}; boundary={boundary}", whole[: data.draw(st.integers(1, len(whole) - 3), label="cut")]
    if kind == "too big":
        padded = {**fields, "pad": "x" * data.draw(st.integers(django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE, 10**6))}
        if data.draw(st.booleans(), label="multipart"):
            return f"{MULTIPART_TYPE}; boundary={boundary}", encode_multipart(boundary, padded)
        return FORM_TYPE, urlencode(padded, doseq=True).encode()
    if kind == "file":
        upload = SimpleUploadedFile(data.draw(st.sampled_from(["cards.txt", "a.png", "x"])), data.draw(st.binary()))
        return f"{MULTIPART_TYPE}; boundary={boundary}", encode_multipart(boundary, {**fields, "upload": upload})
    extra = data.draw(st.integers(django_settings.DATA_UPLOAD_MAX_NUMBER_FIELDS, 1000), label="fields")
    return FORM_TYPE, urlencode([*fields.items(), *(("f", "1") for _ in range(extra))]).encode()


def test_unreadable_bodies_fuzz(world):
    """Forms the site cannot read (another charset, a missing, empty or wrong multipart boundary,
    a body cut short or too big, a file, too many fields) around a legal action, sent to every
    kind of URL, with any method, htmx or not: the site's 400 page, never a 5xx, and no game
    changes, although each body, read leniently, would have played."""
    h = world.harness
    names = sorted(world.actors)

    @fuzz(400)
    @given(st.data())
    def one_body(data):
        actor = world[data.draw(st.sampled_from(names), label="actor")]
        mine = world.games_of(actor.name, playing=True) if actor.name != "nobody" else []
        pk = pick(data, mine or world.games_of("guest", playing=True), "pk")
        kind = data.draw(st.sampled_from(["move"] * 4 + ["undo", "shuffle", "resign"]), label="action")
        path = data.draw(
            st.sampled_from(
                [f"/game/{pk}/{kind}/"] * 6
                + [
                    "/",
                    "/new/",
                    "/deal/1/start/",
                    f"/game/{pk}/",
                    f"/game/{pk}/delete/",
                    "/accounts/login/",
                    "/accounts/signup/",
                    "/accounts/password/",
                    "/i18n/setlang/",
                    "/settings/mark-movable/",
                    "/admin/login/",
                    "/no-such-page/",
                    "/leaderboards/",
                ]
            ),
            label="path",
        )
        unreadable = data.draw(st.sampled_from(UNREADABLE_KINDS), label="unreadable")
        method = "POST" if unreadable in POST_ONLY else data.draw(st.sampled_from(BODY_METHODS), label="method")
        content_type, body = draw_unreadable(data, legal_req(h, pk, kind).data, unreadable)
        headers, csrf = draw_common(data, actor)
        req = Req(method, path, body, pk=pk, headers=headers, content_type=content_type)  # a "page": changes nothing
        response = h.send(actor, req, csrf=csrf)
        assert response.status_code == 400, (unreadable, req, response.status_code)

    one_body()
    play(h, world["guest"], world.games_of("guest", playing=True)[0])  # a well-formed body still plays
    verified(world)


# --------------------------------------------------------------------------- table-driven

ALL_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE"]


def endpoint_table(world: World) -> list[tuple[str, str, int | None, set[str]]]:
    """(path, endpoint, pk, the methods it answers) for every URL pattern, on the guest's games."""
    playing, finished = world.games_of("guest", playing=True)[0], world.games_of("guest", playing=False)[0]
    page, form_view = {"GET", "HEAD"}, {"GET", "HEAD", "OPTIONS", "POST", "PUT"}
    return [
        ("/", "page", None, page),
        ("/new/", "new", None, {"POST"}),
        ("/deal/1/", "page", None, page),
        ("/deal/1/start/", "deal_start", None, {"POST"}),
        ("/robots.txt", "page", None, {"GET", "HEAD", "OPTIONS"}),
        (f"/game/{playing}/", "page", playing, page),
        *((f"/game/{playing}/{kind}/", kind, playing, {"POST"}) for kind in ACTIONS),
        ("/settings/mark-movable/", "page", None, {"POST"}),
        ("/how-to-play/", "page", None, page),
        ("/my-games/", "page", None, page),
        (f"/game/{playing}/delete/", "delete", playing, {"GET", "POST"}),
        (f"/game/{finished}/verify/", "page", finished, page),
        (f"/game/{finished}/replay/", "page", finished, page),
        (f"/game/{finished}/replay/1/", "page", finished, page),
        ("/leaderboards/", "page", None, page),
        ("/deal/1/leaderboard/", "page", None, page),
        ("/players/alice/", "page", None, page),
        ("/accounts/signup/", "signup", None, {"GET", "POST"}),
        ("/accounts/login/", "login", None, form_view),
        ("/accounts/logout/", "page", None, {"POST", "OPTIONS"}),
    ]


def test_wrong_methods_are_405_and_change_nothing(world):
    """Every endpoint, every method, from the owner with a well-formed legal action as the body."""
    h = world.harness
    guest = world["guest"]
    for path, endpoint, pk, allowed in endpoint_table(world):
        for method in ALL_METHODS:
            if method in allowed:
                continue
            for hx in ("true", "false"):
                data = legal_req(h, pk, endpoint).data if endpoint in ACTIONS else {"deal_number": "1"}
                response = h.send(guest, Req(method, path, data, endpoint=endpoint, pk=pk, headers={"HX-Request": hx}))
                assert response.status_code == 405, (method, path, response.status_code)
                assert response.has_header("Allow"), (method, path)
    # The password views need a signed-in player (a guest is sent to log in); admin and the
    # language switch answer any method.
    for method in ALL_METHODS:
        for path, allowed in (
            ("/accounts/password/", {"GET", "HEAD", "OPTIONS", "POST", "PUT"}),
            ("/accounts/password/done/", {"GET", "HEAD", "OPTIONS"}),
        ):
            response = h.send(world["alice"], Req(method, path, {}))
            assert (response.status_code == 405) == (method not in allowed), (method, path, response.status_code)
            assert h.send(guest, Req(method, path, {})).status_code == 302
        for path in ("/admin/", "/admin/auth/user/", "/i18n/setlang/"):
            h.send(world["alice"], Req(method, path, {}))
    assert h.requests > 200
    verified(world)


def test_converters_and_odd_paths_answer_404(world):
    h = world.harness
    pk = world.games_of("guest", playing=True)[0]
    paths = [*ODD_PATHS, "/deal/" + "9" * 20 + "/", "/deal/-1/leaderboard/"]
    for segment in BAD_SEGMENTS:
        if not converts(segment, 18):
            paths += [
                f"/game/{segment}/",
                f"/game/{segment}/verify/",
                f"/game/{pk}/replay/{segment}/",
                f"/game/{segment}/delete/",
                *(f"/game/{segment}/{kind}/" for kind in ACTIONS),
            ]
        if not converts(segment, 19):
            paths += [f"/deal/{segment}/", f"/deal/{segment}/leaderboard/"]
    assert "/game/" + "9" * 19 + "/" in paths
    for path in paths:
        for method in ("GET", "POST"):
            response = h.send(world["guest"], Req(method, path, legal_req(h, pk).data), csrf="none")
            if path.endswith("/"):
                assert response.status_code == 404, (method, path, response.status_code)
            else:  # CommonMiddleware's APPEND_SLASH: to the same path with a slash, if that exists
                assert response.status_code == 404 or (
                    response.status_code == 301 and response["Location"].startswith(path + "/")
                ), (method, path)
    # Numbers the converters take but no game or deal has: still a plain 404.
    for path in (
        "/deal/0/",
        "/deal/9223372036854775808/",
        "/deal/9999999999999999999/leaderboard/",
        "/game/999999999999999999/",
        f"/game/{pk}/replay/999999999999999999/",
        "/game/0/move/",
        "/players/%00/",
        "/players/" + "x" * 4000 + "/",
        "/players/%F0%9F%82%A1/",
    ):
        method = "POST" if path.endswith("move/") else "GET"
        assert h.send(world["guest"], Req(method, path, legal_req(h, pk).data)).status_code == 404, path
    # The largest deal number is a deal like any other.
    assert h.send(world["nobody"], Req("GET", f"/deal/{engine.MAX_DEAL}/")).status_code == 200
    response = h.send(world["nobody"], Req("POST", f"/deal/{engine.MAX_DEAL}/start/", endpoint="deal_start"))
    assert response.status_code == 302
    verified(world)


def test_other_players_games_are_not_found(world):
    """Someone else's game, playing or finished, does not exist for you: 404, nothing changes."""
    h = world.harness
    owners = ["guest", "stranger", "alice", "bob"]
    for owner in owners:
        for pk in world.games_of(owner):
            for name in [*owners, "guest-csrf", "alice-csrf", "nobody"]:
                if name.split("-")[0] == owner:
                    continue
                actor, hx = world[name], ("true", "false")[pk % 2]
                for kind in ACTIONS:
                    req = legal_req(h, pk, kind)
                    req.headers["HX-Request"] = hx
                    assert h.send(actor, req, csrf="right").status_code == 404, (name, pk, kind)
                for method, suffix in (
                    ("GET", ""),
                    ("GET", "delete/"),
                    ("POST", "delete/"),
                    ("GET", "verify/"),
                    ("GET", "replay/"),
                    ("GET", "replay/1/"),
                ):
                    req = Req(
                        method,
                        f"/game/{pk}/{suffix}",
                        {},
                        endpoint="delete" if suffix == "delete/" else "page",
                        pk=pk,
                        headers={"HX-Request": hx},
                    )
                    assert h.send(actor, req, csrf="right").status_code == 404, (name, method, pk, suffix)
    verified(world)


def test_posts_without_a_csrf_token_are_refused(world):
    """A browser that enforces CSRF: no token or a wrong one is 403 and changes nothing; the
    right one (as htmx sends it) works, so the refusal is really about the token."""
    h = world.harness
    for name in ("guest-csrf", "alice-csrf"):
        actor = world[name]
        pk = world.games_of(name, playing=True)[0]
        posts = [legal_req(h, pk, kind) for kind in ("move", "undo", "shuffle")] + [
            Req("POST", "/new/", {"deal_number": "1"}, endpoint="new"),
            Req("POST", "/deal/1/start/", {}, endpoint="deal_start"),
            Req("POST", f"/game/{pk}/delete/", {}, endpoint="delete", pk=pk),
            Req("POST", "/settings/mark-movable/", {"on": "0"}),
            Req("POST", "/i18n/setlang/", {"language": "nl"}),
            Req("POST", "/accounts/login/", {"username": "alice", "password": PASSWORD}, endpoint="login"),
            Req(
                "POST",
                "/accounts/signup/",
                {"username": "mallory", "password1": PASSWORD, "password2": PASSWORD},
                endpoint="signup",
            ),
            Req("POST", "/accounts/logout/", {}),
            Req("POST", "/accounts/password/", {"old_password": PASSWORD, "new_password1": "x", "new_password2": "x"}),
            Req(
                "POST", f"/game/{pk}/resign/", {"version": str(h.before.games[pk]["version"])}, endpoint="resign", pk=pk
            ),
        ]
        for req in posts:
            for csrf in ("none", "wrong"):
                req.headers.pop("X-CSRFToken", None)
                response = h.send(actor, req, csrf=csrf)
                assert response.status_code == 403, (name, req, response.status_code)
                assert "403_csrf.html" in [t.name for t in response.templates], (name, req)
        changed = h.changed
        h.send(actor, legal_req(h, pk), csrf="right")
        assert h.changed == changed + 1
    assert not User.objects.filter(username="mallory").exists()
    verified(world)


def test_finished_games_refuse_every_action(world):
    h = world.harness
    for name in ("guest", "alice", "stranger"):
        for pk in world.games_of(name, playing=False):
            for hx in ("true", "false"):
                for kind in ACTIONS:
                    fields = form(version=str(h.before.games[pk]["version"]), slot="0-1" if kind == "move" else MISSING)
                    req = Req("POST", f"/game/{pk}/{kind}/", fields, endpoint=kind, pk=pk, headers={"HX-Request": hx})
                    assert h.send(world[name], req).status_code == (422 if hx == "true" else 302), (pk, kind)
                response = h.send(world[name], Req("POST", f"/game/{pk}/delete/", {}, endpoint="delete", pk=pk))
                assert response.status_code == 302 and pk in h.before.games
                for suffix in ("", "verify/", "replay/", "replay/1/"):
                    assert (
                        h.send(
                            world[name], Req("GET", f"/game/{pk}/{suffix}", {}, headers={"HX-Request": hx})
                        ).status_code
                        == 200
                    ), (pk, suffix)
    verified(world)


def test_malformed_and_stale_action_fields(world):
    """The brief's slots and versions, each as htmx and as a plain form, on the owner's game."""
    h = world.harness
    guest = world["guest"]
    pk = world.games_of("guest", playing=True)[0]
    for hx in ("true", "false"):
        headers = {"HX-Request": hx}
        for slot in [*SLOT_JUNK, ["0-1", "3-13"], [], 5, -1, 10**30, 1.5]:
            version = str(h.before.games[pk]["version"])
            response = h.send(
                guest,
                Req(
                    "POST",
                    f"/game/{pk}/move/",
                    {"version": version, "slot": slot},
                    endpoint="move",
                    pk=pk,
                    headers=dict(headers),
                ),
            )
            assert response.status_code == 400, (slot, response.status_code)
        for version in [*NUMBER_JUNK, -1, 10**30, 1.5, [], ["0", "x"]]:
            slot = legal_req(h, pk).data["slot"]
            # The harness knows what each value means (Django reads "٣" as 3) and checks the answer.
            h.send(
                guest,
                Req(
                    "POST",
                    f"/game/{pk}/move/",
                    form(version=version, slot=slot),
                    endpoint="move",
                    pk=pk,
                    headers=dict(headers),
                ),
            )
        current = h.before.games[pk]["version"]
        for version in (current - 1, current + 1, 0, 2**31 - 1):
            req = legal_req(h, pk, htmx=hx == "true")
            req.data["version"] = str(version)
            if version != current:
                assert h.send(guest, req).status_code == (409 if hx == "true" else 302), version
        h.send(guest, legal_req(h, pk, htmx=hx == "true"))  # the well-formed one still works
    assert h.changed >= 2
    verified(world)


def test_oversized_and_odd_bodies_are_400(world):
    h = world.harness
    guest = world["guest"]
    pk = world.games_of("guest", playing=True)[0]
    version = str(h.before.games[pk]["version"])
    move = f"/game/{pk}/move/"
    cases = [
        Req("POST", move, {"version": version, "slot": "x" * 3_000_000}),  # over DATA_UPLOAD_MAX_MEMORY_SIZE
        Req("POST", move, {**{f"f{i}": "1" for i in range(1100)}, "version": version}),  # too many fields
        Req("POST", move, '{"version": 1, "slot": "0-1"}', content_type="application/json"),
        Req("POST", move, "version=1&slot=0-1", content_type="text/plain"),
        Req(
            "POST",
            move,
            '--x\r\nContent-Disposition: form-data; name="version"\r\n\r\n1',
            content_type="multipart/form-data",
        ),  # no boundary
        Req("POST", move, b"\xff\xfe\x00garbage", content_type="multipart/form-data; boundary=x"),
        Req("POST", move, "%ff%fe=%00&version=%ff", content_type="application/x-www-form-urlencoded"),
    ]
    statuses = [h.send(guest, req).status_code for req in cases]
    assert statuses == [400] * len(cases), statuses
    bad_host = h.send(guest, Req("GET", "/", headers={"Host": "evil.example"}))
    assert bad_host.status_code == 400 and "400.html" in [t.name for t in bad_host.templates]
    for header, value in (
        ("User-Agent", "x" * 100_000),
        ("Accept-Language", "x" * 10_000),
        ("Cookie", "sessionid=" + "x" * 5000),
        ("HX-Request", "true" * 1000),
        ("X-Forwarded-For", "1.2.3.4, " * 500),
    ):
        assert h.send(guest, Req("GET", f"/game/{pk}/", headers={header: value})).status_code < 500, header
    verified(world)


def test_a_next_that_is_no_path_still_redirects_home_or_nearby(world):
    """mark-movable once passed ``next`` to redirect(), which tried "-1" as a URL name: a 500."""
    h = world.harness
    for back in ("-1", "home", "games:home", "x", "", "%00", "/my-games/"):
        req = Req("POST", "/settings/mark-movable/", {"on": "1", "next": back})
        response = h.send(world["guest"], req)
        assert response.status_code == 302, (back, response.status_code)
        assert_redirect_stays_here(response, req)
    verified(world)
