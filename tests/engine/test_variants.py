"""The family's variants (docs/RULES.md, "The variants"; issue 29): each one's deal, moves,
shuffles, what is in place and what wins, pinned on known deals.

The openings and the shuffles are checked against plain reference implementations written
here from the documented definitions (with the reference SplitMix64 and Fisher-Yates of
test_deals_and_shuffles.py), and against layouts pinned below, made once with them.
Where the family's references disagree, the reading pinned is PySolFC's Montana family
(pysollib/games/montana.py), as docs/RULES.md says.
"""

import pickle

import pytest

from games import solver
from games.engine import (
    ADDICTION,
    BLUE_MOON,
    MONTANA,
    RED_MOON,
    SPACES,
    VARIANTS,
    ActionKind,
    GameState,
    IllegalAction,
    IllegalMove,
    InvalidNotation,
    Move,
    Position,
    Refusal,
    Status,
    deal,
    parse_slot,
    variant_of,
)
from tests.engine.test_deals_and_shuffles import DECK, ref_fisher_yates, ref_splitmix64

MOONS = [BLUE_MOON, RED_MOON]
GAPS_AFTER_RUNS = [MONTANA, BLUE_MOON, RED_MOON]
RANKS = "A23456789TJQK"


def rows_text(tokens, cols):
    return " / ".join(" ".join(tokens[r * cols : (r + 1) * cols]) for r in range(4))


def ref_opening(number, variant):
    """A deal's opening as docs/RULES.md, "Deal", writes each variant's."""
    deck = list(DECK)
    ref_fisher_yates(deck, ref_splitmix64(number))
    if variant.cols == 13:
        return rows_text(["--" if card[0] == "A" else card for card in deck], 13)
    if variant is BLUE_MOON:
        tokens = []
        for r in range(4):
            tokens += ["--", *deck[r * 13 : r * 13 + 13]]
        aces = [i for i, card in enumerate(tokens) if card[0] == "A"]
        for row, i in enumerate(aces):
            tokens[row * 14], tokens[i] = tokens[i], "--"
        return rows_text(tokens, 14)
    rest = [card for card in deck if card[0] != "A"]
    tokens = []
    for r, suit in enumerate("SHDC"):
        tokens += ["A" + suit, "--", *rest[r * 12 : r * 12 + 12]]
    return rows_text(tokens, 14)


def ref_runs(tokens, cols, aces_stay):
    """Each row's run from column 0: 2, 3, ... of a suit, or A, 2, ... where the aces stay."""
    runs = []
    head = "A" if aces_stay else "2"
    for r in range(4):
        row = tokens[r * cols : (r + 1) * cols]
        run = 0
        if row[0][0] == head:
            run = 1
            while (
                run < cols
                and row[run] != "--"
                and row[run][1] == row[0][1]
                and (RANKS.index(row[run][0]) == RANKS.index(row[run - 1][0]) + 1)
            ):
                run += 1
        runs.append(run)
    return runs


def ref_shuffle_after_runs(text, seed, variant):
    """Montana's and the moons' shuffle as documented: the cards not in place, in deck order,
    shuffled with SplitMix64(seed), dealt in slot order into the slots not in place but the
    first of each row, which is its gap."""
    cols = variant.cols
    tokens = text.replace("/", " ").split()
    runs = ref_runs(tokens, cols, variant.aces_stay)
    free = [r * cols + c for r in range(4) for c in range(runs[r], cols)]
    cards = sorted((tokens[i] for i in free if tokens[i] != "--"), key=DECK.index)
    ref_fisher_yates(cards, ref_splitmix64(seed))
    gaps = {r * cols + runs[r] for r in range(4)}
    for i in free:
        tokens[i] = "--" if i in gaps else cards.pop(0)
    return rows_text(tokens, cols)


# --------------------------------------------------------------------------- the values


def test_each_variant_is_the_rules_of_its_game():
    table = {v.key: (v.cols, v.cards, v.shuffles, v.aces_stay, v.gaps_after_runs) for v in VARIANTS.values()}
    assert table == {
        "addiction": (13, 48, 3, False, False),
        "montana": (13, 48, 2, False, True),
        "spaces": (13, 48, 2, False, False),
        "blue-moon": (14, 52, 2, True, True),
        "red-moon": (14, 52, 2, True, True),
    }
    assert list(VARIANTS)[0] == "addiction"


