"""The card finder (issue 45; docs/RULES.md, "Clicking a slot", finding a card): a rank or suit
key held lights the cards it names and dims the others; S and H still say the counters and ask a
hint when tapped; a long press on a card (touch) lights its suit and does not move it."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from games.models import Game
from tests.browser.test_instant_moves import open_deal

LIT = """() => Array.from(document.querySelectorAll("#grid button.slot.found")).map((s) => s.dataset.card).sort()"""


def cards_of(page: Page, test) -> list[str]:
    return sorted(
        page.evaluate(f"""() => Array.from(document.querySelectorAll("#grid button.slot"))
        .map((s) => s.dataset.card).filter((c) => c && ({test})(c))""")
    )


def test_held_keys_light_the_cards_they_name(live_server, page: Page):
    open_deal(live_server, page, deal=5)
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    page.locator("#grid .slot.movable").first.focus()
    page.keyboard.down("7")
    assert page.evaluate(LIT) == cards_of(page, "(c) => c[0] === '7'") and len(page.evaluate(LIT)) == 4
    expect(page.locator("#grid")).to_have_class(__import__("re").compile(r"\bfinding\b"))
    page.keyboard.down("c")
    assert page.evaluate(LIT) == ["7C"]  # a rank and a suit: the one card
    expect(page.locator("#announcer")).to_contain_text("Seven of clubs")
    page.keyboard.up("7")
    assert page.evaluate(LIT) == cards_of(page, "(c) => c[1] === 'C'")
    page.keyboard.up("c")
    assert page.evaluate(LIT) == []
    page.keyboard.down("0")
    assert page.evaluate(LIT) == cards_of(page, "(c) => c[0] === 'T'")  # 0 is the ten
    page.keyboard.up("0")
    assert page.evaluate(LIT) == [] and Game.objects.get().version == 0  # finding changes nothing


def test_s_and_h_tapped_keep_their_keys_and_held_find(live_server, page: Page):
    open_deal(live_server, page, deal=5)
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    posted = []
    page.on("request", lambda request: posted.append(request.url) if request.method == "POST" else None)
    page.keyboard.down("h")
    page.wait_for_timeout(400)  # held: hearts light, no hint is asked
    assert page.evaluate(LIT) == cards_of(page, "(c) => c[1] === 'H'")
    page.keyboard.up("h")
    assert page.evaluate(LIT) == [] and posted == []
    page.keyboard.press("s")  # tapped: the counters are said, as before
    expect(page.locator("#announcer")).to_contain_text("Moves")
    assert page.evaluate(LIT) == []
    page.once("dialog", lambda dialog: dialog.accept())  # "Games with hints are not ranked..."
    page.keyboard.press("h")  # tapped: a hint
    expect(page.locator("#grid")).to_have_attribute("data-hint", __import__("re").compile(r".+"), timeout=15_000)
    assert any(url.endswith("/hint/") for url in posted)


def test_typing_in_a_field_finds_nothing(live_server, page: Page):
    page.goto(f"{live_server.url}/?variant=addiction")
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    page.locator("input[name=deal_number]").focus()
    page.keyboard.down("7")
    assert page.evaluate(LIT) == []
    page.keyboard.up("7")
    expect(page.locator("input[name=deal_number]")).to_have_value("7")


def test_a_long_press_on_a_card_lights_its_suit_and_does_not_move_it(live_server, browser: Browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        open_deal(live_server, page, deal=5)
        page.wait_for_function("() => window.htmx && window.AddictionRule")
        card = page.locator("#grid .slot.movable").first
        suit = card.get_attribute("data-card")[1]
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        session = context.new_cdp_session(page)
        touch = {"x": x, "y": y, "id": 1}
        session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [touch]})
        page.wait_for_timeout(800)
        assert page.evaluate(LIT) == cards_of(page, f"(c) => c[1] === '{suit}'")
        session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_timeout(300)
        assert page.evaluate(LIT) == []
        assert Game.objects.get().version == 0  # the card did not move
    finally:
        context.close()


def test_s_then_a_rank_key_at_once_finds_the_card_and_says_nothing_else(live_server, page: Page):
    """S held with a rank key is the suit of spades, even when S went down first (the review's case)."""
    open_deal(live_server, page, deal=5)
    page.wait_for_function("() => window.htmx && window.AddictionRule")
    said = page.locator("#announcer").text_content()
    page.keyboard.down("s")
    page.keyboard.down("7")  # within S's quarter second
    assert page.evaluate(LIT) == ["7S"]
    page.keyboard.up("s")
    page.keyboard.up("7")
    page.wait_for_timeout(300)
    assert page.evaluate(LIT) == [] and "Moves" not in (page.locator("#announcer").text_content() or "").replace(
        said or "", ""
    )
