"""The supply from real games (docs/RULES.md, "Puzzles"): the worker reads finished, analysed
games whose seed is revealed for the position before each slip, keeps the puzzles found once,
reads each game once, and never a day's daily before its reveal nor a deleted game."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import engine, solver
from games.models import Game
from puzzles import services, tasks
from puzzles.models import Mined, Puzzle
from tests.helpers import act, new_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def analysis_as_deployed(settings):
    """The analysis's budgets as the site runs it (the tests' are small), so it finds the win."""
    settings.ADDICTION_ANALYSIS_BUDGET = 200_000
    settings.ADDICTION_ANALYSIS_RETRY_BUDGET = 200_000


def played_into_a_slip(client, django_capture_on_commit_callbacks, deal: int = 9) -> tuple[Game, str]:
    """A game of ``deal`` played along the solver's win to where a move loses it, that move
    played, then given up: the position before the slip, and the game (analysed at its end)."""
    position = engine.deal(deal)
    line = solver.solve(position, solver.DEFAULT_BUDGET * 10).line
    game = new_game(client, deal)
    for move in line:
        slips = [m for m in position.legal_moves() if solver.solve(position.play(m)).proved_lost]
        if slips and len(line) - line.index(move) <= 40:
            before = str(position)
            assert act(client, game, "move", slot=slips[0].src).status_code in (200, 422)
            break
        assert act(client, game, "move", slot=move.src).status_code == 200
        position = position.play(move)
    game.refresh_from_db()
    if game.state().position != position.play(slips[0]):  # the click chose another gap: play it exactly
        pytest.skip("the slip's click went elsewhere")
    with django_capture_on_commit_callbacks(execute=True):  # the worker's analysis, at once in the tests
        assert act(client, game, "resign").status_code == 200
    game.refresh_from_db()
    assert game.is_over and game.analysis.done
    return game, before


def test_a_finished_games_slip_becomes_a_puzzle_once_and_each_game_is_read_once(
    client, django_capture_on_commit_callbacks
):
    game, before = played_into_a_slip(client, django_capture_on_commit_callbacks)
    assert tasks.puzzles_mine_ask(now=timezone.now(), dry_run=True) == 1
    read, kept = services.puzzles_mine()
    assert (read, kept) == (1, 1)
    puzzle = Puzzle.objects.get()
    assert puzzle.position == before and puzzle.from_game and 0 < puzzle.keepers < puzzle.first_moves
    position = engine.Position.parse(puzzle.position)
    for text in puzzle.line.split():
        position = position.play(engine.Move.parse(text))
    assert position.is_won()
    assert Mined.objects.get().game_id == game.pk and Mined.objects.get().found == 1
    assert services.puzzles_mine() == (0, 0)  # read once
    assert tasks.puzzles_mine_ask(now=timezone.now()) == 0


def test_an_unrevealed_daily_and_a_deleted_game_are_not_read(client, django_capture_on_commit_callbacks):
    game, _before = played_into_a_slip(client, django_capture_on_commit_callbacks)
    today = timezone.now().date()
    Game.objects.filter(pk=game.pk).update(daily=today)
    assert services.puzzles_mine() == (0, 0)
    Game.objects.filter(pk=game.pk).update(daily=today - timedelta(days=2))  # revealed since
    Game.objects.filter(pk=game.pk).update(removed=True)
    assert services.puzzles_mine() == (0, 0)
    Game.objects.filter(pk=game.pk).update(removed=False)
    assert services.puzzles_mine() == (1, 1)


def test_the_chore_asks_the_worker_which_keeps_the_puzzles(client, django_capture_on_commit_callbacks):
    played_into_a_slip(client, django_capture_on_commit_callbacks)
    assert tasks.puzzles_mine_ask(now=timezone.now()) == 1  # the tests' tasks run at once
    assert Puzzle.objects.filter(from_game=True).count() == 1


def test_a_new_sites_first_puzzles_are_built_by_the_worker_when_the_housekeeping_asks(settings):
    settings.ADDICTION_PUZZLES_FIRST = 3
    out = StringIO()
    call_command("housekeeping", stdout=out)  # the tests' tasks run at once
    assert "first puzzles missing: 3" in out.getvalue()
    assert Puzzle.objects.count() == 3 and not Puzzle.objects.filter(from_game=True).exists()
    again = StringIO()
    call_command("housekeeping", stdout=again)
    assert "first puzzles missing: 0" in again.getvalue() and Puzzle.objects.count() == 3


def test_a_game_that_does_not_read_is_marked_read_and_does_not_hold_the_others(
    client, django_capture_on_commit_callbacks, monkeypatch
):
    played_into_a_slip(client, django_capture_on_commit_callbacks)

    def unreadable(game):
        raise ValueError("a log row the engine refuses")

    monkeypatch.setattr(services, "puzzles_of_game", unreadable)
    assert services.puzzles_mine() == (1, 0)
    assert Mined.objects.get().found == 0 and services.puzzles_mine() == (0, 0)
