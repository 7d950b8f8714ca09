"""Playing a deal in real Chromium: clicks, keys, double clicks, no JavaScript, giving up.

Every game here is deal #1, whose opening position is, by rows (``--`` a gap)::

    7H 9S 4H 8D 8H 5C JH 6H 9C JS 5H KH 3S
    2H JD 5D 7D 4D 2S -- 6C KS KD TD TC JC
    TH 8C QS 4C 6S 7S -- 5S -- KC 6D QC QD
    QH 9H 3H 3C -- 4S 2D 8S TS 3D 2C 9D 7C

The tests ask the engine which moves that allows rather than spelling them out.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from games import engine
from games.models import Action, Game

DEAL = 1
GAME_URL = re.compile(r"/game/(\d+)/$")


def slot_name(slot: engine.Slot) -> str:
    return f"{slot[0]}-{slot[1]}"


def cards_of(position: engine.Position) -> dict[str, str]:
    """The ``data-card`` of every slot that the grid should show for ``position``."""
    return {f"{r}-{c}": token or "" for r, row in enumerate(position.rows()) for c, token in enumerate(row)}


def table(page: Page) -> dict[str, str]:
    """The ``data-card`` of every slot the page shows."""
    return page.eval_on_selector_all(
        "#grid [data-slot]", "slots => Object.fromEntries(slots.map(s => [s.dataset.slot, s.dataset.card]))"
    )


def slot(page: Page, name: str):
    return page.locator(f'#grid [data-slot="{name}"]')


def counters(page: Page) -> dict[str, str]:
    grid = page.locator("#grid")
    names = ("data-version", "data-status", "data-moves", "data-shuffles-left")
    return {name: grid.get_attribute(name) for name in names}


def start(page: Page, live_server, deal_number: int = DEAL) -> int:
    """Open the deal's shareable link and press its button; return the id of the game it starts."""
    page.goto(f"{live_server.url}/deal/{deal_number}/")
    page.get_by_role("button", name=f"Play deal #{deal_number}").click()
    expect(page).to_have_url(GAME_URL)
    expect(page.locator("#grid")).to_have_attribute("data-moves", "0")
    return int(GAME_URL.search(page.url).group(1))


def first_move_to_a_gap(position: engine.Position) -> engine.Move:
    """A card that goes right of another (not a 2 into column 0), so exactly one click moves it."""
    return next(m for m in position.legal_moves() if m.dst[1] != 0)


@pytest.fixture
def opening() -> engine.Position:
    return engine.deal(DEAL)


