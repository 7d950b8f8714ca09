"""Background work (issue 27): how many finished games one worker analyses a minute, and what
a move's latency does while a worker runs flat out.

Run: .venv/bin/python benchmarks/background.py [--games 12] [--seconds 20] [--nice 10]

On a throwaway SQLite database (a temporary folder) with the production settings, whose
tasks go to the database's queue (django-tasks-db), as the README deploys it:

1. It plays ``--games`` games through ``services.game_act`` the way players end them: half
   follow the request's hints to the end (good players: most are won), half play random
   legal moves, shuffling when stuck, and give up after 150 actions (most are lost).  Each
   game's end queues its analysis, as on the site.
2. **Throughput**: ``manage.py db_worker --batch`` (one process, one core) analyses them all;
   games analysed a minute, from its wall time.
3. **Latency**: a player moves a 2 back and forth between column-0 gaps (as
   benchmarks/long_game.py does) through ``services.game_act`` for ``--seconds``, first alone,
   then while a worker (``nice -n --nice``; 0 for none) analyses a second set of games, then
   alone again; median, p95 and p99 of a move's time in each phase.  The machine's other
   core runs the worker: the figure says what sharing a machine with one costs a move.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.long_game import Player, setup_django  # noqa: E402

PYTHON = ROOT / ".venv" / "bin" / "python"


def play_games(owner, count: int, first_deal: int, rng: random.Random) -> None:
    """``count`` finished games: half by the hints, half by random moves (see the module's doc)."""
    from games import engine, solver
    from games.services import game_act, game_start

    for index in range(count):
        game = game_start(owner=owner, deal_number=first_deal + index)
        by_hints = index % 2 == 0
        while not game.is_over:
            state = game.state()
            kind, slot, to = engine.ActionKind.RESIGN, None, None
            if by_hints:
                advice = solver.hint(state.position, state.shuffles_left)
                if advice == solver.SHUFFLE:
                    kind = engine.ActionKind.SHUFFLE
                elif advice is not None:
                    kind, slot, to = engine.ActionKind.MOVE, advice.src, advice.dst
            elif game.version < 150:
                moves = state.position.legal_moves()
                if moves:
                    move = rng.choice(moves)
                    kind, slot, to = engine.ActionKind.MOVE, move.src, move.dst
                elif state.shuffles_left:
                    kind = engine.ActionKind.SHUFFLE
            game = game_act(owner=owner, game_id=game.pk, version=game.version, kind=kind, slot=slot, to=to).game


def worker(env: dict, *, batch: bool, nice: int) -> subprocess.Popen:
    command = [str(PYTHON), "manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.2"]
    if batch:
        command.append("--batch")
    if nice:
        command = ["nice", "-n", str(nice), *command]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def moves_for(owner, seconds: float) -> list[float]:
    """Milliseconds of each move a player makes for ``seconds``."""
    from games import engine

    player, times = Player(owner, engine.MAX_ACTIONS), []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and player.game.version < engine.MAX_ACTIONS - 2:
        times.append(player.step() * 1000)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    median = statistics.median(times)
    return f"{len(times)} moves, median {median:.2f} ms, p95 {pick(0.95):.2f} ms, p99 {pick(0.99):.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games in each set (half by hints, half random)")
    parser.add_argument("--seconds", type=float, default=20, help="each latency phase")
    parser.add_argument("--nice", type=int, default=10, help="the worker's nice value in the latency phase")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        setup_django(folder)
        from django.conf import settings

        from addiction_site.ownership import Owner
        from games.models import Analysis, Claimed

        env = {**os.environ}  # setup_django put the settings in the environment
        owner = Owner(user_id=None, guest_token="benchmark")
        began = time.perf_counter()
        play_games(owner, args.games, 800_000, rng)
        print(
            f"{args.games} games played in {time.perf_counter() - began:.0f} s; analysis budget "
            f"{settings.ADDICTION_ANALYSIS_BUDGET} positions a search"
        )

        began = time.perf_counter()
        batch = worker(env, batch=True, nice=0)
        _out, errors = batch.communicate()
        wall = time.perf_counter() - began
        done = Analysis.objects.filter(state=Claimed.DONE)
        if batch.returncode or done.count() != args.games:
            print(errors.decode()[-3000:])
            return 1
        nodes = sum(done.values_list("nodes", flat=True))
        print(
            f"throughput: {args.games} games analysed in {wall:.1f} s by one worker: "
            f"{args.games * 60 / wall:.1f} games a minute ({nodes / wall:,.0f} positions a second, "
            "the worker's start included)"
        )

        for name, parity in (("by hints", 0), ("random", 1)):
            lost = [
                analysis.stretches[-1]["verdict"]
                for analysis in done.select_related("game")
                if analysis.game.deal_number % 2 == parity and analysis.game.status == "lost" and analysis.stretches
            ]
            slips = sum(
                any(stretch["slip"] is not None for stretch in analysis.stretches)
                for analysis in done.select_related("game")
                if analysis.game.deal_number % 2 == parity
            )
            decided = sum(verdict != "unknown" for verdict in lost)
            print(
                f"  games {name}: {len(lost)} lost, whose last stretch was decided for {decided} "
                f"({', '.join(sorted(lost))}); {slips} games with a slip"
            )

        play_games(owner, args.games, 900_000, rng)
        print("alone:        ", summary(moves_for(owner, args.seconds)))
        busy = worker(env, batch=True, nice=args.nice)
        during = moves_for(owner, args.seconds)
        still_busy = busy.poll() is None
        print(f"worker nice {args.nice}:", summary(during), "" if still_busy else "(the worker finished early)")
        busy.terminate()
        busy.wait()
        print("alone again:  ", summary(moves_for(owner, args.seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
