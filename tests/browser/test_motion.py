"""Motion in real Chromium (issue 13): a card that changes places slides there from where it
stood (static/games/motion.js animates a transform, after the board has changed); never under reduced
motion unless the settings ask, never when the settings say no."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from games import engine
from tests.browser.test_play import first_move_to_a_gap, slot, slot_name, start
from tests.browser.test_replay import play_and_give_up

# Each slide motion.js starts on the grid: the card, and the shift it starts from.
RECORD_SLIDES = """
  window.slides = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    if (this.matches("#grid .slot")) {
      window.slides.push([this.dataset.card, keyframes[0].transform]);
      window.inTheWay = window.inTheWay || keyframes.some(k => k.pointerEvents !== "none");
    }
    return animate.call(this, keyframes, options);
  };
  undefined;  // not the function: Playwright would call it
"""
NEXT_FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
BOX = "slot => { const box = slot.getBoundingClientRect(); return [box.left, box.top]; }"


@pytest.mark.parametrize(
    ("device", "chosen", "slides"),
    [("no-preference", None, True), ("reduce", None, False), ("reduce", "on", True), ("no-preference", "off", False)],
)
def test_cards_slide_unless_motion_is_reduced(live_server, browser: Browser, db, device, chosen, slides):
    context = browser.new_context(reduced_motion=device)
    try:
        if chosen:
            context.add_cookies([{"name": "addiction_motion", "value": chosen, "url": live_server.url}])
        page = context.new_page()
        start(page, live_server)
        page.evaluate(RECORD_SLIDES)
        move = first_move_to_a_gap(engine.deal(1))
        source, target = slot(page, slot_name(move.src)), slot(page, slot_name(move.dst))
        source.hover()  # where the card stands when clicked: lifted, unless motion is reduced
        (x0, y0), (x1, y1) = source.evaluate(BOX), target.evaluate(BOX)
        source.click()
        expect(page.locator("#grid")).to_have_attribute("data-moves", "1")
        page.evaluate(NEXT_FRAMES)
        # The card alone slides, from the slot it left to the gap it filled.
        expected = [[move.card, f"translate({x0 - x1}px, {y0 - y1}px)"]] if slides else []
        assert page.evaluate("window.slides") == expected
        assert not page.evaluate("window.inTheWay")  # a sliding card never takes a click meant for a slot

        page.evaluate("window.slides = []")
        page.get_by_role("button", name="Shuffle (3 left)").click()
        expect(page.locator("#grid")).to_have_attribute("data-shuffles-left", "2")
        page.evaluate(NEXT_FRAMES)
        shuffled = {card for card, _shift in page.evaluate("window.slides")}
        # A shuffle is seen as one: the cards that are not in place go to new slots.
        assert len(shuffled) > 30 if slides else not shuffled
    finally:
        context.close()


def test_a_replay_step_slides_the_one_card_it_moves(live_server, browser: Browser, db):
    """Places are taken within the table: the line above it that a step changes (and that may
    move the whole table down) makes no other card slide."""
    context = browser.new_context(reduced_motion="no-preference")
    try:
        page = context.new_page()
        game_id = play_and_give_up(page, live_server)
        page.goto(f"{live_server.url}/game/{game_id}/replay/")
        page.evaluate(RECORD_SLIDES)
        for step in (1, 2):
            page.wait_for_function("() => document.getAnimations().length === 0")  # the last card has landed
            page.evaluate("window.slides = []")
            page.locator("#replay .replay-steps a[rel=next]").click()
            expect(page.locator("#grid")).to_have_attribute("data-step", str(step))
            page.evaluate(NEXT_FRAMES)
            moved = page.locator("#grid .slot.moved").get_attribute("data-card")
            assert [card for card, _shift in page.evaluate("window.slides")] == [moved], step
    finally:
        context.close()
