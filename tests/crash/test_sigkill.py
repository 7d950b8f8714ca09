"""Acknowledged moves survive the server being killed: gunicorn is SIGKILLed mid-load, restarted,
and every move it answered 200 to is still in its game's log, which still replays.

The server runs in its own process group on 127.0.0.1 with ``tests.settings`` (DEBUG off,
as in production) on a SQLite file in ``tmp_path``, or, under ``dev.py test --postgres``,
also on a database of its own made in the same PostgreSQL cluster.  Client threads play
as browsers do over plain HTTP: session and CSRF cookies, the CSRF token from the page,
the version from the grid, and ``HX-Request: true``.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import random
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

import pytest

from games import engine
from tests.helpers import HTMX, grid, parse_html

pytestmark = pytest.mark.crash

ROOT = Path(__file__).resolve().parents[2]
KILLS = 3
PLAYERS = 4  # players 0 and 1 are two tabs of one browser; 2 and 3 browse alone
LOAD_SECONDS = (1.0, 2.0)  # load between two kills, drawn at random
BOOT_TIMEOUT = 30
REQUEST_TIMEOUT = 10
DEADLINE = 60  # the whole load phase, kills and restarts included, must end by then


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn with two workers, in a process group of its own so one signal kills it all."""

    def __init__(self, env: dict[str, str], log: Path):
        self.env, self.log, self.port = env, log, free_port()
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "addiction_site.wsgi",
                    "-b",
                    f"127.0.0.1:{self.port}",
                    "-w",
                    "2",
                    "--timeout",
                    "30",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1
        deadline = time.monotonic() + BOOT_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"gunicorn exited with {self.process.returncode}:\n{self.log.read_text()[-3000:]}")
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/how-to-play/")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.kill()
        pytest.fail(f"gunicorn did not answer within {BOOT_TIMEOUT} s:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL the master and its workers at once: no graceful shutdown, no cleanup."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)  # our own child's group (start_new_session)
            self.process.wait(timeout=10)
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)  # a worker the master left behind
            except ProcessLookupError:
                pass


@dataclass(frozen=True)
class Ack:
    """An action the server answered 200 to: it must be action ``number`` of ``game``."""

    game: int
    number: int
    kind: str
    move: str  # the move played; "" when the answer does not tell (undo) or there is none


@dataclass
class Tally:
    acks: list[Ack] = field(default_factory=list)
    refused: int = 0  # 409 and 422: answered, nothing changed
    down: int = 0  # no server listening: the connection was refused
    cut: int = 0  # the server died with the request in flight: no answer, outcome unknown
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class ServerDown(Exception):
    def __init__(self, error: Exception):
        super().__init__(repr(error))
        self.refused = isinstance(error, ConnectionRefusedError)


class Browser:
    """One browser's cookies (shared by its tabs) talking to the server over plain HTTP."""

    def __init__(self, server: Server):
        self.server = server
        self.cookies: dict[str, str] = {}
        self.lock = threading.Lock()

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        with self.lock:
            cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        headers = {"Cookie": cookie, **(headers or {})}
        data = None
        if body is not None:
            data = urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=REQUEST_TIMEOUT)
            connection.request(method, path, data, headers)
            response = connection.getresponse()
            text = response.read().decode()
            connection.close()
        except (OSError, http.client.HTTPException) as error:
            raise ServerDown(error) from error
        for line in response.headers.get_all("Set-Cookie") or []:
            # Secure cookies (DEBUG is off) are kept anyway: this client knows it is plain HTTP.
            for name, morsel in SimpleCookie(line).items():
                with self.lock:
                    self.cookies[name] = morsel.value
        return response.status, response.headers, text


