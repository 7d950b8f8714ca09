"""A race's standings, live (docs/RULES.md, "Races"; races/stream.py, races/notices.py): the stream each page opens,
what it says aloud, the snapshot WSGI answers, and the countdown before a live race's clocks."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from addiction_site.ownership import Owner
from games.models import Game
from games.services import NotStarted, game_act
from races import notices, stream
from races.models import Race
from races.selectors import LOST, PLAYING, WAITING, WON, News, Snapshot, Standing, news
from races.services import race_close_if_due
from tests.helpers import a_movable_slot, act, parse_html, text_of
from tests.races.test_races import a_live_race_of_two, game_of, join, open_race

pytestmark = pytest.mark.django_db


def run_apart(scenario):
    """``asyncio.run(scenario())`` in a thread of its own: a browser test's Playwright may have
    left an event loop running in this one (the same pytest-xdist worker)."""
    outcome: dict = {}

    def run():
        try:
            outcome["value"] = asyncio.run(scenario())
        except BaseException as error:  # noqa: BLE001 - raised again below, in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def owner_of(game: Game) -> Owner:
    return Owner(user_id=game.owner_id, guest_token=game.guest_token)


def row(entry_id: int, name: str, state: str = PLAYING, in_place: int = 0, version: int = 0) -> Standing:
    return Standing(entry_id, name, entry_id, state, in_place, version, 2, 1000, version)


def snap(*rows: Standing, state: str = Race.State.RUNNING) -> Snapshot:
    return Snapshot(state, rows)


def test_news_says_an_overtake_and_a_finish_but_never_a_move_that_changes_no_rank():
    ada, grace = row(1, "Ada", in_place=4), row(2, "Grace", in_place=2)
    before = snap(ada, grace)
    assert news(before, snap(row(1, "Ada", in_place=5), grace)) == []  # a move, no rank changed
    passed = snap(row(2, "Grace", in_place=6), ada)
    assert news(before, passed) == [News("overtook", "Grace", "Ada")]
    won = snap(row(2, "Grace", WON, in_place=48), ada)
    assert news(before, won) == [News("won", "Grace")]  # the finish says it: no overtake besides
    stuck = snap(ada, row(2, "Grace", LOST, in_place=2))
    assert news(before, stuck) == [News("lost", "Grace")]


def test_news_says_the_start_and_the_close():
    waiting = snap(row(1, "Ada", WAITING), state=Race.State.OPEN)
    assert news(waiting, snap(row(1, "Ada"))) == [News("started")]
    assert news(snap(row(1, "Ada")), snap(row(1, "Ada", WON, 48), state=Race.State.CLOSED)) == [
        News("won", "Ada"),
        News("closed"),
    ]


def test_a_snapshot_travels_through_the_layer_as_it_is():
    shown = snap(row(1, "Ada", in_place=3, version=7), row(2, "Grace"))
    assert Snapshot.from_message(shown.as_message()) == shown
    assert snap(row(1, "Ada", version=8)).order > snap(row(1, "Ada", version=7)).order


def test_an_event_puts_each_line_of_its_data_on_a_data_line():
    assert stream.event("news", "one\ntwo") == "event: news\ndata: one\ndata: two\n\n"
    assert stream.event("closed", "") == "event: closed\ndata: \n\n"


def stream_rows(text: str) -> dict[str, dict[str, str]]:
    """The standings of the last "standings" event in ``text``, player by player."""
    tables = [
        "\n".join(line.removeprefix("data: ") for line in block.splitlines() if line.startswith("data: "))
        for block in text.split("\n\n")
        if block.startswith("event: standings")
    ]
    assert tables, text
    table = parse_html(tables[-1]).find("table", id="standings")
    return {
        tr["data-player"]: {key: tr[f"data-{key}"] for key in ("in-place", "moves", "state")}
        for tr in table.find_all("tr", data_player=True)
    }


def test_served_by_wsgi_the_stream_answers_one_snapshot_and_asks_the_browser_back():
    _host, _guest, race = a_live_race_of_two()
    response = Client().get(f"/race/{race.code}/stream/")
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    body = response.content.decode()
    assert body.startswith("retry: ")
    assert set(stream_rows(body)) == {"Ada", "Grace"}
    assert Client().get("/race/nothere/stream/").status_code == 404
    assert Client().post(f"/race/{race.code}/stream/").status_code == 405


class Browser:
    """One open stream of ``stream.stream``, as daphne would run it: what it sent, and a way to leave."""

    def __init__(self, path: str, query: bytes = b""):
        code = path.strip("/").split("/")[1]
        self.scope = {
            "type": "http",
            "method": "GET",
            "path": path,
            "query_string": query,
            "headers": [],
            "url_route": {"args": (), "kwargs": {"code": code}},
        }
        self.leave = asyncio.Event()
        self.sent: list[dict] = []
        self.status = None

    async def receive(self):
        await self.leave.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        if message["type"] == "http.response.start":
            self.status = message["status"]
        self.sent.append(message)

    @property
    def text(self) -> str:
        return b"".join(m.get("body", b"") for m in self.sent if m["type"] == "http.response.body").decode()

    async def until(self, check, timeout: float = 5.0):
        deadline = asyncio.get_running_loop().time() + timeout
        while not check(self.text):
            assert asyncio.get_running_loop().time() < deadline, self.text
            await asyncio.sleep(0.01)


@pytest.mark.django_db(transaction=True)
def test_a_stream_sends_the_standings_then_each_move_of_another_player_and_the_close(settings):
    settings.ADDICTION_LIVE_RECHECK_SECONDS = 60  # what arrives here was pushed, not read again
    _host, guest, race = a_live_race_of_two()
    grace = game_of(race, "Grace")

    def grace_moves():
        game = Game.objects.get(pk=grace.pk)
        game_act(owner=owner_of(grace), game_id=game.pk, version=game.version, kind="move", slot=a_movable_slot(game))

    def close():
        race.refresh_from_db()
        race_close_if_due(race, now=race.closes_at)

    async def scenario():
        browser = Browser(f"/race/{race.code}/stream/", b"lang=it")
        task = asyncio.ensure_future(stream.stream(browser.scope, browser.receive, browser.send))
        await browser.until(lambda text: "event: standings" in text)
        assert browser.status == 200 and "Classifica" in browser.text  # the page's language
        assert stream_rows(browser.text)["Grace"]["moves"] == "0"
        await database_sync_to_async(grace_moves)()
        await browser.until(lambda text: stream_rows(text)["Grace"]["moves"] == "1")
        await database_sync_to_async(close)()
        await browser.until(lambda text: "event: closed" in text)
        await asyncio.wait_for(task, 5)  # a closed race's stream ends by itself
        assert {player["state"] for player in stream_rows(browser.text).values()} == {"gave-up"}
        assert browser.sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}

    run_apart(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_stream_that_missed_a_notice_catches_up_at_its_next_reading(settings, monkeypatch):
    settings.ADDICTION_LIVE_RECHECK_SECONDS = 0.2
    _host, _guest, race = a_live_race_of_two()
    grace = game_of(race, "Grace")
    monkeypatch.setattr(notices, "tell", lambda race_id: None)  # every notice lost (another process's layer)

    def grace_moves():
        game = Game.objects.get(pk=grace.pk)
        game_act(owner=owner_of(grace), game_id=game.pk, version=game.version, kind="move", slot=a_movable_slot(game))

    async def scenario():
        browser = Browser(f"/race/{race.code}/stream/")
        task = asyncio.ensure_future(stream.stream(browser.scope, browser.receive, browser.send))
        await browser.until(lambda text: "event: standings" in text)
        await database_sync_to_async(grace_moves)()
        await browser.until(lambda text: stream_rows(text)["Grace"]["moves"] == "1")
        browser.leave.set()  # the page is closed: the stream ends and leaves the race's group
        await asyncio.wait_for(task, 5)
        assert browser.sent[-1]["more_body"] is False

    run_apart(scenario)


@pytest.mark.django_db(transaction=True)
def test_the_stream_of_an_unknown_race_is_a_404_and_a_post_a_405():
    async def scenario():
        unknown = Browser("/race/nothere/stream/")
        await stream.stream(unknown.scope, unknown.receive, unknown.send)
        posted = Browser("/race/nothere/stream/")
        posted.scope["method"] = "POST"
        await stream.stream(posted.scope, posted.receive, posted.send)
        return unknown.status, posted.status

    assert run_apart(scenario) == (404, 405)


def test_a_live_race_counts_down_before_every_clock_starts(settings):
    settings.ADDICTION_RACE_COUNTDOWN_SECONDS = 5
    host, guest = Client(), Client()
    race = open_race(host)
    assert join(guest, race, "Grace").status_code == 302
    before = timezone.now()
    assert host.post(f"/race/{race.code}/start/").status_code == 302
    race.refresh_from_db()
    assert race.started_at >= before + timedelta(seconds=5)
    grace = game_of(race, "Grace")
    assert grace.started_at == race.started_at
    race_page = host.get(f"/race/{race.code}/")
    assert parse_html(race_page).find("p", data_countdown=True)["data-countdown"] in {"4", "5"}
    refresh = parse_html(race_page).find("meta", http_equiv="refresh")["content"]
    assert refresh.endswith(f"url=/game/{game_of(race, 'Ada').pk}/")  # on to the player's own game
    page = guest.get(f"/game/{grace.pk}/")
    assert parse_html(page).find(id="countdown")
    assert parse_html(page).find_all(id="grid") == []  # nobody sees the table before the clock starts
    assert "This game starts in" in text_of(page)
    # The deal is named at the clocks' start, not during the countdown (docs/RULES.md, "Races").
    number = str(grace.deal_number)
    assert number not in text_of(page) and number not in text_of(guest.get("/my-games/"))
    slot = a_movable_slot(grace)
    refused = act(guest, grace, "move", slot=slot)
    assert refused.status_code == 409 and refused["HX-Refresh"] == "true"
    with pytest.raises(NotStarted):
        game_act(owner=owner_of(grace), game_id=grace.pk, version=0, kind="move", slot=slot)
    assert Game.objects.get(pk=grace.pk).version == 0
    played = game_act(owner=owner_of(grace), game_id=grace.pk, version=0, kind="move", slot=slot, now=race.started_at)
    assert played.game.version == 1 and played.game.elapsed_ms == 0
