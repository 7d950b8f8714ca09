"""A finished game's analysis, off the request path (docs/RULES.md, "Analysis"; issue 27):
every stretch judged from its start, the slip where a win was lost, computed once by a
background task whatever asks for it, and shown on the end screen and the replay's timeline;
and the background search behind the hints ("Hints"), whose line every player then follows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import background, engine, solver, tasks
from games.models import Analysis, Claimed, Game, KnownStep, StretchSearch
from games.selectors import oldest_queued_seconds
from games.services import game_act, hint_for
from tests.helpers import HTMX, act, new_game, parse_html, text_of
from tests.winning import guest_owner, play_win, quick_win

pytestmark = pytest.mark.django_db

WINNABLE_DEAL = 17  # won from its opening with no shuffle: the solver finds a line in ~100 positions


# --------------------------------------------------------------------------- the slip, in the solver


def fake_search(winnable_up_to: int, positions: list[engine.Position]):
    """A solve() that knows which of ``positions`` can be won: those up to index ``winnable_up_to``."""
    index = {position: i for i, position in enumerate(positions)}

    def solve(position, budget=0):
        i = index[position]
        if i <= winnable_up_to:
            return solver.SolveResult(solver.Verdict.WON, [positions[i].legal_moves()[0]], 1)
        return solver.SolveResult(solver.Verdict.PROVED_LOST, [], 1)

    return solve


def a_stretch(length: int) -> list[engine.Position]:
    """``length`` positions a player passes through, each one move after the last."""
    state = engine.GameState.start(deal_number=WINNABLE_DEAL, seed=1)
    positions = [state.position]
    while len(positions) < length:
        state = state.play(state.position.legal_moves()[0])
        positions.append(state.position)
    return positions


@pytest.mark.parametrize("winnable_up_to", [0, 1, 4, 7, 8])
def test_the_slip_is_the_action_after_which_no_win_was_left(monkeypatch, winnable_up_to):
    positions = a_stretch(10)
    monkeypatch.setattr(solver, "solve", fake_search(winnable_up_to, positions))
    found = solver.analyse_stretch(positions)
    assert found.verdict is solver.Verdict.WON and found.decided
    assert found.slip == winnable_up_to + 1  # action i leads from positions[i - 1] to positions[i]
    assert found.instead == positions[winnable_up_to].legal_moves()[0]  # the line from the last winnable one


def test_a_win_still_there_when_the_stretch_ended_slipped_at_its_end(monkeypatch):
    positions = a_stretch(6)
    monkeypatch.setattr(solver, "solve", fake_search(5, positions))
    assert solver.analyse_stretch(positions).slip == 6  # the shuffle, or giving up


def test_a_stretch_that_could_not_be_won_has_no_slip(monkeypatch):
    positions = a_stretch(6)
    monkeypatch.setattr(solver, "solve", fake_search(-1, positions))
    found = solver.analyse_stretch(positions)
    assert found.verdict is solver.Verdict.PROVED_LOST and found.slip is None


def test_a_search_out_of_budget_leaves_the_slip_undecided(monkeypatch):
    positions = a_stretch(10)
    decided = fake_search(3, positions)

    def solve(position, budget=0):
        if position == positions[4]:
            return solver.SolveResult(solver.Verdict.UNKNOWN, [], budget)
        return decided(position)

    monkeypatch.setattr(solver, "solve", solve)
    found = solver.analyse_stretch(positions)
    assert found.verdict is solver.Verdict.WON and not found.decided and found.slip is None


def test_a_stretch_out_of_budget_is_analysed_again_with_the_retry_budget(monkeypatch):
    positions = a_stretch(10)
    decided = fake_search(3, positions)
    budgets = []

    def solve(position, budget=0):
        budgets.append(budget)
        if position == positions[4] and budget < 1_000:
            return solver.SolveResult(solver.Verdict.UNKNOWN, [], budget)
        return decided(position)

    monkeypatch.setattr(solver, "solve", solve)
    assert not solver.analyse_stretch(positions, budget=100).decided  # no retry asked
    budgets.clear()
    found = solver.analyse_stretch(positions, budget=100, retry_budget=1_000)
    assert found.decided and found.slip == 4
    assert set(budgets) == {100, 1_000} and budgets[-1] == 1_000
    both = solver.analyse_stretch(positions, budget=100).nodes + solver.analyse_stretch(positions, budget=1_000).nodes
    assert found.nodes == both  # the positions of both analyses


def test_the_deep_search_finds_a_line_that_wins():
    found = solver.search_win(engine.deal(WINNABLE_DEAL), 50_000)
    assert found.won
    position = engine.deal(WINNABLE_DEAL)
    for move in found.line:
        position = position.play(move)  # every move legal
    assert position.is_won()


# --------------------------------------------------------------------------- the analysis of a game


def given_up(client, deal: int = WINNABLE_DEAL, *, django_capture_on_commit_callbacks) -> Game:
    game = new_game(client, deal)
    with django_capture_on_commit_callbacks(execute=True):
        act(client, game, "resign")
    return Game.objects.get(pk=game.pk)


def test_a_random_deal_given_up_without_a_move_asks_for_no_analysis(client, django_capture_on_commit_callbacks):
    """Drawing deals costs nothing: a random deal given up unplayed queues no search (issue 42),
    while a chosen deal given up unplayed, or a random deal played, still is analysed."""
    response = client.post("/new/")
    drawn = Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    with django_capture_on_commit_callbacks(execute=True):
        act(client, drawn, "resign")
    assert Game.objects.get(pk=drawn.pk).origin == Game.Origin.RANDOM and not Analysis.objects.filter(game=drawn)
    chosen = given_up(client, django_capture_on_commit_callbacks=django_capture_on_commit_callbacks)
    assert Analysis.objects.get(game=chosen).done
    played = Game.objects.get(pk=int(client.post("/new/")["Location"].strip("/").split("/")[-1]))
    act(client, played, "move", slot=played.state().position.legal_moves()[0].src)
    with django_capture_on_commit_callbacks(execute=True):
        act(client, played, "resign")
    assert Analysis.objects.get(game=played).done


def test_one_players_flood_of_games_queues_a_few_analyses_and_delays_nobody_else(
    client, settings, django_capture_on_commit_callbacks
):
    """At most ADDICTION_MAX_PENDING_ANALYSES of one player's analyses wait for the worker (issue
    42): the others' games are queued as before; the flood's later games have the button."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}  # a worker far behind
    settings.ADDICTION_MAX_PENDING_ANALYSES = 3
    flood = [new_game(client, deal) for deal in range(10, 16)]
    for game in flood:
        with django_capture_on_commit_callbacks(execute=True):
            act(client, game, "resign")
    assert Analysis.objects.filter(game__in=flood).count() == 3
    assert "unasked" in client.get(f"/game/{flood[-1].pk}/").content.decode()  # its button asks, within the limit
    other = Client()
    theirs = new_game(other, WINNABLE_DEAL)
    with django_capture_on_commit_callbacks(execute=True):
        act(other, theirs, "resign")
    assert Analysis.objects.get(game=theirs).state == Claimed.QUEUED  # queued at once, the flood aside
    Analysis.objects.filter(game__in=flood).update(requested_at=timezone.now() - timedelta(minutes=5))
    oldest = oldest_queued_seconds(Analysis)
    assert 299 < oldest < 400  # what /metrics reports as the queue's age


