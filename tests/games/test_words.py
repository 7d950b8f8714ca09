"""The words players read: counts in their singular and plural forms, a replay's steps, the verify page,
the seed at the end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from games import engine
from games.models import Game
from games.presenters.words import card_name
from tests.helpers import (
    HTMX,
    ONE_MOVE_FROM_STUCK,
    ONE_MOVE_FROM_WIN,
    a_movable_slot,
    act,
    new_game,
    parse_html,
    set_layout,
    text_of,
)
from tests.winning import quick_win, recorded_win, user_owner

pytestmark = pytest.mark.django_db

START = datetime(2026, 1, 1, tzinfo=UTC)


def result_of(response) -> str:
    return parse_html(response).find(class_="result").text


@pytest.mark.parametrize(("moves", "words"), [(1, "1 move,"), (2, "2 moves,")])
def test_a_game_given_up_after_one_move_says_1_move(client, game, moves, words):
    for _ in range(moves):
        act(client, game, "move", slot=a_movable_slot(game))
    result = result_of(act(client, game, "resign"))
    assert words in result
    assert "1 moves" not in result


@pytest.mark.parametrize(("moves_before", "words"), [(0, "You won, in 1 move and"), (6, "You won, in 7 moves and")])
def test_a_win_counts_its_moves_in_words(client, game, moves_before, words):
    set_layout(game, ONE_MOVE_FROM_WIN, moves=moves_before)
    assert words in result_of(act(client, game, "move", slot=(0, 12)))


@pytest.mark.parametrize(("wins", "label"), [(1, "Time of 1 won game, from"), (2, "Times of 2 won games, from")])
def test_the_profile_chart_counts_its_wins(client, django_user_model, wins, label):
    player = django_user_model.objects.create_user("dario")
    for day in range(wins):
        recorded_win(user_owner(player), quick_win(), finished_at=START + timedelta(days=day))
    chart = parse_html(client.get("/players/dario/")).find("svg")
    assert chart["aria-label"].startswith(label)


def test_htmx_and_page_say_the_same_count(client, game):
    act(client, game, "move", slot=a_movable_slot(game))
    act(client, game, "resign")
    assert "1 move," in text_of(client.get(f"/game/{game.pk}/"))
    assert "1 move," in text_of(client.get(f"/game/{game.pk}/", headers=HTMX))


# --------------------------------------------------------------------------- the replay's words


def words_of_move(number: int, move: engine.Move) -> str:
    return (
        f"Move {number}: {card_name(move.card)} from row {move.src[0] + 1}, column {move.src[1] + 1}"
        f" to row {move.dst[0] + 1}, column {move.dst[1] + 1}"
    )


@pytest.fixture
def replayed(client, game) -> tuple[Game, list[engine.Move]]:
    """``game`` played: two moves, an undo, a shuffle, then given up (steps 1 to 5)."""
    moves = []
    for _ in range(2):
        slot = a_movable_slot(game)
        moves.append(next(m for m in Game.objects.get(pk=game.pk).state().position.legal_moves() if m.src == slot))
        act(client, game, "move", slot=slot)
    for kind in ("undo", "shuffle", "resign"):
        assert act(client, game, kind).status_code == 200
    return game, moves


def step_page(client, game: Game, step: int, htmx: bool = False):
    response = client.get(f"/game/{game.pk}/replay/{step}/", headers=HTMX if htmx else {})
    assert response.status_code == 200
    return parse_html(response)


def moved_slots(page) -> list[str]:
    return [slot["data-slot"] for slot in page.find(id="grid").find_all(class_="moved")]


def test_the_replay_says_each_step_in_the_players_terms_counted_from_1(client, replayed):
    game, (first, second) = replayed
    assert step_page(client, game, 0).find(id="replay-action").text == "The deal."
    assert step_page(client, game, 1).find(id="replay-action").text == words_of_move(1, first)
    assert step_page(client, game, 2, htmx=True).find(id="replay-action").text == words_of_move(2, second)
    assert step_page(client, game, 3).find(id="replay-action").text == (
        f"Move 3: undone, {card_name(second.card)} back to row {second.src[0] + 1}, column {second.src[1] + 1}"
    )
    assert step_page(client, game, 4).find(id="replay-action").text == "Shuffle: 2 left"
    assert step_page(client, game, 5).find(id="replay-action").text == "Gave up"


def test_the_replay_marks_the_card_each_step_moved(client, replayed):
    game, (first, second) = replayed
    assert moved_slots(step_page(client, game, 0)) == []
    assert moved_slots(step_page(client, game, 1)) == [f"{first.dst[0]}-{first.dst[1]}"]
    assert moved_slots(step_page(client, game, 2, htmx=True)) == [f"{second.dst[0]}-{second.dst[1]}"]
    assert moved_slots(step_page(client, game, 3)) == [f"{second.src[0]}-{second.src[1]}"]  # the undo put it back
    assert moved_slots(step_page(client, game, 4)) == []


def test_the_replay_offers_play_to_scripts_and_keeps_its_links_without(client, replayed):
    game, _moves = replayed
    page = step_page(client, game, 2)
    assert "hidden" in page.find("button", id="replay-play").attrs
    assert page.find("a", rel="next")["href"] == f"/game/{game.pk}/replay/3/"
    assert any(script.get("src", "").endswith("games/replay.js") for script in page.find_all("script"))


# --------------------------------------------------------------------------- the verify page's words


def checks_of(response) -> dict[str, tuple[str, str, str]]:
    """The verify page's table: each check's name, then its stored, replayed and same? cells."""
    rows = parse_html(response).find("table", class_="checks").find_all("tr", class_=True)
    return {row.find("th").text: tuple(cell.text for cell in row.find_all("td")) for row in rows}


@pytest.fixture
def won(client, django_user_model) -> Game:
    player = django_user_model.objects.create_user("ada")
    game = recorded_win(user_owner(player), quick_win(), finished_at=START)
    assert game.ranked
    client.force_login(player)
    return game


def test_the_verify_page_says_results_and_yes_or_no_in_words(client, won):
    response = client.get(f"/game/{won.pk}/verify/")
    checks = checks_of(response)
    assert checks["Result"] == ("won", "won", "yes")
    assert checks["On the leaderboards"] == ("yes", "yes", "yes")
    assert "True" not in text_of(response)


def test_the_verify_page_says_them_in_the_players_language(client, won):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    checks = checks_of(client.get(f"/game/{won.pk}/verify/"))
    with translation.override("it"):
        won_word, yes = gettext("won"), gettext("yes")
    assert (won_word, yes) == ("vinta", "sì")  # the catalogue's words, so the test can tell them from the values
    assert checks[translation_of("Result", "it")] == (won_word, won_word, yes)
    assert checks[translation_of("On the leaderboards", "it")] == (yes, yes, yes)


def test_a_lost_games_result_is_a_word_too(client, game):
    act(client, game, "move", slot=a_movable_slot(game))
    act(client, game, "resign")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "it"
    checks = checks_of(client.get(f"/game/{game.pk}/verify/"))
    assert checks[translation_of("Result", "it")][:2] == ("persa", "persa")


def translation_of(text: str, language: str) -> str:
    with translation.override(language):
        return gettext(text)


# --------------------------------------------------------------------------- the seed, at once


def fairness_of(response):
    return parse_html(response).find(id="fairness")


@pytest.mark.parametrize("ending", ["win", "stuck", "resign"])
def test_the_action_that_ends_a_game_brings_its_seed_out_of_band(client, game, ending):
    seed = Game.objects.get(pk=game.pk).seed
    assert seed not in client.get(f"/game/{game.pk}/", headers=HTMX).content.decode()  # not before the end
    if ending == "win":
        set_layout(game, ONE_MOVE_FROM_WIN)
        response = act(client, game, "move", slot=(0, 12))
    elif ending == "stuck":
        set_layout(game, ONE_MOVE_FROM_STUCK, shuffles_used=3)
        response = act(client, game, "move", slot=(0, 12))
    else:
        response = act(client, game, "resign")
    assert Game.objects.get(pk=game.pk).is_over
    fairness = fairness_of(response)
    assert fairness["hx-swap-oob"] == "true"
    assert seed in [code.text for code in fairness.find_all("code")]
    page = fairness_of(client.get(f"/game/{game.pk}/"))  # the page says the same, in place
    assert "hx-swap-oob" not in page.attrs and seed in page.text


# --------------------------------------------------------------------------- dates say their time zone


def test_my_games_dates_say_utc(client, game):
    act(client, game, "move", slot=a_movable_slot(game))
    other = Game.objects.get(pk=new_game(client, 2).pk)
    act(client, other, "resign")
    headers = [th.text for th in parse_html(client.get("/my-games/")).find_all("th")]
    assert "Last played (UTC)" in headers and "Finished (UTC)" in headers


def test_the_boards_today_and_this_week_say_utc(client):
    tabs = [a.text for a in parse_html(client.get("/leaderboards/")).find("nav", aria_label="Period").find_all("a")]
    assert tabs == ["All time", "This week (UTC)", "Today (UTC)"]


def test_the_profile_charts_dates_say_utc(client, won):
    assert parse_html(client.get("/players/ada/")).find(class_="chart-range").text.endswith("(UTC)")


def test_the_privacy_page_counts_the_login_lock_and_the_records_days(client, settings):
    settings.AXES_COOLOFF_TIME = timedelta(minutes=1)
    settings.ADDICTION_LOGIN_RECORD_DAYS = 1
    text = text_of(client.get("/privacy/"))
    assert "stopped: 1 minute after the last failure" in text and "deleted after 1 day." in text
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    settings.ADDICTION_LOGIN_RECORD_DAYS = 30
    text = text_of(client.get("/privacy/"))
    assert "stopped: 15 minutes after the last failure" in text and "deleted after 30 days." in text
