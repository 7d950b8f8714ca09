"""A script against a live race (issue 42, "Honest boards against a patient script"), played
through the site with the test client: a bot joins, reads everything the race serves before the
start looking for the deal, then plays a solver's line as fast as it can.  It must learn nothing
of the deal before the start, and its win must not take the race from a player at a person's
pace (docs/RULES.md, "Races": the deal is named at the start; pace)."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from games import engine
from games.models import Game
from games.services import seed_digest
from races import stream
from races.models import Entry, Race
from races.selectors import race_snapshot
from tests.helpers import HTMX, account, logged_in, parse_html
from tests.races.test_live import Browser, run_apart
from tests.races.test_races import join, open_race
from tests.winning import SECOND, find_win, play_with_client

pytestmark = pytest.mark.django_db

# A deal whose number no page prints by chance (nine digits), and a line that wins it.
WIN = find_win(735_000_001)
MACHINE = timedelta(milliseconds=20)
"""The server's time between two of the bot's actions: a script's pace, pinned so that the test
does not hang on how fast this machine answers (a test client's posts are no slower)."""

CARD_NAMES = re.compile(
    r"\b(?:Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of (?:spades|hearts|diamonds|clubs)\b"
)
CARD_TOKENS = re.compile(r"\b[2-9TJQKA][SHDC]\b")  # the position notation's cards: 7H, TD, KS


def what_gives_away(text: str, race: Race) -> list[str]:
    """What in ``text`` names the race's deal or shows a card of its table (the race's own code,
    random letters, is not read: it could spell a card by chance)."""
    text = text.replace(race.code, "")
    found = [f"the deal number {WIN.deal_number}"] if str(WIN.deal_number) in text else []
    found += [f"a table ({marker})" for marker in ('id="grid"', "data-card", "data-slot") if marker in text]
    found += CARD_NAMES.findall(text) + CARD_TOKENS.findall(text)
    found += [symbol for symbol in "♠♥♦♣" if symbol in text]
    return found


def without_drawn_deal(home: str) -> str:
    """The home page with its table taken out once it is found to be another deal: with its race
    not started, the bot has no game to resume there, and the home page shows the deal drawn for
    its browser (games/drawn.py), which is not the race's."""
    grid = parse_html(home).find(id="grid")
    assert "drawn" in grid.classes
    shown = [slot["data-card"] for slot in grid.find_all("button", attrs={"data-slot": True})]
    race_deal = [card or "" for row in engine.deal(WIN.deal_number).rows() for card in row]
    assert shown != race_deal
    start, end = home.index('<form id="grid"'), home.index("</form>", home.index('<form id="grid"'))
    return home[:start] + home[end:]


def open_on_the_winnable_deal(host: Client) -> Race:
    """The host's live race on WIN's deal, with the race's seed WIN was found with (set before any
    game is dealt, as the race would have drawn it): the bot's line then wins it."""
    race = open_race(host, deal=WIN.deal_number)
    Race.objects.filter(pk=race.pk).update(seed=str(WIN.seed), seed_sha256=seed_digest(str(WIN.seed)))
    return race


def everything_before_the_start(bot: Client, race: Race, host_entry: Entry) -> dict[str, str]:
    """Every page, partial, snapshot and answer the bot can get of the race before its start."""
    code = race.code
    read = {
        "race page": bot.get(f"/race/{code}/"),
        "race page, by htmx": bot.get(f"/race/{code}/", headers=HTMX),
        "standings": bot.get(f"/race/{code}/standings/"),
        "standings, by htmx": bot.get(f"/race/{code}/standings/", headers=HTMX),
        "the host's list of players": bot.get(f"/race/{code}/players/", headers=HTMX),
        "stream's snapshot (WSGI)": bot.get(f"/race/{code}/stream/"),
        "join, blank name": bot.post(f"/race/{code}/join/", {"name": " "}),
        "join again": bot.post(f"/race/{code}/join/", {"name": "Bot again"}),
        "start (not the host)": bot.post(f"/race/{code}/start/"),
        "removing the host": bot.post(f"/race/{code}/remove/{host_entry.pk}/"),
        "home page's invitation": bot.get("/"),
        "host's profile": bot.get("/players/ada/"),
        "bot's profile": bot.get("/players/bot/"),
        "bot's games": bot.get("/my-games/"),
        "a visitor's race page": Client().get(f"/race/{code}/"),
    }
    texts = {name: response.content.decode() for name, response in read.items()}
    texts["home page's invitation"] = without_drawn_deal(texts["home page's invitation"])
    download = bot.get("/accounts/data/")
    texts["bot's data download (JSON)"] = b"".join(download.streaming_content).decode()
    # What the ASGI stream sends: the notice each change puts on the channel layer, and the
    # events it renders from it (test_the_asgi_stream_... reads the stream itself).
    _race_id, shown = race_snapshot(code=code, now=timezone.now())
    texts["the layer's notice"] = json.dumps(shown.as_message())
    texts["the stream's events"] = stream.events_of(code, shown, None, "en")
    assert {read[name].status_code for name in ("start (not the host)", "removing the host")} == {404}
    return texts


def test_a_bot_learns_nothing_of_the_deal_before_the_start_and_its_machine_win_does_not_take_the_race(
    django_capture_on_commit_callbacks,
):
    ada, bot_account = account("ada"), account("bot")
    host, bot = logged_in(ada), logged_in(bot_account)
    race = open_on_the_winnable_deal(host)
    assert join(bot, race, "Bot").status_code == 302
    host_entry = Entry.objects.get(race=race, name="Ada")

    # Before the start: nothing the race serves names the deal or shows a card of it.
    seen = everything_before_the_start(bot, race, host_entry)
    assert {name: what_gives_away(text, race) for name, text in seen.items() if what_gives_away(text, race)} == {}
    assert what_gives_away(str(WIN.deal_number), race)  # the check finds the number where it is

    # The start: now the deal is on the race's page, and the bot plays the solver's line at once.
    assert host.post(f"/race/{race.code}/start/").status_code == 302
    page = parse_html(bot.get(f"/race/{race.code}/"))
    assert int(page.find(id="race")["data-deal"]) == WIN.deal_number
    (play,) = [link["href"] for link in page.find_all("a") if link.text.strip() == "Play your game"]
    bots_game = Game.objects.get(pk=int(play.strip("/").split("/")[-1]))
    bots_game = play_with_client(bot, bots_game, WIN.actions, step=MACHINE)
    ada_game = Entry.objects.get(race=race, name="Ada").game
    with django_capture_on_commit_callbacks(execute=True):  # the last game's end closes the race
        ada_game = play_with_client(host, ada_game, WIN.actions, step=SECOND)  # a person's pace
    assert bots_game.status == ada_game.status == engine.Status.WON
    assert bots_game.elapsed_ms < ada_game.elapsed_ms  # by time alone, the bot would win the race
    assert bots_game.review == Game.Review.HELD and ada_game.review == Game.Review.NONE

    race.refresh_from_db()
    assert race.state == Race.State.CLOSED
    results = parse_html(Client().get(f"/race/{race.code}/")).find("table", id="standings")
    rows = results.find_all("tr", data_player=True)
    assert [row["data-player"] for row in rows] == ["Ada", "Bot"]  # the person first
    assert rows[1]["data-pace"] == "held" and "data-pace" not in rows[0].attrs
    assert "played faster than a person plays: held for review" in rows[1].text
    (bots_race,) = parse_html(bot.get("/players/bot/")).find_all("li", data_race=race.code)
    assert bots_race["data-place"] == "2" and "played faster than a person plays" in bots_race.text


@pytest.mark.django_db(transaction=True)
def test_the_asgi_stream_names_no_deal_before_the_start_and_names_none_after_it_either():
    """The live stream, as daphne serves it, through a join (a change it pushes) and the start:
    it carries figures only, never the deal, from the first event to the last."""
    host, bot = Client(), Client()
    race = open_on_the_winnable_deal(host)

    async def scenario():
        browser = Browser(f"/race/{race.code}/stream/")
        task = asyncio.ensure_future(stream.stream(browser.scope, browser.receive, browser.send))
        await browser.until(lambda text: "event: standings" in text)
        await database_sync_to_async(join)(bot, race, "Bot")
        await browser.until(lambda text: 'data-player="Bot"' in text)
        await database_sync_to_async(host.post)(f"/race/{race.code}/start/")
        await browser.until(lambda text: 'data-race-state="running"' in text)
        browser.leave.set()
        await task
        return browser.text

    sent = run_apart(scenario)
    assert what_gives_away(sent, race) == []


def test_a_challenge_names_its_deal_to_a_player_once_their_own_game_is_dealt():
    host = Client()
    race = open_race(host, mode="challenge", deal=WIN.deal_number)
    visitor = Client()
    assert what_gives_away(visitor.get(f"/race/{race.code}/").content.decode(), race) == []
    assert parse_html(visitor.get(f"/race/{race.code}/")).find("p", data_deal_hidden=True)
    assert join(visitor, race, "Grace").status_code == 302  # dealt now: her clock runs
    assert int(parse_html(visitor.get(f"/race/{race.code}/")).find(id="race")["data-deal"]) == WIN.deal_number
    assert int(parse_html(host.get(f"/race/{race.code}/")).find(id="race")["data-deal"]) == WIN.deal_number
    assert what_gives_away(Client().get(f"/race/{race.code}/").content.decode(), race) == []  # not to others