def test_a_variant_is_named_by_its_key_and_only_by_it():
    assert variant_of("montana") is MONTANA and variant_of(None) is ADDICTION and variant_of(SPACES) is SPACES
    for wrong in ("Montana", "gaps", "", 3):
        with pytest.raises(ValueError, match="not a variant"):
            variant_of(wrong)


# --------------------------------------------------------------------------- deals

PINNED = {
    (BLUE_MOON, 1): "AH 7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S / AC 2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC / "
    "AD TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD / AS QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C",
    (BLUE_MOON, 2**63 - 1): "AD 5S JS 8D -- TH 9D 2S TS 8C QD 3D 3S TC / AC QS 8H -- 2H 7H 7D JC KD 3H 9C QH KS JD / "
    "AH 7S 5H 6H 9H -- 6C 6S 2C 4C 9S 5C 6D TD / AS 4H -- 7C 8S KH 3C 4D JH 2D 4S QC 5D KC",
    (RED_MOON, 1): "AS -- 7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH / AH -- 3S 2H JD 5D 7D 4D 2S 6C KS KD TD TC / "
    "AD -- JC TH 8C QS 4C 6S 7S 5S KC 6D QC QD / AC -- QH 9H 3H 3C 4S 2D 8S TS 3D 2C 9D 7C",
    (RED_MOON, 2**63 - 1): "AS -- 5S JS 8D TH 9D 2S TS 8C QD 3D 3S TC / AH -- QS 8H 2H 7H 7D JC KD 3H 9C QH KS JD / "
    "AD -- 7S 5H 6H 9H 6C 6S 2C 4C 9S 5C 6D TD / AC -- 4H 7C 8S KH 3C 4D JH 2D 4S QC 5D KC",
}
ADDICTION_DEAL_1 = (
    "7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S / 2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC / "
    "TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD / QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C"
)


@pytest.mark.parametrize(("variant", "number"), PINNED, ids=[f"{v.key}-{n}" for v, n in PINNED])
def test_moon_deals_are_pinned_forever(variant, number):
    assert str(deal(number, variant)) == PINNED[variant, number] == ref_opening(number, variant)


@pytest.mark.parametrize("variant", [MONTANA, SPACES], ids=lambda v: v.key)
def test_montana_and_spaces_deal_as_addiction_does(variant):
    """Same deck, same opening (aces out): deal n is one table in the three, each with its own boards."""
    assert str(deal(1, variant)) == ADDICTION_DEAL_1 == str(deal(1))
    assert deal(1, variant).variant is variant


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=lambda v: v.key)
@pytest.mark.parametrize("number", [2, 3, 1000, 123_456_789, 2**40 + 7])
def test_every_deal_agrees_with_the_documented_opening(variant, number):
    position = deal(number, variant)
    assert str(position) == ref_opening(number, variant)
    assert len(position.gaps()) == 4
    assert sum(token is not None for row in position.rows() for token in row) == variant.cards


@pytest.mark.parametrize("number", range(1, 30))
def test_red_moon_opens_with_a_gap_after_each_ace_and_blue_moon_with_the_aces_heading_the_rows(number):
    red, blue = deal(number, RED_MOON), deal(number, BLUE_MOON)
    assert [row[:2] for row in red.rows()] == [["AS", None], ["AH", None], ["AD", None], ["AC", None]]
    assert sorted(row[0] for row in blue.rows()) == ["AC", "AD", "AH", "AS"]
    assert all(col > 0 for _, col in blue.gaps())


# --------------------------------------------------------------------------- notation


def test_a_moon_position_is_four_rows_of_fourteen():
    text = PINNED[RED_MOON, 1]
    position = Position.parse(text, RED_MOON)
    assert str(position) == text and position == pickle.loads(pickle.dumps(position))
    assert position.card_at((0, 13)) == "KH" and position.card_at((0, 0)) == "AS"
    with pytest.raises(InvalidNotation, match="not 13"):
        Position.parse(text)  # Addiction's table is 13 wide
    with pytest.raises(InvalidNotation, match="not 14"):
        Position.parse(ADDICTION_DEAL_1, BLUE_MOON)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        pytest.param(PINNED[RED_MOON, 1].replace("AS --", "-- AS", 1), "column 0", id="ace-out-of-column-0"),
        pytest.param(PINNED[RED_MOON, 1].replace("AS -- 7H", "7H -- AS", 1), "column 0", id="card-in-column-0"),
        pytest.param(PINNED[RED_MOON, 1].replace("KH", "AS", 1), "column", id="ace-twice"),
    ],
)
def test_a_moon_position_keeps_its_aces_in_column_0(text, words):
    with pytest.raises(InvalidNotation, match=words):
        Position.parse(text, RED_MOON)


