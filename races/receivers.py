"""What a race hears of its games: each action is told to the race's open streams
(races/notices.py), and a game that ends has its pace kept on its entry and may end the race:
once every game of a live race is over, it closes (races/services.py), when the action that
ended the last one commits.  A guest who logs in keeps their races, as their games."""

from functools import partial

from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.dispatch import receiver

from games import signals
from races import notices
from races.selectors import race_id_of_game
from races.services import entry_pace_judge, race_close_due, races_claim


@receiver(signals.game_changed)
def tell_the_race(sender, game, **kwargs) -> None:
    """Each action of a race's game reaches the race's open streams once it is committed."""
    if (race_id := race_id_of_game(game)) is not None:
        transaction.on_commit(partial(notices.tell, race_id))


@receiver(signals.game_over)
def a_race_game_ended(sender, game, **kwargs) -> None:
    """A race's game that ends is judged for its pace, in the transaction of the action that
    ended it, so that the standings told of that action rank it already."""
    if (race_id := race_id_of_game(game)) is not None:
        entry_pace_judge(game=game)
        transaction.on_commit(partial(race_close_due, race_id=race_id))


@receiver(user_logged_in)
def claim_guest_races(sender, request, user, **kwargs) -> None:
    """A guest who signs up or logs in keeps the races they joined in that browser (and so
    their history on the profile)."""
    owner = getattr(request, "owner", None)
    if owner is not None and owner.guest_token:
        races_claim(user=user, guest_token=owner.guest_token)