def test_a_game_that_ends_is_analysed_once_it_commits(client, django_capture_on_commit_callbacks):
    game = given_up(client, django_capture_on_commit_callbacks=django_capture_on_commit_callbacks)
    analysis = Analysis.objects.get(game=game)
    assert analysis.done and analysis.nodes > 0
    (stretch,) = analysis.stretches
    assert (stretch["start"], stretch["verdict"], stretch["slip"], stretch["played_kind"]) == (0, "won", 1, "resign")
    position = engine.deal(WINNABLE_DEAL)
    for text in stretch["line"].split():
        position = position.play(engine.Move.parse(text))
    assert position.is_won()
    assert game.verdict == "won"  # the last stretch's verdict, kept with the game as before
    # The end screen says where the win slipped away, and links to that step of the replay.
    slip = parse_html(client.get(f"/game/{game.pk}/")).find("p", class_="slip")
    assert (
        slip["data-slip"] == "1" and "At step 1 you gave up; " in slip.text and "would have kept the win" in slip.text
    )
    replay = parse_html(client.get(f"/game/{game.pk}/replay/1/"))
    mark = replay.find("li", data_kind="slip")
    assert mark["data-step"] == "1" and mark["aria-current"] == "step"
    assert "From here the win slipped away" in replay.find(id="slip-here").text


