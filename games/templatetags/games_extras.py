"""Template filters for the game pages."""

from django import template

register = template.Library()


@register.filter
def duration(milliseconds) -> str:
    """A game's time as M:SS, or H:MM:SS from an hour on."""
    seconds = max(0, int(milliseconds or 0) // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