def test_slots_and_moves_of_column_13_are_the_wide_tables_only():
    assert parse_slot("2-13", cols=14) == (2, 13)
    with pytest.raises(InvalidNotation):
        parse_slot("2-13")
    assert str(Move.parse("KH:0-13>0-12", cols=14)) == "KH:0-13>0-12"
    with pytest.raises(InvalidNotation):
        Move.parse("KH:0-13>0-12")
    with pytest.raises(ValueError, match="an ace never moves"):
        Move("AS", (0, 0), (0, 1), cols=14)


# --------------------------------------------------------------------------- moves


def test_a_gap_right_of_an_ace_takes_that_suits_2_only():
    position = deal(1, RED_MOON)
    moves = {str(m) for m in position.legal_moves()}
    assert moves == {"2S:1-8>0-1", "2H:1-3>1-1", "2D:3-7>2-1", "2C:3-11>3-1"}
    assert position.move_for_slot((0, 1)) == Move("2S", (1, 8), (0, 1), cols=14)
    with pytest.raises(IllegalMove) as refused:
        position.play(Move("2H", (1, 3), (0, 1), cols=14))
    assert refused.value.reason is Refusal.DOES_NOT_FOLLOW


def test_an_ace_never_moves_and_is_in_place():
    position = deal(1, BLUE_MOON)
    assert position.move_for_slot((0, 0)) is None
    assert {(r, 0) for r in range(4)} <= position.locked()
    game = GameState.start(deal_number=1, seed=7, variant=BLUE_MOON)
    with pytest.raises(IllegalMove) as refused:
        game.act(ActionKind.MOVE, slot=(0, 0), to=(1, 7))
    assert refused.value.reason is Refusal.CANNOT_MOVE


def test_column_13_is_off_an_addiction_table():
    game = GameState.start(deal_number=1, seed=7, variant=MONTANA)
    with pytest.raises(IllegalMove) as refused:
        game.act(ActionKind.MOVE, slot=(1, 13))
    assert refused.value.reason is Refusal.NOT_A_GAP and "not on this table" in str(refused.value)


# --------------------------------------------------------------------------- shuffles


@pytest.mark.parametrize("variant", GAPS_AFTER_RUNS, ids=lambda v: v.key)
@pytest.mark.parametrize("number", [1, 2, 3, 77, 4242])
@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_a_shuffle_leaves_each_rows_gap_right_after_its_run(variant, number, seed):
    position = deal(number, variant)
    runs = position._locked_runs()
    shuffled = position.shuffle(seed)
    assert str(shuffled) == ref_shuffle_after_runs(str(position), seed, variant)
    assert shuffled.gaps() == [(r, runs[r]) for r in range(4)]
    assert position.locked() <= shuffled.locked()
    assert shuffled._locked_runs() == runs  # a gap right after each run: none can grow by luck
    cards = sorted(t for row in shuffled.rows() for t in row if t)
    assert cards == sorted(t for row in position.rows() for t in row if t)


def test_montana_puts_the_gap_of_a_row_with_no_run_in_column_0_and_of_a_finished_row_in_column_12():
    """The PySolFC reading (pysollib/games/montana.py, Montana_Talon.dealCards): the gap of a
    row goes right after its run, a finished row's after its King."""
    text = MONTANA.won.replace("2H", "XX").replace("2D", "2H").replace("XX", "2D")  # rows 1 and 2 lead with a wrong 2
    text = text.replace("2C 3C", "3C 2C")  # row 3 has no run
    position = Position.parse(text, MONTANA)
    assert position._locked_runs() == [12, 1, 1, 0]
    assert position.shuffle(5).gaps() == [(0, 12), (1, 1), (2, 1), (3, 0)]


def test_a_finished_moon_row_keeps_its_gap_in_column_13():
    text = BLUE_MOON.won.replace("2H 3H", "3H 2H")
    position = Position.parse(text, BLUE_MOON)
    assert position.shuffle(9).gaps() == [(0, 13), (1, 1), (2, 13), (3, 13)]