def test_the_opening_and_a_lost_games_last_stretch_are_searched_again_when_undecided(client, monkeypatch, settings):
    settings.ADDICTION_ANALYSIS_BUDGET, settings.ADDICTION_ANALYSIS_RETRY_BUDGET = 10, 99
    settings.ADDICTION_DEEP_BUDGET = 7
    game = new_game(client, 1)
    act(client, game, "shuffle")
    act(client, game, "shuffle")
    after_shuffle = engine.Position.parse(Game.objects.get(pk=game.pk).position)
    asked = []

    def solve(position, budget):
        asked.append((position, budget))
        return solver.SolveResult(solver.Verdict.UNKNOWN, [], budget)

    def search_win(position, budget):
        asked.append(("deep", position, budget))
        return solver.SolveResult(solver.Verdict.UNKNOWN, [], budget)

    monkeypatch.setattr(solver, "solve", solve)
    monkeypatch.setattr(solver, "search_win", search_win)
    act(client, game, "resign")
    stretches, _, nodes = background.analyse(Game.objects.get(pk=game.pk))
    middle = asked[3][0]
    # The opening and the last stretch: the search, again with the retry budget, then the deep one;
    # the stretch between them only once.
    assert asked == [
        (engine.deal(1), 10),
        (engine.deal(1), 99),
        ("deep", engine.deal(1), 7),
        (middle, 10),
        (after_shuffle, 10),
        (after_shuffle, 99),
        ("deep", after_shuffle, 7),
    ]
    assert middle not in (engine.deal(1), after_shuffle)
    assert nodes == 2 * (10 + 99 + 7) + 10 and [stretch["decided"] for stretch in stretches] == [False] * 3


def test_an_opening_the_deep_search_wins_is_won_with_its_line_and_its_slip(client, monkeypatch, settings):
    settings.ADDICTION_ANALYSIS_BUDGET = settings.ADDICTION_ANALYSIS_RETRY_BUDGET = 1  # too small to decide
    settings.ADDICTION_DEEP_BUDGET = 200_000
    game = new_game(client, WINNABLE_DEAL)
    act(client, game, "shuffle")
    act(client, game, "resign")
    stretches, _, _ = background.analyse(Game.objects.get(pk=game.pk))
    line = solver.search_win(engine.deal(WINNABLE_DEAL), 200_000).line
    assert stretches[0]["verdict"] == "won" and stretches[0]["line"] == " ".join(str(move) for move in line)
    assert stretches[0]["decided"] is False  # where the stretch ended was not decided within 1 position: no slip
    assert stretches[0]["slip"] is None


def test_the_replay_marks_where_each_stretch_could_be_won(client, django_capture_on_commit_callbacks):
    game = given_up(client, django_capture_on_commit_callbacks=django_capture_on_commit_callbacks)
    start = parse_html(client.get(f"/game/{game.pk}/replay/0/"))
    assert start.find("li", data_kind="stretch")["data-stretch-verdict"] == "won"
    assert "From here a win was possible" in start.find(id="win-here").text


