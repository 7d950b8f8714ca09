"""Issue 12's rules (docs/RULES.md): the clock from first sight, no free re-rolls, what each
board ranks, hidden players, public ranked games (the daily deal's: tests/daily/)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Game
from games.services import game_start, games_claim
from records.models import BoardEntry, Player
from records.scopes import board_scopes
from tests.helpers import account, act, act_on_service, grid, guest_token_of, logged_in, new_game, parse_html, text_of
from tests.winning import play_win, quick_win, user_owner

SECOND = timedelta(seconds=1)
pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- the clock


def test_the_clock_starts_when_the_game_is_dealt_whether_or_not_its_board_is_shown():
    owner = user_owner(account("ada"))
    dealt = timezone.now() - timedelta(seconds=6)
    game = game_start(owner=owner, deal_number=5, now=dealt)
    stored = Game.objects.get(pk=game.pk)
    assert stored.started_at == stored.last_action_at == dealt
    game = act_on_service(
        owner, stored, "move", next(iter(stored.state().position.legal_moves())).src, now=dealt + timedelta(seconds=6)
    )
    assert game.elapsed_ms == 6000  # never shown: a script that solves the deal first pays for it
    assert list(game.actions.values_list("elapsed_ms", flat=True)) == [6000]


def test_a_deal_left_unplayed_counts_at_most_the_idle_cap(settings):
    settings.ADDICTION_IDLE_CAP_SECONDS = 120
    owner = user_owner(account("ada"))
    dealt = timezone.now() - timedelta(hours=5)
    game = game_start(owner=owner, deal_number=5, now=dealt)
    slot = next(iter(game.state().position.legal_moves())).src
    assert act_on_service(owner, game, "move", slot, now=dealt + timedelta(hours=5)).elapsed_ms == 120_000


def test_the_game_page_shows_the_running_time_and_does_not_restart_the_clock(client):
    response = client.post("/new/", {"deal_number": 5})
    game = Game.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    started = game.started_at
    assert started is not None  # the start itself: the deal is known from now on
    page = client.get(response.url)
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
    assert [str(scope) for scope in board_scopes(game)] == expected


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
    record = parse_html(logged_in(ada).get(f"/game/{game.pk}/")).find(id="record").text
    # One sentence for every board improved, with the old figure where there was one.
    assert record.startswith("New record: Best time ") and "your first (all time #1" in record
    assert "Fewest moves" in record and "all time #2" in record
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
    flag = Player.objects.get(user=ada)
    flag.hidden_from_boards = False
    flag.save()
    assert all("ada" in text_of(client.get(page)) for page in pages)
    ada.last_login = timezone.now()
    ada.save(update_fields=["last_login"])  # a log-in: nothing changes
    assert all("ada" in text_of(client.get(page)) for page in pages)
    ada.is_active = False
    ada.save()
    assert not any("ada" in text_of(client.get(page)) for page in pages)
    assert set(BoardEntry.objects.filter(user=ada).values_list("shown", flat=True)) == {False}
    ada.is_active = True
    ada.save(update_fields=["is_active"])
    assert all("ada" in text_of(client.get(page)) for page in pages)


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


def test_a_record_says_the_old_figure_it_beat():
    ada = account("ada")
    win = quick_win()
    play_win(user_owner(ada), win, start=timezone.now() - 7200 * SECOND, step=3 * SECOND)
    faster = play_win(user_owner(ada), win, start=timezone.now() - 600 * SECOND, step=2 * SECOND)
    record = parse_html(logged_in(ada).get(f"/game/{faster.pk}/")).find(id="record").text
    was = (len(win.actions) - 1) * 3
    assert f"was {was // 60}:{was % 60:02d}.0 (all time #1" in record, record
    # The same moves, in less time: that board's tie goes to the faster, so it is a record too.
    assert f"Fewest moves {faster.moves}, was {faster.moves} (all time #1" in record, record


def test_the_profile_says_each_board_entrys_time_moves_and_rank(client):
    ada, bob = account("ada"), account("bob")
    win = quick_win()
    play_win(user_owner(bob), win, start=timezone.now() - 3600 * SECOND, step=3 * SECOND)
    game = play_win(user_owner(ada), win, start=timezone.now() - 600 * SECOND, step=2 * SECOND)
    items = {
        item["data-board"]: item for item in parse_html(client.get("/players/ada/")).find_all("li", data_board=True)
    }
    time = f"{(len(win.actions) - 1) * 2 // 60}:{(len(win.actions) - 1) * 2 % 60:02d}.0"
    assert f"Best time, all time: {time} in {game.moves} moves, rank #1" in items["time"].text
    assert f"Fewest moves, all time: {game.moves} moves in {time}, rank #1" in items["moves"].text


def test_the_verify_page_says_in_words_what_it_checked():
    ada = account("ada")
    win = quick_win()
    game = play_win(user_owner(ada), win, start=timezone.now() - 600 * SECOND, step=2 * SECOND)
    page = parse_html(logged_in(ada).get(f"/game/{game.pk}/verify/"))
    items = page.find("ul", class_="checked").find_all("li")
    assert [item["data-ok"] for item in items] == ["true"] * 5
    words = " ".join(item.text for item in items)
    assert f"All {game.version} of its actions follow the rules" in words
    assert f"{game.moves} moves, {game.shuffles_used} shuffles used and the game won" in words
    assert "It is on the leaderboards." in words
    Game.objects.filter(pk=game.pk).update(moves=game.moves + 1)  # a stored figure changed behind the site's back
    page = parse_html(logged_in(ada).get(f"/game/{game.pk}/verify/"))
    assert [item["data-ok"] for item in page.find("ul", class_="checked").find_all("li")][2] == "false"
    assert "This does not hold." in page.text


def test_another_random_deal_abandons_an_unplayed_one_which_stays_on_the_record(client):
    """Issue 26's pile of unplayed games in My games; issue 25's rule that a dealt random deal
    is on the record: a new random deal gives up the owner's random deals not played yet."""
    first = Game.objects.get(pk=int(client.post("/new/", {"deal_number": ""}).url.strip("/").split("/")[-1]))
    played = Game.objects.get(pk=int(client.post("/new/", {"deal_number": ""}).url.strip("/").split("/")[-1]))
    first.refresh_from_db()
    assert (first.status, first.resigned, first.removed) == ("lost", True, True)
    act(client, played, "move", slot=played.state().position.legal_moves()[0].src)
    chosen = Game.objects.get(pk=int(client.post("/new/", {"deal_number": "7"}).url.strip("/").split("/")[-1]))
    newest = Game.objects.get(pk=int(client.post("/new/", {"deal_number": ""}).url.strip("/").split("/")[-1]))
    played.refresh_from_db()
    chosen.refresh_from_db()
    assert played.status == "playing" and chosen.status == "playing"  # played, or chosen: kept
    listed = [row["data-game"] for row in parse_html(client.get("/my-games/")).find_all("tr", data_game=True)]
    assert sorted(map(int, listed)) == sorted([played.pk, chosen.pk, newest.pk])


def test_reopening_an_unplayed_game_adds_nothing(client, settings):
    """Issue 26: each return to an unplayed game used to add the idle cap again.  Now a visit
    writes nothing: the page shows the time since the deal, capped (docs/RULES.md, "Counting")."""
    settings.ADDICTION_IDLE_CAP_SECONDS = 120
    game = new_game(client, 5)
    Game.objects.filter(pk=game.pk).update(
        started_at=timezone.now() - 3600 * SECOND, last_action_at=timezone.now() - 3600 * SECOND
    )
    for _ in range(3):
        page = client.get(f"/game/{game.pk}/")
        assert int(grid(page).attrs["data-elapsed-ms"]) == 120_000
    assert Game.objects.get(pk=game.pk).elapsed_ms == 0
    slot = Game.objects.get(pk=game.pk).state().position.legal_moves()[0].src
    act(client, Game.objects.get(pk=game.pk), "move", slot=slot)
    assert Game.objects.get(pk=game.pk).elapsed_ms < 121_000  # once, at the first action
