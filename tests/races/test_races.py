"""Races (docs/RULES.md, "Races"; issue 28): open, join under a name, start; the same deal and
the same luck for every player; standings of figures only; closing, the seed and the replays."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games import engine
from games.models import Game
from races.models import MAX_PLAYERS, Entry, Race
from races.selectors import GAVE_UP, PLAYING, WON, Standing, rank_key
from races.services import race_close_if_due, races_close_due
from records.scopes import board_scopes
from tests.helpers import act, parse_html, text_of

pytestmark = pytest.mark.django_db


def open_race(client, name: str = "Ada", mode: str = "live", deal: int | str = 17, length: str = "1d") -> Race:
    response = client.post("/race/new/", {"name": name, "mode": mode, "deal_number": deal, "length": length})
    assert response.status_code == 302, text_of(response)
    return Race.objects.get(code=response["Location"].strip("/").split("/")[-1])


def join(client, race: Race, name: str):
    return client.post(f"/race/{race.code}/join/", {"name": name})


def standings(client, race: Race) -> dict[str, dict[str, str]]:
    table = parse_html(client.get(f"/race/{race.code}/standings/")).find("table", id="standings")
    return {
        row["data-player"]: {key: row[f"data-{key}"] for key in ("in-place", "moves", "state")}
        for row in table.find_all("tr", data_player=True)
    }


def buttons(page) -> list[str]:
    return [button.text.strip() for button in parse_html(page).find_all("button")]


def game_of(race: Race, name: str) -> Game:
    return Entry.objects.get(race=race, name=name).game


def a_live_race_of_two() -> tuple[Client, Client, Race]:
    host, guest = Client(), Client()
    race = open_race(host)
    assert join(guest, race, "Grace").status_code == 302
    assert host.post(f"/race/{race.code}/start/").status_code == 302
    race.refresh_from_db()
    return host, guest, race


def test_a_race_shows_its_seeds_digest_and_who_waits_for_the_start():
    host = Client()
    race = open_race(host)
    page = host.get(f"/race/{race.code}/")
    assert race.seed_sha256 in text_of(page) and race.seed not in page.content.decode()
    assert standings(host, race) == {"Ada": {"in-place": "0", "moves": "0", "state": "waiting"}}
    assert "Start the race" in buttons(page)  # the host's page
    other = Client().get(f"/race/{race.code}/")
    assert "Start the race" not in buttons(other) and "Join the race" in buttons(other)


def test_every_player_gets_the_same_deal_and_the_same_clock_start():
    _host, _guest, race = a_live_race_of_two()
    ada, grace = game_of(race, "Ada"), game_of(race, "Grace")
    assert race.state == Race.State.RUNNING and race.closes_at == race.started_at + timedelta(minutes=30)
    assert ada.position == grace.position == str(engine.deal(17))
    assert ada.started_at == grace.started_at == race.started_at  # one server moment
    assert ada.seed == grace.seed == race.seed and ada.origin == Game.Origin.RACE and ada.sealed


def test_a_shuffle_from_the_same_position_deals_alike_for_every_player():
    host, guest, race = a_live_race_of_two()
    ada, grace = game_of(race, "Ada"), game_of(race, "Grace")
    assert act(host, ada, "shuffle").status_code == 200
    assert act(guest, grace, "shuffle").status_code == 200
    ada.refresh_from_db()
    grace.refresh_from_db()
    assert ada.shuffles_used == grace.shuffles_used == 1
    assert ada.position == grace.position != str(engine.deal(17))


def test_each_player_sees_the_others_figures_but_never_their_table():
    host, guest, race = a_live_race_of_two()
    ada = game_of(race, "Ada")
    move = engine.Position.parse(ada.position).legal_moves()[0]
    assert act(host, ada, "move", slot=move.src).status_code == 200
    seen_by_grace = standings(guest, race)
    assert seen_by_grace["Ada"]["moves"] == "1" and seen_by_grace["Ada"]["state"] == "playing"
    assert seen_by_grace["Grace"]["moves"] == "0"
    assert guest.get(f"/game/{ada.pk}/").status_code == 404  # someone else's table
    assert race.seed not in guest.get(f"/race/{race.code}/").content.decode()


def test_when_everyone_has_finished_the_race_closes_and_shows_its_seed_and_replays(django_capture_on_commit_callbacks):
    host, guest, race = a_live_race_of_two()
    ada, grace = game_of(race, "Ada"), game_of(race, "Grace")
    act(host, ada, "resign")
    ada.refresh_from_db()
    assert not ada.seed_shown  # over, but the race is not: its seed is everyone's
    with django_capture_on_commit_callbacks(execute=True):  # the action that ends the last game closes it
        act(guest, grace, "resign")
    page = Client().get(f"/race/{race.code}/")
    race.refresh_from_db()
    assert race.state == Race.State.CLOSED and race.seed in text_of(page)
    assert {row["state"] for row in standings(Client(), race).values()} == {"gave-up"}
    assert all(game.seed_shown for game in Game.objects.filter(race_entry__race=race))
    links = [link["href"] for link in parse_html(page).find_all("a") if "/replay/" in link["href"]]
    assert len(links) == 2 and Client().get(links[0]).status_code == 200  # anyone may replay them now
    # Its shared link previews the first player's final table (issue 47), which anyone may fetch.
    meta = {tag["property"]: tag["content"] for tag in parse_html(page).find_all("meta", property=True)}
    first = Game.objects.get(pk=int(re.search(r"/game/(\d+)/replay/", meta["og:image"]).group(1)))
    assert meta["og:image"].endswith(f"/game/{first.pk}/replay/{first.version}/picture.png")
    assert meta["og:description"].endswith("came first; nobody won.")
    assert Client().get(meta["og:image"].removeprefix("http://testserver")).status_code == 200


def test_a_race_not_closed_previews_no_table():
    host, guest, race = a_live_race_of_two()
    page = parse_html(Client().get(f"/race/{race.code}/"))
    assert not [tag for tag in page.find_all("meta", property=True) if tag["property"] == "og:image"]


def test_nobody_joins_a_started_race_a_full_one_or_under_a_name_taken():
    host = Client()
    race = open_race(host)
    assert join(Client(), race, "Ada").status_code == 409  # the host's name
    for number in range(MAX_PLAYERS - 1):
        assert join(Client(), race, f"Player {number}").status_code == 302
    full = join(Client(), race, "One too many")
    assert full.status_code == 409 and parse_html(full).find_all("p", data_refused="full")
    assert Entry.objects.filter(race=race).count() == MAX_PLAYERS
    _host, _guest, started = a_live_race_of_two()
    assert parse_html(join(Client(), started, "Late")).find_all("p", data_refused="started")
    assert started.entries.count() == 2


def test_only_the_host_starts_a_live_race_and_only_once():
    host, guest = Client(), Client()
    race = open_race(host)
    join(guest, race, "Grace")
    assert guest.post(f"/race/{race.code}/start/").status_code == 404
    assert host.post(f"/race/{race.code}/start/").status_code == 302
    assert host.post(f"/race/{race.code}/start/").status_code == 409  # a double click deals nothing twice
    assert Game.objects.filter(race_entry__race=race).count() == 2


def test_a_challenge_deals_each_game_on_joining_and_closes_on_time():
    host, guest = Client(), Client()
    race = open_race(host, mode="challenge", length="1h")
    join(guest, race, "Grace")
    ada, grace = game_of(race, "Ada"), game_of(race, "Grace")
    assert ada is not None and grace is not None and ada.seed == grace.seed == race.seed
    act(host, ada, "resign")
    assert race_close_if_due(race) is False  # Grace still has the hour
    assert race_close_if_due(race, now=timezone.now() + timedelta(hours=1, seconds=1)) is True
    grace.refresh_from_db()
    assert grace.status == engine.Status.LOST and grace.resigned  # given up as it stood at the close
    assert grace.seed_shown


def test_a_page_never_closes_a_race_the_worker_does_at_its_time(settings):
    """No GET writes (issue 41): a race whose time is up stays as it is stored when its pages
    are looked at; the worker's task deferred to its ``closes_at``, or the hourly housekeeping,
    closes it."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}  # a backend that defers
    from django_tasks import default_task_backend

    host, guest = Client(), Client()
    race = open_race(host, mode="challenge", length="1h")
    (deferred,) = default_task_backend.results  # the close, asked for at the race's time
    assert deferred.task.run_after == race.closes_at and deferred.args == [race.pk]
    join(guest, race, "Grace")
    later = timezone.now() + timedelta(hours=2)
    Race.objects.filter(pk=race.pk).update(closes_at=timezone.now() - timedelta(seconds=1))  # its time is up
    for path in (f"/race/{race.code}/", f"/race/{race.code}/standings/", f"/race/{race.code}/stream/"):
        assert host.get(path).status_code == 200
    race.refresh_from_db()
    assert race.state == Race.State.OPEN and Game.objects.filter(status="playing", race_entry__race=race).count() == 2
    out = StringIO()
    call_command("housekeeping", stdout=out)
    assert "races closed at their time: 1" in out.getvalue()
    race.refresh_from_db()
    assert race.state == Race.State.CLOSED
    assert not Game.objects.filter(status="playing", race_entry__race=race).exists()  # given up as they stood
    assert races_close_due(now=later) == 0  # closing is done once


