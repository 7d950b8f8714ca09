"""The patient scripts of issue 42, played against the site (docs/RULES.md, "Review before the
top"): each solves a deal offline with the project's own solver and posts the line through the
game's pages, timed by the server's clock at the pace it chose.  None may reach the first
places of a public board unseen; a person's uneven play, by a player with a history, does
at once.

The deal: deal 17 under the tests' searched seed is won from the deal, no shuffle needed, by
the solver's line of 96 moves (as the script in the issue played); a script that draws random
deals until one is like it stands in for the redraws.  The clock: the games' services read a
time that moves on by the script's next gap each time they read it (tests/winning.py's
``paced_clock``, with gaps of the script's choosing).
"""

from __future__ import annotations

import contextlib
import itertools
import random
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from unittest import mock

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.test import Client

from games import engine, solver
from games.models import Evidence, Game
from games.services import game_start
from records.models import BoardEntry
from tests.helpers import account, act, logged_in, text_of
from tests.winning import SEED, find_win, reseed, user_owner

pytestmark = pytest.mark.django_db

DEAL = 17
START = datetime(2026, 12, 1, 12, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _review_before_the_top(settings):
    settings.ADDICTION_REVIEW_TOP = 10  # the production figure (tests/settings.py turns it off)


def solver_line() -> list[engine.Move]:
    found = solver.solve(engine.GameState.start(deal_number=DEAL, seed=SEED).position, budget=2000)
    assert found.verdict is solver.Verdict.WON and len(found.line) == 96
    return found.line


@contextlib.contextmanager
def server_clock(gaps, start: datetime):
    """The games' services see the time move on by the next of ``gaps`` (ms) at each reading."""
    moments = itertools.accumulate((timedelta(milliseconds=gap) for gap in gaps), initial=start)
    next(moments)  # the start itself
    with mock.patch("games.services.timezone", SimpleNamespace(now=lambda: next(moments))):
        yield


def post_moves(client: Client, game: Game, slots, gaps, *, capture) -> Game:
    """Post a move from each of ``slots`` to ``game`` through its page, the i-th ``gaps[i]`` ms
    after the one before; the last one's background work (the analysis) runs as it commits."""
    with server_clock(gaps, game.started_at):
        for number, slot in enumerate(slots):
            with capture(execute=True) if number == len(slots) - 1 else contextlib.nullcontext():
                response = act(client, game, "move", slot=slot)
            assert response.status_code == 200, response.status_code
    return Game.objects.get(pk=game.pk)


def dealt(user: User) -> Game:
    """A random deal's game of ``user`` that drew deal 17 (the draw the script waited for)."""
    return reseed(game_start(owner=user_owner(user), deal_number=DEAL, origin=Game.Origin.RANDOM, now=START), SEED)


def give_history(user: User, games: int = 5) -> None:
    """``games`` finished games of ``user`` before: a move each, then given up."""
    for number in range(games):
        game = game_start(owner=user_owner(user), deal_number=100 + number, now=START - timedelta(days=3))
        client = logged_in(user)
        with server_clock([3000, 4000], game.started_at):
            act(client, game, "move", slot=Game.objects.get(pk=game.pk).state().position.legal_moves()[0].src)
            act(client, game, "resign")
    Game.objects.filter(owner=user).update(finished_at=START - timedelta(days=2))


def person_gaps(count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    gaps = [int(rng.lognormvariate(6.9, 0.45)) for _ in range(count)]
    gaps[0] = 7000  # the deal is read first
    for number in range(6, count, 8):
        gaps[number] = rng.randint(2500, 8000)
    return gaps


def held_off_the_boards(game: Game, client: Client) -> None:
    assert game.status == engine.Status.WON
    assert not game.ranked and game.review == Game.Review.PENDING
    assert not BoardEntry.objects.filter(game=game).exists()
    page = text_of(client.get(f"/game/{game.pk}/"))
    assert "pending review" in page


def test_a_script_at_the_pace_floor_is_held_before_the_top(django_capture_on_commit_callbacks):
    bot = account("floor")
    give_history(bot)  # even a patient account with games behind it
    client, game, line = logged_in(bot), dealt(bot), solver_line()
    won = post_moves(
        client, game, [move.src for move in line], [401] * len(line), capture=django_capture_on_commit_callbacks
    )
    assert won.elapsed_ms == 401 * 96  # under the old floor's eye: 0:38.5, a person's pace by games/pace.py
    held_off_the_boards(won, client)
    kept = Evidence.objects.get(game=won)
    assert {"long_run", "unread_tables", "even_pace", "under_model", "solver_line"} <= set(kept.signs)
    assert kept.solver_share == 1.0


def test_a_script_with_jittered_gaps_is_held_too(django_capture_on_commit_callbacks):
    bot = account("jitter")
    rng = random.Random(42)
    client, game, line = logged_in(bot), dealt(bot), solver_line()
    gaps = [rng.randint(450, 700) for _ in line]
    won = post_moves(client, game, [move.src for move in line], gaps, capture=django_capture_on_commit_callbacks)
    held_off_the_boards(won, client)
    assert Evidence.objects.get(game=won).score >= 80


def test_a_persons_paced_win_with_a_history_ranks_at_once(django_capture_on_commit_callbacks):
    ada = account("ada")
    give_history(ada)
    win = find_win()  # a random playout's win: not the solver's line
    client = logged_in(ada)
    game = reseed(
        game_start(owner=user_owner(ada), deal_number=win.deal_number, origin=Game.Origin.RANDOM, now=START), win.seed
    )
    gaps = person_gaps(len(win.actions), seed=3)
    with server_clock(gaps, game.started_at), django_capture_on_commit_callbacks(execute=True):
        for kind, slot in win.actions:
            assert act(client, game, kind, slot=slot).status_code == 200
    game.refresh_from_db()
    assert game.status == engine.Status.WON
    assert game.ranked and game.review == Game.Review.CLEARED
    assert BoardEntry.objects.filter(game=game).count() == 8  # two boards in each of its four scopes
    assert Evidence.objects.get(game=game).score < 40


def test_a_new_players_win_waits_for_a_moderator_whose_decision_is_logged(django_capture_on_commit_callbacks):
    newcomer = account("newcomer")
    client, game, line = logged_in(newcomer), dealt(newcomer), solver_line()
    won = post_moves(
        client, game, [move.src for move in line], person_gaps(96, 5), capture=django_capture_on_commit_callbacks
    )
    held_off_the_boards(won, client)

    staff = User.objects.create_superuser("mod", password="x")
    moderator = logged_in(staff)
    queue = moderator.get("/admin/records/heldwin/")
    assert queue.status_code == 200 and f'value="{won.pk}"' in queue.content.decode()
    shown = text_of(moderator.get(f"/admin/records/heldwin/{won.pk}/change/"))
    assert "Score" in shown and "The solver's line" in shown
    answer = moderator.post(
        "/admin/records/heldwin/", {"action": "approve_wins", "_selected_action": [won.pk]}, follow=True
    )
    assert answer.status_code == 200
    won.refresh_from_db()
    assert won.ranked and won.review == Game.Review.APPROVED
    assert BoardEntry.objects.filter(game=won).exists()
    entry = LogEntry.objects.get(object_id=str(won.pk))
    assert entry.user == staff and "Approved" in entry.get_change_message()
