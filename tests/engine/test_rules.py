"""The rules of docs/RULES.md on hand-made positions.

Every fixture is the won table (row 0 spades, 1 hearts, 2 diamonds, 3 clubs, each 2..K
in columns 0..11 and a gap in column 12) except for the rows written out in it; those
that other tests share are in tests/engine/layouts.py.
"""

import pytest

from games.engine import IllegalAction, IllegalMove, Move, Position, Refusal
from tests.engine.layouts import (
    COLUMN_0_GAP,
    GAP_AFTER_GAP,
    KINGS_SWAPPED,
    NEAR_WON,
    ONE_FIT,
    WON_TEXT,
    notation,
    won_except,
    won_rows,
    won_with,
)

M = Move
R = Refusal

# The won table itself.
WON = Position.parse(WON_TEXT)

# gap (0,1) right of the 2S: only 3S fits (never a 2: aces are not on the table).
AFTER_A_TWO = won_except({0: "2S -- 4S 5S 6S 7S 8S 9S TS JS QS KS 3S"})

# gap (0,5) takes 7S; gap (1,5) sits right of a King in the middle of a row: dead.
KING_IN_THE_MIDDLE = won_except(
    {0: "2S 3S 4S 5S 6S -- 8S 9S TS JS QS KS 7S", 1: "2H 3H 4H 5H KH -- 8H 9H TH JH QH 6H 7H"}
)

# two column-0 gaps, each taking any of the four 2s.
TWO_COLUMN_0_GAPS = won_except(
    {1: "-- 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H", 3: "-- 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2C"}
)

# a column-0 gap (1,0) before an ordinary gap (2,5) in slot order.
COLUMN_0_THEN_ORDINARY = won_except(
    {1: "-- 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H", 2: "2D 3D 4D 5D 6D -- 8D 9D TD JD QD KD 7D"}
)

# an ordinary gap (0,5) before a column-0 gap (1,0) in slot order.
ORDINARY_THEN_COLUMN_0 = won_except(
    {0: "2S 3S 4S 5S 6S -- 8S 9S TS JS QS KS 7S", 1: "-- 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H"}
)

