"""deploy/compose.yaml's services, run as processes (issue 46): no container engine runs here, so
this test reads the compose file and starts each service as compose would, in compose's order
(depends_on, waiting for each condition: a job completed, a health check passing), with the
command, the environment and the health check the file gives it (interpolated from a
deploy/.env as deploy/env.example lists it), the app image's as deploy/Dockerfile builds it
(its ENV and CMD; collectstatic, its build step, run first), and nginx on the configuration
compose's nginx-config job writes.  Only what a container engine does is done by hand: each
service's name on compose's network is mapped to a loopback port, a volume to a folder, and
PostgreSQL's and Redis's images are this machine's servers (the postgres image's entrypoint
makes the role and database its environment names).  A compose file whose services would not
start, or whose nginx would not serve the site, fails here.

Needs PostgreSQL (the --postgres pass), Redis, nginx and openssl."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import shlex
import shutil
import ssl
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from benchmarks.cluster import self_signed_certificate, stop
from benchmarks.load import free_port
from scripts.throwaway_postgres import pg_bin
from tests.cluster.test_shared_limits import redis_server

pytestmark = [pytest.mark.postgres, pytest.mark.cluster]
ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
APP_PORTS = {"app1": 8000, "app2": 8000, "live1": 8001, "live2": 8001, "worker": 9110}


def interpolate(text: str, env: dict[str, str]) -> str:
    """compose's interpolation: $$ is a dollar; ${NAME}, ${NAME:-default}, ${NAME:?error}."""

    def one(found: re.Match) -> str:
        if found.group(0) == "$$":
            return "$"
        name, how, rest = found.group(1), found.group(2) or "", found.group(3) or ""
        value = env.get(name, "")
        if how == ":?" and not value:
            raise AssertionError(f"compose would refuse to start: {name}: {rest}")
        return value if value or how != ":-" else rest

    return re.sub(r"\$\$|\$\{(\w+)(:-|:\?)?([^}]*)\}", one, text)


def dockerfile() -> tuple[dict[str, str], list[str]]:
    """The app image's ENV and CMD (deploy/Dockerfile)."""
    text = (ROOT / "deploy" / "Dockerfile").read_text().replace("\\\n", " ")
    env = {}
    for line in re.findall(r"^ENV (.+)$", text, re.M):
        env.update(dict(part.split("=", 1) for part in shlex.split(line)))
    (command,) = re.findall(r"^CMD (\[.+\])$", text, re.M)
    return env, json.loads(command)


def order(services: dict) -> list[str]:
    """The services in an order compose may start them: each after everything it depends on."""
    done: list[str] = []

    def visit(name: str, seen: tuple = ()) -> None:
        assert name not in seen, f"a cycle in depends_on: {seen}"
        for needed in services[name].get("depends_on") or {}:
            visit(needed, (*seen, name))
        if name not in done:
            done.append(name)

    for name in services:
        visit(name)
    return done


