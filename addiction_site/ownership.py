"""Who owns a game: the one place that decides, and the one filter every game query uses.

A signed-in player's games are tied to their account.  A guest's games are tied to a
random token kept in a cookie of its own, ``addiction_guest`` (``__Host-addiction_guest``
wherever cookies are Secure, as in production, so that no other host can set it): unguessable
like a session key, HttpOnly, SameSite=Lax, and signed with the site's secret key (Django's
signing) with the day the token was issued, so that only tokens the server issued are
believed: a planted or forged cookie is a new guest.  A guest therefore needs no session.
Cookies from before the signature ("<token>.<day>") are accepted until
``ADDICTION_GUEST_UNSIGNED_UNTIL`` and re-issued signed.
The cookie lives a year from the last day it was used (it is sent again once a day), and
a signed-in player's session is saved once a day it is used, so a player who keeps
playing never loses their games.  Logging in gives the guest's games to the account
(accounts/receivers.py) and drops the cookie; after logging out, the browser is a new guest.

``OwnerMiddleware`` puts the owner on every request as ``request.owner``, reading only;
views find games through ``games.selectors.owned_games(request.owner)``, so a game that is not yours is
simply not found (404).  The cookie and the session are written in one place, when the
response goes out.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field, replace
from datetime import date
from typing import NamedTuple

from django.conf import settings
from django.core import signing
from django.db.models import Q
from django.http import HttpRequest
from django.utils.crypto import salted_hmac
from django_htmx.middleware import HtmxDetails

OLD_GUEST_COOKIE = "addiction_guest"  # its name before the __Host- prefix
GUEST_COOKIE = ("__Host-" if settings.SESSION_COOKIE_SECURE else "") + OLD_GUEST_COOKIE
_GUEST_SALT = "addiction_site.ownership.guest"


def _signer(*, fallbacks: bool = True) -> signing.Signer:
    """The guest cookie's signer, with the settings' key now: with its fallbacks (a rotated key's
    old ones, still believed), or with the current key alone (what a cookie is signed again by)."""
    return signing.Signer(salt=_GUEST_SALT, fallback_keys=None if fallbacks else [])


_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
SEEN_KEY = "addiction_seen"  # a signed-in player's session: the last day it was saved
LEGACY_SESSION_KEY = "addiction_guest"  # where a guest's token was kept before the cookie
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
_SEEN_SALT = "addiction_site.ownership.seen_from"


@dataclass(frozen=True)
class Owner:
    """A signed-in player (``user_id``) or a guest (``guest_token``, "" before their first game)."""

    user_id: int | None
    guest_token: str
    # The day the guest's token was issued (ISO, "" if unknown), and whether their cookie
    # carried the server's signature: how the cookie is written back, not who the owner is.
    guest_issued: str = field(default="", compare=False)
    guest_signed: bool = field(default=True, compare=False)
    # Where the request came from, as keys that name no address (:func:`seen_from`): the
    # address, and the address with the browser.  Not who the owner is: what a new game
    # records, so that the evidence on a win and the limits can tell one place's guests.
    address_key: str = field(default="", compare=False)
    browser_key: str = field(default="", compare=False)

    def owns(self) -> Q:
        """The filter for this owner's games."""
        if self.user_id is not None:
            return Q(owner_id=self.user_id)
        if self.guest_token:  # an account's games have none (the constraint game_one_kind_of_owner)
            return Q(guest_token=self.guest_token)
        return Q(pk__in=[])

    def stamp(self) -> dict:
        """The fields a new game of this owner gets."""
        return {
            "owner_id": self.user_id,
            "guest_token": "" if self.user_id else self.guest_token,
            "address_key": self.address_key,
            "browser_key": self.browser_key,
        }


class SiteRequest(HttpRequest):
    """The request a view gets: Django's, with ``owner`` (OwnerMiddleware) and ``htmx`` (django-htmx)."""

    owner: Owner
    htmx: HtmxDetails


class GuestCookie(NamedTuple):
    token: str
    issued: str  # the day the token was issued
    seen: str  # the day the cookie was last sent
    signed: bool
    old_key: bool = False  # signed with a fallback key: signed again with the current one


def guest_cookie_value(token: str, issued: str, seen: str) -> str:
    """A guest cookie's value: the token, its issue day and the day it is sent, signed."""
    return _signer().sign(f"{token}.{issued}.{seen}")


