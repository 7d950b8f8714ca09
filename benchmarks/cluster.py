"""The site as deployed: nginx with deploy/nginx.conf.template in front of two gunicorn servers on one PostgreSQL.

Run: .venv/bin/python benchmarks/cluster.py [--players 20] [--seconds 20] [--drip-seconds 20]
                                            [--workers 1] [--threads 2] [--clients 2]

What it does, all on 127.0.0.1 and bounded in time:

1. A throwaway PostgreSQL cluster (scripts/throwaway_postgres.py); ``manage.py migrate`` and
   ``collectstatic`` with production settings: no DJANGO_DEBUG, a random secret key,
   DJANGO_ALLOWED_HOSTS=127.0.0.1, ADDICTION_PROXY_HOPS=1 (the https redirect stays on: the
   players come through nginx's TLS).
2. Two gunicorn servers, separate processes on their own loopback ports, set up as two
   machines would be: each runs from a checkout of its own (the files git tracks, copied),
   with its settings from an environment file of its own and its own static and data
   folders, started with that checkout's deploy/gunicorn.conf.py (``--workers`` gthread
   workers of ``--threads`` threads each, its access log in the temporary folder).
3. nginx (Debian's package) with deploy/nginx.conf.template as it ships, but for its addresses and
   paths: its two upstream sockets become the two servers' ports, its listening ports free
   loopback ports, its certificate a self-signed one made here with openssl, its static
   folder collectstatic's output.  nginx runs as a child process (``-p`` and ``-c`` in the
   temporary folder, ``daemon off``, its pid file, temporary files and logs there too).
4. ``--players`` players of benchmarks/load.py (its Player and Clients, over https here) play
   through nginx for ``--seconds``, after a short warm-up; then for ``--drip-seconds`` more
   while two slow clients each send a POST whose 10,000-byte body arrives one byte a second.
5. The checks, each printed with its figure: no error; requests spread over both servers
   (each served at least a quarter of the moves, read from their access logs: nginx takes
   them in turn, with no stickiness); no lost action (every move or shuffle answered 200 is
   one row of a game's log: the count of Action rows equals the count of those answers);
   ``manage.py verify_games`` replays every game cleanly; and while the two slow clients
   drip, moves are still served to every player, at a rate printed beside the rate before;
   each server ran from its own checkout; the two servers' /metrics (read directly, every
   worker added up) count as many actions as the games' logs hold; /metrics answers through
   nginx from an allowed address, each server's at /metrics/1 and /metrics/2.

It prints moves per second and move latency (p50, p95, p99, client side, through nginx and
TLS) for both phases, and exits non-zero if a check failed.  The figures are in
benchmarks/README.md; tests/cluster/test_cluster.py runs a short version in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load import Clients, Player, Tally, free_port  # noqa: E402
from deploy.nginx_site import render  # noqa: E402
from scripts.throwaway_postgres import available, throwaway_postgres  # noqa: E402

PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
DAPHNE = ROOT / ".venv" / "bin" / "daphne"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
DRIP_BODY_BYTES = 10_000  # under client_max_body_size (16k): nginx waits for all of it
MOVE_LINE = re.compile(r'"POST /game/\d+/move/ HTTP/1\.1" 200 ')


class CheckFailed(Exception):
    pass


# ---- the servers


def production_env(tmp: Path, database_url: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_URL", "ADDICTION_", "SENTRY_"))
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "addiction_site.settings",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": database_url,
            "ADDICTION_PROXY_HOPS": "1",
            "ADDICTION_STATIC_ROOT": str(tmp / "static"),
            # As for nginx's limits (see nginx() below): one address plays for twenty players.
            "ADDICTION_RATE_NEW_GUEST_ADDRESS": "100000/m",
        }
    )
    return env


def manage(env: dict, *args: str) -> str:
    result = subprocess.run([str(PYTHON), "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode:
        output = result.stdout + result.stderr
        raise CheckFailed(f"manage.py {' '.join(args)} exited with {result.returncode}:\n{output}")
    return result.stdout


def stop(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)  # our own child's group (start_new_session)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_for(port: int, process: subprocess.Popen, what: str, log: Path, tls: bool = False) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CheckFailed(f"{what} exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            if tls:
                connection = http.client.HTTPSConnection(
                    "127.0.0.1", port, timeout=5, context=ssl._create_unverified_context()
                )
            else:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz")
            status = connection.getresponse().status
            connection.close()
            if status == 200:
                return
        time.sleep(0.2)
    raise CheckFailed(f"{what} did not answer /healthz within 60 s:\n{log.read_text()[-3000:]}")


@contextlib.contextmanager
def gunicorn(
    env: dict, tmp: Path, name: str, args: argparse.Namespace, checkout: Path = ROOT
) -> Iterator[tuple[int, Path]]:
    """One app server with ``checkout``'s deploy/gunicorn.conf.py on a free loopback port:
    yields (port, access log).  gunicorn runs in ``checkout`` and imports the site from it."""
    port, access, log = free_port(), tmp / f"{name}-access.log", tmp / f"{name}.log"
    server_env = {
        **env,
        "ADDICTION_BIND": f"127.0.0.1:{port}",
        "ADDICTION_WORKERS": str(args.workers),
        "ADDICTION_THREADS": str(args.threads),
        "ADDICTION_ACCESS_LOG": str(access),
    }
    with log.open("w") as output:
        process = subprocess.Popen(
            [str(GUNICORN), "--config", str(checkout / "deploy" / "gunicorn.conf.py"), "addiction_site.wsgi"],
            cwd=checkout,
            env=server_env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for(port, process, f"gunicorn {name}", log)
        SERVED_FROM[port] = Path(os.readlink(f"/proc/{process.pid}/cwd"))
        SERVER_PIDS[port] = process.pid
        yield port, access
    finally:
        stop(process)


@contextlib.contextmanager
def daphne(env: dict, tmp: Path, name: str, checkout: Path = ROOT, port: int | None = None) -> Iterator[int]:
    """One server of the races' live streams, as deploy/addiction-live@.service runs it, on a
    free loopback port (or ``port``, to start one again where it was): yields the port."""
    port, log = port or free_port(), tmp / f"{name}.log"
    with log.open("a") as output:
        process = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "--proxy-headers", "addiction_site.asgi:application"],
            cwd=checkout,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for(port, process, f"daphne {name}", log)
        SERVER_PIDS[port] = process.pid
        yield port
    finally:
        stop(process)


SERVED_FROM: dict[int, Path] = {}  # each running app server's working directory, by port
SERVER_PIDS: dict[int, int] = {}  # each running server's process (gunicorn's master, daphne), by port


def machine(tmp: Path, name: str, settings: dict[str, str]) -> tuple[Path, dict[str, str]]:
    """What a machine of its own would have: a checkout (the files of this one that git
    tracks or would track, as a clone would bring them), an environment file of the site's
    settings read the way systemd's EnvironmentFile reads it, and a static folder and data
    folder of its own.  Returns the checkout and the environment gunicorn gets."""
    home = tmp / name
    checkout = home / "checkout"
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    for relative in filter(None, listed.stdout.decode().split("\0")):
        source = ROOT / relative
        if source.is_file():
            (checkout / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, checkout / relative)
    own = {"ADDICTION_STATIC_ROOT": str(home / "static"), "ADDICTION_DATA_DIR": str(home / "var")}
    env_file = home / "env"
    env_file.write_text("".join(f"{key}={value}\n" for key, value in {**settings, **own}.items()))
    env_file.chmod(0o600)
    base = {key: value for key, value in os.environ.items() if not key.startswith(SITE_VARIABLES)}
    read = dict(line.split("=", 1) for line in env_file.read_text().splitlines() if line and not line.startswith("#"))
    return checkout, {**base, **read}


SITE_VARIABLES = ("DJANGO_", "DATABASE_URL", "ADDICTION_", "SENTRY_", "PROMETHEUS_")


def metrics_of(port: int, path: str = "/metrics", tls: bool = False) -> dict[str, float]:
    """One app server's /metrics (directly, or through nginx over TLS at ``path``): the site's
    own counters summed over their labels, by name."""
    connection = _https(port) if tls else http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)
    answer = connection.getresponse()
    text = answer.read().decode()
    connection.close()
    if answer.status != 200:
        raise CheckFailed(f"/metrics of the app server on {port} answered {answer.status}")
    totals: dict[str, float] = {}
    for name, value in METRIC_LINE.findall(text):
        totals[name] = totals.get(name, 0.0) + float(value)
    return totals


METRIC_LINE = re.compile(r"^(addiction_\w+_total)(?:\{[^}]*\})? ([0-9.e+]+)$", re.M)


def nginx_site(text: str, replacements: dict[str, str]) -> str:
    """nginx's configuration with some of its lines replaced (the limits lifted for clients that
    all come from 127.0.0.1); each must be found exactly once."""
    for old, new in replacements.items():
        if text.count(old) != 1:
            raise CheckFailed(f"deploy/nginx.conf.template has {text.count(old)} of {old!r} (1 expected)")
        text = text.replace(old, new)
    return text


def self_signed_certificate(tmp: Path) -> tuple[Path, Path]:
    cert, key = tmp / "fullchain.pem", tmp / "privkey.pem"  # as certbot names them (the template reads these)
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@contextlib.contextmanager
def nginx(
    tmp: Path,
    upstream_ports: list[int],
    *,
    one_address_one_person: bool = False,
    live_ports: list[int] | None = None,
    metrics_from: tuple[str, ...] = ("127.0.0.1", "::1"),
) -> Iterator[int]:
    """nginx in front of the app servers, its configuration made by deploy/nginx_site.py from the
    one template every set-up uses: yields its https port.  The races' streams go to the daphne
    servers on ``live_ports`` (without them, to the app servers, which answer a stream's address
    with one snapshot); ``metrics_from`` may read /metrics through it.

    Every simulated client comes from 127.0.0.1, so the per-address limits, meant for one
    person each, are lifted unless ``one_address_one_person`` (benchmarks/costly.py, whose
    clients are each an address's one person)."""
    https, http_port = free_port(), free_port()
    self_signed_certificate(tmp)
    lifted = {
        **{
            f"zone={zone}:10m rate={rate}": f"zone={zone}:10m rate=10000r/s"
            for zone, rate in (
                ("addiction_costly", "2r/s"),
                ("addiction_replays", "10r/s"),
                ("addiction_streams", "1r/s"),
            )
        },
        **{
            f"limit_conn_zone $binary_remote_addr zone={zone}": f"limit_conn_zone $request_id zone={zone}"
            for zone in ("addiction_costly_at_once", "addiction_streams_at_once")
        },
    }
    live = live_ports or upstream_ports
    site = render(
        host="127.0.0.1",
        app=[f"127.0.0.1:{port}" for port in upstream_ports],
        live=[f"127.0.0.1:{port}" for port in live],
        worker_metrics="127.0.0.1:9110",
        metrics_from=list(metrics_from),
        static=f"{tmp / 'static'}/",
        certificates=f"{tmp}/",
        listen=[f"127.0.0.1:{http_port}"],
        listen_tls=[f"127.0.0.1:{https}"],
        access_log=f"{tmp}/nginx-access.log",
    )
    site = nginx_site(site, {} if one_address_one_person else lifted)
    (tmp / "addiction.conf").write_text(site)
    for folder in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp / folder).mkdir()
    (tmp / "nginx.conf").write_text(f"""
daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
worker_rlimit_nofile 8192;
events {{ worker_connections 4096; }}  # each open live stream takes two (the browser's, daphne's)
http {{
    include /etc/nginx/mime.types;
    access_log {tmp}/nginx-access.log;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/addiction.conf;
}}
""")
    log = tmp / "nginx-error.log"
    command = [shutil.which("nginx") or "nginx", "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-e", str(log)]
    test = subprocess.run([*command, "-t"], capture_output=True, text=True)
    if test.returncode:
        raise CheckFailed(f"nginx -t refused the configuration:\n{test.stderr}")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(https, process, "nginx", log, tls=True)
        yield https
    finally:
        stop(process)


