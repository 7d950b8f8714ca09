"""Forms for the game's posts: every field a browser sends is checked here first."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from games import engine


class NewGameForm(forms.Form):
    deal_number = forms.IntegerField(
        label=_("Deal number"), required=False, min_value=1, max_value=engine.MAX_DEAL,
        help_text=_("Leave empty for a random deal."),
    )


# The posts of actions (move, undo, shuffle, give up) come on every click.  Their two
# fields are Django's, made once and used by ``clean_action``: a Form instance would copy
# its fields for each request, which cost a tenth of a move's server time.
VERSION_FIELD = forms.IntegerField(min_value=0, max_value=2**31 - 1)
SLOT_FIELD = forms.RegexField(regex=r"^[0-3]-(?:[0-9]|1[0-2])$", error_messages={"invalid": _("Not a slot.")})


def clean_action(data, *, with_slot: bool) -> tuple[int, engine.Slot | None]:
    """The version of the game the page showed (so a stale page is recognised) and, for a
    move, the slot clicked.  Raises ``forms.ValidationError`` for anything else."""
    version = VERSION_FIELD.clean(data.get("version"))
    if not with_slot:
        return version, None
    row, col = SLOT_FIELD.clean(data.get("slot")).split("-")
    return version, (int(row), int(col))


class SignUpForm(UserCreationForm):
    """Django's sign-up form (its validators and password hashing), with an optional email."""

    email = forms.EmailField(label=_("Email (optional)"), required=False)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
