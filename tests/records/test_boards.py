"""Leaderboards: which wins count, each player once with their best, the order and its
ties, pages of 25, the week (ISO, UTC) and the day (UTC), boards per deal, query counts.

Wins are real: found by the engine and played through ``services.game_act`` with chosen
times (tests/winning.py).  Where many winners are needed, a played win is copied to
each and ranked by ``services.game_rank``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User

from addiction_site.ownership import Owner
from games.models import Action, Game
from games.services import game_act, game_rank, game_start
from records import views as views_records
from records.models import BoardEntry, Player
from records.scopes import board_scopes, period_scope
from tests.helpers import ONE_MOVE_FROM_WIN, count_queries, new_game, parse_html, set_layout, text_of
from tests.winning import Win, copy_win, guest_owner, play_win, quick_win, quick_wins, recorded_win, user_owner

pytestmark = pytest.mark.django_db

UTC = UTC
# Thursday of ISO week 2026-W01, which began on Monday 2025-12-29.
NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)


PASSWORD = "orchard-lantern-plum-17"


def player(name: str) -> User:
    return User.objects.create_user(name, password=PASSWORD)


def log_in(client, user: User) -> None:
    """Post the log-in form, which claims the browser's guest games (force_login would not)."""
    assert client.post("/accounts/login/", {"username": user.username, "password": PASSWORD}).status_code == 302


def win_finishing_at(user_or_owner, win: Win, finished_at: datetime = NOW, step: timedelta = SECOND) -> Game:
    """Play ``win`` for a player (a User or an Owner) so that it ends at ``finished_at``."""
    owner = user_or_owner if isinstance(user_or_owner, Owner) else user_owner(user_or_owner)
    game = play_win(owner, win, start=finished_at - (len(win.actions) - 1) * step, step=step)
    assert game.finished_at == finished_at and game.elapsed_ms == win.elapsed_ms(step)
    return game


def board_rows(response) -> list[dict]:
    """The rows of #board as the page shows them: rank, player, time, moves (and deal)."""
    assert response.status_code == 200
    tables = parse_html(response).find_all("table", id="board")
    rows = []
    if not tables:
        return rows
    # The columns by their headings ("Time ↑" is the column the board ranks on first).
    headings = [cell.text.replace("↑", "").strip() for cell in tables[0].find_all("th")]
    names = {"#": "rank", "Player": "player", "Time": "time", "Moves": "moves", "Deal": "deal"}
    for row in tables[0].find_all("tr", data_player=True):
        cells = dict(zip(headings, (cell.text for cell in row.find_all("td")), strict=False))
        found = {names[heading]: text for heading, text in cells.items() if heading in names}
        found["rank"], found["moves"] = int(found["rank"]), int(found["moves"])
        rows.append(found)
        assert found["player"] == row["data-player"]
    return rows


def players(response) -> list[str]:
    return [row["player"] for row in board_rows(response)]


def link(response, rel: str) -> str | None:
    """Where the page's link to the ``rel`` ("next", "prev") page of the board goes, if it has one."""
    links = parse_html(response).find_all("a", rel=rel)
    return links[0]["href"] if links else None


def current_tabs(response) -> list[str]:
    """Where the links marked as the current page (the chosen board and period) go."""
    return [tab["href"] for tab in parse_html(response).find_all("a", aria_current="page")]


@pytest.fixture
def frozen_now(monkeypatch):
    """The board pages read the clock at NOW (only records.views' clock is changed)."""
    monkeypatch.setattr(views_records, "timezone", SimpleNamespace(now=lambda: NOW))
    return NOW


