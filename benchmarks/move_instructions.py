"""What a move costs in CPU instructions, whole and by part: counts that do not depend on the machine's load.

Run: .venv/bin/python benchmarks/move_instructions.py [--moves 150] [--warmup 300] [--no-parts]

Needs valgrind (Debian: ``apt-get install valgrind``).  Each figure comes from a run of this
script under callgrind (``valgrind --tool=callgrind --instr-atstart=no``) that sets the site
up on a throwaway SQLite database with the production settings (as long_game.py does),
warms up unmeasured, then turns the counting on (``callgrind_control -i on``) for the
measured loop only.  Runs of the same code give counts within about 5% of each other
(a move: 10.13 to 10.64 M in four runs, the same day), whatever else the shared machine is
doing, where load.py's CPU times move by 10 to 20%.  A full collection of Python's garbage
collector (generation 2, over the whole heap) adds a few M instructions to the window it
falls in, so the script says how many each window met; compare runs that met as many.

- **a move**: a guest plays as load.py's players do, through Django's test client: moves
  on cards the page marks movable, asking for only what changed (``answer=changes``), a
  shuffle when stuck, a new deal when a game ends; --warmup steps first, then --moves
  counted.  The count includes the test client's own work.
- **the baseline request**: load.py's baseline, the POST to ``games/views_benchmark.py``
  that runs one UPDATE, with the same client and cookies.
- **the parts** (unless --no-parts), each 200 times on a game in play: the ORM's read of
  the game, the compare-and-set UPDATE, the log's INSERT, the status bar's parts as an
  answer of changes renders them (_status_live.html), ``table_facts`` (a move takes two,
  the table before and after) and the move's form.

benchmarks/README.md ("Issue 9") reads these figures.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from load import Table  # noqa: E402

CHILD = "MOVE_INSTRUCTIONS_MEASURE"  # set in the environment of the runs under callgrind
PARTS = ["read", "update", "insert", "status bar", "table_facts", "form"]
FORM = "application/x-www-form-urlencoded"
HTMX = {"HX-Request": "true"}


# ---- inside the runs under callgrind


def counting(on: bool) -> None:
    """Turn callgrind's counting on or off for this process."""
    subprocess.run(
        ["callgrind_control", "-i", "on" if on else "off", str(os.getpid())], capture_output=True, check=True
    )


class Guest(Table):
    """A guest who plays through the test client, reading the page and the answers as load.py's players do."""

    def __init__(self, seed: int):
        from django.test import Client

        super().__init__()
        self.client = Client(secure=True)
        self.rng = random.Random(seed)
        self.path = ""

    def new_game(self) -> None:
        """Start a random deal from its page, as a player does, and read the page."""
        response = self.client.post(f"/deal/{self.rng.randint(1, 999_999_999)}/start/")
        self.path = response["Location"]
        self.read_board(self.client.get(self.path).content.decode())

    def step(self) -> None:
        if self.status != "playing" or not (self.movable or self.shuffles_left):
            return self.new_game()
        if self.movable:
            action, extra = "move", f"&slot={self.rng.choice(sorted(self.movable))}"
        else:
            action, extra = "shuffle", ""
        body = f"answer=changes&{self.drawn}&version={self.version}{extra}"
        response = self.client.post(f"{self.path}{action}/", body, content_type=FORM, headers=HTMX)
        if response.status_code != 200 or response.get("HX-Reswap") != "none":  # the game's end: a whole table
            return self.new_game()
        self.read_changes(response.headers, response.content.decode())

    def baseline(self) -> None:
        pk = self.path.strip("/").rsplit("/", 1)[-1]
        self.client.post(
            f"/benchmark/update/{pk}/", f"version={self.version}&slot=0-0", content_type=FORM, headers=HTMX
        )


