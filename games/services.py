"""Every change to a game goes through here, checked by the engine and written all or nothing."""

from __future__ import annotations

import hashlib
import secrets
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from datetime import timezone as dt_timezone
from typing import Iterator

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.game_rows import game_for_action, game_save_action
from games.models import Action, BoardEntry, Game
from games.ownership import Owner, owned_games
from games.write_lock import serialized_writes


class ActionRefused(Exception):
    """The action was not applied; ``message`` says why, for the player."""

    def __init__(self, message: str, game: Game):
        super().__init__(message)
        self.message = message
        self.game = game


class StaleVersion(ActionRefused):
    """The page was rendered from an older version of the game (another tab, a double click)."""


def seed_digest(seed: str) -> str:
    """The SHA-256 shown when a game starts, of the seed's decimal text."""
    return hashlib.sha256(seed.encode()).hexdigest()


def game_start(*, owner: Owner, deal_number: int | None = None) -> Game:
    """A new game of ``deal_number`` (a random deal when None) for ``owner``."""
    if deal_number is None:
        deal_number = secrets.randbelow(engine.MAX_DEAL) + 1
    seed = str(secrets.randbits(128))
    state = engine.GameState.start(deal_number=deal_number, seed=int(seed))
    game = Game(deal_number=deal_number, seed=seed, seed_sha256=seed_digest(seed), **owner.stamp())
    game.set_state(state)
    game.save()
    return game


def elapsed_at(game: Game, now: datetime) -> int:
    """The game's time in milliseconds at ``now``: each pause counts at most the idle cap."""
    if game.is_over or game.last_action_at is None:
        return game.elapsed_ms
    pause = max(0, int((now - game.last_action_at).total_seconds() * 1000))
    return game.elapsed_ms + min(pause, settings.ADDICTION_IDLE_CAP_SECONDS * 1000)


def _apply(game: Game, kind: str, slot: engine.Slot | None) -> tuple[engine.GameState, engine.Move | None]:
    state = game.state()
    if state.is_over:
        raise ActionRefused(_("This game is over."), game)
    try:
        if kind == Action.Kind.MOVE:
            move = state.position.move_for_slot(slot)
            if move is None:
                if state.position.card_at(slot) is None:
                    raise ActionRefused(_("No card can go into that gap."), game)
                raise ActionRefused(_("That card cannot move."), game)
            return state.play(move), move
        if kind == Action.Kind.UNDO:
            if not state.history:
                raise ActionRefused(_("There is no move to undo since the last shuffle."), game)
            return state.undo(), state.history[-1]
        if kind == Action.Kind.SHUFFLE:
            if state.shuffles_left <= 0:
                raise ActionRefused(_("No shuffle is left."), game)
            return state.shuffle(), None
        if kind == Action.Kind.RESIGN:
            return state.resign(), None
    except engine.IllegalAction as refusal:  # the checks above should leave none; never a 500
        raise ActionRefused(_("The rules do not allow that."), game) from refusal
    raise ValueError(f"unknown action {kind!r}")


def game_act(
    *, owner: Owner, game_id: int, version: int, kind: str, slot: engine.Slot | None = None,
    now: datetime | None = None,
) -> Game:
    """Apply one player action to one of ``owner``'s games and log it.

    Raises ``Game.DoesNotExist`` for a game that is not the owner's, :class:`StaleVersion`
    when ``version`` is not the game's current one, and :class:`ActionRefused` for an
    action the rules refuse.  A refused action changes nothing.

    The game is read without a lock and written back with a compare-and-set: the UPDATE
    applies only if the row is still the owner's and at ``version`` (games/game_rows.py),
    under the row lock the UPDATE itself takes.  Of two tabs or a double click that read
    the same version, one writes and the other gets :class:`StaleVersion` with the game
    as it is now (or 404, if an account claimed or the player deleted it meanwhile).
    That spares every click a transaction of its own on PostgreSQL (BEGIN, SELECT ... FOR
    UPDATE, COMMIT: two round trips more), and SQLite's write lock is held only for the
    writing.  A winning move is written in one transaction with its ranking.
    """
    game = game_for_action(owner, game_id)
    if game is None:
        raise Game.DoesNotExist("No such game of this owner.")
    if game.version != version:
        raise StaleVersion(_("This page was out of date; here is the table as it is now."), game)
    state, move = _apply(game, kind, slot)
    now = now or timezone.now()
    game.elapsed_ms = elapsed_at(game, now)
    game.started_at = game.started_at or now
    game.last_action_at = now
    game.set_state(state)
    if state.is_over:
        game.finished_at = now
    game.version += 1
    won = state.status is engine.Status.WON
    with serialized_writes() if won else nullcontext(), transaction.atomic() if won else nullcontext():
        if not game_save_action(game, owner=owner, was_version=version, kind=kind, move=str(move) if move else "",
                                now=now):
            current = game_for_action(owner, game_id)  # another tab or click got there first
            if current is None:
                raise Game.DoesNotExist("The game is gone.")
            raise StaleVersion(_("This page was out of date; here is the table as it is now."), current)
        if won:
            game_rank(game=game)
    return game


