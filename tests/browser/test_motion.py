"""Motion in real Chromium (issue 13): cards slide to their slots in a view transition, one
named element per card; never under reduced motion unless the settings ask, never when the
settings say no."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from games import engine
from tests.browser.test_play import first_move_to_a_gap, slot, slot_name, start

COUNT_TRANSITIONS = """
  window.transitions = 0;
  const start = document.startViewTransition.bind(document);
  document.startViewTransition = (update) => { window.transitions += 1; return start(update); };
  undefined;  // not the function: Playwright would call it
"""


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
        names = page.eval_on_selector_all(
            "#grid .slot.card", "slots => slots.map(s => getComputedStyle(s).viewTransitionName)"
        )
        assert len(names) == 48 and len(set(names)) == 48 and all(name.startswith("card-") for name in names)

        page.evaluate(COUNT_TRANSITIONS)
        move = first_move_to_a_gap(engine.deal(1))
        slot(page, slot_name(move.src)).click()
        expect(page.locator("#grid")).to_have_attribute("data-moves", "1")
        # The card keeps its name in its new slot, so the transition slides it there.
        expect(slot(page, slot_name(move.dst))).to_have_css("view-transition-name", f"card-{move.card}")
        page.get_by_role("button", name="Shuffle (3 left)").click()
        expect(page.locator("#grid")).to_have_attribute("data-shuffles-left", "2")
        assert page.evaluate("window.transitions") == (2 if slides else 0)
    finally:
        context.close()
