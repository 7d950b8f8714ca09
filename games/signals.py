"""A guest who signs up or logs in keeps the games played in that browser."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from games.services import games_claim


@receiver(user_logged_in)
def claim_guest_games(sender, request, user, **kwargs) -> None:
    # request.owner is still the guest the browser was when this request came in;
    # OwnerMiddleware drops the guest cookie as the response goes out.
    owner = getattr(request, "owner", None)
    if owner is not None and owner.guest_token:
        games_claim(user=user, guest_token=owner.guest_token)
