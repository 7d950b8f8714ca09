"""The site as deployed, briefly: benchmarks/cluster.py's nginx (deploy/nginx.conf.template as shipped) in
front of two gunicorn servers (deploy/gunicorn.conf.py) on one throwaway PostgreSQL.

Twenty players play through nginx over TLS, then go on while two slow clients drip a request
body; the script checks that nothing failed, that both servers served moves, that every
action answered 200 is a row of its game's log, that verify_games is clean, and that every
player was still served while the slow clients dripped.  The two servers run as two machines
would, each from its own checkout with its own environment file, and their /metrics (two
worker processes each) count every action.  It needs nginx and openssl (Debian's
packages, which .ci/run installs; without them the test is skipped, except in CI).
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.postgres, pytest.mark.cluster]

ROOT = Path(__file__).resolve().parents[2]


def test_two_app_servers_behind_nginx_lose_nothing_and_outlast_slow_clients():
    missing = [program for program in ("nginx", "openssl") if shutil.which(program) is None]
    if missing:
        if os.environ.get("ADDICTION_REQUIRE_NGINX") == "1":
            pytest.fail(f"{', '.join(missing)} not found, and ADDICTION_REQUIRE_NGINX=1")
        pytest.skip(f"needs {', '.join(missing)} (apt-get install nginx openssl)")
    command = [
        sys.executable,
        "benchmarks/cluster.py",
        "--players",
        "20",
        "--seconds",
        "4",
        "--drip-seconds",
        "6",
        "--warmup",
        "1",
        "--workers",
        "2",  # two worker processes a server: /metrics adds up both
    ]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "FAILED" not in output, output
    assert "(0 lost)" in output, output
    # Every player's games were verified: at least one each, more when a game ended and the
    # player started another.
    checked = re.search(r"(\d+) games checked, 0 differ", output)
    assert checked and int(checked.group(1)) >= 20, output
