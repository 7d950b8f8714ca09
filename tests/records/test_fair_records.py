"""Issue 12's rules (docs/RULES.md): the clock from first sight, no free re-rolls, the daily
deal and its shared luck, what each board ranks, hidden players, public ranked games."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from daily import deals, services
from daily.models import DailySeed
from games import engine
from games.models import Game
from games.services import game_shown, game_start, games_claim
from records import selectors
from records.models import BoardEntry, Player
from records.services import board_scopes
from tests.helpers import act, act_on_service, grid, guest_token_of, new_game, parse_html, text_of
from tests.winning import play_win, quick_win, user_owner

SECOND = timedelta(seconds=1)
pytestmark = pytest.mark.django_db


def account(name: str) -> User:
    return User.objects.create_user(name, password="unused-in-these-tests-1")


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --------------------------------------------------------------------------- the clock


def test_the_clock_starts_when_the_board_is_first_shown_and_looking_counts():
    ada = account("ada")
    owner = user_owner(ada)
    game = game_start(owner=owner, deal_number=5)
    shown = timezone.now() - timedelta(seconds=6)
    game_shown(game, now=shown)
    game_shown(game, now=shown + timedelta(seconds=3))  # shown again: the clock started already
    stored = Game.objects.get(pk=game.pk)
    assert stored.started_at == stored.last_action_at == shown
    game = act_on_service(
        owner, stored, "move", next(iter(stored.state().position.legal_moves())).src, now=shown + timedelta(seconds=6)
    )
    assert game.elapsed_ms == 6000
    assert list(game.actions.values_list("elapsed_ms", flat=True)) == [6000]


def test_the_game_page_starts_the_clock_once_and_the_grid_carries_the_time(client):
    response = client.post("/new/", {"deal_number": 5})
    game = Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    assert game.started_at is None  # the start alone does not: nobody has seen the deal yet
    page = client.get(response.url)
    started = Game.objects.get(pk=game.pk).started_at
    assert started is not None
    assert int(grid(page).attrs["data-elapsed-ms"]) >= 0
    client.get(response.url)
    assert Game.objects.get(pk=game.pk).started_at == started


def test_a_long_break_is_said_with_how_much_of_it_counted(client, settings):
    settings.ADDICTION_IDLE_CAP_SECONDS = 120
    game = new_game(client, 5)
    act(client, game, "move", slot=next(iter(game.state().position.legal_moves())).src)
    Game.objects.filter(pk=game.pk).update(last_action_at=timezone.now() - timedelta(hours=3, minutes=5))
    page = client.get(f"/game/{game.pk}/")
    assert "You were away for 3 hours; 2 minutes of it counts in this game's time" in text_of(page)
    elapsed = int(grid(page).attrs["data-elapsed-ms"])
    stored = Game.objects.get(pk=game.pk)
    assert stored.elapsed_ms + 120_000 == elapsed
    assert "You were away" not in text_of(client.get(f"/game/{game.pk}/", headers={"HX-Request": "true"}))


# --------------------------------------------------------------------------- no free re-rolls


def test_a_guests_given_up_deletion_moves_into_the_account_with_the_record(client):
    game = new_game(client, 8)
    act(client, game, "move", slot=next(iter(game.state().position.legal_moves())).src)
    assert client.post(f"/game/{game.pk}/delete/").status_code == 302
    token = guest_token_of(client)
    ada = account("ada")
    games_claim(user=ada, guest_token=token)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.owner_id, stored.status, stored.removed) == (ada.pk, "lost", True)
    record = {
        element["data-stat"]: element.text
        for element in parse_html(Client().get("/players/ada/")).find_all(data_stat=True)
    }
    assert (record["played"], record["won"], record["lost"]) == ("1", "0", "1")


# --------------------------------------------------------------------------- the daily deal


def test_the_daily_deal_number_comes_from_the_date_by_the_documented_formula():
    import hashlib

    day = date(2026, 12, 1)
    expected = int.from_bytes(hashlib.sha256(b"daily:2026-12-01").digest()[:8], "big") % 999_999_999 + 1
    assert deals.deal_number_of(day) == expected
    assert deals.deal_number_of(day + timedelta(days=1)) != expected


def test_two_players_share_the_days_luck_and_only_the_first_daily_is_ranked():
    ada, bob = account("ada"), account("bob")
    today = deals.today()
    first = services.daily_start(owner=user_owner(ada), day=today)
    theirs = services.daily_start(owner=user_owner(bob), day=today)
    again = services.daily_start(owner=user_owner(ada), day=today)
    assert (first.origin, theirs.origin, again.origin) == ("daily", "daily", "practice")
    assert first.deal_number == theirs.deal_number == deals.deal_number_of(today)
    assert first.seed == theirs.seed == again.seed == DailySeed.objects.get(day=today).seed
    # The same position shuffled with the same number of shuffles used deals alike for both.
    after = [
        act_on_service(owner, game, "shuffle").position
        for owner, game in ((user_owner(ada), first), (user_owner(bob), theirs))
    ]
    assert after[0] == after[1]
    # A game of the same deal with its own seed shuffles differently.
    own = game_start(owner=user_owner(ada), deal_number=first.deal_number)
    assert act_on_service(user_owner(ada), own, "shuffle").position != after[0]


def test_the_daily_page_shows_the_seeds_digest_and_reveals_it_the_day_after(client):
    today = deals.today()
    page = client.get("/daily/")
    seed = DailySeed.objects.get(day=today)
    assert seed.seed_sha256 in text_of(page) and seed.seed not in text_of(page)
    assert "will be revealed on" in text_of(page)
    yesterday = today - timedelta(days=1)
    if yesterday >= deals.FIRST_DAY:
        past = client.get(f"/daily/{yesterday.isoformat()}/")
        assert DailySeed.objects.get(day=yesterday).seed in text_of(past)
    assert client.get(f"/daily/{(today + timedelta(days=1)).isoformat()}/").status_code == 404
    assert client.get("/daily/2026-02-30/").status_code == 404
    assert client.get(f"/daily/{(deals.FIRST_DAY - timedelta(days=1)).isoformat()}/").status_code == 404


def test_a_finished_daily_hides_its_seed_until_the_day_is_over(client):
    response = client.post("/daily/start/")
    assert response.status_code == 302
    game = Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    assert game.origin == "daily" and game.daily == deals.today()
    act(client, game, "resign")
    page = text_of(client.get(f"/game/{game.pk}/"))
    assert game.seed not in page and "will be revealed on" in page
    verify = client.get(f"/game/{game.pk}/verify/")
    assert verify.status_code == 200 and game.seed not in text_of(verify)
    assert parse_html(verify).find(id="verdict")["data-ok"] == "pending"
    Game.objects.filter(pk=game.pk).update(daily=deals.today() - timedelta(days=1))  # as if the day had passed
    verify = client.get(f"/game/{game.pk}/verify/")
    assert game.seed in text_of(verify) and parse_html(verify).find(id="verdict")["data-ok"] == "true"


def test_a_past_daily_plays_as_practice_and_a_second_try_today_too(client):
    assert client.post("/daily/start/").status_code == 302
    assert client.post("/daily/start/").status_code == 302
    origins = list(Game.objects.order_by("pk").values_list("origin", flat=True))
    assert origins == ["daily", "practice"]
    text = text_of(client.get("/daily/"))
    assert "Ranked game" in text and "Practice" in text and "Play it for practice" in text


def test_claiming_a_guests_daily_keeps_the_accounts_own_daily_ranked(client):
    ada = account("ada")
    today = deals.today()
    own = services.daily_start(owner=user_owner(ada), day=today)
    client.post("/daily/start/")
    guests = Game.objects.get(guest_token=guest_token_of(client))
    assert guests.origin == "daily"
    games_claim(user=ada, guest_token=guest_token_of(client))
    assert Game.objects.get(pk=own.pk).origin == "daily"
    assert Game.objects.get(pk=guests.pk).origin == "practice"


# --------------------------------------------------------------------------- what each board ranks


@pytest.mark.parametrize(
    ("origin", "expected"),
    [
        (Game.Origin.RANDOM, ["all", "week:2026-W49", "day:2026-12-01", "deal:9"]),
        (Game.Origin.CHOSEN, ["deal:9"]),
        (Game.Origin.DAILY, ["daily:2026-11-30"]),
        (Game.Origin.PRACTICE, []),
    ],
)
def test_each_kind_of_game_ranks_on_its_own_boards(origin, expected):
    game = Game(
        deal_number=9, origin=origin, daily=date(2026, 11, 30), finished_at=datetime(2026, 12, 1, 12, tzinfo=UTC)
    )
    assert board_scopes(game) == expected


def test_a_chosen_deals_win_is_on_its_deals_board_only(client):
    ada = account("ada")
    win = quick_win()
    game = play_win(user_owner(ada), win, start=timezone.now() - 60 * SECOND, origin=Game.Origin.CHOSEN)
    assert set(BoardEntry.objects.filter(game=game).values_list("scope", flat=True)) == {f"deal:{win.deal_number}"}
    assert "ada" not in text_of(client.get("/leaderboards/"))
    assert "ada" in text_of(client.get(f"/deal/{win.deal_number}/leaderboard/"))
    assert "Ranks wins of random deals only" in text_of(client.get("/leaderboards/"))


def test_the_end_of_a_best_win_says_so_with_its_rank():
    ada, bob = account("ada"), account("bob")
    win = quick_win()
    play_win(user_owner(bob), win, start=timezone.now() - 3600 * SECOND, step=2 * SECOND)
    # ada: two moves more (an undo and the move again), in less time.
    game = play_win(user_owner(ada), win.with_undo(0), start=timezone.now() - 600 * SECOND)
    assert game.elapsed_ms < win.elapsed_ms(2 * SECOND)
    bests = parse_html(logged_in(ada).get(f"/game/{game.pk}/")).find(id="bests")
    ranks = {(item["data-board"], item["data-scope"]): item["data-rank"] for item in bests.find_all("li")}
    assert ranks[("time", "all")] == "1"  # faster than bob
    assert ranks[("moves", "all")] == "2"  # more moves than bob
    assert "Your best on Best time, all time: rank 1." in bests.text
    assert "celebrate" in parse_html(logged_in(ada).get(f"/game/{game.pk}/")).find("p", class_="won").classes


# --------------------------------------------------------------------------- moderation


def test_a_hidden_player_leaves_every_board_and_comes_back_when_cleared(client):
    ada, bob = account("ada"), account("bob")
    win = quick_win()
    game = play_win(user_owner(ada), win, start=timezone.now() - 60 * SECOND)
    play_win(user_owner(bob), win, start=timezone.now() - 30 * SECOND)
    pages = ["/leaderboards/", f"/deal/{win.deal_number}/leaderboard/"]
    assert all("ada" in text_of(client.get(page)) for page in pages)
    Player.objects.create(user=ada, hidden_from_boards=True)
    assert not any("ada" in text_of(client.get(page)) for page in pages)
    assert all("bob" in text_of(client.get(page)) for page in pages)
    assert client.get("/players/ada/").status_code == 404
    assert client.get(f"/game/{game.pk}/replay/").status_code == 404  # no longer on a board
    Player.objects.filter(user=ada).update(hidden_from_boards=False)
    assert all("ada" in text_of(client.get(page)) for page in pages)
    User.objects.filter(pk=ada.pk).update(is_active=False)
    assert not any("ada" in text_of(client.get(page)) for page in pages)


def test_staff_hide_a_player_from_the_admin_in_one_action():
    ada = account("ada")
    staff = User.objects.create_superuser("root", password="unused-in-these-tests-1")
    client = logged_in(staff)
    response = client.post("/admin/auth/user/", {"action": "hide_from_boards", "_selected_action": [ada.pk]})
    assert response.status_code == 302
    assert Player.objects.get(user=ada).hidden_from_boards
    client.post("/admin/auth/user/", {"action": "show_on_boards", "_selected_action": [ada.pk]})
    assert not Player.objects.get(user=ada).hidden_from_boards
    win = quick_win()
    game = play_win(user_owner(ada), win, start=timezone.now() - 60 * SECOND)
    change = client.get(f"/admin/games/game/{game.pk}/change/")
    assert change.status_code == 200 and str(game.actions.count()) in text_of(change)
    assert client.get("/admin/daily/dailyseed/").status_code == 200


@pytest.mark.parametrize("forged", ["abc", "1.5", "\x00", "9" * 30, "0" * 4400 + "1"])
@pytest.mark.parametrize(
    ("url", "action", "row"),
    [
        ("/admin/auth/user/", "hide_from_boards", "user"),
        ("/admin/auth/user/", "delete_selected", "user"),
        ("/admin/games/game/", "delete_selected", "game"),
        ("/admin/records/boardentry/", "delete_selected", "entry"),
    ],
)
def test_an_admin_action_on_a_forged_row_id_is_a_400_and_changes_nothing(url, action, row, forged):
    ada = account("ada")
    game = game_start(owner=user_owner(ada), deal_number=3)
    entry = BoardEntry.objects.create(
        user=ada, board="time", scope="all", game=game, first=1, second=1, finished_at=timezone.now()
    )
    staff = User.objects.create_superuser("root", password="unused-in-these-tests-1")
    real = {"user": ada.pk, "game": game.pk, "entry": entry.pk}[row]
    form = {"action": action, "_selected_action": [str(real), forged], "post": "yes"}  # "yes": the delete confirmed
    assert logged_in(staff).post(url, form).status_code == 400
    assert User.objects.filter(pk=ada.pk).exists() and Game.objects.filter(pk=game.pk).exists()
    assert (
        BoardEntry.objects.filter(pk=entry.pk).exists() and not Player.objects.filter(hidden_from_boards=True).exists()
    )
    form["_selected_action"] = [str(real)]  # the same action on the real row alone does its work
    assert logged_in(staff).post(url, form).status_code == 302
    changed = {
        "user": not User.objects.filter(pk=ada.pk).exists() or Player.objects.filter(hidden_from_boards=True).exists(),
        "game": not Game.objects.filter(pk=game.pk).exists(),
        "entry": not BoardEntry.objects.filter(pk=entry.pk).exists(),
    }
    assert changed[row]


def test_a_ranked_game_is_public_and_others_stay_private():
    ada = account("ada")
    win = quick_win()
    ranked = play_win(user_owner(ada), win, start=timezone.now() - 60 * SECOND)
    playing = game_start(owner=user_owner(ada), deal_number=3)
    practice = play_win(user_owner(ada), win, start=timezone.now() - 30 * SECOND, origin=Game.Origin.PRACTICE)
    stranger = Client()
    assert stranger.get(f"/game/{ranked.pk}/replay/").status_code == 200
    assert stranger.get(f"/game/{ranked.pk}/verify/").status_code == 200
    for game in (playing, practice):
        assert stranger.get(f"/game/{game.pk}/replay/").status_code == 404
        assert stranger.get(f"/game/{game.pk}/verify/").status_code == 404
    assert stranger.get(f"/game/{ranked.pk}/").status_code == 404  # the game page stays the owner's
    board = parse_html(stranger.get("/leaderboards/")).find(id="board")
    assert board.find_all("a", href=f"/game/{ranked.pk}/replay/")
    assert parse_html(stranger.get("/players/ada/")).find_all("a", href=f"/game/{ranked.pk}/replay/")


def test_the_daily_game_page_does_not_call_an_assisted_game_ranked(client):
    client.post("/daily/start/")
    game = Game.objects.get()
    assert "this game is ranked on the daily board" in text_of(client.get(f"/game/{game.pk}/"))
    Game.objects.filter(pk=game.pk).update(assisted=True)  # a hint was shown
    text = text_of(client.get(f"/game/{game.pk}/"))
    assert "a hint was shown, so this game is not ranked" in text and "this game is ranked" not in text


def test_a_daily_wins_replay_waits_for_its_seed_but_not_for_its_owner():
    """Every game of a day's daily shuffles alike from the same position: a replay on
    today's daily board would show others what their shuffles will deal."""
    ada = account("ada")
    today = deals.today()
    game = play_win(
        user_owner(ada), quick_win(), start=timezone.now() - 60 * SECOND, origin=Game.Origin.DAILY, daily=today
    )
    assert BoardEntry.objects.filter(game=game, scope=f"daily:{today.isoformat()}").exists()
    stranger, player = Client(), logged_in(ada)
    step = f"/game/{game.pk}/replay/1/"
    shown = grid(player.get(step))  # its player sees it at once
    assert shown.position != str(engine.deal(game.deal_number))
    for path in (f"/game/{game.pk}/replay/", step):
        waiting = stranger.get(path)
        assert waiting.status_code == 403
        assert "Its replay opens on" in text_of(waiting) and not parse_html(waiting).find_all(id="grid")
    assert stranger.get(step, headers={"HX-Request": "true"}).status_code == 403
    board = f"/daily/{today.isoformat()}/leaderboard/"
    row = parse_html(stranger.get(board)).find("tr", data_game=str(game.pk))
    assert not row.find_all("a", href=f"/game/{game.pk}/replay/") and "Replay from" in row.text
    Game.objects.filter(pk=game.pk).update(daily=today - timedelta(days=1))  # as if the day had passed
    assert grid(stranger.get(step)) == shown
    assert parse_html(stranger.get(board)).find("a", href=f"/game/{game.pk}/replay/")


def test_the_home_page_shows_todays_daily_with_the_players_result(client):
    home = parse_html(client.get("/"))
    assert home.find(id="daily") and not home.find_all(id="daily-result")
    client.post("/daily/start/")
    game = Game.objects.get()
    act(client, game, "resign")
    assert parse_html(client.get("/")).find(id="daily-result")["data-status"] == "lost"


def test_the_calendar_lists_days_with_the_players_result(client):
    client.post("/daily/start/")
    rows = parse_html(client.get("/daily/calendar/")).find(id="calendar").find_all("tr", data_day=True)
    assert rows[0]["data-day"] == deals.today().isoformat() and rows[0]["data-result"] == "playing"


def test_daily_streaks_count_runs_of_days():
    today = deals.today()
    days = [(today - timedelta(days=n), n != 1) for n in range(4)] + [(today - timedelta(days=9), True)]
    counted = selectors.streaks(days)
    assert (counted.played_current, counted.played_best) == (4, 4)
    assert (counted.won_current, counted.won_best) == (1, 2)
    assert selectors.streaks([(today - timedelta(days=1), True)]).won_current == 1  # today is still to play
    assert selectors.streaks([(today - timedelta(days=2), True)]).won_current == 0