# ---- the players, through nginx over https


class TlsPlayer(Player):
    """benchmarks/load.py's player, talking to nginx over TLS, as a browser at https://127.0.0.1:port."""

    def __init__(self, port: int, seed: int):
        super().__init__(port, seed)
        self.origin = f"https://127.0.0.1:{port}"
        self.reconnect()

    def reconnect(self) -> None:
        self.conn.close()
        self.conn = http.client.HTTPSConnection(
            "127.0.0.1", self.port, timeout=30, context=ssl._create_unverified_context()
        )


def drip(port: int, until: float, sent: list[int]) -> None:
    """A slow client: a POST whose body arrives one byte a second, until ``until``."""
    context = ssl._create_unverified_context()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        with context.wrap_socket(raw) as sock:
            sock.sendall(
                (
                    f"POST /deal/1/start/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {DRIP_BODY_BYTES}\r\n\r\n"
                ).encode()
            )
            while time.monotonic() < until and sent[0] < DRIP_BODY_BYTES - 1:
                sock.sendall(b"a")
                sent[0] += 1
                time.sleep(1)


# ---- figures and checks


def summary(tallies: list[Tally], seconds: float) -> dict:
    latencies = sorted(s for t in tallies for s in t.latencies)

    def ms(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")

    return {
        "moves": len(latencies),
        "rate": len(latencies) / seconds,
        "p50": ms(0.50),
        "p95": ms(0.95),
        "p99": ms(0.99),
        "errors": sum(t.errors for t in tallies),
        "acked": sum(t.acked for t in tallies),
        "samples": [s for t in tallies for s in t.error_samples][:5],
        "players_with_moves": sum(1 for t in tallies if t.latencies),
    }


def action_rows(env: dict) -> int:
    code = "from games.models import Action; print(Action.objects.count())"
    return int(manage(env, "shell", "--no-imports", "-c", code).split()[-1])


def run(args: argparse.Namespace) -> list[tuple[bool, str]]:
    with tempfile.TemporaryDirectory(prefix="addiction-cluster-") as tmp_name:
        tmp = Path(tmp_name)
        tmp.chmod(0o755)  # nginx's worker (user nobody, when started as root) reads the static files
        with throwaway_postgres() as url:
            env = production_env(tmp, url)
            settings = {key: value for key, value in env.items() if key.startswith(SITE_VARIABLES)}
            (checkout1, env1), (checkout2, env2) = (machine(tmp, name, settings) for name in ("app1", "app2"))
            manage(env, "migrate", "--noinput")
            manage(env, "collectstatic", "--noinput")
            for checkout, machine_env in ((checkout1, env1), (checkout2, env2)):  # each machine its own static files
                subprocess.run(
                    [str(PYTHON), "manage.py", "collectstatic", "--noinput", "-v", "0"],
                    cwd=checkout,
                    env=machine_env,
                    check=True,
                )
            with (
                gunicorn(env1, tmp, "app1", args, checkout1) as (port1, log1),
                gunicorn(env2, tmp, "app2", args, checkout2) as (port2, log2),
            ):
                with nginx(tmp, [port1, port2]) as https:
                    tallies, figures = play(https, args)
                    headers = edge_checks(https)
                    through_nginx = [metrics_of(https, f"/metrics/{n}", tls=True) for n in (1, 2)]
                served = [len(MOVE_LINE.findall(log.read_text())) for log in (log1, log2)]
                counted = [metrics_of(port).get("addiction_game_actions_total", 0.0) for port in (port1, port2)]
                nginx_counted = [figures.get("addiction_game_actions_total", 0.0) for figures in through_nginx]
                homes = [SERVED_FROM[port] for port in (port1, port2)]
            rows = action_rows(env)
            verify = subprocess.run(
                [str(PYTHON), "manage.py", "verify_games"], cwd=ROOT, env=env, capture_output=True, text=True
            )
    plain, dripping = figures
    acked = sum(t.acked for t in tallies)
    errors = sum(t.errors for t in tallies)
    samples = [s for t in tallies for s in t.error_samples][:5]
    print(f"{'':24}{'moves/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'moves':>8}{'errors':>8}")
    for name, f in (("through nginx", plain), ("while 2 clients drip", dripping)):
        print(
            f"{name:24}{f['rate']:>9.0f}{f['p50']:>9.1f}{f['p95']:>9.1f}{f['p99']:>9.1f}{f['moves']:>8}{f['errors']:>8}"
        )
    quarter = sum(served) / 4
    return headers + [
        (
            homes == [checkout1, checkout2],
            f"app servers run from their own checkouts, each with its own environment file: {homes[0].parent.name}, "
            f"{homes[1].parent.name}",
        ),
        (
            sum(counted) == rows and min(counted) > 0,
            f"actions counted by the two app servers' /metrics (every worker): {counted[0]:.0f} + {counted[1]:.0f} = "
            f"{sum(counted):.0f}, rows {rows}",
        ),
        (
            nginx_counted == counted,
            f"/metrics/1 and /metrics/2 through nginx, from an allowed address: {nginx_counted[0]:.0f} and "
            f"{nginx_counted[1]:.0f} actions, each server's own",
        ),
        (errors == 0, f"errors: {errors}" + (f" (first: {samples})" if samples else "")),
        (
            min(served) >= quarter and sum(served) > 0,
            f"moves served by each app server (access logs): {served[0]} and {served[1]}",
        ),
        (rows == acked and acked > 0, f"actions answered 200: {acked}; rows in the games' logs: {rows} (0 lost)"),
        (verify.returncode == 0, f"verify_games: {(verify.stdout + verify.stderr).strip().splitlines()[-1:]}"),
        (
            dripping["players_with_moves"] == args.players and dripping["moves"] > 0,
            f"while 2 clients dripped a body: {dripping['moves']} moves served to "
            f"{dripping['players_with_moves']} of {args.players} players",
        ),
    ]


def _https(port: int) -> http.client.HTTPSConnection:
    return http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=ssl._create_unverified_context())


