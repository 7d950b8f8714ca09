"""Template tags and filters of the game pages."""

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games import registry
from games.models import Variant
from games.preferences import page_attributes
from games.presenters.analysis import AnalysisWords, analysis_words
from games.presenters.table import SlotView
from games.presenters.words import duration, review_note

register = template.Library()


@register.simple_tag
def variant_url(name: str, *args, variant: str = "") -> str:
    """The URL ``name`` (with ``args``) of one variant's page: a deal's, its board's, the boards'.
    The default variant's pages keep their addresses; another variant's add ``?variant=``
    (docs/RULES.md, "The variants")."""
    url = reverse(name, args=args)
    return url if Variant.named(variant).rules.default else f"{url}?{urlencode({'variant': variant})}"


@register.filter
def variant_prefix(variant: str) -> str:
    """A title's variant before it, "Montana · ", for every variant but the default one (whose
    titles are as they were)."""
    named = Variant.named(variant)
    return "" if named.rules.default else f"{named.label} · "


@register.filter
def variant_name(variant: str) -> str:
    """The name of a variant other than the default one, to say beside a deal's number
    ("#12 Montana"); "" for the default one."""
    named = Variant.named(variant)
    return "" if named.rules.default else str(named.label)


@register.simple_tag(takes_context=True)
def panels(context, place: str, subject=None, joiner: str = "") -> SafeString:
    """What the other apps show at ``place`` of this page, about ``subject`` (games/registry.py),
    each drawn by its app's own template; ``joiner`` goes before each one drawn."""
    request = context.get("request")
    drawn = []
    for panel in registry.panels(place):
        extra = panel.context(request, subject)
        if extra is not None:
            drawn.append(joiner + render_to_string(panel.template, extra, request=request).strip())
    return SafeString("".join(drawn))


@register.simple_tag(takes_context=True)
def page_choices(context) -> SafeString:
    """The ``<html>`` attributes of this browser's settings (games/preferences.py): data-theme,
    data-motion... for the stylesheet and the scripts."""
    request = context.get("request")  # none on a page drawn without one (the error pages)
    return format_html_join("", ' {}="{}"', page_attributes(request).items()) if request else SafeString("")


@register.simple_tag
def review_of(game) -> str:
    """What a won game's player is told of its review for human pace ("" if nothing)."""
    return review_note(game)


@register.simple_tag
def analysis_of(game) -> AnalysisWords:
    """A finished game's analysis in words (presenters.analysis): the end screen and the replay show it."""
    return analysis_words(game)


register.filter("duration", duration)  # the one way a time is written, in templates too


@register.simple_tag
def slots(row: list[SlotView]) -> SafeString:
    """The slots of one row of a table, each drawn by games/_slot.html (a button), or in a
    replay by games/_replay_slot.html (a picture).

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
    template = "games/_replay_slot.html" if view.replay else "games/_slot.html"  # a picture, or a button
    return SafeString(render_to_string(template, {**view.drawing(), "oob": oob}).strip())
