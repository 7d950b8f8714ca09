"""Human pace (docs/RULES.md, "Human pace"; issue 25): a win played faster than a person
plays is held for review, on no board, until a moderator approves it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from games import pace
from games.models import Game
from games.services import game_verify
from records.models import BoardEntry
from tests.helpers import account, logged_in, new_game, parse_html, text_of
from tests.winning import play_win, play_with_client, quick_win, reseed, user_owner

pytestmark = pytest.mark.django_db
START = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


# --------------------------------------------------------------------------- the thresholds


def moves_at(gaps: list[int]) -> list[tuple[str, int]]:
    """A log of moves, each ``gap`` ms after the one before."""
    log, elapsed = [], 0
    for gap in gaps:
        elapsed += gap
        log.append(("move", elapsed))
    return log


def test_a_quarter_of_fast_moves_is_a_persons_pace_and_one_more_is_not():
    slow = 2_000  # keeps the whole game's time per move far above its threshold
    quarter = [pace.FAST_MOVE_MS - 1] * 25 + [slow] * 75
    assert pace.pace_of(moves_at(quarter)).human
    more = [pace.FAST_MOVE_MS - 1] * 26 + [slow] * 74
    assert pace.pace_of(moves_at(more)).reasons == (pace.Reason.FAST_MOVES,)
    # A move at exactly the threshold is not a fast one.
    assert pace.pace_of(moves_at([pace.FAST_MOVE_MS] * 100)).fast_moves == 0


def test_the_whole_games_time_per_move_has_its_own_threshold():
    at_threshold = [pace.GAME_MS_PER_MOVE] * 50
    assert pace.pace_of(moves_at(at_threshold)).human
    # Each move slower than a reaction, but the game as a whole too fast for a person.
    under = [pace.GAME_MS_PER_MOVE - 1] * 50
    assert pace.pace_of(moves_at(under)).reasons == (pace.Reason.FAST_GAME,)


def test_only_moves_are_judged_and_each_by_the_time_since_any_action_before():
    # Quick undos and redos are a person's (a key held down); the move after them is not fast.
    log = [("move", 1_000), ("undo", 1_050), ("redo", 1_080), ("move", 2_000)]
    found = pace.pace_of(log)
    assert (found.moves, found.fast_moves, found.gaps, found.elapsed_ms) == (2, 0, (1_000, 920), 2_000)
    assert pace.pace_of([]).human  # a game with no move has no pace to judge


# --------------------------------------------------------------------------- wins held


def test_a_machine_paced_win_is_held_on_no_board_and_its_player_is_told_why():
    ada = account("ada")
    game = play_win(user_owner(ada), quick_win(), start=START, step=timedelta(milliseconds=20))
    assert (game.status, game.ranked, game.review) == ("won", False, "held")
    assert not BoardEntry.objects.filter(user=ada).exists()
    page = logged_in(ada).get(f"/game/{game.pk}/")
    parse_html(page).find(data_review="held")
    words = text_of(page)
    assert "held for review" in words and f"less than {pace.FAST_MOVE_MS} ms" in words
    my_games = parse_html(logged_in(ada).get("/my-games/"))
    my_games.find(data_review="held")
    # Verification agrees that it is rightly off the boards.
    assert game_verify(game).ok


def test_a_win_at_a_persons_pace_is_ranked_and_never_held():
    ada = account("ada")
    game = play_win(user_owner(ada), quick_win(), start=START, step=timedelta(seconds=1))
    assert (game.ranked, game.review) == (True, "")
    assert BoardEntry.objects.filter(user=ada, game=game).exists()
    assert not parse_html(logged_in(ada).get(f"/game/{game.pk}/")).find_all(data_review=True)


def test_the_cheating_script_posting_a_solved_line_back_to_back_is_held(client):
    """Issue 25's script: start a random deal, know its line, post it at machine speed."""
    win = quick_win()
    ada = account("ada")
    client.force_login(ada)
    game = reseed(new_game(client, win.deal_number), win.seed)
    Game.objects.filter(pk=game.pk).update(origin=Game.Origin.RANDOM)
    game = play_with_client(client, Game.objects.get(pk=game.pk), win.actions, step=None)
    assert (game.status, game.ranked, game.review) == ("won", False, "held")
    board = parse_html(client.get("/leaderboards/"))
    assert not board.find_all(data_player="ada")
    assert "No win on this board yet" in text_of(client.get("/leaderboards/"))


# --------------------------------------------------------------------------- the queue


@pytest.fixture
def staff():
    return logged_in(User.objects.create_superuser("mod", password="unused-in-these-tests-1"))


@pytest.fixture
def held():
    ada = account("ada")
    return play_win(user_owner(ada), quick_win(), start=START, step=timedelta(milliseconds=20))


QUEUE = "/admin/records/heldwin/"


def test_the_queue_lists_held_wins_with_the_evidence(staff, held):
    listing = staff.get(QUEUE)
    assert listing.status_code == 200
    assert f"{QUEUE}{held.pk}/change/" in listing.content.decode()
    page = staff.get(f"{QUEUE}{held.pk}/change/")
    chart = parse_html(page).find("figure", class_="pace-chart")
    found = pace.pace_of(held.actions.order_by("number").values_list("kind", "elapsed_ms"))
    assert int(chart.attrs["data-fast-moves"]) == found.fast_moves > 0
    assert len(chart.find_all("rect")) == found.moves
    # The staff's replay page carries the same chart, for a game on no board.
    replay = parse_html(staff.get(f"/game/{held.pk}/replay/"))
    replay.find("figure", class_="pace-chart")


def test_approving_enters_the_boards_and_rejecting_keeps_an_unranked_win(staff, held):
    response = staff.post(QUEUE, {"action": "approve_wins", "_selected_action": [held.pk]})
    assert response.status_code == 302
    held.refresh_from_db()
    assert (held.ranked, held.review) == (True, "approved")
    assert BoardEntry.objects.filter(game=held).exists()
    assert game_verify(held).ok

    bob = account("bob")
    other = play_win(user_owner(bob), quick_win(), start=START, step=timedelta(milliseconds=20))
    staff.post(QUEUE, {"action": "reject_wins", "_selected_action": [other.pk]})
    other.refresh_from_db()
    assert (other.status, other.ranked, other.review) == ("won", False, "rejected")
    assert not BoardEntry.objects.filter(game=other).exists()
    assert game_verify(other).ok
    assert "did not rank it" in text_of(logged_in(bob).get(f"/game/{other.pk}/"))
    call_command("verify_games")  # raises on any game whose ranking disagrees with its replay


def test_hiding_the_player_from_the_queue(staff, held):
    staff.post(QUEUE, {"action": "hide_players", "_selected_action": [held.pk]})
    assert held.owner.player.hidden_from_boards


def test_a_player_cannot_open_the_queue(held):
    assert logged_in(held.owner).get(QUEUE).status_code == 302  # to the admin's login
