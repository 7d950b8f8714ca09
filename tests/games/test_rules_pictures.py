"""The rules page shows the table with pictures (issue 26): a deal, a move, cards in place and
a shuffle, drawn by the table's own templates from positions the engine plays."""

from __future__ import annotations

import pytest

from tests.helpers import parse_html

pytestmark = pytest.mark.django_db


def test_the_rules_page_draws_a_deal_a_move_cards_in_place_and_a_shuffle(client):
    page = parse_html(client.get("/how-to-play/"))
    every = {figure["data-picture"]: figure for figure in page.find_all("figure", class_="rules-picture")}
    figures = {name: figure for name, figure in every.items() if name in ("deal", "move", "locked", "shuffle")}
    assert list(every)[:4] == ["deal", "move", "locked", "shuffle"]
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


def test_the_rules_page_draws_each_variants_deal_and_its_table_after_a_shuffle(client):
    """Issue 29: a section per variant, with its table: 14 columns and the aces in column 0 for the moons,
    and after Montana's and the moons' shuffle a gap right after each row's run."""
    from games import engine

    page = parse_html(client.get("/how-to-play/"))
    figures = {figure["data-picture"]: figure for figure in page.find_all("figure", class_="rules-picture")}
    for key in ("montana", "spaces", "blue-moon", "red-moon"):
        variant = engine.VARIANTS[key]
        assert page.find(id=f"variant-{key}")
        for picture in ("deal", "shuffle"):
            slots = figures[f"{key}-{picture}"].find_all(role="listitem")
            cards = {slot["data-slot"]: slot["data-card"] for slot in slots}
            assert len(cards) == 4 * variant.cols and sum(1 for card in cards.values() if not card) == 4
            if variant.aces_stay:
                assert sorted(cards[f"{row}-0"] for row in range(4)) == ["AC", "AD", "AH", "AS"]
        deal = {slot["data-slot"]: slot["data-card"] for slot in figures[f"{key}-deal"].find_all(role="listitem")}
        assert deal == {
            f"{r}-{c}": token or ""
            for r, row in enumerate(engine.deal(1, variant).rows())
            for c, token in enumerate(row)
        }
