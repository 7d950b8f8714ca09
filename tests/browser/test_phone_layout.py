"""The board on a phone held upright is turned a quarter (issue 26): cards at least 44 px on
their smaller side with a large index, each game row a column read downwards, the arrow keys
turned with it; and nothing scrolls sideways at 390x844, 844x390 or 820x1180, the replay's
controls and a won game's end screen with all its bests included."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import Browser, expect

from tests.browser.test_small_screens import LONGEST, ada, box, log_in, playing  # noqa: F401 - ada: a fixture
from tests.winning import play_win, quick_win, user_owner

SIZES = [(390, 844), (844, 390), (820, 1180)]


def test_upright_the_table_is_turned_with_cards_a_thumb_can_hit(live_server, browser: Browser, ada):  # noqa: F811
    game = playing(ada, 123_456_789)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        log_in(page, live_server)
        page.goto(f"{live_server.url}/game/{game.pk}/")
        first, below, beside = (box(page, f'#grid [data-slot="{slot}"]') for slot in ("0-0", "0-1", "1-0"))
        assert min(first["width"], first["height"]) >= 44, first
        assert abs(below["x"] - first["x"]) < 1 and below["y"] > first["y"]  # a game row runs down the screen
        assert abs(beside["y"] - first["y"]) < 1 and beside["x"] > first["x"]  # the next row is the next column
        rank = page.eval_on_selector("#grid .card .rank", "el => parseFloat(getComputedStyle(el).fontSize)")
        assert rank >= 20, f"the rank is drawn in {rank}px type"
        label = page.locator('#grid [data-slot="0-1"]').get_attribute("aria-label")
        assert "row 1, column 2" in label  # the words keep the game's rows
        expect(page.locator("#turned-note")).to_be_visible()
        page.locator("#turned-note-close").click()
        page.reload()
        expect(page.locator("#turned-note")).to_be_hidden()  # told once
        page.locator('#grid [data-slot="0-0"]').focus()
        page.keyboard.press("ArrowDown")
        assert page.evaluate("() => document.activeElement.dataset.slot") == "0-1"
        page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.activeElement.dataset.slot") == "1-1"
    finally:
        context.close()


def test_no_page_scrolls_sideways_at_phone_and_tablet_sizes(live_server, browser: Browser, ada):  # noqa: F811
    win = play_win(user_owner(ada), quick_win(), start=timezone.now() - timedelta(minutes=10))
    for width, height in SIZES:
        context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
        try:
            page = context.new_page()
            log_in(page, live_server)
            for path in (f"/game/{win.pk}/", f"/game/{win.pk}/replay/", f"/game/{win.pk}/replay/5/", "/how-to-play/"):
                page.goto(f"{live_server.url}{path}")
                wide = page.evaluate("() => document.documentElement.scrollWidth")
                assert wide <= width, (width, height, path, wide)
                outside = page.evaluate(
                    """(width) => Array.from(document.querySelectorAll('main button, main a')).filter(function (e) {
                      var r = e.getBoundingClientRect();
                      return r.width && (r.left < -1 || r.right > width + 1);
                    }).map(function (e) { return e.textContent.trim(); })""",
                    width,
                )
                assert outside == [], (width, height, path, outside)
            page.goto(f"{live_server.url}/game/{win.pk}/")
            expect(page.locator("#record")).to_contain_text("New record")
        finally:
            context.close()


def test_the_large_index_draws_the_rank_larger_held_sideways(live_server, browser: Browser, ada):  # noqa: F811
    game = playing(ada, 1)
    sizes = []
    for face in ("usual", "large"):
        context = browser.new_context(viewport={"width": 844, "height": 390})
        try:
            page = context.new_page()
            context.add_cookies([{"name": "addiction_face", "value": face, "url": live_server.url}])
            log_in(page, live_server)
            page.goto(f"{live_server.url}/game/{game.pk}/")
            sizes.append(page.eval_on_selector("#grid .card .rank", "el => parseFloat(getComputedStyle(el).fontSize)"))
        finally:
            context.close()
    assert sizes[1] >= 1.4 * sizes[0] and sizes[1] >= 26, sizes


def test_a_wins_record_sentence_runs_across_its_box_on_a_laptop(live_server, browser: Browser, ada):  # noqa: F811
    """At 1280x800 the "New record" sentence fills its box's width, not a narrow column of it
    (issue 45: it took the profile's grid of figures, a fifth of the box a column)."""
    win = play_win(user_owner(ada), quick_win(), start=timezone.now() - timedelta(minutes=10))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        log_in(page, live_server)
        page.goto(f"{live_server.url}/game/{win.pk}/")
        expect(page.locator("#record")).to_contain_text("New record")
        box, text = page.eval_on_selector(
            "#record",
            """el => { const range = document.createRange(); range.selectNodeContents(el);
                       const style = getComputedStyle(el);
                       return [el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
                               range.getBoundingClientRect().width]; }""",
        )
        assert text > 0.8 * box, (box, text)
    finally:
        context.close()


def test_on_a_portrait_phone_the_buttons_and_the_whole_table_fit_one_screen(live_server, browser: Browser, ada):  # noqa: F811
    """At 390x844 held upright, the status bar scrolled to the top of the screen shows the
    counters, every button and the whole table together (issue 45: an empty note box of four
    lines and buttons in three rows put the table's last rows below the screen)."""
    game = playing(ada, 500)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        log_in(page, live_server)
        page.goto(f"{live_server.url}/game/{game.pk}/")
        page.locator("#turned-note-close").click()  # told once, the first time
        page.eval_on_selector("#status", "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY)")
        top = page.eval_on_selector("#actions", "e => e.getBoundingClientRect().top")
        bottom = page.eval_on_selector("#grid", "e => e.getBoundingClientRect().bottom")
        assert top >= 0 and bottom <= 844, (top, bottom)
    finally:
        context.close()
