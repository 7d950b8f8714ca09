"""Live races under load (issue 28): many races of several players, each player's page holding
the race's live stream (races/stream.py) while the players move.

Run: .venv/bin/python benchmarks/live.py [--races 50] [--players 8] [--seconds 30] [--pace 2]
                                         [--cluster] [--restart] [--check]

Two set-ups, all on 127.0.0.1:

- embedded (the default): the site as `python3 dev.py serve` runs it, but with production
  settings: one daphne serving pages, moves and streams, on SQLite, with Channels'
  in-memory layer: no other service.
- ``--cluster``: the site as deploy/ runs it: nginx (deploy/nginx.conf.template, as benchmarks/cluster.py
  starts it) in front of two gunicorn servers for pages and moves and two daphne servers for
  the streams, on a throwaway PostgreSQL, with Redis (channels-redis) carrying each change
  from the gunicorn that took the move to the daphne servers holding the streams.  nginx
  takes the streams to the two daphne servers in turn, so the players of a race are
  connected to different servers.  ``--restart`` stops the second daphne halfway through
  and starts it again: its streams are cut, reconnect (through nginx, as EventSource does,
  after the stream's ``retry``) and catch up.

Each race is opened, joined and started over HTTP; then every player opens the race's stream
(all of them in one asyncio process) and plays: a move at a random interval around
``--pace`` seconds (a shuffle when stuck), for ``--seconds``.  It prints:

- the delay from a move's request leaving its player to each *other* player's stream showing
  it (that player's ``data-moves`` reaching the new count): p50, p99, max, over every
  (move, other player) pair, and how many pairs never arrived.  It includes the move's own
  request: the notice goes out as the move commits, before its answer;
- the CPU the stream servers spent (daphne's user + system time) per move and per event sent,
  and the app servers' CPU per move;
- the memory per open stream: the stream servers' resident memory with every stream open,
  less before any opened, divided by the streams.

With ``--check`` it exits non-zero unless every stream's last standings are the race's own
(read again at the end through the site), no pair went missing on a stream never cut, and,
with ``--restart``, every cut stream reconnected (tests/cluster/test_live.py proves the same of
the deployed shape in CI, move by move).  The figures are in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import random
import re
import ssl
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.cluster import SERVER_PIDS, CheckFailed, TlsPlayer, daphne, gunicorn, manage, nginx, production_env  # noqa: E402
from benchmarks.load import Player, ServerError, Tally, free_port, tree_seconds  # noqa: E402
from scripts.throwaway_postgres import throwaway_postgres  # noqa: E402

ROW_RE = re.compile(r'data-player="([^"]+)" data-in-place="(\d+)" data-moves="(\d+)" data-state="([\w-]+)"')
GAME_LINK_RE = re.compile(r'href="(/game/\d+/)"')
LIFTED_RATES = {
    f"ADDICTION_RATE_{kind}_{by}": "100000/m" for kind in ("NEW_GUEST", "START") for by in ("ADDRESS", "OWNER")
}


# ---- the servers


@contextlib.contextmanager
def redis_server(tmp: Path):
    import shutil
    import socket
    import subprocess

    program = shutil.which("redis-server")
    if program is None:
        raise CheckFailed("--cluster needs redis-server (apt-get install redis-server)")
    port = free_port()
    process = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise CheckFailed("redis-server did not start")
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


# ---- the players


class RacePlayer(Player):
    """A browser in a race: opens or joins it, and plays the game the race dealt it."""

    def expect(self, tally: Tally, method: str, path: str, status: int, body: str = "") -> tuple[dict, str]:
        got, headers, text, _seconds = self.request(tally, method, path, body)
        if got != status:
            raise ServerError(f"{method} {path}: {got}, not {status}")
        return headers, text

    def open_race(self, tally: Tally, name: str, deal: int) -> str:
        self.expect(tally, "GET", "/race/new/", 200)
        body = urlencode({"name": name, "mode": "live", "deal_number": deal, "length": "1d"})
        headers, _text = self.expect(tally, "POST", "/race/new/", 302, body)
        return headers["Location"].strip("/").split("/")[-1]

    def join(self, tally: Tally, code: str, name: str) -> None:
        self.expect(tally, "GET", f"/race/{code}/", 200)
        self.expect(tally, "POST", f"/race/{code}/join/", 302, urlencode({"name": name}))

    def to_my_game(self, tally: Tally, code: str) -> None:
        _headers, text = self.expect(tally, "GET", f"/race/{code}/", 200)
        self.game_path = GAME_LINK_RE.search(text)[1]
        self.reload(tally)

    def play(self, tally: Tally, deadline: float, pace: float, moves: list) -> None:
        while time.monotonic() < deadline and self.status == "playing":
            time.sleep(self.rng.uniform(0.5 * pace, 1.5 * pace))
            if self.movable:
                sent = time.time()
                status, _seconds = self.post(
                    tally, "move", f"version={self.version}&slot={self.rng.choice(sorted(self.movable))}"
                )
                if status == 200:
                    moves.append((self.race, self.name, self.moves_made + 1, sent, time.time()))
                    self.moves_made += 1
            elif self.shuffles_left:
                self.post(tally, "shuffle", f"version={self.version}")
            else:
                return


class TlsRacePlayer(RacePlayer, TlsPlayer):
    pass


def player_process(conn, port: int, tls: bool, races: list[tuple[int, int]], players: int, args) -> None:
    """Open, join and start ``races`` (their indexes and deals); tell the parent each race's code
    and names; on its word, play until the deadline; send back every move answered."""
    kind = TlsRacePlayer if tls else RacePlayer
    tally, done = Tally(), []
    table = []
    for index, deal in races:
        group = [kind(port, seed=index * 100 + n) for n in range(players)]
        names = [f"r{index}p{n}" for n in range(players)]
        try:
            code = group[0].open_race(tally, names[0], deal)
            for player, name in zip(group[1:], names[1:], strict=True):
                player.join(tally, code, name)
            group[0].expect(tally, "POST", f"/race/{code}/start/", 302)
            for player, name in zip(group, names, strict=True):
                player.race, player.name, player.moves_made = code, name, 0
                player.to_my_game(tally, code)
        except (OSError, ServerError) as error:
            conn.send(("error", f"setting up race {index}: {error}"))
            return
        table.append((code, group))
    conn.send(("ready", [(code, [p.name for p in group]) for code, group in table]))
    deadline = time.monotonic() + conn.recv()
    moves: list = []

    def run(player):
        try:
            player.reconnect()
            player.play(tally, deadline, args.pace, moves)
        except (OSError, ServerError) as error:
            tally.error(f"{player.name}: {error}")

    threads = [threading.Thread(target=run, args=(p,)) for _code, group in table for p in group]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.extend(moves)
    conn.send(("done", done, tally.errors, tally.error_samples))


# ---- the streams


class Stream:
    """One player's page's stream: the first time it showed each (player, moves), and the rest."""

    def __init__(self, code: str, name: str):
        self.code, self.name = code, name
        self.seen: dict[tuple[str, int], float] = {}
        self.last: dict[str, tuple[int, int, str]] = {}
        self.connections = 0
        self.cut = 0
        self.events = 0


async def follow(stream: Stream, host: str, port: int, tls: bool, stop: asyncio.Event, opened: asyncio.Event) -> None:
    context = ssl._create_unverified_context() if tls else None
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, port, ssl=context)
            writer.write(
                f"GET /race/{stream.code}/stream/ HTTP/1.1\r\nHost: {host}:{port}\r\n"
                f"Accept: text/event-stream\r\nConnection: close\r\n\r\n".encode()
            )
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                raise OSError(f"stream answered {status!r}")
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            stream.connections += 1
            opened.set()
            kind, data = "", []
            while not stop.is_set():
                line = await reader.readline()
                if not line:
                    raise OSError("stream ended")
                line = line.rstrip(b"\r\n").decode()
                if line.isalnum() and len(line) <= 8 and all(c in "0123456789abcdef" for c in line):
                    continue  # a chunk's size (HTTP/1.1 chunked encoding through nginx)
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line == "" and kind:
                    if kind == "standings":
                        now = time.time()
                        stream.events += 1
                        for name, in_place, moves, state in ROW_RE.findall("\n".join(data)):
                            stream.seen.setdefault((name, int(moves)), now)
                            stream.last[name] = (int(in_place), int(moves), state)
                    kind, data = "", []
            writer.close()
        except (OSError, asyncio.IncompleteReadError, ssl.SSLError):
            if stop.is_set():
                return
            stream.cut += 1
            await asyncio.sleep(1.0)  # the stream's retry


def stream_process(conn, host: str, port: int, tls: bool, specs: list[tuple[str, str]]) -> None:
    async def main():
        stop = asyncio.Event()
        streams = [Stream(code, name) for code, name in specs]
        opened = [asyncio.Event() for _ in streams]
        tasks = [
            asyncio.ensure_future(follow(s, host, port, tls, stop, o)) for s, o in zip(streams, opened, strict=True)
        ]
        await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), 60)
        conn.send("open")
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, conn.recv)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        conn.send([(s.code, s.name, s.seen, s.last, s.connections, s.cut, s.events) for s in streams])

    asyncio.run(main())


# ---- the run


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def truth(port: int, tls: bool, codes: list[str]) -> dict[str, dict[str, tuple[int, int, str]]]:
    player = (TlsRacePlayer if tls else RacePlayer)(port, seed=0)
    found = {}
    for code in codes:
        _headers, text = player.expect(Tally(), "GET", f"/race/{code}/standings/", 200)
        found[code] = {name: (int(i), int(m), s) for name, i, m, s in ROW_RE.findall(text)}
    return found


def run(args: argparse.Namespace) -> list[tuple[bool, str]]:
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="addiction-live-")))
        tmp.chmod(0o755)
        if args.cluster:
            env = production_env(tmp, stack.enter_context(throwaway_postgres(max_connections=300)))
            env["REDIS_URL"] = stack.enter_context(redis_server(tmp))
        else:
            env = production_env(tmp, "")
            env.pop("DATABASE_URL")
            env.update({"ADDICTION_DATA_DIR": str(tmp), "DJANGO_SECURE_SSL_REDIRECT": "0", "ADDICTION_PROXY_HOPS": "0"})
        env.update(LIFTED_RATES)
        env.update({"ADDICTION_RACE_COUNTDOWN_SECONDS": "0", "ADDICTION_LIVE_RECHECK_SECONDS": "60"})
        env["DJANGO_ALLOWED_HOSTS"] = "127.0.0.1"
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput", "-v", "0")
        live_stacks = [contextlib.ExitStack() for _ in range(2 if args.cluster else 1)]
        stack.callback(lambda: [s.close() for s in reversed(live_stacks)])
        live_ports = [s.enter_context(daphne(env, tmp, f"live{n + 1}")) for n, s in enumerate(live_stacks)]
        if args.cluster:
            options = argparse.Namespace(workers=args.workers, threads=args.threads)
            app = [stack.enter_context(gunicorn(env, tmp, f"app{n}", options))[0] for n in (1, 2)]
            port, tls = stack.enter_context(nginx(tmp, app, live_ports=live_ports)), True
        else:
            port, tls, app = live_ports[0], False, []
        return race(args, env, tmp, port, tls, live_ports, live_stacks, app)
    return []


def app_server_seconds(app_ports: list[int]) -> float:
    """The gunicorn servers' CPU seconds: each master and its workers."""
    return sum(tree_seconds(SERVER_PIDS[port]) for port in app_ports)


