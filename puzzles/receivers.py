"""Signing up or logging in keeps a guest's puzzles (docs/RULES.md, "Puzzles"), as it keeps their
games (accounts/receivers.py) and races (races/receivers.py)."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from puzzles.services import puzzles_claim


@receiver(user_logged_in)
def claim_guest_puzzles(sender, request, user, **kwargs) -> None:
    owner = getattr(request, "owner", None)
    if owner is not None and owner.guest_token:
        puzzles_claim(user=user, guest_token=owner.guest_token)