def test_spaces_shuffles_as_addiction_does():
    """Spaces is Addiction with 2 shuffles: the same gaps-anywhere shuffle (PySolFC's Spaces_Talon)."""
    for number in (1, 2, 3):
        a = GameState.start(deal_number=number, seed=99)
        s = GameState.start(deal_number=number, seed=99, variant=SPACES)
        assert str(a.shuffle().position) == str(s.shuffle().position)


@pytest.mark.parametrize("variant", [MONTANA, SPACES, BLUE_MOON, RED_MOON], ids=lambda v: v.key)
def test_two_shuffles_then_none(variant):
    game = GameState.start(deal_number=5, seed=11, variant=variant)
    assert game.shuffles_left == 2
    game = game.shuffle()
    if not game.is_over:
        game = game.shuffle()
    assert game.shuffles_left == 0
    if not game.is_over:
        with pytest.raises(IllegalAction) as refused:
            game.shuffle()
        assert refused.value.reason is Refusal.NO_SHUFFLE_LEFT


def test_addiction_keeps_its_three_shuffles():
    assert GameState.start(deal_number=5, seed=11).shuffles_left == 3


def test_stuck_after_the_last_shuffle_is_lost_in_montana():
    # Every gap right of a King: nothing moves.
    stuck = Position.parse(
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS -- / 2H 3H 4H 5H 6H 7H 8H 9H TH JH KD -- QH / "
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KH -- / 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --",
        MONTANA,
    )
    assert stuck.is_stuck()
    game = GameState(stuck, seed=1, deal_number=1, shuffles_used=1)
    after = game.shuffle()
    # The shuffle deals the 2 cards not in place after each run's gap; whatever it deals, a
    # stuck table with no shuffle left ends the game lost, a winnable one goes on.
    assert after.shuffles_used == 2
    assert after.status is (Status.LOST if after.position.is_stuck() else Status.PLAYING)


# --------------------------------------------------------------------------- the end


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=lambda v: v.key)
def test_the_won_table_of_each_variant_is_won_and_one_move_before_it_is_not(variant):
    won = Position.parse(variant.won, variant)
    assert won.is_won() and won.legal_moves() == []
    assert len(won.locked()) == variant.cards
    last = "QS KS --"
    near = Position.parse(variant.won.replace(last, "QS -- KS"), variant)
    assert not near.is_won()
    game = GameState(near, seed=1, deal_number=1)
    game, move = game.act(ActionKind.MOVE, slot=(0, variant.cols - 2))
    assert game.status is Status.WON and str(move) == f"KS:0-{variant.cols - 1}>0-{variant.cols - 2}"


def test_a_moon_win_needs_the_aces_heading_their_suits():
    """Each row runs A..K of one suit, whichever suit each row has."""
    swapped = BLUE_MOON.won.split(" / ")
    position = Position.parse(" / ".join([swapped[1], swapped[0], swapped[3], swapped[2]]), BLUE_MOON)
    assert position.is_won()


# --------------------------------------------------------------------------- hints


@pytest.mark.parametrize("variant", MOONS, ids=lambda v: v.key)
def test_a_moon_hint_is_a_legal_move_and_a_one_move_win_is_found(variant):
    near = Position.parse(variant.won.replace("QD KD --", "QD -- KD"), variant)
    assert solver.hint(near, 0) == Move("KD", (2, 13), (2, 12), cols=14)
    assert solver.solve(near).won
    opening = deal(3, variant)
    advice = solver.hint(opening, 2, budget=2_000)
    assert advice == solver.SHUFFLE or opening.is_legal(advice)


@pytest.mark.parametrize(
    ("variant", "number", "seed"),
    [(MONTANA, 1, 7), (SPACES, 1, 7), (BLUE_MOON, 1, 7), (RED_MOON, 1, 7)],
    ids=lambda value: getattr(value, "key", str(value)),
)
def test_following_the_hints_wins_a_known_deal_of_each_variant(variant, number, seed):
    game = GameState.start(deal_number=number, seed=seed, variant=variant)
    followed = solver.follow_hints(game, deep_budget=100_000)
    assert followed.state.status is Status.WON
    assert followed.state.position.is_won()
