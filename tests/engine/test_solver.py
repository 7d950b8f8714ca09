"""The solver (games/solver.py) on known positions: hints, verdicts, budgets and determinism.

Fixtures are the won table (row 0 spades, 1 hearts, 2 diamonds, 3 clubs, each 2..K in
columns 0..11 and a gap in column 12) except for what is written out, as in test_rules.
"""

import inspect
import pathlib
import subprocess
import sys

import pytest

from games.engine import GameState, Move, Position, deal
from games.solver import SHUFFLE, Verdict, advise, hint, solve
from tests.engine.layouts import won_except

REPO = pathlib.Path(__file__).resolve().parents[2]

# Deals and game seeds that following the request's hints wins (benchmarks/hint_strength.py of
# issue 11, default budget).  Deals 17 and 87 are won with no shuffle, so whatever a
# game's seed (a browser test cannot choose it); deals 4 and 10 need one and two shuffles.
KNOWN_WINNABLE = [
    (17, 47941822542206954227640220508161081280),
    (87, 186254899272362531350725010649320132757),
    (4, 143127851072999991099934658038878512413),
    (10, 303179228309478055977386772658992747602),
]
WINNABLE_WITH_NO_SHUFFLE = (17, 87)

# One move from the won table: KS into the gap right of QS.
ONE_MOVE_TO_WIN = won_except({0: "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS"})

