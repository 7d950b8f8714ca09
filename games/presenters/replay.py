"""What a finished game's own pages get (docs/RULES.md, "Fairness and verification"): a replay
step's table and words, the staff's chart of its pace, and what its verification checked, in
words."""

from __future__ import annotations

import math

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine, pace
from games.models import Game
from games.presenters.analysis import analysis_words
from games.presenters.table import table_slots
from games.presenters.words import duration, logged_move, pace_words, step_words
from games.selectors import Replayed


def replay_context(game: Game, step: int, replayed: Replayed) -> dict:
    """What records/replay.html (or htmx's _replay.html) draws of one step: the table with
    the card the step moved marked, and the step's words."""
    action, state = replayed.shown.action, replayed.shown.state  # type: ignore[union-attr]  # a step found
    slots = table_slots(state, replay=True)
    if action is not None and action.kind in (engine.ActionKind.MOVE, engine.ActionKind.REDO, engine.ActionKind.UNDO):
        move = logged_move(action.move)
        row, col = move.src if action.kind == engine.ActionKind.UNDO else move.dst
        slots[row][col] = slots[row][col]._replace(moved=True)
    analysis = analysis_words(game)
    return {
        "game": game,
        "state": state,
        "slots": slots,
        "analysis": analysis,
        "here": analysis.at(step),
        "step": step,
        "last": replayed.last,
        "action": action,
        "error": replayed.error,
        "action_words": step_words(action.kind, action.move, state.moves, state.shuffles_left) if action else "",
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


def verification_words(game: Game, verification) -> list[tuple[bool, str]]:
    """What the verify page checked, in a player's words, each with whether it held (issue 26):
    the figures compared stay below, for whoever wants them."""

    def held(kind: str) -> bool:
        return all(check.ok for check in verification.checks if check.kind == kind)

    actions = game.version
    words = [
        (held("seed"), _("The seed revealed now is the one whose fingerprint was shown when the game began.")),
        (
            not verification.error,
            ngettext(
                "Its %(count)d action follows the rules, from the deal on.",
                "All %(count)d of its actions follow the rules, from the deal on.",
                actions,
            )
            % {"count": actions},
        ),
        (
            held("table"),
            _(
                "Played again, they end on the same table, with %(moves)d moves, %(shuffles)d shuffles used "
                "and the game %(result)s."
            )
            % {"moves": game.moves, "shuffles": game.shuffles_used, "result": Game.Status(game.status).label},
        ),
    ]
    if any(check.kind == "time" for check in verification.checks):
        words.append(
            (
                held("time"),
                _("Its time, %(time)s, is the server's own clock, written after each action.")
                % {"time": duration(game.elapsed_ms)},
            )
        )
    if any(check.kind == "boards" for check in verification.checks):
        words.append(
            (
                held("boards"),
                _("It is on the leaderboards.") if game.ranked else _("It is rightly not on the leaderboards."),
            )
        )
    return words
