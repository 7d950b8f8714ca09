"""Where undo and redo stand in a game's numbered log (docs/RULES.md, "Undo and redo"):
engine.tops_after, the one rule live play, replay and verification follow, checked against
the engine's own stacks of moves (GameState.history and .undone) on random games."""

import random

import pytest

from games.engine import ActionKind, GameState, Tops, tops_after


def test_each_kind_of_action_moves_the_tops_as_the_rules_say():
    tops = Tops(5, 6)
    assert tops_after(ActionKind.MOVE, 7, tops) == Tops(7, 0)  # a new move ends what redo could do
    assert tops_after(ActionKind.UNDO, 7, tops, below=3) == Tops(3, 7)
    assert tops_after(ActionKind.REDO, 7, tops, below=2) == Tops(7, 2)
    assert tops_after(ActionKind.SHUFFLE, 7, tops) == Tops(0, 0)
    assert tops_after(ActionKind.RESIGN, 7, tops) == tops


@pytest.mark.parametrize("seed", range(12))
def test_the_tops_name_the_moves_the_engines_stacks_hold(seed):
    """Play a random game keeping the engine's full stacks; after each action, the tops
    (computed as a stored game does, from the tops each action left) name the action whose
    move is on top of the undo stack and the undo whose move is on top of the redo stack."""
    rng = random.Random(seed)
    state = GameState.start(deal_number=seed + 1, seed=seed)
    tops, left = Tops(), {0: Tops()}  # the tops each action left
    played: dict[int, object] = {}  # the move each action played or took back
    for number in range(1, 200):
        choices = [ActionKind.MOVE] * 5 * bool(state.position.legal_moves())
        choices += [ActionKind.UNDO] * 2 * state.can_undo + [ActionKind.REDO] * state.can_redo
        choices += [ActionKind.SHUFFLE] * (state.shuffles_left > 0 and not choices)
        if not choices:
            break
        kind = rng.choice(choices)
        below = 0
        if kind is ActionKind.UNDO:
            below = left[tops.undo - 1].undo
        elif kind is ActionKind.REDO:
            below = left[tops.redo - 1].redo
        move = rng.choice(state.position.legal_moves()) if kind is ActionKind.MOVE else None
        state, done = state.act(kind, move=move)
        tops = left[number] = tops_after(kind, number, tops, below)
        played[number] = done
        assert (played[tops.undo] if tops.undo else None) == (state.history[-1] if state.history else None)
        assert (played[tops.redo] if tops.redo else None) == (state.undone[-1] if state.undone else None)
        if state.is_over:
            break