# Stuck: gaps (0,12) and (1,12) right of Kings, (2,5) right of KC, (2,6) right of a gap.
STUCK = won_except({2: "2D 3D 4D 5D KC -- -- 9D TD JD QD KD 7D", 3: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 6D 8D"})

# Reached by playing deal 1 at random: moves remain (QD, 8C and 3C can move), none leads to a win.
LOST_WITH_MOVES = Position.parse(
    "2H 9S 4H 5H 8H 9H JH QH KH JS QS 6H 7H / 2C JD QD KD 8D 5D 6D 7D -- -- -- TC JC / "
    "TH 8C 9C KS 5C 6C 7C 5S 6S 7S 8S QC KC / 2S 3S 3H 3C 4C 4S 2D -- TS 3D 4D 9D TD"
)

# Deal 30 after one shuffle (benchmarks/hint_strength.py, --seed 2026): it can be won as it
# is, but only by putting off a move into a run's frontier, which the greedy search never
# does; the hints once shuffled here after 12 moves.
WON_ONLY_BY_WAITING = Position.parse(
    "2D 3D 4D KC KS TS 7D -- QD KD 9D JD KH / 2C 3C 4C 5C 6C 7C 8C 9C TC -- 5D JS QC / "
    "2S 3S 4S 5S 6S 7S 8S 9S JC TD 8D -- -- / 2H 3H 4H 5H 6H 7H 8H 9H TH JH 6D QH QS"
)


def test_a_one_move_win_is_hinted_and_solved():
    move = Move("KS", (0, 12), (0, 11))
    for shuffles_left in (0, 3):
        assert hint(ONE_MOVE_TO_WIN, shuffles_left) == move
    result = solve(ONE_MOVE_TO_WIN)
    assert result.won and result.verdict is Verdict.WON
    assert result.line == [move]
    assert ONE_MOVE_TO_WIN.play(move).is_won()


def test_a_lost_position_gets_no_hint_and_is_proved_lost():
    assert LOST_WITH_MOVES.legal_moves()  # not merely stuck: every line was searched
    assert hint(LOST_WITH_MOVES, 0) is None
    result = solve(LOST_WITH_MOVES)
    assert result.proved_lost and result.line == []
    assert hint(STUCK, 0) is None
    assert solve(STUCK).proved_lost


def test_a_won_position_needs_nothing():
    won = won_except({})
    assert hint(won, 3) is None
    assert solve(won).won and solve(won).line == []


def test_when_only_a_shuffle_helps_the_hint_is_to_shuffle():
    assert not STUCK.legal_moves()
    assert hint(STUCK, 1) == SHUFFLE
    assert hint(LOST_WITH_MOVES, 2) == SHUFFLE


def test_a_win_that_needs_a_move_put_off_is_played_rather_than_shuffled_away():
    position = WON_ONLY_BY_WAITING
    for _ in range(100):
        advice = hint(position, 2)
        assert advice is not None and advice != SHUFFLE
        position = position.play(advice)
        if position.is_won():
            break
    assert position.is_won()


def test_the_hint_is_deterministic_even_in_a_fresh_process():
    position = deal(5)
    first = hint(position, 3)
    assert hint(position, 3) == first
    code = "from games.engine import deal; from games.solver import hint; print(hint(deal(5), 3))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == str(first)


def test_the_budget_bounds_the_search():
    result = solve(deal(1), budget=10)
    assert result.unknown and result.line == []
    assert result.nodes <= 10
    assert advise(deal(1), 3, budget=10).nodes <= 10


def test_the_hint_sees_no_seed():
    assert list(inspect.signature(hint).parameters) == ["position", "shuffles_left", "budget"]
    games = [GameState.start(deal_number=7, seed=seed) for seed in (1, 2**100 + 3)]
    assert len({str(hint(game.position, game.shuffles_left)) for game in games}) == 1


def test_a_winning_line_is_legal_and_wins():
    position = deal(15)
    result = solve(position)
    assert result.won
    for move in result.line:
        position = position.play(move)  # raises IllegalMove if the line is wrong
    assert position.is_won()


def test_every_hinted_move_is_legal():
    game = GameState.start(deal_number=11, seed=11)
    for _ in range(60):
        advice = hint(game.position, game.shuffles_left)
        if advice is None:
            break
        if advice == SHUFFLE:
            game = game.shuffle()
        else:
            assert game.position.is_legal(advice)
            game = game.play(advice)
        if game.is_over:
            break


@pytest.mark.parametrize(("deal_number", "seed"), KNOWN_WINNABLE)
def test_following_the_hints_wins_the_known_deals(deal_number, seed):
    game = GameState.start(deal_number=deal_number, seed=seed)
    while not game.is_over:
        advice = hint(game.position, game.shuffles_left)
        assert advice is not None
        game = game.shuffle() if advice == SHUFFLE else game.play(advice)
    assert game.status.value == "won"
    if deal_number in WINNABLE_WITH_NO_SHUFFLE:
        assert game.shuffles_used == 0


def test_the_request_plays_a_line_its_own_search_finds_else_the_hint():
    from games import solver

    found = solver.search_win(deal(1), 200_000)
    asked = solver.request_hint(deal(1), 3, search_budget=200_000)
    assert found.won and asked.hint == found.line[0] and asked.line == found.line
    alone = solver.request_hint(deal(1), 3, search_budget=0)
    assert alone.line == [] and alone.hint == hint(deal(1), 3)


def test_the_site_order_searches_each_stretch_from_its_start_and_from_where_a_hint_off_every_line_leads(monkeypatch):
    from games import solver

    searched = []
    real = solver.search_win
    monkeypatch.setattr(
        solver, "search_win", lambda position, budget: searched.append(position) or real(position, budget)
    )
    game = GameState.start(deal_number=1, seed=7)
    ends = []
    followed = solver.follow_hints(
        game, deep_budget=2_000, search_budget=0, searches_per_stretch=3, observe=ends.append
    )
    assert searched[0] == deal(1)  # the deal's own search, before any hint
    starts = [
        state.position
        for before, state in zip([game, *ends][:-1], ends, strict=True)
        if state.shuffles_used > before.shuffles_used
    ]
    assert starts and all(start in searched for start in starts)  # and each shuffle's table
    assert len(searched) <= 3 * (followed.state.shuffles_used + 1)  # at most three a stretch
    assert ends[-1] == followed.state
