"""What the records' templates get besides models: a replay step's table and words."""

from __future__ import annotations

from games import engine
from games.models import Game
from games.presenters import line_words, step_words, table_slots
from records.selectors import Replayed


def replay_context(game: Game, step: int, replayed: Replayed) -> dict:
    """What records/replay.html (or htmx's _replay.html) draws of one step: the table with
    the card the step moved marked, and the step's words."""
    action, state = replayed.shown.action, replayed.shown.state  # type: ignore[union-attr]  # a step found
    slots = table_slots(state, replay=True)
    if action is not None and action.kind in (engine.ActionKind.MOVE, engine.ActionKind.REDO, engine.ActionKind.UNDO):
        move = engine.Move.parse(action.move)
        row, col = move.src if action.kind == engine.ActionKind.UNDO else move.dst
        slots[row][col] = slots[row][col]._replace(moved=True)
    return {
        "game": game,
        "state": state,
        "slots": slots,
        "step": step,
        "last": replayed.last,
        "action": action,
        "error": replayed.error,
        "action_words": step_words(action.kind, action.move, state.moves, state.shuffles_left) if action else "",
        "verdict_steps": line_words(game.verdict_line),
    }
