"""The games app's own listeners: a game that ends asks for its analysis, and a stretch's
first hint for the search for a win from there; both are enqueued once the transaction that
sent them commits, so that a rolled-back action asks for nothing."""

from functools import partial

from django.core.cache import cache
from django.db import transaction
from django.dispatch import receiver

from games import background, signals, tasks

SOUGHT_SECONDS = 60 * 60 * 24  # how long a game's stretch remembers that it asked for its search


@receiver(signals.game_over)
def ask_for_analysis(sender, game, **kwargs) -> None:
    if background.worth_analysing(game):
        transaction.on_commit(partial(tasks.analysis_ask, game.pk))


@receiver(signals.win_sought)
def ask_for_search(sender, game, position, **kwargs) -> None:
    # One background search a game's stretch: at its first hint (docs/RULES.md, "Hints").
    if cache.add(f"sought:{game.pk}:{game.shuffles_used}", 1, SOUGHT_SECONDS):
        transaction.on_commit(partial(tasks.search_ask, position, game.address_key))
