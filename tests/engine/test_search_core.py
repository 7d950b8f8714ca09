"""The compiled search core against the pure-Python reference (games/_searchcore.c, games/solver.py):
for the same position, budget and kind of search, the same answer, field for field (the win or
the nearest best position, the line to it, whether cards were gained, the positions counted,
whether every position was seen), on positions of every variant.

When the core was not built (no compiler) these tests skip, unless ADDICTION_REQUIRE_COMPILED_CORE
is set, as CI sets it: then a missing core fails."""

from __future__ import annotations

import os
import random

import pytest

from games import engine, solver

if solver._core is None:
    if os.environ.get("ADDICTION_REQUIRE_COMPILED_CORE"):
        pytest.fail("the compiled search core was not built (ADDICTION_REQUIRE_COMPILED_CORE)", pytrace=False)
    pytest.skip("the compiled search core was not built: the pure-Python search runs", allow_module_level=True)

BUDGETS = (1, 5, 20, 50, 100, 200, 500, 1500)
POSITIONS = 2000
"""Positions compared a variant: each with one kind of search (every move, greedy, patient) and
one budget (from 1 to 1,500 positions), drawn at random: about 2 s of CPU a variant."""


def positions(variant: engine.Variant, count: int, seed: int):
    """``count`` positions of ``variant``: random deals, seeds and playouts of random lengths."""
    rng = random.Random(f"{variant.key}:{seed}")
    for _ in range(count):
        state = engine.GameState.start(deal_number=rng.randrange(1, 10**9), seed=rng.getrandbits(64), variant=variant)
        for _ in range(rng.randrange(0, 60)):
            moves = state.position.legal_moves()
            if moves:
                state = state.play(rng.choice(moves))
            elif state.shuffles_left:
                state = state.shuffle()
            else:
                break
        yield rng, state.position


@pytest.mark.parametrize("variant", list(engine.VARIANTS.values()), ids=lambda variant: variant.key)
def test_both_cores_find_the_same_on_positions_of_every_variant(variant):
    kinds = {solver._EVERY: 0, solver._GREEDY: 0, solver._PATIENT: 0}
    for rng, position in positions(variant, POSITIONS, seed=2026):
        forced, budget = rng.choice(list(kinds)), rng.choice(BUDGETS)
        reference = solver._explore_python(position.layout, budget, position.variant.full_run, forced=forced)
        compiled = solver._explore(position.layout, budget, position.variant.full_run, forced=forced)
        assert compiled == reference, (str(position), budget, forced)
        kinds[forced] += 1
    assert sum(kinds.values()) == POSITIONS and min(kinds.values()) > POSITIONS // 4


@pytest.mark.parametrize("variant", list(engine.VARIANTS.values()), ids=lambda variant: variant.key)
def test_both_cores_search_as_deep_alike_on_positions_of_every_variant(variant):
    """The background search's (``_deep``, behind ``search_win``): the same line and count."""
    compared = 0
    for rng, position in positions(variant, 60, seed=43):
        for forced in (solver._GREEDY, solver._PATIENT, solver._EVERY):
            budget = rng.choice((*BUDGETS, 5000))
            reference = solver._deep_python(position.layout, budget, position.variant.full_run, forced)
            compiled = solver._deep(position.layout, budget, position.variant.full_run, forced)
            assert compiled == reference, (str(position), budget, forced)
            compared += 1
    assert compared == 180


def test_the_hints_and_the_verdicts_are_the_same_with_either_core(monkeypatch):
    rng = random.Random(5)
    for variant in engine.VARIANTS.values():
        for _, position in positions(variant, 10, seed=rng.randrange(10**6)):
            compiled = (
                solver.advise(position, 1, 3000),
                solver.solve(position, 3000),
                solver.search_win(position, 3000),
            )
            monkeypatch.setattr(solver, "_core", None)
            reference = (
                solver.advise(position, 1, 3000),
                solver.solve(position, 3000),
                solver.search_win(position, 3000),
            )
            monkeypatch.undo()
            assert compiled == reference, str(position)


def test_the_core_refuses_a_layout_of_another_size():
    with pytest.raises(ValueError):
        solver._core.explore(b"\x00" * 10, 10, 13, 0)
    with pytest.raises(ValueError):
        solver._core.deep(b"\x00" * 10, 10, 13, 1)
