"""The races a player joined, on their profile (records/templates/records/profile.html): the
records app, below races, shows them without importing it."""

from django import template
from django.utils import timezone

from races.selectors import races_of

register = template.Library()


@register.inclusion_tag("races/_history.html")
def race_history(player):
    return {"races": races_of(player, timezone.now())}
