"""Games already played: my games (resume, delete), profiles.  (A finished game's own pages,
its verification and its replay, are tests/games/test_finished_games.py's.)

Wins are real: found by the engine and played through ``services.game_act``
(tests/winning.py).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone as django_timezone

from games.models import Action, Game
from games.selectors import MY_GAMES_PAGE_SIZE
from games.services import ActionRefused, game_delete, game_start
from records.models import BoardEntry
from tests.helpers import (
    ONE_MOVE_FROM_WIN,
    Element,
    a_movable_slot,
    account,
    act,
    act_on_service,
    count_queries,
    grid,
    logged_in,
    new_game,
    parse_html,
    set_layout,
    text_of,
    without_clock,
)
from tests.winning import copy_win, lose_stuck, quick_win, quick_wins, recorded_win, user_owner

pytestmark = pytest.mark.django_db

UTC = UTC
SECOND = timedelta(seconds=1)


def resign(user: User, deal_number: int, *, now: datetime) -> Game:
    owner = user_owner(user)
    return act_on_service(owner, game_start(owner=owner, deal_number=deal_number), "resign", now=now)


def minutes_seconds(ms: int) -> str:
    """A time as the pages write it, M:SS.t (under an hour)."""
    return "{}:{:02d}.{}".format(*divmod(ms // 1000, 60), ms % 1000 // 100)


def rows_of(response, table_id: str) -> list[tuple[int, list[str], Element]]:
    """(game id, the cells' text, the row) of each row of a table of my games; none when
    the page has no such table."""
    tables = parse_html(response).find_all("table", id=table_id)
    if not tables:
        return []
    return [
        (int(row["data-game"]), [cell.text for cell in row.find_all("td")], row)
        for row in tables[0].find_all("tr", data_game=True)
    ]


def row_of(rows, game: Game) -> Element:
    return next(row for pk, _cells, row in rows if pk == game.pk)


# --------------------------------------------------------------------------- my games


def test_my_games_lists_the_games_in_progress_last_played_first_with_their_figures():
    ada = account()
    now = django_timezone.now()
    older = game_start(owner=user_owner(ada), deal_number=11)
    act_on_service(user_owner(ada), older, "move", a_movable_slot(older), now=now - timedelta(hours=3))
    act_on_service(user_owner(ada), older, "move", a_movable_slot(older), now=now - timedelta(hours=3) + 30 * SECOND)
    shuffled = game_start(owner=user_owner(ada), deal_number=12)
    act_on_service(user_owner(ada), shuffled, "shuffle", now=now - timedelta(hours=1))
    untouched = game_start(owner=user_owner(ada), deal_number=13)  # started now, no action yet
    latest = game_start(owner=user_owner(ada), deal_number=14)
    act_on_service(user_owner(ada), latest, "move", a_movable_slot(latest), now=now + timedelta(minutes=1))

    response = logged_in(ada).get("/my-games/")
    rows = rows_of(response, "games-in-progress")
    assert [pk for pk, _cells, _row in rows] == [latest.pk, untouched.pk, shuffled.pk, older.pk]
    cells = {pk: cells for pk, cells, _row in rows}
    assert cells[older.pk][:4] == ["#11", "2", "3", "0:30.0"]
    assert cells[shuffled.pk][:4] == ["#12", "0", "2", "0:00.0"]
    assert cells[untouched.pk][:5] == ["#13", "0", "3", "0:00.0", "not yet"]
    for pk, _cells, row in rows:
        assert [(link["href"], link.text) for link in row.find_all("a")] == [
            (f"/game/{pk}/", "Resume"),
            (f"/game/{pk}/delete/", "Delete"),
        ]
    last_played = row_of(rows, older).find("time")["datetime"]
    assert last_played == Game.objects.get(pk=older.pk).last_action_at.isoformat()
    assert rows_of(response, "games-finished") == []
    assert "No finished game yet." in text_of(response)


def test_my_games_lists_finished_games_newest_first_with_their_result():
    ada = account()
    won = recorded_win(
        user_owner(ada), quick_win(), finished_at=datetime(2026, 3, 1, 10, 0, tzinfo=UTC), step=2 * SECOND
    )
    gave_up = resign(ada, 21, now=datetime(2026, 3, 2, tzinfo=UTC))
    lost = lose_stuck(ada, 22, now=datetime(2026, 3, 3, tzinfo=UTC))
    assert (lost.status, lost.resigned, gave_up.resigned) == ("lost", False, True)
    response = logged_in(ada).get("/my-games/")
    rows = rows_of(response, "games-finished")
    assert [(pk, cells[:4]) for pk, cells, _row in rows] == [
        (lost.pk, ["#22", "Lost", "1", "0:00.0"]),
        (gave_up.pk, ["#21", "Gave up", "0", "0:00.0"]),
        (won.pk, [f"#{won.deal_number}", "Won", str(won.moves), minutes_seconds(won.elapsed_ms)]),
    ]
    for pk, _cells, row in rows:
        # A finished game offers no delete.
        assert [link["href"] for link in row.find_all("a")] == [f"/game/{pk}/replay/", f"/game/{pk}/verify/"]
    assert rows_of(response, "games-in-progress") == []


def test_a_guests_my_games_has_only_this_browsers_games_and_offers_an_account(client):
    mine = new_game(client, 1)
    theirs = new_game(Client(), 1)
    response = client.get("/my-games/")
    assert [pk for pk, _c, _h in rows_of(response, "games-in-progress")] == [mine.pk]
    assert theirs.pk != mine.pk
    assert "Sign up" in text_of(response) and "they come along" in text_of(response)
    assert [pk for pk, _c, _h in rows_of(Client().get("/my-games/"), "games-in-progress")] == []


def test_resume_on_another_browser_gives_exactly_the_same_game():
    ada = account()
    laptop, phone = logged_in(ada), logged_in(ada)
    game = new_game(laptop, 5)
    other = new_game(laptop, 6)
    for _ in range(3):
        act(laptop, game, "move", slot=a_movable_slot(game))
    act(laptop, game, "shuffle")

    listed = [pk for pk, _c, _h in rows_of(phone.get("/my-games/"), "games-in-progress")]
    assert sorted(listed) == sorted([game.pk, other.pk])
    on_laptop, on_phone = grid(laptop.get(f"/game/{game.pk}/")), grid(phone.get(f"/game/{game.pk}/"))
    assert (without_clock(on_phone.attrs), on_phone.slots) == (without_clock(on_laptop.attrs), on_laptop.slots)
    assert (on_phone.moves, on_phone.shuffles_left, on_phone.status) == (3, 2, "playing")
    assert on_phone.position == Game.objects.get(pk=game.pk).position

    # Playing on the phone moves the laptop's game on; the laptop's old page is out of date.
    response = act(phone, game, "move", slot=a_movable_slot(game), version=on_phone.version)
    assert response.status_code == 200
    stale = act(laptop, game, "undo", version=on_laptop.version)
    assert stale.status_code == 409
    now_on_laptop = grid(laptop.get(f"/game/{game.pk}/"))
    assert (without_clock(now_on_laptop.attrs), now_on_laptop.slots) == (
        without_clock(grid(response).attrs),
        grid(response).slots,
    )
    assert now_on_laptop.moves == 4


def test_my_games_pages_each_list_on_its_own(monkeypatch):
    monkeypatch.setattr("games.selectors.MY_GAMES_PAGE_SIZE", 2)
    ada = account()
    now = django_timezone.now()
    playing = [game_start(owner=user_owner(ada), deal_number=60 + i) for i in range(5)]  # the last started first
    finished = [resign(ada, 70 + i, now=now + i * SECOND) for i in range(3)]
    client = logged_in(ada)

    def listed(response) -> tuple[list[int], ...]:
        """The ids listed in progress, and finished."""
        tables = ("games-in-progress", "games-finished")
        return tuple([pk for pk, _c, _r in rows_of(response, table)] for table in tables)

    def pages(response, label: str) -> tuple[str, dict[str, str]]:
        """A list's page links: the "Page n of m" text, and the href of each rel (prev, next)."""
        nav = parse_html(response).find("nav", aria_label=label)
        return nav.find("span").text, {link["rel"]: link["href"] for link in nav.find_all("a")}

    def follow(href: str):
        assert href.startswith("?")
        return client.get("/my-games/" + href)

    first = client.get("/my-games/")
    assert listed(first) == ([playing[4].pk, playing[3].pk], [finished[2].pk, finished[1].pk])
    assert pages(first, "Pages of the games in progress") == ("Page 1 of 3", {"next": "?playing=2#in-progress"})
    assert pages(first, "Pages of the finished games") == ("Page 1 of 2", {"next": "?finished=2#finished"})

    second = follow(pages(first, "Pages of the games in progress")[1]["next"])
    assert listed(second) == ([playing[2].pk, playing[1].pk], [finished[2].pk, finished[1].pk])
    third = follow(pages(second, "Pages of the games in progress")[1]["next"])
    assert listed(third)[0] == [playing[0].pk]
    assert pages(third, "Pages of the games in progress") == ("Page 3 of 3", {"prev": "?playing=2#in-progress"})

    # Paging one list keeps the other where it is.
    both = follow(pages(third, "Pages of the finished games")[1]["next"])
    assert listed(both) == ([playing[0].pk], [finished[0].pk])
    assert pages(both, "Pages of the finished games") == ("Page 2 of 2", {"prev": "?playing=3&finished=1#finished"})
    assert listed(follow(pages(both, "Pages of the finished games")[1]["prev"])) == listed(third)

    # A page that is not a number is the first; one past the end is the last.
    assert listed(client.get("/my-games/?playing=x&finished=")) == listed(first)
    assert listed(client.get("/my-games/?playing=99&finished=99")) == listed(both)


def test_my_games_has_no_page_links_when_each_list_fits_one_page():
    ada = account()
    game_start(owner=user_owner(ada), deal_number=60)
    resign(ada, 70, now=django_timezone.now())
    assert not parse_html(logged_in(ada).get("/my-games/")).find_all("nav", class_="pagination")


# --------------------------------------------------------------------------- deleting a game in progress


@pytest.fixture
def games_of_ada():
    """ada's game in progress (the one to delete), another in progress, a finished win on the
    boards; and bob's game of the same deal."""
    ada, bob = account("ada"), account("bob")
    now = django_timezone.now()
    doomed = game_start(owner=user_owner(ada), deal_number=31)
    act_on_service(user_owner(ada), doomed, "move", a_movable_slot(doomed), now=now)
    kept = game_start(owner=user_owner(ada), deal_number=32)
    won = recorded_win(user_owner(ada), quick_win(), finished_at=now - timedelta(hours=1))
    bobs = game_start(owner=user_owner(bob), deal_number=31)
    return ada, {"doomed": doomed, "kept": kept, "won": won, "bobs": bobs}


def everything() -> dict:
    return {
        "games": sorted(Game.objects.values_list("pk", "version", "position")),
        "actions": sorted(Action.objects.values_list("game_id", "number", "move")),
        "entries": sorted(BoardEntry.objects.values_list("user_id", "board", "scope", "game_id")),
    }


def test_deleting_a_played_game_asks_first_then_gives_it_up_and_keeps_it_on_the_record(games_of_ada):
    """docs/RULES.md, "Deleting": a game with an action is given up, not erased (no free re-rolls)."""
    ada, games = games_of_ada
    client = logged_in(ada)
    doomed = games["doomed"]
    played_before = stats(client.get("/players/ada/"))["played"]
    before = everything()
    ask = client.get(f"/game/{doomed.pk}/delete/")
    assert ask.status_code == 200
    assert "Delete your game of deal #31?" in text_of(ask) and "with 1 move." in text_of(ask)
    assert "your record keeps it as lost" in text_of(ask)
    button = parse_html(ask).find("button", class_="danger")
    assert (button["type"], button.text) == ("submit", "Delete this game")
    assert everything() == before

    done = client.post(f"/game/{doomed.pk}/delete/")
    assert done.status_code == 302 and done.url == "/my-games/"
    stored = Game.objects.get(pk=doomed.pk)
    assert (stored.status, stored.resigned, stored.removed) == ("lost", True, True)
    assert list(stored.actions.values_list("number", "kind")) == [(1, "move"), (2, "resign")]
    assert everything()["entries"] == before["entries"]
    page = client.get("/my-games/")
    assert "The game of deal #31 was given up and taken off My games." in text_of(page)
    assert [pk for pk, _c, _h in rows_of(page, "games-in-progress")] == [games["kept"].pk]
    assert doomed.pk not in [pk for pk, _c, _h in rows_of(page, "games-finished")]
    after = stats(client.get("/players/ada/"))
    assert int(after["played"]) == int(played_before) + 1 and after["lost"] == "1"
    assert client.post(f"/game/{doomed.pk}/delete/").status_code == 302  # finished now: refused, nothing changes
    assert Game.objects.filter(pk=doomed.pk).exists()


def test_deleting_a_game_with_no_action_leaves_no_trace(games_of_ada):
    ada, games = games_of_ada
    client = logged_in(ada)
    kept = games["kept"]
    before = everything()
    assert "leaves no trace" in text_of(client.get(f"/game/{kept.pk}/delete/"))
    done = client.post(f"/game/{kept.pk}/delete/")
    assert done.status_code == 302
    assert not Game.objects.filter(pk=kept.pk).exists()
    assert everything()["games"] == [row for row in before["games"] if row[0] != kept.pk]
    assert "The game of deal #32 was deleted." in text_of(client.get("/my-games/"))
    assert client.post(f"/game/{kept.pk}/delete/").status_code == 404


def test_a_finished_game_cannot_be_deleted(games_of_ada):
    ada, games = games_of_ada
    client = logged_in(ada)
    won = games["won"]
    before = everything()
    for method in (client.get, client.post):
        response = method(f"/game/{won.pk}/delete/")
        assert response.status_code == 302 and response.url == "/my-games/"
    assert everything() == before
    assert "A finished game cannot be deleted." in text_of(client.get("/my-games/"))
    with pytest.raises(ActionRefused):
        game_delete(owner=user_owner(ada), game_id=won.pk)
    assert everything() == before


# --------------------------------------------------------------------------- profiles


def stats(response) -> dict[str, str]:
    return {figure["data-stat"]: figure.text for figure in parse_html(response).find_all("dd", data_stat=True)}


def chart(response) -> tuple[list[tuple[float, float]], int]:
    """The polyline's points and the number of dots of the chart of times."""
    page = parse_html(response)
    points = page.find("polyline")["points"]
    return [tuple(map(float, pair.split(","))) for pair in points.split()], len(page.find_all("circle", class_="dot"))


@pytest.fixture
def record():
    """ada's finished games in order: won, won, won, gave up, won, won (and one in progress);
    her wins are copies of two real wins with chosen times."""
    ada = account("ada")
    short_win, long_win = quick_wins(2)
    day = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    base_short = recorded_win(user_owner(ada), short_win, finished_at=day - timedelta(hours=3), step=2 * SECOND)
    base_long = recorded_win(user_owner(ada), long_win, finished_at=day - timedelta(hours=2), step=SECOND)
    wins = [base_short, base_long]
    wins.append(copy_win(base_short, owner=user_owner(ada), finished_at=day - timedelta(hours=1), elapsed_ms=95_000))
    resign(ada, 40, now=day)
    wins.append(copy_win(base_long, owner=user_owner(ada), finished_at=day + timedelta(hours=1), elapsed_ms=400_000))
    wins.append(copy_win(base_short, owner=user_owner(ada), finished_at=day + timedelta(hours=2), elapsed_ms=180_000))
    game_start(owner=user_owner(ada), deal_number=41)
    bob = account("bob")
    resign(bob, 40, now=day)
    return ada, wins


def test_a_profile_shows_the_players_record(client, record):
    ada, wins = record
    response = client.get("/players/ada/")
    assert response.status_code == 200
    assert stats(response) == {
        "played": "6",
        "won": "5",
        "win-rate": "83%",
        "current-streak": "2",
        "best-streak": "3",
        "best-time": "1:35.0",
        "fewest-moves": str(min(w.moves for w in wins)),
        "draws-given-up": "0",
        "lost-unwinnable": "0",
        "assisted": "0 / 0",
        "lost": "1",
        "daily-played-streak": "0",
        "daily-played-best": "0",
        "daily-won-streak": "0",
        "daily-won-best": "0",
    }
    assert min(w.elapsed_ms for w in wins) == 95_000


def test_the_chart_has_one_point_per_ranked_win_in_time_order(client, record):
    ada, wins = record
    points, dots = chart(client.get("/players/ada/"))
    assert len(points) == dots == len(wins) == 5
    xs = [x for x, _y in points]
    assert xs == sorted(xs) and len(set(xs)) == 5
    # SVG's y grows downwards: the fastest win is lowest, the slowest highest, the rest in between.
    times = [w.elapsed_ms for w in sorted(wins, key=lambda w: w.finished_at)]
    ys = [y for _x, y in points]
    assert ys.index(max(ys)) == times.index(min(times)) and ys.index(min(ys)) == times.index(max(times))
    assert sorted(range(5), key=lambda i: ys[i]) == sorted(range(5), key=lambda i: -times[i])


def test_a_win_that_is_not_ranked_sets_no_best_and_is_not_charted(client, record):
    ada, wins = record
    # One move on a table that the log never reached: won at once, in 1 move and no time at all.
    cheat = set_layout(game_start(owner=user_owner(ada), deal_number=42), ONE_MOVE_FROM_WIN)
    cheat = act_on_service(user_owner(ada), cheat, "move", (0, 12), now=datetime(2026, 5, 2, tzinfo=UTC))
    assert (cheat.status, cheat.ranked, cheat.moves, cheat.elapsed_ms) == ("won", False, 1, 0)
    response = client.get("/players/ada/")
    assert stats(response)["best-time"] == "1:35.0"
    assert stats(response)["fewest-moves"] == str(min(w.moves for w in wins))
    assert len(chart(response)[0]) == 5


def test_a_new_players_profile_is_empty_but_there(client):
    account("newcomer")
    response = client.get("/players/newcomer/")
    assert stats(response) == {
        "played": "0",
        "won": "0",
        "win-rate": "0%",
        "current-streak": "0",
        "best-streak": "0",
        "best-time": "–",
        "fewest-moves": "–",
        "draws-given-up": "0",
        "lost-unwinnable": "0",
        "assisted": "0 / 0",
        "lost": "0",
        "daily-played-streak": "0",
        "daily-played-best": "0",
        "daily-won-streak": "0",
        "daily-won-best": "0",
    }
    assert not parse_html(response).find_all("svg") and "No won game yet." in text_of(response)


def test_only_the_player_sees_the_link_to_their_account_on_their_profile(client):
    ada = account("ada")
    assert not parse_html(client.get("/players/ada/")).find("main").find_all("a", href="/accounts/")
    assert parse_html(logged_in(ada).get("/players/ada/")).find("main").find_all("a", href="/accounts/")


def test_unknown_and_inactive_players_have_no_profile(client):
    User.objects.create_user("gone", password="x-unused-1", is_active=False)
    assert client.get("/players/nobody/").status_code == 404
    assert client.get("/players/gone/").status_code == 404


# --------------------------------------------------------------------------- query counts

# Measured once, logged in: the session and the user, then the page's own reads
# (my games: the count and the page of the games in progress, then of the finished ones;
# a profile: the player, whether staff hid them, their record, their ranked wins' best
# figures and latest ones, their daily games, their lost games proved unwinnable, their
# draws given up, their entries on the all-time boards and the rank of each (at most two),
# their races, their puzzle rating).
MY_GAMES_QUERIES = 6
PROFILE_QUERIES = 15


def test_my_games_and_the_profile_read_a_fixed_number_of_queries_however_many_games(django_assert_max_num_queries):
    ada = account("ada")
    client = logged_in(ada)
    original = recorded_win(user_owner(ada), quick_win(), finished_at=datetime(2026, 5, 1, tzinfo=UTC))
    pages = {"/my-games/": MY_GAMES_QUERIES, "/players/ada/": PROFILE_QUERIES}

    def add_games(count: int, first_deal: int):
        for i in range(count):
            game = game_start(owner=user_owner(ada), deal_number=first_deal + i)
            act_on_service(
                user_owner(ada), game, "move", a_movable_slot(game), now=datetime(2026, 5, 2, tzinfo=UTC) + i * SECOND
            )
            resign(ada, first_deal + i, now=datetime(2026, 5, 3, tzinfo=UTC) + i * SECOND)
            copy_win(original, owner=user_owner(ada), finished_at=datetime(2026, 5, 4, tzinfo=UTC) + i * SECOND)

    add_games(2, 100)
    client.get("/my-games/")  # the session's first read after logging in may write it
    small = {}
    for url, pinned in pages.items():
        small[url] = count_queries(client, url)
        with django_assert_max_num_queries(pinned):
            client.get(url)
    add_games(30, 200)
    assert len(rows_of(client.get("/my-games/"), "games-in-progress")) == MY_GAMES_PAGE_SIZE  # of 32
    assert len(chart(client.get("/players/ada/"))[0]) == 33
    for url, pinned in pages.items():
        assert count_queries(client, url) == small[url], url
        with django_assert_max_num_queries(pinned):
            client.get(url)


def test_deleting_a_random_deal_with_no_action_still_counts_it_as_lost():
    """Redrawing until an easy deal comes is not free (docs/RULES.md, "Deleting")."""
    ada = account("ada")
    client = logged_in(ada)
    drawn = Game.objects.get(pk=int(client.post("/new/").url.strip("/").split("/")[-1]))
    assert drawn.origin == "random" and drawn.version == 0
    assert "on your record from the moment it is dealt" in text_of(client.get(f"/game/{drawn.pk}/delete/"))
    assert client.post(f"/game/{drawn.pk}/delete/").status_code == 302
    gone = Game.objects.get(pk=drawn.pk)
    assert (gone.status, gone.resigned, gone.removed) == ("lost", True, True)
    assert "was given up" in text_of(client.get("/my-games/"))
    assert stats(client.get("/players/ada/"))["lost"] == "1"


def test_a_random_deal_dropped_at_the_limit_of_games_in_progress_is_given_up(settings):
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 2
    owner = user_owner(account("ada"))
    first = game_start(owner=owner)  # random
    game_start(owner=owner, deal_number=9)
    game_start(owner=owner, deal_number=10)  # drops the oldest without an action: the random one
    dropped = Game.objects.get(pk=first.pk)
    assert (dropped.status, dropped.removed) == ("lost", True)
