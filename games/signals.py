"""A guest who signs up or logs in keeps the games played in that browser."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from games.ownership import forget_guest, guest_token
from games.services import games_claim


@receiver(user_logged_in)
def claim_guest_games(sender, request, user, **kwargs) -> None:
    if request is not None and hasattr(request, "COOKIES"):
        games_claim(user=user, guest_token=guest_token(request))
        forget_guest(request)  # the games are the account's now; a later guest starts afresh
