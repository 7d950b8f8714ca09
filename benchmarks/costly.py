"""What one client's pile of costly requests does to another visitor, and how many games one
address can mint (issues 25 and 44), on the site as deployed: deploy/nginx.conf.template as shipped in
front of two gunicorn servers (deploy/gunicorn.conf.py) and a daphne server for the races'
streams, one throwaway PostgreSQL.

Run: .venv/bin/python benchmarks/costly.py [--seconds 15] [--mint-seconds 60] [--parallel 24] [--streams 300]

1. The visitor: a guest reloading their game's page one request after another, alone
   (baseline), then while each attack runs; p50, p95 and p99 of each.
2. The attacks, each from one client (one guest cookie, one address) that never backs off:
   a 429 is asked again at once.
   - costly: ``--parallel`` requests always in flight: replay steps and verifications of its
     own long finished games (``--length`` actions each) and hints on its games in
     progress, each a new search the first time;
   - streams: ``--streams`` connections to a race's live stream, each held open as long as
     it is let, and opened again at once when it is refused or cut.
   Their answers are counted by status.
3. The minting script: one address with no cookies starting games as fast as it can for
   ``--mint-seconds``: how many games it got, per minute.

Each attack runs in a process of its own, so that its hundreds of threads never hold the
visitor's interpreter lock (on a real site the attacker is another machine); it shares the
machine's CPU with the servers and the visitor all the same.  ``--attacker-nice N`` lowers
its threads' CPU priority, to see the servers' share alone.

Targets (benchmarks/README.md): the visitor's p99 under each attack within 2x of its p99
alone; at most a few dozen games a minute minted.  Wall-clock figures on a shared machine:
compare runs taken together.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import queue
import re
import socket
import ssl
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.cluster import TlsPlayer, daphne, gunicorn, manage, nginx, production_env  # noqa: E402
from benchmarks.load import Tally  # noqa: E402
from scripts.throwaway_postgres import throwaway_postgres  # noqa: E402

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

# Run by `manage.py shell` in the deployed site: the attacker's games and the visitor's, and
# their guest cookies as the site would issue them (signed where the site signs them).
SETUP = """
import json
from datetime import date
from addiction_site import ownership
from addiction_site.ownership import Owner
from benchmarks.long_game import Player
from games.models import Action, Game
from games.services import game_start

attacker = Owner(user_id=None, guest_token="a" * 32)
visitor = Owner(user_id=None, guest_token="v" * 32)
player = Player(attacker, {length})
while not player.game.is_over:
    player.step()
base = player.game
finished = [base.pk]
fields = Game.objects.filter(pk=base.pk).values().get()
del fields["id"]
log = list(Action.objects.filter(game=base).values("number", "kind", "move", "elapsed_ms", "undo_top", "redo_top"))
for _ in range({finished} - 1):
    copy = Game.objects.create(**fields)
    Action.objects.bulk_create([Action(game=copy, **row) for row in log])
    finished.append(copy.pk)
playing = [game_start(owner=attacker, deal_number=1000 + i).pk for i in range({playing})]
mine = game_start(owner=visitor, deal_number=7).pk
from races.services import race_open
race = race_open(owner=Owner(user_id=None, guest_token="h" * 32), name="Host", mode="live", deal_number=17).code
today = date.today().isoformat()
sign = getattr(ownership, "guest_cookie_value", None)
cookie = (lambda token: sign(token, today, today)) if sign else (lambda token: token + "." + today)
print(json.dumps({{"name": ownership.GUEST_COOKIE, "attacker": cookie("a" * 32), "visitor": cookie("v" * 32),
                  "finished": finished, "playing": playing, "mine": mine, "race": race}}))
"""


def figures(values: list[float]) -> str:
    return (
        f"p50 {ms(values, 0.5):7.1f} ms  p95 {ms(values, 0.95):7.1f} ms  p99 {ms(values, 0.99):7.1f} ms"
        f"  ({len(values)} loads)"
    )


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def lower_priority(nice: int) -> None:
    """This thread's CPU priority, lowered (Linux: a thread's own niceness)."""
    if nice:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)


def visit(player: TlsPlayer, until: float, seconds: list[float]) -> Counter:
    """The visitor's page, one load after another until ``until``: the times of those that
    came (200), and every answer's status."""
    tally, statuses = Tally(), Counter()
    while time.monotonic() < until:
        try:
            status, _headers, _text, took = player.request(tally, "GET", player.game_path)
        except (OSError, ConnectionError):
            status = "closed"
            player.reconnect()
        statuses[status] += 1
        if status == 200:
            seconds.append(took)
    return statuses


