"""The player's choices for the table (marking, sounds, colours, motion, the deck, the faces),
kept in cookies of this browser, each decided here once: its cookie, what the cookie keeps for
each choice, what no cookie means, and the attribute on ``<html>`` that the stylesheet and the
scripts read (base.html, ``{% page_choices %}``).  The settings page's form offers them
(games/forms.py), its post keeps them (:func:`remember`), and every page reads them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.utils.translation import get_language

from addiction_site.ownership import set_lasting_cookie
from games.models import Variant


@dataclass(frozen=True)
class Choice:
    """One of the settings: its ``cookie``, the cookie's value for each choice (``kept``; a
    choice missing there is the ``default``, kept by removing the cookie), and the ``<html>``
    data attribute its cookie's value goes on ("" for none)."""

    cookie: str
    kept: dict[Any, str]
    default: Any
    attribute: str = ""

    def read(self, request: HttpRequest) -> Any:
        """The choice this browser made (the default without a cookie, or with one not understood)."""
        value = request.COOKIES.get(self.cookie)
        return next((choice for choice, kept in self.kept.items() if kept == value), self.default)


CHOICES = {
    "mark_movable": Choice("addiction_mark_movable", {True: "1", False: "0"}, True),
    "sound": Choice("addiction_sound", {True: "on"}, False, "data-sound"),  # small sounds, off unless chosen
    "theme": Choice("addiction_theme", {"light": "light", "dark": "dark"}, "auto", "data-theme"),  # auto: the device's
    "motion": Choice("addiction_motion", {"on": "on", "off": "off"}, "auto", "data-motion"),  # auto: the device's
    "deck": Choice("addiction_deck", {"four": "four"}, "two", "data-deck"),  # four: a four-colour deck
    "face": Choice("addiction_face", {"large": "large"}, "usual", "data-face"),  # large: a large index
}
"""The settings by the settings form's field names."""

VARIANT_COOKIE = "addiction_variant"  # the variant of the last game started here: the home page's default


def chosen(request: HttpRequest) -> dict:
    """The choices this browser made, as the settings form's initial values."""
    return {name: choice.read(request) for name, choice in CHOICES.items()}


def remember(response, choices: dict) -> None:
    """Keep ``choices`` (some or all of the settings, by name) in this browser's cookies."""
    for name, value in choices.items():
        choice = CHOICES[name]
        if value in choice.kept:
            set_lasting_cookie(response, choice.cookie, choice.kept[value])
        else:
            response.delete_cookie(choice.cookie, samesite="Lax")


def page_attributes(request: HttpRequest) -> dict[str, str]:
    """The ``<html>`` attributes of this browser's choices: ``{"data-theme": "dark", ...}``,
    none for a choice left as the default."""
    found = {}
    for choice in CHOICES.values():
        value = request.COOKIES.get(choice.cookie, "")
        if choice.attribute and value in choice.kept.values():
            found[choice.attribute] = value
    return found


def marks_movable(request: HttpRequest) -> bool:
    """Whether the table marks the cards that can move (on unless this browser turned it off)."""
    return CHOICES["mark_movable"].read(request)


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