def edge_checks(https: int) -> list[tuple[bool, str]]:
    """What deploy/nginx.conf.template promises at the edge: unknown hosts dropped, no version shown,
    the security headers on static files too."""
    connection = _https(https)
    connection.request("GET", "/", headers={"Host": "someone-else.example"})
    try:
        dropped = f"answered {connection.getresponse().status}"
    except (http.client.RemoteDisconnected, ConnectionError):
        dropped = "dropped"
    connection.close()
    connection = _https(https)
    connection.request("GET", "/")
    page = connection.getresponse()
    body = page.read().decode()
    static = re.search(r'href="(/static/[^"]+\.css)"', body)
    connection.request("GET", static.group(1) if static else "/static/missing.css")
    asset = connection.getresponse()
    asset.read()
    connection.close()
    wanted = ("Content-Security-Policy", "X-Content-Type-Options", "Strict-Transport-Security", "Referrer-Policy")
    missing = [name for name in wanted if not asset.getheader(name)]
    return [
        (dropped == "dropped", f"a request for an unknown host: {dropped}"),
        (page.getheader("Server") == "nginx", f"Server header: {page.getheader('Server')!r} (no version)"),
        (
            asset.status == 200 and not missing,
            f"static file {asset.status}, security headers missing: {missing or 'none'}",
        ),
    ]


