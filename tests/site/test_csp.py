"""The Content-Security-Policy (settings.CONTENT_SECURITY_POLICY, django-csp) on every page:
scripts, styles and the rest from the site alone, no framing, forms post to the site; and the
templates give it nothing to refuse (no inline script, style or handler)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest

from tests.helpers import HTMX, new_game

ROOT = Path(__file__).resolve().parents[2]
STYLE_500 = "'sha256-{}'".format(
    base64.b64encode(
        hashlib.sha256(
            re.search(r"<style>(.*?)</style>", (ROOT / "templates/500.html").read_text(), re.S)[1].encode()
        ).digest()
    ).decode()
)
TEMPLATES = sorted(
    path
    for folder in (ROOT / "templates", *(ROOT / app / "templates" for app in ("games", "records", "daily", "accounts")))
    for path in folder.rglob("*.html")
)
WANTED = {
    "default-src": "'self'",
    "style-src": f"'self' {STYLE_500}",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
    "base-uri": "'self'",
    "object-src": "'none'",
}


def policy(response) -> dict[str, str]:
    header = response.headers["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/how-to-play/", "/leaderboard/", "/daily/", "/accounts/signup/", "/nowhere/"])
def test_every_page_carries_the_policy(client, path):
    assert policy(client.get(path)) == WANTED


@pytest.mark.django_db
def test_the_game_page_and_htmx_answers_carry_the_policy(client):
    game = new_game(client, 5)
    assert policy(client.get(f"/game/{game.pk}/")) == WANTED
    assert policy(client.get(f"/game/{game.pk}/", headers=HTMX)) == WANTED


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_template_has_an_inline_script_style_or_handler(path):
    source = path.read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", source), "an inline script"
    if path.name != "500.html":  # its one <style> is allowed by its hash (style-src)
        assert not re.search(r"<style\b|\sstyle=", source), "an inline style"
    assert not re.search(r"\son[a-z]+=", source), "an inline event handler"