def game_rank(*, game: Game) -> bool:
    """Check a won game by replaying its log; a true win is ranked and, if it has an
    owner, enters the boards.  A win whose log does not replay to it never does."""
    try:
        replayed = game_replay(game)
        ranked = replayed.status is engine.Status.WON and replayed == game.state()
    except (engine.IllegalAction, ValueError):  # a log, or a stored state, that does not even read
        ranked = False
    was_ranked, game.ranked = game.ranked, ranked
    if ranked != was_ranked:
        Game.objects.filter(pk=game.pk).update(ranked=ranked)
    if game.owner_id and ranked:
        boards_enter(game=game)
    elif game.owner_id and was_ranked:
        boards_rebuild(user_id=game.owner_id)  # a win found false again leaves the boards
    return ranked


def board_scopes(game: Game) -> list[str]:
    """The boards' scopes a win belongs to: all time, its week and day (UTC), its deal."""
    day = game.finished_at.astimezone(dt_timezone.utc).date()
    year, week, _weekday = day.isocalendar()
    return ["all", f"week:{year}-W{week:02d}", f"day:{day.isoformat()}", f"deal:{game.deal_number}"]


def boards_enter(*, game: Game) -> None:
    """Make ``game`` its owner's entry on every board where it beats their best so far.

    On equal figures the earlier win stays, since the boards break ties by who finished first.
    """
    with transaction.atomic():  # its own transaction when called alone (a claim, a re-rank)
        # One player's wins may finish at once in two games, whose own row locks do not meet:
        # lock the player, so that one reads the entries only after the other has written them.
        list(get_user_model().objects.select_for_update().filter(pk=game.owner_id).values_list("pk", flat=True))
        figures = {
            BoardEntry.Board.TIME: (game.elapsed_ms, game.moves),
            BoardEntry.Board.MOVES: (game.moves, game.elapsed_ms),
        }
        scopes = board_scopes(game)
        existing = {
            (entry.board, entry.scope): entry
            for entry in BoardEntry.objects.filter(user_id=game.owner_id, scope__in=scopes)
        }
        for board, (first, second) in figures.items():
            for scope in scopes:
                entry = existing.get((board, scope))
                if entry is None:
                    BoardEntry.objects.create(
                        user_id=game.owner_id, board=board, scope=scope, game=game,
                        first=first, second=second, finished_at=game.finished_at,
                    )
                elif (first, second, game.finished_at) < (entry.first, entry.second, entry.finished_at):
                    entry.game, entry.first, entry.second, entry.finished_at = game, first, second, game.finished_at
                    entry.save(update_fields=["game", "first", "second", "finished_at"])


def boards_rebuild(*, user_id: int) -> None:
    """Make a player's board entries again from their ranked wins, oldest first."""
    with transaction.atomic():
        BoardEntry.objects.filter(user_id=user_id).delete()
        wins = Game.objects.filter(owner_id=user_id, status=Game.Status.WON, ranked=True)
        for game in wins.order_by("finished_at", "pk"):
            boards_enter(game=game)


