"""Drag and drop: a card dragged onto a gap moves there (the move form's explicit
destination, slot=R-C&to=R-C); a drag onto a gap it does not fit is refused by the server
like a bad click, and a press that does not move stays a click."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from games.models import Game
from tests.helpers import TWO_COLUMN_0_GAPS, set_layout

GAME_URL = re.compile(r"/game/(\d+)/$")


def start(page: Page, live_server) -> Game:
    page.goto(f"{live_server.url}/deal/1/")
    page.get_by_role("button", name="Play deal #1").click()
    expect(page).to_have_url(GAME_URL)
    return Game.objects.get(pk=int(GAME_URL.search(page.url).group(1)))


def drag(page: Page, source: str, target: str) -> None:
    """Press on the source slot, move in steps (as a hand does), release over the target."""
    box_from = page.locator(f'#grid [data-slot="{source}"]').bounding_box()
    box_to = page.locator(f'#grid [data-slot="{target}"]').bounding_box()
    page.mouse.move(box_from["x"] + box_from["width"] / 2, box_from["y"] + box_from["height"] / 2)
    page.mouse.down()
    page.mouse.move(box_to["x"] + box_to["width"] / 2, box_to["y"] + box_to["height"] / 2, steps=8)
    page.mouse.up()


def test_a_card_dragged_to_a_gap_goes_there_even_where_a_click_would_not(live_server, page: Page):
    game = start(page, live_server)
    set_layout(game, TWO_COLUMN_0_GAPS)
    page.reload()
    grid = page.locator("#grid")
    # A click on 2S (0-12) would take it to the topmost column-0 gap (0-0); the drag says 1-0.
    drag(page, "0-12", "1-0")
    expect(grid).to_have_attribute("data-moves", "1")
    expect(page.locator('#grid [data-slot="1-0"]')).to_have_attribute("data-card", "2S")
    expect(page.locator('#grid [data-slot="0-0"]')).to_have_attribute("data-card", "")
    assert list(Game.objects.get(pk=game.pk).actions.values_list("move", flat=True)) == ["2S:0-12>1-0"]


def test_a_drag_to_a_gap_the_card_does_not_fit_changes_nothing(live_server, page: Page):
    game = start(page, live_server)
    grid = page.locator("#grid")
    position = game.state().position
    move = next(m for m in position.legal_moves() if m.dst[1] != 0)
    other_gap = next(g for g in position.gaps() if g != move.dst)
    drag(page, f"{move.src[0]}-{move.src[1]}", f"{other_gap[0]}-{other_gap[1]}")
    expect(page.locator("#status .warning")).to_be_visible()
    expect(grid).to_have_attribute("data-moves", "0")
    assert Game.objects.get(pk=game.pk).version == 0


DRAG_WITHOUT_FOCUS = """([source, target]) => {
  document.getElementById("grid").scrollIntoView({block: "center"});  // elementFromPoint needs the slots in view
  const from = document.querySelector(`#grid [data-slot="${source}"]`).getBoundingClientRect();
  const to = document.querySelector(`#grid [data-slot="${target}"]`).getBoundingClientRect();
  const at = (box) => ({clientX: box.x + box.width / 2, clientY: box.y + box.height / 2, bubbles: true, button: 0});
  document.querySelector(`#grid [data-slot="${source}"]`).dispatchEvent(new PointerEvent("pointerdown", at(from)));
  document.dispatchEvent(new PointerEvent("pointermove", at(to)));
  document.elementFromPoint(at(to).clientX, at(to).clientY).dispatchEvent(new PointerEvent("pointerup", at(to)));
}"""


def test_a_drag_after_undo_clicked_without_focus_posts_a_move(live_server, page: Page):
    """Safari and taps click buttons without focusing them, so htmx keeps Undo as the grid
    form's last clicked button; the drag must still post a move, not a second undo."""
    # No sliding cards: while the undo's card slides back, hit testing may find it rather
    # than the gap under it, so a drag made then (when the machine is slow) could miss.
    page.emulate_media(reduced_motion="reduce")
    game = start(page, live_server)
    grid = page.locator("#grid")
    settled = page.locator(".htmx-request, .htmx-settling")  # a post in flight drops the next (hx-sync)
    page.evaluate("document.querySelector('#grid .slot.movable').click()")
    expect(grid).to_have_attribute("data-version", "1")
    expect(settled).to_have_count(0)
    page.evaluate("document.querySelector(\"#status button[formaction$='/undo/']\").click()")
    expect(grid).to_have_attribute("data-version", "2")
    expect(settled).to_have_count(0)
    move = next(m for m in Game.objects.get(pk=game.pk).state().position.legal_moves() if m.dst[1] != 0)
    posted = []
    page.on("request", lambda request: posted.append(request.url) if request.method == "POST" else None)
    # The drag as Safari makes it: pointer events, and no button takes the focus.
    page.evaluate(DRAG_WITHOUT_FOCUS, [f"{move.src[0]}-{move.src[1]}", f"{move.dst[0]}-{move.dst[1]}"])
    expect(grid).to_have_attribute("data-version", "3")
    assert posted and posted[-1].endswith("/move/"), posted
    assert list(Game.objects.get(pk=game.pk).actions.values_list("kind", flat=True)) == ["move", "undo", "move"]
