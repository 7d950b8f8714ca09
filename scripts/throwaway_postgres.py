"""A throwaway PostgreSQL cluster in a temporary folder, for tests and benchmarks.

    with throwaway_postgres() as database_url:
        ...  # postgres://postgres@127.0.0.1:<port>/addiction

Only the standard library is used, so dev.py can call it before any virtual environment
exists.  initdb refuses to run as root, so as root the cluster belongs to the `postgres`
system user (runuser); otherwise to the current user.  The cluster listens on a free
loopback port, trusts local connections, runs with fsync off (its data is thrown away)
and is stopped and removed on exit.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def pg_bin(name: str) -> str | None:
    """The path of a PostgreSQL server program, from PATH or Debian's versioned folders."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def available() -> bool:
    return all(pg_bin(name) for name in ("initdb", "pg_ctl", "postgres"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@contextlib.contextmanager
def throwaway_postgres(database: str = "addiction", max_connections: int = 200) -> Iterator[str]:
    if not available():
        raise RuntimeError("PostgreSQL server programs (initdb, pg_ctl, postgres) were not found")
    root = Path(tempfile.mkdtemp(prefix="addiction-pg-"))
    data = root / "data"
    port = _free_port()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    root.chmod(0o700)
    try:
        subprocess.run(
            _as_owner(
                [pg_bin("initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-instructions"]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        options = (
            f"-p {port} -c listen_addresses=127.0.0.1 -k {root} -c fsync=off -c synchronous_commit=off"
            f" -c full_page_writes=off -c max_connections={max_connections}"
        )
        subprocess.run(
            _as_owner([pg_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"]),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        try:
            createdb = pg_bin("createdb") or "createdb"
            subprocess.run(
                _as_owner([createdb, "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", database]), check=True
            )
            yield f"postgres://postgres@127.0.0.1:{port}/{database}"
        finally:
            subprocess.run(
                _as_owner([pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
