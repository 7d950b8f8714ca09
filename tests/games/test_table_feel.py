"""Issue 13's table, as the server draws it: what the slots advertise, what the status bar
announces, the settings, and the contrast of the stylesheet's colours."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.utils import translation

from games import engine
from games.forms import SettingsForm
from games.preferences import CHOICES
from games.presenters.table import table_slots
from games.presenters.words import card_name
from tests.helpers import TWO_COLUMN_0_GAPS, act, parse_html


@translation.override("en")
def test_a_locked_card_that_could_move_is_not_marked_movable():
    position = engine.Position.parse(TWO_COLUMN_0_GAPS)
    state = engine.GameState(position=position, seed=1, deal_number=1)
    # 2D heads its run in column 0 (locked), and the open column-0 gap 0-0 takes it legally.
    assert (2, 0) in position.locked()
    assert (2, 0) in {move.src for move in position.legal_moves()}

    slots = {(view.row, view.col): view for row in table_slots(state) for view in row}
    for locked in position.locked():
        assert not slots[locked].movable, locked
        assert "movable" not in slots[locked].classes.split()
    assert slots[2, 0].label().endswith("in place")
    # A free card that can move still says so: 2S (0-12) goes to a column-0 gap.
    assert slots[0, 12].movable and slots[0, 12].label().endswith("can move")


# --------------------------------------------------------------------------- the live region's words


@translation.override("en")
def test_each_action_answers_with_its_words_for_the_live_region(client, game):
    move = next(m for m in game.state().position.legal_moves() if m.dst[1] != 0)
    said = parse_html(act(client, game, "move", slot=move.src)).find(id="said")
    assert said.text == f"{card_name(move.card)} to row {move.dst[0] + 1}, column {move.dst[1] + 1}"
    assert "hidden" in said.attrs

    said = parse_html(act(client, game, "undo")).find(id="said")
    assert said.text == f"Undone: {card_name(move.card)} back to row {move.src[0] + 1}, column {move.src[1] + 1}"

    assert parse_html(act(client, game, "shuffle")).find(id="said").text == "Shuffled: 2 left"
    # A refusal says only its note; the page itself says nothing before an action.
    refused = act(client, game, "undo", version=0)
    assert refused.status_code == 409 and parse_html(refused).find(id="said").text == ""
    assert parse_html(client.get(f"/game/{game.pk}/")).find(id="said").text == ""


def test_the_marking_toggle_keeps_its_label_and_says_its_state_with_aria_pressed(client, game):
    def toggle():
        page = parse_html(client.get(f"/game/{game.pk}/"))
        return next(button for button in page.find_all("button") if "aria-pressed" in button.attrs)

    on = toggle()
    assert on["aria-pressed"] == "true" and on.text == "Mark cards that can move"
    client.post("/settings/mark-movable/", {"on": "0", "next": f"/game/{game.pk}/"})
    off = toggle()
    assert off["aria-pressed"] == "false" and off.text == on.text


# --------------------------------------------------------------------------- contrast

CSS = Path(__file__).resolve().parents[2] / "static" / "games" / "site.css"


def custom_properties(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{6})\b", block))


def luminance(hex_colour: str) -> float:
    """WCAG 2's relative luminance of an sRGB colour "#rrggbb"."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_is_computed_as_wcag_says():
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48


def themes() -> dict[str, dict[str, str]]:
    """The colours of each theme: the light ones of :root, and the dark theme's over them."""
    css = CSS.read_text()
    light = custom_properties(css.split(":root {", 1)[1].split("}", 1)[0])
    dark = custom_properties(css.split(':root[data-theme="dark"] {', 1)[1].split("}", 1)[0])
    device_dark = custom_properties(css.split(':root:not([data-theme="light"]) {', 1)[1].split("}", 1)[0])
    assert dark == device_dark, "the dark theme chosen and the device's dark theme differ"
    return {"light": light, "dark": {**light, **dark}}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_focus_ring_and_the_mark_of_a_locked_card_stand_out(theme):
    root = themes()[theme]
    ring, felt = root["--focus-on-felt"], root["--felt"]
    for face in (root["--paper"], root["--settled"]):
        assert contrast(ring, face) >= 3, (ring, face)
    assert contrast(ring, felt) >= 3
    # A locked card differs from a free one by its frame, not only its tint.
    assert contrast(root["--settled"], root["--paper"]) < 3
    assert contrast(root["--locked-edge"], root["--settled"]) >= 3
    assert contrast(root["--locked-edge"], root["--paper"]) >= 3


def test_the_font_stack_names_a_devanagari_face():
    stack = re.search(r"font-family:([^;]+);", CSS.read_text().split(":root {", 1)[1]).group(1)
    assert "Noto Sans Devanagari" in stack and "Nirmala UI" in stack


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_page_s_words_read_on_its_background(theme):
    root = themes()[theme]
    for name in ("--text", "--muted", "--link", "--warning", "--win-text", "--lose-text"):
        assert contrast(root[name], root["--page"]) >= 4.5, (theme, name)
    assert contrast(root["--focus"], root["--page"]) >= 3
    assert contrast(root["--text"], root["--control"]) >= 4.5


