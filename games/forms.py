"""Forms for the game's posts: every field a browser sends is checked here first."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import Variant


class VariantField(forms.ChoiceField):
    """Which game of the family (games.models.Variant); not given, the default one."""

    def __init__(self, **kwargs):
        super().__init__(choices=Variant.choices, required=False, label=_("Game"), **kwargs)

    def clean(self, value) -> str:
        return super().clean(value) or engine.DEFAULT_VARIANT.key


class NewGameForm(forms.Form):
    deal_number = forms.IntegerField(
        label=_("Deal number"),
        required=False,
        min_value=engine.DEAL_NUMBERS.start,
        max_value=engine.DEAL_NUMBERS.stop - 1,
        help_text=_("Leave empty for a random deal."),
    )
    variant = VariantField()


class DealStartForm(forms.Form):
    """The deal page's button: which variant's deal it starts."""

    variant = VariantField()


class ActionForm(forms.Form):
    """An action's post: the version of the game the page showed, so a stale page is recognised."""

    version = forms.IntegerField(min_value=0, max_value=2**31 - 1)


class SlotField(forms.CharField):
    """A slot, posted as ``ROW-COL`` and read by the engine's one reader of that notation
    (engine.parse_slot); cleaned, it is the engine's (row, col).  Any table's slot passes here,
    column 13 too (Blue Moon, Red Moon): the game's own width is checked when the game is read
    (services.game_act, OffTable)."""

    default_error_messages = {"invalid": _("Not a slot.")}

    def __init__(self, **kwargs):
        # Not stripped: " 1-2" is not a slot's name, as the engine reads them.
        super().__init__(strip=False, **kwargs)

    def to_python(self, value) -> engine.Slot | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        try:
            return engine.parse_slot(text, engine.MAX_COLS)
        except engine.InvalidNotation:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None


class MoveForm(ActionForm):
    """A move's post: also the slot clicked, "ROW-COL", and, to play a hint exactly, the
    gap the card goes to (``to``); without it a click's rule chooses the gap."""

    slot = SlotField()
    to = SlotField(required=False)


class SettingsForm(forms.Form):
    """The player's choices for the table, kept in this browser's cookies (games/preferences.py)."""

    mark_movable = forms.BooleanField(label=_("Mark the cards that can move"), required=False)
    sound = forms.BooleanField(label=_("Sounds for moves, shuffles and wins"), required=False)
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
    deck = forms.ChoiceField(
        label=_("Suit colours"),
        widget=forms.RadioSelect,
        choices=[
            ("two", _("Two colours: hearts and diamonds red, spades and clubs black")),
            ("four", _("Four colours: spades black, hearts red, diamonds blue, clubs green")),
        ],
        help_text=_("Four colours tell every suit apart at a glance, and help if red and black are hard to tell."),
        required=False,  # a form of before this choice: the usual deck
    )
    face = forms.ChoiceField(
        label=_("Card faces"),
        widget=forms.RadioSelect,
        choices=[
            ("usual", _("Usual: rank and suit alike")),
            ("large", _("Large index: the rank as big as the card allows")),
        ],
        help_text=_("The large index reads best on a small screen."),
        required=False,
    )


class DrawnStartForm(forms.Form):
    """A click on the home page's table of the deal drawn for this browser (games/drawn.py):
    its variant, and the slot clicked, played once the game starts (none: just start it)."""

    variant = VariantField()
    slot = SlotField(required=False)