class Player(threading.Thread):
    """A tab that plays its browser's game: mostly moves, some undos, a shuffle when stuck,
    a new deal when the game is over; after a cut it reloads the page and goes on."""

    def __init__(self, index: int, browser: Browser, deal: int, tally: Tally, stop: threading.Event):
        super().__init__(name=f"player-{index}")
        self.index, self.browser, self.deal, self.tally, self.stop = index, browser, deal, tally, stop
        self.rng = random.Random(index)
        self.game_id: int | None = None
        self.board = None
        self.csrf = ""
        self.crash: str = ""

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    if self.board is None or self.board.status != "playing":
                        self.load()
                    else:
                        self.act()
                except ServerDown as down:
                    with self.tally.lock:
                        if down.refused:
                            self.tally.down += 1
                        else:
                            self.tally.cut += 1
                    self.board = None  # whether it happened is unknown: reload
                    self.stop.wait(0.05)
        except Exception as error:  # noqa: BLE001 - reported by the test, never lost in a thread
            self.crash = f"{type(error).__name__}: {error}"

    def load(self) -> None:
        """Open the game page: this tab's game, or the next deal once it is over (the other
        tab of the browser goes to the same deal, so both play on).  A deal's link leads to
        the browser's game of it in progress, or to the deal's page, whose button starts one."""
        if self.game_id is None or (self.board is not None and self.board.status != "playing"):
            if self.game_id is not None:
                self.deal += 1
            status, headers, text = self.browser.request("GET", f"/deal/{self.deal}/")
            if status == 200:
                start = f"/deal/{self.deal}/start/"
                form = parse_html(text).find("form", action=start)
                token = form.find("input", name="csrfmiddlewaretoken")["value"]
                status, headers, _text = self.browser.request("POST", start, {"csrfmiddlewaretoken": token})
            if status != 302:
                return self.unexpected(f"starting deal {self.deal} answered {status}")
            self.game_id = int(urlsplit(headers["Location"]).path.strip("/").split("/")[-1])
        status, _headers, text = self.browser.request("GET", f"/game/{self.game_id}/")
        if status != 200:
            return self.unexpected(f"GET /game/{self.game_id}/ answered {status}")
        self.csrf = parse_html(text).find_all("input", name="csrfmiddlewaretoken")[0]["value"]
        self.board = grid(text)

    def act(self) -> None:
        position = engine.Position.parse(self.board.position)
        slots = [(r, c) for r in range(engine.ROWS) for c in range(engine.COLS) if position.move_for_slot((r, c))]
        roll = self.rng.random()
        body, move = {"version": self.board.version}, ""
        if roll < 0.15 and self.board.moves:
            kind = "undo"
        elif self.board.shuffles_left and (not slots or roll > 0.97):
            kind = "shuffle"
        elif slots:
            kind, slot = "move", self.rng.choice(slots)
            body["slot"], move = f"{slot[0]}-{slot[1]}", str(position.move_for_slot(slot))
        else:
            kind = "resign"
        sent = self.board.version
        status, _headers, text = self.browser.request(
            "POST", f"/game/{self.game_id}/{kind}/", body, {**HTMX, "X-CSRFToken": self.csrf}
        )
        if status not in (200, 409, 422):
            return self.unexpected(f"POST {kind} answered {status}: {text[:300]}")
        board = grid(text)
        with self.tally.lock:
            if status == 200:
                if board.version != sent + 1:
                    self.tally.unexpected.append(f"game {self.game_id}: sent {sent}, answer shows {board.version}")
                self.tally.acks.append(Ack(self.game_id, sent + 1, kind, move))
            else:
                self.tally.refused += 1
        self.board = board

    def unexpected(self, what: str) -> None:
        with self.tally.lock:
            self.tally.unexpected.append(f"player {self.index}: {what}")
        self.board = None
        self.stop.wait(0.2)


# --------------------------------------------------------------------------- databases


def sqlite_database(tmp_path: Path):
    env = {"ADDICTION_DATA_DIR": str(tmp_path)}
    path = tmp_path / "db.sqlite3"

    def read(query: str) -> list[tuple]:
        with contextlib.closing(sqlite3.connect(path)) as db:
            return db.execute(query).fetchall()

    yield env, read


