"""The page's copy of the move rule (static/games/rule.js) is the engine's (docs/RULES.md,
"Clicking a slot"; issue 26): on positions the engine draws (deals, random playouts, after
shuffles), every click, every drag onto a gap and every mark asked of the page in Chromium
is what the engine and the presenters say, in every variant of the family (issue 29): the
14-column tables of Blue Moon and Red Moon, whose aces head the rows, too."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page

from games import engine
from games.presenters.table import table_facts

POSITIONS = 60


def positions(variant: engine.Variant = engine.ADDICTION, count: int = POSITIONS) -> list[engine.GameState]:
    """Deals, and the states random play reaches from them, shuffles included."""
    rng, found = random.Random(2026), []
    for deal in range(1, count // 3 + 1):
        state = engine.GameState.start(deal_number=deal, seed=deal * 7919, variant=variant)
        found.append(state)
        for _ in range(2):
            for _step in range(rng.randrange(5, 60)):
                moves = state.position.legal_moves()
                if moves:
                    state = state.play(rng.choice(moves))
                elif state.shuffles_left:
                    state, _move = state.act(engine.ActionKind.SHUFFLE)
                else:
                    break
            found.append(state)
    return found


def name(slot: engine.Slot) -> str:
    return engine.slot_name(slot)


def expected(state: engine.GameState) -> dict:
    position = state.position
    slots = [(r, c) for r in range(4) for c in range(position.variant.cols)]
    legal = {(name(m.src), name(m.dst)) for m in position.legal_moves()}
    clicks = {}
    for slot in slots:
        move = position.move_for_slot(slot)
        clicks[name(slot)] = [name(move.src), name(move.dst)] if move else None
    gaps = [name(s) for s in slots if position.card_at(s) is None]
    drags = {f"{name(s)}>{gap}": (name(s), gap) in legal for s in slots if position.card_at(s) for gap in gaps}
    facts = table_facts(state)
    return {
        "clicks": clicks,
        "drags": drags,
        "locked": sorted(name(s) for s in facts.locked),
        "movable": sorted(name(s) for s in facts.movable),
        "dead": sorted(name(s) for s in facts.dead),
    }


ASK = """(cases) => cases.map(function (table) {
  var rule = window.AddictionRule, clicks = {}, drags = {}, gaps = [];
  Object.keys(table).forEach(function (slot) { if (!table[slot]) gaps.push(slot); });
  Object.keys(table).forEach(function (slot) {
    var move = rule.moveFor(table, slot);
    clicks[slot] = move ? [move.from, move.to] : null;
    if (table[slot]) gaps.forEach(function (gap) { drags[slot + ">" + gap] = !!rule.moveFor(table, slot, gap); });
  });
  var marks = rule.marks(table);
  return {clicks: clicks, drags: drags, locked: Object.keys(marks.locked).sort(),
          movable: Object.keys(marks.movable).sort(), dead: Object.keys(marks.dead).sort()};
})"""


@pytest.mark.parametrize(
    ("variant", "count"),
    [(engine.ADDICTION, POSITIONS), (engine.MONTANA, 15), (engine.BLUE_MOON, 30), (engine.RED_MOON, 15)],
    ids=lambda value: getattr(value, "key", str(value)),
)
def test_the_pages_rule_is_the_engines_on_positions_the_engine_draws(live_server, page: Page, variant, count):
    page.goto(f"{live_server.url}/how-to-play/")
    states = positions(variant, count)
    cols = variant.cols
    tables = [
        {name((r, c)): state.position.card_at((r, c)) or "" for r in range(4) for c in range(cols)} for state in states
    ]
    answers = page.evaluate(ASK, tables)
    assert len(answers) == len(states) >= count
    for state, answer in zip(states, answers, strict=True):
        assert answer == expected(state), str(state.position)
    # The positions tried hold every kind of case: 2s to column 0, gaps after Kings, locked runs.
    assert any(answer["dead"] for answer in answers) and any(answer["locked"] for answer in answers)
