"""What crosses the wire: every answer is gzipped when the browser asks, pages with their CSRF token included."""

from __future__ import annotations

import gzip
import re

import pytest

from games.models import Game
from tests.helpers import HTMX, a_movable_slot, grid

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def move(client, game: Game, headers: dict):
    slot = a_movable_slot(game)
    return client.post(
        f"/game/{game.pk}/move/", {"version": game.version, "slot": f"{slot[0]}-{slot[1]}"}, headers=headers
    )


def test_a_moves_htmx_answer_is_gzipped_when_asked_and_decodes_to_the_table(client, game):
    response = move(client, game, {**HTMX, **GZIP})
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert int(response["Content-Length"]) == len(response.content) < 3 * 1024
    html = gzip.decompress(response.content).decode()
    assert grid(html).version == game.version + 1
    assert 'id="status"' in html and "csrfmiddlewaretoken" not in html


def test_a_refusal_is_gzipped_too(client, game):
    response = client.post(
        f"/game/{game.pk}/move/", {"version": game.version + 5, "slot": "0-0"}, headers={**HTMX, **GZIP}
    )
    assert response.status_code == 409
    assert response["Content-Encoding"] == "gzip"
    assert grid(gzip.decompress(response.content).decode()).version == game.version


def test_without_gzip_in_accept_encoding_the_answer_is_plain(client, game):
    response = move(client, game, {**HTMX, "Accept-Encoding": "identity"})
    assert not response.has_header("Content-Encoding")
    assert "Accept-Encoding" in response["Vary"]
    assert grid(response).version == game.version + 1


@pytest.mark.parametrize(
    "headers",
    [{}, {**HTMX, "HX-Boosted": "true"}, {**HTMX, "HX-History-Restore-Request": "true"}],
    ids=["plain", "boosted", "history-restore"],
)
def test_the_game_page_is_gzipped_with_its_csrf_token_masked_anew_and_random_padding(client, game, headers):
    """Whole pages go gzipped (README, "Compression"): what BREACH would read from their
    sizes, the CSRF token, is masked with fresh random bytes in every answer, and Django adds
    random bytes to each compressed answer, so the same page never compresses to the same size
    twice in a row for long."""
    answers = [client.get(f"/game/{game.pk}/", headers={**headers, **GZIP}) for _ in range(6)]
    assert all(answer.status_code == 200 and answer["Content-Encoding"] == "gzip" for answer in answers)
    pages = [gzip.decompress(answer.content) for answer in answers]
    tokens = [re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1] for page in pages]
    assert len(set(tokens)) == len(tokens)  # masked anew each time
    assert len({len(answer.content) for answer in answers}) > 1  # the padding varies
    assert len(answers[0].content) < len(pages[0]) / 3


def test_a_page_is_plain_when_gzip_is_not_accepted(client, game):
    response = client.get("/", headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200 and b"csrfmiddlewaretoken" in response.content
    assert not response.has_header("Content-Encoding") and "Accept-Encoding" in response["Vary"]


def test_the_table_htmx_reloads_is_gzipped(client, game):
    response = client.get(f"/game/{game.pk}/", headers={**HTMX, **GZIP})
    assert response["Content-Encoding"] == "gzip"
    assert grid(gzip.decompress(response.content).decode()).version == game.version
