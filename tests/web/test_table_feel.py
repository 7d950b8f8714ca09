"""Issue 13's table, as the server draws it: what the slots advertise, what the status bar
announces, the settings, and the contrast of the stylesheet's colours."""

from __future__ import annotations

from games import engine
from games.cards import table_slots
from tests.helpers import TWO_COLUMN_0_GAPS


def test_a_locked_card_that_could_move_is_not_marked_movable():
    position = engine.Position.parse(TWO_COLUMN_0_GAPS)
    state = engine.GameState(position=position, seed=1, deal_number=1)
    # 2D heads its run in column 0 (locked), and the open column-0 gap 0-0 takes it legally.
    assert (2, 0) in position.locked()
    assert (2, 0) in {move.src for move in position.legal_moves()}

    slots = {(view.row, view.col): view for row in table_slots(state) for view in row}
    for locked in position.locked():
        assert not slots[locked].movable, locked
        assert "movable" not in slots[locked].classes.split()
    assert slots[2, 0].label().endswith("in place")
    # A free card that can move still says so: 2S (0-12) goes to a column-0 gap.
    assert slots[0, 12].movable and slots[0, 12].label().endswith("can move")
