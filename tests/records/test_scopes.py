"""The boards' scopes and order, each decided once (records/scopes.py, BoardEntry.ORDER; issue
41): a Scope reads and writes exactly the texts BoardEntry.scope keeps, and a board's page, a
rank and a new best agree on who stands above whom."""

from __future__ import annotations

import doctest
from datetime import UTC, date, datetime, timedelta

import pytest

from games import engine
from games.models import Game
from games.services import game_start
from records import scopes
from records.models import BoardEntry
from records.scopes import Scope
from records.selectors import board_page, rank_of
from records.services import boards_enter
from tests.helpers import account
from tests.winning import user_owner

DAY = date(2026, 11, 29)

# The texts BoardEntry.scope has kept since the boards came (and since the variants): old rows
# and new code must read each other.
KEPT = [
    ("all", Scope("all")),
    ("week:2026-W48", Scope("week", "2026-W48")),
    ("day:2026-11-29", Scope("day", "2026-11-29")),
    ("deal:12345", Scope("deal", "12345")),
    ("daily:2026-12-01", Scope("daily", "2026-12-01")),
    ("montana/all", Scope("all", "", "montana")),
    ("blue-moon/deal:12345", Scope("deal", "12345", "blue-moon")),
    ("red-moon/week:2026-W53", Scope("week", "2026-W53", "red-moon")),
]


@pytest.mark.parametrize("text, scope", KEPT)
def test_a_scope_reads_and_writes_the_kept_texts(text, scope):
    assert Scope.parse(text) == scope and str(scope) == text


@pytest.mark.parametrize("variant", list(engine.VARIANTS))
def test_every_kind_of_every_variant_round_trips(variant):
    for scope in (Scope.all_time(variant), Scope.week(DAY, variant), Scope.day(DAY, variant), Scope.deal(7, variant)):
        assert Scope.parse(str(scope)) == scope and scope.variant == variant
    assert str(Scope.all_time(variant)) == ("all" if engine.variant_of(variant).default else f"{variant}/all")


@pytest.mark.parametrize("text", ["", "ever", "addiction/all", "chess/all", "week", "all:1", "montana/daily:x/y"])
def test_a_text_that_is_no_scope_is_refused(text):
    with pytest.raises(ValueError):
        Scope.parse(text)


def test_each_kind_has_its_words_and_its_breadth():
    assert [Scope(kind).words for kind in scopes.KINDS] == [
        "all time",
        "this week",
        "today",
        "today's daily",
        "this deal",
    ]
    assert sorted(scopes.KINDS, key=lambda kind: Scope(kind).breadth) == list(scopes.KINDS)


def test_a_week_and_a_day_know_when_their_wins_finished():
    assert Scope.week(DAY).finished_between() == (
        datetime(2026, 11, 23, tzinfo=UTC),
        datetime(2026, 11, 30, tzinfo=UTC),
    )
    assert Scope.day(DAY).finished_between() == (datetime(2026, 11, 29, tzinfo=UTC), datetime(2026, 11, 30, tzinfo=UTC))
    assert Scope.all_time().finished_between() is None


def test_the_periods_of_the_leaderboards_address_are_scopes():
    assert [str(scopes.period_scope(period, DAY, "spaces")) for period in scopes.PERIODS] == [
        "spaces/all",
        "spaces/week:2026-W48",
        "spaces/day:2026-11-29",
    ]
    assert str(scopes.period_scope("decade", DAY)) == "all"


def test_the_module_s_examples_hold():
    assert doctest.testmod(scopes).failed == 0


# --------------------------------------------------------------------------- the order


@pytest.mark.django_db
def test_a_board_s_page_its_ranks_and_a_new_best_agree_on_the_order():
    """BoardEntry.ORDER: the figure, the other figure, who finished first, who entered first."""
    when = datetime(2026, 12, 1, 12, tzinfo=UTC)
    rows = [  # (name, first, second, finished_at)
        ("tied-first-in", 100, 10, when),
        ("tied-second-in", 100, 10, when),
        ("fewer-moves", 100, 9, when + timedelta(hours=1)),
        ("earlier", 100, 10, when - timedelta(seconds=1)),
        ("faster", 99, 50, when + timedelta(hours=2)),
    ]
    entries = {}
    for name, first, second, finished_at in rows:
        user = account(name)
        game = game_start(owner=user_owner(user), deal_number=5)
        entries[name] = BoardEntry.objects.create(
            user=user, board="time", scope="deal:5", game=game, first=first, second=second, finished_at=finished_at
        )
    expected = ["faster", "fewer-moves", "earlier", "tied-first-in", "tied-second-in"]
    page = board_page(board="time", scope=Scope.deal(5), page=1)
    assert [entry.user.username for entry in page.object_list] == expected
    assert [rank_of(entries[name]) for name in expected] == [1, 2, 3, 4, 5]
    for above, below in zip(expected, expected[1:], strict=False):
        assert entries[above].ranks_before(entries[below]) and not entries[below].ranks_before(entries[above])
    # A win with the same figures and finishing time as an entry does not pass it: the earlier stays.
    same = BoardEntry(first=100, second=10, finished_at=when)
    assert not same.ranks_before(entries["tied-first-in"]) and same.ranks_before(entries["tied-second-in"]) is False


@pytest.mark.django_db
def test_a_win_equal_to_the_player_s_best_leaves_the_earlier_on_the_board():
    ada = account("ada")
    when = datetime(2026, 12, 1, 12, tzinfo=UTC)
    games = []
    for _ in range(2):
        game = game_start(owner=user_owner(ada), deal_number=9)
        Game.objects.filter(pk=game.pk).update(
            status="won", ranked=True, moves=80, elapsed_ms=60_000, finished_at=when, origin=Game.Origin.CHOSEN
        )
        games.append(Game.objects.get(pk=game.pk))
    for game in games:
        boards_enter(game=game)
    assert set(BoardEntry.objects.filter(user=ada).values_list("game_id", flat=True)) == {games[0].pk}


@pytest.mark.django_db
def test_a_variants_board_keeps_its_variant_in_its_links_and_the_defaults_stay_bare(client):
    """The board page's links say its cleaned choices (records.presenters.board_page_context)."""
    from urllib.parse import parse_qsl

    from tests.helpers import parse_html

    def links(url) -> list[dict]:
        hrefs = [a["href"] for a in parse_html(client.get(url)).find_all("a") if "board=" in a.get("href", "")]
        return [dict(parse_qsl(href.lstrip("?"))) for href in hrefs]

    montana = links("/leaderboards/?variant=montana&board=elo&period=week")
    # The board and period tabs keep the variant, the cleaned board and period; the variant tabs name each.
    assert {"variant": "montana", "board": "moves", "period": "week"} in montana
    assert {"variant": "montana", "board": "time", "period": "today"} in montana
    assert {"variant": "addiction", "board": "time", "period": "week"} in montana
    assert all(link["board"] in ("time", "moves") for link in montana)
    bare = links("/leaderboards/?period=today")
    assert {"board": "moves", "period": "today"} in bare  # the default variant's addresses stay bare
    assert links("/deal/5/leaderboard/?variant=red-moon") == [
        {"variant": "red-moon", "board": "time"},
        {"variant": "red-moon", "board": "moves"},
    ]