def test_click_moves_fill_refuse_undo_shuffle_and_survive_a_reload(live_server, page: Page, opening):
    game_id = start(page, live_server)
    grid = page.locator("#grid")
    note = page.locator("#status .note")
    assert table(page) == cards_of(opening)
    page.evaluate("window.notReloaded = true")

    # A card that can move goes to its gap.
    move = first_move_to_a_gap(opening)
    slot(page, slot_name(move.src)).click()
    expect(grid).to_have_attribute("data-moves", "1")
    after_card = opening.play(move)
    expect(slot(page, slot_name(move.dst))).to_have_attribute("data-card", move.card)
    expect(slot(page, slot_name(move.src))).to_have_attribute("data-card", "")
    assert table(page) == cards_of(after_card)
    assert page.evaluate("window.notReloaded") is True, "the move reloaded the page"

    # A gap that one card fits takes that card.
    gap = next(g for g in after_card.gaps() if g[1] != 0 and after_card.move_for_slot(g))
    fill = after_card.move_for_slot(gap)
    slot(page, slot_name(gap)).click()
    expect(grid).to_have_attribute("data-moves", "2")
    expect(slot(page, slot_name(gap))).to_have_attribute("data-card", fill.card)
    after_gap = after_card.play(fill)
    assert table(page) == cards_of(after_gap)

    # A card that cannot move: a note, and nothing changes.
    movable = {m.src for m in after_gap.legal_moves()}
    stuck = next(
        (r, c)
        for r, row in enumerate(after_gap.rows())
        for c, token in enumerate(row)
        if token and (r, c) not in movable and (r, c) not in after_gap.locked()
    )
    before = counters(page)
    slot(page, slot_name(stuck)).click()
    expect(note).to_contain_text("That card cannot move.")
    assert counters(page) == before
    assert table(page) == cards_of(after_gap)

    # Undo takes the last move back, and counts as a move.
    page.get_by_role("button", name="Undo").click()
    expect(grid).to_have_attribute("data-moves", "3")
    assert table(page) == cards_of(after_card)
    expect(note).not_to_contain_text("That card cannot move.")

    # A shuffle leaves the locked cards and redeals the others, from the game's secret seed.
    locked = {slot_name(s) for s in after_card.locked()}
    assert locked, "deal #1 was chosen because it has a card in place"
    page.get_by_role("button", name="Shuffle (3 left)").click()
    expect(grid).to_have_attribute("data-shuffles-left", "2")
    seed = int(Game.objects.get(pk=game_id).seed)
    shuffled = after_card.shuffle(engine.shuffle_seed(seed, 0))
    shown = table(page)
    assert shown == cards_of(shuffled)
    assert {s: shown[s] for s in locked} == {s: cards_of(after_card)[s] for s in locked}
    assert shown != cards_of(after_card)
    expect(page.get_by_role("button", name="Shuffle (2 left)")).to_be_visible()

    # All of that happened in one page, swapped piece by piece.
    assert page.evaluate("window.notReloaded") is True, "an action reloaded the page"

    # A reload shows the same table and counters, from the server.
    shown_counters = counters(page)
    assert shown_counters["data-moves"] == "3" and shown_counters["data-status"] == "playing"
    page.reload()
    assert page.evaluate("window.notReloaded") is None
    assert table(page) == shown
    assert counters(page) == shown_counters


