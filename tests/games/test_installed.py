"""The installed site (issue 47; docs/RULES.md, "The installed site"): a web app manifest a
phone installs from, the service worker at /sw.js that keeps the page's files by their hashed
names and an offline page, and that page, translated.  tests/browser/test_installable.py runs
Chromium's own installability checks and the offline page."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.templatetags.static import static

from tests.helpers import text_of

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "static" / "games"


def test_the_service_worker_keeps_every_file_of_the_page_and_the_offline_page(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/javascript")
    assert answer["Cache-Control"] == "no-cache"  # a deploy's new worker comes at the next visit
    text = answer.content.decode()
    kept = json.loads(text.split("const FILES = [...", 1)[1].split(", OFFLINE]", 1)[0])
    modules = {f"games/{path.name}" for path in GAMES.glob("*.js")}
    assert {static(name) for name in modules | {"games/site.css", "games/manifest.json"}} <= set(kept)
    assert 'const OFFLINE = "/offline/"' in text
    assert 'request.method !== "GET"' in text  # a post always goes to the server


def test_the_offline_page_says_the_game_is_safe_in_the_players_language(client):
    assert "Your game is saved on the server" in text_of(client.get("/offline/"))
    client.cookies["django_language"] = "it"
    italian = text_of(client.get("/offline/"))
    assert "Nessuna connessione" in italian and "No connection" not in italian


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def test_the_manifest_has_what_an_installable_site_needs():
    manifest = json.loads((GAMES / "manifest.json").read_text())
    assert manifest["name"] and manifest["short_name"] and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    sizes = {icon["sizes"]: icon["src"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert png_size(GAMES / sizes["192x192"]) == (192, 192) and png_size(GAMES / sizes["512x512"]) == (512, 512)
