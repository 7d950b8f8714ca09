"""Every change to a game goes through here: one transaction, checked by the engine."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.models import Action, Game
from games.ownership import Owner, owned_games


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
    """
    # savepoint=False: outside a transaction this is the one real transaction; it also
    # keeps the query count of a move at what production runs.
    with transaction.atomic(savepoint=False):
        game = owned_games(owner).select_for_update().get(pk=game_id)
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
        game.save()
        Action.objects.create(
            game=game, number=game.version, kind=kind, move=str(move) if move else "",
            elapsed_ms=game.elapsed_ms,
        )
    return game


def game_replay(game: Game) -> engine.GameState:
    """The state that the game's deal, seed and action log give, played again by the engine."""
    state = engine.GameState.start(deal_number=game.deal_number, seed=int(game.seed))
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
    return state
