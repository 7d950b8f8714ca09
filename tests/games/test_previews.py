"""Previews of a shared replay (issue 47): Open Graph and Twitter card tags with a picture of
the table at the game's last step, a PNG drawn by the site (games/snapshot.py) for whoever may
see the replay, kept once drawn."""

from __future__ import annotations

import struct
import zlib

import pytest
from django.test import Client
from django.utils import timezone

from games import engine
from games.models import Game
from games.snapshot import GLYPHS, table_png
from tests.helpers import account, logged_in, parse_html
from tests.winning import SECOND, play_win, quick_win, user_owner

pytestmark = pytest.mark.django_db


def pixels(png: bytes) -> tuple[int, int, bytes]:
    """The PNG's width, height and RGB rows (filter bytes removed), read back by the format's rules."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, kind = struct.unpack(">IIBB", png[16:26])
    assert (depth, kind) == (8, 2)
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        name, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length : at + 12 + length])[0] == zlib.crc32(name + body)
        if name == b"IDAT":
            data += body
        at += 12 + length
    raw = zlib.decompress(data)
    stride = width * 3 + 1
    assert all(raw[row * stride] == 0 for row in range(height))
    return width, height, b"".join(raw[row * stride + 1 : (row + 1) * stride] for row in range(height))


def test_the_picture_is_a_valid_png_of_the_table_with_its_gaps_and_red_suits():
    position = engine.deal(7)
    width, height, rgb = pixels(table_png(position.rows(), position.locked()))
    assert (width, height) == (1200, 630)
    colours = {rgb[i : i + 3] for i in range(0, len(rgb), 3)}
    assert bytes((8, 70, 46)) in colours and bytes((196, 30, 58)) in colours  # gaps, and red ink
    assert set(GLYPHS) >= set("A23456789JQKSHDC10")


def test_a_shared_replay_has_a_preview_whose_picture_is_the_last_step():
    ada = account("ada")
    game = play_win(user_owner(ada), quick_win(), start=timezone.now() - 60 * SECOND)
    page = parse_html(Client().get(f"/game/{game.pk}/replay/"))  # a ranked win: open to anyone
    meta = {tag.get("property") or tag.get("name"): tag["content"] for tag in page.find_all("meta", content=True)}
    last = game.version
    assert meta["og:image"] == f"http://testserver/game/{game.pk}/replay/{last}/picture.png"
    assert meta["twitter:card"] == "summary_large_image" and meta["og:description"].startswith("Won in ")
    answer = Client().get(f"/game/{game.pk}/replay/{last}/picture.png")
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    assert "public" in answer["Cache-Control"]
    state = Game.objects.get(pk=game.pk).state()
    assert answer.content == table_png(state.position.rows(), state.position.locked())  # the final table


def test_a_private_games_picture_is_its_owners_alone(client):
    game = Game.objects.get(pk=int(client.post("/new/", {"deal_number": 4}).url.strip("/").split("/")[-1]))
    client.post(f"/game/{game.pk}/resign/", {"version": 0})
    assert client.get(f"/game/{game.pk}/replay/1/picture.png").status_code == 200
    assert "private" in client.get(f"/game/{game.pk}/replay/1/picture.png")["Cache-Control"]
    assert Client().get(f"/game/{game.pk}/replay/1/picture.png").status_code == 404
    assert logged_in(account("eve")).get(f"/game/{game.pk}/replay/1/picture.png").status_code == 404
    assert client.get(f"/game/{game.pk}/replay/99/picture.png").status_code == 404
