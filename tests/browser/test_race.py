"""Two players race a live race in two Chromium contexts (issue 28; docs/RULES.md, "Races").

The site runs as `python3 dev.py serve` runs it: `manage.py runserver` (daphne's, over ASGI,
so that a race's stream streams) on a SQLite file of its own, with the in-memory channel
layer, started here as a process.  The stream's periodic re-reading is put off to a minute,
so what a page shows within a second was pushed.

Deal #3's opening lets 2S slide from 0-5 into the gap at 0-0: a card locked in place.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

ROOT = Path(__file__).resolve().parents[2]
DEAL = 3
MOVE_SRC = "0-5"  # 2S, to the gap at 0-0
GAME_URL = re.compile(r"/game/(\d+)/$")
PUSHED_WITHIN_MS = 1000  # "updated within a second of their action"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> str:
    """The site under `manage.py runserver` on a SQLite file of its own: yields its address."""
    tmp = tmp_path_factory.mktemp("race-site")
    ours = ("DJANGO_", "ADDICTION_", "REDIS_", "DATABASE_URL")
    env = {key: value for key, value in os.environ.items() if not key.startswith(ours)}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "addiction_site.settings",
            "DJANGO_DEBUG": "1",  # as `python3 dev.py serve`: plain http, static files from the apps
            "ADDICTION_DATA_DIR": str(tmp),
            # Long enough that the host's page, reloaded on the start, still finds the countdown on a
            # loaded machine (2 s was passed once in CI before the page came back).
            "ADDICTION_RACE_COUNTDOWN_SECONDS": "5",
            "ADDICTION_LIVE_RECHECK_SECONDS": "60",
        }
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    log = (tmp / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"localhost:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://localhost:{port}"
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(OSError):
            if urllib.request.urlopen(f"{url}/healthz", timeout=2).status == 200:
                break
        assert server.poll() is None and time.monotonic() < deadline, (tmp / "server.log").read_text()[-3000:]
        time.sleep(0.2)
    yield url
    server.terminate()
    server.wait(timeout=20)


def table(page: Page) -> dict[str, str]:
    return page.eval_on_selector_all(
        "#grid [data-slot]", "slots => Object.fromEntries(slots.map(s => [s.dataset.slot, s.dataset.card]))"
    )


def row_of(page: Page, name: str):
    return page.locator(f'#standings tr[data-player="{name}"]')


def standings(page: Page) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        "#standings tr[data-player]",
        "rows => rows.map(r => ({player: r.dataset.player, inPlace: r.dataset.inPlace,"
        " moves: r.dataset.moves, state: r.dataset.state}))",
    )


def accept_dialogs(page: Page) -> None:
    page.on("dialog", lambda dialog: dialog.accept())


def pushed_after(other: Page, name: str, attribute: str, value: str) -> float:
    """Milliseconds until ``other``'s standings show ``name``'s ``attribute`` at ``value``."""
    started = time.monotonic()
    expect(row_of(other, name)).to_have_attribute(attribute, value, timeout=PUSHED_WITHIN_MS)
    return (time.monotonic() - started) * 1000


def test_two_players_race_live_on_the_same_deal_with_the_same_luck(site, browser: Browser):
    ada_context, grace_context = browser.new_context(), browser.new_context()
    ada, grace = ada_context.new_page(), grace_context.new_page()
    for page in (ada, grace):
        accept_dialogs(page)

    # Ada opens a live race on deal #3; Grace joins from the shared address.
    ada.goto(f"{site}/race/new/")
    ada.get_by_label("Your name in this race").fill("Ada")
    ada.get_by_label("Deal number (leave empty for a random deal)").fill(str(DEAL))
    ada.get_by_role("button", name="Open the race").click()
    expect(ada.locator("#race")).to_have_attribute("data-live", "on")
    race_url = ada.url
    ada.evaluate("window.notReloaded = true")
    grace.goto(race_url)
    seed_digest = grace.locator("code.digest").inner_text()
    grace.get_by_label("Your name in this race").fill("Grace")
    grace.get_by_role("button", name="Join the race").click()
    expect(grace.locator("#race")).to_have_attribute("data-live", "on")
    expect(row_of(ada, "Grace")).to_have_attribute("data-state", "waiting")  # pushed to Ada's open page
    expect(ada.get_by_role("button", name="Remove Grace from the race")).to_be_visible()  # the host's, live
    assert ada.evaluate("window.notReloaded") is True
    assert grace.locator("[data-seed]").count() == 0  # the seed stays hidden until the close

    # The host starts it: after the countdown both pages are at their own game, on one deal.
    ada.get_by_role("button", name="Start the race").click()
    expect(ada.locator("[data-countdown]")).to_be_visible()
    for page in (ada, grace):
        expect(page).to_have_url(GAME_URL, timeout=10_000)
        expect(page.locator("#grid")).to_have_attribute("data-moves", "0")
        expect(page.locator("#race-panel")).to_have_attribute("data-live", "on")
    assert table(ada) == table(grace)
    # The standings sit beside the table, from its top, on a laptop's screen (issue 45).
    grid, panel = ada.locator("#grid").bounding_box(), ada.locator("#race-panel").bounding_box()
    assert panel["x"] >= grid["x"] + grid["width"] and panel["y"] < grid["y"] + grid["height"] / 2, (grid, panel)
    ada_game, grace_game = (int(GAME_URL.search(page.url).group(1)) for page in (ada, grace))
    # Nobody sees another's table while the race runs.
    assert ada.goto(f"{site}/game/{grace_game}/").status == 404
    ada.goto(f"{site}/game/{ada_game}/")
    expect(ada.locator("#race-panel")).to_have_attribute("data-live", "on")

    # Each sees the other's cards in place change within a second of the move.
    ada.locator(f'#grid [data-slot="{MOVE_SRC}"]').click()
    expect(ada.locator("#grid")).to_have_attribute("data-moves", "1")
    waited = [pushed_after(grace, "Ada", "data-in-place", "1")]
    expect(row_of(grace, "Ada")).to_have_attribute("data-moves", "1")
    grace.locator(f'#grid [data-slot="{MOVE_SRC}"]').click()
    expect(grace.locator("#grid")).to_have_attribute("data-moves", "1")
    waited.append(pushed_after(ada, "Grace", "data-in-place", "1"))
    print(f"standings pushed after {waited} ms")

    # A shuffle from the same position deals the same for both.
    assert table(ada) == table(grace)
    for page in (ada, grace):
        page.locator("#shuffle-button").click()
        expect(page.locator("#shuffles-left-count")).to_have_text("2")
    assert table(ada) == table(grace)
    expect(row_of(grace, "Ada")).to_have_attribute("data-moves", "1")

    # Both give up, and the race closes.
    ada.get_by_role("button", name="Give up").click()
    expect(row_of(grace, "Ada")).to_have_attribute("data-state", "gave-up", timeout=PUSHED_WITHIN_MS)
    expect(grace.locator("#race-news")).to_contain_text("Ada gave up.")
    grace.get_by_role("button", name="Give up").click()
    expect(grace.locator("#race-panel")).to_have_attribute("data-live", "closed")

    # The results: ranked by the race's order, the seed shown, every game replayable.
    grace.goto(race_url)
    expect(grace.locator("#race")).to_have_attribute("data-state", "closed")
    results = standings(grace)
    assert {row["player"] for row in results} == {"Ada", "Grace"}
    assert all(row["state"] == "gave-up" for row in results)
    keys = [(-int(row["inPlace"]), int(row["moves"])) for row in results]
    assert keys == sorted(keys)
    seed = grace.locator("[data-seed]").inner_text()
    assert hashlib.sha256(seed.encode()).hexdigest() == seed_digest
    assert grace.locator("#standings a", has_text="Replay").count() == 2
    assert grace.goto(f"{site}/game/{ada_game}/replay/").status == 200  # Ada's table, now the race is closed
