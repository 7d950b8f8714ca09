"""Finding and grading a puzzle (puzzles/build.py) on fresh deals: the position is one the
deal reaches, its line wins from it move by move, and a choice matters there (a legal move the
solver proves loses the win); a deal with no such position gives none."""

from __future__ import annotations

from games import engine, solver
from puzzles.build import MAX_LINE, MAX_PLAY, MIN_LINE, from_deal, keepers, settled, settles_at

FRESH = range(1, 41)  # deals 1 to 40: 8 give a puzzle (benchmarks/puzzle_supply.py measures more)


def test_a_puzzle_wins_by_its_line_and_offers_a_slip():
    found = [puzzle for puzzle in map(from_deal, FRESH) if puzzle]
    assert len(found) >= 4
    for puzzle in found:
        position = engine.Position.parse(puzzle.position, puzzle.variant)
        assert MIN_LINE <= len(puzzle.line) <= MAX_LINE
        moves = position.legal_moves()
        assert len(moves) == puzzle.first_moves and 0 < puzzle.keepers < puzzle.first_moves
        assert any(solver.solve(position.play(move)).proved_lost for move in moves)  # a slip, proved
        for text in puzzle.line:
            position = position.play(engine.Move.parse(text))
        assert position.is_won(), puzzle.deal_number
        assert puzzle.difficulty > 0


def test_keepers_counts_the_moves_that_keep_a_win():
    position = engine.deal(9)
    kept, choices = keepers(position)
    assert choices == len(position.legal_moves()) and 0 <= kept <= choices
    won_from = [move for move in position.legal_moves() if not solver.solve(position.play(move)).proved_lost]
    assert kept == len(won_from)


def test_a_deal_whose_win_is_not_found_gives_no_puzzle():
    assert from_deal(1, budget=1) is None  # a search of one position finds no win


def test_settled_holds_from_where_every_line_wins_and_not_before():
    puzzle = from_deal(9)
    position = engine.Position.parse(puzzle.position)
    positions = [position]
    for text in puzzle.line:
        positions.append(positions[-1].play(engine.Move.parse(text)))
    flags = [settled(p) for p in positions]
    assert not flags[0]  # a move there loses the win
    assert flags[-1]  # the won table
    assert flags == sorted(flags)  # once settled, settled on: every later position is reachable
    assert settles_at(positions) == flags.index(True) == puzzle.to_settle
    assert not settled(positions[flags.index(True)], cap=1)  # more positions than the cap: no proof
    for here in positions[: flags.index(True)]:  # before it, a line from there loses
        assert any(solver.solve(here.play(m)).proved_lost for m in here.legal_moves()) or not settled(here)


def test_a_puzzles_decisions_are_the_positions_where_a_move_loses_the_win_before_it_settles():
    for number in (1, 3, 9, 21):
        puzzle = from_deal(number)
        position = engine.Position.parse(puzzle.position)
        decisions = 0
        for text in puzzle.line[: puzzle.to_settle]:
            kept, choices = keepers(position)
            decisions += 0 < kept < choices
            position = position.play(engine.Move.parse(text))
        assert decisions == puzzle.decisions >= 1 and puzzle.to_settle <= MAX_PLAY
        assert settled(position)