def test_a_race_game_is_on_no_global_board():
    _host, _guest, race = a_live_race_of_two()
    assert board_scopes(game_of(race, "Ada")) == []


def test_the_results_rank_wins_by_time_then_moves_then_the_others_by_cards_in_place():
    rows = [
        Standing(1, "1", 11, PLAYING, 30, 80, 1, 600_000),
        Standing(2, "2", 12, WON, 48, 120, 0, 500_000),
        Standing(3, "3", 13, WON, 48, 90, 1, 500_000),
        Standing(4, "4", 14, GAVE_UP, 35, 70, 0, 400_000),
        Standing(5, "5", 15, WON, 48, 60, 2, 700_000),
    ]
    assert [row.entry_id for row in sorted(rows, key=rank_key)] == [3, 2, 5, 4, 1]


@pytest.mark.parametrize(
    "data",
    [
        {"name": "", "mode": "live"},
        {"name": "Ada", "mode": "relay"},
        {"name": "Ada", "mode": "live", "deal_number": "0"},
    ],
    ids=["no-name", "no-such-mode", "no-such-deal"],
)
def test_a_malformed_race_is_a_clear_400(client, data):
    response = client.post("/race/new/", {"length": "1d", **data})
    assert response.status_code == 400 and not Race.objects.exists()


