"""Requests the site cannot read: a charset other than UTF-8 (even one Python knows, even
one it does not), a multipart body with a missing, empty or wrong boundary or cut short, a
body over the size limit, too many fields, a file.  Each gets the site's 400 page at any URL, logged as one
line without a traceback, and changes no game (addiction_site/request_body.py).

The player uses a real browser: CSRF checks on, the CSRF cookie set and sent back in the
header, as htmx does.  That cookie is what made the CSRF check read the body, and raise.
A Content-Type that Django cannot even build a request from goes through the WSGI
application, as gunicorn sends it.
"""

from __future__ import annotations

import io
from urllib.parse import urlencode
from wsgiref.util import setup_testing_defaults

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from django.test.client import encode_multipart
from django.utils import translation

from addiction_site.wsgi import application
from games.models import Game
from tests.helpers import HTMX, a_movable_slot, grid, parse_html, snapshot

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


def multipart(fields: dict) -> bytes:
    return encode_multipart("AbUsE", fields)


def move_form(game: Game) -> dict:
    """A move the rules allow on ``game`` now: read leniently, any body below would play it."""
    row, col = a_movable_slot(game)
    return {"version": str(Game.objects.get(pk=game.pk).version), "slot": f"{row}-{col}"}


# (Content-Type, body) around a form the site would otherwise take.
UNREADABLE = {
    "utf-16 form": lambda form: (f"{FORM}; charset=utf-16", urlencode(form).encode("utf-16")),
    "utf-32 form": lambda form: (f"{FORM}; charset=utf-32", urlencode(form).encode("utf-32")),
    "unknown charset": lambda form: (f"{FORM}; charset=nonsense-xyz", urlencode(form).encode()),
    "bytes-to-bytes charset": lambda form: (f"{FORM}; charset=base64", urlencode(form).encode()),
    "multipart in utf-16": lambda form: (f"{MULTIPART}; boundary=AbUsE; charset=utf-16", multipart(form)),
    "no boundary": lambda form: (MULTIPART, multipart(form)),
    "empty boundary": lambda form: (f"{MULTIPART}; boundary=", multipart(form)),
    "boundary never in the body": lambda form: (f"{MULTIPART}; boundary=elsewhere", multipart(form)),
    "no closing boundary": lambda form: (f"{MULTIPART}; boundary=AbUsE", multipart(form).rstrip()[:-2]),
    "cut short": lambda form: (f"{MULTIPART}; boundary=AbUsE", multipart(form)[:60]),
    "a file": lambda form: (
        f"{MULTIPART}; boundary=AbUsE",
        multipart({**form, "upload": SimpleUploadedFile("cards.txt", b"KS QS")}),
    ),
    "too big": lambda form: (FORM, urlencode({**form, "pad": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE}).encode()),
    "too big multipart": lambda form: (
        f"{MULTIPART}; boundary=AbUsE",
        multipart({**form, "pad": "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE}),
    ),
    "too many fields": lambda form: (FORM, urlencode([*form.items(), *(("f", "1") for _ in range(200))]).encode()),
}


def urls(game: Game) -> list[str]:
    pk = game.pk
    return [
        "/",
        "/new/",
        f"/game/{pk}/",
        f"/game/{pk}/move/",
        f"/game/{pk}/resign/",
        f"/game/{pk}/delete/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/",
        "/i18n/setlang/",
        "/settings/mark-movable/",
        "/no-such-page/",
        "/admin/login/",
    ]


@pytest.fixture
def player(client, game) -> Client:
    """``game``'s player, in a browser that enforces CSRF checks and holds the CSRF cookie."""
    real = Client(enforce_csrf_checks=True)
    real.cookies = client.cookies  # the guest cookie: the game is this browser's
    assert real.get(f"/game/{game.pk}/").status_code == 200  # sets the CSRF cookie
    return real


def post(player: Client, url: str, content_type: str, body: bytes, **headers):
    token = player.cookies[settings.CSRF_COOKIE_NAME].value
    return player.generic("POST", url, body, content_type=content_type, headers={"X-CSRFToken": token, **headers})


def assert_400_page(response, url: str, heading: str = "Bad request") -> None:
    assert response.status_code == 400, (url, response.status_code)
    assert "400.html" in [template.name for template in response.templates], url
    assert parse_html(response).find("h1").text == heading, url


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
@pytest.mark.parametrize("name", UNREADABLE)
def test_an_unreadable_post_is_the_site_400_page_at_every_url(player, game, name, htmx):
    before = snapshot(game)
    for url in urls(game):
        content_type, body = UNREADABLE[name](move_form(game))
        assert_400_page(post(player, url, content_type, body, **(HTMX if htmx else {})), url)
    assert snapshot(game) == before


@pytest.mark.parametrize("name", UNREADABLE)
def test_the_400_page_speaks_the_visitors_language(player, game, name):
    content_type, body = UNREADABLE[name](move_form(game))
    response = post(player, f"/game/{game.pk}/move/", content_type, body, **HTMX, **{"Accept-Language": "nl"})
    with translation.override("nl"):
        dutch = translation.gettext("Bad request")
    assert dutch != "Bad request"
    assert_400_page(response, name, heading=dutch)
    assert parse_html(response).find("html")["lang"] == "nl"


@pytest.mark.parametrize("name", UNREADABLE)
def test_an_unreadable_post_is_logged_as_one_line_without_a_traceback(player, game, name, caplog):
    for url in (f"/game/{game.pk}/move/", "/no-such-page/", "/accounts/login/"):
        caplog.clear()
        content_type, body = UNREADABLE[name](move_form(game))
        post(player, url, content_type, body)
        assert [(record.levelname, record.exc_info) for record in caplog.records] == [("WARNING", None)], url
        assert "\n" not in caplog.records[0].getMessage()


@pytest.mark.parametrize(
    "content_type",
    [
        f"{FORM}; charset=utf-16",
        f"{MULTIPART}; boundary=",
        MULTIPART,
        "text/plain; charset=latin-1",
        "text/plain; charset=nonsense-xyz",
    ],
)
def test_a_get_that_declares_an_unreadable_body_is_a_400(player, content_type):
    assert_400_page(player.generic("GET", "/leaderboards/", b"x=1", content_type=content_type), content_type)


def test_a_well_formed_post_still_plays(player, game):
    """What browsers and htmx send: a UTF-8 form, named so or not, and a whole multipart body."""

    def form(fields: dict) -> bytes:
        return urlencode(fields).encode()

    for content_type, encode in (
        (FORM, form),
        (f"{FORM}; charset=UTF-8", form),
        (f"{MULTIPART}; boundary=AbUsE", multipart),
    ):
        version = Game.objects.get(pk=game.pk).version
        response = post(player, f"/game/{game.pk}/move/", content_type, encode(move_form(game)), **HTMX)
        assert response.status_code == 200 and grid(response).version == version + 1, content_type


def test_the_largest_forms_fit_the_limits_with_room_to_spare(db):
    """Sign-up with every field at its longest, and the language form whose hidden ``next``
    holds the longest address gunicorn takes (a request line of at most 4094 bytes), all
    escapes, each of which the form's encoding makes longer again."""
    email = "e" * 64 + "@" + ".".join(["d" * 59] * 3) + ".example"
    signup = {
        "username": "u" * 150,
        "email": email,
        "password1": "P-" * 64,
        "password2": "P-" * 64,
        "csrfmiddlewaretoken": "t" * 64,
    }
    language = {"language": "nl", "next": "/" + "%F0" * 1360, "csrfmiddlewaretoken": "t" * 64}
    assert 20 * len(urlencode(signup)) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert 2 * len(urlencode(language)) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    player = Client()
    assert player.post("/accounts/signup/", urlencode(signup), content_type=FORM).status_code == 302
    assert player.post("/i18n/setlang/", urlencode(language), content_type=FORM).status_code == 302


def wsgi(method: str, url: str, content_type: str, body: bytes, length: str | None = None) -> tuple[str, bytes]:
    """Send a request through addiction_site.wsgi.application, as gunicorn does.

    Like the test client, without closing old database connections around the request,
    which would end the test's transaction.
    """
    path, _mark, query = url.partition("?")
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(body)) if length is None else length,
        "wsgi.input": io.BytesIO(body),
    }
    setup_testing_defaults(environ)
    answer = []
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        chunks = application(environ, lambda status, headers, exc_info=None: answer.append(status))
        page = b"".join(chunks)
        chunks.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return answer[0], page


