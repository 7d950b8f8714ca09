"""Issue 13's table, as the server draws it: what the slots advertise, what the status bar
announces, the settings, and the contrast of the stylesheet's colours."""

from __future__ import annotations

import re
from pathlib import Path

from games import engine
from games.cards import card_name, table_slots
from tests.helpers import TWO_COLUMN_0_GAPS, act, parse_html


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
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_is_computed_as_wcag_says():
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48


def test_the_focus_ring_and_the_mark_of_a_locked_card_stand_out():
    root = custom_properties(CSS.read_text().split(":root {", 1)[1].split("}", 1)[0])
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
