"""Two app servers count sign-ups and mails from one address together and lose no count
(accounts/throttle.py; issue 46): two processes with the site's production settings on one
Redis (REDIS_URL, as the README sets it up beyond one machine) each count 200 sign-ups from
the same address at once; the shared count is 400.  The counters once read a list from the
cache and wrote it back, so one server's write dropped what the other had just counted.

Needs redis-server (skipped without it, except in CI: ADDICTION_REQUIRE_REDIS=1)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cluster.test_shared_limits import redis_server

pytestmark = pytest.mark.cluster
ROOT = Path(__file__).resolve().parents[2]
EACH = 200

COUNT = f"""
import os, time
import django; django.setup()
from django.test import RequestFactory
from accounts import throttle
request = RequestFactory().post("/accounts/signup/", REMOTE_ADDR="203.0.113.9")
time.sleep(max(0, float(os.environ["START_AT"]) - time.time()))  # both servers at once
for _ in range({EACH}):
    throttle.signup_counted(request)
print("counted")
"""
READ = """
import django; django.setup()
from django.test import RequestFactory
from accounts import throttle
request = RequestFactory().post("/accounts/signup/", REMOTE_ADDR="203.0.113.9")
print(throttle.recent("signups", request), throttle.signup_allowed(request))
"""


def test_two_servers_counting_at_once_lose_no_count(tmp_path):
    with redis_server(tmp_path) as url:
        env = {
            **{key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_URL"))},
            "DJANGO_SETTINGS_MODULE": "addiction_site.settings",
            "DJANGO_DEBUG": "1",
            "ADDICTION_DATA_DIR": str(tmp_path),
            "REDIS_URL": url,
            "ADDICTION_SIGNUPS_PER_HOUR": str(2 * EACH),
        }
        env["START_AT"] = str(time.time() + 3)
        servers = [
            subprocess.Popen([sys.executable, "-c", COUNT], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        assert [server.communicate(timeout=120)[0].strip() for server in servers] == ["counted", "counted"]
        read = subprocess.run([sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True)
        assert read.stdout.split() == [str(2 * EACH), "False"], read.stderr  # every count, and at the limit
