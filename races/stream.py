"""A race's standings, live (docs/RULES.md, "Races"): the Server-Sent Events stream each open
page holds, and what it sends.  The publishing side, what services call when a race changes,
is races/notices.py.

Every open stream of a race is in the race's group on Channels' channel layer
(``notices.group_of``); each notice it hears carries the race's snapshot, which it renders in
its player's language and sends, with what changed worth saying aloud (``selectors.news``).
A stream also reads the race itself when it opens (so a reload or a reconnection starts from
the figures as they are: they are the games' own state) and every
``ADDICTION_LIVE_RECHECK_SECONDS`` (so a notice lost, or sent by a process with another
in-memory layer, is caught up), and ends after ``LIFETIME`` seconds: the browser's
EventSource opens it again, on whichever server is up, and catches up the same way.

The stream is a small ASGI application of its own (``stream``, routed in
addiction_site/asgi.py), outside Django's request cycle: a page's stream holds no thread and
no database connection while it waits.  Served by WSGI instead (gunicorn, the test client),
the same address answers one snapshot and asks the browser to come back
(races/views.py, ``race_stream_once``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from races.models import Race
from races.notices import group_of
from races.selectors import News, Snapshot, news, race_snapshot

log = logging.getLogger(__name__)

RETRY_MS = 1000  # how soon a browser opens a dropped stream again
LIFETIME = 300  # seconds a stream lasts before the browser is asked to open it again


def said(item: News) -> str:
    """``item`` in words, in the active language."""
    if item.kind == "started":
        return _("The race has started.")
    if item.kind == "closed":
        return _("The race is closed.")
    if item.kind == "won":
        return _("%(name)s won.") % {"name": item.name}
    if item.kind == "lost":
        return _("%(name)s is stuck.") % {"name": item.name}
    if item.kind == "gave-up":
        return _("%(name)s gave up.") % {"name": item.name}
    if item.kind == "fast":
        return _("%(name)s finished faster than a person plays.") % {"name": item.name}
    return _("%(name)s overtook %(other)s.") % {"name": item.name, "other": item.other}


def event(kind: str, data: str) -> str:
    """One Server-Sent Event: each line of ``data`` its own ``data:`` line."""
    lines = "".join(f"data: {line}\n" for line in data.splitlines() or [""])
    return f"event: {kind}\n{lines}\n"


@functools.lru_cache(maxsize=512)
def events_of(code: str, shown: Snapshot, before: Snapshot | None, language: str) -> str:
    """The events that show ``shown`` to a player in ``language``: the standings, what changed
    since ``before`` worth saying, and "closed" once the race is.  Every stream of a race on
    this server gets the same notice: the events are rendered once for all of them (kept for
    the last 512 notices; benchmarks/README.md, "Live races", gives what that saves)."""
    with translation.override(language):
        table = render_to_string(
            "races/_standings.html",
            {"race": {"code": code, "state": shown.state, "roster": shown.roster}, "standings": shown.rows},
        )
        words = " ".join(said(item) for item in news(before, shown)) if before else ""
    out = event("standings", table)
    if words:
        out += event("news", words)
    if shown.state == Race.State.CLOSED:
        out += event("closed", "")
    return out


def language_of(query: str) -> str:
    wanted = (parse_qs(query).get("lang") or [""])[0]
    return wanted if wanted in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


@database_sync_to_async
def _read(code: str) -> tuple[int, Snapshot] | None:
    return race_snapshot(code=code, now=timezone.now())


HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),  # nginx passes each event on at once
]


async def stream(scope, receive, send) -> None:
    """The ASGI application of ``/race/<code>/stream/``: the race's standings as they change."""
    if scope["type"] != "http":
        return
    if scope["method"] not in ("GET", "HEAD"):
        await _answer(send, 405, b"Only GET.\n", [(b"allow", b"GET, HEAD")])
        return
    code = scope["url_route"]["kwargs"]["code"]
    language = language_of(scope.get("query_string", b"").decode("latin-1"))
    found = await _read(code)
    if found is None:
        await _answer(send, 404, b"No such race.\n")
        return
    race_id, shown = found
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group_of(race_id), channel)
    # Read again now the stream is in the race's group: a change committed between the first
    # reading and group_add was told to the group without this stream, but is in this reading;
    # a notice of it that arrives as well is older or the same, and _feed drops it.
    shown = (await _read(code) or found)[1]
    try:
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        first = f"retry: {RETRY_MS}\n\n" + events_of(code, shown, None, language)
        await send({"type": "http.response.body", "body": first.encode(), "more_body": True})
        if shown.state != Race.State.CLOSED and scope["method"] == "GET":
            feed = asyncio.ensure_future(_feed(layer, channel, code, shown, language, send))
            gone = asyncio.ensure_future(_until_disconnect(receive))
            try:
                await asyncio.wait([feed, gone], timeout=LIFETIME, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (feed, gone):
                    task.cancel()
                await asyncio.gather(feed, gone, return_exceptions=True)
                if feed.done() and not feed.cancelled() and feed.exception():
                    log.warning("race %s: the stream failed", race_id, exc_info=feed.exception())
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    except OSError:  # the client went away as we wrote
        pass
    finally:
        await layer.group_discard(group_of(race_id), channel)


async def _until_disconnect(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _feed(layer, channel: str, code: str, shown: Snapshot, language: str, send) -> None:
    """Send each newer snapshot the layer brings, or the database shows at a recheck."""
    recheck = settings.ADDICTION_LIVE_RECHECK_SECONDS
    while shown.state != Race.State.CLOSED:
        try:
            message = await asyncio.wait_for(layer.receive(channel), timeout=recheck)
            fresh = Snapshot.from_message(message["snapshot"])
        except TimeoutError:
            found = await _read(code)
            if found is None:
                return
            fresh = found[1]
            if fresh.figures == shown.figures:
                await send({"type": "http.response.body", "body": b": still here\n\n", "more_body": True})
                continue
        if fresh.order < shown.order or fresh.figures == shown.figures:
            continue  # older than what the page shows (two notices crossed), or nothing new
        body = events_of(code, fresh, shown, language)
        await send({"type": "http.response.body", "body": body.encode(), "more_body": True})
        shown = fresh


async def _answer(send, status: int, body: bytes, headers: list | None = None) -> None:
    headers = [(b"content-type", b"text/plain"), *(headers or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