def duration(ms: int) -> str:
    """A time as the boards write it, M:SS.t (these tests stay under an hour)."""
    minutes, seconds = divmod(ms // 1000, 60)
    assert minutes < 60
    return f"{minutes}:{seconds:02d}.{ms % 1000 // 100}"


# --------------------------------------------------------------------------- which wins count


def test_only_ranked_wins_with_an_owner_enter_the_boards(client):
    win = quick_win()
    ada, bob, cat = player("ada"), player("bob"), player("cat")
    honest = win_finishing_at(ada, win)

    lost = game_start(owner=user_owner(bob), deal_number=win.deal_number)
    game_act(owner=user_owner(bob), game_id=lost.pk, version=0, kind="resign", now=NOW)

    # cat's stored table is one move from the end, which her log never reached.
    cheat = set_layout(game_start(owner=user_owner(cat), deal_number=win.deal_number), ONE_MOVE_FROM_WIN)
    cheat = game_act(owner=user_owner(cat), game_id=cheat.pk, version=0, kind="move", slot=(0, 12), now=NOW).game
    assert (cheat.status, cheat.ranked) == ("won", False)
    assert Game.objects.get(pk=cheat.pk).ranked is False

    new_game(client, win.deal_number)
    guest_win = win_finishing_at(guest_owner(client), win, NOW - timedelta(hours=1))
    assert guest_win.ranked

    assert Game.objects.get(pk=honest.pk).ranked
    assert set(BoardEntry.objects.values_list("user__username", flat=True)) == {"ada"}
    for url in (
        "/leaderboards/",
        "/leaderboards/?board=moves",
        f"/deal/{win.deal_number}/leaderboard/",
        f"/deal/{win.deal_number}/leaderboard/?board=moves",
    ):
        assert players(client.get(url)) == ["ada"], url


def test_a_win_whose_log_was_changed_is_not_ranked_and_never_enters(client):
    new_game(client, 1)
    game = win_finishing_at(guest_owner(client), quick_win())
    assert game.ranked
    first_move = game.actions.filter(kind="move").order_by("number").first()
    Action.objects.filter(pk=first_move.pk).delete()
    assert game_rank(game=Game.objects.get(pk=game.pk)) is False
    assert Game.objects.get(pk=game.pk).ranked is False

    log_in(client, player("ada"))  # claims the guest's games, the unranked win among them
    assert Game.objects.get(pk=game.pk).owner.username == "ada"
    assert not BoardEntry.objects.exists()
    assert players(client.get("/leaderboards/")) == []


def test_a_guests_win_enters_when_claimed_and_by_when_it_finished(client, frozen_now):
    new_game(client, 1)
    last_week = win_finishing_at(guest_owner(client), quick_win(), NOW - timedelta(days=7), step=2 * SECOND)
    today = copy_win(
        last_week,
        owner=guest_owner(client),
        finished_at=NOW - timedelta(hours=2),
        elapsed_ms=last_week.elapsed_ms + 60_000,
    )
    bob = player("bob")
    copy_win(last_week, owner=user_owner(bob), finished_at=NOW - timedelta(hours=1), elapsed_ms=60_000)
    assert players(client.get("/leaderboards/")) == ["bob"]

    log_in(client, player("ada"))  # claims the guest's wins
    assert players(client.get("/leaderboards/")) == ["bob", "ada"]
    all_time = board_rows(client.get("/leaderboards/"))[1]
    assert all_time["time"] == duration(last_week.elapsed_ms)
    assert players(client.get("/leaderboards/?period=week")) == ["bob", "ada"]
    week = board_rows(client.get("/leaderboards/?period=week"))[1]
    assert week["time"] == duration(today.elapsed_ms)  # last week's faster win is not this week's


# --------------------------------------------------------------------------- each player once, best first


@pytest.fixture
def played():
    """A win of each of the two quickest deals, by a guest (so on no board): the originals
    that copy_win copies to the players of a test."""
    guest = Owner(user_id=None, guest_token="played-by-a-guest")
    short_win, long_win = quick_wins(2)
    return SimpleNamespace(
        short=recorded_win(guest, short_win, finished_at=NOW - timedelta(days=30)),
        long=recorded_win(guest, long_win, finished_at=NOW - timedelta(days=30)),
    )


def test_each_player_appears_once_with_their_best_game_on_each_board(client, played):
    assert played.long.moves > played.short.moves
    ada, bob = user_owner(player("ada")), user_owner(player("bob"))
    # ada: a fast game with many moves, and a slow one with few.
    fast = copy_win(played.long, owner=ada, finished_at=NOW - timedelta(days=2), elapsed_ms=100_000)
    few = copy_win(played.short, owner=ada, finished_at=NOW - timedelta(days=1), elapsed_ms=300_000)
    # bob: between the two on time, with more moves than ada's few.
    between = copy_win(played.long, owner=bob, finished_at=NOW, elapsed_ms=200_000)

    by_time = board_rows(client.get("/leaderboards/?board=time"))
    assert [(r["rank"], r["player"], r["time"], r["moves"], r["deal"]) for r in by_time] == [
        (1, "ada", "1:40.0", fast.moves, f"#{fast.deal_number}"),
        (2, "bob", "3:20.0", between.moves, f"#{between.deal_number}"),
    ]
    by_moves = board_rows(client.get("/leaderboards/?board=moves"))
    assert [(r["rank"], r["player"], r["moves"], r["time"], r["deal"]) for r in by_moves] == [
        (1, "ada", few.moves, "5:00.0", f"#{few.deal_number}"),
        (2, "bob", between.moves, "3:20.0", f"#{between.deal_number}"),
    ]


def test_ties_are_broken_by_the_other_figure_then_by_who_finished_first(client, played):
    t = 300_000
    for name, original, elapsed, finished in [
        ("ada", played.short, t, NOW - timedelta(hours=3)),
        ("bob", played.long, t, NOW - timedelta(hours=4)),
        ("cat", played.short, t, NOW - timedelta(hours=2)),
        ("dan", played.long, t - 1000, NOW),
    ]:
        copy_win(original, owner=user_owner(player(name)), finished_at=finished, elapsed_ms=elapsed)
    assert played.short.moves < played.long.moves
    # time: dan is fastest; ada, cat and bob tie on time, and bob made more moves; ada finished before cat.
    assert players(client.get("/leaderboards/?board=time")) == ["dan", "ada", "cat", "bob"]
    # moves: ada and cat tie on both figures, ada finished first; dan and bob tie on moves, dan was faster.
    assert players(client.get("/leaderboards/?board=moves")) == ["ada", "cat", "dan", "bob"]
    deal = played.short.deal_number
    assert players(client.get(f"/deal/{deal}/leaderboard/?board=time")) == ["ada", "cat"]


def test_a_later_better_win_replaces_the_entry_and_an_equal_or_worse_one_does_not(played):
    ada = player("ada")
    first = copy_win(played.short, owner=user_owner(ada), finished_at=NOW - timedelta(days=3), elapsed_ms=200_000)
    worse = copy_win(first, owner=user_owner(ada), finished_at=NOW - timedelta(days=2), elapsed_ms=201_000)
    same = copy_win(first, owner=user_owner(ada), finished_at=NOW - timedelta(days=1))
    better = copy_win(first, owner=user_owner(ada), finished_at=NOW, elapsed_ms=199_000)
    expected = {
        "all": better,
        "week:2026-W01": better,
        f"deal:{first.deal_number}": better,
        "day:2025-12-29": first,
        "day:2025-12-30": worse,
        "day:2025-12-31": same,
        "day:2026-01-01": better,
    }
    for board in ("time", "moves"):  # equal moves everywhere, so time breaks the tie on the moves board
        entries = {e.scope: e.game_id for e in BoardEntry.objects.filter(user=ada, board=board)}
        assert entries == {scope: game.pk for scope, game in expected.items()}, board


# --------------------------------------------------------------------------- pages of 25


def test_boards_show_25_a_page_and_number_the_ranks_on(client, played):
    for i in range(30):
        copy_win(played.short, owner=user_owner(player(f"p{i:02d}")), elapsed_ms=100_000 + 1000 * i)
    first = client.get("/leaderboards/?board=time&period=all")
    assert [(r["rank"], r["player"]) for r in board_rows(first)] == [(i + 1, f"p{i:02d}") for i in range(25)]
    assert "Page 1" in text_of(first) and "Page 2" not in text_of(first)
    assert link(first, "prev") is None and link(first, "next").startswith("?board=time&period=all&page=2&after=")
    second = client.get("/leaderboards/" + link(first, "next"))
    assert [(r["rank"], r["player"]) for r in board_rows(second)] == [(i + 1, f"p{i:02d}") for i in range(25, 30)]
    assert link(second, "next") is None and link(second, "prev").startswith("?board=time&period=all&page=1&before=")
    assert board_rows(client.get("/leaderboards/" + link(second, "prev"))) == board_rows(first)
    # Found by its number alone, as a typed address does: the same rows.
    assert board_rows(client.get("/leaderboards/?board=time&period=all&page=2")) == board_rows(second)
    # Out of range or not a number: the nearest page, never an error.
    assert board_rows(client.get("/leaderboards/?page=99")) == board_rows(second)
    assert board_rows(client.get("/leaderboards/?page=abc")) == board_rows(first)
    deal = client.get(f"/deal/{played.short.deal_number}/leaderboard/?board=moves&page=2")
    assert [r["rank"] for r in board_rows(deal)] == list(range(26, 31))


def test_a_next_link_starts_where_its_page_ended_though_the_board_changed(client, played):
    """The cursor holds the place, not the entry: the last player of page 1 improving to the top,
    or leaving the board, does not move page 2's start; a forged cursor is a page by number."""
    users = [player(f"p{i:02d}") for i in range(30)]
    for i, user in enumerate(users):
        copy_win(played.short, owner=user_owner(user), elapsed_ms=100_000 + 1000 * i)
    first = client.get("/leaderboards/?board=time&period=all")
    following = link(first, "next")
    copy_win(played.short, owner=user_owner(users[24]), elapsed_ms=50_000)  # p24 now leads
    second = client.get("/leaderboards/" + following)
    assert [(r["rank"], r["player"]) for r in board_rows(second)] == [(i + 1, f"p{i:02d}") for i in range(25, 30)]
    hidden = Player.objects.create(user=users[26], hidden_from_boards=True)
    assert [r["player"] for r in board_rows(client.get("/leaderboards/" + following))] == ["p25", "p27", "p28", "p29"]
    hidden.delete()
    for forged in ("1.2.3", "a.b.c.d", "9" * 40 + ".1.1.1", "1.1.999999999999999999.1", "-1.2.3.4"):
        page = client.get(f"/leaderboards/?board=time&period=all&page=2&after={forged}&before={forged}")
        assert [r["rank"] for r in board_rows(page)] == list(range(26, 31)), forged


def test_the_shown_flag_matches_the_accounts_after_every_change(played):
    """BoardEntry.shown is what the boards' join to the accounts decided: compared after each change."""
    users = [player(f"p{i}") for i in range(4)]
    for user in users:
        copy_win(played.short, owner=user_owner(user))

    def by_join() -> set[tuple[int, bool]]:
        hidden = set(Player.objects.filter(hidden_from_boards=True).values_list("user_id", flat=True))
        return {
            (entry.pk, entry.user.is_active and entry.user_id not in hidden)
            for entry in BoardEntry.objects.select_related("user")
        }

    def kept() -> set[tuple[int, bool]]:
        return set(BoardEntry.objects.values_list("pk", "shown"))

    Player.objects.update_or_create(user=users[0], defaults={"hidden_from_boards": True})
    users[1].is_active = False
    users[1].save()
    assert kept() == by_join() and sum(not shown for _, shown in kept()) > 0
    copy_win(played.short, owner=user_owner(users[0]), elapsed_ms=1_000)  # a hidden player's new best stays hidden
    copy_win(played.short, owner=user_owner(player("p9")), elapsed_ms=2_000)
    assert kept() == by_join()
    Player.objects.update_or_create(user=users[0], defaults={"hidden_from_boards": False})
    assert kept() == by_join()
    assert set(BoardEntry.objects.filter(user=users[0]).values_list("shown", flat=True)) == {True}


# --------------------------------------------------------------------------- the week and the day, in UTC

PLUS_2 = timezone(timedelta(hours=2))


@pytest.mark.parametrize(
    ("finished_at", "week", "day"),
    [
        (datetime(2026, 1, 1, 0, 0, tzinfo=UTC), "week:2026-W01", "day:2026-01-01"),
        (datetime(2026, 1, 1, 1, 59, 59, tzinfo=PLUS_2), "week:2026-W01", "day:2025-12-31"),
        (datetime(2025, 12, 29, 0, 0, tzinfo=UTC), "week:2026-W01", "day:2025-12-29"),
        (datetime(2025, 12, 28, 23, 59, 59, tzinfo=UTC), "week:2025-W52", "day:2025-12-28"),
        (datetime(2026, 1, 4, 23, 59, 59, tzinfo=UTC), "week:2026-W01", "day:2026-01-04"),
        (datetime(2026, 1, 5, 0, 0, tzinfo=UTC), "week:2026-W02", "day:2026-01-05"),
        # 2026 has 53 ISO weeks: 1 January 2027 (a Friday) is in 2026-W53.
        (datetime(2026, 12, 31, 23, 0, tzinfo=timezone(timedelta(hours=-5))), "week:2026-W53", "day:2027-01-01"),
    ],
)
def test_a_win_belongs_to_its_iso_week_and_its_day_in_utc(finished_at, week, day):
    game = Game(deal_number=7, finished_at=finished_at, origin=Game.Origin.RANDOM)
    assert [str(scope) for scope in board_scopes(game)] == ["all", week, day, "deal:7"]
    utc_day = finished_at.astimezone(UTC).date()
    assert str(period_scope("week", utc_day)) == week
    assert str(period_scope("today", utc_day)) == day
    assert str(period_scope("all", utc_day)) == "all"


def test_the_week_and_today_boards_at_a_chosen_now(client, monkeypatch):
    # eve finishes at 01:59:59 on 1 January in UTC+2, which is 31 December in UTC.
    eve = win_finishing_at(player("eve"), quick_win(), datetime(2026, 1, 1, 1, 59, 59, tzinfo=PLUS_2), step=3 * SECOND)
    for name, elapsed, finished_at in [
        ("old", 300_000, datetime(2025, 12, 28, 23, 59, 59, tzinfo=UTC)),  # Sunday of the week before
        ("mon", 301_000, datetime(2025, 12, 29, 0, 0, tzinfo=UTC)),  # Monday of 2026-W01
        ("day", eve.elapsed_ms + 1000, datetime(2026, 1, 1, 0, 0, tzinfo=UTC)),
    ]:
        copy_win(eve, owner=user_owner(player(name)), finished_at=finished_at, elapsed_ms=elapsed)
    everyone, this_week = ["old", "mon", "eve", "day"], ["mon", "eve", "day"]
    for now, week, today in [
        (NOW, this_week, ["day"]),
        (NOW.astimezone(timezone(timedelta(hours=14))), this_week, ["day"]),  # still 1 January in UTC
        (datetime(2026, 1, 1, 23, 59, 59, tzinfo=timezone(timedelta(hours=-5))), this_week, []),  # 2 January UTC
        (datetime(2025, 12, 31, 23, 59, 59, tzinfo=UTC), this_week, ["eve"]),
        (datetime(2026, 1, 4, 23, 59, 59, tzinfo=UTC), this_week, []),
        (datetime(2026, 1, 5, 0, 0, tzinfo=UTC), [], []),
        (datetime(2025, 12, 28, 12, 0, tzinfo=UTC), ["old"], ["old"]),
    ]:
        monkeypatch.setattr(views_records, "timezone", SimpleNamespace(now=lambda now=now: now))
        for period, names in (("all", everyone), ("week", week), ("today", today)):
            for board in ("time", "moves"):
                response = client.get(f"/leaderboards/?board={board}&period={period}")
                assert players(response) == names, (now, period, board)
                assert f"?board={board}&period={period}" in current_tabs(response)


def test_unknown_board_and_period_fall_back_to_time_and_all_time(client, played, frozen_now):
    copy_win(played.short, owner=user_owner(player("ada")), finished_at=NOW - timedelta(days=400))
    response = client.get("/leaderboards/?board=elo&period=decade")
    assert players(response) == ["ada"]
    # Both tabs, "Best time" and "All time", are the current ones.
    assert current_tabs(response).count("?board=time&period=all") == 2


# --------------------------------------------------------------------------- one deal's board


def test_a_deals_board_has_only_that_deals_wins(client, played):
    ada, bob, cat = player("ada"), player("bob"), player("cat")
    copy_win(played.short, owner=user_owner(ada), elapsed_ms=90_000)
    copy_win(played.short, owner=user_owner(ada), elapsed_ms=80_000)
    copy_win(played.short, owner=user_owner(bob), elapsed_ms=85_000)
    copy_win(played.long, owner=user_owner(cat), elapsed_ms=70_000)
    short_deal, long_deal = played.short.deal_number, played.long.deal_number
    response = client.get(f"/deal/{short_deal}/leaderboard/")
    rows = board_rows(response)
    assert [(r["player"], r["time"]) for r in rows] == [("ada", "1:20.0"), ("bob", "1:25.0")]
    assert "deal" not in rows[0], "a deal's board needs no deal column"
    assert f"Leaderboard of deal #{short_deal}" in text_of(response)
    assert players(client.get(f"/deal/{long_deal}/leaderboard/?board=moves")) == ["cat"]
    assert players(client.get(f"/deal/{long_deal + short_deal}/leaderboard/")) == []
    assert players(client.get("/leaderboards/")) == ["cat", "ada", "bob"]


@pytest.mark.parametrize("number", ["0", str(2**63), "9" * 19])
def test_a_deal_board_out_of_range_is_404(client, number):
    assert client.get(f"/deal/{number}/leaderboard/").status_code == 404


# --------------------------------------------------------------------------- query counts

# Measured once: a logged-in player's request reads the session and the user, then the
# board's count and its page of entries (joined with players and games); the leaderboards
# page also reads today's daily board (its count, and its entries if it has any).
BOARD_QUERIES = 6


BOARD_PAGES = [
    "/leaderboards/?board={board}&period=all",
    "/leaderboards/?board={board}&period=week",
    "/leaderboards/?board={board}&period=today",
    "/deal/{deal}/leaderboard/?board={board}",
]


def test_board_pages_read_a_fixed_number_of_queries_however_many_players(
    client, played, frozen_now, django_assert_max_num_queries
):
    client.force_login(player("viewer"))
    deal = played.short.deal_number
    pages = [url.format(board=board, deal=deal) for url in BOARD_PAGES for board in ("time", "moves")]
    names = iter(f"p{i:02d}" for i in range(30))
    for _ in range(3):
        copy_win(played.short, owner=user_owner(player(next(names))), finished_at=NOW)
    client.get(pages[0])  # the session's first read after logging in may write it
    small = {}
    for page in pages:
        small[page] = count_queries(client, page)
        with django_assert_max_num_queries(BOARD_QUERIES):
            assert len(players(client.get(page))) == 3
    for name in names:
        copy_win(played.short, owner=user_owner(player(name)), finished_at=NOW)
    for page in pages:
        assert count_queries(client, page) == small[page], page
        with django_assert_max_num_queries(BOARD_QUERIES):
            assert len(players(client.get(page))) == 25
