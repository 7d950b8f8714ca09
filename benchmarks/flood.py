"""A flood of background work from one address (issue 42): how long another player's analysis
waits behind it, and how long the queue takes to drain, with the caps and priorities and
without them.

Run: .venv/bin/python benchmarks/flood.py [--guests 60] [--actions 40]

On a throwaway SQLite database (a temporary folder) with the production settings and the
database's task queue (django-tasks-db), as the README deploys it, the flood is played through
the site's pages (Django's test client): ``--guests`` fresh guests from one address, each
starting a chosen deal, asking a hint (its stretch's background search), playing ``--actions``
actions (a move and its undo) and giving up, so each game's end asks for its analysis.  Then
another player from another address gives up a game of theirs after the same actions.  One
worker (``manage.py db_worker --batch``, one process) then runs the queue; the script prints
how many tasks were queued, the seconds until the other player's analysis was done, and the
seconds to drain the whole queue.  It runs twice: **before** (the caps off: no limit per
address, every task at one priority, first in first out, as the site was) and **after** (the
site's settings).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"


def run(folder: str, guests: int, actions: int, capped: bool) -> dict:
    """One flood in a child process (its own settings), then the worker; the figures."""
    env = {**os.environ, "FLOOD_FOLDER": folder, "FLOOD_GUESTS": str(guests), "FLOOD_ACTIONS": str(actions)}
    if not capped:
        env |= {
            "ADDICTION_MAX_PENDING_ANALYSES_PER_ADDRESS": "1000000",
            "ADDICTION_MAX_PENDING_SEARCHES_PER_ADDRESS": "1000000",
            "FLOOD_ONE_PRIORITY": "1",
        }
    out = subprocess.run([str(PYTHON), __file__, "--child"], env=env, capture_output=True, text=True, check=True)
    figures = dict(line.split("=", 1) for line in out.stdout.split() if "=" in line)
    honest = figures.pop("honest")
    began = time.perf_counter()
    worker = [str(PYTHON), __file__, "--worker"]
    process = subprocess.Popen(worker, env=env, stdout=subprocess.PIPE, text=True)
    waited = None
    for line in process.stdout:  # the worker's child prints each analysis done, as it is done
        if line.strip() == f"done {honest}" and waited is None:
            waited = time.perf_counter() - began
    process.wait()
    figures["honest_wait_s"] = f"{waited:.1f}" if waited is not None else "never"
    figures["drain_s"] = f"{time.perf_counter() - began:.1f}"
    return figures


def child_flood() -> None:
    from benchmarks.long_game import setup_django

    setup_django(os.environ["FLOOD_FOLDER"])
    if os.environ.get("FLOOD_ONE_PRIORITY"):
        from games import background

        background.PRIORITY_WIN = background.PRIORITY_SEARCH = background.PRIORITY_PLAYED = 0
        background.PRIORITY_CROWDED = 0
    from django.test import Client
    from django_tasks_db.models import DBTaskResult

    from games.models import Game

    def play(client, deal: int, hint: bool) -> int:
        response = client.post("/new/", {"deal_number": deal})
        pk = int(response.url.strip("/").split("/")[-1])
        client.get(response.url)
        if hint:
            client.post(f"/game/{pk}/hint/", {"version": 0}, HTTP_HX_REQUEST="true")
        for number in range(int(os.environ["FLOOD_ACTIONS"])):
            game = Game.objects.get(pk=pk)
            if number % 2 == 0:
                src = game.state().position.legal_moves()[0].src
                client.post(f"/game/{pk}/move/", {"version": game.version, "slot": f"{src[0]}-{src[1]}"})
            else:
                client.post(f"/game/{pk}/undo/", {"version": game.version})
        client.post(f"/game/{pk}/resign/", {"version": Game.objects.get(pk=pk).version})
        return pk

    flood = {"REMOTE_ADDR": "203.0.113.66", "HTTP_USER_AGENT": "Flood/1.0"}
    for number in range(int(os.environ["FLOOD_GUESTS"])):
        play(Client(**flood), 100_000 + number, hint=True)
    honest = play(Client(REMOTE_ADDR="198.51.100.9", HTTP_USER_AGENT="Firefox"), 900_000, hint=False)
    print(f"queued={DBTaskResult.objects.ready().count()} honest={honest}")


def child_worker() -> None:
    from benchmarks.long_game import setup_django

    setup_django(os.environ["FLOOD_FOLDER"])
    from django.core.management import call_command

    from games import background

    analyse = background.game_analyse

    def told(game_id: int) -> bool:
        done = analyse(game_id)
        print(f"done {game_id}", flush=True)
        return done

    background.game_analyse = told
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)


def main() -> int:
    if "--child" in sys.argv:
        sys.path.insert(0, str(ROOT))
        child_flood()
        return 0
    if "--worker" in sys.argv:
        sys.path.insert(0, str(ROOT))
        child_worker()
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guests", type=int, default=60)
    parser.add_argument("--actions", type=int, default=40)
    options = parser.parse_args()
    print(f"{options.guests} fresh guests from one address, {options.actions} actions and a hint each, then one player")
    print(f"{'':<8} {'tasks queued':>13} {'their analysis done (s)':>24} {'queue drained (s)':>18}")
    for label, capped in (("before", False), ("after", True)):
        with tempfile.TemporaryDirectory() as folder:
            found = run(folder, options.guests, options.actions, capped)
        print(f"{label:<8} {found['queued']:>13} {found['honest_wait_s']:>24} {found['drain_s']:>18}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
