"""Who owns a game: the one place that decides, so accounts can grow from it.

A signed-in player's games are tied to their account.  A guest's games are tied to a
random token kept in a cookie of its own, ``addiction_guest``: unguessable like a session
key, HttpOnly, Secure in production, SameSite=Lax.  A guest therefore needs no session,
and their clicks no session read.  The cookie lives a year from the last day it was used
(it is sent again once a day), so a guest who keeps playing never loses their games.
Signing up or logging in gives the guest's games to the account and drops the cookie
(games/signals.py); after logging out, the browser is a new guest.

Every view finds games through ``owned_games``, so a game that is not yours is simply
not found (404).  ``GuestCookieMiddleware`` writes the cookie changes decided here.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.db.models import Q, QuerySet

from games.models import Game

GUEST_COOKIE = "addiction_guest"
SEEN_KEY = "addiction_seen"  # a signed-in player's session: the last day it was saved
LEGACY_SESSION_KEY = "addiction_guest"  # where a guest's token was kept before the cookie
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
_SET, _FORGET = "_addiction_guest_set", "_addiction_guest_forget"


@dataclass(frozen=True)
class Owner:
    user_id: int | None
    guest_token: str

    def owns(self) -> Q:
        """The filter for this owner's games."""
        if self.user_id is not None:
            return Q(owner_id=self.user_id)
        if self.guest_token:
            return Q(owner__isnull=True, guest_token=self.guest_token)
        return Q(pk__in=[])

    def stamp(self) -> dict:
        """The fields a new game of this owner gets."""
        return {"owner_id": self.user_id, "guest_token": "" if self.user_id else self.guest_token}


def guest_cookie_token(value: str) -> str:
    """The token in a guest cookie's value ("<token>.<day>"), or "" if it holds none."""
    token, _dot, _day = value.partition(".")
    return token if _TOKEN.fullmatch(token) else ""


def guest_token(request) -> str:
    """The guest token the browser sent (in its cookie, or in a session of old), or ""."""
    return guest_cookie_token(request.COOKIES.get(GUEST_COOKIE, "")) or _legacy_token(request)


def _legacy_token(request) -> str:
    """A guest token kept in the session, as the site did before the guest cookie: taken
    out of the session (which Django then deletes if that leaves it empty), so that the
    caller moves it into the cookie or claims its games."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES or not hasattr(request, "session"):
        return ""
    token = request.session.pop(LEGACY_SESSION_KEY, "")
    return token if isinstance(token, str) and _TOKEN.fullmatch(token) else ""


def owner_of(request, *, create: bool = False) -> Owner:
    """The owner behind ``request``; with ``create``, a guest gets a token on first use."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        _keep_session(request)
        return Owner(user_id=user.pk, guest_token="")
    value = request.COOKIES.get(GUEST_COOKIE, "")
    token = guest_cookie_token(value) or _legacy_token(request)
    if not token and create:
        token = secrets.token_urlsafe(24)
    if token and value != f"{token}.{date.today().isoformat()}":
        setattr(request, _SET, token)  # new, or not yet sent again today
    return Owner(user_id=None, guest_token=token)


def forget_guest(request) -> None:
    """Drop the browser's guest cookie (its games now belong to an account)."""
    setattr(request, _FORGET, True)


def _keep_session(request) -> None:
    """Save a signed-in player's session once a day it is used, so that its expiry (a
    year) counts from the last day played."""
    today = date.today().isoformat()
    if request.session.get(SEEN_KEY) != today:
        request.session[SEEN_KEY] = today


def set_lasting_cookie(response, name: str, value: str) -> None:
    """A cookie of the site's own that lives as long as a session (a year), HttpOnly,
    SameSite=Lax, and Secure wherever the session cookie is."""
    response.set_cookie(
        name, value, max_age=settings.SESSION_COOKIE_AGE, secure=settings.SESSION_COOKIE_SECURE,
        httponly=True, samesite="Lax",
    )


class GuestCookieMiddleware:
    """Writes the guest cookie that ``owner_of`` made or refreshed, or deletes it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(request, _FORGET, False):
            response.delete_cookie(GUEST_COOKIE, samesite="Lax")
        elif token := getattr(request, _SET, ""):
            set_lasting_cookie(response, GUEST_COOKIE, f"{token}.{date.today().isoformat()}")
        return response


def owned_games(owner: Owner) -> QuerySet[Game]:
    return Game.objects.filter(owner.owns())