class Compose:
    """The running services: their processes, ports and the mapping of compose's names."""

    def __init__(self, tmp: Path, env_file: dict[str, str]):
        self.tmp, self.env_file = tmp, env_file
        self.processes: dict[str, subprocess.Popen] = {}
        self.ports = {name: free_port() for name in APP_PORTS}
        self.mapping: list[tuple[str, str]] = []
        self.image_env, self.image_cmd = dockerfile()

    def mapped(self, text: str, service: str = "") -> str:
        """``text`` with compose's names, addresses and volumes as this machine has them."""
        for old, new in self.mapping:
            text = text.replace(old, new)
        for name, inside in APP_PORTS.items():
            text = text.replace(f"{name}:{inside}", f"127.0.0.1:{self.ports[name]}")
        if service in APP_PORTS:  # the container's own address: 0.0.0.0 or 127.0.0.1 on its port
            port = str(self.ports[service])
            text = re.sub(rf"(0\.0\.0\.0|127\.0\.0\.1):{APP_PORTS[service]}\b", f"127.0.0.1:{port}", text)
            text = text.replace(f"-b 0.0.0.0 -p {APP_PORTS[service]}", f"-b 127.0.0.1 -p {port}")
        return text

    def start(self, name: str, service: dict) -> None:
        command = service.get("command") or self.image_cmd
        command = interpolate(command if isinstance(command, str) else shlex.join(command), self.env_file)
        env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "ADDICTION_"))}
        env.pop("DATABASE_URL", None)
        env.update(self.image_env)
        for key, value in (service.get("environment") or {}).items():
            env[key] = interpolate(str(value), self.env_file)
        env = {key: self.mapped(value, name) for key, value in env.items()}
        # The image's venv, and its postgresql-client (pg_dump, for the backup service).
        pg_dump = pg_bin("pg_dump")
        tools = f"{Path(pg_dump).parent}{os.pathsep}" if pg_dump else ""
        env["PATH"] = f"{VENV_BIN}{os.pathsep}{tools}{env.get('PATH', '')}"
        env["ADDICTION_ACCESS_LOG"] = str(self.tmp / f"{name}-access.log")
        log = (self.tmp / f"{name}.log").open("w")
        self.processes[name] = subprocess.Popen(
            ["sh", "-c", self.mapped(command, name)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def completed(self, name: str) -> None:
        code = self.processes[name].wait(timeout=180)
        assert code == 0, f"{name} exited {code}:\n{(self.tmp / f'{name}.log').read_text()[-3000:]}"

    def healthy(self, name: str, service: dict) -> None:
        check = service.get("healthcheck") or {}
        test = check.get("test")
        if check.get("disable") or not test:
            return
        assert test[0] == "CMD", test
        command = [self.mapped(part, name) for part in test[1:]]
        command[0] = str(VENV_BIN / command[0]) if (VENV_BIN / command[0]).exists() else command[0]
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert self.processes[name].poll() is None, f"{name} exited:\n{(self.tmp / f'{name}.log').read_text()}"
            if subprocess.run(command, capture_output=True).returncode == 0:
                return
            time.sleep(0.5)
        raise AssertionError(f"{name} never became healthy:\n{(self.tmp / f'{name}.log').read_text()[-3000:]}")


def nginx_of(compose: Compose, conf_dir: Path) -> tuple[subprocess.Popen, int]:
    """nginx:1.22's image on this machine: its http block, with the site compose's nginx-config
    job wrote (its conf.d volume), the names and ports of compose's network mapped."""
    site = compose.mapped((conf_dir / "default.conf").read_text())
    https, http_port = free_port(), free_port()
    site = site.replace("/certs/", f"{compose.tmp}/certs/").replace("/srv/static/", f"{compose.tmp}/static/")
    site = site.replace("/var/log/nginx/access.log", f"{compose.tmp}/nginx-access.log")
    site = re.sub(r"listen 443 ssl", f"listen 127.0.0.1:{https} ssl", site)
    site = re.sub(r"listen 80\b", f"listen 127.0.0.1:{http_port}", site)
    site = re.sub(r"\s*listen \[::\]:\d+[^;]*;", "", site)
    for folder in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (compose.tmp / folder).mkdir(exist_ok=True)
    (compose.tmp / "site.conf").write_text(site)
    (compose.tmp / "nginx.conf").write_text(
        f"daemon off;\npid {compose.tmp}/nginx.pid;\nerror_log {compose.tmp}/nginx-error.log warn;\nevents {{}}\n"
        f"http {{ include /etc/nginx/mime.types; client_body_temp_path {compose.tmp}/client_body; "
        f"proxy_temp_path {compose.tmp}/proxy; fastcgi_temp_path {compose.tmp}/fastcgi; "
        f"uwsgi_temp_path {compose.tmp}/uwsgi; scgi_temp_path {compose.tmp}/scgi; include {compose.tmp}/site.conf; }}\n"
    )
    command = [shutil.which("nginx") or "nginx", "-p", str(compose.tmp), "-c", str(compose.tmp / "nginx.conf")]
    tested = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert tested.returncode == 0, tested.stderr
    return subprocess.Popen(command, start_new_session=True, stderr=subprocess.DEVNULL), https


def get(port: int, path: str) -> tuple[int, str]:
    deadline = time.monotonic() + 30
    while True:
        try:
            connection = http.client.HTTPSConnection(
                "127.0.0.1", port, timeout=10, context=ssl._create_unverified_context()
            )
            connection.request("GET", path, headers={"Host": "127.0.0.1"})
            answer = connection.getresponse()
            return answer.status, answer.read().decode(errors="replace")
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@contextlib.contextmanager
def postgres_as_the_image_makes_it(user: str, password: str, database: str):
    """The postgres image's first start: the role and database its environment names, on this
    run's PostgreSQL (DATABASE_URL, the --postgres pass's own cluster)."""
    import psycopg

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("needs PostgreSQL: python3 dev.py test --postgres")
    admin = psycopg.connect(url, autocommit=True)
    admin.execute(f"CREATE ROLE \"{user}\" LOGIN PASSWORD '{password}'")
    admin.execute(f'CREATE DATABASE "{database}" OWNER "{user}"')
    try:
        yield urlsplit(url)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        admin.execute(f'DROP ROLE IF EXISTS "{user}"')
        admin.close()


def test_compose_services_start_in_order_and_serve_the_site_through_nginx(tmp_path):
    if not (shutil.which("nginx") and shutil.which("openssl")):
        if os.environ.get("ADDICTION_REQUIRE_NGINX") == "1":
            pytest.fail("nginx or openssl not found, and ADDICTION_REQUIRE_NGINX=1")
        pytest.skip("needs nginx and openssl")
    compose_file = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    services = compose_file["services"]
    example = (ROOT / "deploy" / "env.example").read_text()
    named = dict(line.split("=", 1) for line in example.splitlines() if line and not line.startswith("#"))
    env_file = {
        **named,
        "SITE_HOST": "127.0.0.1",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
        "POSTGRES_PASSWORD": secrets.token_urlsafe(16),
        "METRICS_FROM": "127.0.0.1",  # here the scrapes come from this machine itself, not a Docker gateway
    }
    suffix = secrets.token_hex(4)
    db_env = {key: interpolate(str(value), env_file) for key, value in services["db"]["environment"].items()}
    user, database = f"{db_env['POSTGRES_USER']}_{suffix}", f"{db_env['POSTGRES_DB']}_{suffix}"
    compose = Compose(tmp_path, env_file)
    self_signed_certificate(tmp_path)
    (tmp_path / "certs").mkdir()
    for name in ("fullchain.pem", "privkey.pem"):
        shutil.move(tmp_path / name, tmp_path / "certs" / name)
    for folder in ("static", "backups", "nginx", "staticfiles"):
        (tmp_path / folder).mkdir()
    running: list[str] = []
    nginx = None
    with (
        postgres_as_the_image_makes_it(user, db_env["POSTGRES_PASSWORD"], database) as pg,
        redis_server(tmp_path) as redis_url,
    ):
        redis, password = urlsplit(redis_url), env_file["POSTGRES_PASSWORD"]
        compose.mapping = [
            (f"addiction:{password}@db:5432/addiction", f"{user}:{password}@{pg.hostname}:{pg.port}/{database}"),
            ("redis:6379", f"{redis.hostname}:{redis.port}"),
            ("/app/staticfiles", str(tmp_path / "staticfiles")),
            ("staticfiles/.", f"{tmp_path / 'staticfiles'}/."),
            ("/srv/static", str(tmp_path / "static")),
            ("/srv/backups", str(tmp_path / "backups")),
            ("> /nginx/", f"> {tmp_path / 'nginx'}/"),
        ]
        # The image's build step (deploy/Dockerfile's RUN collectstatic).
        build_env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "addiction_site.settings",
            "DJANGO_SECRET_KEY": "build-only",
        }
        build_env["ADDICTION_STATIC_ROOT"] = str(tmp_path / "staticfiles")
        build_env.pop("DATABASE_URL", None)
        built = subprocess.run(
            [str(VENV_BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=build_env,
            capture_output=True,
            text=True,
        )
        assert built.returncode == 0, built.stderr
        try:
            for name in order(services):
                service = services[name]
                for needed, condition in (service.get("depends_on") or {}).items():
                    if needed in ("db", "redis"):
                        continue  # this machine's servers, ready before the first service starts
                    if condition.get("condition") == "service_completed_successfully":
                        compose.completed(needed)
                    elif condition.get("condition") == "service_healthy":
                        compose.healthy(needed, services[needed])
                if name in ("db", "redis"):
                    continue
                if name == "nginx":
                    nginx, https = nginx_of(compose, tmp_path / "nginx")
                    continue
                assert service.get("build") or service.get("image") == "addiction", name
                compose.start(name, service)
                running.append(name)
            for name in running:  # as `docker compose up --wait`: every service with a health check healthy
                compose.healthy(name, services[name])
            # Through nginx over TLS, as a player and the operator reach the site.
            assert get(https, "/healthz")[0] == 200
            status, home = get(https, "/")
            assert status == 200 and 'id="grid"' in home  # the home page deals
            for path in ("/metrics/1", "/metrics/2", "/metrics/worker"):
                status, figures = get(https, path)
                assert status == 200 and "addiction_" in figures, path
            assert get(https, "/metrics/")[0] == 404  # the app servers answer /metrics alone
            # The hourly and nightly jobs ran once: the upkeep said what it did, a private copy was made.
            deadline = time.monotonic() + 60
            while not list((tmp_path / "backups").glob("addiction-*.dump")) and time.monotonic() < deadline:
                time.sleep(0.5)
            (copy,) = (tmp_path / "backups").glob("addiction-*.dump")
            assert copy.stat().st_mode & 0o777 == 0o600
            while "removed" not in (tmp_path / "housekeeping.log").read_text() and time.monotonic() < deadline:
                time.sleep(0.5)
            assert "removed" in (tmp_path / "housekeeping.log").read_text()
        finally:
            if nginx is not None:
                stop(nginx)
            for name in reversed(running):
                if compose.processes[name].poll() is None:
                    stop(compose.processes[name])
