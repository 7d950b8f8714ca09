"""A keyboard-only win: how many key presses the same won game takes (issue 26).

Run: .venv/bin/python benchmarks/keyboard_win.py

It starts gunicorn with the production settings on a fresh SQLite database (the helpers of
load.py), opens tests/winning.py's quick win (its deal, its secret seed) in Debian's
Chromium, and plays exactly its actions with the keyboard alone, as a player who knows
where everything is and takes the fewest presses:

- into the table: Tab from the top of the page until the focus is on a slot of the table (or
  the skip link, where the page has one: Tab then Enter);
- a move: the arrow keys from the slot in focus to the slot to press, the shortest way
  (they wrap at the table's edges), then Enter; or, where the page has the key, G (or
  Shift+G) to the gap the move fills and Enter, when that is fewer presses and the gap's
  click makes the same move (the engine, played alongside, says which);
- a shuffle: the page's key for it where it has one (Shift+S, with Enter on the question it
  asks while a card can still move); else Shift+Tab until the Shuffle button has the focus,
  Enter, and Tab until the focus is back in the table.

It prints the presses in all, and by kind.  The same script in a worktree of an older
commit counts that commit's page.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
import types
from collections import Counter
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from click_to_board import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from load import PYTHON, database, gunicorn, manage, server_env  # noqa: E402

from games import engine  # noqa: E402

RESEED = """
from games.models import Game
from games.services import seed_digest
Game.objects.filter(pk={pk}, version=0).update(seed="{seed}", seed_sha256=seed_digest("{seed}"))
"""
WIN = (
    "import django; django.setup(); from tests.winning import quick_win; w = quick_win(); "
    "print(w.deal_number, w.seed, repr(w.actions))"
)
# The slot in focus ("R-C"), or what else has it (an id or a tag name, with no "-" digit pair).
FOCUSED = """() => { var e = document.activeElement;
  return !e ? "" : e.matches("#grid button.slot") ? e.dataset.slot : "#" + (e.id || e.tagName); }"""


def arrows(here: str, there: str) -> list[str]:
    """The fewest arrow presses from slot ``here`` to slot ``there`` (wrapping)."""
    (r0, c0), (r1, c1) = (map(int, here.split("-")), map(int, there.split("-")))
    keys = []
    down, right = (r1 - r0) % 4, (c1 - c0) % 13
    keys += ["ArrowDown"] * down if down <= 2 else ["ArrowUp"] * (4 - down)
    keys += ["ArrowRight"] * right if right <= 6 else ["ArrowLeft"] * (13 - right)
    return keys


def gap_presses(position, focus: str, gap: str) -> tuple[str, int] | None:
    """The G or Shift+G presses from ``focus`` to ``gap``, the fewer of the two ways."""
    slots = [(r, c) for r in range(4) for c in range(13)]
    dead = set(position.dead_gaps())
    gaps = [f"{r}-{c}" for r, c in slots if position.card_at((r, c)) is None and (r, c) not in dead]
    if gap not in gaps:
        return None
    names = [f"{r}-{c}" for r, c in slots]
    at = names.index(focus) if focus in names else -1
    forward = [g for g in gaps if names.index(g) > at] + [g for g in gaps if names.index(g) <= at]
    backward = [g for g in reversed(gaps) if names.index(g) < at] + [g for g in reversed(gaps) if names.index(g) >= at]
    ways = [("G", forward.index(gap) + 1), ("Shift+G", backward.index(gap) + 1)]
    return min(ways, key=lambda way: way[1])


def main() -> int:
    win = subprocess.run(
        [str(PYTHON), "-c", WIN],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"DJANGO_SETTINGS_MODULE": "tests.settings", "PATH": "/usr/bin:/bin"},
    ).stdout.split(" ", 2)
    deal, seed, actions = int(win[0]), int(win[1]), ast.literal_eval(win[2])
    presses: Counter = Counter()
    with tempfile.TemporaryDirectory() as folder, database(False, Path(folder)) as db_env:
        tmp = Path(folder)
        env = server_env(tmp, db_env)
        manage(env, "migrate")
        manage(env, "collectstatic", "--noinput")
        with gunicorn(env, types.SimpleNamespace(workers=1, threads=2), tmp) as (port, _pid):
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_context(reduced_motion="reduce").new_page()
                page.on("dialog", lambda dialog: (presses.update(["Enter (the question)"]), dialog.accept()))
                page.goto(f"http://127.0.0.1:{port}/deal/{deal}/")
                page.locator("form[action$='/start/'] button[type=submit]").click()
                page.wait_for_selector("#grid[data-version='0']", state="attached")
                pk = page.url.rstrip("/").rsplit("/", 1)[-1]
                subprocess.run(
                    [str(PYTHON), "manage.py", "shell", "-c", RESEED.format(pk=pk, seed=seed)],
                    cwd=ROOT,
                    env=env,
                    check=True,
                )
                page.reload()
                grid = page.locator("#grid")

                def key(name: str, kind: str) -> None:
                    page.keyboard.press(name)
                    presses[kind] += 1

                def into_table() -> None:
                    for _ in range(60):
                        if page.evaluate(FOCUSED) == "#skip-to-table":
                            key("Enter", "into the table")
                        if not page.evaluate(FOCUSED).startswith("#"):
                            return
                        key("Tab", "into the table")
                    raise SystemExit("the table was never reached by Tab")

                page.evaluate("() => document.activeElement && document.activeElement.blur()")
                into_table()
                has_gap_key = page.locator("#keys-dialog").count() > 0
                state = engine.GameState.start(deal_number=deal, seed=seed)
                for number, (kind, slot) in enumerate(actions, start=1):
                    if kind == "move":
                        move = state.position.move_for_slot(slot)
                        focus, target = page.evaluate(FOCUSED), f"{slot[0]}-{slot[1]}"
                        keys = arrows(focus, target)
                        gap = f"{move.dst[0]}-{move.dst[1]}"
                        by_gap = gap_presses(state.position, focus, gap) if has_gap_key else None
                        if by_gap and state.position.move_for_slot(move.dst) == move and by_gap[1] < len(keys):
                            keys, target = [by_gap[0]] * by_gap[1], gap
                        for name in keys:
                            key(name, "G" if "G" in name else "arrows")
                        if page.evaluate(FOCUSED) != target:
                            raise SystemExit(f"action {number}: the focus is on {page.evaluate(FOCUSED)}, not {target}")
                        key("Enter", "Enter on a slot")
                    elif page.locator("#shuffle-button[aria-keyshortcuts]").count():
                        key("Shift+S", "Shift+S")
                    else:
                        for _ in range(40):
                            if page.evaluate(
                                "() => /shuffle/.test(document.activeElement.getAttribute('formaction') || '')"
                            ):
                                break
                            key("Shift+Tab", "to the Shuffle button and back")
                        key("Enter", "to the Shuffle button and back")
                        expect(grid).to_have_attribute("data-version", str(number))
                        for _ in range(60):
                            if not page.evaluate(FOCUSED).startswith("#"):
                                break
                            key("Tab", "to the Shuffle button and back")
                    expect(grid).to_have_attribute("data-version", str(number))
                    expect(page.locator(".htmx-settling, .htmx-request")).to_have_count(0)  # the focus is back
                    state, _move = state.act(kind, slot=slot)
                if grid.get_attribute("data-status") != "won":
                    raise SystemExit(f"the game did not end won: {grid.get_attribute('data-status')}")
                browser.close()
    total = sum(presses.values())
    print(f"deal #{deal}: {len(actions)} actions won with {total} key presses ({total / len(actions):.2f} an action)")
    for kind, count in presses.most_common():
        print(f"  {kind}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
