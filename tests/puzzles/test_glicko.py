"""Glicko-2 (puzzles/glicko.py) against the worked example of Glickman's paper: a player rated
1500 (deviation 200, volatility 0.06) who beats a 1400 (30) and loses to a 1550 (100) and a
1700 (300), with tau 0.5, ends at 1464.06, deviation 151.52, volatility 0.05999."""

from __future__ import annotations

import pytest

from puzzles.glicko import Rating, Result, rate


def test_the_papers_worked_example():
    player = Rating(1500, 200, 0.06)
    results = [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0), Result(Rating(1700, 300), 0)]
    after = rate(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_results_only_widens_the_deviation():
    player = Rating(1620, 80, 0.06)
    after = rate(player, [])
    assert after.rating == 1620 and after.volatility == 0.06 and 80 < after.deviation < 81
    assert rate(Rating(1500, 349.99, 0.06), []).deviation == 350.0  # never past the first uncertainty


def test_a_solve_raises_and_a_failure_lowers_both_ways():
    player, puzzle = Rating(1500, 200), Rating(1600, 100)
    assert rate(player, [Result(puzzle, 1)]).rating > 1500 > rate(player, [Result(puzzle, 0)]).rating
    # The puzzle plays the other side: a failure is its win, a solve its loss.
    assert rate(puzzle, [Result(player, 1)]).rating > 1600 > rate(puzzle, [Result(player, 0)]).rating
