"""Position and move notation (docs/RULES.md, "Position notation")."""

import pytest

from games.engine import (
    NOTHING_HELPS,
    SHUFFLE_NOW,
    Hint,
    HintKind,
    InvalidNotation,
    Move,
    Position,
    deal,
    parse_slot,
    slot_name,
)  # fmt: skip
from tests.engine.layouts import WON_TEXT, notation, rows_with, won_rows

# A deal written by hand in canonical form (deal 1, pinned in test_deals_and_shuffles.py).
DEAL_1 = (
    "7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S / 2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC / "
    "TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD / QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C"
)

CANONICAL_TEXTS = [
    pytest.param(WON_TEXT, id="won"),
    pytest.param(notation(won_rows("CDHS")), id="won-other-suit-order"),
    pytest.param(
        notation(rows_with(((0, 0), (0, 12)), ((1, 0), (1, 12)), ((2, 0), (2, 12)), ((3, 0), (3, 12)))),
        id="gaps-in-column-0",
    ),
    pytest.param(DEAL_1, id="deal-1"),
]


@pytest.mark.parametrize("text", CANONICAL_TEXTS)
def test_canonical_text_round_trips_exactly(text):
    assert str(Position.parse(text)) == text


@pytest.mark.parametrize("text", CANONICAL_TEXTS)
def test_position_constructor_is_parse(text):
    assert Position(text) == Position.parse(text)


@pytest.mark.parametrize("text", CANONICAL_TEXTS)
def test_repr_pastes_back(text):
    p = Position.parse(text)
    assert repr(p).startswith("Position(")
    assert eval(repr(p), {"Position": Position}) == p  # noqa: S307


def test_parse_of_str_of_a_deal_is_the_deal():
    for number in (1, 2, 3, 99, 2**63 - 1):
        p = deal(number)
        assert Position.parse(str(p)) == p
        assert str(Position.parse(str(p))) == str(p)


def _untidy(text: str) -> str:
    """The same position with lower case and untidy white space (tabs, newlines, runs)."""
    rows = text.lower().split(" / ")
    return "\n  " + " /\t\n".join("   ".join(row.split(" ")) for row in rows) + "  \n"


@pytest.mark.parametrize(
    "untidy, canonical",
    [
        pytest.param(_untidy(WON_TEXT), WON_TEXT, id="won-untidy"),
        pytest.param(_untidy(DEAL_1), DEAL_1, id="deal-1-untidy"),
        pytest.param(DEAL_1.replace(" / ", "/"), DEAL_1, id="no-space-around-slash"),
        pytest.param(DEAL_1.replace("7H 9S", "7h\t9s").replace("KC", "kC"), DEAL_1, id="mixed-case"),
    ],
)
def test_lower_case_and_extra_white_space_read_as_the_canonical_form(untidy, canonical):
    assert untidy != canonical
    p = Position.parse(untidy)
    assert str(p) == canonical
    assert p == Position.parse(canonical)


def _replace_slot(text: str, row: int, col: int, token: str) -> str:
    rows = [r.split() for r in text.split(" / ")]
    rows[row][col] = token
    return notation(rows)


def _row_with(text: str, row: int, tokens: list[str]) -> str:
    rows = [r.split() for r in text.split(" / ")]
    rows[row] = tokens
    return notation(rows)


_WON_ROWS = WON_TEXT.split(" / ")

