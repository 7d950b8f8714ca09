"""Forms for the game's posts: every field a browser sends is checked here first."""

from django import forms
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


class SettingsForm(forms.Form):
    """The player's choices for the table, kept in this browser's cookies (games/preferences.py)."""

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
