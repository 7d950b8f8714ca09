"""Template tags and filters of the game pages."""

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.models import Variant
from games.presenters import AnalysisWords, SlotView, analysis_words, review_note

register = template.Library()


@register.simple_tag
def variant_url(name: str, *args, variant: str = "addiction") -> str:
    """The URL ``name`` (with ``args``) of one variant's page: a deal's, its board's, the boards'.
    Addiction's pages keep their addresses; another variant's add ``?variant=`` (docs/RULES.md,
    "The variants")."""
    url = reverse(name, args=args)
    return url if variant in ("", "addiction") else f"{url}?{urlencode({'variant': variant})}"


@register.filter
def variant_prefix(variant: str) -> str:
    """A title's variant before it, "Montana · ", for every variant but Addiction (whose titles
    are as they were)."""
    return "" if variant in ("", "addiction") else f"{Variant(variant).label} · "


@register.simple_tag
def review_of(game) -> str:
    """What a won game's player is told of its review for human pace ("" if nothing)."""
    return review_note(game)


@register.simple_tag
def analysis_of(game) -> AnalysisWords:
    """A finished game's analysis in words (presenters.analysis_words): the end screen and the replay show it."""
    return analysis_words(game)


@register.filter
def duration(milliseconds) -> str:
    """A game's time to the tenth of a second (docs/RULES.md, "Counting"): M:SS.t, or
    H:MM:SS.t from an hour on.  Tenths are cut, not rounded, as the boards rank on milliseconds."""
    tenths = max(0, int(milliseconds or 0) // 100)
    seconds, tenth = divmod(tenths, 10)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}.{tenth}"
    return f"{minutes}:{seconds:02d}.{tenth}"


@register.simple_tag
def slots(row: list[SlotView]) -> SafeString:
    """The slots of one row of a table, each drawn by games/_slot.html (a button), or in a
    replay by records/_replay_slot.html (a picture).

    Every action draws a table of 52 slots, so each distinct slot is drawn once per
    language and kept: the only cache of the site's own.  It is bounded, and a slot is a
    value (its card, place and flags), so a kept one is never out of date.
    """
    language = get_language()
    return SafeString("".join([_drawn(language, view) for view in row]))


@register.simple_tag
def changed_slots(views: list[SlotView]) -> SafeString:
    """Slots drawn to be swapped in out of band, each in place of the grid's slot of its name
    (data-slot): the answer that sends only what changed (views.table_changes).  Not by an
    id: htmx would then "settle" each new slot, showing the old slot's classes until then."""
    language = get_language()
    return SafeString("".join([_drawn(language, view, oob=True) for view in views]))


@lru_cache(maxsize=20_000)
def _drawn(language: str, view: SlotView, oob: bool = False) -> SafeString:
    template = "records/_replay_slot.html" if view.replay else "games/_slot.html"  # a picture, or a button
    return SafeString(render_to_string(template, {**view.drawing(), "oob": oob}).strip())