def games_claim(*, user, guest_token: str) -> int:
    """Give a guest's games to the account they just signed up or logged in with."""
    if not guest_token:
        return 0
    with transaction.atomic():
        games = list(Game.objects.select_for_update().filter(owner__isnull=True, guest_token=guest_token))
        Game.objects.filter(pk__in=[game.pk for game in games]).update(owner=user, guest_token="")
        for game in games:
            game.owner_id = user.pk
            if game.ranked:
                boards_enter(game=game)
    return len(games)


def game_delete(*, owner: Owner, game_id: int) -> None:
    """Delete one of ``owner``'s unfinished games; a finished game stays on the record."""
    with transaction.atomic():
        game = owned_games(owner).select_for_update().get(pk=game_id)
        if game.is_over:
            raise ActionRefused(_("A finished game cannot be deleted."), game)
        game.delete()


def replay_states(game: Game) -> Iterator[tuple[Action | None, engine.GameState]]:
    """The game played again by the engine from its deal and seed: the opening state,
    then the state after each logged action.  A log the rules refuse raises IllegalAction."""
    state = engine.GameState.start(deal_number=game.deal_number, seed=int(game.seed))
    yield None, state
    for action in game.actions.order_by("number"):
        if action.kind == Action.Kind.MOVE:
            state = state.play(engine.Move.parse(action.move))
        elif action.kind == Action.Kind.UNDO:
            if not state.history or str(state.history[-1]) != action.move:
                raise engine.IllegalAction(f"action {action.number}: undo of {action.move} does not match")
            state = state.undo()
        elif action.kind == Action.Kind.SHUFFLE:
            state = state.shuffle()
        elif action.kind == Action.Kind.RESIGN:
            state = state.resign()
        else:
            raise engine.IllegalAction(f"action {action.number}: unknown kind {action.kind!r}")
        yield action, state


def game_replay(game: Game) -> engine.GameState:
    """The state that the game's deal, seed and action log give, played again by the engine."""
    for _action, state in replay_states(game):
        pass
    return state


@dataclass(frozen=True)
class Check:
    label: str
    ok: bool
    stored: str
    replayed: str


@dataclass(frozen=True)
class Verification:
    """What replaying a finished game from its revealed seed showed, check by check."""

    checks: list[Check]
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and all(check.ok for check in self.checks)


def game_verify(game: Game) -> Verification:
    """Replay ``game`` from its deal, its log and its seed and compare with what is stored."""
    digest = seed_digest(game.seed)
    checks = [Check(_("SHA-256 of the revealed seed"), digest == game.seed_sha256, game.seed_sha256, digest)]
    try:
        replayed = game_replay(game)
    except (engine.IllegalAction, ValueError) as error:
        return Verification(checks, error=_("The log does not replay: %(error)s") % {"error": error})
    # The stored columns are compared as the text the server writes (canonical notation),
    # not parsed: a column that is not even notation is then a mismatch, not a crash.
    for label, a, b in (
        (_("Position"), game.position, replayed.position),
        (_("Moves"), game.moves, replayed.moves),
        (_("Shuffles used"), game.shuffles_used, replayed.shuffles_used),
        (_("Moves undo could take back"), game.history, replayed.history),
        (_("Result"), game.status, replayed.status.value),
    ):
        checks.append(Check(label, _text(a) == _text(b), _text(a), _text(b)))
    last = game.actions.order_by("-number").values_list("elapsed_ms", flat=True).first()
    if last is not None:  # the time is the server's; the log records it after every action
        checks.append(Check(_("Time (ms)"), game.elapsed_ms == last, str(game.elapsed_ms), str(last)))
    if game.status == Game.Status.WON:  # only a win that replays to itself may be on the boards
        true_win = replayed.status is engine.Status.WON and all(check.ok for check in checks)
        checks.append(Check(_("On the leaderboards"), game.ranked == true_win, _text(game.ranked), _text(true_win)))
    return Verification(checks)


def _text(value) -> str:
    if isinstance(value, tuple):
        value = " ".join(str(item) for item in value)
    return str(value) or "-"
