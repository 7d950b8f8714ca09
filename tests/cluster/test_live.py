"""A race's live standings across the cluster (issue 28): two app servers (gunicorn) and two
live-stream servers (daphne) behind nginx, sharing Redis, the players of one race connected
to different servers; every update is seen by everyone, and nothing is lost when one of the
stream servers restarts and its clients reconnect.

benchmarks/cluster.py's servers, on a throwaway PostgreSQL and a redis-server of their own,
with the production settings, REDIS_URL, no countdown, and ADDICTION_LIVE_RECHECK_SECONDS=60:
a stream reads the race itself only when it opens (or a minute later, after this test), so
what reaches an open stream within the test's two seconds came through Redis, from whichever
gunicorn served the move, to whichever daphne holds the stream.

Four guests open and join a live race through nginx over TLS.  Six streams of it are read as
a browser's EventSource reads one (opened again ``retry`` after it drops): two directly on
each daphne, two through nginx (which sends one to each).  The host starts the race, and the
players play, each from a thread of its own, through nginx.  Then the first daphne is stopped
and started again on its port while the moves go on; its streams are cut and reopened (the
direct ones on it again, the one through nginx on the other server, as nginx sends it).

The checks, on every stream: the start and each move arrived within two seconds while the
stream was open (each player's every move count, not only the last); a stream opened again
first showed the figures as they were when it asked (catch-up), then the moves after; and at
the end every stream shows what the race's standings page shows (read through nginx), which
is what the players' own moves add up to.  It needs nginx, openssl and redis-server (Debian's
packages, which .ci/run installs; without them the test is skipped, except in CI).
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import json
import os
import re
import shutil
import socket
import ssl
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from benchmarks.cluster import MOVE_LINE, TlsPlayer, daphne, gunicorn, manage, nginx, production_env  # noqa: E402
from benchmarks.load import ServerError, Tally  # noqa: E402
from scripts.throwaway_postgres import throwaway_postgres  # noqa: E402
from tests.cluster.test_shared_limits import redis_server  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.cluster]

NAMES = ("Ada", "Grace", "Alan", "Edsger")  # the host first
DEADLINE = 2.0  # seconds from a move's answer to its figures on every open stream: the Redis path
RECHECK = 60  # a stream's own reading of the race: far beyond DEADLINE and the test's length
PACE = 0.35  # seconds between two moves of one player while the stream server restarts
ROW = re.compile(r"<tr data-entry=[^>]*>")
ATTRIBUTE = re.compile(r'data-([\w-]+)="([^"]*)"')
GAME_LINK = re.compile(r'href="(/game/\d+/)"')
MOVES = re.compile(r'data-moves="(\d+)"')
TLS = ssl._create_unverified_context()


# ---- the standings, as the stream and the race's page show them


def rows_of(html: str) -> dict[str, tuple[str, str, str, str]]:
    """A standings table's rows, player by player: (entry, cards in place, moves, state)."""
    rows = {}
    for tag in ROW.findall(html):
        attributes = dict(ATTRIBUTE.findall(tag))
        rows[attributes["player"]] = (
            attributes["entry"],
            attributes["in-place"],
            attributes["moves"],
            attributes["state"],
        )
    return rows


def moves_of(rows: dict) -> dict[str, int]:
    return {name: int(row[2]) for name, row in rows.items()}


# ---- a browser's EventSource


@dataclass
class Event:
    at: float  # time.monotonic() when its blank line arrived
    kind: str
    data: str
    connection: int

    @property
    def rows(self) -> dict:
        return rows_of(self.data)


@dataclass
class Connection:
    asked: float  # the request sent
    opened: float | None = None  # its first standings event received
    ended: float | None = None  # the stream ended or was cut
    stopped: bool = False  # closed by the test, at its end
    status: int | None = None
    error: str = ""


