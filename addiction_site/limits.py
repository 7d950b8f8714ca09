"""Rate limits on the requests that cost the server work or storage (docs/RULES.md, "Limits").

Each kind of request is limited twice, per address and per owner (an account, or a guest's
token), with django-ratelimit counting in the shared cache (settings.CACHES["default"]: the
database's, or Redis), so one limit holds across every app server.  A request over a limit
gets 429 with ``Retry-After`` and a page, or the game's table, saying when to try again.

The rates are settings (``ADDICTION_RATES``, each from the environment as
``ADDICTION_RATE_<KIND>_<BY>``, e.g. ``ADDICTION_RATE_START_ADDRESS=30/m``).
"""

from __future__ import annotations

from hashlib import sha256

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage

from addiction_site import metrics

TOO_MANY_REQUESTS = 429


def _address(group: str, request: HttpRequest) -> str:
    # The address as the login lock sees it (behind our proxies, the player's own), hashed.
    address = settings.AXES_CLIENT_IP_CALLABLE(request) or ""
    return sha256(address.encode()).hexdigest()


def _owner(group: str, request: HttpRequest) -> str:
    owner = getattr(request, "owner", None)
    if owner is None or (owner.user_id is None and not owner.guest_token):
        return ""  # no owner yet: the address's limit alone holds
    return (
        f"user:{owner.user_id}"
        if owner.user_id is not None
        else "guest:" + sha256(owner.guest_token.encode()).hexdigest()
    )


def wait_seconds(request: HttpRequest, kind: str) -> int:
    """Count one request of ``kind``; the seconds to wait if it is over a limit, else 0.

    A start (``kind`` "start") by a browser that owns nothing yet counts as a new guest."""
    owner = _owner(kind, request)
    if kind == "start" and not owner:
        kind = "new_guest"
    by_address, by_owner = settings.ADDICTION_RATES[kind]
    wait = 0
    for by, key, rates in (("address", _address, by_address), ("owner", _owner, by_owner)):
        if by == "owner" and not owner:
            continue
        for rate in filter(None, (part.strip() for part in rates.split(","))):
            usage = get_usage(request, group=f"{kind}:{by}", key=key, rate=rate, increment=True)
            if usage is not None and usage["should_limit"]:
                wait = max(wait, usage["time_left"], 1)
    if wait:
        metrics.RATE_LIMITED.labels(kind).inc()
    return wait


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    """The page for a request over a limit: 429, saying when to try again."""
    response = render(request, "429.html", {"wait": wait}, status=TOO_MANY_REQUESTS)
    return with_retry_after(response, wait)


def with_retry_after(response: HttpResponse, wait: int) -> HttpResponse:
    response["Retry-After"] = str(wait)
    return response