def part(name: str, guest: Guest):
    """A function that does one part of a move once, on ``guest``'s game as it is."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import QueryDict
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    from addiction_site.ownership import Owner, owned_games
    from games import views
    from games.forms import MoveForm
    from games.models import Action, Game
    from games.presenters.table import table_facts

    game = Game.objects.get(pk=int(guest.path.strip("/").rsplit("/", 1)[-1]))
    owner = Owner(user_id=None, guest_token=game.guest_token)
    numbers = iter(range(10**6, 10**7))
    request = RequestFactory().post("/", secure=True)
    request.owner, request.user = owner, AnonymousUser()
    context = {**views.status_bar_context(request, game), "partial": True, "changes": True}
    post = QueryDict(f"answer=changes&{guest.drawn}&version={game.version}&slot=0-0")
    return {
        "read": lambda: owned_games(owner, pk=game.pk).get(),
        "update": lambda: (
            owned_games(owner, pk=game.pk).filter(version=game.version).update(elapsed_ms=game.elapsed_ms)
        ),
        "insert": lambda: Action.objects.create(
            game_id=game.pk, number=next(numbers), kind="move", move="7H:1-4>1-5", elapsed_ms=1, undo_top=1, redo_top=0
        ),
        "status bar": lambda: render_to_string("games/_status_live.html", context, request),
        "table_facts": lambda: table_facts(game.state(), hint=game.hint_now),
        "form": lambda: MoveForm(post).is_valid(),
    }[name]


def measure(what: str, moves: int, warmup: int) -> None:
    """Run under callgrind: warm up uncounted, then count ``what``."""
    from long_game import setup_django

    os.environ["ADDICTION_BENCHMARK"] = "1"  # routes the baseline view
    setup_django(tempfile.mkdtemp(prefix="move-instructions-"))
    from django.utils import translation

    translation.activate("en")
    guest = Guest(seed=2026)
    guest.new_game()
    for _ in range(warmup):
        guest.step()
    if what == "move":
        do, times = guest.step, moves
    elif what == "baseline":
        do, times = guest.baseline, moves
    else:
        do, times = part(what, guest), 200
    for _ in range(5):
        do()
    full_collections = []  # Python's garbage collector, generation 2: a few M instructions each
    gc.callbacks.append(
        lambda phase, info: full_collections.append(1) if (phase, info["generation"]) == ("start", 2) else None
    )
    counting(True)
    for _ in range(times):
        do()
    counting(False)
    print(f"RESULT {times} {len(full_collections)}")


# ---- the script


def count(what: str, args: argparse.Namespace) -> tuple[float, int]:
    """Instructions per repetition of ``what``, from a run of this script under callgrind, and
    how many full collections of Python's garbage collector the counted repetitions met."""
    env = {**os.environ, CHILD: what}
    command = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--moves",
        str(args.moves),
        "--warmup",
        str(args.warmup if what in ("move", "baseline") else 50),
    ]
    run = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    collected = re.search(r"Collected : (\d+)", run.stderr)
    times = re.search(r"RESULT (\d+) (\d+)", run.stdout)
    if run.returncode != 0 or collected is None or times is None:
        sys.exit(f"the run of {what!r} under callgrind failed:\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
    return int(collected[1]) / int(times[1]), int(times[2])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=150, help="steps counted (a move, or a shuffle or a new deal)")
    parser.add_argument("--warmup", type=int, default=300, help="steps played first, uncounted")
    parser.add_argument("--no-parts", action="store_true", help="only the move and the baseline request")
    args = parser.parse_args()
    if what := os.environ.get(CHILD):
        measure(what, args.moves, args.warmup)
        return 0
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    (move, move_gc), (baseline, baseline_gc) = count("move", args), count("baseline", args)
    print(f"a move (one step of load.py's loop), through the test client: {move / 1e6:6.2f} M instructions")
    print(f"the baseline request (one UPDATE), the same way:               {baseline / 1e6:6.2f} M instructions")
    print(f"ratio: {move / baseline:.2f} (in process; gunicorn adds the same to both under load.py)")
    print(
        f"full collections of Python's garbage collector while counting: {move_gc} in the moves,"
        f" {baseline_gc} in the baseline requests (each adds its few M instructions to its side)"
    )
    if not args.no_parts:
        print("parts of a move, each alone on a game in play:")
        for name in PARTS:
            print(f"  {name:12s} {count(name, args)[0] / 1e6:6.2f} M instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
