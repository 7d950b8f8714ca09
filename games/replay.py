"""A game played again by the engine from its deal, its seed and its log: replays, the check
that ranks a win, and the verdict's starting position read from it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

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

    Each step costs the same whatever the game's length: the moves undo can take back are
    kept here, and the engine is given only the one an undo takes back.  As in a stored
    game's state, ``history`` is empty.
    """
    state = engine.GameState.start(deal_number=game.deal_number, seed=int(game.seed))
    undoable: list[tuple[int, engine.Move]] = []  # (action number, move), oldest first
    undone: list[tuple[int, engine.Move]] = []  # (number of the undo, the move it took back)
    yield Step(None, state, 0)
    log = game.actions.order_by("number").values_list(*LoggedAction._fields)
    for action in map(LoggedAction._make, log.iterator(chunk_size=1000)):
        move = engine.Move.parse(action.move) if action.move else None
        kind = engine.ActionKind(action.kind)
        if kind is engine.ActionKind.UNDO and undoable:
            state = state._replace(history=(undoable[-1][1],))
        elif kind is engine.ActionKind.REDO and undone:
            state = state._replace(undone=(undone[-1][1],))
        try:
            state, played = state.act(kind, move=move)
        except engine.IllegalAction as refusal:
            raise engine.IllegalAction(refusal.reason, f"action {action.number}: {refusal}") from refusal
        if kind in (engine.ActionKind.MOVE, engine.ActionKind.REDO):
            undoable.append((action.number, played))  # type: ignore[arg-type]  # a move plays a Move
            if kind is engine.ActionKind.MOVE:
                undone.clear()
            else:
                undone.pop()
        elif kind is engine.ActionKind.UNDO:
            undoable.pop()
            undone.append((action.number, played))  # type: ignore[arg-type]  # an undo takes back a Move
        elif kind is engine.ActionKind.SHUFFLE:
            undoable.clear()
            undone.clear()
        if state.history or state.undone:
            state = state._replace(history=(), undone=())
        yield Step(action, state, undoable[-1][0] if undoable else 0, undone[-1][0] if undone else 0)


def game_replay(game: Game) -> engine.GameState:
    """The state that the game's deal, seed and action log give, played again by the engine."""
    for step in replay_states(game):  # noqa: B007 - the last step is the answer
        pass
    return step.state


def replay_end(game: Game) -> tuple[engine.GameState, tuple[int, int], int]:
    """The replayed state, the (undo_top, redo_top) it ends with, and how many log rows keep
    an undo_top or a redo_top that differs from their replay's."""
    wrong = 0
    for step in replay_states(game):
        logged = step.action
        wrong += logged is not None and (logged.undo_top, logged.redo_top) != (step.undo_top, step.redo_top)
    return step.state, (step.undo_top, step.redo_top), wrong
