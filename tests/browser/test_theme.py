"""Colours in real Chromium (issue 13): the dark theme follows the device until the settings
choose one, and the choice holds on every page."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

DARK_PAGE = "rgb(18, 22, 20)"  # site.css --page, dark
LIGHT_PAGE = "rgb(244, 241, 234)"  # site.css --page, light


def background(page) -> str:
    return page.evaluate("getComputedStyle(document.documentElement).backgroundColor")


def test_the_theme_follows_the_device_until_the_settings_choose_one(live_server, browser: Browser, db):
    context = browser.new_context(color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/")
        assert background(page) == DARK_PAGE

        page.goto(f"{live_server.url}/how-to-play/")
        page.get_by_role("link", name="Settings").click()
        page.get_by_role("radio", name="Light").check()
        page.get_by_role("button", name="Save").click()
        expect(page.locator(".messages")).to_contain_text("Settings saved.")
        assert background(page) == LIGHT_PAGE
        page.goto(f"{live_server.url}/my-games/")
        assert background(page) == LIGHT_PAGE

        page.goto(f"{live_server.url}/settings/")
        page.get_by_role("radio", name="Dark").check()
        page.get_by_role("button", name="Save").click()
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        page.emulate_media(color_scheme="light")
        page.reload()
        assert background(page) == DARK_PAGE, "the choice holds whatever the device says"
    finally:
        context.close()
