"""A game played again by the engine from its deal, its seed and its log: replays, the check
that ranks a win, and the verdict's starting position read from it."""

from __future__ import annotations

import pickle
import zlib
from collections.abc import Iterator
from typing import NamedTuple

from django.core.cache import cache

from games import engine
from games.models import Game


class LoggedAction(NamedTuple):
    """One row of a game's log, as a replay reads it."""

    number: int
    kind: str
    move: str
    elapsed_ms: int
    undo_top: int
    redo_top: int


class Step(NamedTuple):
    """One step of a replay: the action logged (None for the deal), the state after it, the
    number of the action whose move undo would take back next, and of the undo whose move
    redo would play again next (0: none)."""

    action: LoggedAction | None
    state: engine.GameState
    undo_top: int
    redo_top: int = 0


def replay_states(game: Game) -> Iterator[Step]:
    """The game played again by the engine from its deal and seed: the deal, then each
    logged action, read from the log in chunks.  A log the rules refuse raises
    IllegalAction, one that does not even read a ValueError.

    Where undo and redo stand is decided by the engine's rule (engine.tops_after), as in
    live play, from this replay's own figures, never from the log's: each action's played
    move and the tops after it are kept here from the last shuffle on (a shuffle ends what
    undo and redo can reach), and the engine is given only the move an undo or a redo needs.
    As in a stored game's state, ``history`` is empty.
    """
    state = engine.GameState.start(deal_number=game.deal_number, seed=int(game.seed), variant=game.variant)
    cols = game.cols
    tops = engine.Tops()
    played_by: dict[int, engine.Move] = {}  # action number -> the move it played or took back
    tops_after: dict[int, engine.Tops] = {0: tops}  # action number -> the tops it left
    yield Step(None, state, 0)
    log = game.actions.order_by("number").values_list(*LoggedAction._fields)
    for action in map(LoggedAction._make, log.iterator(chunk_size=1000)):
        move = engine.Move.parse(action.move, cols) if action.move else None
        kind = engine.ActionKind(action.kind)
        below = 0
        if kind is engine.ActionKind.UNDO and tops.can_undo(state.status):
            state, below = state._replace(history=(played_by[tops.undo],)), tops_after[tops.undo - 1].undo
        elif kind is engine.ActionKind.REDO and tops.can_redo(state.status):
            state, below = state._replace(undone=(played_by[tops.redo],)), tops_after[tops.redo - 1].redo
        try:
            state, played = state.act(kind, move=move)
        except engine.IllegalAction as refusal:
            raise engine.IllegalAction(refusal.reason, f"action {action.number}: {refusal}") from refusal
        tops = engine.tops_after(kind, action.number, tops, below)
        if kind is engine.ActionKind.SHUFFLE:
            played_by.clear()
            tops_after.clear()
        if played is not None:
            played_by[action.number] = played
        tops_after[action.number] = tops
        if state.history or state.undone:
            state = state._replace(history=(), undone=())
        yield Step(action, state, tops.undo, tops.redo)


class ReplayEnd(NamedTuple):
    """Where a replay of the whole log ends: the state, the tops, and how many log rows keep
    an undo_top or a redo_top that differs from their replay's."""

    state: engine.GameState
    tops: engine.Tops
    wrong_tops: int


def _wrong_tops(step: Step) -> bool:
    """Whether the log row of ``step`` keeps an undo_top or redo_top other than its replay's."""
    logged = step.action
    return logged is not None and (logged.undo_top, logged.redo_top) != (step.undo_top, step.redo_top)


def replay_end(game: Game) -> ReplayEnd:
    """The game's whole log played again (:func:`replay_states`), and where it ends."""
    wrong = 0
    for step in replay_states(game):
        wrong += _wrong_tops(step)
    return ReplayEnd(step.state, engine.Tops(step.undo_top, step.redo_top), wrong)


# A finished game never changes (its version is part of the key all the same), so its replay
# is played once and kept in the shared cache: later replays, verifications and the verdict
# read it.  A row a step: the action logged, then the state's figures and the tops after it.
KEPT_SECONDS = 60 * 60 * 24 * 30


class KeptReplay(NamedTuple):
    """A finished game's whole replay as kept: one row a step (:meth:`step` rebuilds it), why
    the log stops replaying ("" if it does not), and how many log rows keep wrong tops."""

    deal_number: int
    seed: int
    rows: tuple[tuple, ...]
    error: str
    wrong_tops: int
    variant: str = engine.DEFAULT_VARIANT.key

    @property
    def last(self) -> int:
        """The number of the last step that replays (the deal is step 0)."""
        return len(self.rows) - 1

    def step(self, number: int) -> Step:
        action, position, moves, shuffles_used, status, resigned, undo_top, redo_top = self.rows[number]
        state = engine.GameState(
            position=engine.Position.parse(position, self.variant),
            seed=self.seed,
            deal_number=self.deal_number,
            moves=moves,
            shuffles_used=shuffles_used,
            status=engine.Status(status),
            resigned=resigned,
        )
        return Step(LoggedAction._make(action) if action else None, state, undo_top, redo_top)

    def end(self) -> ReplayEnd:
        """Where the replay ends, as :func:`replay_end` says (for a log that replays whole)."""
        last = self.step(self.last)
        return ReplayEnd(last.state, engine.Tops(last.undo_top, last.redo_top), self.wrong_tops)


def _kept_key(game: Game) -> str:
    return f"replay:{game.pk}:{game.version}"


def kept_replay(game: Game, *, compute: bool = True, fresh: bool = False) -> KeptReplay | None:
    """``game``'s replay, read from the cache, or (``compute``) played now and, once the game
    is over, kept; None when it is not kept and ``compute`` is False.

    What is kept is the log as it was first replayed: the site never changes a finished
    game's log, so only someone writing to the database could, and ``fresh`` (the audit,
    ``manage.py verify_games``) plays the log again whatever is kept."""
    kept = cache.get(_kept_key(game)) if game.is_over and not fresh else None
    if kept is not None:
        rows, error, wrong = pickle.loads(zlib.decompress(kept))
        return KeptReplay(game.deal_number, int(game.seed), rows, error, wrong, game.variant)
    if not compute:
        return None
    rows, error, wrong = [], "", 0
    try:
        for step in replay_states(game):
            logged, state = step.action, step.state
            wrong += _wrong_tops(step)
            rows.append(
                (
                    tuple(logged) if logged else None,
                    str(state.position),
                    state.moves,
                    state.shuffles_used,
                    state.status.value,
                    state.resigned,
                    step.undo_top,
                    step.redo_top,
                )
            )
    except (engine.IllegalAction, ValueError) as refusal:  # a tampered log: what replays is kept
        error = str(refusal)
    if game.is_over:
        packed = zlib.compress(pickle.dumps((tuple(rows), error, wrong), protocol=pickle.HIGHEST_PROTOCOL))
        cache.set(_kept_key(game), packed, KEPT_SECONDS)
    return KeptReplay(game.deal_number, int(game.seed), tuple(rows), error, wrong, game.variant)