def race(args, env, tmp, port, tls, live_ports, live_stacks, app) -> list[tuple[bool, str]]:
    rng = random.Random(args.seed)
    deals = [rng.randint(1, 10**9) for _ in range(args.races)]
    processes = max(1, min(args.processes, args.races))
    share = [[(i, deals[i]) for i in range(args.races) if i % processes == n] for n in range(processes)]
    pipes, children = [], []
    context = multiprocessing.get_context("fork")
    for races in share:
        mine, theirs = context.Pipe()
        child = context.Process(target=player_process, args=(theirs, port, tls, races, args.players, args))
        child.start()
        pipes.append(mine)
        children.append(child)
    specs = []
    for pipe in pipes:
        word, *rest = pipe.recv()
        if word == "error":
            raise CheckFailed(rest[0])
        specs += [(code, name) for code, names in rest[0] for name in names]
    codes = sorted({code for code, _name in specs})
    live_pids = [SERVER_PIDS[p] for p in live_ports]
    memory_before = sum(rss_bytes(pid) for pid in live_pids)
    mine, theirs = context.Pipe()
    reader = context.Process(target=stream_process, args=(theirs, "127.0.0.1", port, tls, specs))
    reader.start()
    if mine.recv() != "open":
        raise CheckFailed("the streams did not open")
    time.sleep(1.0)
    memory_open = sum(rss_bytes(pid) for pid in live_pids)
    cpu_live = sum(tree_seconds(pid) for pid in live_pids)
    cpu_app = app_server_seconds(app)
    for pipe in pipes:
        pipe.send(args.seconds)
    if args.restart:
        time.sleep(args.seconds / 2)
        restarted_port = live_ports[-1]
        cpu_live -= tree_seconds(SERVER_PIDS[restarted_port])  # its CPU so far: the new one starts from 0
        live_stacks[-1].close()
        live_stacks[-1].enter_context(daphne(env, tmp, f"live{len(live_ports)}", port=restarted_port))
        live_pids = [SERVER_PIDS[p] for p in live_ports]
    moves, errors, samples = [], 0, []
    for pipe in pipes:
        _word, done, errs, some = pipe.recv()
        moves += done
        errors += errs
        samples += some
    time.sleep(2.0)  # the last notices arrive
    cpu_live = sum(tree_seconds(pid) for pid in live_pids) - cpu_live
    cpu_app = app_server_seconds(app) - cpu_app
    mine.send("stop")
    streams = mine.recv()
    reader.join(30)
    for child in children:
        child.join(30)
    final = truth(port, tls, codes)

    delays, missing, missing_uncut, events = [], 0, 0, 0
    by_race: dict[str, list] = {}
    for stream in streams:
        by_race.setdefault(stream[0], []).append(stream)
        events += stream[6]
    latencies = sorted((answered - sent) * 1000 for *_rest, sent, answered in moves)
    after_answer = []
    for code, name, moves_after, sent, answered in moves:
        for _c, viewer, seen, _last, _connections, cut, _events in by_race[code]:
            if viewer == name:
                continue
            at = seen.get((name, moves_after))
            if at is None:
                missing += 1
                missing_uncut += cut == 0
            else:
                delays.append((at - sent) * 1000)
                after_answer.append((at - answered) * 1000)
    delays.sort()
    after_answer.sort()
    stale = [(s[0], s[1]) for s in streams if s[3] != final[s[0]]]
    cut_streams = [s for s in streams if s[5]]
    shape = (
        "cluster (nginx, 2 gunicorn, 2 daphne, PostgreSQL, Redis)" if args.cluster else "embedded (1 daphne, SQLite)"
    )
    print(f"{args.races} races x {args.players} players, {len(streams)} streams, {shape}")
    print(f"moves: {len(moves)} in {args.seconds} s ({len(moves) / args.seconds:.0f}/s), errors {errors} {samples[:3]}")
    print(
        f"delay, a move sent to each other player's stream showing it: p50 {percentile(delays, 0.5):.1f} ms, "
        f"p99 {percentile(delays, 0.99):.1f} ms, max {delays[-1] if delays else float('nan'):.1f} ms "
        f"over {len(delays)} pairs; {missing} never seen ({missing_uncut} on streams never cut)"
    )
    print(
        f"  of which the move's own request: p50 {percentile(latencies, 0.5):.1f} ms, "
        f"p99 {percentile(latencies, 0.99):.1f} ms; from its answer to the other streams: "
        f"p50 {percentile(after_answer, 0.5):.1f} ms, p99 {percentile(after_answer, 0.99):.1f} ms "
        "(negative: the stream showed it first)"
    )
    print(
        f"stream servers' CPU: {cpu_live / max(1, len(moves)) * 1000:.2f} ms a move, "
        f"{cpu_live / max(1, events) * 1000:.3f} ms an event sent ({events} events)"
    )
    if app:
        print(f"app servers' CPU: {cpu_app / max(1, len(moves)) * 1000:.2f} ms a move (tell() included)")
    print(
        f"memory: {memory_before / 2**20:.1f} MiB before the streams, {memory_open / 2**20:.1f} MiB with "
        f"{len(streams)} open: {(memory_open - memory_before) / len(streams) / 1024:.1f} KiB a stream"
    )
    if args.restart:
        print(f"restart: {len(cut_streams)} streams cut, reconnected: {sum(1 for s in cut_streams if s[4] >= 2)}")
    checks = [
        (errors == 0, f"no player met an error ({errors})"),
        (not stale, f"every stream's last standings are the race's own ({len(stale)} differ: {stale[:3]})"),
        (missing_uncut == 0, f"every move seen by every other player's stream never cut ({missing_uncut} missing)"),
        (len(moves) > 0, f"moves were played ({len(moves)})"),
    ]
    if args.restart:
        checks.append(
            (
                bool(cut_streams) and all(s[4] >= 2 for s in cut_streams),
                f"the restart cut {len(cut_streams)} streams, each opened again",
            )
        )
    return checks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=50)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a player's moves, on average")
    parser.add_argument("--processes", type=int, default=4, help="client processes playing the races")
    parser.add_argument("--cluster", action="store_true")
    parser.add_argument("--restart", action="store_true", help="with --cluster: restart one daphne halfway")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--check", action="store_true", help="exit non-zero if a check failed")
    args = parser.parse_args()
    if args.restart and not args.cluster:
        parser.error("--restart needs --cluster")
    try:
        checks = run(args)
    except CheckFailed as failure:
        print(f"FAILED: {failure}")
        return 1
    for ok, text in checks:
        print(f"{'ok' if ok else 'FAILED'}: {text}")
    return 1 if args.check and not all(ok for ok, _text in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
