"""/metrics on an app server bound to a unix socket, as deploy/addiction@.service runs it (issue
46: there gunicorn gives no client address, and the operator's scrape was refused): gunicorn with
deploy/gunicorn.conf.py and the production settings behind one proxy (ADDICTION_PROXY_HOPS=1),
scraped over the socket directly (this machine: 200) and as nginx passes requests on, with the
client in X-Forwarded-For (the operator's address: 200; anyone else's: 404), and no other
spelling of the path answering with the figures."""

from __future__ import annotations

import http.client
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.cluster import stop

ROOT = Path(__file__).resolve().parents[2]


class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str):
        super().__init__("localhost", timeout=10)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(self.path)


def listening(path: str) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
    except OSError:
        return False
    finally:
        probe.close()
    return True


def scrape(path: str, url: str = "/metrics", **headers: str) -> tuple[int, bytes]:
    connection = UnixConnection(path)
    connection.request("GET", url, headers={"Host": "localhost", "X-Forwarded-Proto": "https", **headers})
    answer = connection.getresponse()
    body = answer.read()
    connection.close()
    return answer.status, body


def test_the_operators_scrape_over_the_unix_socket_is_answered_and_nobody_elses(tmp_path):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "ADDICTION_"))}
    env.pop("DATABASE_URL", None)
    sock = tmp_path / "app.sock"
    env.update(
        DJANGO_SETTINGS_MODULE="addiction_site.settings",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(60),
        DJANGO_ALLOWED_HOSTS="localhost",
        ADDICTION_DATA_DIR=str(tmp_path),
        ADDICTION_STATIC_ROOT=str(tmp_path / "static"),
        ADDICTION_PROXY_HOPS="1",
        ADDICTION_BIND=f"unix:{sock}",
        ADDICTION_WORKERS="1",
        ADDICTION_ACCESS_LOG=str(tmp_path / "access.log"),
    )
    for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):  # the README's deploy steps
        done = subprocess.run([sys.executable, "manage.py", *step, "-v", "0"], cwd=ROOT, env=env, capture_output=True)
        assert done.returncode == 0, done.stderr
    log = (tmp_path / "gunicorn.log").open("w")
    server = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "--config", "deploy/gunicorn.conf.py", "addiction_site.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not listening(str(sock)):  # the socket's file appears at bind(), before listen()
            assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
            time.sleep(0.1)
        status, figures = scrape(str(sock))  # Prometheus on this machine, on the socket itself
        assert status == 200 and b"django_http_requests" in figures
        assert scrape(str(sock), **{"X-Forwarded-For": "127.0.0.1"})[0] == 200  # the operator, through nginx
        assert scrape(str(sock), **{"X-Forwarded-For": "203.0.113.7"})[0] == 404  # anyone else, through nginx
        for url in ("/metrics/", "/metrics//", "/%6detrics/", "/metrics/1"):
            status, body = scrape(str(sock), url)
            assert status == 404 and b"django_http" not in body, url
    finally:
        stop(server)
