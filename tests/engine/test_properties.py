"""Properties of the engine over random deals, random moves and random shuffles."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import MAX_DEAL, GameState, IllegalMove, Move, Position, Status, deal
from tests.engine.layouts import ALL_48_CARDS, cards_of, tokens
from tests.helpers import examples

FEW = settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOME = settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])

deal_numbers = st.integers(1, MAX_DEAL)
seeds = st.integers(0, 2**64 - 1)
# Long walks draw their choices from a Random seeded by Hypothesis rather than from
# st.randoms(), which would record every one of hundreds of draws as test data.
walkers = st.integers(0, 2**32 - 1).map(random.Random)
RANKS = "23456789TJQK"


def walk(position, rnd, steps):
    """Positions met on a random walk: random legal moves, and a shuffle now and then or when stuck."""
    yield position
    for _ in range(steps):
        moves = position.legal_moves()
        if not moves or rnd.random() < 0.05:
            position = position.shuffle(rnd.getrandbits(64))
        else:
            position = position.play(rnd.choice(moves))
        yield position


@st.composite
def positions(draw):
    rnd = draw(st.randoms(use_true_random=False))
    *_, last = walk(deal(draw(deal_numbers)), rnd, draw(st.integers(0, 40)))
    return last


def rule_allows(toks, card, src, gap):
    """docs/RULES.md, "Moves", straight from the 52 tokens (no engine involved)."""
    s, g = src[0] * 13 + src[1], gap[0] * 13 + gap[1]
    if toks[s] != card or toks[g] != "--":
        return False
    if gap[1] == 0:
        return card[0] == "2"
    left = toks[g - 1]
    if left == "--" or left[0] == "K":
        return False
    return card == RANKS[RANKS.index(left[0]) + 1] + left[1]


def check_table(position):
    assert cards_of(position) == ALL_48_CARDS
    gaps = position.gaps()
    assert len(gaps) == 4
    assert gaps == sorted(gaps)
    assert gaps == [(r, c) for r, row in enumerate(position.rows()) for c, x in enumerate(row) if x is None]


# --------------------------------------------------------------------------- the table


@SOME
@given(deal_numbers, walkers)
def test_every_move_and_shuffle_keeps_48_cards_and_4_gaps(number, rnd):
    for position in walk(deal(number), rnd, 60):
        check_table(position)


@SOME
@given(positions(), seeds)
def test_a_shuffle_never_moves_a_locked_card_and_is_a_function_of_position_and_seed(position, seed):
    after = position.shuffle(seed)
    locked = position.locked()
    for slot in locked:
        assert after.card_at(slot) == position.card_at(slot)
    assert not set(after.gaps()) & locked
    assert after.locked() >= locked
    check_table(after)
    assert Position.parse(str(position)).shuffle(seed) == after
    assert position.shuffle(seed) == after


@SOME
@given(positions())
def test_notation_round_trips(position):
    text = str(position)
    again = Position.parse(text)
    assert again == position and hash(again) == hash(position)
    assert str(again) == text
    assert Position.parse(text.lower().replace(" ", "  ")) == position
    assert eval(repr(position), {"Position": Position}) == position  # noqa: S307


@SOME
@given(positions(), positions())
def test_hash_and_equality_agree(p, q):
    assert (p == q) == (str(p) == str(q)) == (tokens(p) == tokens(q))
    if p == q:
        assert hash(p) == hash(q)
    assert p == Position.parse(str(p)) and hash(p) == hash(Position.parse(str(p)))
    assert len({p, Position.parse(str(p)), q}) == (1 if p == q else 2)


@SOME
@given(positions())
def test_locked_is_the_runs_from_column_0(position):
    toks = tokens(position)
    expected = set()
    for r in range(4):
        want = None
        for c in range(13):
            t = toks[r * 13 + c]
            if (c == 0 and t[0] != "2") or (c > 0 and t != want):
                break
            expected.add((r, c))
            i = RANKS.index(t[0])
            want = RANKS[i + 1] + t[1] if i < 11 else None
    assert position.locked() == expected


# --------------------------------------------------------------------------- moves

ALL_SLOTS = [(r, c) for r in range(4) for c in range(13)]
ALL_CARDS = [rank + suit for suit in "SHDC" for rank in RANKS]


@FEW
@given(positions())
def test_legal_moves_are_exactly_the_moves_the_rules_allow(position):
    toks = tokens(position)
    gaps = position.gaps()
    allowed = []
    for card in ALL_CARDS:
        for src in ALL_SLOTS:
            for gap in gaps:
                move = Move(card, src, gap)
                legal = rule_allows(toks, card, src, gap)
                assert position.is_legal(move) == legal, move
                if legal:
                    allowed.append(move)
    listed = position.legal_moves()
    assert sorted(allowed, key=lambda m: (m.dst, m.src)) == listed


@SOME
@given(positions())
def test_every_listed_move_plays_and_moves_exactly_one_card(position):
    before = tokens(position)
    for move in position.legal_moves():
        after = tokens(position.play(move))
        s, d = move.src[0] * 13 + move.src[1], move.dst[0] * 13 + move.dst[1]
        expected = list(before)
        expected[d], expected[s] = move.card, "--"
        assert after == expected
    assert tokens(position) == before  # play never changed the position


@SOME
@given(positions(), st.sampled_from(ALL_CARDS), st.sampled_from(ALL_SLOTS), st.sampled_from(ALL_SLOTS))
def test_anything_not_listed_is_refused_by_play(position, card, src, dst):
    move = Move(card, src, dst)
    if move in position.legal_moves():
        assert position.play(move) != position
    else:
        try:
            position.play(move)
        except IllegalMove as refused:
            assert str(refused)
        else:
            raise AssertionError(f"{move} was played but is not listed")


@SOME
@given(positions())
def test_each_card_but_a_2_fits_at_most_one_gap(position):
    moves = position.legal_moves()
    for card in {m.card for m in moves}:
        gaps = [m.dst for m in moves if m.card == card]
        if card[0] == "2":
            assert all(col == 0 for _, col in gaps)
        else:
            assert len(gaps) == 1
    assert position.is_stuck() == (moves == [])


@SOME
@given(positions())
def test_move_for_slot_picks_a_listed_move(position):
    moves = position.legal_moves()
    for slot in ALL_SLOTS:
        chosen = position.move_for_slot(slot)
        if position.card_at(slot) is None:
            fits = [m for m in moves if m.dst == slot]
            fresh = [m for m in fits if m.src[1] != 0]
            assert chosen == (fresh or fits or [None])[0]
        else:
            from_here = [m for m in moves if m.src == slot]
            assert chosen == (min(from_here, key=lambda m: m.dst) if from_here else None)


# --------------------------------------------------------------------------- whole games

MAX_ACTIONS = 5000  # random play ends far sooner (a few hundred actions at most in practice)


@FEW
@given(deal_numbers, seeds, walkers)
def test_random_games_end_won_or_lost(number, seed, rnd):
    g = GameState.start(deal_number=number, seed=seed)
    counted = 0
    past = []  # positions that undo can go back to
    for _ in range(MAX_ACTIONS):
        if g.is_over:
            break
        moves = g.position.legal_moves()
        before = g
        if not moves or (g.shuffles_left and rnd.random() < 0.01):
            g = g.shuffle()
            past = []
            assert g.shuffles_used == before.shuffles_used + 1 and g.moves == before.moves
        elif g.can_undo and rnd.random() < 0.15:
            g = g.undo()
            counted += 1
            assert g.position == past.pop()
        else:
            past.append(g.position)
            g = g.play(rnd.choice(moves))
            counted += 1
        assert g.moves == counted >= before.moves
        assert len(g.history) == len(past)
        check_table(g.position)
    assert g.is_over, f"not over after {MAX_ACTIONS} actions"
    assert g.status in (Status.WON, Status.LOST)
    if g.status is Status.LOST:
        assert g.position.is_stuck() and g.shuffles_used == 3 and not g.resigned
    else:
        assert g.position.is_won()
