"""Every change to the records: the boards a ranked win enters, and the check of a finished
game against its revealed seed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from addiction_site.ownership import Owner
from games import engine
from games.clock import utc_day
from games.models import Game
from games.replay import KeptReplay, kept_replay
from games.selectors import owned_games
from games.services import seed_digest, win_standing
from records import scopes
from records.models import BoardEntry, Player


def board_scopes(game: Game) -> list[str]:
    """The boards' scopes a win belongs to (docs/RULES.md, "Leaderboards"): a random deal's
    win ranks all time, in its week and day (UTC) and on its deal's board; a chosen deal's
    on its deal's board only; the first daily game of a day on that day's daily board; a
    daily played again (practice) and a race's game nowhere."""
    if game.origin == Game.Origin.DAILY:
        return [scopes.daily_scope(game.daily)]  # type: ignore[arg-type]  # a daily game has its day
    if game.origin in (Game.Origin.PRACTICE, Game.Origin.RACE):  # a race ranks its own players only
        return []
    deal = scopes.deal_scope(game.deal_number)
    if game.origin != Game.Origin.RANDOM:
        return [scopes.of_variant(deal, game.variant)]
    day = utc_day(game.finished_at)  # a win has finished
    kept = [scopes.ALL, scopes.week_scope(day), scopes.day_scope(day), deal]
    return [scopes.of_variant(scope, game.variant) for scope in kept]  # each variant has boards of its own


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
        scopes = board_scopes(game)
        existing = {
            (entry.board, entry.scope): entry for entry in BoardEntry.objects.filter(user_id=owner_id, scope__in=scopes)
        }
        for board, (first, second) in figures.items():
            for scope in scopes:
                entry = existing.get((board, scope))
                if entry is None:
                    BoardEntry.objects.create(
                        user_id=owner_id,
                        board=board,
                        scope=scope,
                        game=game,
                        first=first,
                        second=second,
                        finished_at=finished_at,
                    )
                elif (first, second, finished_at) < (entry.first, entry.second, entry.finished_at):
                    entry.game, entry.first, entry.second, entry.finished_at = game, first, second, finished_at
                    entry.save(update_fields=["game", "first", "second", "finished_at"])


def boards_rebuild(*, user_id: int) -> None:
    """Make a player's board entries again from their ranked wins, oldest first."""
    with transaction.atomic():
        BoardEntry.objects.filter(user_id=user_id).delete()
        wins = owned_games(Owner(user_id=user_id, guest_token=""), status=engine.Status.WON, ranked=True)
        for game in wins.order_by("finished_at", "pk"):
            boards_enter(game=game)


@dataclass(frozen=True)
class Check:
    label: str
    ok: bool
    stored: str
    replayed: str
    kind: str = ""  # what it checks, for the sentence that says it (records.presenters.verification_words)


@dataclass(frozen=True)
class Verification:
    """What replaying a finished game from its revealed seed showed, check by check."""

    checks: list[Check]
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and all(check.ok for check in self.checks)


def game_verify(game: Game, *, fresh: bool = False, kept: KeptReplay | None = None) -> Verification:
    """Replay ``game`` from its deal, its log and its seed and compare with what is stored:
    the replay kept once played (games/replay.py; ``kept`` if the caller has read it already),
    or with ``fresh`` one played now."""
    digest = seed_digest(game.seed)
    checks = [Check(_("SHA-256 of the revealed seed"), digest == game.seed_sha256, game.seed_sha256, digest, "seed")]
    kept = kept if kept is not None and not fresh else kept_replay(game, fresh=fresh)
    if kept is None or kept.error or not kept.rows:
        error = kept.error if kept else ""
        return Verification(checks, error=_("The log does not replay: %(error)s") % {"error": error})
    replayed, (undo_top, redo_top), wrong_undo_tops = kept.end()
    # The stored columns are compared as the text the server writes (canonical notation),
    # not parsed: a column that is not even notation is then a mismatch, not a crash.
    for label, a, b in (
        (_("Position"), game.position, replayed.position),
        (_("Moves"), game.moves, replayed.moves),
        (_("Shuffles used"), game.shuffles_used, replayed.shuffles_used),
        (_("Action that undo takes back"), game.undo_top, undo_top),
        (_("Undo whose move redo plays again"), game.redo_top, redo_top),
    ):
        checks.append(Check(label, _text(a) == _text(b), _text(a), _text(b), "table"))
    # Words, not the values the database keeps ("won", True), are shown for these two.
    statuses = dict(Game.Status.choices)
    checks.append(
        Check(
            _("Result"),
            game.status == replayed.status.value,
            str(statuses.get(game.status, _text(game.status))),
            str(statuses[replayed.status.value]),
            "table",
        )
    )
    checks.append(
        Check(
            _("Log rows that name the wrong action for undo or redo"),
            wrong_undo_tops == 0,
            str(wrong_undo_tops),
            "0",
            "table",
        )
    )
    last = game.actions.order_by("-number").values_list("elapsed_ms", flat=True).first()
    if last is not None:  # the time is the server's; the log records it after every action
        checks.append(Check(_("Time (ms)"), game.elapsed_ms == last, str(game.elapsed_ms), str(last), "time"))
    if game.status == engine.Status.WON:  # only a win that replays to itself may be on the boards
        true_win = replayed.status is engine.Status.WON and all(check.ok for check in checks) and not game.assisted
        should_rank, _review = win_standing(game, true_win)  # a machine-paced win waits for review
        checks.append(
            Check(
                _("On the leaderboards"),
                game.ranked == should_rank,
                _yes_no(game.ranked),
                _yes_no(should_rank),
                "boards",
            )
        )
    return Verification(checks)


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _text(value) -> str:
    if isinstance(value, tuple):
        value = " ".join(str(item) for item in value)
    return str(value) or "-"


def guest_claimed(*, user) -> None:
    """Count, for moderation, one more guest's games that came into ``user``'s account: many
    means a fresh guest per deal, the way to try deals with no loss on the record (the
    account then has every guest's losses too, but staff see the pattern)."""
    Player.objects.get_or_create(user=user)
    Player.objects.filter(user=user).update(guests_claimed=F("guests_claimed") + 1)
