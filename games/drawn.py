"""The deal drawn for this browser: the random deal the home page shows before any game of it
exists (docs/RULES.md, "The home page").

A GET stores nothing (a crawler or a prefetch must not make games), so the deal shown is kept
in a signed cookie of this browser, one per variant: every visit shows the same deal until a
game of it starts (a click on its table), and then a new one is drawn.  A deal shown before its
start is known to the player, as a deal chosen by number is: its game ranks on its own deal's
board only ("Leaderboards"), and "Play a random deal" draws one nobody has seen."""

from __future__ import annotations

import secrets

from django.core import signing
from django.http import HttpRequest

from addiction_site.ownership import set_lasting_cookie
from games import engine

COOKIE = "addiction_drawn"
_SALT = "games.drawn"


def _kept(request: HttpRequest) -> dict[str, int]:
    """The cookie's deals, by variant; {} when absent or forged."""
    try:
        kept = signing.loads(request.COOKIES.get(COOKIE, ""), salt=_SALT)
    except signing.BadSignature:
        return {}
    if not isinstance(kept, dict):
        return {}
    return {variant: number for variant, number in kept.items() if isinstance(number, int)}


def drawn_deal(request: HttpRequest, variant: str) -> int | None:
    """The number of the deal drawn for this browser in ``variant``, or None."""
    number = _kept(request).get(variant)
    return number if number is not None and 1 <= number <= engine.DRAWN_DEALS else None


def draw() -> int:
    """A new random deal's number (docs/RULES.md, "Deal": 1 to 999,999,999)."""
    return secrets.randbelow(engine.DRAWN_DEALS) + 1


def keep(response, request: HttpRequest, variant: str, number: int | None) -> None:
    """Keep ``number`` as this browser's deal of ``variant`` (None: forget it, its game started)."""
    kept = _kept(request)
    if number is None:
        if variant not in kept:
            return
        kept.pop(variant)
    else:
        kept[variant] = number
    if kept:
        set_lasting_cookie(response, COOKIE, signing.dumps(kept, salt=_SALT, compress=True))
    else:
        response.delete_cookie(COOKIE)
