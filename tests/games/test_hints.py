"""Hints in the game (docs/RULES.md, "Hints and assisted games") and the verdict after a
lost game ("Analysis"): the solver's advice reaches the table as data and words,
a hinted move is played exactly, a hint makes the game assisted and keeps it off every
board, and a hint is refused like an action on a stale page or a finished game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import engine, solver
from games.models import Game
from games.services import game_rank, game_start, hint_for
from records.models import BoardEntry
from tests.helpers import HTMX, TWO_COLUMN_0_GAPS, act, grid, new_game, parse_html, set_layout, text_of, without_clock
from tests.winning import play_actions, quick_win, reseed, user_owner

pytestmark = pytest.mark.django_db
UTC = UTC


def ask_hint(client, game: Game, *, version: int | None = None, htmx: bool = True):
    version = Game.objects.get(pk=game.pk).version if version is None else version
    return client.post(f"/game/{game.pk}/hint/", {"version": version}, headers=HTMX if htmx else {})


def test_a_hint_lights_the_card_and_its_gap_says_it_and_makes_the_game_assisted(client):
    game = new_game(client, 1)
    expected = solver.request_hint(game.state().position, game.state().shuffles_left).hint
    assert isinstance(expected, engine.Move) and game.state().position.is_legal(expected)
    response = ask_hint(client, game)
    assert response.status_code == 200
    page = parse_html(response)
    form = page.find("form", id="grid")
    assert form["data-hint"] == str(engine.Hint.of(expected))
    assert form["data-version"] == "0"  # a hint is not an action
    lit = {
        slot["data-slot"]: slot.classes
        for slot in page.find_all(data_slot=True)
        if slot.classes & {"hint-from", "hint-to"}
    }
    src, dst = (f"{r}-{c}" for r, c in (expected.src, expected.dst))
    assert lit == {src: lit[src], dst: lit[dst]} and "hint-from" in lit[src] and "hint-to" in lit[dst]
    words = text_of(response)
    assert "Hint: move" in words and f"row {expected.src[0] + 1}, column {expected.src[1] + 1}" in words
    game.refresh_from_db()
    assert game.assisted and game.version == 0 and game.hint_version == 0


def test_the_first_hint_asks_first_and_later_ones_do_not(client):
    game = new_game(client, 1)
    button = parse_html(client.get(f"/game/{game.pk}/")).find("button", id="hint-button")
    assert "not ranked" in button["data-confirm"]
    ask_hint(client, game)
    assert "data-confirm" not in parse_html(client.get(f"/game/{game.pk}/")).find("button", id="hint-button").attrs


def test_asking_again_does_not_search_again_and_a_move_clears_the_hint(client, monkeypatch):
    game = new_game(client, 1)
    calls = []
    real = solver.request_hint
    monkeypatch.setattr(solver, "request_hint", lambda *args, **kwargs: calls.append(args) or real(*args, **kwargs))
    first, again = ask_hint(client, game), ask_hint(client, game)
    assert len(calls) == 1
    assert (without_clock(grid(first).attrs), grid(first).slots) == (
        without_clock(grid(again).attrs),
        grid(again).slots,
    )
    hint = parse_html(first).find("form", id="grid")["data-hint"]
    source, target = hint.split(">")
    moved = act(client, game, "move", slot=source)
    assert moved.status_code == 200
    assert "data-hint" not in parse_html(moved).find("form", id="grid").attrs


def test_a_hinted_move_is_played_exactly_even_a_2_to_the_gap_a_click_would_not_choose(client):
    game = set_layout(new_game(client, 1), TWO_COLUMN_0_GAPS)
    # A click on 2S (0-12) takes it to the topmost column-0 gap, 0-0; the form may name 1-0.
    response = client.post(
        f"/game/{game.pk}/move/", {"version": game.version, "slot": "0-12", "to": "1-0"}, headers=HTMX
    )
    assert response.status_code == 200
    game.refresh_from_db()
    position = game.state().position
    assert position.card_at((1, 0)) == "2S" and position.card_at((0, 0)) is None


@pytest.mark.parametrize("to", ["2-5", "0-0x", "9-9"])
def test_a_destination_the_rules_refuse_changes_nothing(client, to):
    game = new_game(client, 1)
    response = client.post(f"/game/{game.pk}/move/", {"version": 0, "slot": "0-12", "to": to}, headers=HTMX)
    assert response.status_code in (400, 422)
    assert Game.objects.get(pk=game.pk).version == 0


def test_a_hint_on_a_stale_page_or_a_finished_game_is_refused(client):
    game = new_game(client, 1)
    act(client, game, "move", slot=game.state().position.legal_moves()[0].src)
    assert ask_hint(client, game, version=0).status_code == 409
    act(client, game, "resign")
    assert ask_hint(client, game).status_code == 422
    assert not Game.objects.get(pk=game.pk).assisted


def test_a_hint_of_another_players_game_is_not_found(client):
    game = new_game(client, 1)
    assert Client().post(f"/game/{game.pk}/hint/", {"version": 0}, headers=HTMX).status_code == 404


def test_hints_work_without_scripts_too(client):
    game = new_game(client, 1)
    response = ask_hint(client, game, htmx=False)
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert "data-hint" in parse_html(page).find("form", id="grid").attrs


def test_an_assisted_win_is_not_ranked_and_enters_no_board():
    ada = User.objects.create_user("ada", password="lantern-orchard-plum-3")
    owner, win = user_owner(ada), quick_win()
    start = datetime(2026, 5, 1, tzinfo=UTC)
    game = reseed(game_start(owner=owner, deal_number=win.deal_number), win.seed)
    game = play_actions(owner, game, win.actions[:-1], start=start, step=timedelta(seconds=1))
    hint_for(owner=owner, game_id=game.pk, version=game.version)
    game = play_actions(
        owner,
        Game.objects.get(pk=game.pk),
        win.actions[-1:],
        start=start + timedelta(minutes=5),
        step=timedelta(seconds=1),
    )
    assert game.status == "won" and game.assisted and not game.ranked
    assert not BoardEntry.objects.exists()
    assert game_rank(game=Game.objects.get(pk=game.pk)) is False


# --------------------------------------------------------------------------- the verdict after a lost game

# Deal 17 can be won from its opening with no shuffle (the solver finds a line in ~100 nodes).
WINNABLE_DEAL = 17


def test_a_lost_game_whose_stretch_could_be_won_says_so_with_a_line_that_wins(client):
    game = new_game(client, WINNABLE_DEAL)
    act(client, game, "resign")  # in the test's transaction: its analysis is not asked for yet
    page = client.get(f"/game/{game.pk}/")
    button = parse_html(page).find(id=f"verdict-{game.pk}")
    assert button.tag == "form" and button["hx-post"] == f"/game/{game.pk}/verdict/"  # a GET asks nothing
    response = client.post(f"/game/{game.pk}/verdict/", headers=HTMX)
    assert response.status_code == 200
    assert parse_html(response).find(data_verdict="won")
    assert "You could have won" in text_of(response)
    game.refresh_from_db()
    assert game.verdict == "won"
    state = engine.GameState.start(deal_number=WINNABLE_DEAL, seed=1)
    for text in game.verdict_line.split():
        state = state.play(engine.Move.parse(text))
    assert state.status is engine.Status.WON
    steps = parse_html(response).find("ol", class_="winning-line").find_all("li")
    assert len(steps) == len(game.verdict_line.split())
    # Kept: the end screen and the replay show it without searching again.
    assert parse_html(client.get(f"/game/{game.pk}/")).find(data_verdict="won")
    assert parse_html(client.get(f"/game/{game.pk}/replay/")).find(data_verdict="won")


def test_the_verdict_is_searched_once(client, monkeypatch):
    game = new_game(client, WINNABLE_DEAL)
    act(client, game, "resign")
    calls = []
    real = solver.solve
    monkeypatch.setattr(solver, "solve", lambda *args: calls.append(args) or real(*args))
    for _ in range(2):
        assert client.post(f"/game/{game.pk}/verdict/", follow=True).status_code == 200
        assert client.get(f"/game/{game.pk}/verdict/").status_code == 200
    # One analysis: the deal's stretch searched from its start and from where it was given up.
    assert len(calls) == 2 and calls[0][0] == engine.deal(WINNABLE_DEAL)


def test_a_verdict_searches_from_the_last_shuffle(client, monkeypatch):
    game = new_game(client, 1)
    act(client, game, "shuffle")
    after_shuffle = Game.objects.get(pk=game.pk).state().position
    act(client, game, "move", slot=after_shuffle.legal_moves()[0].src) if after_shuffle.legal_moves() else None
    act(client, game, "resign")
    seen = []
    monkeypatch.setattr(
        solver,
        "solve",
        lambda position, budget: seen.append(position) or solver.SolveResult(solver.Verdict.PROVED_LOST, [], 1),
    )
    response = client.post(f"/game/{game.pk}/verdict/", follow=True)
    assert seen == [engine.deal(1), after_shuffle]  # each stretch from its start; the last is the verdict
    assert "No win was possible after your last shuffle (shuffle 1), whatever you played." in text_of(response)
    assert Game.objects.get(pk=game.pk).verdict == "proved_lost"


def test_a_budget_too_small_says_undecided(client, settings):
    settings.ADDICTION_ANALYSIS_BUDGET = 3
    settings.ADDICTION_ANALYSIS_RETRY_BUDGET = settings.ADDICTION_DEEP_BUDGET = 3  # the second tries, as small
    game = new_game(client, 1)
    act(client, game, "resign")
    assert "not decided within the search budget" in text_of(client.post(f"/game/{game.pk}/verdict/", follow=True))
    assert Game.objects.get(pk=game.pk).verdict == "unknown"


def test_only_a_lost_game_of_ones_own_has_a_verdict(client):
    game = new_game(client, 1)
    assert client.get(f"/game/{game.pk}/verdict/").status_code == 404  # still playing
    assert client.post(f"/game/{game.pk}/verdict/").status_code == 404
    act(client, game, "resign")
    assert Client().get(f"/game/{game.pk}/verdict/").status_code == 404  # someone else
    assert Client().post(f"/game/{game.pk}/verdict/").status_code == 404


def test_the_profile_counts_assisted_games_apart_and_lost_games_proved_unwinnable(monkeypatch):
    ada = User.objects.create_user("ada", password="lantern-orchard-plum-3")
    client = Client()
    client.force_login(ada)
    own, assisted, proved = (new_game(client, number) for number in (1, 2, 3))
    ask_hint(client, assisted)
    for game in (own, assisted, proved):
        act(client, game, "resign")
    proved_lost = solver.SolveResult(solver.Verdict.PROVED_LOST, [], 1)
    monkeypatch.setattr(solver, "solve", lambda position, budget: proved_lost)
    client.post(f"/game/{proved.pk}/verdict/")
    page = parse_html(client.get("/players/ada/"))
    stat = {element["data-stat"]: element.text.strip() for element in page.find_all(data_stat=True)}
    assert (stat["played"], stat["lost-unwinnable"], stat["assisted"]) == ("2", "1", "1 / 0")
    rows = parse_html(client.get("/my-games/")).find_all(data_assisted=True)
    assert len(rows) == 1


MALFORMED = [{}, {"version": "x"}, {"version": "-1"}, {"version": "9" * 30}, {"version": ["0", "a"]}]


@pytest.mark.parametrize("data", MALFORMED)
def test_a_malformed_hint_post_is_a_clean_400_and_changes_nothing(client, data):
    game = new_game(client, 1)
    response = client.post(f"/game/{game.pk}/hint/", data, headers=HTMX)
    assert response.status_code == 400
    game.refresh_from_db()
    assert (game.assisted, game.hint, game.hint_version) == (False, "", None)


def test_a_hint_is_asked_by_post_only(client):
    game = new_game(client, 1)
    assert client.get(f"/game/{game.pk}/hint/").status_code == 405
    assert not Game.objects.get(pk=game.pk).assisted


def test_a_game_given_up_before_any_shuffle_has_a_verdict_about_the_deal(client, monkeypatch):
    """Issue 26: given up with every shuffle left, the verdict says what it judged: the deal."""
    game = new_game(client, 1)
    act(client, game, "resign")
    monkeypatch.setattr(solver, "solve", lambda position, budget: solver.SolveResult(solver.Verdict.PROVED_LOST, [], 1))
    page = text_of(client.get(f"/game/{game.pk}/"))
    assert "Could I have won from the deal, with no shuffle?" in page and "last shuffle" not in page
    words = text_of(client.post(f"/game/{game.pk}/verdict/", follow=True))
    assert "No win was possible from the deal without a shuffle" in words and "last shuffle" not in words