class Stream(threading.Thread):
    """One page's stream of the race, read as EventSource reads it: the events, each with the
    time it arrived; when the stream ends or is cut, opened again ``retry`` later on the same
    address (daphne's own port, or nginx's)."""

    def __init__(self, label: str, port: int, tls: bool, path: str):
        super().__init__(name=f"stream {label}", daemon=True)
        self.label, self.port, self.tls, self.path = label, port, tls, path
        self.retry = 1.0  # until the stream says (retry: ms)
        self.events: list[Event] = []
        self.connections: list[Connection] = []
        self.lock = threading.Lock()
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            connection = Connection(asked=time.monotonic())
            with self.lock:
                self.connections.append(connection)
            try:
                self.read(connection, len(self.connections) - 1)
            except (OSError, ValueError) as error:
                connection.error = f"{type(error).__name__}: {error}"
            connection.ended = time.monotonic()
            connection.stopped = self.done.is_set()
            self.done.wait(self.retry)

    def read(self, connection: Connection, number: int) -> None:
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=3)
        with contextlib.closing(TLS.wrap_socket(raw) if self.tls else raw) as sock:
            sock.sendall(
                (
                    f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                    "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
                ).encode()
            )
            sock.settimeout(0.25)  # every read is bounded: the thread looks at ``done`` between them
            head_by = time.monotonic() + 5
            received, head, body = b"", None, Body()
            text = codecs.getincrementaldecoder("utf-8")()
            lines = Lines(self, connection, number)
            while not self.done.is_set():
                try:
                    data = sock.recv(65536)
                except TimeoutError:
                    if head is None and time.monotonic() > head_by:
                        raise OSError("no answer's head within 5 s") from None
                    continue
                if not data:
                    return  # cut, or ended without the last chunk
                if head is None:
                    received += data
                    if b"\r\n\r\n" not in received:
                        continue
                    head, data = received.split(b"\r\n\r\n", 1)
                    status_line, *header_lines = head.decode("latin-1").split("\r\n")
                    connection.status = int(status_line.split()[1])
                    headers = {k.strip().lower(): v.strip() for k, v in (h.split(":", 1) for h in header_lines)}
                    if connection.status != 200 or not headers.get("content-type", "").startswith("text/event-stream"):
                        raise ValueError(f"answered {status_line} {headers}")
                    body.chunked = headers.get("transfer-encoding", "").lower() == "chunked"
                decoded, finished = body.feed(data)
                lines.feed(text.decode(decoded))
                if finished:
                    return  # the stream ended (its lifetime, the race closed, the server stopping)

    def standings(self) -> list[Event]:
        with self.lock:
            return [event for event in self.events if event.kind == "standings"]

    def opened(self) -> list[Connection]:
        with self.lock:
            return [connection for connection in self.connections if connection.opened is not None]

    def describe(self) -> str:
        with self.lock:
            connections = [
                f"  #{n} asked {c.asked:.2f} opened {c.opened} ended {c.ended}{' (stopped)' * c.stopped} "
                f"{c.status} {c.error}"
                for n, c in enumerate(self.connections)
                if c.opened is not None or c.error or n == len(self.connections) - 1
            ]
            events = [f"  {e.at:.2f} #{e.connection} {e.kind} {moves_of(e.rows)}" for e in self.events]
        return f"stream {self.label}:\n" + "\n".join(connections + events[-40:])


class Body:
    """An answer's body as it arrives: chunked (HTTP/1.1, as daphne and nginx send a stream) or not."""

    def __init__(self) -> None:
        self.chunked = False
        self.pending = b""
        self.left = 0  # bytes of the current chunk still to come, then its CRLF

    def feed(self, data: bytes) -> tuple[bytes, bool]:
        if not self.chunked:
            return data, False
        self.pending += data
        out = b""
        while True:
            if self.left:
                taken = self.pending[: self.left]
                self.pending = self.pending[len(taken) :]
                self.left -= len(taken)
                out += taken
                if self.left:
                    return out, False
                self.left = -2  # the chunk's CRLF
            if self.left == -2:
                if len(self.pending) < 2:
                    return out, False
                self.pending, self.left = self.pending[2:], 0
            if b"\r\n" not in self.pending:
                return out, False
            size, self.pending = self.pending.split(b"\r\n", 1)
            self.left = int(size.split(b";")[0], 16)
            if not self.left:
                return out, True


class Lines:
    """The event stream's lines (the HTML standard's "event stream interpretation")."""

    def __init__(self, stream: Stream, connection: Connection, number: int):
        self.stream, self.connection, self.number = stream, connection, number
        self.partial, self.kind = "", ""
        self.data: list[str] = []

    def feed(self, text: str) -> None:
        self.partial += text.replace("\r\n", "\n")
        *lines, self.partial = self.partial.split("\n")
        for line in lines:
            if not line:
                if self.data:
                    self.dispatch()
                self.kind, self.data = "", []
            elif line.startswith(":"):
                continue  # a comment: the keepalive
            else:
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "event":
                    self.kind = value
                elif name == "data":
                    self.data.append(value)
                elif name == "retry" and value.isdigit():
                    self.stream.retry = int(value) / 1000

    def dispatch(self) -> None:
        event = Event(time.monotonic(), self.kind or "message", "\n".join(self.data), self.number)
        with self.stream.lock:
            self.stream.events.append(event)
            if event.kind == "standings" and self.connection.opened is None:
                self.connection.opened = event.at