def postgres_database():
    """A database of its own in the cluster that DATABASE_URL points to, dropped afterwards."""
    import psycopg

    url = urlsplit(os.environ["DATABASE_URL"])
    name = f"addiction_crash_{secrets.token_hex(4)}"
    admin = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    own_url = urlunsplit(url._replace(path=f"/{name}"))

    def read(query: str) -> list[tuple]:
        with psycopg.connect(own_url) as db:
            return db.execute(query).fetchall()

    try:
        yield {"DATABASE_URL": own_url}, read
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request, tmp_path):
    """The server's environment for a fresh, migrated database, and a reader of that database."""
    made = sqlite_database(tmp_path) if request.param == "sqlite" else postgres_database()
    extra, read = next(made)
    env = {name: value for name, value in os.environ.items() if name not in ("DATABASE_URL", "DJANGO_DEBUG")}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "PYTHONPATH": str(ROOT),
            "ADDICTION_DATA_DIR": str(tmp_path),
            "DJANGO_LOG_LEVEL": "ERROR",
            **extra,
        }
    )
    try:
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert migrate.returncode == 0, migrate.stdout + migrate.stderr
        yield env, read
    finally:
        made.close()


# --------------------------------------------------------------------------- the test


def test_acknowledged_moves_survive_sigkill(database, tmp_path):
    env, read = database
    server = Server(env, tmp_path / "gunicorn.log")
    tally, stop, rng = Tally(), threading.Event(), random.Random(2024)
    shared = Browser(server)
    players = [
        Player(0, shared, 101, tally, stop),
        Player(1, shared, 101, tally, stop),
        Player(2, Browser(server), 201, tally, stop),
        Player(3, Browser(server), 301, tally, stop),
    ]
    assert len(players) == PLAYERS
    started = time.monotonic()
    server.start()
    try:
        players[0].load()  # the shared browser gets its session first, so both tabs play one game
        for player in players:
            player.start()
        for _kill in range(KILLS):
            time.sleep(rng.uniform(*LOAD_SECONDS))
            server.kill()
            time.sleep(0.2)  # the clients find the server gone
            server.start()
            assert time.monotonic() - started < DEADLINE, "the kill-and-restart cycle took too long"
        time.sleep(LOAD_SECONDS[0])
    finally:
        stop.set()
        for player in players:
            player.join(timeout=REQUEST_TIMEOUT + 5)
        server.kill()
    assert not any(player.is_alive() for player in players)
    assert [player.crash for player in players] == [""] * PLAYERS
    assert tally.unexpected == []
    assert server.starts == KILLS + 1
    assert len(tally.acks) >= 20, "too little load to prove anything"
    assert tally.down + tally.cut >= 1, "no request ever met a dead server"

    verify = subprocess.run(
        [sys.executable, "manage.py", "verify_games"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert verify.stdout.rstrip().endswith(", 0 differ"), verify.stdout

    versions = dict(read("SELECT id, version FROM games_game"))
    stored: dict[tuple[int, int], tuple[str, str]] = {
        (game, number): (kind, move)
        for game, number, kind, move in read("SELECT game_id, number, kind, move FROM games_action")
    }
    for game, version in versions.items():
        numbers = sorted(number for (of, number) in stored if of == game)
        assert numbers == list(range(1, version + 1)), f"game {game}: the log is not 1..{version}"
    assert len({ack.game for ack in tally.acks}) >= 3
    for ack in tally.acks:
        assert (ack.game, ack.number) in stored, f"acknowledged but lost: {ack}"
        kind, move = stored[ack.game, ack.number]
        assert kind == ack.kind and (not ack.move or move == ack.move), (ack, kind, move)
    for game in {ack.game for ack in tally.acks}:
        acknowledged = sum(ack.game == game for ack in tally.acks)
        assert acknowledged <= versions[game]
    print(
        f"\n{len(tally.acks)} acknowledged, {sum(versions.values()) - len(tally.acks)} stored without an "
        f"answer, {tally.refused} refused (409/422), {tally.cut} cut mid-request, {tally.down} refused "
        f"connections, {server.starts} server starts, {time.monotonic() - started:.1f} s"
    )
    assert len({(ack.game, ack.number) for ack in tally.acks}) == len(tally.acks), "an action acknowledged twice"