@pytest.mark.parametrize(
    ("method", "url", "content_type"),
    [
        ("POST", "/accounts/login/", "text/plain; a*=nonsense''x"),  # ValueError: an RFC 2231 charset unknown
        ("POST", "/accounts/login/", f"{MULTIPART}; boundary*=nonsense''x"),
        ("POST", "/accounts/login/", f"{FORM}; charset*=nonsense''utf-8"),
        ("POST", "/accounts/login/", f"{FORM}; charset=utf-8\x00"),  # ValueError: a NUL in the codec's name
        ("GET", "/leaderboards/?board=time", "text/plain; charset=base64"),  # LookupError on the query
        ("GET", "/leaderboards/?board=time", "text/plain; charset=punycode"),  # UnicodeError on the query
        ("HEAD", "/?a=%FF", "text/plain; charset=undefined"),
    ],
)
def test_a_content_type_django_cannot_build_a_request_from_is_the_400_page(db, method, url, content_type):
    """Django raised these while it built the request, before any middleware: a bare 500."""
    status, page = wsgi(method, url, content_type, b"username=a&password=b")
    assert status.startswith("400 ")
    if method != "HEAD":
        assert parse_html(page.decode()).find("h1").text == "Bad request"


@pytest.mark.parametrize("length", ["abc", "-1", "1e3", " ", "9" * 5000, "0" * 4400 + "5"])
def test_a_content_length_that_is_not_a_number_is_the_400_page(db, length):
    """gunicorn refuses these itself; another server may pass them on, and reading the body raised."""
    status, page = wsgi("POST", "/accounts/login/", FORM, b"username=a&password=b", length=length)
    assert status.startswith("400 ")
    assert parse_html(page.decode()).find("h1").text == "Bad request"


def test_the_wsgi_application_still_answers_ordinary_requests(db):
    assert wsgi("POST", "/no-such-page/", "text/plain; charset=UTF-8", b"x")[0].startswith("404 ")
    assert wsgi("GET", "/no-such-page/?board=time", "", b"")[0].startswith("404 ")
