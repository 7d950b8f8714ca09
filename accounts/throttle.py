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
from django.core.cache import cache
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


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
# (ADDICTION_SIGNUPS_PER_HOUR, ADDICTION_PASSWORD_RESETS_PER_HOUR) is one for the whole site,
# over the last hour, to the minute: one counter a minute, each added to by the cache's
# increment (atomic in Redis, as django-ratelimit counts the other limits), and the last 60
# read at once.  Two servers counting at once lose no count (tests/cluster/
# test_throttle_counts.py; the counts were once a list read and written back, and the later
# write dropped what the other server had just counted).

MINUTES = 60  # the window: the last hour, minute by minute


def _address_key(request: HttpRequest) -> str:
    # The address as the login lock sees it (behind our proxies, the player's own), hashed.
    address = settings.AXES_CLIENT_IP_CALLABLE(request) or ""
    return sha256(address.encode()).hexdigest()


def _minutes(kind: str, request: HttpRequest) -> list[str]:
    """The keys of the last hour's counters of ``kind`` for the request's address, this minute's first."""
    minute = int(timezone.now().timestamp()) // 60
    base = f"accounts:{kind}:{_address_key(request)}"
    return [f"{base}:{minute - back}" for back in range(MINUTES)]


def recent(kind: str, request: HttpRequest) -> int:
    """How many of ``kind`` the request's address has had in the last hour."""
    return sum(cache.get_many(_minutes(kind, request)).values())


def counted(kind: str, request: HttpRequest) -> None:
    """Count one more of ``kind`` for the request's address, this minute."""
    key, lasts = _minutes(kind, request)[0], (MINUTES + 1) * 60
    cache.add(key, 0, lasts)
    try:
        cache.incr(key)
    except ValueError:  # it expired between the two: this minute's first again
        cache.add(key, 1, lasts)
    # The database cache's incr writes the value back with the default timeout (5 minutes), which
    # would end the counter long before its hour: its lifetime is set again (Redis keeps it).
    cache.touch(key, lasts)


def signup_allowed(request: HttpRequest) -> bool:
    """Whether the request's address has created fewer accounts than allowed in the last hour."""
    return recent("signups", request) < settings.ADDICTION_SIGNUPS_PER_HOUR


def signup_counted(request: HttpRequest) -> None:
    """Count an account just created from the request's address."""
    counted("signups", request)


def password_reset_allowed(request: HttpRequest) -> bool:
    """Whether the request's address has asked for fewer password reset mails than allowed in the
    last hour: nobody can make the site flood a mailbox, whatever addresses they give."""
    return recent("resets", request) < settings.ADDICTION_PASSWORD_RESETS_PER_HOUR


def password_reset_counted(request: HttpRequest) -> None:
    """Count a password reset asked for from the request's address (mailed or not, alike)."""
    counted("resets", request)


def confirmation_mail_allowed(request: HttpRequest) -> bool:
    """Whether the request's address has had fewer address confirmation mails sent than allowed
    in the last hour (as many as password reset mails)."""
    return recent("confirmations", request) < settings.ADDICTION_PASSWORD_RESETS_PER_HOUR


def confirmation_mail_counted(request: HttpRequest) -> None:
    counted("confirmations", request)