def test_an_unknown_race_is_a_404(client):
    assert client.get("/race/no-such-race/").status_code == 404
    assert client.post("/race/no-such-race/join/", {"name": "Ada"}).status_code == 404


def test_staff_read_a_race_without_its_seed():
    _host, _guest, race = a_live_race_of_two()
    staff = Client()
    staff.force_login(User.objects.create_superuser("root", password="unused-in-these-tests-1"))
    page = staff.get(f"/admin/races/race/{race.pk}/change/")
    assert page.status_code == 200 and "Grace" in text_of(page) and race.seed not in page.content.decode()


def test_the_rules_page_says_how_races_work(client):
    page = parse_html(client.get("/how-to-play/"))
    (heading,) = page.find_all("h2", id="races")
    assert "Races" in heading.text and "A race puts up to 8 players" in text_of(client.get("/how-to-play/"))


def test_a_race_on_todays_daily_layout_has_the_days_deal_and_its_own_seed():
    from daily import deals, services

    host = Client()
    response = host.post("/race/new/", {"name": "Ada", "mode": "live", "daily": "on", "length": "1d"})
    race = Race.objects.get(code=response["Location"].strip("/").split("/")[-1])
    assert race.deal_number == deals.deal_number_of(deals.today())
    assert race.seed != services.seed_of(deals.today()).seed  # the day's shared luck stays the ranked games'


def test_an_account_keeps_the_races_it_joined_as_a_guest_and_its_profile_lists_them():
    host, guest, race = a_live_race_of_two()
    race_close_if_due(race, now=race.closes_at)
    User.objects.create_user("grace", "grace@example.org", "plum-orchard-lantern-42")
    assert (
        guest.post("/accounts/login/", {"username": "grace", "password": "plum-orchard-lantern-42"}).status_code == 302
    )
    entry = Entry.objects.get(race=race, name="Grace")
    assert entry.user.username == "grace" and entry.guest_token == ""
    profile = parse_html(guest.get("/players/grace/"))
    (item,) = profile.find_all("li", data_race=race.code)
    assert item["data-race-state"] == "closed" and item["data-place"] in {"1", "2"}
    assert "of 2" in item.text
    assert (
        len(parse_html(Client().get("/players/grace/")).find_all("li", data_race=True)) == 1
    )  # public, as the profile
