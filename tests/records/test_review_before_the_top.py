"""The review before the top (docs/RULES.md, "Review before the top"), beyond the attack
scripts of tests/abuse/test_patient_scripts.py: the solver's share found later sends a cleared
win back, a win further down ranks at once, and the draws a browser's fresh guests gave up
count on the account that claims a win."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from games import engine
from games.models import Analysis, Evidence, Game
from games.services import game_rank
from games.tasks import analysis_ask
from records.models import BoardEntry, Redraw
from tests.abuse.test_patient_scripts import START, dealt, give_history, person_gaps, post_moves, solver_line
from tests.helpers import account, act, logged_in, new_game, parse_html
from tests.winning import find_win, play_with_client, recorded_win, reseed, user_owner

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _review_before_the_top(settings):
    settings.ADDICTION_REVIEW_TOP = 10


def test_a_cleared_win_goes_back_to_pending_when_its_analysis_finds_it_was_the_solvers_line(
    django_capture_on_commit_callbacks, settings
):
    ada = account("ada")
    give_history(ada)
    line = solver_line()
    settings.ADDICTION_ANALYSIS_BUDGET = 0  # no line found at first: the share is not known when the win clears
    client, game = logged_in(ada), dealt(ada)
    won = post_moves(
        client, game, [move.src for move in line], person_gaps(96, 9), capture=django_capture_on_commit_callbacks
    )
    assert won.ranked and won.review == Game.Review.CLEARED
    assert BoardEntry.objects.filter(game=won).exists()

    settings.ADDICTION_ANALYSIS_BUDGET = 2_000
    Analysis.objects.filter(game=won).delete()  # analysed again, as a lost task is asked for again
    with django_capture_on_commit_callbacks(execute=True):
        analysis_ask(won.pk)
    won.refresh_from_db()
    assert not won.ranked and won.review == Game.Review.PENDING
    assert not BoardEntry.objects.filter(game=won).exists()
    assert Evidence.objects.get(game=won).solver_share == 1.0


def test_a_win_further_down_every_board_ranks_at_once_whatever_its_evidence(settings):
    settings.ADDICTION_REVIEW_TOP = 1
    first, second = account("first"), account("second")
    win = find_win()
    leader = copy_win_of(first, win)
    assert leader.review == Game.Review.PENDING  # a new player's win at the top waits...
    leader.review = Game.Review.APPROVED
    leader.save(update_fields=["review"])
    game_rank(game=leader)
    follower = copy_win_of(second, win, later=timedelta(minutes=1))
    assert follower.ranked and follower.review == Game.Review.NONE  # ...one below the top does not
    assert BoardEntry.objects.filter(game=follower).exists()


def copy_win_of(user, win, *, later=timedelta()) -> Game:
    return Game.objects.get(pk=recorded_win(user_owner(user), win, finished_at=START + later).pk)


def test_deals_drawn_by_fresh_guests_of_one_browser_count_on_the_account_that_claims_a_win():
    browser = {"REMOTE_ADDR": "203.0.113.7", "HTTP_USER_AGENT": "Script/1.0"}
    for deal in (31, 32, 33):  # three fresh guests each draw a deal, play a move, and leave it
        guest = Client(**browser)
        game = new_game(guest, deal_number=deal)
        act(guest, game, "move", slot=game.state().position.legal_moves()[0].src)
    elsewhere = Client(REMOTE_ADDR="198.51.100.1", HTTP_USER_AGENT="Script/1.0")
    act(elsewhere, new_game(elsewhere, deal_number=34), "resign")  # another browser's: not counted

    winner = Client(**browser)
    win = find_win()
    game = reseed(new_game(winner, deal_number=win.deal_number), win.seed)
    assert play_with_client(winner, game, win.actions).status == engine.Status.WON
    assert (
        winner.post(
            "/accounts/signup/", {"username": "lucky", "password1": "pw-Lantern-42!", "password2": "pw-Lantern-42!"}
        ).status_code
        == 302
    )

    assert Redraw.objects.filter(user__username="lucky").count() == 3
    figures = {
        dd["data-stat"]: dd.text for dd in parse_html(winner.get("/players/lucky/")).find_all("dd", data_stat=True)
    }
    assert figures["draws-given-up"] == "3"
    assert figures["played"] == "4"  # the win and the three draws
    assert figures["win-rate"] == "25%"


def test_a_guest_who_claims_no_win_brings_no_draws():
    browser = {"REMOTE_ADDR": "203.0.113.8", "HTTP_USER_AGENT": "Firefox"}
    first = Client(**browser)
    act(first, new_game(first, deal_number=41), "resign")
    second = Client(**browser)
    act(second, new_game(second, deal_number=42), "resign")
    assert (
        second.post(
            "/accounts/signup/", {"username": "honest", "password1": "pw-Lantern-42!", "password2": "pw-Lantern-42!"}
        ).status_code
        == 302
    )
    assert not Redraw.objects.exists()
