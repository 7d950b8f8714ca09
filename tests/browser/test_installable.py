"""The site installs from Chromium (issue 47): Chromium's own installability checks find nothing
missing once the service worker runs, and with the network gone a page opens as the offline
page, its stylesheet from the worker's cache."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def test_chromium_finds_the_site_installable_and_it_opens_offline(live_server, page: Page):
    page.goto(f"{live_server.url}/")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now the worker serves the page's requests
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=20_000)
    session = page.context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's browser contexts are incognito ones, where Chromium installs nothing: that is
    # the browser's mode, not the site's; nothing else is missing (manifest, icons, worker).
    assert [error for error in errors if error["errorId"] != "in-incognito"] == [], errors
    manifest = session.send("Page.getAppManifest")
    assert manifest["errors"] == [] and '"short_name": "Addiction"' in manifest["data"]
    page.context.set_offline(True)
    try:
        page.goto(f"{live_server.url}/how-to-play/")
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        expect(page.locator("main")).to_contain_text("Your game is saved on the server")
        styled = page.evaluate("() => getComputedStyle(document.querySelector('.site-header')).display")
        assert styled == "flex"  # the stylesheet came from the worker's cache
    finally:
        page.context.set_offline(False)
