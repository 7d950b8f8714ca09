"""The rules page shows the table with pictures (issue 26): a deal, a move, cards in place and
a shuffle, drawn by the table's own templates from positions the engine plays."""

from __future__ import annotations

import pytest

from tests.helpers import parse_html

pytestmark = pytest.mark.django_db


def test_the_rules_page_draws_a_deal_a_move_cards_in_place_and_a_shuffle(client):
    page = parse_html(client.get("/how-to-play/"))
    figures = {figure["data-picture"]: figure for figure in page.find_all("figure", class_="rules-picture")}
    assert list(figures) == ["deal", "move", "locked", "shuffle"]
    for name, figure in figures.items():
        slots = figure.find_all(role="listitem")
        assert len(slots) == 52 and sum(1 for slot in slots if not slot["data-card"]) == 4, name
        assert figure.find("figcaption").text.strip()
    assert len(figures["move"].find_all(class_="moved")) == 1
    assert "A move: Three of spades" in figures["move"].find("figcaption").text
    locked = figures["locked"].find_all(class_="locked")
    shuffled = {slot["data-slot"]: slot["data-card"] for slot in figures["shuffle"].find_all(role="listitem")}
    assert len(locked) >= 5 and all(shuffled[slot["data-slot"]] == slot["data-card"] for slot in locked)
    before = {slot["data-slot"]: slot["data-card"] for slot in figures["locked"].find_all(role="listitem")}
    assert before != shuffled  # the others were dealt again