# (text, the fragments the message must contain, lower-cased)
BAD_POSITIONS = [
    pytest.param(" / ".join(_WON_ROWS[:3]), ["4 rows", "3"], id="three-rows"),
    pytest.param(" / ".join(_WON_ROWS + [_WON_ROWS[0]]), ["4 rows", "5"], id="five-rows"),
    pytest.param(" ".join(_WON_ROWS), ["4 rows", "1"], id="no-slashes"),
    pytest.param("", ["4 rows"], id="empty"),
    pytest.param(WON_TEXT + " /", ["4 rows", "5"], id="trailing-slash"),
    pytest.param(
        _row_with(WON_TEXT, 2, "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD".split()), ["row 2", "12"], id="row-2-has-12"
    ),
    pytest.param(
        _row_with(WON_TEXT, 1, "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH -- --".split()), ["row 1", "14"], id="row-1-has-14"
    ),
    pytest.param(
        _row_with(WON_TEXT, 0, "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS --".split()[:12] + ["--", "--"]),
        ["row 0", "14"],
        id="row-0-has-14",
    ),
    pytest.param(_replace_slot(WON_TEXT, 1, 4, "XX"), ["row 1", "column 4", "unknown", "xx"], id="unknown-XX"),
    pytest.param(_replace_slot(WON_TEXT, 3, 9, "10C"), ["row 3", "column 9", "unknown", "10c"], id="unknown-10C"),
    pytest.param(_replace_slot(WON_TEXT, 0, 0, "2Z"), ["row 0", "column 0", "unknown", "2z"], id="unknown-suit"),
    pytest.param(_replace_slot(WON_TEXT, 2, 12, "-"), ["row 2", "column 12", "unknown", "'-'"], id="single-dash"),
    pytest.param(_replace_slot(WON_TEXT, 2, 5, "1D"), ["row 2", "column 5", "unknown", "1d"], id="rank-1"),
    pytest.param(_replace_slot(WON_TEXT, 1, 12, "5S"), ["duplicate", "5s", "row 1", "column 12"], id="dup-5S"),
    pytest.param(_replace_slot(WON_TEXT, 3, 12, "kd"), ["duplicate", "kd", "row 3", "column 12"], id="dup-kd"),
    pytest.param(_replace_slot(WON_TEXT, 2, 12, "AH"), ["ace", "ah", "row 2", "column 12"], id="ace-AH"),
    pytest.param(_replace_slot(WON_TEXT, 0, 12, "as"), ["ace", "as", "row 0", "column 12"], id="ace-lower"),
    pytest.param(_replace_slot(WON_TEXT, 0, 3, "--"), ["4 gaps", "5"], id="five-gaps"),
    pytest.param(_replace_slot(_replace_slot(WON_TEXT, 0, 3, "--"), 3, 3, "--"), ["4 gaps", "6"], id="six-gaps"),
]


@pytest.mark.parametrize("text, fragments", BAD_POSITIONS)
def test_bad_text_is_refused_saying_what_and_where(text, fragments):
    with pytest.raises(InvalidNotation) as caught:
        Position.parse(text)
    message = str(caught.value).lower()
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


@pytest.mark.parametrize("value", [None, 42, 4.5, b"2S 3S", ["2S"], ("--",)], ids=repr)
def test_non_text_is_refused(value):
    with pytest.raises(InvalidNotation, match="text"):
        Position.parse(value)


def test_invalid_notation_is_a_value_error():
    assert issubclass(InvalidNotation, ValueError)
    with pytest.raises(ValueError):
        Position.parse("nonsense")


# --------------------------------------------------------------------------- moves

MOVES = [
    pytest.param(Move("7H", (1, 4), (1, 5)), "7H:1-4>1-5", id="7H"),
    pytest.param(Move("2C", (3, 12), (0, 0)), "2C:3-12>0-0", id="2C-to-column-0"),
    pytest.param(Move("KD", (0, 0), (3, 12)), "KD:0-0>3-12", id="corners"),
    pytest.param(Move("td", (2, 7), (2, 9)), "TD:2-7>2-9", id="lower-case-card"),
]


@pytest.mark.parametrize("move, text", MOVES)
def test_move_text_form(move, text):
    assert str(move) == text
    assert Move.parse(text) == move
    assert Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move  # noqa: S307


@pytest.mark.parametrize("move, text", MOVES)
def test_move_parse_accepts_lower_case_and_surrounding_space(move, text):
    assert Move.parse(f"  {text.lower()}\n") == move


def test_move_fields():
    m = Move.parse("9c:2-3>0-11")
    assert (m.card, m.src, m.dst) == ("9C", (2, 3), (0, 11))


