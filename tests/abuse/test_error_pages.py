"""The site's own error pages: short, translatable, and never the debug page.

400, 403, 403_csrf and 404 extend base.html; 500.html stands alone, since Django renders it
with no context at all.  This module is also a URLconf: the site's URLs plus three views
that fail on purpose, for the pages no real URL of the site gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.template import loader
from django.test import Client
from django.urls import include, path

from tests.helpers import HTMX, new_game, parse_html, text_of, untranslated_words

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
ERROR_TEMPLATES = ["400.html", "403.html", "403_csrf.html", "404.html", "500.html"]


def _boom(request):
    raise RuntimeError("a bug in a view")


def _forbidden(request):
    raise PermissionDenied("not for you")


def _suspicious(request):
    raise SuspiciousOperation("odd")


urlpatterns = [
    path("test-errors/500/", _boom),
    path("test-errors/403/", _forbidden),
    path("test-errors/400/", _suspicious),
    path("", include("addiction_site.urls")),
]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def names(response) -> list[str]:
    return [template.name for template in response.templates]


def assert_site_page(response, status: int, template: str, heading: str) -> None:
    """The answer is our short page, in the site's layout, with nothing of the debug page."""
    assert response.status_code == status
    assert template in names(response) and "base.html" in names(response), names(response)
    page = parse_html(response)
    assert page.find("h1").text == heading and page.find_all(class_="site-header")
    html = response.content.decode()
    # What Django's debug page shows; the site's own footer links its settings page, so
    # the word "settings" alone would say nothing.
    for marker in ("Traceback", "SECRET", "DJANGO_SETTINGS_MODULE", "Request Method", "Installed Apps"):
        assert marker not in html, marker
    assert len(text_of(response)) < 600, text_of(response)


def test_an_unknown_address_is_the_site_404_page(client):
    assert_site_page(client.get("/no-such-page/"), 404, "404.html", "Page not found")


def test_another_players_game_is_the_same_404_page(client):
    game = new_game(client, 1)
    for response in (Client().get(f"/game/{game.pk}/"), Client().get(f"/game/{game.pk}/", headers=HTMX)):
        assert_site_page(response, 404, "404.html", "Page not found")
        assert not parse_html(response).find_all(id="grid")


def test_the_404_page_speaks_the_visitors_language(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 404 and parse_html(response).find("html")["lang"] == "nl"


def test_a_post_without_its_csrf_token_is_the_site_403_csrf_page():
    browser = Client(enforce_csrf_checks=True)
    response = browser.post("/new/", {"deal_number": "1"})
    assert_site_page(response, 403, "403_csrf.html", "Page out of date")
    assert "CSRF verification failed" not in response.content.decode()  # not Django's own page


def test_a_refused_permission_is_the_site_403_page(client):
    assert_site_page(client.get("/test-errors/403/"), 403, "403.html", "Not allowed")


def test_a_bad_request_is_the_site_400_page(client):
    assert_site_page(client.get("/test-errors/400/"), 400, "400.html", "Bad request")
    assert_site_page(client.get("/", HTTP_HOST="evil.example"), 400, "400.html", "Bad request")


def test_a_server_error_is_the_standalone_500_page():
    response = Client(raise_request_exception=False).get("/test-errors/500/")
    assert response.status_code == 500
    assert names(response) == ["500.html"]  # nothing extended or included that could fail again
    assert parse_html(response).find("h1").text == "Server error"
    html = response.content.decode()
    assert "a bug in a view" not in html and "Traceback" not in html


def test_the_500_page_renders_without_any_context():
    """What django.views.defaults.server_error does: render() with no context and no request."""
    page = parse_html(loader.get_template("500.html").render())
    assert page.find("h1").text == "Server error" and page.find_all("a", href="/")


@pytest.mark.parametrize("name", ERROR_TEMPLATES)
def test_error_pages_mark_every_word_for_translation(name):
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    assert "{% load i18n %}" in source and "{% translate" in source
    assert untranslated_words(source) == []
