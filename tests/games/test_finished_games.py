"""A finished game's own pages (games/views.py; docs/RULES.md, "Fairness and verification"):
its seed shown once it is over, its verification against the seed, and its replay step by step,
a tampered log said where it stops.

Wins are real: found by the engine and played through ``services.game_act``
(tests/winning.py).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import cache
from django.db.models import F

from games import engine
from games.models import Action, Game
from games.replay import replay_states
from games.services import game_rank, game_start, game_verify
from tests.helpers import (
    HTMX,
    Element,
    a_movable_slot,
    account,
    act_on_service,
    grid,
    logged_in,
    new_game,
    parse_html,
    text_of,
)
from tests.winning import lose_stuck, play_actions, quick_win, recorded_win, reseed, user_owner

pytestmark = pytest.mark.django_db

SECOND = timedelta(seconds=1)


# --------------------------------------------------------------------------- fairness


def test_the_seed_is_shown_only_once_the_game_is_over():
    ada = account()
    client = logged_in(ada)
    win = quick_win()
    game = reseed(new_game(client, win.deal_number), win.seed)
    game = play_actions(user_owner(ada), game, win.actions[:-1], start=datetime(2026, 5, 1, tzinfo=UTC), step=SECOND)
    digest = hashlib.sha256(str(win.seed).encode()).hexdigest()
    html = client.get(f"/game/{game.pk}/").content.decode()
    assert digest in html and str(win.seed) not in html  # nowhere in the page, not even an attribute
    assert client.get(f"/game/{game.pk}/verify/").status_code == 404, "nothing to verify before the end"

    play_actions(user_owner(ada), game, win.actions[-1:], start=datetime(2026, 5, 2, tzinfo=UTC), step=SECOND)
    shown = [code.text for code in parse_html(client.get(f"/game/{game.pk}/")).find_all("code")]
    assert digest in shown and str(win.seed) in shown


def verdict(response) -> str:
    assert response.status_code == 200
    return parse_html(response).find(id="verdict")["data-ok"]


@pytest.fixture
def finished_games():
    """ada's won game (with an undo in its log), a game she gave up after two moves, and one lost stuck."""
    ada = account("ada")
    win = quick_win().with_undo(3)
    won = recorded_win(user_owner(ada), win, finished_at=datetime(2026, 5, 1, tzinfo=UTC))
    assert won.moves == win.moves and Action.objects.filter(game=won, kind="undo").count() == 1
    gave_up = game_start(owner=user_owner(ada), deal_number=50)
    for i in range(2):
        act_on_service(
            user_owner(ada), gave_up, "move", a_movable_slot(gave_up), now=datetime(2026, 5, 2, tzinfo=UTC) + i * SECOND
        )
    gave_up = act_on_service(user_owner(ada), gave_up, "resign", now=datetime(2026, 5, 2, 0, 1, tzinfo=UTC))
    lost = lose_stuck(ada, 51, now=datetime(2026, 5, 3, tzinfo=UTC))
    return ada, win, {"won": won, "gave up": gave_up, "lost": lost}


def test_an_honest_game_verifies(finished_games):
    ada, _win, games = finished_games
    client = logged_in(ada)
    for name in ("won", "gave up"):
        game = games[name]
        response = client.get(f"/game/{game.pk}/verify/")
        assert verdict(response) == "true", name
        assert "Everything matches" in text_of(response)
        page = parse_html(response)
        checks = [row for row in page.find_all("tr") if row.classes & {"ok", "bad"}]  # seed, 5 columns, time, ...
        assert len(checks) >= 7 and all(row.classes == {"ok"} for row in checks)
        assert game.seed in [code.text for code in page.find_all("code")]


def test_a_game_whose_table_was_set_by_hand_does_not_verify(finished_games):
    """The lost game's table was set without a log that leads to it (as a cheat would)."""
    ada, _win, games = finished_games
    response = logged_in(ada).get(f"/game/{games['lost'].pk}/verify/")
    assert verdict(response) == "false"
    assert "Something does not match" in text_of(response)


def change_a_move(game: Game):
    """The first move's card goes to another gap (as text, the log's own notation)."""
    action = game.actions.filter(kind="move").order_by("number").first()
    move = engine.Move.parse(action.move)
    other = next(g for g in engine.deal(game.deal_number).gaps() if g != move.dst)
    Action.objects.filter(pk=action.pk).update(move=str(engine.Move(move.card, move.src, other)))


def delete_an_action(game: Game):
    number = game.actions.count() // 2
    Action.objects.filter(game=game, number=number).delete()


def change_the_position(game: Game):
    Game.objects.filter(pk=game.pk).update(position=str(engine.deal(game.deal_number)))


def change_the_moves(game: Game):
    Game.objects.filter(pk=game.pk).update(moves=game.moves - 1)


def change_the_seed(game: Game):
    Game.objects.filter(pk=game.pk).update(seed=str(int(game.seed) + 1))


def garble_a_move(game: Game):
    Action.objects.filter(game=game, kind="move", number=1).update(move="not a move")


def garble_the_position(game: Game):
    """A stored table that is not even notation must still be reported, not crash the page."""
    Game.objects.filter(pk=game.pk).update(position="2S 3S / -- --")


def point_undo_elsewhere(game: Game):
    """The game names a wrong action for undo to take back."""
    Game.objects.filter(pk=game.pk).update(undo_top=F("undo_top") + 1)


def point_a_log_row_elsewhere(game: Game):
    Action.objects.filter(game=game, number=2).update(undo_top=F("undo_top") + 7)


TAMPERS = [
    change_a_move,
    delete_an_action,
    change_the_position,
    change_the_moves,
    change_the_seed,
    garble_a_move,
    garble_the_position,
    point_undo_elsewhere,
    point_a_log_row_elsewhere,
]


