"""What logging in and out does besides: a guest who signs up or logs in keeps the games
played in that browser, and the next page says what happened."""

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver
from django.utils.translation import gettext as _

from games.services import games_claim
from records.services import guest_claimed


@receiver(user_logged_in)
def claim_guest_games(sender, request, user, **kwargs) -> None:
    # request.owner is still the guest the browser was when this request came in;
    # OwnerMiddleware drops the guest cookie as the response goes out.
    owner = getattr(request, "owner", None)
    if owner is not None and owner.guest_token and games_claim(user=user, guest_token=owner.guest_token):
        guest_claimed(user=user, browser_key=owner.browser_key)


# The sign-up view sets this on its request before it logs the new account in, so that the
# next page welcomes the player rather than saying they logged in.
SIGNING_UP = "addiction_signing_up"


@receiver(user_logged_in)
def say_logged_in(sender, request, user, **kwargs) -> None:
    if request is None:
        return
    if getattr(request, SIGNING_UP, False):
        text = _("Welcome, %(name)s: your account is made, and you are logged in.")
    else:
        text = _("You are logged in as %(name)s.")
    # fail_silently: a login without the messages middleware (the test client's login()) says nothing.
    messages.success(request, text % {"name": user.get_username()}, fail_silently=True)


@receiver(user_logged_out)
def say_logged_out(sender, request, user, **kwargs) -> None:
    if request is not None and user is not None:  # logging out when not logged in changes nothing
        messages.success(request, _("You are logged out."), fail_silently=True)
