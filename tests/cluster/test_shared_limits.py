"""Two app servers share one rate limit (addiction_site/limits.py; issue 25): two gunicorn
servers (deploy/gunicorn.conf.py) on one database, with the shared cache as the README
sets it up, the database's (no other service) or Redis (REDIS_URL).  Starts from one address
are sent to each server in turn, as nginx does; the limit holds for the two together.

Needs redis-server for the Redis half (Debian's package, which .ci/run installs; skipped
without it, except in CI, ADDICTION_REQUIRE_REDIS=1)."""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from benchmarks.cluster import gunicorn, manage, stop  # noqa: E402
from benchmarks.load import free_port  # noqa: E402

pytestmark = pytest.mark.cluster
LIMIT = 4
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@contextlib.contextmanager
def redis_server(tmp: Path):
    program = shutil.which("redis-server")
    if program is None:
        if os.environ.get("ADDICTION_REQUIRE_REDIS") == "1":
            pytest.fail("redis-server not found, and ADDICTION_REQUIRE_REDIS=1")
        pytest.skip("needs redis-server (apt-get install redis-server)")
    port = free_port()
    process = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"redis-server did not start (exit {process.poll()})")
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)


def start_from_a_fresh_browser(port: int) -> int:
    """A cookieless client's New game: the home page for its CSRF token, then the post."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/")
    page = connection.getresponse()
    body = page.read().decode()
    cookies = [header.split(";", 1)[0] for name, header in page.getheaders() if name.lower() == "set-cookie"]
    token = TOKEN.search(body).group(1)
    connection.request(
        "POST",
        "/new/",
        body=f"csrfmiddlewaretoken={token}&deal_number=",
        headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": "; ".join(cookies)},
    )
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return answer.status


@pytest.mark.parametrize("shared", ["database", "redis"])
def test_two_app_servers_share_one_limit(tmp_path, shared):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "ADDICTION_", "REDIS_"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "addiction_site.settings",
            "DJANGO_DEBUG": "1",  # plain http on loopback: no TLS redirect, no Secure cookies
            "ADDICTION_DATA_DIR": str(tmp_path),
            "ADDICTION_RATE_NEW_GUEST_ADDRESS": f"{LIMIT}/h",  # hourly: no window ends during the test
        }
    )
    env.pop("DATABASE_URL", None)
    with contextlib.ExitStack() as stack:
        if shared == "redis":
            env["REDIS_URL"] = stack.enter_context(redis_server(tmp_path))
        manage(env, "migrate", "--noinput")
        options = argparse.Namespace(workers=1, threads=2)
        first, _log = stack.enter_context(gunicorn(env, tmp_path, "one", options))
        second, _log = stack.enter_context(gunicorn(env, tmp_path, "two", options))
        statuses = [start_from_a_fresh_browser((first, second)[number % 2]) for number in range(LIMIT + 2)]
    assert statuses == [302] * LIMIT + [429, 429], statuses
