"""Keeping the puzzles found (puzzles/services.py) and the command that builds a new site's first
ones from fresh deals (manage.py puzzles_build): each position kept once, a repeated run stores
nothing twice, and a run is bounded."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import engine
from puzzles.models import Puzzle
from puzzles.services import puzzles_build

pytestmark = pytest.mark.django_db


def test_found_puzzles_are_kept_once_with_their_line_and_grade():
    found, kept = puzzles_build(range(1, 41), "addiction")
    assert found == kept == Puzzle.objects.count() >= 4
    again = puzzles_build(range(1, 41), "addiction")
    assert again == (found, 0) and Puzzle.objects.count() == found  # nothing twice
    for puzzle in Puzzle.objects.all():
        position = engine.Position.parse(puzzle.position, puzzle.variant)
        for text in puzzle.line.split():
            position = position.play(engine.Move.parse(text))
        assert position.is_won() and 0 < puzzle.keepers < puzzle.first_moves and puzzle.grade > 0
        assert (puzzle.rating, puzzle.deviation, puzzle.volatility) == (1500.0, 350.0, 0.06)


def test_the_command_searches_fresh_deals_and_is_bounded():
    out = StringIO()
    call_command("puzzles_build", "--deals", "12", stdout=out)
    assert out.getvalue().startswith("12 deals searched in ") and "newly kept" in out.getvalue()
    for deals in ("0", "10001"):
        with pytest.raises(CommandError):
            call_command("puzzles_build", "--deals", deals)
