"""The daily deal's part of other apps' pages, so that they need not know the daily app."""

from django import template

from daily import deals
from daily.selectors import games_of_day
from games.models import Game

register = template.Library()


@register.inclusion_tag("daily/_today.html", takes_context=True)
def daily_today(context) -> dict:
    """The home page's section on today's daily: its number, and the player's ranked game of it."""
    today = deals.today()
    games = games_of_day(context["request"].owner, today)
    return {
        "request": context["request"],
        "today": today,
        "daily_number": deals.deal_number_of(today),
        "daily_game": next((game for game in games if game.origin == Game.Origin.DAILY), None),
    }
