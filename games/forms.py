"""Forms for the game's posts: every field a browser sends is checked here first."""

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from games import engine


class NewGameForm(forms.Form):
    deal_number = forms.IntegerField(
        label=_("Deal number"),
        required=False,
        min_value=1,
        max_value=engine.MAX_DEAL,
        help_text=_("Leave empty for a random deal."),
    )


class ActionForm(forms.Form):
    """An action's post: the version of the game the page showed, so a stale page is recognised."""

    version = forms.IntegerField(min_value=0, max_value=2**31 - 1)


SLOT = r"^[0-3]-(?:[0-9]|1[0-2])$"


def _slot(text: str) -> engine.Slot:
    row, col = text.split("-")
    return int(row), int(col)


class MoveForm(ActionForm):
    """A move's post: also the slot clicked, "ROW-COL", and, to play a hint exactly, the
    gap the card goes to (``to``); without it a click's rule chooses the gap."""

    slot = forms.RegexField(regex=SLOT, error_messages={"invalid": _("Not a slot.")})
    to = forms.RegexField(regex=SLOT, required=False, error_messages={"invalid": _("Not a slot.")})

    def clean_slot(self) -> engine.Slot:
        return _slot(self.cleaned_data["slot"])

    def clean_to(self) -> engine.Slot | None:
        return _slot(self.cleaned_data["to"]) if self.cleaned_data["to"] else None


class SignUpForm(UserCreationForm):
    """Django's sign-up form (its validators and password hashing), with an optional email."""

    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("Only to mail you a link if you forget your password: without one, that loses the account."),
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]  # django-stubs does not declare it
        model = User
        fields = ("username", "email")


class PasswordConfirmForm(forms.Form):
    """The signed-in player's password, before their account is deleted or its address changed.

    Checked as a login is, through ``authenticate``: django-axes counts the failures and locks
    the account from this address as it would at login, so a borrowed session cannot guess it.
    """

    password = forms.CharField(
        label=_("Your password"), strip=False, widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )

    def __init__(self, *args, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        user = self.request.user
        if authenticate(self.request, username=user.get_username(), password=password) != user:
            raise forms.ValidationError(_("That is not your password."), code="password_incorrect")
        return password


class EmailChangeForm(PasswordConfirmForm):
    """A new address for the signed-in player, with their password; a link to it confirms it."""

    email = forms.EmailField(
        label=_("New email address"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    field_order = ["email", "password"]

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if email.lower() == self.request.user.email.lower():
            raise forms.ValidationError(_("That is already your address."), code="same_email")
        return email


class SettingsForm(forms.Form):
    """The player's choices for the table, kept in this browser's cookies (views_settings)."""

    mark_movable = forms.BooleanField(label=_("Mark the cards that can move"), required=False)
    theme = forms.ChoiceField(
        label=_("Colours"),
        widget=forms.RadioSelect,
        choices=[("auto", _("As the device")), ("light", _("Light")), ("dark", _("Dark"))],
    )
    motion = forms.ChoiceField(
        label=_("Motion"),
        widget=forms.RadioSelect,
        choices=[("auto", _("As the device")), ("on", _("Cards slide")), ("off", _("No animation"))],
    )
