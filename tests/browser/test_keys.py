"""The game's keys (static/games/keys.js; games/_keys.html; issue 26): undo, redo, shuffle,
the next gap, a new game once over, the list of keys, the skip link, and none of them while a
field has the focus."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser.test_instant_moves import open_deal


def settled(page: Page, number: int) -> None:
    expect(page.locator("#grid")).to_have_attribute("data-version", str(number))
    expect(page.locator(".htmx-settling, .htmx-request")).to_have_count(0)


def kinds(pk: int) -> list[str]:
    return list(Game.objects.get(pk=pk).actions.order_by("number").values_list("kind", flat=True))


def test_u_undoes_shift_u_redoes_and_so_do_ctrl_z_ctrl_y_and_ctrl_shift_z(live_server, page: Page):
    pk = open_deal(live_server, page)
    page.locator("#grid .slot.movable").first.click()
    settled(page, 1)
    for number, keys in enumerate(["u", "Shift+U", "Control+z", "Control+y", "Control+z", "Control+Shift+Z"], start=2):
        page.keyboard.press(keys)
        settled(page, number)
    assert kinds(pk) == ["move", "undo", "redo", "undo", "redo", "undo", "redo"]


def test_shift_s_shuffles_asking_first_while_a_card_can_move(live_server, page: Page):
    pk = open_deal(live_server, page)
    asked, answer = [], {"accept": False}

    def reply(dialog):
        asked.append(dialog.message)
        dialog.accept() if answer["accept"] else dialog.dismiss()

    page.on("dialog", reply)
    page.keyboard.press("Shift+S")
    page.wait_for_timeout(300)
    assert asked and "can still move" in asked[0] and kinds(pk) == []  # declined: nothing happened
    answer["accept"] = True
    page.keyboard.press("Shift+S")
    settled(page, 1)
    assert kinds(pk) == ["shuffle"]
    page.keyboard.press("s")  # plain S still only says the counters
    page.wait_for_timeout(200)
    assert kinds(pk) == ["shuffle"]
    expect(page.locator("#announcer")).to_contain_text("Shuffles left 2")


def test_g_goes_from_gap_to_gap_and_enter_fills_it(live_server, page: Page):
    pk = open_deal(live_server, page)
    gaps = page.locator("#grid button.slot.gap:not(.dead)").evaluate_all("els => els.map(e => e.dataset.slot)")
    assert gaps
    page.keyboard.press("g")
    focused = "() => document.activeElement.dataset.slot"
    assert page.evaluate(focused) == gaps[0]
    page.keyboard.press("Shift+G")
    assert page.evaluate(focused) == gaps[-1]
    page.keyboard.press("Enter")
    settled(page, 1)
    assert kinds(pk) == ["move"]


def test_n_starts_a_new_game_only_once_this_one_is_over(live_server, page: Page):
    pk = open_deal(live_server, page)
    page.keyboard.press("n")
    page.wait_for_timeout(300)
    assert Game.objects.count() == 1
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#status button[formaction$='/resign/']").click()
    expect(page.locator("#grid")).to_have_attribute("data-status", "lost")
    page.keyboard.press("n")  # at once: it waits for htmx to have settled the new buttons
    expect(page.locator("#grid")).to_have_attribute("data-status", "playing")
    expect(page).not_to_have_url(f"{live_server.url}/game/{pk}/")
    assert Game.objects.count() == 2


def test_question_mark_lists_the_keys_and_the_skip_link_lands_on_the_table(live_server, page: Page):
    open_deal(live_server, page)
    page.keyboard.press("Shift+?")
    dialog = page.locator("#keys-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Shift")
    page.keyboard.press("u")  # the dialog is open: no undo behind it
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.reload()  # the keyboard starts from the top of the page
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "skip-to-table"
    page.keyboard.press("Enter")
    assert page.evaluate("() => !!document.activeElement.closest('#grid')")


def test_no_key_fires_while_a_field_has_the_focus(live_server, page: Page):
    pk = open_deal(live_server, page)
    page.locator("#grid .slot.movable").first.click()
    settled(page, 1)
    page.locator("#language-select").focus()
    page.keyboard.press("u")
    page.wait_for_timeout(300)
    assert kinds(pk) == ["move"]