# ---- the players, through nginx


@dataclass
class Move:
    name: str
    count: int  # the player's moves once this one was played, as the game's answer says
    sent: float
    acked: float


class RacePlayer(TlsPlayer):
    """benchmarks/cluster.py's player (its own cookies, over TLS to nginx), in a race."""

    def __init__(self, port: int, seed: int, name: str):
        super().__init__(port, seed)
        self.name = name
        self.tally = Tally()
        self.moves = 0

    def get(self, path: str) -> str:
        status, _headers, text, _s = self.request(self.tally, "GET", path)
        if status != 200:
            raise ServerError(f"{self.name}: GET {path} answered {status}")
        return text

    def post_form(self, path: str, fields: dict[str, str]) -> str:
        """A form's post, as the browser sends it after the page (CSRF cookie and token, Origin)."""
        body = urlencode({"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **fields})
        status, headers, text, _s = self.request(self.tally, "POST", path, body)
        if status != 302:
            raise ServerError(f"{self.name}: POST {path} answered {status}: {text[:2000]}")
        return headers["Location"]

    def open_game(self, race_path: str) -> None:
        link = GAME_LINK.search(self.get(race_path))
        if link is None:
            raise ServerError(f"{self.name}: no game on the race's page")
        self.game_path = link.group(1)
        self.read_board(self.get(self.game_path))

    def play(self) -> Move | None:
        """One move on a card the page marks movable (a shuffle when stuck): the move, or None."""
        if self.status != "playing":
            return None
        action, body = "shuffle", f"version={self.version}"
        if self.movable:
            action, body = "move", f"{body}&slot={self.rng.choice(sorted(self.movable))}"
        elif not self.shuffles_left:
            return None
        sent = time.monotonic()
        status, headers, text, _s = self.request(
            self.tally, "POST", f"{self.game_path}{action}/", f"{body}&answer=changes&{self.drawn}", htmx=True
        )
        acked = time.monotonic()
        if status != 200:
            raise ServerError(f"{self.name}: POST {action} answered {status}: {text[:500]}")
        if headers.get("HX-Reswap") == "none":
            self.read_changes(headers, text)
            count = int(json.loads(headers["HX-Trigger-After-Swap"])["table-changed"]["grid"]["moves"])
        else:
            self.read_board(text)
            found = MOVES.search(text)
            if found is None:
                raise ServerError(f"{self.name}: no move count in the answer")
            count = int(found.group(1))
        if count != self.moves + (action == "move"):
            raise ServerError(f"{self.name}: {count} moves after {self.moves} and a {action}")
        self.moves = count
        return Move(self.name, count, sent, acked) if action == "move" else None


class Movers:
    """Each player in a thread of its own, moving every ``pace`` seconds until stopped, or
    ``each`` times."""

    def __init__(self, players: list[RacePlayer], moves: list[Move], lock: threading.Lock):
        self.players, self.moves, self.lock = players, moves, lock
        self.stop = threading.Event()
        self.failures: list[str] = []

    def run(self, pace: float, each: int | None = None) -> list[threading.Thread]:
        def play(player: RacePlayer) -> None:
            played = 0
            try:
                while not self.stop.is_set() and (each is None or played < each):
                    move = player.play()
                    if move is not None:
                        with self.lock:
                            self.moves.append(move)
                        played += 1
                    self.stop.wait(pace)
            except Exception as error:  # reported by the test, with the player's name
                self.failures.append(f"{player.name}: {type(error).__name__}: {error}")

        threads = [threading.Thread(target=play, args=(player,), daemon=True) for player in self.players]
        for thread in threads:
            thread.start()
        return threads

    def finish(self, threads: list[threading.Thread]) -> None:
        self.stop.set()
        for thread in threads:
            thread.join(timeout=40)
        assert not any(thread.is_alive() for thread in threads), "a player's move did not come back"
        assert not self.failures, self.failures


# ---- the test


def programs_or_skip() -> None:
    missing = [program for program in ("nginx", "openssl") if shutil.which(program) is None]
    if missing:
        if os.environ.get("ADDICTION_REQUIRE_NGINX") == "1":
            pytest.fail(f"{', '.join(missing)} not found, and ADDICTION_REQUIRE_NGINX=1")
        pytest.skip(f"needs {', '.join(missing)} (apt-get install nginx openssl)")


def until(check, seconds: float, what) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(what() if callable(what) else what)
        time.sleep(0.05)


def test_every_player_on_either_server_sees_every_update_and_loses_nothing_when_one_restarts():
    programs_or_skip()
    begun = time.monotonic()
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="addiction-live-")))
        tmp.chmod(0o755)  # nginx's worker (user nobody, when started as root) reads in it
        redis = stack.enter_context(redis_server(tmp))
        env = production_env(tmp, stack.enter_context(throwaway_postgres()))
        env.update(
            {
                "REDIS_URL": redis,
                "ADDICTION_LIVE_RECHECK_SECONDS": str(RECHECK),
                "ADDICTION_RACE_COUNTDOWN_SECONDS": "0",
            }
        )
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")  # the pages' manifest (and nginx's static folder)
        options = argparse.Namespace(workers=1, threads=2)
        app1, access1 = stack.enter_context(gunicorn(env, tmp, "app1", options))
        app2, access2 = stack.enter_context(gunicorn(env, tmp, "app2", options))
        first_live = contextlib.ExitStack()  # daphne 1, stopped midway and started again
        stack.enter_context(first_live)
        live1 = first_live.enter_context(daphne(env, tmp, "live1"))
        live2 = stack.enter_context(daphne(env, tmp, "live2"))
        https = stack.enter_context(nginx(tmp, [app1, app2], live_ports=[live1, live2]))
        ready = time.monotonic()

        # Four guests, each a browser of its own, open and join a live race through nginx.
        players = [RacePlayer(https, 2026 + number, name) for number, name in enumerate(NAMES)]
        host, *guests = players
        host.get("/race/new/")
        race_path = host.post_form(
            "/race/new/", {"name": host.name, "mode": "live", "deal_number": "12345", "length": "1d"}
        )
        assert re.fullmatch(r"/race/[\w-]+/", race_path), race_path
        for guest in guests:
            guest.get(race_path)
            assert guest.post_form(f"{race_path}join/", {"name": guest.name}) == race_path

        # Six pages' streams (EventSource needs no cookie for it): two directly on each daphne,
        # as if those players' pages had been sent there, and two through nginx.
        stream_path = f"{race_path}stream/?lang=en"
        streams = [
            Stream("Ada on daphne 1", live1, False, stream_path),
            Stream("Grace on daphne 1", live1, False, stream_path),
            Stream("Alan on daphne 2", live2, False, stream_path),
            Stream("Edsger on daphne 2", live2, False, stream_path),
            Stream("nginx A", https, True, stream_path),
            Stream("nginx B", https, True, stream_path),
        ]
        cut_for_sure = streams[:2]
        never_cut = streams[2:4]
        through_nginx = streams[4:]
        for stream in streams:
            stream.start()
            stack.callback(stream.join, 5)
            stack.callback(stream.done.set)  # (callbacks run last first: each told to stop, then joined)
            until(lambda: stream.opened(), 10, lambda: f"the stream did not open\n{stream.describe()}")

        def everyone() -> str:
            return "\n".join(stream.describe() for stream in streams)

        for stream in streams:
            first = stream.standings()[0].rows
            assert set(first) == set(NAMES) and {row[3] for row in first.values()} == {"waiting"}, everyone()

        # The host starts the race: every stream shows every player playing, pushed.
        started_at = time.monotonic()
        host.post_form(f"{race_path}start/", {})
        started = time.monotonic()

        def start_seen(stream: Stream) -> float | None:
            shown = [e.at for e in stream.standings() if {row[3] for row in e.rows.values()} == {"playing"}]
            return shown[0] if shown else None

        until(lambda: all(start_seen(stream) for stream in streams), 10, lambda: f"no start seen\n{everyone()}")
        start_latency = max(start_seen(stream) for stream in streams) - started
        assert start_latency <= DEADLINE, f"the start took {start_latency:.2f} s to reach a stream\n{everyone()}"
        for player in players:
            player.open_game(race_path)

        # Play: three moves each, all at once; then on, while daphne 1 stops and starts again.
        moves: list[Move] = []
        movers = Movers(players, moves, threading.Lock())
        movers.finish(movers.run(0.05, each=3))
        movers = Movers(players, moves, movers.lock)
        playing = movers.run(PACE)
        try:
            time.sleep(1.0)
            stopping = time.monotonic()
            first_live.close()  # daphne 1 stops: its streams are cut
            stopped = time.monotonic()
            time.sleep(1.5)  # moves go on while it is down
            assert stack.enter_context(daphne(env, tmp, "live1", port=live1)) == live1
            restarted = time.monotonic()

            def reopened() -> bool:
                return all(
                    stream.opened()[-1].asked > stopping and stream.opened()[-1].ended is None
                    for stream in cut_for_sure
                ) and any(stream.opened()[-1].asked > stopping for stream in through_nginx)

            until(reopened, 10, lambda: f"the cut streams did not open again\n{everyone()}")
            time.sleep(1.5)  # and a few more moves, with every stream open
        finally:
            movers.finish(playing)
        played = time.monotonic()

        # The truth: the race's standings page, through nginx.
        truth = rows_of(host.get(f"{race_path}standings/"))
        assert moves_of(truth) == {player.name: player.moves for player in players}, (truth, moves)
        for stream in streams:
            until(
                lambda: stream.standings()[-1].rows == truth,
                5,
                lambda: f"{stream.label} does not end on the standings {truth}\n{everyone()}",
            )
        settled = time.monotonic()
        # Every stream shows the last move: it has shown every one before (a stream's events
        # come in order).  The test closes them, before any server stops.
        for stream in streams:
            stream.done.set()
        for stream in streams:
            stream.join(timeout=5)
            assert not stream.is_alive(), stream.describe()
        served = [len(MOVE_LINE.findall(log.read_text())) for log in (access1, access2)]

    # What every stream saw.  A move is to be seen live (its very count, within DEADLINE of its
    # answer) by every stream open before it was sent and still open DEADLINE after its answer;
    # a stream opened again shows at once at least the counts answered before it asked.
    by_player = {name: sorted((m for m in moves if m.name == name), key=lambda m: m.count) for name in NAMES}
    for played_moves in by_player.values():
        assert [m.count for m in played_moves] == list(range(1, len(played_moves) + 1)), played_moves
    live_checks, latencies, catch_ups = 0, [], 0
    for stream in streams:
        opened = stream.opened()
        standings = stream.standings()
        for number, connection in enumerate(stream.connections):
            if connection.opened is None:
                continue
            seen = [event for event in standings if event.connection == number]
            end = None if connection.stopped else connection.ended
            for move in moves:
                if move.sent < connection.opened or (end is not None and move.acked + DEADLINE > end):
                    continue
                shown = [e for e in seen if int(e.rows[move.name][2]) == move.count]
                assert shown, f"{stream.label} never showed {move}\n{everyone()}"
                latency = shown[0].at - move.acked
                assert latency <= DEADLINE, f"{stream.label} showed {move} after {latency:.2f} s\n{everyone()}"
                live_checks += 1
                latencies.append(latency)
            if connection is not opened[0]:
                first = moves_of(seen[0].rows)
                answered = {
                    name: max([m.count for m in played_moves if m.acked <= connection.asked], default=0)
                    for name, played_moves in by_player.items()
                }
                sent = {
                    name: max([m.count for m in played_moves if m.sent <= connection.opened], default=0)
                    for name, played_moves in by_player.items()
                }
                assert all(answered[name] <= first[name] <= sent[name] for name in NAMES), (
                    f"{stream.label} opened again at {connection.asked:.2f} on {first}: answered by then "
                    f"{answered}, sent {sent}\n{everyone()}"
                )
                catch_ups += 1

    # The streams were where the test says: those on daphne 1 cut and opened again on it (and
    # one through nginx, on the other server), with moves answered while they were away, to
    # catch up; those on daphne 2 never cut.
    for stream in cut_for_sure:
        before, again = stream.opened()[-2:]
        assert before.ended is not None and stopping <= before.ended <= restarted, stream.describe()
        missed = [m for m in moves if before.ended < m.acked < again.asked]
        assert len(missed) >= 2, f"no moves while {stream.label} was away\n{stream.describe()}"
    for stream in never_cut:
        assert len(stream.connections) == 1 and stream.connections[0].stopped, stream.describe()
    assert sum(len(stream.opened()) > 1 for stream in through_nginx) == 1, everyone()
    assert all(len(stream.opened()) <= 2 for stream in streams), everyone()
    assert catch_ups >= 3 and live_checks >= len(moves) * len(streams) // 2, (catch_ups, live_checks, len(moves))
    # The moves came through both app servers: each told the streams of both daphne servers.
    assert sum(served) == len(moves) and min(served) >= len(moves) // 4, served
    seconds = settled - begun
    print(
        f"\n{len(moves)} moves of {len(NAMES)} players on {len(streams)} streams: {live_checks} seen live, "
        f"latest {max(latencies):.3f} s after the move's answer (start {start_latency:.3f} s); "
        f"{catch_ups} streams opened again and caught up; moves served by the app servers: "
        f"{served[0]} and {served[1]}; daphne 1 down {restarted - stopping:.1f} s "
        f"(its stop {stopped - stopping:.1f} s); servers ready in {ready - begun:.1f} s, "
        f"played {played - started_at:.1f} s, settled in {seconds:.1f} s; streams opened: "
        + ", ".join(f"{stream.label} {len(stream.opened())}" for stream in streams)
    )
