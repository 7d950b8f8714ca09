"""Live races across servers (issue 28): benchmarks/live.py's cluster, briefly.

nginx (deploy/nginx.conf) in front of two gunicorn servers and two daphne servers, on a
throwaway PostgreSQL, with Redis carrying each change of a race from the gunicorn that took
the move to the daphne servers holding its players' streams; nginx spreads the streams over
both daphne servers.  Every stream re-reads its race only once a minute here, so what arrives
came through Redis.  Halfway, one daphne is restarted: its streams are cut, open again
through nginx and catch up.  The script checks that no player met an error, that every move
reached every other player's stream that was never cut, that every stream's last standings
are the race's own, and that every cut stream reconnected.  Needs nginx, openssl and
redis-server (Debian's packages, which .ci/run installs; skipped without them, except in CI).
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


def test_players_on_different_servers_see_every_move_and_a_restart_loses_nothing():
    missing = [program for program in ("nginx", "openssl", "redis-server") if shutil.which(program) is None]
    if missing:
        if os.environ.get("ADDICTION_REQUIRE_NGINX") == "1" or os.environ.get("ADDICTION_REQUIRE_REDIS") == "1":
            pytest.fail(f"{', '.join(missing)} not found, and CI requires them")
        pytest.skip(f"needs {', '.join(missing)} (apt-get install nginx openssl redis-server)")
    command = [
        sys.executable,
        "benchmarks/live.py",
        "--cluster",
        "--restart",
        "--check",
        "--races",
        "4",
        "--players",
        "4",
        "--seconds",
        "10",
        "--pace",
        "0.7",
        "--processes",
        "2",
    ]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "FAILED" not in output, output
    cut = re.search(r"restart: (\d+) streams cut, reconnected: (\d+)", output)
    assert cut and int(cut.group(1)) > 0 and cut.group(1) == cut.group(2), output
    pairs = re.search(r"over (\d+) pairs; (\d+) never seen \(0 on streams never cut\)", output)
    assert pairs and int(pairs.group(1)) > 0, output