def test_keyboard_enter_moves_a_card_and_arrows_move_the_focus(live_server, page: Page, opening):
    start(page, live_server)
    grid = page.locator("#grid")
    move = first_move_to_a_gap(opening)
    source = slot(page, slot_name(move.src))

    source.focus()
    page.keyboard.press("Enter")
    expect(grid).to_have_attribute("data-moves", "1")
    expect(slot(page, slot_name(move.dst))).to_have_attribute("data-card", move.card)
    # The grid was replaced; the focus stays on the same slot, now a gap.
    expect(source).to_be_focused()

    # Arrow keys walk the table as a grid, wrapping at the edges.
    row, col = move.src
    for key, (dr, dc) in {"ArrowRight": (0, 1), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowUp": (-1, 0)}.items():
        row, col = (row + dr) % engine.ROWS, (col + dc) % engine.COLS
        page.keyboard.press(key)
        expect(slot(page, f"{row}-{col}")).to_be_focused()

    # Walk to the next movable card with the arrows and play it with Enter.
    position = opening.play(move)
    target = first_move_to_a_gap(position)
    dr, dc = target.src[0] - row, target.src[1] - col
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    expect(slot(page, slot_name(target.src))).to_be_focused()
    page.keyboard.press("Enter")
    expect(grid).to_have_attribute("data-moves", "2")
    assert table(page) == cards_of(position.play(target))


def test_without_javascript_forms_post_and_redirect(live_server, browser: Browser, opening):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        start(page, live_server)
        move = first_move_to_a_gap(opening)

        with page.expect_response(re.compile(r"/move/$")) as posted:
            slot(page, slot_name(move.src)).click()
        assert posted.value.status == 302
        expect(page).to_have_url(GAME_URL)
        expect(page.locator("#grid")).to_have_attribute("data-moves", "1")
        assert table(page) == cards_of(opening.play(move))

        with page.expect_response(re.compile(r"/undo/$")) as posted:
            page.get_by_role("button", name="Undo").click()
        assert posted.value.status == 302
        expect(page.locator("#grid")).to_have_attribute("data-moves", "2")
        assert table(page) == cards_of(opening)
    finally:
        context.close()


def test_double_click_makes_one_move(live_server, page: Page, opening):
    game_id = start(page, live_server)
    move = first_move_to_a_gap(opening)
    # The source becomes a gap nothing fits, so even a second click that reached the new
    # grid could not move anything.
    assert opening.play(move).move_for_slot(move.src) is None

    slot(page, slot_name(move.src)).dblclick()
    expect(page.locator("#grid")).to_have_attribute("data-moves", "1")
    expect(page.locator(".htmx-request")).to_have_count(0)
    assert table(page) == cards_of(opening.play(move))
    assert Action.objects.filter(game_id=game_id).count() == 1
    page.reload()
    expect(page.locator("#grid")).to_have_attribute("data-moves", "1")


def test_give_up_then_play_the_same_deal_again(live_server, page: Page, opening):
    game_id = start(page, live_server)
    dialogs = []

    def accept(dialog):
        dialogs.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    page.get_by_role("button", name="Give up").click()
    expect(page.locator("#grid")).to_have_attribute("data-status", "lost")
    assert dialogs == ["Give up this game? It will count as lost."]
    expect(page.locator("#status .result.lost")).to_contain_text("You gave up this game.")
    expect(page.locator("#grid .slot").first).to_be_disabled()

    page.get_by_role("button", name=f"Play deal #{DEAL} again").click()
    # htmx posts the boosted form, swaps the new page in and then changes the address.
    expect(page).not_to_have_url(re.compile(rf"/game/{game_id}/$"))
    expect(page).to_have_url(GAME_URL)
    new_id = int(GAME_URL.search(page.url).group(1))
    assert new_id != game_id
    expect(page.locator("#grid")).to_have_attribute("data-status", "playing")
    expect(page.locator("#grid")).to_have_attribute("data-moves", "0")
    expect(page.locator("#status .counters")).to_contain_text(f"#{DEAL}")
    assert table(page) == cards_of(opening)
    assert Game.objects.get(pk=new_id).deal_number == DEAL
    # The page htmx swapped in plays on: its moves post with the CSRF header.
    slot(page, slot_name(first_move_to_a_gap(opening).src)).click()
    expect(page.locator("#grid")).to_have_attribute("data-moves", "1")
    assert Action.objects.filter(game_id=new_id).count() == 1

    # Back: the game page is asked again (hx-history="false"), and comes whole, as it is now.
    page.go_back()
    expect(page).to_have_url(re.compile(rf"/game/{game_id}/$"))
    expect(page.locator("#grid")).to_have_attribute("data-status", "lost")
    expect(page.locator("header.site-header")).to_be_visible()
    page.go_forward()
    expect(page).to_have_url(re.compile(rf"/game/{new_id}/$"))
    expect(page.locator("#grid")).to_have_attribute("data-moves", "1")
    expect(page.locator("header.site-header")).to_be_visible()


def test_at_the_limit_of_games_in_progress_new_game_says_why_it_starts_none(live_server, page: Page, opening, settings):
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = 1
    game_id = start(page, live_server)
    move = first_move_to_a_gap(opening)
    slot(page, slot_name(move.src)).click()
    expect(page.locator("#grid")).to_have_attribute("data-moves", "1")

    page.get_by_role("button", name="New game").click()  # a boosted form: htmx swaps the 409's page in
    note = page.locator("#too-many-games")
    expect(note).to_contain_text("You already have 1 game in progress")
    note.get_by_role("link", name="My games").click()
    expect(page.locator(f'#games-in-progress tr[data-game="{game_id}"]')).to_have_count(1)
    assert list(Game.objects.values_list("pk", flat=True)) == [game_id]
