"""Load benchmark: simulated players on the site under gunicorn, against a one-UPDATE baseline.

Run: .venv/bin/python benchmarks/load.py [--players 20] [--seconds 20] [--rounds 1] [--postgres]
                                         [--workers N] [--threads N] [--clients N] [--accounts]

What it does, all on 127.0.0.1 and bounded in time:

1. A fresh database: an SQLite file in a temporary folder (ADDICTION_DATA_DIR), or with
   --postgres a throwaway cluster from scripts/throwaway_postgres.py (DATABASE_URL);
   ``manage.py migrate`` and ``collectstatic`` run in subprocesses.
2. gunicorn on a free loopback port with the production settings: DJANGO_DEBUG unset, a
   random DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS=127.0.0.1, DJANGO_SECURE_SSL_REDIRECT=0
   (plain http on loopback) and ADDICTION_STATIC_ROOT in the temporary folder (so the
   checkout's staticfiles/ is never touched).  The guest and CSRF cookies stay Secure:
   the client writes its own Cookie header, as a browser behind TLS would send them.  The
   server also gets ADDICTION_BENCHMARK=1, which routes the baseline view (below).
   By default 2 gthread workers (one process a core) of 1 thread: on the 2-core machine
   that served the most moves with the lowest p99 (a second thread a worker, or sync
   workers, cost more CPU per move: threads of one process contend for its GIL).
3. --players simulated players, spread over --clients processes of threads, each with
   its own cookies and a keep-alive http.client connection (sync workers close it after
   each answer, and the client opens a new one).  Players are guests, or with --accounts
   they sign up first (unmeasured) and play signed in.  A player plays real games
   with the requests the browser sends: the deal page's button, a POST to
   /deal/<N>/start/ (X-CSRFToken from the csrftoken cookie, which a first GET of the
   deal page sets), following its redirect to the game page; then htmx POSTs to
   /game/<id>/move/ (HX-Request, the same X-CSRFToken, form fields version and slot)
   on a random card the page marks ``movable``, reading the next version and board
   from the partial; POST /shuffle/ when stuck, a new deal when the game is over.  A
   short unmeasured warm-up comes first.
4. For --seconds it measures moves per second, move latency p50/p95/p99 (client side,
   send to last byte), errors (connection errors and any status but 2xx, the start's 302
   and the expected refusals 409/422, which are counted apart) and all requests.
5. Then, for the same time and with the same loop and players, the baseline: a POST with
   the same cookies, CSRF header and form to games/views_benchmark.py, which runs one
   single-row UPDATE; and the ratios mean move latency / mean baseline latency and
   baseline requests per second / moves per second.  With --rounds N both phases are cut
   into N and run alternately, and each phase's figures are its rounds' together: on a
   shared machine whose speed drifts within a minute, the two are then measured alike.
   Before each round of moves but the first, the players reload their game's page,
   unmeasured: the baseline's UPDATEs moved its version on, and a stale page's first move
   would be refused (409) and answered with the whole table.

The figures are printed beside the targets (500 moves/s with 20 players, p99 under
50 ms, no error, a move's server CPU at most 3x the baseline request's), with the CPU that the server, the
client processes and the whole machine used during each phase: the machine has 2
cores shared with others, so read the figures as noisy and compare medians of runs.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import re
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.throwaway_postgres import available, throwaway_postgres  # noqa: E402

PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
MAX_DEAL = 2**63 - 1
TARGET_MOVES_PER_S = 500
TARGET_P99_MS = 50
TARGET_CPU_RATIO = 3.0  # issue 9: a move's server CPU at most 3x the baseline request's
EXPECTED_REFUSALS = {409, 422}

GRID_RE = re.compile(r'data-version="(\d+)" data-status="(\w+)" data-moves="\d+"\s+data-shuffles-left="(\d+)"')
# The slots of cards that can move: their class list ends in "movable" (games/templates/games/_slot.html).
# One tight pattern, since the client shares the server's cores and its CPU counts.
MOVABLE_RE = re.compile(
    r'data-slot="([0-3]-\d{1,2})" data-card="\w\w" aria-label="[^"]*" class="slot card[^"]* movable"'
)
# What the page's table was drawn with (language, marking), which its form posts back.
DRAWN_RE = re.compile(r'name="drawn" value="([^"]*)"')
# The answer to an action the page sends (answer=changes, views.table_changes): the slots that
# changed, swapped in by name, each with its class list; the grid's figures come in a header.
CHANGED_RE = re.compile(r'hx-swap-oob="outerHTML:#grid \[data-slot=\'([0-3]-\d{1,2})\'\]"[^>]*? class="slot ([^"]*)"')


# ---- the server


@contextlib.contextmanager
def database(postgres: bool, tmp: Path) -> Iterator[dict]:
    """The environment that points the site at a fresh, empty database."""
    if postgres:
        with throwaway_postgres() as url:
            yield {"DATABASE_URL": url}
    else:
        yield {"ADDICTION_DATA_DIR": str(tmp / "data")}


def server_env(tmp: Path, db_env: dict) -> dict:
    env = {
        key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_URL", "ADDICTION_"))
    }
    env.update(db_env)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "addiction_site.settings",
            "ADDICTION_STATIC_ROOT": str(tmp / "static"),
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "ADDICTION_BENCHMARK": "1",
            # Every simulated player signs up from 127.0.0.1 (--accounts): lift the per-address limit.
            "ADDICTION_SIGNUPS_PER_HOUR": "100000",
        }
    )
    return env


def manage(env: dict, *args: str) -> None:
    subprocess.run([str(PYTHON), "manage.py", *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def worker_options(workers: int, threads: int) -> list[str]:
    """gthread workers (keep-alive connections); --threads 0 means gunicorn's sync workers."""
    options = ["--workers", str(workers)]
    if threads > 0:
        options += ["--worker-class", "gthread", "--threads", str(threads)]
    return options


