"""A guest who signs up or logs in keeps the games played in that browser."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from games.ownership import SESSION_KEY
from games.services import games_claim


@receiver(user_logged_in)
def claim_guest_games(sender, request, user, **kwargs) -> None:
    if request is not None and hasattr(request, "session"):
        games_claim(user=user, guest_token=request.session.get(SESSION_KEY, ""))