@pytest.mark.parametrize("tamper", TAMPERS)
def test_a_tampered_game_does_not_verify(finished_games, tamper):
    ada, _win, games = finished_games
    game = games["won"]
    assert game_verify(Game.objects.get(pk=game.pk)).ok
    tamper(game)
    stored = Game.objects.get(pk=game.pk)
    assert not game_verify(stored, fresh=True).ok  # the audit (verify_games) replays the log as it is now
    # The pages read the replay kept once played: a log changed behind the site's back after
    # it was kept shows only once it is played again.
    cache.clear()
    response = logged_in(ada).get(f"/game/{game.pk}/verify/")
    assert verdict(response) == "false"
    assert "Something does not match" in text_of(response)


@pytest.mark.parametrize("tamper", TAMPERS)
def test_a_tampered_win_is_not_ranked(finished_games, tamper):
    _ada, _win, games = finished_games
    tamper(games["won"])
    assert game_rank(game=Game.objects.get(pk=games["won"].pk)) is False


# --------------------------------------------------------------------------- replays


def test_every_step_of_a_replay_has_its_own_page(finished_games):
    ada, win, games = finished_games
    client = logged_in(ada)
    game = games["won"]
    last = len(win.actions)
    assert grid(client.get(f"/game/{game.pk}/replay/")) == grid(client.get(f"/game/{game.pk}/replay/0/"))
    kinds = [kind for kind, _slot in win.actions]
    shuffles = [i + 1 for i, kind in enumerate(kinds) if kind == "shuffle"]
    undo = kinds.index("undo") + 1
    for step in sorted({0, 1, 2, undo - 1, undo, undo + 1, *shuffles, last - 1, last}):
        response = client.get(f"/game/{game.pk}/replay/{step}/")
        assert response.status_code == 200, step
        shown, expected = grid(response), win.state_after(step)
        assert shown.position == str(expected.position), step
        assert (shown.moves, shown.shuffles_left, shown.status) == (
            expected.moves,
            expected.shuffles_left,
            expected.status.value,
        ), step
        assert f"Step {step} of {last}" in text_of(response)
        page = parse_html(response)
        assert bool(page.find_all("a", href=f"/game/{game.pk}/replay/{step + 1}/")) == (step < last), step
        assert bool(page.find_all("a", href=f"/game/{game.pk}/replay/{step - 1}/")) == (step > 0), step
    assert f"Move {win.state_after(undo).moves}: undone" in text_of(client.get(f"/game/{game.pk}/replay/{undo}/"))
    assert "Shuffle: 2 left" in text_of(client.get(f"/game/{game.pk}/replay/{shuffles[0]}/"))
    end = grid(client.get(f"/game/{game.pk}/replay/{last}/"))
    assert end.position == game.position and end.status == "won"
    assert engine.Position.parse(end.position).is_won()
    assert client.get(f"/game/{game.pk}/replay/{last + 1}/").status_code == 404
    assert client.get(f"/game/{game.pk}/replay/{10**17}/").status_code == 404


def test_an_htmx_replay_step_is_just_the_replay_section(finished_games):
    ada, _win, games = finished_games
    game = games["gave up"]
    response = logged_in(ada).get(f"/game/{game.pk}/replay/1/", headers=HTMX)
    assert response.status_code == 200
    page = parse_html(response)
    assert [(element.tag, element.get("id")) for element in page.children if isinstance(element, Element)] == [
        ("section", "replay")
    ]
    assert not "".join(text for text in page.children if isinstance(text, str)).strip()
    after_first = list(replay_states(game))[1][1]
    assert grid(response).position == str(after_first.position) != str(engine.deal(game.deal_number))
    assert page.find("a", rel="next")["hx-get"] == f"/game/{game.pk}/replay/2/"


def test_a_tampered_log_replays_as_far_as_it_can_and_says_where_it_stops(finished_games):
    ada, win, games = finished_games
    game = games["won"]
    # The 10th action now takes a card that is not where the log says.
    tenth = game.actions.get(number=10)
    assert tenth.kind == "move"
    move = engine.Move.parse(tenth.move)
    other = next(slot for slot in [(r, c) for r in range(4) for c in range(13)] if slot != move.src)
    Action.objects.filter(pk=tenth.pk).update(move=str(engine.Move(move.card, other, move.dst)))
    client = logged_in(ada)
    for step in (0, 9):
        response = client.get(f"/game/{game.pk}/replay/{step}/")
        assert response.status_code == 200
        assert "The log stops replaying after step 9" in text_of(response)
        assert grid(response).position == str(win.state_after(step).position)
    for step in (10, len(win.actions)):
        assert client.get(f"/game/{game.pk}/replay/{step}/").status_code == 404
    garble_a_move(game)
    cache.clear()  # the replay kept is of the log as first played: this one is played again
    response = client.get(f"/game/{game.pk}/replay/")
    assert response.status_code == 200 and "The log stops replaying after step 0" in text_of(response)


def test_a_game_in_progress_has_no_replay_yet(client):
    game = new_game(client, 1)
    assert client.get(f"/game/{game.pk}/replay/").status_code == 404
    assert client.get(f"/game/{game.pk}/replay/0/").status_code == 404


def test_a_hand_edited_time_or_ranking_does_not_verify(finished_games):
    ada, _win, games = finished_games
    won = games["won"]
    Game.objects.filter(pk=won.pk).update(elapsed_ms=won.elapsed_ms - 1000)
    assert verdict(logged_in(ada).get(f"/game/{won.pk}/verify/")) == "false"
    Game.objects.filter(pk=won.pk).update(elapsed_ms=won.elapsed_ms, ranked=False)
    assert verdict(logged_in(ada).get(f"/game/{won.pk}/verify/")) == "false"
