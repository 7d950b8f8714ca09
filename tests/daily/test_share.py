"""A finished daily's result to share (issue 47; daily/panels.py, share_text): the day, won or
lost, time, moves, shuffles, a row of squares for each row's cards in place, and the link, in
the result the last move's answer draws; nothing of the deal (no card, no move)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.utils import timezone

from daily import deals
from games import engine
from games.models import Game
from games.presenters.words import duration
from games.snapshot import table_png
from tests.games.test_previews import pixels
from tests.helpers import account, act, logged_in, parse_html
from tests.winning import SECOND, play_win, quick_win, user_owner

pytestmark = pytest.mark.django_db
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b|\b(?:Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King)\b|[♠♥♦♣]")


def shared(page) -> str:
    """The text in the share box, as the page has it (line by line)."""
    found = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', page.content.decode(), re.S)
    return html.unescape(found.group(1))


def test_a_won_daily_shares_its_day_result_figures_and_a_full_table_of_squares():
    ada = account("ada")
    today = deals.today()
    game = play_win(user_owner(ada), quick_win(), start=timezone.now() - 60 * SECOND, origin="daily", daily=today)
    text = shared(logged_in(ada).get(f"/game/{game.pk}/"))
    head, *rows, link = text.splitlines()
    assert head == (
        f"Addiction daily {today.isoformat()}: won in {duration(game.elapsed_ms)}, {game.moves} moves, "
        f"{game.shuffles_used} shuffles"
    )
    assert rows == ["\U0001f7e9" * 12] * 4  # every card in place
    assert link == f"http://testserver/daily/{today.isoformat()}/"
    assert not CARD.search(text)  # nothing of the deal


def test_a_lost_daily_shares_its_runs_and_says_lost_and_its_answer_brings_it(client):
    game = Game.objects.get(pk=int(client.post("/daily/start/").url.strip("/").split("/")[-1]))
    answer = act(client, game, "resign")  # htmx: the whole table with its result
    text = shared(answer)
    head, *rows, _link = text.splitlines()
    assert head.startswith(f"Addiction daily {deals.today().isoformat()}: lost after ") and "0 moves" in head
    position = Game.objects.get(pk=game.pk).state().position
    in_place = [sum(1 for r, _c in position.locked() if r == row) for row in range(4)]
    assert [row.count("\U0001f7e9") for row in rows] == in_place and all(len(row) == 12 for row in rows)
    assert not CARD.search(text)


def test_only_a_finished_daily_has_one(client):
    daily = Game.objects.get(pk=int(client.post("/daily/start/").url.strip("/").split("/")[-1]))
    assert not parse_html(client.get(f"/game/{daily.pk}/")).find_all(id="share-text")  # still playing
    other = Client()
    game = Game.objects.get(pk=int(other.post("/new/", {"deal_number": 5}).url.strip("/").split("/")[-1]))
    finished = act(other, game, "resign")
    assert finished.status_code == 200 and not parse_html(finished).find_all(id="share-text")


def test_a_shared_days_link_previews_its_deal_as_dealt_and_nothing_of_a_game(client):
    day = deals.today()
    page = parse_html(client.get(f"/daily/{day.isoformat()}/"))
    image = page.find("meta", property="og:image")["content"]
    assert image == f"http://testserver/daily/{day.isoformat()}/picture.png"
    assert day.isoformat() in page.find("meta", property="og:title")["content"]
    assert page.find("meta", property="og:image:alt")["content"] == "The day's deal as every player is dealt it"
    response = client.get(f"/daily/{day.isoformat()}/picture.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    position = engine.deal(deals.deal_number_of(day), deals.VARIANT)
    assert response.content == table_png(position.rows(), position.locked())  # the layout alone
    assert pixels(response.content)[:2] == (1200, 630)
    assert "public" in response["Cache-Control"]
    later = day.replace(year=day.year + 1)
    assert client.get(f"/daily/{later.isoformat()}/picture.png").status_code == 404  # no deal yet