def test_an_analysis_is_computed_once_however_often_it_is_asked(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    game = given_up(client, django_capture_on_commit_callbacks=django_capture_on_commit_callbacks)
    monkeypatch.setattr(solver, "analyse_stretch", lambda *args, **kwargs: pytest.fail("searched again"))
    assert not background.analysis_queue(game.pk)  # done: nothing to enqueue
    assert not background.game_analyse(game.pk)  # a task run twice does nothing
    for _ in range(2):
        assert client.get(f"/game/{game.pk}/verdict/", headers=HTMX).status_code == 200


def test_an_analysis_a_worker_holds_is_waited_for_and_taken_over_when_the_worker_died(client, monkeypatch):
    game = new_game(client, WINNABLE_DEAL)
    act(client, game, "resign")  # in the test's transaction: nothing asked yet
    Analysis.objects.create(game_id=game.pk, state=Claimed.RUNNING, claimed_at=timezone.now())
    calls = []
    real = solver.analyse_stretch
    monkeypatch.setattr(solver, "analyse_stretch", lambda *a, **k: calls.append(1) or real(*a, **k))
    waiting = client.get(f"/game/{game.pk}/verdict/", headers=HTMX).content.decode()
    assert "Analysing the game" in waiting and "load delay:2s" in waiting and not calls
    assert parse_html(client.get(f"/game/{game.pk}/verdict/")).find("meta", http_equiv="refresh")
    assert tasks.analyses_ask_again(now=timezone.now()) == 0  # the worker holds it
    Analysis.objects.filter(game_id=game.pk).update(claimed_at=timezone.now() - background.STALE - timedelta(1))
    client.get(f"/game/{game.pk}/verdict/", headers=HTMX)
    assert not calls  # a page asks for nothing (issue 41): the housekeeping asks again
    assert tasks.analyses_ask_again(now=timezone.now(), dry_run=True) == 1
    assert tasks.analyses_ask_again(now=timezone.now()) == 1
    done = client.get(f"/game/{game.pk}/verdict/", headers=HTMX)
    assert parse_html(done).find(data_verdict="won") and calls == [1]
    assert "refresh" not in client.get(f"/game/{game.pk}/verdict/").content.decode()


def test_a_won_game_says_the_fewest_moves_found(client, settings, django_capture_on_commit_callbacks):
    settings.ADDICTION_ANALYSIS_BUDGET = 50_000
    new_game(client, 1)  # a guest cookie
    won = play_win(guest_owner(client), quick_win(), start=timezone.now() - timedelta(hours=1))
    Game.objects.filter(pk=won.pk).update(moves=10_000)  # more than any line the search finds
    with django_capture_on_commit_callbacks(execute=True):
        assert background.analysis_queue(won.pk)
    assert background.game_analyse(won.pk)
    analysis = Analysis.objects.get(game=won)
    assert analysis.fewest_moves is not None and analysis.fewest_moves < 10_000
    assert analysis.stretches[-1]["slip"] is None  # a won stretch did not slip
    answer = parse_html(client.get(f"/game/{won.pk}/verdict/", headers=HTMX))
    assert answer.find("p", data_fewest=str(analysis.fewest_moves))


# --------------------------------------------------------------------------- the hints' background search


def test_the_deal_asks_for_a_search_and_then_hints_follow_its_line(
    client, settings, django_capture_on_commit_callbacks
):
    settings.ADDICTION_DEEP_BUDGET = 50_000
    with django_capture_on_commit_callbacks(execute=True):
        game = new_game(client, WINNABLE_DEAL)
    search = StretchSearch.objects.get(position=background.position_key(engine.deal(WINNABLE_DEAL)))
    assert search.state == Claimed.DONE and search.found
    line = solver.search_win(engine.deal(WINNABLE_DEAL), 50_000).line
    assert KnownStep.objects.count() == len(line)
    # Every hint along the line is a lookup: the line's next move, whoever asks.
    state = Game.objects.get(pk=game.pk).state()
    for move in line[:5]:
        assert background.known_hint(state.position) == engine.Hint.of(move)
        state = state.play(move)


def test_a_shuffle_asks_for_the_search_from_the_table_it_deals(client, django_capture_on_commit_callbacks):
    game = new_game(client, 1)
    with django_capture_on_commit_callbacks(execute=True):
        act(client, game, "shuffle")
    dealt = Game.objects.get(pk=game.pk).state().position
    assert StretchSearch.objects.get(position=background.position_key(dealt)).state == Claimed.DONE


def test_a_hint_off_every_line_asks_for_the_search_from_where_its_move_leads_a_few_times_a_stretch(
    client, settings, django_capture_on_commit_callbacks
):
    settings.ADDICTION_REQUEST_SEARCH_BUDGET = 0  # the request's hint is advise's
    settings.ADDICTION_SEARCHES_PER_STRETCH = 2
    with django_capture_on_commit_callbacks(execute=True):
        game = new_game(client, 1)  # deal 1: no win within the tests' 5,000 positions
    assert StretchSearch.objects.count() == 1 and not KnownStep.objects.exists()
    owner = guest_owner(client)
    with django_capture_on_commit_callbacks(execute=True):
        hinted = hint_for(owner=owner, game_id=game.pk, version=0).game
    state = hinted.state()
    move = solver.advise(state.position, state.shuffles_left).hint
    assert hinted.hint == str(engine.Hint.of(move))
    leads_to = state.position.play(move)
    assert StretchSearch.objects.filter(position=background.position_key(leads_to)).exists()
    # The stretch has asked for its two searches: the next hint asks for none.
    game_act(owner=owner, game_id=game.pk, version=0, kind="move", slot=move.src, to=move.dst)
    with django_capture_on_commit_callbacks(execute=True):
        hint_for(owner=owner, game_id=game.pk, version=1)
    assert StretchSearch.objects.count() == 2


def test_the_requests_own_search_keeps_the_line_it_finds(client, settings, django_capture_on_commit_callbacks):
    settings.ADDICTION_REQUEST_SEARCH_BUDGET = 200_000
    game = new_game(client, 1)  # its deal's search not run: the request finds the line itself
    with django_capture_on_commit_callbacks(execute=True):
        hinted = hint_for(owner=guest_owner(client), game_id=game.pk, version=0).game
    line = solver.search_win(engine.deal(1), 200_000).line
    assert line and hinted.hint == str(engine.Hint.of(line[0]))
    assert KnownStep.objects.count() == len(line)
    assert not StretchSearch.objects.exists()  # its move leads along a known line: nothing more to search


def test_a_position_is_searched_once_for_every_game_that_reaches_it(client, monkeypatch, settings):
    settings.ADDICTION_DEEP_BUDGET = 50_000
    calls = []
    real = solver.search_win
    monkeypatch.setattr(solver, "search_win", lambda *a: calls.append(1) or real(*a))
    deal = engine.deal(WINNABLE_DEAL)
    for _ in range(2):
        if background.search_queue(deal):
            background.stretch_search(str(deal))
    assert calls == [1]
    assert not background.stretch_search(str(deal))  # a task run again does nothing


def test_a_hint_is_kept_by_position_and_shuffles_left(client, monkeypatch):
    game = new_game(client, 1)
    state = game.state()
    from games.services import position_hint

    first = position_hint(state)
    monkeypatch.setattr(solver, "request_hint", lambda *a, **k: pytest.fail("searched twice"))
    assert position_hint(state) == first
    assert text_of(client.get(f"/game/{game.pk}/"))  # the page still renders


def test_games_finished_before_analyses_are_queued_by_the_command(client, settings):
    from django.core.management import call_command

    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend", "QUEUES": ["default"]}}
    game = new_game(client, WINNABLE_DEAL)
    act(client, game, "resign")  # in the test's transaction: its own analysis was never asked
    new_game(client, 1)  # not finished: not queued
    call_command("analyse_games", verbosity=0)
    call_command("analyse_games", verbosity=0)  # again: nothing more
    assert list(Analysis.objects.values_list("game_id", "state")) == [(game.pk, "queued")]
    from django_tasks import task_backends

    assert [result.args for result in task_backends["default"].results] == [[game.pk]]  # one task, once


# --------------------------------------------------------------------------- the deal itself, on the end screen


def test_the_end_screen_says_the_deal_itself_could_be_won_after_a_shuffle(client, django_capture_on_commit_callbacks):
    game = new_game(client, WINNABLE_DEAL)
    act(client, game, "shuffle")
    with django_capture_on_commit_callbacks(execute=True):
        act(client, game, "resign")
    page = parse_html(client.get(f"/game/{game.pk}/verdict/", headers=HTMX))
    said = page.find("p", data_opening=True)
    assert said["data-opening"] == "won" and "could be won from the start, with no shuffle" in said.text
    line = Analysis.objects.get(game=game).stretches[0]["line"].split()
    assert len(page.find("details", class_="opening-line").find_all("li")) == len(line)
    assert page.find("a", href=f"/game/{game.pk}/replay/0/")


def test_the_deal_that_could_not_be_won_without_a_shuffle_says_so(client, monkeypatch):
    game = new_game(client, 1)
    act(client, game, "shuffle")
    act(client, game, "resign")
    monkeypatch.setattr(solver, "solve", lambda position, budget: solver.SolveResult(solver.Verdict.PROVED_LOST, [], 1))
    client.post(f"/game/{game.pk}/verdict/")  # asks; the tests' tasks run at once
    page = parse_html(client.get(f"/game/{game.pk}/verdict/", headers=HTMX))
    assert page.find("p", data_opening="proved_lost")


def test_a_game_with_no_shuffle_says_nothing_more_of_its_deal(client, django_capture_on_commit_callbacks):
    game = new_game(client, WINNABLE_DEAL)
    with django_capture_on_commit_callbacks(execute=True):
        act(client, game, "resign")
    page = parse_html(client.get(f"/game/{game.pk}/verdict/", headers=HTMX))
    assert page.find("div", class_="analysis") and not page.find_all("p", data_opening=True)
    assert "You could have won from the deal with no shuffle at all." in page.text


def test_the_analysis_says_plainly_which_stretch_could_be_won_and_what_would_have_kept_it():
    """Issue 45: "It slipped away at step 16 (the shuffle)" becomes what the player did and what
    would have kept the win; each stretch judged gets its own sentence."""
    from games.presenters.analysis import slip_sentence, verdict_sentence

    shuffled = slip_sentence("After shuffle 1", engine.ActionKind.SHUFFLE.value, 16, "the shuffle", "5D to 1-4")
    assert shuffled == (
        "After shuffle 1, a win was possible without another shuffle. At step 16 you shuffled; "
        "5D to 1-4 would have kept the win."
    )
    moved = slip_sentence("From the deal", engine.ActionKind.MOVE.value, 3, "7C to 2-2", "5D to 1-4")
    assert "At step 3 you played 7C to 2-2; 5D to 1-4 would have kept the win." in moved
    assert "you gave up" in slip_sentence("From the deal", engine.ActionKind.RESIGN.value, 9, "giving up", "x")
    assert slip_sentence("From the deal", "", None, "", "") == ""
    assert verdict_sentence("After shuffle 2", "proved_lost") == (
        "After shuffle 2, no win was possible without another shuffle."
    )
    assert "not decided" in verdict_sentence("After shuffle 2", "unknown")
