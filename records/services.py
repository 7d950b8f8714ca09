"""Every change to the records: the boards a ranked win enters, each player's record as their
games end, and the count of guests an account claimed."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from addiction_site.ownership import Owner
from games import engine
from games.models import Game
from games.selectors import owned_games
from records.models import BoardEntry, Player, PlayerRecord, Redraw
from records.scopes import board_scopes

REDRAW_WINDOW = timedelta(days=1)
"""How far back a claimed win's browser's other guests' deals count as draws given up."""


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
        shown = shown_on_boards(owner_id)
        kept = [str(scope) for scope in board_scopes(game)]
        existing = {
            (entry.board, entry.scope): entry for entry in BoardEntry.objects.filter(user_id=owner_id, scope__in=kept)
        }
        for board, (first, second) in figures.items():
            for scope in kept:
                win = BoardEntry(
                    user_id=owner_id, board=board, scope=scope, game=game, first=first, second=second, shown=shown
                )
                win.finished_at = finished_at
                entry = existing.get((board, scope))
                if entry is None:
                    win.save()
                elif win.ranks_before(entry):  # on equal figures the earlier win stays
                    entry.game, entry.first, entry.second, entry.finished_at = game, first, second, finished_at
                    entry.save(update_fields=["game", "first", "second", "finished_at"])


def shown_on_boards(user_id: int) -> bool:
    """Whether the boards show a player's entries: the account is active and staff did not
    hide it (docs/RULES.md, "Leaderboards").  Decided here once; ``BoardEntry.shown`` keeps it."""
    users = get_user_model().objects.filter(pk=user_id, is_active=True)
    return users.exclude(player__hidden_from_boards=True).exists()


def boards_show(*, user_id: int) -> int:
    """Bring a player's entries in line with ``shown_on_boards``, after their account or their
    moderation flag changed (records/receivers.py); how many entries changed."""
    shown = shown_on_boards(user_id)
    return BoardEntry.objects.filter(user_id=user_id).exclude(shown=shown).update(shown=shown)


def boards_rebuild(*, user_id: int) -> None:
    """Make a player's board entries again from their ranked wins, oldest first."""
    with transaction.atomic():
        BoardEntry.objects.filter(user_id=user_id).delete()
        wins = owned_games(Owner(user_id=user_id, guest_token=""), status=engine.Status.WON, ranked=True)
        for game in wins.order_by("finished_at", "pk"):
            boards_enter(game=game)


def guest_claimed(*, user, browser_key: str = "", now: datetime | None = None) -> int:
    """Count, for moderation, one more guest's games that came into ``user``'s account: many
    means a fresh guest per deal, the way to try deals with no loss on the record.  When the
    games claimed hold a win, the games dealt to other guests from the same address and browser
    (``browser_key``) in the ``REDRAW_WINDOW`` before, and not won, count on the account's
    record as draws given up (:class:`~records.models.Redraw`), each once; how many were."""
    records_rebuild(user_id=user.pk)  # the guest's finished games count on the account's record
    Player.objects.get_or_create(user=user)
    Player.objects.filter(user=user).update(guests_claimed=F("guests_claimed") + 1)
    now = now or timezone.now()
    claimed_a_win = Game.objects.filter(
        owner=user, status=engine.Status.WON, browser_key=browser_key, created_at__gte=now - REDRAW_WINDOW
    ).exists()
    if not browser_key or not claimed_a_win:
        return 0
    drawn = (
        Game.objects.filter(owner=None, browser_key=browser_key, created_at__gte=now - REDRAW_WINDOW)
        .exclude(status=engine.Status.WON)
        .exclude(redraw__isnull=False)
    )
    made = Redraw.objects.bulk_create(
        [Redraw(user=user, game_id=pk) for pk in drawn.values_list("pk", flat=True)], ignore_conflicts=True
    )
    return len(made)


def record_fold(record: PlayerRecord, status: str, assisted: bool) -> None:
    """Count one more finished game on ``record``, in the order the games finished: the rule
    of a profile's figures, decided here once (docs/RULES.md, "Players, guests and deleting
    games").  An assisted game is counted apart and neither makes nor breaks a run of wins."""
    won = status == engine.Status.WON
    if assisted:
        record.assisted_played += 1
        record.assisted_won += won
        return
    record.played += 1
    record.won += won
    record.current_streak = record.current_streak + 1 if won else 0
    record.best_streak = max(record.best_streak, record.current_streak)


def _finished_games(user_id: int, variant: str):
    games = owned_games(Owner(user_id=user_id, guest_token=""), variant=variant).exclude(status=engine.Status.PLAYING)
    return games.order_by("finished_at", "pk").values_list("status", "assisted", "finished_at", "pk")


def record_rebuild(*, user_id: int, variant: str) -> PlayerRecord:
    """Make a player's record in ``variant`` again from all their finished games."""
    with transaction.atomic():
        record, _ = PlayerRecord.objects.select_for_update().get_or_create(user_id=user_id, variant=variant)
        for field in PlayerRecord.FOLDED:
            setattr(record, field, 0)
        record.through_at, record.through_game = None, 0
        for status, assisted, finished_at, pk in _finished_games(user_id, variant).iterator(chunk_size=2000):
            record_fold(record, status, assisted)
            record.through_at, record.through_game = finished_at, pk
        record.save()
    return record


def _missed(record: PlayerRecord, game_id: int) -> bool:
    """Whether a game other than ``game_id`` ended after the last one folded into ``record``
    and was never folded (an app server on older code ended it, during a rolling deploy):
    one probe of the player's finished games by time."""
    if record.through_at is None:
        return False
    later = _finished_games(record.user_id, record.variant).filter(finished_at__gte=record.through_at)
    later = later.exclude(pk=game_id).exclude(finished_at=record.through_at, pk__lte=record.through_game)
    return later.exists()


def record_game_over(*, game: Game) -> None:
    """Fold a game that just ended into its owner's record, in the game's transaction; one
    that finished before the last game folded in (two games ending at once), or after a game
    that was never folded, makes the record again from the games."""
    if game.owner_id is None:
        return
    # What is stored, under the row the game's update holds (a hint may have landed since it was read).
    stored = Game.objects.filter(pk=game.pk).values_list("status", "assisted", "finished_at")
    status, assisted, finished_at = stored.get()
    with transaction.atomic():
        records = PlayerRecord.objects.select_for_update()
        record, created = records.get_or_create(user_id=game.owner_id, variant=game.variant)
        in_order = record.through_at is None or (finished_at, game.pk) > (record.through_at, record.through_game)
        if created or not in_order or _missed(record, game.pk):
            record_rebuild(user_id=game.owner_id, variant=game.variant)
            return
        record_fold(record, status, assisted)
        record.through_at, record.through_game = finished_at, game.pk
        record.save()


def record_of(*, user_id: int, variant: str) -> PlayerRecord:
    """A player's record in ``variant``; made from their games the first time it is asked for
    (an account whose games all ended before the records were kept)."""
    record = PlayerRecord.objects.filter(user_id=user_id, variant=variant).first()
    return record if record is not None else record_rebuild(user_id=user_id, variant=variant)


def records_rebuild(*, user_id: int) -> None:
    """Make every record of a player again (games came into the account from a guest)."""
    variants = owned_games(Owner(user_id=user_id, guest_token="")).values_list("variant", flat=True).distinct()
    for variant in set(variants) | set(PlayerRecord.objects.filter(user_id=user_id).values_list("variant", flat=True)):
        record_rebuild(user_id=user_id, variant=variant)