# gaps: (0,12) and (1,12) after kings, (2,5) after KC, (2,6) after a gap: stuck.
STUCK_WITH_GAP_AFTER_GAP = won_except(
    {2: "2D 3D 4D 5D KC -- -- 9D TD JD QD KD 7D", 3: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 6D 8D"}
)

# runs broken by a card of the wrong suit at column 3.
BROKEN_BY_SUIT = won_except({0: "2S 3S 4S 5H 6S 7S 8S 9S TS JS QS KS --", 1: "2H 3H 4H 5S 6H 7H 8H 9H TH JH QH KH --"})

# a 2 of another suit at column 0: only the 2 itself is locked.
TWOS_SWAPPED = won_except({0: "2H 3S 4S 5S 6S 7S 8S 9S TS JS QS KS --", 1: "2S 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --"})

# no 2 at column 0: nothing in the row is locked, though 4S..KS are in sequence.
NO_TWO_IN_COLUMN_0 = won_except({0: "3S -- 4S 5S 6S 7S 8S 9S TS JS QS KS 2S"})

# a gap ends the run: 6D..KD after it are not locked.
BROKEN_BY_GAP = won_except({2: "2D 3D 4D -- 6D 7D 8D 9D TD JD QD KD 5D"})

DEAL_1 = Position.parse(
    "7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S / 2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC / "
    "TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD / QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C"
)

ALL_FIXTURES = {name: value for name, value in globals().items() if isinstance(value, Position)}


def full_rows(*rows):
    """Slots (row, 0..11) of whole rows: what is locked in a finished row."""
    return {(r, c) for r in rows for c in range(12)}


# --------------------------------------------------------------------------- legal moves

LEGAL_MOVES = [
    pytest.param(WON, [], id="won"),
    pytest.param(ONE_FIT, [M("7S", (0, 12), (0, 5))], id="same-suit-one-lower"),
    pytest.param(AFTER_A_TWO, [M("3S", (0, 12), (0, 1))], id="after-a-2"),
    pytest.param(KING_IN_THE_MIDDLE, [M("7S", (0, 12), (0, 5))], id="king-in-the-middle"),
    pytest.param(GAP_AFTER_GAP, [M("6S", (1, 12), (0, 4))], id="gap-after-gap"),
    pytest.param(
        COLUMN_0_GAP,
        [M("2S", (0, 0), (1, 0)), M("2H", (1, 12), (1, 0)), M("2D", (2, 0), (1, 0)), M("2C", (3, 0), (1, 0))],
        id="column-0-any-2",
    ),
    pytest.param(
        TWO_COLUMN_0_GAPS,
        [
            M("2S", (0, 0), (1, 0)),
            M("2H", (1, 12), (1, 0)),
            M("2D", (2, 0), (1, 0)),
            M("2C", (3, 12), (1, 0)),
            M("2S", (0, 0), (3, 0)),
            M("2H", (1, 12), (3, 0)),
            M("2D", (2, 0), (3, 0)),
            M("2C", (3, 12), (3, 0)),
        ],
        id="two-column-0-gaps",
    ),
    pytest.param(
        COLUMN_0_THEN_ORDINARY,
        [
            M("2S", (0, 0), (1, 0)),
            M("2H", (1, 12), (1, 0)),
            M("2D", (2, 0), (1, 0)),
            M("2C", (3, 0), (1, 0)),
            M("7D", (2, 12), (2, 5)),
        ],
        id="column-0-gap-first",
    ),
    pytest.param(
        ORDINARY_THEN_COLUMN_0,
        [
            M("7S", (0, 12), (0, 5)),
            M("2S", (0, 0), (1, 0)),
            M("2H", (1, 12), (1, 0)),
            M("2D", (2, 0), (1, 0)),
            M("2C", (3, 0), (1, 0)),
        ],
        id="ordinary-gap-first",
    ),
    pytest.param(NEAR_WON, [M("KS", (0, 12), (0, 11))], id="near-won"),
    pytest.param(KINGS_SWAPPED, [], id="kings-swapped"),
    pytest.param(STUCK_WITH_GAP_AFTER_GAP, [], id="stuck-gap-after-gap"),
    pytest.param(BROKEN_BY_GAP, [M("5D", (2, 12), (2, 3))], id="broken-by-gap"),
    pytest.param(
        DEAL_1,
        # gaps (1,6) after 2S, (2,6) after 7S, (2,8) after 5S, (3,4) after 3C
        [M("3S", (0, 12), (1, 6)), M("8S", (3, 7), (2, 6)), M("6S", (2, 4), (2, 8)), M("4C", (2, 3), (3, 4))],
        id="deal-1",
    ),
]


@pytest.mark.parametrize("position, expected", LEGAL_MOVES)
def test_legal_moves_in_order_of_gap_then_source(position, expected):
    assert position.legal_moves() == expected


@pytest.mark.parametrize("position, expected", LEGAL_MOVES)
def test_each_listed_move_is_legal(position, expected):
    for move in expected:
        assert position.is_legal(move)


@pytest.mark.parametrize("position, expected", LEGAL_MOVES)
def test_stuck_exactly_when_nothing_moves(position, expected):
    assert position.is_stuck() == (expected == [])


@pytest.mark.parametrize(
    "position, dead",
    [
        pytest.param(WON, [(0, 12), (1, 12), (2, 12), (3, 12)], id="won"),
        pytest.param(ONE_FIT, [(1, 12), (2, 12), (3, 12)], id="one-fit"),
        pytest.param(KING_IN_THE_MIDDLE, [(1, 5), (2, 12), (3, 12)], id="king-in-the-middle"),
        pytest.param(GAP_AFTER_GAP, [(0, 5), (0, 12), (3, 12)], id="gap-after-gap"),
        pytest.param(COLUMN_0_GAP, [(0, 12), (2, 12), (3, 12)], id="column-0-gap-is-never-dead"),
        pytest.param(STUCK_WITH_GAP_AFTER_GAP, [(0, 12), (1, 12), (2, 5), (2, 6)], id="stuck"),
        pytest.param(DEAL_1, [], id="deal-1"),
    ],
)
def test_dead_gaps(position, dead):
    assert position.dead_gaps() == dead


def test_gaps_in_slot_order():
    assert GAP_AFTER_GAP.gaps() == [(0, 4), (0, 5), (0, 12), (3, 12)]
    assert TWO_COLUMN_0_GAPS.gaps() == [(0, 12), (1, 0), (2, 12), (3, 0)]
    assert DEAL_1.gaps() == [(1, 6), (2, 6), (2, 8), (3, 4)]


@pytest.mark.parametrize("name", sorted(ALL_FIXTURES))
def test_a_2_never_goes_anywhere_but_column_0(name):
    position = ALL_FIXTURES[name]
    for twos in ("2S", "2H", "2D", "2C"):
        src = position.slot_of(twos)
        for gap in position.gaps():
            if gap[1] != 0:
                assert not position.is_legal(Move(twos, src, gap))


@pytest.mark.parametrize("name", sorted(ALL_FIXTURES))
def test_a_column_0_gap_takes_every_2(name):
    position = ALL_FIXTURES[name]
    for gap in position.gaps():
        if gap[1] == 0:
            for twos in ("2S", "2H", "2D", "2C"):
                assert position.is_legal(Move(twos, position.slot_of(twos), gap))


def test_a_card_fits_only_after_same_suit_one_lower():
    # ONE_FIT: the gap (0,5) is right of 6S. Try every card on the table there.
    fitting = [
        card
        for card in (r + s for s in "SHDC" for r in "23456789TJQK")
        if ONE_FIT.is_legal(Move(card, ONE_FIT.slot_of(card), (0, 5)))
    ]
    assert fitting == ["7S"]


# --------------------------------------------------------------------------- playing

PLAYS = [
    pytest.param(ONE_FIT, M("7S", (0, 12), (0, 5)), WON, id="7S-completes-the-row"),
    pytest.param(NEAR_WON, M("KS", (0, 12), (0, 11)), WON, id="KS-wins"),
    pytest.param(COLUMN_0_GAP, M("2H", (1, 12), (1, 0)), WON, id="2H-home"),
    # row 0: -- 3S ... KS --   row 1: 2S 3H ... KH 2H
    pytest.param(
        COLUMN_0_GAP,
        M("2S", (0, 0), (1, 0)),
        won_with(((1, 0), (1, 12)), ((0, 0), (1, 0))),
        id="2S-from-column-0-to-column-0",
    ),
    # row 0: 2S 3S 4S 5S 6S -- 8S ... KS --   row 1: 2H ... KH --   row 2: 2D ... KD 7S
    pytest.param(
        GAP_AFTER_GAP, M("6S", (1, 12), (0, 4)), won_with(((0, 5), (2, 12))), id="6S-revives-the-gap-after-it"
    ),
]


@pytest.mark.parametrize("position, move, after", PLAYS)
def test_play_gives_the_position_after_the_move(position, move, after):
    assert position.play(move) == after


def test_a_gap_right_of_a_gap_comes_alive_when_its_neighbour_is_filled():
    after = GAP_AFTER_GAP.play(M("6S", (1, 12), (0, 4)))
    assert after.legal_moves() == [M("7S", (2, 12), (0, 5))]
    assert after.play(M("7S", (2, 12), (0, 5))) == WON


@pytest.mark.parametrize("position, move, after", PLAYS)
def test_play_never_mutates_the_original(position, move, after):
    text, rows, gaps, moves = str(position), position.rows(), position.gaps(), position.legal_moves()
    new = position.play(move)
    assert new is not position
    assert (str(position), position.rows(), position.gaps(), position.legal_moves()) == (text, rows, gaps, moves)
    assert new != position
    with pytest.raises(IllegalMove):
        position.play(Move("9C", (3, 7), (3, 7)))
    assert str(position) == text


def test_positions_are_immutable():
    with pytest.raises(AttributeError):
        ONE_FIT._layout = WON._layout
    with pytest.raises(AttributeError):
        ONE_FIT.anything = 1
    assert str(ONE_FIT).startswith("2S 3S 4S 5S 6S --")


ILLEGAL = [
    pytest.param(ONE_FIT, M("8S", (0, 6), (0, 7)), R.NOT_A_GAP, "slot 0-7 is not a gap (it holds 9S)", id="not-a-gap"),
    pytest.param(ONE_FIT, M("7S", (0, 11), (0, 5)), R.CARD_NOT_THERE, "7S is not at 0-11", id="card-not-at-src"),
    pytest.param(ONE_FIT, M("7S", (0, 5), (0, 5)), R.CARD_NOT_THERE, "7S is not at 0-5", id="src-is-the-gap"),
    pytest.param(
        COLUMN_0_GAP,
        M("3H", (1, 1), (1, 0)),
        R.ONLY_A_TWO,
        "only a 2 goes to column 0, and 3H is not a 2",
        id="only-a-2-to-column-0",
    ),
    pytest.param(
        COLUMN_0_GAP,
        M("KH", (1, 11), (1, 0)),
        R.ONLY_A_TWO,
        "only a 2 goes to column 0, and KH is not a 2",
        id="king-to-column-0",
    ),
    pytest.param(
        ONE_FIT,
        M("7S", (0, 12), (1, 12)),
        R.RIGHT_OF_KING,
        "nothing goes right of a King (KH is left of 1-12)",
        id="right-of-a-king",
    ),
    pytest.param(
        KING_IN_THE_MIDDLE,
        M("6H", (1, 11), (1, 5)),
        R.RIGHT_OF_KING,
        "nothing goes right of a King (KH is left of 1-5)",
        id="right-of-a-king-mid-row",
    ),
    pytest.param(
        GAP_AFTER_GAP,
        M("7S", (2, 12), (0, 5)),
        R.RIGHT_OF_GAP,
        "nothing goes right of a gap (slot 0-4 is a gap)",
        id="right-of-a-gap",
    ),
    pytest.param(
        ONE_FIT,
        M("8S", (0, 6), (0, 5)),
        R.DOES_NOT_FOLLOW,
        "8S does not follow 6S; only 7S goes there",
        id="wrong-rank",
    ),
    pytest.param(
        ONE_FIT,
        M("7H", (1, 5), (0, 5)),
        R.DOES_NOT_FOLLOW,
        "7H does not follow 6S; only 7S goes there",
        id="wrong-suit",
    ),
    pytest.param(
        ONE_FIT,
        M("2H", (1, 0), (0, 5)),
        R.DOES_NOT_FOLLOW,
        "2H does not follow 6S; only 7S goes there",
        id="a-2-elsewhere",
    ),
    pytest.param(
        AFTER_A_TWO,
        M("2H", (1, 0), (0, 1)),
        R.DOES_NOT_FOLLOW,
        "2H does not follow 2S; only 3S goes there",
        id="a-2-after-a-2",
    ),
]


@pytest.mark.parametrize("position, move, reason, message", ILLEGAL)
def test_illegal_moves_are_refused_saying_why(position, move, reason, message):
    """The reason is the code the site turns into the player's words; the message is for people reading logs."""
    assert not position.is_legal(move)
    with pytest.raises(IllegalMove) as caught:
        position.play(move)
    assert caught.value.reason is reason
    assert str(caught.value) == message
    assert isinstance(caught.value, IllegalAction)


# --------------------------------------------------------------------------- locked, won, stuck

LOCKED = [
    pytest.param(WON, full_rows(0, 1, 2, 3), id="won"),
    pytest.param(ONE_FIT, {(0, c) for c in range(5)} | full_rows(1, 2, 3), id="one-fit"),
    pytest.param(BROKEN_BY_SUIT, {(r, c) for r in (0, 1) for c in range(3)} | full_rows(2, 3), id="broken-by-suit"),
    pytest.param(TWOS_SWAPPED, {(0, 0), (1, 0)} | full_rows(2, 3), id="twos-swapped"),
    pytest.param(NO_TWO_IN_COLUMN_0, full_rows(1, 2, 3), id="no-2-in-column-0"),
    pytest.param(COLUMN_0_GAP, full_rows(0, 2, 3), id="column-0-gap"),
    pytest.param(BROKEN_BY_GAP, {(2, 0), (2, 1), (2, 2)} | full_rows(0, 1, 3), id="broken-by-gap"),
    pytest.param(KINGS_SWAPPED, {(r, c) for r in (0, 1) for c in range(11)} | full_rows(2, 3), id="kings-swapped"),
    pytest.param(
        STUCK_WITH_GAP_AFTER_GAP,
        full_rows(0, 1) | {(2, 0), (2, 1), (2, 2), (2, 3)} | {(3, c) for c in range(11)},
        id="stuck",
    ),
    pytest.param(DEAL_1, {(1, 0)}, id="deal-1"),
    pytest.param(
        # row 0: 2S 3S 4S 5S KS ... : only the run 2S..5S
        won_with(((0, 4), (0, 11))),
        {(0, c) for c in range(4)} | full_rows(1, 2, 3),
        id="king-breaks-run",
    ),
]


@pytest.mark.parametrize("position, locked", LOCKED)
def test_locked_is_exactly_the_runs_from_column_0(position, locked):
    assert position.locked() == frozenset(locked)


@pytest.mark.parametrize(
    "position",
    [pytest.param(Position.parse(notation(won_rows(suits))), id=suits) for suits in ("SHDC", "CDHS", "HSCD", "DCSH")],
)
def test_won_with_any_suit_in_any_row(position):
    assert position.is_won()
    assert position.is_stuck()
    assert position.legal_moves() == []


@pytest.mark.parametrize(
    "position",
    [
        pytest.param(NEAR_WON, id="near-won"),
        pytest.param(KINGS_SWAPPED, id="gaps-in-column-12-but-kings-swapped"),
        pytest.param(BROKEN_BY_SUIT, id="gaps-in-column-12-but-fives-swapped"),
        pytest.param(TWOS_SWAPPED, id="gaps-in-column-12-but-twos-swapped"),
        pytest.param(ONE_FIT, id="one-fit"),
        pytest.param(COLUMN_0_GAP, id="column-0-gap"),
        pytest.param(DEAL_1, id="deal-1"),
    ],
)
def test_not_won(position):
    assert not position.is_won()


def test_near_won_is_one_move_from_won():
    assert not NEAR_WON.is_won()
    assert not NEAR_WON.is_stuck()
    assert NEAR_WON.play(NEAR_WON.legal_moves()[0]).is_won()


@pytest.mark.parametrize(
    "position, stuck",
    [
        pytest.param(WON, True, id="won"),
        pytest.param(KINGS_SWAPPED, True, id="every-gap-after-a-king"),
        pytest.param(STUCK_WITH_GAP_AFTER_GAP, True, id="after-kings-and-a-gap"),
        pytest.param(won_with(((1, 4), (1, 11)), ((1, 5), (1, 12))), True, id="king-in-the-middle-only"),
        pytest.param(ONE_FIT, False, id="one-fit"),
        pytest.param(KING_IN_THE_MIDDLE, False, id="one-live-gap"),
        pytest.param(COLUMN_0_GAP, False, id="a-column-0-gap-always-takes-a-2"),
        pytest.param(NEAR_WON, False, id="near-won"),
        pytest.param(DEAL_1, False, id="deal-1"),
    ],
)
def test_is_stuck(position, stuck):
    assert position.is_stuck() is stuck


# --------------------------------------------------------------------------- reading the table


def test_card_at_slot_of_and_rows():
    assert ONE_FIT.card_at((0, 12)) == "7S"
    assert ONE_FIT.card_at((0, 5)) is None
    assert ONE_FIT.slot_of("7S") == (0, 12)
    assert ONE_FIT.slot_of("7s") == (0, 12)
    assert ONE_FIT.rows()[0] == ["2S", "3S", "4S", "5S", "6S", None, "8S", "9S", "TS", "JS", "QS", "KS", "7S"]
    assert ONE_FIT.rows()[3] == [rank + "C" for rank in "23456789TJQK"] + [None]
    with pytest.raises(ValueError):
        ONE_FIT.slot_of("AS")
    with pytest.raises(ValueError):
        ONE_FIT.card_at((4, 0))


# --------------------------------------------------------------------------- move_for_slot

MOVE_FOR_SLOT = [
    pytest.param(ONE_FIT, (0, 12), M("7S", (0, 12), (0, 5)), id="card-to-its-gap"),
    pytest.param(ONE_FIT, (0, 5), M("7S", (0, 12), (0, 5)), id="gap-takes-its-card"),
    pytest.param(ONE_FIT, (0, 6), None, id="card-that-cannot-move"),
    pytest.param(ONE_FIT, (0, 0), None, id="2-in-column-0-without-column-0-gap"),
    pytest.param(ONE_FIT, (1, 12), None, id="gap-right-of-a-king"),
    pytest.param(GAP_AFTER_GAP, (0, 5), None, id="gap-right-of-a-gap"),
    pytest.param(GAP_AFTER_GAP, (1, 12), M("6S", (1, 12), (0, 4)), id="card-into-gap-before-a-gap"),
    pytest.param(KING_IN_THE_MIDDLE, (1, 4), None, id="king-cannot-move"),
    pytest.param(NEAR_WON, (0, 12), M("KS", (0, 12), (0, 11)), id="king-to-its-gap"),
    # two column-0 gaps (1,0) and (3,0): a 2 goes to the topmost, from wherever it is
    pytest.param(TWO_COLUMN_0_GAPS, (1, 12), M("2H", (1, 12), (1, 0)), id="2H-to-topmost"),
    pytest.param(TWO_COLUMN_0_GAPS, (3, 12), M("2C", (3, 12), (1, 0)), id="2C-to-topmost"),
    pytest.param(TWO_COLUMN_0_GAPS, (0, 0), M("2S", (0, 0), (1, 0)), id="2S-in-column-0-to-topmost"),
    pytest.param(TWO_COLUMN_0_GAPS, (2, 0), M("2D", (2, 0), (1, 0)), id="2D-in-column-0-to-topmost"),
    # a column-0 gap takes the topmost 2 not already in column 0 (2H at (1,12), though 2S at (0,0) is higher)
    pytest.param(TWO_COLUMN_0_GAPS, (1, 0), M("2H", (1, 12), (1, 0)), id="upper-column-0-gap"),
    pytest.param(TWO_COLUMN_0_GAPS, (3, 0), M("2H", (1, 12), (3, 0)), id="lower-column-0-gap"),
    pytest.param(COLUMN_0_GAP, (1, 0), M("2H", (1, 12), (1, 0)), id="three-2s-in-column-0"),
    pytest.param(COLUMN_0_THEN_ORDINARY, (2, 5), M("7D", (2, 12), (2, 5)), id="ordinary-gap-with-column-0-gap"),
    pytest.param(COLUMN_0_THEN_ORDINARY, (2, 12), M("7D", (2, 12), (2, 5)), id="ordinary-card-with-column-0-gap"),
    pytest.param(WON, (0, 12), None, id="won-gap"),
    pytest.param(WON, (2, 5), None, id="won-card"),
]


@pytest.mark.parametrize("position, slot, expected", MOVE_FOR_SLOT)
def test_move_for_slot(position, slot, expected):
    assert position.move_for_slot(slot) == expected


def test_column_0_gap_picks_topmost_fresh_2_by_row_then_column():
    # row 0: 2S 3S ... KS --
    # row 1: -- 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H
    # row 2: 2D ... ; row 3: -- 3C ... KC 2C   then 2C and 2H trade places:
    # 2C now at (1,12) and 2H at (3,12): the 2 in the higher row is 2C.
    position = won_with(((1, 0), (1, 12)), ((3, 0), (3, 12)), ((1, 12), (3, 12)))
    assert position.card_at((1, 12)) == "2C"
    assert position.move_for_slot((3, 0)) == M("2C", (1, 12), (3, 0))
    assert position.move_for_slot((1, 0)) == M("2C", (1, 12), (1, 0))


@pytest.mark.parametrize("name", sorted(ALL_FIXTURES))
def test_move_for_slot_is_always_a_legal_move_or_none(name):
    position = ALL_FIXTURES[name]
    legal = position.legal_moves()
    for r in range(4):
        for c in range(13):
            move = position.move_for_slot((r, c))
            if move is None:
                assert not any((r, c) in (m.src, m.dst) for m in legal)
            else:
                assert move in legal
                assert (r, c) in (move.src, move.dst)


def test_a_column_0_gap_always_has_a_2_outside_column_0():
    """Why the rule's fallback "else the topmost 2" never happens: with one column-0 gap only
    three column-0 slots are left for four 2s, so a 2 outside column 0 always exists."""
    for position in (COLUMN_0_GAP, TWO_COLUMN_0_GAPS, won_with(*[((r, 0), (r, 12)) for r in range(4)])):
        for gap in position.gaps():
            if gap[1] == 0:
                move = position.move_for_slot(gap)
                assert move.card.startswith("2") and move.src[1] != 0
