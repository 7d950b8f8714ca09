"""Pages without a game in play: home, how to play, not found, and translations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games import engine
from tests.helpers import HTMX, a_movable_slot, new_game, parse_html, text_of, untranslated_words

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
# The project's templates (base, error pages, Django's auth pages) and each app's own.
TEMPLATES = [ROOT / "templates", *(ROOT / app / "templates" for app in ("games", "records", "daily", "accounts"))]


def test_home_offers_a_random_deal_and_a_chosen_one(client):
    response = client.get("/")
    assert response.status_code == 200
    page = parse_html(response)
    random_deal, chosen_deal = page.find_all("form", action="/new/")
    assert not random_deal.find_all("input", name="deal_number")
    assert chosen_deal.find("input", name="deal_number")["type"] == "number"
    assert page.find_all("a", href="/how-to-play/")


def test_home_lists_only_this_sessions_games_in_progress(client):
    game = new_game(client, 31)
    other = new_game(Client(), 32)
    page = parse_html(client.get("/"))
    assert page.find_all("a", href=f"/game/{game.pk}/") and "#31" in page.text
    assert not page.find_all("a", href=f"/game/{other.pk}/")


def test_how_to_play_agrees_with_the_rules(client):
    response = client.get("/how-to-play/")
    assert response.status_code == 200
    text = text_of(response)
    assert "three shuffles" in text
    assert "A gap in the leftmost column takes any 2" in text
    assert "A 2 only ever goes to the leftmost column." in text
    assert "Nothing can go right of a King" in text
    assert "as far as the most recent shuffle. A shuffle can never be undone" in text
    assert "every undo" in text and "never goes down" in text
    assert "any pause, before your first action or between two, counts as 2 minutes at most" in text
    assert "Stuck with no shuffle left, the game is lost" in text


def test_how_to_play_states_the_configured_idle_cap(client, settings):
    settings.ADDICTION_IDLE_CAP_SECONDS = 300
    assert "counts as 5 minutes at most" in text_of(client.get("/how-to-play/"))


def test_how_to_play_says_the_clock_starts_at_first_sight_and_the_other_rules_a_player_meets(client):
    text = text_of(client.get("/how-to-play/"))
    assert "It starts when the game is dealt, so studying the deal counts" in text
    assert "and so does every undo and every redo" in text
    assert f"at most {engine.MAX_ACTIONS} actions" in text
    for words in ("Redo plays again", "a random deal not played yet when you start another", "assisted game"):
        assert words in text
    assert "ranks on that day's daily board" in text
    assert parse_html(client.get("/how-to-play/")).find(id="daily").tag == "h2"  # the daily page links to it


def test_the_game_page_states_the_idle_cap(client):
    game = new_game(client, 1)
    assert "any pause counts as 2 minutes at most" in text_of(client.get(f"/game/{game.pk}/"))


def test_an_unknown_game_is_a_plain_404(client):
    response = client.get("/game/424242/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Traceback" not in html and "seed" not in html
    assert not parse_html(response).find_all(id="grid")


@pytest.mark.parametrize("language", ["nl", "it", "es", "hi", "xx", "nl-BE,nl;q=0.9"])
@pytest.mark.parametrize("path", ["/", "/how-to-play/"])
def test_pages_render_in_any_accepted_language(client, language, path):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    expected = language.split(",")[0].split("-")[0]
    assert parse_html(response).find("html")["lang"] == (expected if expected in dict(settings.LANGUAGES) else "en")


@pytest.mark.parametrize("language", ["nl", "it"])
def test_a_game_plays_in_another_language(client, language):
    game = new_game(client, 1)
    slot = a_movable_slot(game)
    headers = {"Accept-Language": language}
    assert client.get(f"/game/{game.pk}/", headers=headers).status_code == 200
    response = client.post(
        f"/game/{game.pk}/move/", {"version": 0, "slot": f"{slot[0]}-{slot[1]}"}, headers={**HTMX, **headers}
    )
    assert response.status_code == 200


# --------------------------------------------------------------------------- every word translatable


@pytest.mark.parametrize(
    "path",
    sorted(path for folder in TEMPLATES for path in folder.rglob("*.html")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_every_template_marks_its_words_for_translation(path):
    source = path.read_text(encoding="utf-8")
    assert untranslated_words(source) == []
    if re.search(r"\{%\s*(?:translate|trans|blocktranslate|blocktrans)\b", source):
        assert re.search(r"\{%\s*load\b[^%]*\bi18n\b", source), f"{path.name} translates without loading i18n"
