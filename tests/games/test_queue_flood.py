"""A flood of background work from one address (issue 42; docs/RULES.md, "Analysis" and
"Hints"), with the real queue: Django's tasks in the database, as the worker reads them.  One
address starts guest after guest, each playing a game of many actions, giving it up and asking
hints; what it queues is bounded by the caps per address, and another player's analysis is
among the first tasks the worker takes, whatever the flood queued before it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.module_loading import import_string
from django_tasks_db.models import DBTaskResult

from games import background, engine
from games.models import Analysis, Claimed, Game, StretchSearch
from tests.helpers import HTMX, act, new_game
from tests.winning import play_with_client, quick_win, reseed

pytestmark = pytest.mark.django_db

FLOOD = {"REMOTE_ADDR": "203.0.113.66", "HTTP_USER_AGENT": "Flood/1.0"}
GUESTS = 30


@pytest.fixture(autouse=True)
def _database_queue(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}


def played_and_given_up(client: Client, deal: int, *, actions: int, hint: bool = False) -> Game:
    """A game of ``deal`` with ``actions`` actions (a move and its undo, over and over), given up."""
    game = new_game(client, deal_number=deal)
    if hint:
        assert client.post(f"/game/{game.pk}/hint/", {"version": 0}, headers=HTMX).status_code == 200
    for number in range(actions):
        position = Game.objects.get(pk=game.pk).state().position
        kind, slot = ("move", position.legal_moves()[0].src) if number % 2 == 0 else ("undo", None)
        assert act(client, game, kind, slot=slot).status_code == 200
    assert act(client, game, "resign").status_code == 200
    return game


def ready_order() -> list[tuple[str, list]]:
    """The tasks the worker would take, in the order it takes them (DBTaskResult's own)."""
    return list(DBTaskResult.objects.ready().values_list("task_path", "args_kwargs"))


def test_one_address_queues_a_bounded_amount_and_another_players_analysis_comes_first(
    django_capture_on_commit_callbacks,
):
    for number in range(GUESTS):  # a fresh guest each time: the per-player cap alone would not hold
        with django_capture_on_commit_callbacks(execute=True):  # each request commits before the next
            played_and_given_up(Client(**FLOOD), 1000 + number, actions=background.PLAYED_ACTIONS, hint=True)
    waiting = Analysis.objects.exclude(state=Claimed.DONE).filter(game__address_key__isnull=False)
    assert waiting.count() == 10  # ADDICTION_MAX_PENDING_ANALYSES_PER_ADDRESS
    searches = StretchSearch.objects.exclude(state=Claimed.DONE)
    # ADDICTION_MAX_PENDING_SEARCHES_PER_ADDRESS of each kind: from the deals, and behind hints
    assert searches.filter(dealt=True).count() == searches.filter(dealt=False).count() == 3
    assert len(ready_order()) == 16

    honest = Client(REMOTE_ADDR="198.51.100.9", HTTP_USER_AGENT="Firefox")
    with django_capture_on_commit_callbacks(execute=True):
        theirs = played_and_given_up(honest, 5000, actions=background.PLAYED_ACTIONS)
    order = ready_order()
    place = [index for index, (path, args) in enumerate(order) if args["args"] == [theirs.pk]]
    dealt = [index for index, (path, args) in enumerate(order) if args["args"][0] == str(engine.deal(5000))]
    # Behind the flood's first search (a player at the table asked a hint) and its first analysis
    # (older), and before the rest of the flood, which goes last: an address with work waiting
    # waits behind others'.  The searches from the flood's first deal and from theirs, which
    # nobody asked a hint of, follow.
    assert place == [2] and dealt == [4]

    for path, args in order[: place[0] + 1]:  # the worker's first three tasks, run as it runs them
        import_string(path).call(*args["args"], **args["kwargs"])
    assert Analysis.objects.get(game=theirs).state == Claimed.DONE


def test_a_win_is_analysed_before_the_played_games_before_it(django_capture_on_commit_callbacks):
    for number in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            played_and_given_up(Client(**FLOOD), 2000 + number, actions=background.PLAYED_ACTIONS)
    assert sum(path.endswith("analyse_game") for path, _ in ready_order()) == 3  # and the searches from the deals
    win = quick_win()
    winner = Client(REMOTE_ADDR="198.51.100.10")
    game = reseed(new_game(winner, deal_number=win.deal_number), win.seed)
    with django_capture_on_commit_callbacks(execute=True):
        play_with_client(winner, game, win.actions)
    first_path, first_args = ready_order()[0]
    assert first_path.endswith("analyse_game") and first_args["args"] == [game.pk]


def test_a_deal_tried_and_left_waits_behind_a_played_game():
    one = new_game(Client(), deal_number=11)
    two = new_game(Client(), deal_number=12)
    Game.objects.filter(pk=one.pk).update(version=3, status="lost")
    Game.objects.filter(pk=two.pk).update(version=background.PLAYED_ACTIONS, status="lost")
    assert background.analysis_priority(one.pk) < background.analysis_priority(two.pk) < background.PRIORITY_SEARCH


def test_a_win_a_hint_helped_to_waits_in_line_and_under_the_caps_like_any_played_game():
    game = new_game(Client(), deal_number=13)
    Game.objects.filter(pk=game.pk).update(status="won", version=background.PLAYED_ACTIONS, assisted=True)
    assert background.analysis_priority(game.pk) == background.PRIORITY_PLAYED
    Game.objects.filter(pk=game.pk).update(assisted=False)
    assert background.analysis_priority(game.pk) == background.PRIORITY_WIN
    won = Game.objects.get(pk=game.pk)
    won.assisted = True
    for number in range(10):  # the address's cap, filled by games of its own
        other = new_game(Client(), deal_number=20 + number)
        Analysis.objects.create(game=other)
    assert background.worth_analysing(won) is False
    won.assisted = False
    assert background.worth_analysing(won) is True


def test_a_search_from_a_stretchs_start_waits_behind_hints_and_played_games():
    deal = engine.deal(31)
    assert background.search_priority(deal, "", dealt=True) == background.PRIORITY_DEALT
    assert background.PRIORITY_BRIEF < background.PRIORITY_DEALT < background.PRIORITY_PLAYED
    assert background.search_priority(deal, "") == background.PRIORITY_SEARCH
