"""The games app's own listeners: a game that ends asks for its analysis, and a stretch that
begins, or a hint whose move leads off every known line, for the search for a win from
there; all are enqueued once the transaction that sent them commits, so that a rolled-back
action asks for nothing."""

from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.dispatch import receiver

from games import background, signals, tasks

SOUGHT_SECONDS = 60 * 60 * 24  # how long a game's stretch remembers that it asked for its search


@receiver(signals.game_over)
def ask_for_analysis(sender, game, **kwargs) -> None:
    if background.worth_analysing(game):
        transaction.on_commit(partial(tasks.analysis_ask, game.pk))


@receiver(signals.stretch_dealt)
@receiver(signals.win_sought)
def ask_for_search(sender, game, position, signal, **kwargs) -> None:
    # At most ADDICTION_SEARCHES_PER_STRETCH a game's stretch: the one from its start, and
    # from where hints off any found line lead (docs/RULES.md, "Hints").
    key = f"sought:{game.pk}:{game.shuffles_used}"
    cache.add(key, 0, SOUGHT_SECONDS)
    try:
        asked = cache.incr(key)
    except ValueError:  # the count expired in between: a day old, so this is a first
        asked = 1
    if asked <= settings.ADDICTION_SEARCHES_PER_STRETCH:
        dealt = signal is signals.stretch_dealt
        transaction.on_commit(partial(tasks.search_ask, position, game.address_key, dealt=dealt))
