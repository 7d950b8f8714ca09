"""The player's choices for the table (marking, colours, motion), kept in cookies of this
browser: their names, and how a request says which were made.  base.html and the table
read them on every page; the settings page writes them."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import get_language

from games.models import Variant

MARK_MOVABLE_COOKIE = "addiction_mark_movable"  # "0" when the player turned the marking off
THEME_COOKIE = "addiction_theme"  # "light" or "dark"; none (or "auto") follows the device
MOTION_COOKIE = "addiction_motion"  # "on" or "off"; none (or "auto") follows the device
DECK_COOKIE = "addiction_deck"  # "four": a four-colour deck; none: the usual red and black
FACE_COOKIE = "addiction_face"  # "large": a large index (rank) on every card; none: the usual face
SOUND_COOKIE = "addiction_sound"  # "on": small sounds for moves, shuffles and wins; none: silence
VARIANT_COOKIE = "addiction_variant"  # the variant of the last game started here: the home page's default


def marks_movable(request: HttpRequest) -> bool:
    """Whether the table marks the cards that can move (on unless this browser turned it off)."""
    return request.COOKIES.get(MARK_MOVABLE_COOKIE) != "0"


def chosen(request: HttpRequest) -> dict:
    """The choices this browser made, as the settings form's initial values."""
    theme = request.COOKIES.get(THEME_COOKIE)
    motion = request.COOKIES.get(MOTION_COOKIE)
    return {
        "mark_movable": marks_movable(request),
        "theme": theme if theme in ("light", "dark") else "auto",
        "motion": motion if motion in ("on", "off") else "auto",
        "deck": "four" if request.COOKIES.get(DECK_COOKIE) == "four" else "two",
        "sound": request.COOKIES.get(SOUND_COOKIE) == "on",
        "face": "large" if request.COOKIES.get(FACE_COOKIE) == "large" else "usual",
    }


def chosen_variant(request: HttpRequest) -> str | None:
    """The variant the request names, if any: its ``?variant=``, else the one this browser last
    started a game of (docs/RULES.md, "The variants")."""
    for asked in (request.GET.get("variant"), request.COOKIES.get(VARIANT_COOKIE)):
        if asked in Variant.values:
            return asked
    return None


def drawn_as(request: HttpRequest) -> str:
    """What a table's drawing depends on besides the game: the language and whether cards
    that can move are marked.  The grid form posts it back (its field ``drawn``), so that a
    page drawn otherwise, before another tab changed either, gets its whole table again
    rather than a few slots drawn differently from the rest."""
    return f"{get_language()} {'marked' if marks_movable(request) else 'plain'}"
