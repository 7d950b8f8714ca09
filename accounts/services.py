"""A player's account and what the site keeps of it: address confirmation and change links,
the data download, deletion."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from accounts.models import ConfirmedAddress
from games import registry
from games.models import Game
from records.models import BoardEntry

logger = logging.getLogger("accounts")

ADDRESS_CONFIRM_SALT = "accounts.address_confirm"
EMAIL_CHANGE_SALT = "games.accounts.email_change"  # the name it had before the apps split: old links still work
DATA_FORMAT = "addiction-solitaire/account-data/1"


# --------------------------------------------------------------------------- address change


class EmailChangeRefused(Exception):
    """A confirmation link that cannot change the address; ``reason`` says why, for the page."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason  # "expired", "invalid" or "used"


@dataclass(frozen=True)
class EmailChange:
    user: User
    new_email: str


def email_change_max_age() -> int:
    """Seconds a confirmation link stays valid: as long as a password reset link."""
    return settings.PASSWORD_RESET_TIMEOUT


def _email_digest(email: str) -> str:
    # The link names the address it replaces without showing it to whoever reads the link.
    return salted_hmac(EMAIL_CHANGE_SALT, email).hexdigest()[:20]


def email_change_token(*, user: User, new_email: str) -> str:
    """The signed token of the link that sets ``user``'s address to ``new_email``."""
    return signing.dumps({"user": user.pk, "from": _email_digest(user.email), "to": new_email}, salt=EMAIL_CHANGE_SALT)


def _link_data(token: str, salt: str) -> dict:
    """What a mailed link signed with ``salt`` carries; EmailChangeRefused if it expired or
    is not one this site signed."""
    try:
        return signing.loads(token, salt=salt, max_age=email_change_max_age())
    except signing.SignatureExpired:
        raise EmailChangeRefused("expired") from None
    except signing.BadSignature:
        raise EmailChangeRefused("invalid") from None


def email_change_read(token: str) -> EmailChange:
    """What the link asks for, if it still can be done; raises EmailChangeRefused otherwise.

    A link works once: it names the address it replaces, which it no longer is afterwards.
    """
    data = _link_data(token, EMAIL_CHANGE_SALT)
    user = User.objects.filter(pk=data["user"], is_active=True).first()
    if user is None or not constant_time_compare(_email_digest(user.email), data["from"]):
        raise EmailChangeRefused("used")
    return EmailChange(user=user, new_email=data["to"])


@transaction.atomic
def email_change_confirm(token: str) -> EmailChange:
    """Set the address the link names; a compare-and-set, so two clicks at once change it once.
    Following the link mailed to it proves the new address the player's: it is confirmed."""
    change = email_change_read(token)
    updated = User.objects.filter(pk=change.user.pk, email=change.user.email).update(email=change.new_email)
    if not updated:
        raise EmailChangeRefused("used")
    _confirmed(change.user, change.new_email)
    logger.info("account %s: e-mail address changed", change.user.pk)
    return change


# --------------------------------------------------------------------------- address confirmation


def address_confirmed(user: User) -> bool:
    """Whether ``user``'s address is one they proved theirs (docs/RULES.md, "Players, guests
    and deleting games"): only then do password reset links go to it."""
    if not user.email:
        return False
    return ConfirmedAddress.objects.filter(user=user, email__iexact=user.email).exists()


def address_confirm_token(*, user: User) -> str:
    """The signed token of the link that confirms ``user``'s present address."""
    return signing.dumps({"user": user.pk, "email": _email_digest(user.email)}, salt=ADDRESS_CONFIRM_SALT)


def address_confirm_read(token: str) -> User:
    """The account whose address the link confirms, if it still can; raises
    EmailChangeRefused ("expired", "invalid", or "used" when the address changed since)."""
    data = _link_data(token, ADDRESS_CONFIRM_SALT)
    user = User.objects.filter(pk=data["user"], is_active=True).first()
    if user is None or not user.email or not constant_time_compare(_email_digest(user.email), data["email"]):
        raise EmailChangeRefused("used")
    return user


def address_confirm(token: str) -> User:
    """Confirm the address the link was mailed to; confirming it twice is the same as once."""
    user = address_confirm_read(token)
    _confirmed(user, user.email)
    logger.info("account %s: e-mail address confirmed", user.pk)
    return user


def _confirmed(user: User, email: str) -> None:
    ConfirmedAddress.objects.update_or_create(user=user, defaults={"email": email, "confirmed_at": timezone.now()})


# --------------------------------------------------------------------------- the data download


def _account(user: User) -> dict:
    return {
        "username": user.get_username(),
        "email": user.email,
        "email_confirmed": address_confirmed(user),
        "date_joined": user.date_joined,
        "last_login": user.last_login,
    }


def account_data(user: User) -> Iterator[str]:
    """``user``'s data as one JSON document, in pieces: the account, then each part another app
    keeps of theirs (games/registry.py, ``add_exporter``: their games with their logs, their
    board entries, their races), each read in chunks, so memory stays bounded."""
    encode = DjangoJSONEncoder().encode
    yield '{"format": %s, "exported_at": %s, "account": %s' % (
        encode(DATA_FORMAT),
        encode(timezone.now()),
        encode(_account(user)),
    )
    for exporter in registry.exporters():
        yield ", %s: [" % encode(exporter.key)
        for index, row in enumerate(exporter.rows(user)):
            yield ("," if index else "") + encode(row)
        yield "]"
    yield "}"


def account_data_filename(user: User) -> str:
    return f"addiction-{user.get_username()}-{timezone.now():%Y-%m-%d}.json"


# --------------------------------------------------------------------------- deletion


def account_delete(*, user: User) -> None:
    """Delete ``user`` with everything of theirs: games and their logs, board entries (the
    foreign keys cascade).  Their sessions elsewhere find no user any more: signed out."""
    with transaction.atomic():
        games = Game.objects.filter(owner=user).count()
        entries = BoardEntry.objects.filter(user=user).count()
        user_id, username = user.pk, user.get_username()
        user.delete()
    logger.info(
        "account %s (%s) deleted by its player, with %d games and %d board entries", user_id, username, games, entries
    )
