"""Every change to the records: the boards a ranked win enters, and the count of guests an
account claimed."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F

from addiction_site.ownership import Owner
from games import engine
from games.clock import utc_day
from games.models import Game
from games.selectors import owned_games
from records.models import BoardEntry, Player
from records.scopes import Scope


def board_scopes(game: Game) -> list[Scope]:
    """The boards' scopes a win belongs to (docs/RULES.md, "Leaderboards"), each of its own
    variant's boards: a random deal's win ranks all time, in its week and day (UTC) and on its
    deal's board; a chosen deal's on its deal's board only; the first daily game of a day on
    that day's daily board; a daily played again (practice) and a race's game nowhere."""
    if game.origin == Game.Origin.DAILY:
        return [Scope.daily(game.daily)]  # type: ignore[arg-type]  # a daily game has its day
    if game.origin in (Game.Origin.PRACTICE, Game.Origin.RACE):  # a race ranks its own players only
        return []
    deal = Scope.deal(game.deal_number, game.variant)
    if game.origin != Game.Origin.RANDOM:
        return [deal]
    day = utc_day(game.finished_at)  # a win has finished
    return [Scope.all_time(game.variant), Scope.week(day, game.variant), Scope.day(day, game.variant), deal]


def boards_enter(*, game: Game) -> None:
    """Make ``game`` its owner's entry on every board where it beats their best so far.

    On equal figures the earlier win stays, since the boards break ties by who finished first.
    """
    # A ranked win is an account's, and finished: neither is None here.
    owner_id: int = game.owner_id  # type: ignore[assignment]
    finished_at: datetime = game.finished_at  # type: ignore[assignment]
    with transaction.atomic():  # its own transaction when called alone (a claim, a re-rank)
        # One player's wins may finish at once in two games, whose own row locks do not meet:
        # lock the player, so that one reads the entries only after the other has written them.
        list(get_user_model().objects.select_for_update().filter(pk=owner_id).values_list("pk", flat=True))
        figures = {
            BoardEntry.Board.TIME: (game.elapsed_ms, game.moves),
            BoardEntry.Board.MOVES: (game.moves, game.elapsed_ms),
        }
        kept = [str(scope) for scope in board_scopes(game)]
        existing = {
            (entry.board, entry.scope): entry for entry in BoardEntry.objects.filter(user_id=owner_id, scope__in=kept)
        }
        for board, (first, second) in figures.items():
            for scope in kept:
                win = BoardEntry(user_id=owner_id, board=board, scope=scope, game=game, first=first, second=second)
                win.finished_at = finished_at
                entry = existing.get((board, scope))
                if entry is None:
                    win.save()
                elif win.ranks_before(entry):  # on equal figures the earlier win stays
                    entry.game, entry.first, entry.second, entry.finished_at = game, first, second, finished_at
                    entry.save(update_fields=["game", "first", "second", "finished_at"])


def boards_rebuild(*, user_id: int) -> None:
    """Make a player's board entries again from their ranked wins, oldest first."""
    with transaction.atomic():
        BoardEntry.objects.filter(user_id=user_id).delete()
        wins = owned_games(Owner(user_id=user_id, guest_token=""), status=engine.Status.WON, ranked=True)
        for game in wins.order_by("finished_at", "pk"):
            boards_enter(game=game)


def guest_claimed(*, user) -> None:
    """Count, for moderation, one more guest's games that came into ``user``'s account: many
    means a fresh guest per deal, the way to try deals with no loss on the record (the
    account then has every guest's losses too, but staff see the pattern)."""
    Player.objects.get_or_create(user=user)
    Player.objects.filter(user=user).update(guests_claimed=F("guests_claimed") + 1)