def play(https: int, args: argparse.Namespace) -> tuple[list[Tally], tuple[dict, dict]]:
    """Warm-up, the plain phase, then the phase with two slow clients: every player's tallies and the figures."""
    clients = Clients(https, args.players, min(args.clients, args.players), args.seed, player_class=TlsPlayer)
    try:
        everything, _cpu = clients.run("setup", 0)
        warm, _cpu = clients.run("moves", args.warmup)
        plain, _cpu = clients.run("moves", args.seconds)
        until = time.monotonic() + args.drip_seconds
        sent = [[0], [0]]
        drippers = [threading.Thread(target=drip, args=(https, until, count)) for count in sent]
        for dripper in drippers:
            dripper.start()
        dripping, _cpu = clients.run("moves", args.drip_seconds)
        for dripper in drippers:
            dripper.join()
        if min(count[0] for count in sent) < args.drip_seconds / 2:
            raise CheckFailed(f"the slow clients sent only {[c[0] for c in sent]} bytes: nginx cut them off early")
    finally:
        clients.close()
    return everything + warm + plain + dripping, (summary(plain, args.seconds), summary(dripping, args.drip_seconds))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20, help="length of the measured phase")
    parser.add_argument("--drip-seconds", type=float, default=20, help="length of the phase with two slow clients")
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--workers", type=int, default=1, help="gthread workers of each gunicorn server")
    parser.add_argument("--threads", type=int, default=2, help="threads of each worker")
    parser.add_argument("--clients", type=int, default=2, help="client processes the players are spread over")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not GUNICORN.exists():
        sys.exit(f"{GUNICORN} not found: run `python3 dev.py test` once to make the virtual environment")
    if not available() or shutil.which("nginx") is None or shutil.which("openssl") is None:
        sys.exit("needs PostgreSQL's server programs, nginx and openssl (apt-get install postgresql nginx openssl)")
    print(
        f"{args.players} guest players through nginx (TLS) to 2 gunicorn servers of {args.workers} gthread "
        f"workers x {args.threads} threads, one PostgreSQL; {args.seconds:g} s, then {args.drip_seconds:g} s with "
        f"2 slow clients; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    try:
        checks = run(args)
    except CheckFailed as failure:
        print(f"FAILED  {failure}", file=sys.stderr)
        return 1
    for ok, what in checks:
        print(f"{'ok' if ok else 'FAILED':6}  {what}")
    return 0 if all(ok for ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
