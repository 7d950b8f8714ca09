"""What the accounts app keeps beside Django's users: which address each player has confirmed."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ConfirmedAddress(models.Model):
    """The address a player proved theirs by following a link mailed to it (docs/RULES.md,
    "Accounts"): the account's address is confirmed while it is still this one.  Password
    reset links go only to a confirmed address."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="confirmed_address"
    )
    email = models.EmailField(_("email address"), max_length=254)
    confirmed_at = models.DateTimeField(_("confirmed at"))

    class Meta:
        verbose_name = _("confirmed address")
        verbose_name_plural = _("confirmed addresses")

    def __str__(self) -> str:
        return self.email
