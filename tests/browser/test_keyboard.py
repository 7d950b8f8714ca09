"""The table by keyboard and screen reader in real Chromium (issue 13): one tab stop with
arrow, Home and End keys; the focus never falls to the page after an action; the live
region says every action; the replay steps with the arrow keys.

Deal #1, as dealt (see tests/browser/test_play.py); the moves come from the engine.
"""

from __future__ import annotations

import re

from django.utils import translation
from playwright.sync_api import Page, expect

from games import engine
from games.presenters import words as cards
from tests.browser.test_play import DEAL, first_move_to_a_gap, slot, slot_name, start


def focused_slot(page: Page) -> str | None:
    """The data-slot of the focused element, or None when the focus is not on a slot."""
    return page.evaluate("document.activeElement.closest('#grid .slot')?.dataset.slot ?? null")


def tab_stops(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#grid .slot", "slots => slots.filter(s => s.tabIndex >= 0).map(s => s.dataset.slot)"
    )


def card_name(token: str) -> str:
    """The card's name as the page says it, in English (another test may have left another
    language active in this thread)."""
    with translation.override("en"):
        return cards.card_name(token)


def where(slot: engine.Slot) -> str:
    return f"row {slot[0] + 1}, column {slot[1] + 1}"


def test_the_table_is_one_tab_stop_and_the_keys_walk_it(live_server, page: Page):
    start(page, live_server)
    opening = engine.deal(DEAL)
    stops = tab_stops(page)
    assert len(stops) == 1, stops
    expect(page.locator("#grid .slot[tabindex='-1']")).to_have_count(51)

    # Tab from the last action before the table lands on its one stop, and Tab again leaves it.
    page.get_by_role("button", name="New game").focus()
    page.keyboard.press("Tab")
    assert focused_slot(page) == stops[0]
    page.keyboard.press("Tab")
    assert focused_slot(page) is None
    page.keyboard.press("Shift+Tab")
    assert focused_slot(page) == stops[0]

    slot(page, "1-5").focus()
    assert tab_stops(page) == ["1-5"], "the stop follows the focus"
    page.keyboard.press("End")
    assert focused_slot(page) == "1-12"
    page.keyboard.press("Home")
    assert focused_slot(page) == "1-0"
    page.keyboard.press("Control+End")
    assert focused_slot(page) == "3-12"
    page.keyboard.press("Control+Home")
    assert focused_slot(page) == "0-0"
    page.keyboard.press("ArrowLeft")  # wraps, as before
    assert focused_slot(page) == "0-12"
    assert opening.rows()[0][12] and tab_stops(page) == ["0-12"]


def test_every_action_is_said_and_the_focus_stays_in_the_game(live_server, page: Page):
    start(page, live_server)
    opening = engine.deal(DEAL)
    grid = page.locator("#grid")
    said = page.locator("#announcer")

    # A move by Enter: the focus stays on the slot, now a gap, and the move is said.
    move = first_move_to_a_gap(opening)
    slot(page, slot_name(move.src)).focus()
    page.keyboard.press("Enter")
    expect(grid).to_have_attribute("data-moves", "1")
    expect(said).to_have_text(re.compile(rf"^{card_name(move.card)} to {where(move.dst)}\b"))
    assert focused_slot(page) == slot_name(move.src)
    assert tab_stops(page) == [slot_name(move.src)]

    # Undo by keyboard: the focus goes to the card that went back.
    page.get_by_role("button", name="Undo").focus()
    page.keyboard.press("Enter")
    expect(grid).to_have_attribute("data-moves", "2")
    expect(said).to_have_text(re.compile(rf"^Undone: {card_name(move.card)} back to {where(move.src)}\b"))
    assert focused_slot(page) == slot_name(move.src)
    expect(slot(page, slot_name(move.src))).to_have_attribute("data-card", move.card)

    # Shuffle by keyboard: the focus goes to the table's tab stop.
    page.get_by_role("button", name="Shuffle (3 left)").focus()
    page.keyboard.press("Space")
    expect(grid).to_have_attribute("data-shuffles-left", "2")
    expect(said).to_have_text(re.compile(r"^Shuffled: 2 left\b"))
    assert focused_slot(page) is not None and tab_stops(page) == [focused_slot(page)]

    # A refusal is said too, and two refusals in a row are both said (the region changes).
    position = engine.deal(DEAL)  # any card that cannot move after the shuffle
    stuck = page.eval_on_selector_all(
        "#grid .slot.card:not(.movable):not(.locked)", "slots => slots.map(s => s.dataset.slot)"
    )[0]
    slot(page, stuck).focus()
    page.keyboard.press("Enter")
    expect(said).to_have_text(re.compile("That card cannot move."))
    first = said.text_content()
    page.keyboard.press("Enter")
    page.wait_for_function("first => document.getElementById('announcer').textContent !== first", arg=first)
    expect(said).to_have_text(re.compile("^That card cannot move."))
    assert focused_slot(page) == stuck and position

    # The S key says the counters.
    page.keyboard.press("s")
    expect(said).to_have_text(re.compile(rf"^Deal #{DEAL}, Moves 2, Shuffles left 2, Time \d+:\d\d"))

    # Giving up: the result is said, and the focus is back on the table.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Give up").focus()
    page.keyboard.press("Enter")
    expect(grid).to_have_attribute("data-status", "lost")
    expect(said).to_have_text(re.compile("You gave up this game."))
    assert focused_slot(page) is not None


def focus_on_steps(page: Page, rel: str | None = None) -> None:
    """Wait until the focus is on the replay's step control (the link ``rel``, if given); it
    moves there when htmx has settled the step, a moment after the step shows."""
    page.wait_for_function(
        """rel => { const el = document.activeElement;
                    return el.closest('#replay .replay-steps') !== null && (!rel || el.rel === rel); }""",
        arg=rel,
    )


def test_the_replay_steps_with_the_arrow_keys(live_server, page: Page):
    game_id = start(page, live_server)
    opening = engine.deal(DEAL)
    for move in (first_move_to_a_gap(opening),):
        slot(page, slot_name(move.src)).click()
    expect(page.locator("#grid")).to_have_attribute("data-moves", "1")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Give up").click()
    expect(page.locator("#grid")).to_have_attribute("data-status", "lost")

    page.goto(f"{live_server.url}/game/{game_id}/replay/")
    steps = page.locator("#replay .replay-steps")
    expect(steps).to_contain_text("Step 0 of 2")
    page.keyboard.press("ArrowRight")
    expect(steps).to_contain_text("Step 1 of 2")
    expect(page).to_have_url(re.compile(rf"/game/{game_id}/replay/1/$"))
    focus_on_steps(page, "next")
    page.keyboard.press("ArrowRight")
    expect(steps).to_contain_text("Step 2 of 2")
    focus_on_steps(page)
    page.keyboard.press("ArrowLeft")
    expect(steps).to_contain_text("Step 1 of 2")
    focus_on_steps(page, "prev")