def attack(https: int, data: dict, stop: threading.Event, statuses: Counter, index: int, csrf: dict, nice: int) -> None:
    lower_priority(nice)
    player = TlsPlayer(https, index)
    player.cookies = {data["name"]: data["attacker"], **csrf}
    tally, number = Tally(), index
    finished, playing = data["finished"], data["playing"]
    statuses["started"] += 1
    while not stop.is_set():
        number += 1
        kind = ("replay", "verify", "hint")[number % 3]
        try:
            if kind == "replay":
                game = finished[number % len(finished)]
                status, *_ = player.request(tally, "GET", f"/game/{game}/replay/{(number * 37) % 1400}/", htmx=True)
            elif kind == "verify":
                status, *_ = player.request(tally, "GET", f"/game/{finished[number % len(finished)]}/verify/")
            else:
                game = playing[number % len(playing)]
                player.game_path = f"/game/{game}/"
                status, *_ = player.request(tally, "POST", f"/game/{game}/hint/", "version=0", htmx=True)
        except (OSError, ConnectionError):
            status = "closed"
            player.reconnect()
        statuses[f"{kind} {status}"] += 1


def hold_stream(https: int, data: dict, stop: threading.Event, statuses: Counter, _index: int, nice: int) -> None:
    """One of the attacker's streams: opened, read until it ends or ``stop``, opened again."""
    lower_priority(nice)
    path = f"/race/{data['race']}/stream/"
    opened = False
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", https), timeout=60) as raw:  # a queued one waits
                context = ssl.create_default_context()
                context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
                with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                    cookie = f"{data['name']}={data['attacker']}"
                    request = (
                        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                        f"Cookie: {cookie}\r\n\r\n"
                    )
                    tls.sendall(request.encode())
                    if not opened:
                        opened, statuses["started"] = True, statuses["started"] + 1
                    head = tls.recv(4096).decode(errors="replace")
                    status = head.split(" ", 2)[1] if head.startswith("HTTP/") else "closed"
                    statuses[f"stream {status}"] += 1
                    while status == "200" and not stop.is_set() and tls.recv(4096):
                        pass
        except OSError as error:  # cut, timed out, or refused before its answer
            statuses[f"stream {type(error).__name__}"] += 1


def attack_from_one_address(
    kind: str, count: int, https: int, data: dict, csrf: dict, nice: int, ready, stop, answers
) -> None:
    """One attack (``kind``: "costly" or "streams") by ``count`` threads: sets ``ready`` once
    each has sent its first request, goes on until ``stop``, then puts the count of its
    answers by status on ``answers``."""
    done, statuses = threading.Event(), Counter()
    target, extra = (attack, (csrf,)) if kind == "costly" else (hold_stream, ())
    threads = [
        threading.Thread(target=target, args=(https, data, done, statuses, i, *extra, nice), daemon=True)
        for i in range(count)
    ]
    for thread in threads:
        thread.start()
    # Ready once every thread has sent its first request: the hundreds of handshakes of the
    # start are the attacker's own work, done before the visitor is timed.
    deadline = time.monotonic() + 60
    while statuses["started"] < count and time.monotonic() < deadline:
        time.sleep(0.05)
    ready.set()
    stop.wait()
    done.set()
    deadline = time.monotonic() + 70  # a request waiting in nginx's queue is left to time out
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    del statuses["started"]
    answers.put(Counter(statuses))


