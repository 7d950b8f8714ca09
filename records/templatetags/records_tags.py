"""The records' part of other apps' pages, so that they need not know the records app."""

from django import template

from records.presenters import record_news
from records.selectors import personal_bests

register = template.Library()


@register.simple_tag
def personal_bests_of(game):
    """The boards on which a won game is now its player's best, each with its rank."""
    return personal_bests(game)


@register.simple_tag
def record_news_of(game, bests) -> str:
    """One sentence for every board a won game improved, with the old figures (or "")."""
    return record_news(game, bests)
