"""The forms of accounts: signing up, confirming with the password, changing the address,
asking for a password reset."""

import unicodedata

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from accounts.services import address_confirmed


class SignUpForm(UserCreationForm):
    """Django's sign-up form (its validators and password hashing), with an optional email."""

    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_(
            "Only to mail you a link if you forget your password, once you have confirmed it by the link"
            " we mail there: without one, a forgotten password loses the account."
        ),
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]  # django-stubs does not declare it
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        """Django's checks (its characters, NFKC, unique whatever the case), then the site's
        (docs/RULES.md, "Players, guests and deleting games"): a name is not dots alone (a
        profile's address could not name it), nor letters of two scripts (``аlice``, with a
        Cyrillic а, beside ``alice``)."""
        name = super().clean_username()
        if name is None:  # taken: Django's check has said so
            return name
        if set(name) <= {"."}:
            raise forms.ValidationError(_("A user name needs more than dots."), code="only_dots")
        if len(scripts_of(name)) > 1:
            raise forms.ValidationError(
                _("A user name takes the letters of one alphabet only, so that no name can pass for another."),
                code="mixed_scripts",
            )
        return name


# Japanese writes one name in three scripts; they count as one here.
SAME_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK"}


def scripts_of(text: str) -> set[str]:
    """The scripts of the letters in ``text``, as the first word of each letter's Unicode name
    says it ("LATIN", "CYRILLIC", "GREEK", "DEVANAGARI"...); digits and signs have none."""
    names = (unicodedata.name(char, "").split(" ", 1)[0] for char in text if char.isalpha())
    return {SAME_SCRIPT.get(name, name) for name in names if name}


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


class ConfirmedPasswordResetForm(PasswordResetForm):
    """Django's password reset form, mailing only the accounts whose address is confirmed:
    nobody can have reset links sent to an address they typed in for someone else."""

    def get_users(self, email):
        return (user for user in super().get_users(email) if address_confirmed(user))
