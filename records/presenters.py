"""What the records' templates get besides models: a replay step's table and words."""

from __future__ import annotations

import math

from games import engine, pace
from games.models import Game
from games.presenters import line_words, pace_words, step_words, table_slots
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


CHART_HEIGHT, CHART_BAR = 80, 3  # the pace chart's height and each bar's width, in SVG units
CHART_FLOOR_MS, CHART_DECADES = 10, 4  # its scale: 10 ms at the bottom, 100 s (four tenfolds up) at the top


def _chart_y(ms: int) -> int:
    """Where ``ms`` stands on the pace chart's scale (log), from the top."""
    tenfolds = min(math.log10(max(ms, CHART_FLOOR_MS) / CHART_FLOOR_MS), CHART_DECADES)
    return round(CHART_HEIGHT * (1 - tenfolds / CHART_DECADES))


def pace_chart(found: pace.Pace) -> dict:
    """The staff's chart of a game's pace (records/_pace_chart.html): one bar per move, as
    tall as the time since the action before on a log scale, and the line under which a
    move came faster than a person reacts (games/pace.py)."""
    bars = [
        {"x": number * CHART_BAR, "y": y, "h": CHART_HEIGHT - y, "fast": gap < pace.FAST_MOVE_MS, "ms": gap}
        for number, (gap, y) in enumerate((gap, _chart_y(gap)) for gap in found.gaps)
    ]
    return {
        "bars": bars,
        "width": max(1, len(bars)) * CHART_BAR,
        "height": CHART_HEIGHT,
        "bar_width": CHART_BAR - 1,
        "fast_y": _chart_y(pace.FAST_MOVE_MS),
        "pace": found,
        "words": pace_words(found),
    }