def read_guest_cookie(value: str) -> GuestCookie | None:
    """What a guest cookie's value holds, if the server issued it: signed, or unsigned from
    before the signature while ``ADDICTION_GUEST_UNSIGNED_UNTIL`` has not come."""
    old_key = False
    try:
        try:
            unsigned = _signer(fallbacks=False).unsign(value)
        except signing.BadSignature:
            unsigned, old_key = _signer().unsign(value), True  # a rotated key's, still believed
        token, issued, seen = unsigned.split(".")
        signed = True
    except (signing.BadSignature, ValueError):
        old_key = False
        token, _dot, seen = value.partition(".")
        issued, signed = seen, False
        if date.today() >= settings.ADDICTION_GUEST_UNSIGNED_UNTIL:
            return None
    if not (_TOKEN.fullmatch(token) and _DAY.fullmatch(issued) and _DAY.fullmatch(seen)):
        return None
    return GuestCookie(token, issued, seen, signed, old_key)


def guest_cookie_token(value: str) -> str:
    """The token in a guest cookie's value, or "" if it holds none the server issued."""
    cookie = read_guest_cookie(value)
    return cookie.token if cookie else ""


def _guest_cookie(request) -> GuestCookie | None:
    for name in dict.fromkeys((GUEST_COOKIE, OLD_GUEST_COOKIE)):  # the prefixed name first
        if name in request.COOKIES and (cookie := read_guest_cookie(request.COOKIES[name])):
            return cookie
    return None


def _legacy_token(request) -> str:
    """A guest token kept in the session, as the site did before the guest cookie."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return ""
    token = request.session.get(LEGACY_SESSION_KEY, "")
    return token if isinstance(token, str) and _TOKEN.fullmatch(token) else ""


def seen_from(request) -> dict:
    """The keys of where ``request`` came from: ``address_key``, a keyed hash (HMAC with the
    site's secret key) of the player's address, and ``browser_key``, of the address with the
    browser's User-Agent.  Each is 32 hex digits; neither can be turned back into an address
    without the secret key, and neither is shown to anyone."""
    address = settings.AXES_CLIENT_IP_CALLABLE(request) or ""
    agent = request.META.get("HTTP_USER_AGENT", "")[:512]
    return {
        "address_key": salted_hmac(_SEEN_SALT, address).hexdigest()[:32],
        "browser_key": salted_hmac(_SEEN_SALT, f"{address}\n{agent}").hexdigest()[:32],
    }


def owner_of(request) -> Owner:
    """The owner behind ``request``, as its user, cookie or session says; changes nothing."""
    seen = seen_from(request)
    if request.user.is_authenticated:
        return Owner(user_id=request.user.pk, guest_token="", **seen)
    cookie = _guest_cookie(request)
    if cookie is not None:
        return Owner(
            user_id=None, guest_token=cookie.token, guest_issued=cookie.issued, guest_signed=cookie.signed, **seen
        )
    return Owner(user_id=None, guest_token=_legacy_token(request), guest_signed=False, **seen)


def become_guest(request) -> Owner:
    """The owner a new game gets: ``request.owner``, or a new guest if it can own nothing yet.

    The new token reaches the browser as its cookie when the response goes out.
    """
    if request.owner.user_id is None and not request.owner.guest_token:
        request.owner = replace(
            request.owner, guest_token=secrets.token_urlsafe(24), guest_issued=date.today().isoformat()
        )
    return request.owner


def set_lasting_cookie(response, name: str, value: str) -> None:
    """A cookie of the site's own that lives as long as a session (a year), HttpOnly,
    SameSite=Lax, and Secure wherever the session cookie is."""
    response.set_cookie(
        name,
        value,
        max_age=settings.SESSION_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


class OwnerMiddleware:
    """Puts ``request.owner`` on the request; on the way out, keeps the owner's cookie or
    session alive for another year (once a day), or drops a guest cookie whose games an
    account has taken.  Listed after the session and authentication middleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.owner = owner_of(request)
        response = self.get_response(request)
        today = date.today().isoformat()
        if request.user.is_authenticated:  # signed in, perhaps by this very request
            for name in {GUEST_COOKIE, OLD_GUEST_COOKIE} & set(request.COOKIES):
                response.delete_cookie(name, samesite="Lax")
            if request.session.get(SEEN_KEY) != today:
                request.session[SEEN_KEY] = today
        elif token := request.owner.guest_token:
            owner = request.owner
            sent = _guest_cookie(request)
            renew = sent is None or not sent.signed or sent.old_key or sent.seen != today
            if renew or GUEST_COOKIE not in request.COOKIES:
                # A new guest, a cookie of old (unsigned, signed with a rotated key, or under its
                # old name), or a new day.
                value = guest_cookie_value(token, owner.guest_issued or today, today)
                set_lasting_cookie(response, GUEST_COOKIE, value)
            if OLD_GUEST_COOKIE != GUEST_COOKIE and OLD_GUEST_COOKIE in request.COOKIES:
                response.delete_cookie(OLD_GUEST_COOKIE, samesite="Lax")
            if settings.SESSION_COOKIE_NAME in request.COOKIES and LEGACY_SESSION_KEY in request.session:
                del request.session[LEGACY_SESSION_KEY]  # it lives in the cookie now
        return response
