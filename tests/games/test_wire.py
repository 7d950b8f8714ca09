"""What crosses the wire: htmx's partial answers are gzipped when asked, whole pages with a CSRF token never."""

from __future__ import annotations

import gzip

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
def test_the_game_page_with_its_csrf_token_is_not_compressed(client, game, headers):
    response = client.get(f"/game/{game.pk}/", headers={**headers, **GZIP})
    assert response.status_code == 200
    assert not response.has_header("Content-Encoding")
    assert b"csrfmiddlewaretoken" in response.content


def test_an_htmx_answer_that_used_the_csrf_token_is_not_compressed(client, game):
    """Home is a whole page even when htmx asks for it; its forms carry the token."""
    response = client.get("/", headers={**HTMX, **GZIP})
    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content
    assert not response.has_header("Content-Encoding")


def test_the_table_htmx_reloads_is_gzipped(client, game):
    response = client.get(f"/game/{game.pk}/", headers={**HTMX, **GZIP})
    assert response["Content-Encoding"] == "gzip"
    assert grid(gzip.decompress(response.content).decode()).version == game.version