def mint(https: int, until: float) -> Counter:
    """A script that never keeps a cookie: each start is from a new browser."""
    statuses: Counter = Counter()
    while time.monotonic() < until:
        player, tally = TlsPlayer(https, 0), Tally()
        try:
            status, _headers, text, _s = player.request(tally, "GET", "/")
            token = TOKEN.search(text)
            player.game_path = "/"
            body = f"csrfmiddlewaretoken={token.group(1) if token else ''}&deal_number="
            status, *_ = player.request(tally, "POST", "/new/", body)
        except (OSError, ConnectionError):
            status = "closed"
        statuses[status] += 1
        player.conn.close()
    return statuses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15, help="length of the baseline and of the attack")
    parser.add_argument("--mint-seconds", type=float, default=60)
    parser.add_argument("--parallel", type=int, default=24)
    parser.add_argument("--length", type=int, default=1500, help="actions of each finished game")
    parser.add_argument("--finished", type=int, default=8)
    parser.add_argument("--playing", type=int, default=24)
    parser.add_argument("--streams", type=int, default=300, help="race streams the second attack holds open")
    parser.add_argument(
        "--attacker-nice", type=int, default=0, help="the attackers' threads' niceness (0: as the visitor)"
    )
    parser.add_argument("--workers", type=int, default=1, help="gthread workers of each gunicorn server")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="addiction-costly-") as tmp_name, throwaway_postgres() as url:
        tmp = Path(tmp_name)
        tmp.chmod(0o755)
        env = production_env(tmp, url)
        env.pop("ADDICTION_RATE_NEW_GUEST_ADDRESS", None)  # the limits as shipped: one address, one person
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        setup = SETUP.format(length=args.length, finished=args.finished, playing=args.playing)
        data = json.loads(manage(env, "shell", "--no-imports", "-c", setup).strip().splitlines()[-1])
        with (
            gunicorn(env, tmp, "app1", args) as (port1, _l1),
            gunicorn(env, tmp, "app2", args) as (port2, _l2),
            daphne(env, tmp, "live1") as live,
            nginx(tmp, [port1, port2], one_address_one_person=True, live_ports=[live, live]) as https,
        ):
            visitor = TlsPlayer(https, 1)
            visitor.cookies = {data["name"]: data["visitor"]}
            visitor.game_path = f"/game/{data['mine']}/"
            alone: list[float] = []
            visit(visitor, time.monotonic() + args.seconds, alone)
            first = TlsPlayer(https, 2)
            first.cookies = {data["name"]: data["attacker"]}
            first.request(Tally(), "GET", f"/game/{data['playing'][0]}/")
            csrf = {"csrftoken": first.cookies.get("csrftoken", "")}
            under: dict[str, tuple[list[float], Counter]] = {}
            for kind, count in (("costly", args.parallel), ("streams", args.streams)):
                # The attacker in a process of its own: its hundreds of threads never hold the
                # visitor's interpreter lock, as they would not on its own machine.
                ready, stop, answers = multiprocessing.Event(), multiprocessing.Event(), multiprocessing.Queue()
                attacker = multiprocessing.Process(
                    target=attack_from_one_address,
                    args=(kind, count, https, data, csrf, args.attacker_nice, ready, stop, answers),
                )
                attacker.start()
                ready.wait(90)
                time.sleep(1)  # the attack under way
                attacked: list[float] = []
                seen = visit(visitor, time.monotonic() + args.seconds, attacked)
                stop.set()
                try:
                    statuses = answers.get(timeout=150)
                except queue.Empty:  # its threads still stuck in a read: its figures are lost, not the run
                    statuses = Counter({"(not reported)": 1})
                    attacker.terminate()
                attacker.join()
                under[kind] = (attacked, statuses, seen)
            minted = mint(https, time.monotonic() + args.mint_seconds)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.seconds:.0f} s each")
    print(f"the visitor's page, alone:            {figures(alone)}")
    for kind, (attacked, statuses, seen) in under.items():
        what = f"{args.parallel} costly requests in flight" if kind == "costly" else f"{args.streams} streams held"
        ratio = ms(attacked, 0.99) / ms(alone, 0.99)
        print(f"with {what + ':':<32} {figures(attacked)}  p99 {ratio:.1f}x alone: {'yes' if ratio <= 2 else 'NO'}")
        print("  the attacker's answers:", ", ".join(f"{key}: {count}" for key, count in sorted(statuses.items())))
        print("  the visitor's answers:", dict(seen))
    games = minted.get(302, 0)
    print(
        f"one address without cookies, {args.mint_seconds:.0f} s: {games} games started "
        f"({games * 60 / args.mint_seconds:.0f} a minute); answers: {dict(minted)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