@contextlib.contextmanager
def gunicorn(env: dict, args: argparse.Namespace, tmp: Path) -> Iterator[tuple[int, int]]:
    """gunicorn serving the site on a free loopback port: yields (port, master pid)."""
    port = free_port()
    log = tmp / "gunicorn.log"
    command = [
        str(GUNICORN),
        "addiction_site.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        *worker_options(args.workers, args.threads),
        "--error-logfile",
        str(log),
        "--graceful-timeout",
        "5",
    ]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_up(port, server, log)
        yield port, server.pid
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        errors = [line for line in log.read_text().splitlines() if "Traceback" in line or "[ERROR]" in line]
        if errors:
            print(f"gunicorn logged {len(errors)} error lines; the first: {errors[0]}", file=sys.stderr)


def wait_until_up(port: int, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"gunicorn exited with {server.returncode}:\n{log.read_text()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/how-to-play/")
            status = conn.getresponse().status
            conn.close()
            if status == 200:
                return
            sys.exit(f"gunicorn answered {status} to GET /how-to-play/:\n{log.read_text()}")
        except OSError:
            time.sleep(0.2)
    sys.exit("gunicorn did not answer within 60 s")


# ---- CPU accounting, from /proc


def process_ticks(pid: int, reaped: bool = False) -> int:
    """utime + stime of one process, in clock ticks (0 once it is gone); with ``reaped``, its
    children's that have ended and been waited for too (cutime + cstime)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if reaped else 0)


def process_tree(root: int) -> list[int]:
    """``root`` and its children (gunicorn's workers, a postmaster's backends)."""
    pids = [root]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == root:
                    pids.append(int(entry.name))
    return pids


def postmaster_pid(port: int) -> int | None:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                words = (entry / "cmdline").read_bytes().split(b"\0")
                if words[0].endswith(b"postgres") and b"-p" in words and str(port).encode() in words:
                    return int(entry.name)
    return None


def tree_seconds(root: int | None) -> float:
    """The CPU of ``root`` and its children, those still running and those that have ended: a
    PostgreSQL backend's time moves into its postmaster's cutime when its connection closes,
    and was lost before (a phase's database CPU could come out negative)."""
    if root is None:
        return 0.0
    ticks = process_ticks(root, reaped=True) + sum(process_ticks(pid) for pid in process_tree(root)[1:])
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all cores since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


# ---- one simulated player


class ServerError(Exception):
    pass


@dataclass
class Tally:
    """What one player saw in one phase."""

    latencies: list[float] = field(default_factory=list)  # seconds, of the phase's own requests
    requests: int = 0
    refusals: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    last_end: float = 0.0
    acked: int = 0  # actions (moves, shuffles) answered 200: each is one row of the game's log

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 3:
            self.error_samples.append(text)


class Table:
    """A player's table as the page shows it: read from a whole table, or kept up to date
    with answers of only what changed, as htmx and game.js do in the browser."""

    def __init__(self) -> None:
        self.drawn = ""  # the grid form's field "drawn", urlencoded
        self.version = 0
        self.status = ""
        self.shuffles_left = 0
        self.movable: set[str] = set()

    def read_board(self, text: str) -> None:
        grid = GRID_RE.search(text)
        if grid is None:
            raise ServerError("no grid in the answer")
        self.version, self.status, self.shuffles_left = int(grid[1]), grid[2], int(grid[3])
        drawn = DRAWN_RE.search(text)
        self.drawn = urlencode({"drawn": drawn[1]}) if drawn else ""
        self.movable = set(MOVABLE_RE.findall(text))
        if len(self.movable) != text.count(' movable"'):  # the markup changed under the pattern
            raise ServerError("the movable cards could not be read from the grid")

    def read_changes(self, headers, text: str) -> None:
        """Apply an answer of only what changed: its slots, and the grid's figures from its header."""
        figures = json.loads(headers["HX-Trigger-After-Swap"])["table-changed"]["grid"]
        self.version, self.status = int(figures["version"]), figures["status"]
        self.shuffles_left = int(figures["shuffles-left"])
        changed = CHANGED_RE.findall(text)
        if len(changed) != text.count('"outerHTML:#grid [data-slot='):  # the markup changed under the pattern
            raise ServerError("the changed slots could not be read from the answer")
        for name, classes in changed:
            if classes.endswith(" movable"):
                self.movable.add(name)
            else:
                self.movable.discard(name)


class Player(Table):
    """One browser: its own cookies and keep-alive connection, playing one game at a time."""

    def __init__(self, port: int, seed: int):
        super().__init__()
        self.seed = seed
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.rng = random.Random(seed)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.game_path = ""

    def reconnect(self) -> None:
        self.conn.close()
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def request(self, tally: Tally, method: str, path: str, body: str = "", htmx: bool = False):
        """Send one request as the browser would; returns (status, headers, text, seconds)."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if method == "POST":
            headers.update(
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Origin": self.origin,
                    "Referer": self.origin + self.game_path,
                    "X-CSRFToken": self.cookies.get("csrftoken", ""),
                }
            )
        if htmx:
            headers.update(
                {
                    "HX-Request": "true",
                    "HX-Current-URL": self.origin + self.game_path,
                    "HX-Target": "grid",
                    "HX-Trigger": "grid",
                }
            )
        tally.requests += 1
        start = time.perf_counter()
        self.conn.request(method, path, body=body or None, headers=headers)
        response = self.conn.getresponse()
        text = response.read().decode()
        seconds = time.perf_counter() - start
        tally.last_end = time.monotonic()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            self.cookies.update({name: morsel.value for name, morsel in cookie.items()})
        return response.status, response.headers, text, seconds

    def new_game(self, tally: Tally) -> None:
        deal = f"/deal/{self.rng.randint(1, MAX_DEAL)}/"
        if "csrftoken" not in self.cookies:  # a first visit: the deal's page sets the cookie its form needs
            status, _headers, _text, _s = self.request(tally, "GET", deal)
            if status != 200:
                raise ServerError(f"GET /deal/: {status}")
        status, headers, _text, _s = self.request(tally, "POST", f"{deal}start/")
        if status != 302:
            raise ServerError(f"POST /deal/start/: {status}")
        self.game_path = headers["Location"]
        status, _headers, text, _s = self.request(tally, "GET", self.game_path)
        if status != 200:
            raise ServerError(f"GET {self.game_path}: {status}")
        self.read_board(text)

    def reload(self, tally: Tally) -> None:
        """Read the game's page again, as a reload does: the baseline's UPDATEs moved its version on."""
        status, _headers, text, _s = self.request(tally, "GET", self.game_path)
        if status != 200:
            raise ServerError(f"GET {self.game_path}: {status}")
        self.read_board(text)

    def sign_up(self, tally: Tally) -> None:
        """Make an account and stay signed in with it, as the sign-up page does."""
        status, _headers, _text, _s = self.request(tally, "GET", "/accounts/signup/")
        if status != 200:
            raise ServerError(f"GET /accounts/signup/: {status}")
        password = secrets.token_urlsafe(16)
        body = urlencode({"username": f"player-{self.seed}", "password1": password, "password2": password})
        status, _headers, _text, _s = self.request(tally, "POST", "/accounts/signup/", body)
        if status != 302:
            raise ServerError(f"POST /accounts/signup/: {status}")

    def post(self, tally: Tally, action: str, body: str) -> tuple[int, float]:
        # As the game page's grid form posts: it asks for only what changed, and says what
        # its table was drawn with.
        status, headers, text, seconds = self.request(
            tally, "POST", f"{self.game_path}{action}/", f"{body}&answer=changes&{self.drawn}", htmx=True
        )
        if status in EXPECTED_REFUSALS:
            tally.refusals += 1
        elif status != 200:
            raise ServerError(f"POST {action}: {status}")
        else:
            tally.acked += 1
        if headers.get("HX-Reswap") == "none":
            self.read_changes(headers, text)
        else:
            self.read_board(text)
        return status, seconds

    def step(self, tally: Tally) -> None:
        """One action of a player: a move, a shuffle when stuck, a new deal when over."""
        if self.status != "playing" or not (self.movable or self.shuffles_left):
            self.new_game(tally)
        elif self.movable:
            status, seconds = self.post(
                tally, "move", f"version={self.version}&slot={self.rng.choice(sorted(self.movable))}"
            )
            if status == 200:
                tally.latencies.append(seconds)
        else:
            self.post(tally, "shuffle", f"version={self.version}")

    def baseline_step(self, tally: Tally) -> None:
        game_id = self.game_path.strip("/").split("/")[-1]
        status, _headers, text, seconds = self.request(
            tally, "POST", f"/benchmark/update/{game_id}/", f"version={self.version}&slot=0-0", htmx=True
        )
        if status != 200 or text != "ok":
            raise ServerError(f"POST baseline: {status}")
        tally.latencies.append(seconds)

    def run(self, phase: str, deadline: float) -> Tally:
        tally = Tally()
        self.reconnect()  # an idle keep-alive connection may have been closed between phases
        if phase in ("signup", "setup", "reload"):
            self.guarded(tally, {"signup": self.sign_up, "setup": self.new_game, "reload": self.reload}[phase])
            return tally
        step = self.baseline_step if phase == "baseline" else self.step
        while time.monotonic() < deadline:
            self.guarded(tally, step)
        return tally

    def guarded(self, tally: Tally, step) -> None:
        try:
            step(tally)
        except (OSError, http.client.HTTPException, ServerError) as error:
            tally.error(f"{type(error).__name__}: {error}")
            self.reconnect()
            self.status = ""  # start again from a new deal
            time.sleep(0.01)


# ---- client processes


def client_process(conn, port: int, seeds: list[int], player_class: type[Player] = Player) -> None:
    """Serve phase commands from the parent: run every player of this process in a thread."""
    players = [player_class(port, seed) for seed in seeds]
    while (command := conn.recv()) is not None:
        phase, deadline = command
        tallies: list[Tally] = [Tally() for _ in players]
        before = resource.getrusage(resource.RUSAGE_SELF)

        def play(i: int) -> None:
            tallies[i] = players[i].run(phase, deadline)

        threads = [threading.Thread(target=play, args=(i,)) for i in range(len(players))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        after = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        conn.send((tallies, cpu))


class Clients:
    """--clients processes holding --players players between them."""

    def __init__(self, port: int, players: int, processes: int, seed: int, player_class: type[Player] = Player):
        self.pipes = []
        self.processes = []
        seeds = [seed + i for i in range(players)]
        for i in range(processes):
            parent, child = multiprocessing.Pipe()
            process = multiprocessing.Process(
                target=client_process, args=(child, port, seeds[i::processes], player_class)
            )
            process.start()
            self.pipes.append(parent)
            self.processes.append(process)

    def run(self, phase: str, seconds: float) -> tuple[list[Tally], float]:
        deadline = time.monotonic() + seconds
        for pipe in self.pipes:
            pipe.send((phase, deadline))
        tallies, cpu = [], 0.0
        for pipe in self.pipes:
            got, seconds_used = pipe.recv()
            tallies += got
            cpu += seconds_used
        return tallies, cpu

    def close(self) -> None:
        for pipe in self.pipes:
            pipe.send(None)
        for process in self.processes:
            process.join(timeout=10)


# ---- figures


@dataclass
class Phase:
    name: str
    seconds: float
    latencies: list[float]
    requests: int
    refusals: int
    errors: int
    error_samples: list[str]
    client_cpu: float
    server_cpu: float
    database_cpu: float
    machine_busy: float  # of all cores, 0..1

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def ms(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    @property
    def cpu_ms(self) -> float:
        """gunicorn's CPU per request of the phase (moves include their deals and shuffles)."""
        return self.server_cpu / self.requests * 1000 if self.requests else float("nan")

    @property
    def mean_ms(self) -> float:
        return statistics.fmean(self.latencies) * 1000 if self.latencies else float("nan")


@dataclass
class Round:
    """One measured stretch of a phase (--rounds cuts each phase into several): what its
    players tallied, and the CPU and the machine's clock ticks it took."""

    tallies: list[Tally]
    seconds: float
    client_cpu: float
    server_cpu: float
    database_cpu: float
    busy_ticks: int
    all_ticks: int


def measure(clients: Clients, phase: str, seconds: float, server_pid: int, db_pid: int | None) -> Round:
    server_before, db_before, machine_before = tree_seconds(server_pid), tree_seconds(db_pid), machine_ticks()
    start = time.monotonic()
    tallies, client_cpu = clients.run(phase, seconds)
    elapsed = max([t.last_end for t in tallies] + [start + seconds]) - start
    machine_after = machine_ticks()
    return Round(
        tallies=tallies,
        seconds=elapsed,
        client_cpu=client_cpu,
        server_cpu=tree_seconds(server_pid) - server_before,
        database_cpu=tree_seconds(db_pid) - db_before,
        busy_ticks=machine_after[0] - machine_before[0],
        all_ticks=machine_after[1] - machine_before[1],
    )


def phase_of(name: str, rounds: list[Round]) -> Phase:
    """A phase's figures from its rounds, added up."""
    tallies = [t for r in rounds for t in r.tallies]
    return Phase(
        name=name,
        seconds=sum(r.seconds for r in rounds),
        latencies=[s for t in tallies for s in t.latencies],
        requests=sum(t.requests for t in tallies),
        refusals=sum(t.refusals for t in tallies),
        errors=sum(t.errors for t in tallies),
        error_samples=[s for t in tallies for s in t.error_samples][:5],
        client_cpu=sum(r.client_cpu for r in rounds),
        server_cpu=sum(r.server_cpu for r in rounds),
        database_cpu=sum(r.database_cpu for r in rounds),
        machine_busy=sum(r.busy_ticks for r in rounds) / max(1, sum(r.all_ticks for r in rounds)),
    )


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def report(args: argparse.Namespace, moves: Phase, baseline: Phase) -> None:
    cores = os.cpu_count() or 1
    rows = [
        (
            "requests/s",
            f"{moves.rate:.0f}",
            f"{baseline.rate:.0f}",
            f">= {TARGET_MOVES_PER_S} moves/s  {mark(moves.rate >= TARGET_MOVES_PER_S)}",
        ),
        ("latency p50 ms", f"{moves.ms(0.50):.1f}", f"{baseline.ms(0.50):.1f}", ""),
        ("latency p95 ms", f"{moves.ms(0.95):.1f}", f"{baseline.ms(0.95):.1f}", ""),
        (
            "latency p99 ms",
            f"{moves.ms(0.99):.1f}",
            f"{baseline.ms(0.99):.1f}",
            f"< {TARGET_P99_MS} ms  {mark(moves.ms(0.99) < TARGET_P99_MS)}",
        ),
        ("latency mean ms", f"{moves.mean_ms:.1f}", f"{baseline.mean_ms:.1f}", ""),
        ("errors", str(moves.errors), str(baseline.errors), f"0  {mark(moves.errors + baseline.errors == 0)}"),
        ("refused 409/422", str(moves.refusals), str(baseline.refusals), ""),
        ("all requests", str(moves.requests), str(baseline.requests), ""),
        ("seconds", f"{moves.seconds:.1f}", f"{baseline.seconds:.1f}", ""),
        ("server CPU s", f"{moves.server_cpu:.1f}", f"{baseline.server_cpu:.1f}", ""),
        ("server CPU ms per request", f"{moves.cpu_ms:.2f}", f"{baseline.cpu_ms:.2f}", "(least noisy figure)"),
    ]
    if args.postgres:
        rows.append(("PostgreSQL CPU s", f"{moves.database_cpu:.1f}", f"{baseline.database_cpu:.1f}", ""))
    rows += [
        ("client CPU s", f"{moves.client_cpu:.1f}", f"{baseline.client_cpu:.1f}", ""),
        (f"machine busy of {cores} cores", f"{moves.machine_busy:.0%}", f"{baseline.machine_busy:.0%}", ""),
    ]
    print(f"{'':26}{'moves':>10}{'baseline':>10}   target")
    for label, a, b, target in rows:
        print(f"{label:26}{a:>10}{b:>10}   {target}".rstrip())
    latency_ratio = moves.mean_ms / baseline.mean_ms
    rate_ratio = baseline.rate / moves.rate if moves.rate else float("inf")
    cpu_ratio = moves.cpu_ms / baseline.cpu_ms if baseline.cpu_ms else float("inf")
    print(
        f"server CPU per move / per baseline request: {cpu_ratio:.2f}   "
        f"target <= {TARGET_CPU_RATIO:g}  {mark(cpu_ratio <= TARGET_CPU_RATIO)}"
    )
    print(f"mean move latency / mean baseline latency: {latency_ratio:.2f}")
    print(f"baseline req/s / moves per s: {rate_ratio:.2f}")
    for phase in (moves, baseline):
        for sample in phase.error_samples:
            print(f"{phase.name} error: {sample}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20, help="length of each measured phase")
    parser.add_argument("--warmup", type=float, default=2, help="unmeasured play before the measured phases")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="split each phase into this many, run alternately (moves, baseline, moves, ...), so that"
        " a shared machine's drift in speed weighs alike on both",
    )
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster instead of SQLite")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=1, help="threads per gthread worker; 0 for sync workers")
    parser.add_argument("--clients", type=int, default=2, help="client processes the players are spread over")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--no-database-metrics",
        action="store_true",
        help="Django's own database backend, without django-prometheus's query counting (ADDICTION_DATABASE_METRICS=0)",
    )
    parser.add_argument(
        "--accounts", action="store_true", help="players sign up first and play signed in (default: as guests)"
    )
    args = parser.parse_args()
    if not GUNICORN.exists():
        sys.exit(f"{GUNICORN} not found: run `python3 dev.py test` once to make the virtual environment")
    if args.postgres and not available():
        sys.exit("PostgreSQL server programs (initdb, pg_ctl, postgres) not found")
    worker_kind = f"gthread x {args.threads} threads" if args.threads > 0 else "sync"
    print(
        f"{args.players} {'signed-in' if args.accounts else 'guest'} players, {args.seconds:g} s per phase, "
        f"{'PostgreSQL' if args.postgres else 'SQLite'}, "
        f"gunicorn {args.workers} {worker_kind} workers, {args.clients} client processes, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="addiction-load-") as tmp_name:
        tmp = Path(tmp_name)
        with database(args.postgres, tmp) as db_env:
            env = server_env(tmp, db_env)
            if args.no_database_metrics:
                env["ADDICTION_DATABASE_METRICS"] = "0"
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            db_pid = postmaster_pid(urlsplit(db_env["DATABASE_URL"]).port) if args.postgres else None
            with gunicorn(env, args, tmp) as (port, server_pid):
                clients = Clients(port, args.players, min(args.clients, args.players), args.seed)
                try:
                    if args.accounts:
                        tallies, _cpu = clients.run("signup", 0)
                        if any(t.errors for t in tallies):
                            sys.exit(f"sign-up failed: {[s for t in tallies for s in t.error_samples][:3]}")
                    tallies, _cpu = clients.run("setup", 0)
                    if any(t.errors for t in tallies):
                        sys.exit(f"setup failed: {[s for t in tallies for s in t.error_samples][:3]}")
                    clients.run("moves", args.warmup)
                    rounds: dict[str, list[Round]] = {"moves": [], "baseline": []}
                    for round_number in range(args.rounds):
                        if round_number:  # unmeasured: the baseline moved the players' games on a version
                            clients.run("reload", 0)
                        for phase, done in rounds.items():
                            done.append(measure(clients, phase, args.seconds / args.rounds, server_pid, db_pid))
                    moves, baseline = phase_of("moves", rounds["moves"]), phase_of("baseline", rounds["baseline"])
                finally:
                    clients.close()
    report(args, moves, baseline)


if __name__ == "__main__":
    main()
