"""A finished daily's result shared from Chromium (issue 47): the result the last answer draws
has a Share button, which copies the text where the device has no sharing sheet."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect


def test_the_share_button_copies_the_daily_result(live_server, browser: Browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/daily/")
        page.get_by_role("button", name="Play today's daily").click()
        expect(page).to_have_url(re.compile(r"/game/\d+/$"))
        page.wait_for_function("() => window.htmx && window.AddictionRule")
        page.once("dialog", lambda dialog: dialog.accept())  # "Give up this game?"
        page.get_by_role("button", name="Give up").click()
        button = page.locator("#share-button")
        expect(button).to_be_visible()  # shown by the script, on the answer that ended the game
        text = page.locator("#share-text").input_value()
        assert text.startswith("Addiction daily ") and ": lost after " in text
        page.evaluate("() => { navigator.share = undefined; }")  # as a desktop without a sharing sheet
        button.click()
        expect(page.locator("#share-said")).to_have_text("Copied: paste it anywhere.")
        assert page.evaluate("() => navigator.clipboard.readText()") == text
    finally:
        context.close()