def test_every_card_and_slot_pair_round_trips():
    for card in ("2S", "9H", "TD", "KC"):
        for src in ((0, 0), (1, 7), (3, 12)):
            for dst in ((0, 12), (2, 0), (3, 5)):
                m = Move(card, src, dst)
                assert (m.card, m.src, m.dst) == (card, src, dst)
                assert Move.parse(str(m)) == m


BAD_MOVES = [
    "",
    "7H",
    "7H:",
    "7H:1-4",
    "7H:1-4>",
    "7H 1-4 1-5",
    "7H:1-4>1-5>2-2",
    "7H:1-4:1-5",
    "7H:1-4-0>1-5",
    "7H:1>1-5",
    "7H:a-4>1-5",
    "7H:1-4>1-13",
    "7H:4-0>1-5",
    "7H:-1-4>1-5",
    "AH:1-4>1-5",
    "XX:1-4>1-5",
    "1H:1-4>1-5",
    "--:1-4>1-5",
    ":1-4>1-5",
]


@pytest.mark.parametrize("text", BAD_MOVES)
def test_bad_move_text_is_refused(text):
    with pytest.raises(InvalidNotation) as caught:
        Move.parse(text)
    assert "not a move" in str(caught.value)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize(
    "card, src, dst",
    [
        ("AS", (0, 0), (0, 1)),
        ("XX", (0, 0), (0, 1)),
        ("7H", (4, 0), (0, 1)),
        ("7H", (0, 0), (0, 13)),
        ("7H", (-1, 0), (0, 1)),
        (None, (0, 0), (0, 1)),
    ],
)
def test_move_constructor_refuses_what_is_not_a_card_or_slot(card, src, dst):
    with pytest.raises(ValueError):
        Move(card, src, dst)


def test_moves_are_immutable():
    m = Move("7H", (1, 4), (1, 5))
    with pytest.raises(AttributeError):
        m.card = "8H"
    assert str(m) == "7H:1-4>1-5"


# --------------------------------------------------------------------------- slots and hints


def test_every_slot_name_reads_back_as_its_slot():
    slots = [(row, col) for row in range(4) for col in range(13)]
    assert [parse_slot(slot_name(slot)) for slot in slots] == slots
    assert slot_name((2, 11)) == "2-11"


@pytest.mark.parametrize("text", ["", "1", "1-", "-1", "4-0", "0-13", "01-2", "1-02", " 1-2", "1-2 ", "a-b", "1_2"])
def test_what_is_not_a_slot_name_is_refused(text):
    with pytest.raises(InvalidNotation, match="not a slot"):
        parse_slot(text)


@pytest.mark.parametrize("slot", [(4, 0), (0, 14), (-1, 0), ("1", 2)])
def test_a_slot_off_the_table_has_no_name(slot):
    with pytest.raises(ValueError, match="not a slot"):
        slot_name(slot)


@pytest.mark.parametrize(
    ("advice", "text"),
    [(Move("7H", (1, 4), (1, 5)), "1-4>1-5"), (Move("2S", (3, 12), (0, 0)), "3-12>0-0"), ("shuffle", "shuffle"),
     (None, "none")],
)  # fmt: skip
def test_a_hint_is_written_and_read_back_as_a_value(advice, text):
    hint = Hint.of(advice)
    assert str(hint) == text and Hint.parse(text) == hint
    assert (hint.kind is HintKind.MOVE) == isinstance(advice, Move)
    if isinstance(advice, Move):
        assert (hint.src, hint.dst) == (advice.src, advice.dst)
    else:
        assert hint in (SHUFFLE_NOW, NOTHING_HELPS)


@pytest.mark.parametrize("text", ["", "1-4", "1-4>", "1-4>1-5>2-2", "7H:1-4>1-5", "Shuffle", "nothing"])
def test_what_is_not_a_hint_is_refused(text):
    with pytest.raises(InvalidNotation):
        Hint.parse(text)
