"""What a race hears of its games: each action is told to the race's open streams
(races/live.py), and a game that ends may end the race: once every game of a live race is
over, it closes (races/services.py), when the action that ended the last one commits."""

from functools import partial

from django.db import transaction
from django.dispatch import receiver

from games import signals
from races import live
from races.models import Race
from races.services import race_close_if_due


def _close_if_due(race_id: int) -> None:
    race = Race.objects.filter(pk=race_id).first()
    if race is not None:
        race_close_if_due(race)


def _race_of(game) -> int | None:
    if game.origin != game.Origin.RACE:
        return None
    return Race.objects.filter(entries__game_id=game.pk).values_list("pk", flat=True).first()


@receiver(signals.game_changed)
def tell_the_race(sender, game, **kwargs) -> None:
    """Each action of a race's game reaches the race's open streams once it is committed."""
    if (race_id := _race_of(game)) is not None:
        transaction.on_commit(partial(live.tell, race_id))


@receiver(signals.game_over)
def close_a_finished_race(sender, game, **kwargs) -> None:
    if (race_id := _race_of(game)) is not None:
        transaction.on_commit(partial(_close_if_due, race_id))
