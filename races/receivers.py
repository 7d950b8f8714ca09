"""A race's game that ends may end the race: once every game of a live race is over, it closes
(races/services.py), when the action that ended the last one commits."""

from functools import partial

from django.db import transaction
from django.dispatch import receiver

from games import signals
from races.models import Race
from races.services import race_close_if_due


def _close_if_due(race_id: int) -> None:
    race = Race.objects.filter(pk=race_id).first()
    if race is not None:
        race_close_if_due(race)


@receiver(signals.game_over)
def close_a_finished_race(sender, game, **kwargs) -> None:
    if game.origin != game.Origin.RACE:
        return
    race_id = Race.objects.filter(entries__game_id=game.pk).values_list("pk", flat=True).first()
    if race_id is not None:
        transaction.on_commit(partial(_close_if_due, race_id))
