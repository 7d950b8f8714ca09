"""The records' side of a game's win: games/signals.py says a ranked win has an owner (or
that one is ranked no more), and the boards follow."""

from django.dispatch import receiver

from games import signals
from records.services import boards_enter, boards_rebuild


@receiver(signals.win_ranked)
def enter_the_boards(sender, game, **kwargs) -> None:
    boards_enter(game=game)


@receiver(signals.win_unranked)
def leave_the_boards(sender, game, **kwargs) -> None:
    boards_rebuild(user_id=game.owner_id)
