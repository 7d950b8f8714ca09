"""The records' side of a game: games/signals.py says a ranked win has an owner (or that one
is ranked no more), and the boards follow; a game ended, and its player's record counts it.
And an account or its moderation flag changed: the boards show its entries or not
(``BoardEntry.shown``)."""

from django.conf import settings
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from games import signals
from records.models import Player
from records.services import boards_enter, boards_rebuild, boards_show, record_game_over


@receiver(signals.win_ranked)
def enter_the_boards(sender, game, **kwargs) -> None:
    boards_enter(game=game)


@receiver(signals.win_unranked)
def leave_the_boards(sender, game, **kwargs) -> None:
    boards_rebuild(user_id=game.owner_id)


@receiver(signals.game_over)
def count_on_the_record(sender, game, **kwargs) -> None:
    record_game_over(game=game)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def account_saved(sender, instance, update_fields=None, **kwargs) -> None:
    """An account deactivated or active again: its entries leave the boards or come back.
    (A log-in saves only ``last_login``, and changes nothing here.)"""
    if update_fields is None or "is_active" in update_fields:
        boards_show(user_id=instance.pk)


@receiver(post_save, sender=Player)
@receiver(post_delete, sender=Player)
def player_saved(sender, instance, **kwargs) -> None:
    """Staff hid a player from the boards, or showed them again (records/admin.py), or the
    flags went (with the account, whose entries then go too)."""
    boards_show(user_id=instance.user_id)
