"""Who owns a game: the one place that decides, so accounts can grow from it.

A guest's games are tied to a random token kept in their browser session; a signed-in
player's games to their account.  Every view finds games through ``owned_games``, so a
game that is not yours is simply not found (404).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date

from django.db.models import Q, QuerySet

from games.models import Game

SESSION_KEY = "addiction_guest"
SEEN_KEY = "addiction_seen"


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


def owner_of(request, *, create: bool = False) -> Owner:
    """The owner behind ``request``; with ``create``, a guest gets a token on first use."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        _keep_session(request)
        return Owner(user_id=user.pk, guest_token=request.session.get(SESSION_KEY, ""))
    token = request.session.get(SESSION_KEY, "")
    if not token and create:
        token = request.session[SESSION_KEY] = secrets.token_urlsafe(24)
    if token:
        _keep_session(request)
    return Owner(user_id=None, guest_token=token)


def _keep_session(request) -> None:
    """Save the session once a day it is used, so that its expiry (a year) counts from the
    last day played: a guest who plays every day must never lose their games to it."""
    today = date.today().isoformat()
    if request.session.get(SEEN_KEY) != today:
        request.session[SEEN_KEY] = today


def owned_games(owner: Owner) -> QuerySet[Game]:
    return Game.objects.filter(owner.owns())
