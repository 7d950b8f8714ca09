"""One writer at a time on SQLite, queued by the operating system instead of by sleeping.

SQLite lets one transaction write at a time; the others wait in its busy handler, which
polls with growing sleeps (1, 2, 5, ... 100 ms).  Under load that turns into long tails
and idle cores.  Taking an exclusive lock on a file beside the database first (flock for
the processes, a mutex for the threads of one process) makes waiting writers queue and
wake the moment the lock is free.  On PostgreSQL, row locks do this job and this is a
no-op; so it is on systems without flock.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Iterator

from django.db import connection

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

_thread_lock = threading.Lock()
_lock_file = None


def _forget_after_fork() -> None:
    """A child must open its own lock file: one shared with the parent excludes no one."""
    global _lock_file, _thread_lock
    _lock_file, _thread_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


def _file():
    global _lock_file
    if _lock_file is None:
        path = Path(connection.settings_dict["NAME"]).with_suffix(".write-lock")
        _lock_file = open(path, "a+b")  # noqa: SIM115 - held for the life of the process
    return _lock_file


@contextlib.contextmanager
def serialized_writes() -> Iterator[None]:
    """Hold the database's write lock for the duration of the block (SQLite files only)."""
    name = str(connection.settings_dict.get("NAME", ""))
    # Inside a caller's transaction SQLite's write lock is already held (IMMEDIATE), and
    # waiting here for another writer, who waits for that lock, would only time out.
    if (connection.vendor != "sqlite" or fcntl is None or connection.in_atomic_block
            or not name or name == ":memory:" or "mode=memory" in name):
        yield
        return
    with _thread_lock:
        handle = _file()
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
