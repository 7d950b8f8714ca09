"""Puzzles in Chromium (issue 47): a new player opens /puzzles/, solves one with the keyboard on
the game's own table (its instant moves and the server's confirmation), sees the rating go up,
fails the next by touch on a phone held upright with the reason and the move that kept the win,
and plays the day's puzzle; nothing scrolls sideways on the phone."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from games import engine, solver
from puzzles.build import from_deal
from puzzles.models import Attempt
from puzzles.services import puzzle_keep
from tests.browser.test_drag import drag

ATTEMPT_URL = re.compile(r"/puzzles/(\d+)/$")


def kept() -> None:
    """Two puzzles: one becomes the day's (the lobby asks for it), the other is drawn next."""
    for deal in (9, 3):
        found = from_deal(deal)
        assert found is not None
        puzzle_keep(found)


def play(page: Page, position: engine.Position, move: engine.Move, *, touch: bool = False) -> None:
    """A move as a player makes it: Enter (or a tap) on its card where the click's rule takes it
    there, else a drag to its gap (a 2 bound for another column-0 gap than the topmost)."""
    card = page.locator(f'#grid [data-slot="{engine.slot_name(move.src)}"]')
    if position.move_for_slot(move.src) != move:
        drag(page, engine.slot_name(move.src), engine.slot_name(move.dst))
    elif touch:
        card.tap()
    else:
        card.focus()
        page.keyboard.press("Enter")


def start_next(page: Page, live_server) -> Attempt:
    page.goto(f"{live_server.url}/puzzles/")
    page.locator("#next-puzzle").click()
    expect(page).to_have_url(ATTEMPT_URL)
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    return Attempt.objects.get(pk=int(ATTEMPT_URL.search(page.url).group(1)))


def test_a_puzzle_solved_with_the_keyboard_raises_the_rating(db, live_server, page: Page):
    kept()
    puzzle = start_next(page, live_server).puzzle
    grid = page.locator("#grid")
    expect(page.locator("#status")).not_to_contain_text("Shuffle")
    position = engine.Position.parse(puzzle.position)
    for number, text in enumerate(puzzle.line.split(), start=1):
        move = engine.Move.parse(text)
        play(page, position, move)
        expect(grid).to_have_attribute("data-version", str(number))  # the server's answer, in place
        if grid.get_attribute("data-status") != "playing":  # every line wins from here: the rest is played
            break
        expect(page.locator(f'#grid [data-slot="{engine.slot_name(move.dst)}"]')).to_have_attribute(
            "data-card", move.card
        )
        position = position.play(move)
    expect(grid).to_have_attribute("data-status", "won")
    expect(page.locator("#puzzle-result")).to_contain_text("Solved, in")
    expect(page.locator("#puzzle-rating-after")).to_be_visible()
    rating = int(re.search(r"(\d+)", page.locator("#puzzle-rating-after").inner_text()).group(1))
    assert rating > 1500
    expect(page.locator("#share-text")).to_have_value(re.compile(r"solved in \d+ moves"))
    page.goto(f"{live_server.url}/puzzles/")
    expect(page.locator("#my-puzzle-rating")).to_contain_text(str(rating))


def test_a_slip_on_a_phone_ends_the_puzzle_with_why_and_the_move_that_kept_it(db, live_server, browser: Browser):
    kept()
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        puzzle = start_next(page, live_server).puzzle
        position = engine.Position.parse(puzzle.position)
        slip = next(m for m in position.legal_moves() if solver.solve(position.play(m)).proved_lost)
        play(page, position, slip, touch=True)
        expect(page.locator("#grid")).to_have_attribute("data-status", "lost")
        expect(page.locator("#puzzle-result")).to_contain_text("lost the win")
        expect(page.locator("#puzzle-reason")).to_contain_text("the search tried every line from there")
        expect(page.locator("#puzzle-kept")).to_contain_text("The move that kept the win")
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= 390, wide
        first = page.locator('#grid [data-slot="0-0"]').bounding_box()
        assert min(first["width"], first["height"]) >= 44, first  # the game's phone table, a thumb's size
        # The next puzzle, then the day's.
        page.locator("#new-game-button").tap()
        expect(page).to_have_url(re.compile(r"/puzzles/"))
        page.goto(f"{live_server.url}/puzzles/")
        page.locator("#daily-puzzle").tap()
        expect(page).to_have_url(ATTEMPT_URL)
        expect(page.locator("h1")).to_contain_text("Daily puzzle")
    finally:
        context.close()
