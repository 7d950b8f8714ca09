"""The races' forms: opening one, and joining it under a name."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine
from games.forms import VariantField
from races.models import Race
from races.services import CHALLENGE_LENGTHS


class JoinForm(forms.Form):
    name = forms.CharField(
        label=_("Your name in this race"), max_length=24, widget=forms.TextInput(attrs={"autocomplete": "nickname"})
    )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give a name the others will see."), code="blank")
        return name


class OpenForm(JoinForm):
    # The kinds as a menu names them, capitalized (Race.Mode's labels are the words a sentence uses).
    mode = forms.ChoiceField(
        label=_("Kind of race"),
        choices=[(Race.Mode.LIVE, _("Live")), (Race.Mode.CHALLENGE, _("Challenge"))],
        initial=Race.Mode.LIVE,
    )
    variant = VariantField(initial=engine.DEFAULT_VARIANT.key)
    deal_number = forms.IntegerField(
        label=_("Deal number (leave empty for a random deal)"), required=False, min_value=1, max_value=999_999_999
    )
    daily = forms.BooleanField(
        label=_("Race on today's daily layout instead (a game of Addiction, as practice: the race's own seed)"),
        required=False,
    )
    length = forms.ChoiceField(
        label=_("A challenge stays open for"),
        choices=[("1h", _("an hour")), ("1d", _("a day")), ("3d", _("three days")), ("7d", _("a week"))],
        initial="1d",
    )
    field_order = ["name", "mode", "variant", "deal_number", "daily", "length"]

    def clean_length(self) -> str:
        length = self.cleaned_data["length"]
        if length not in CHALLENGE_LENGTHS:
            raise forms.ValidationError(_("Choose how long the challenge stays open."), code="length")
        return length