# --------------------------------------------------------------------------- settings, theme, icons


def test_the_settings_page_keeps_the_choices_in_cookies_and_every_page_follows_them(client):
    page = parse_html(client.get("/settings/"))
    assert page.find("input", name="theme", value="auto").get("checked") is not None
    assert page.find("input", name="motion", value="auto").get("checked") is not None
    assert page.find("input", name="mark_movable").get("checked") is not None
    html = parse_html(client.get("/")).find("html")
    assert "data-theme" not in html.attrs and "data-motion" not in html.attrs

    saved = client.post("/settings/", {"theme": "dark", "motion": "off", "next": "/how-to-play/"})
    assert saved.status_code == 302 and saved.url == "/how-to-play/"
    names = ("addiction_theme", "addiction_motion", "addiction_mark_movable")
    assert {name: saved.cookies[name].value for name in names} == {
        "addiction_theme": "dark",
        "addiction_motion": "off",
        "addiction_mark_movable": "0",
    }
    assert saved.cookies["addiction_theme"]["httponly"]
    html = parse_html(client.get("/")).find("html")
    assert html["data-theme"] == "dark" and html["data-motion"] == "off"
    page = parse_html(client.get("/settings/"))
    assert page.find("input", name="theme", value="dark").get("checked") is not None
    assert page.find("input", name="mark_movable").get("checked") is None

    # Back to the device's choice: the cookie goes; a foreign address is not followed.
    back = client.post(
        "/settings/", {"theme": "auto", "motion": "on", "mark_movable": "on", "next": "https://evil.example/"}
    )
    assert back.url == "/settings/" and back.cookies["addiction_theme"]["max-age"] == 0
    html = parse_html(client.get("/")).find("html")
    assert "data-theme" not in html.attrs and html["data-motion"] == "on"
    assert client.post("/settings/", {"theme": "purple", "motion": "on"}).status_code == 400


def test_the_settings_form_offers_exactly_the_choices_the_cookies_keep():
    """Each setting is decided once (games/preferences.py): the form has a field for each, and
    its choices are the ones a cookie keeps, and the default that no cookie means."""
    form = SettingsForm()
    assert set(form.fields) == set(CHOICES)
    for name, choice in CHOICES.items():
        field = form.fields[name]
        offered = {value for value, _label in field.choices} if hasattr(field, "choices") else {True, False}
        assert offered == set(choice.kept) | {choice.default}, name


def test_a_cookie_s_value_is_never_written_into_the_page_as_it_is(client):
    client.cookies["addiction_theme"] = '"><script>'
    html = parse_html(client.get("/")).find("html")
    assert "data-theme" not in html.attrs


def test_the_favicon_the_manifest_and_the_home_screen_icons(client):
    head = parse_html(client.get("/")).find("head")
    icon = head.find("link", rel="icon")
    assert icon["type"] == "image/svg+xml" and client.get(icon["href"]).status_code == 200
    manifest_url = head.find("link", rel="manifest")["href"]
    manifest = json.loads(b"".join(client.get(manifest_url).streaming_content))
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    base = manifest_url.rsplit("/", 1)[0]
    for icon in manifest["icons"] + [
        {
            "src": head.find("link", rel="apple-touch-icon")["href"].rsplit("/", 1)[1],
            "sizes": "180x180",
            "type": "image/png",
        }
    ]:
        body = b"".join(client.get(f"{base}/{icon['src']}").streaming_content)
        if icon["type"] == "image/png":
            assert body[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", body[16:24])
            assert f"{width}x{height}" == icon["sizes"]
        else:
            assert body.startswith(b"<svg")


def test_the_four_colour_deck_is_a_setting_kept_in_this_browser(client):
    """Issue 26: spades black, hearts red, diamonds blue, clubs green, as a choice."""
    assert 'data-deck="four"' not in client.get("/how-to-play/").content.decode()
    saved = client.post("/settings/", {"theme": "auto", "motion": "auto", "deck": "four", "next": "/how-to-play/"})
    assert saved.status_code == 302 and saved.cookies["addiction_deck"].value == "four"
    assert 'data-deck="four"' in client.get("/how-to-play/").content.decode()
    assert "checked" in parse_html(client.get("/settings/")).find("input", name="deck", value="four").attrs
    back = client.post("/settings/", {"theme": "auto", "motion": "auto", "deck": "two"})
    assert back.cookies["addiction_deck"]["max-age"] == 0
    css = (Path(__file__).resolve().parents[2] / "static/games/site.css").read_text()
    assert (
        ':root[data-deck="four"] .card[data-card$="D"]' in css
        and ':root[data-deck="four"] .card[data-card$="C"]' in css
    )


def test_the_large_index_is_a_setting_kept_in_this_browser(client):
    saved = client.post("/settings/", {"theme": "auto", "motion": "auto", "face": "large", "next": "/how-to-play/"})
    assert saved.status_code == 302 and saved.cookies["addiction_face"].value == "large"
    assert 'data-face="large"' in client.get("/how-to-play/").content.decode()
    back = client.post("/settings/", {"theme": "auto", "motion": "auto", "face": "usual"})
    assert back.cookies["addiction_face"]["max-age"] == 0
