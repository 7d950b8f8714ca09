"""Throttles that key on the player's address: sign-ups, and logins on top of django-axes' pair lock.

Neither lets a stranger lock a player out from elsewhere: a limit on an address holds back
only requests from that address.
"""

from datetime import timedelta
from hashlib import sha256

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

WINDOW = timedelta(hours=1)  # sign-ups and password resets are counted over the last hour


def address_failures(request: HttpRequest) -> int:
    """Failed logins from the request's address across every user name, counted as axes counts a pair's.

    A user name's failures count until the cool-off passes without another from this address.
    """
    attempts = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address,  # type: ignore[attr-defined]  # axes' middleware sets it
        attempt_time__gte=get_cool_off_threshold(request),
    )
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


def address_locked(request: HttpRequest) -> bool:
    return address_failures(request) >= settings.ADDICTION_LOGIN_ADDRESS_FAILURE_LIMIT


class AddressLockHandler(AxesDatabaseHandler):
    """axes' database handler, which locks (user name, address) pairs, also locking an address
    that fails too often across many user names (password spraying).

    axes offers one failure limit for every lockout parameter, and adding "ip_address" to
    AXES_LOCKOUT_PARAMETERS would also make a success from the address reset every name's
    count there; so the pairs stay axes' own, and the address's failures are added here.
    """

    def get_failures(self, request, credentials=None) -> int:
        failures = super().get_failures(request, credentials)
        if address_locked(request):
            return max(failures, get_failure_limit(request, credentials))
        return failures


def lockout_response(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """axes' lockout page, saying which lock holds: the address's, or this user name's from it."""
    context = {"address_locked": address_locked(request)}
    return render(request, "registration/locked_out.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)  # type: ignore[misc]  # axes' default


# Sign-ups and password reset mails are counted in Django's default cache, which every app
# server shares (the database's, or Redis: settings.CACHES), so each limit
# (ADDICTION_SIGNUPS_PER_HOUR, ADDICTION_PASSWORD_RESETS_PER_HOUR) is one for the whole site.


def _address_key(kind: str, request: HttpRequest) -> str:
    # The address as the login lock sees it (behind our proxies, the player's own).
    address = settings.AXES_CLIENT_IP_CALLABLE(request) or ""
    return f"{kind}:" + sha256(address.encode()).hexdigest()


def _recent(key: str) -> list[float]:
    since = (timezone.now() - WINDOW).timestamp()
    return [at for at in cache.get(key, []) if at > since]


def _counted(key: str) -> None:
    cache.set(key, [*_recent(key), timezone.now().timestamp()], WINDOW.total_seconds())


def signup_allowed(request: HttpRequest) -> bool:
    """Whether the request's address has created fewer accounts than allowed in the last hour."""
    return len(_recent(_address_key("signups", request))) < settings.ADDICTION_SIGNUPS_PER_HOUR


def signup_counted(request: HttpRequest) -> None:
    """Count an account just created from the request's address."""
    _counted(_address_key("signups", request))


def password_reset_allowed(request: HttpRequest) -> bool:
    """Whether the request's address has asked for fewer password reset mails than allowed in the
    last hour: nobody can make the site flood a mailbox, whatever addresses they give."""
    return len(_recent(_address_key("resets", request))) < settings.ADDICTION_PASSWORD_RESETS_PER_HOUR


def password_reset_counted(request: HttpRequest) -> None:
    """Count a password reset asked for from the request's address (mailed or not, alike)."""
    _counted(_address_key("resets", request))


def confirmation_mail_allowed(request: HttpRequest) -> bool:
    """Whether the request's address has had fewer address confirmation mails sent than allowed
    in the last hour (as many as password reset mails)."""
    return len(_recent(_address_key("confirmations", request))) < settings.ADDICTION_PASSWORD_RESETS_PER_HOUR


def confirmation_mail_counted(request: HttpRequest) -> None:
    _counted(_address_key("confirmations", request))
