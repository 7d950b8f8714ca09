"""The nightly backup (docs/OPERATIONS.md, "Backups"): one consistent copy of the site's
database in a folder, named by the time it was taken, and copies older than the retention
removed.  Only the standard library: cron runs it with the site's environment.

    python3 deploy/backup.py /var/backups/addiction [--keep-days 14]

With DATABASE_URL (PostgreSQL) it runs ``pg_dump --format=custom`` (a snapshot taken while
the site runs); without it, SQLite's own backup of ``$ADDICTION_DATA_DIR/db.sqlite3``
(default ./var), never a copy of the file, which would miss what is still in its WAL.  A copy
is written under a temporary name and renamed once complete, so a half-written one is never
taken for a backup; the old ones are removed only after the new one is there.  Prints what it
kept and removed; exits non-zero, keeping every older copy, when the backup fails.

A copy holds every player's password hash and e-mail address: it is written readable by its
owner alone (0600, in a folder made 0700), whatever the umask of cron or the timer.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

PREFIX = "addiction-"


def backup(folder: Path, now: datetime) -> Path:
    """Take one copy into ``folder``; returns its path."""
    stamp = now.strftime("%Y-%m-%dT%H%M%SZ")
    url = os.environ.get("DATABASE_URL", "")
    if url and not url.startswith("sqlite"):
        final = folder / f"{PREFIX}{stamp}.dump"
        partial = final.with_name(final.name + ".partial")
        subprocess.run(["pg_dump", "--format=custom", f"--file={partial}", url], check=True)
    else:
        source = Path(os.environ.get("ADDICTION_DATA_DIR", "var")) / "db.sqlite3"
        if not source.is_file():
            raise SystemExit(f"no database at {source}")
        final = folder / f"{PREFIX}{stamp}.sqlite3"
        partial = final.with_name(final.name + ".partial")
        live, copy = sqlite3.connect(source), sqlite3.connect(partial)
        try:
            live.backup(copy)
        finally:
            copy.close()
            live.close()
    partial.chmod(0o600)  # whatever made it: private
    partial.rename(final)
    return final


def expired(folder: Path, keep_days: float, now: float) -> list[Path]:
    """The finished copies in ``folder`` older than ``keep_days``."""
    cutoff = now - keep_days * 24 * 60 * 60
    return sorted(
        path
        for path in folder.glob(f"{PREFIX}*")
        if path.suffix in (".dump", ".sqlite3") and path.stat().st_mtime < cutoff
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--keep-days", type=float, default=14, help="remove copies older than this (default 14)")
    args = parser.parse_args()
    os.umask(0o077)  # pg_dump's file and SQLite's copy, and the folder if made here: the owner's alone
    args.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        made = backup(args.folder, datetime.now(UTC))
    except (subprocess.CalledProcessError, sqlite3.Error, OSError) as failure:
        print(f"backup failed, older copies kept: {failure}", file=sys.stderr)
        return 1
    print(f"kept {made} ({made.stat().st_size} bytes)")
    for old in expired(args.folder, args.keep_days, time.time()):
        if old != made:
            old.unlink()
            print(f"removed {old}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
