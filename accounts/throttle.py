"""Throttles that key on the player's address: sign-ups, and logins on top of django-axes' pair lock.

Neither lets a stranger lock a player out from elsewhere: a limit on an address holds back
only requests from that address.
"""

from hashlib import sha256

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_ratelimit.core import get_usage


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


# Sign-ups and password reset and confirmation mails are counted in Django's default cache,
# which every app server shares (the database's, or Redis: settings.CACHES), so each limit
# (ADDICTION_SIGNUPS_PER_HOUR, ADDICTION_PASSWORD_RESETS_PER_HOUR) is one for the whole site.
# django-ratelimit counts them as it counts the other limits (addiction_site/limits.py): one
# atomic increment a request (the cache's add and incr), in windows of an hour, so two servers
# counting at once lose no count (tests/accounts/test_throttle_counts.py; they once read a list
# and wrote it back, and the later write dropped the other's).


def _address_key(group: str, request: HttpRequest) -> str:
    # The address as the login lock sees it (behind our proxies, the player's own), hashed.
    address = settings.AXES_CLIENT_IP_CALLABLE(request) or ""
    return sha256(address.encode()).hexdigest()


def _usage(kind: str, request: HttpRequest, per_hour: int, *, count: bool) -> bool:
    """Whether the request's address is under ``per_hour`` of ``kind`` this hour; with
    ``count``, one more is counted first."""
    if per_hour <= 0:
        return False
    usage = get_usage(request, group=f"accounts:{kind}", key=_address_key, rate=f"{per_hour}/h", increment=count)
    return usage is None or usage["count"] < usage["limit"]


def signup_allowed(request: HttpRequest) -> bool:
    """Whether the request's address has created fewer accounts than allowed this hour."""
    return _usage("signups", request, settings.ADDICTION_SIGNUPS_PER_HOUR, count=False)


def signup_counted(request: HttpRequest) -> None:
    """Count an account just created from the request's address."""
    _usage("signups", request, settings.ADDICTION_SIGNUPS_PER_HOUR, count=True)


def password_reset_allowed(request: HttpRequest) -> bool:
    """Whether the request's address has asked for fewer password reset mails than allowed this
    hour: nobody can make the site flood a mailbox, whatever addresses they give."""
    return _usage("resets", request, settings.ADDICTION_PASSWORD_RESETS_PER_HOUR, count=False)


def password_reset_counted(request: HttpRequest) -> None:
    """Count a password reset asked for from the request's address (mailed or not, alike)."""
    _usage("resets", request, settings.ADDICTION_PASSWORD_RESETS_PER_HOUR, count=True)


def confirmation_mail_allowed(request: HttpRequest) -> bool:
    """Whether the request's address has had fewer address confirmation mails sent than allowed
    this hour (as many as password reset mails)."""
    return _usage("confirmations", request, settings.ADDICTION_PASSWORD_RESETS_PER_HOUR, count=False)


def confirmation_mail_counted(request: HttpRequest) -> None:
    _usage("confirmations", request, settings.ADDICTION_PASSWORD_RESETS_PER_HOUR, count=True)
