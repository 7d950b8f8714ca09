"""The deal drawn for this browser: the random deal the home page shows before any game of it
exists (docs/RULES.md, "Deal", "The home page").

A GET stores nothing (a crawler or a prefetch must not make games), so the deal shown is kept
in a signed cookie of this browser, one per variant: its number, drawn on the server, and when
it was first shown, in the server's time.  Every page shows the same deal until a game of it
starts (a click on its table, or "Play a random deal"), which is a random deal like any other,
its clock running from when the deal was first shown: a reload never draws another deal, and
looking at it before the first click is time on the clock, as in any game (the idle cap bounds
a pause).  The cookie is signed, so a browser cannot choose its number or its time."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import NamedTuple

from django.core import signing
from django.http import HttpRequest

from addiction_site.ownership import set_lasting_cookie
from games import engine

COOKIE = "addiction_drawn"
_SALT = "games.drawn"


class Drawn(NamedTuple):
    """A deal drawn for this browser: its ``number`` and when it was first ``shown``."""

    number: int
    shown: datetime


def _kept(request: HttpRequest) -> dict[str, list[int]]:
    """The cookie's deals, by variant: [number, shown in ms since the epoch]; {} when absent or forged."""
    try:
        kept = signing.loads(request.COOKIES.get(COOKIE, ""), salt=_SALT)
    except signing.BadSignature:
        return {}
    return kept if isinstance(kept, dict) else {}


def drawn_deal(request: HttpRequest, variant: str) -> Drawn | None:
    """The deal drawn for this browser in ``variant``, or None."""
    entry = _kept(request).get(variant)
    try:
        number, shown_ms = (int(value) for value in entry)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        return None
    if not 1 <= number <= engine.DRAWN_DEALS:
        return None
    return Drawn(number, datetime.fromtimestamp(shown_ms / 1000, tz=UTC))


def draw(now: datetime) -> Drawn:
    """A new random deal (docs/RULES.md, "Deal": 1 to 999,999,999), first shown ``now``."""
    return Drawn(secrets.randbelow(engine.DRAWN_DEALS) + 1, now)


def keep(response, request: HttpRequest, variant: str, drawn: Drawn | None) -> None:
    """Keep ``drawn`` as this browser's deal of ``variant`` (None: forget it, its game started)."""
    kept = _kept(request)
    if drawn is None:
        if variant not in kept:
            return
        kept.pop(variant)
    else:
        kept[variant] = [drawn.number, int(drawn.shown.timestamp() * 1000)]
    if kept:
        set_lasting_cookie(response, COOKIE, signing.dumps(kept, salt=_SALT, compress=True))
    else:
        response.delete_cookie(COOKIE)
