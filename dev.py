#!/usr/bin/env python3
"""One entry point for a fresh clone: `python3 dev.py serve`, `test`, `lint` or `lock`.

It makes a virtual environment in .venv, installs the locked versions of requirements/ into it
(again only when a lock file or pyproject.toml changes), and then runs the site, the tests,
the linters, or rewrites the lock files.  Needs Python 3.11+ only.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


# The lock files, with every package pinned and hashed, and what each one pins: pyproject.toml's
# dependencies plus these extras.  The site's lock comes first: the others are resolved within it,
# so that the versions the tests run are the versions a deployment installs.
LOCKS = {
    "requirements/base.txt": ["build"],
    "requirements/sentry.txt": ["build", "sentry"],
    "requirements/dev.txt": ["build", "dev", "sentry"],
}


def ensure_env(extras: str) -> None:
    """Create .venv and install the lock of ``extras`` (base or dev) unless that is already done."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs on any python3, before .venv exists
        sys.exit("Python 3.11 or newer is needed.")
    if not PYTHON.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    lock = ROOT / "requirements" / f"{extras or 'base'}.txt"
    # The compiled search core is built by the install (setup.py): its source changes it too.
    built = [ROOT / "pyproject.toml", lock, ROOT / "setup.py", ROOT / "games" / "_searchcore.c"]
    wanted = hashlib.sha256(b"".join(path.read_bytes() for path in built)).hexdigest()
    stamp = VENV / ".installed"
    if extras == "" and stamp.exists() and stamp.read_text().startswith("dev:"):
        return  # the dev lock includes everything the site needs, at the same versions
    if stamp.exists() and stamp.read_text().split(":", 1)[-1] == wanted:
        return
    pip = [str(PYTHON), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "--require-hashes", "-r", str(lock)], check=True, cwd=ROOT)
    # The build backend is the locked setuptools just installed: no build isolation, which
    # would fetch setuptools afresh, unpinned and unhashed.
    subprocess.run([*pip, "--no-deps", "--no-build-isolation", "-e", "."], check=True, cwd=ROOT)
    stamp.write_text(f"{extras}:{wanted}")


def run(*args: str, env: dict | None = None) -> int:
    return subprocess.run([str(PYTHON), *args], cwd=ROOT, env={**os.environ, **(env or {})}).returncode


def serve(options: argparse.Namespace) -> int:
    ensure_env("")
    env = {"DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "1")}
    if run("manage.py", "migrate", "--noinput", env=env):
        return 1
    # The background worker (a finished game's analysis, the hints' deep search: django-tasks'
    # database backend) runs beside the site, on the same SQLite file, and stops with it.
    worker = subprocess.Popen([str(PYTHON), "manage.py", "db_worker"], cwd=ROOT, env={**os.environ, **env})
    try:
        return run("manage.py", "runserver", options.address, env=env)
    finally:
        worker.terminate()
        worker.wait(timeout=30)


# What --quick leaves out: the tests that start a browser, kill a server, run a cluster or fuzz
# every endpoint (pyproject.toml's markers); the full run, and CI, have them all.
QUICK = ["-m", "not browser and not crash and not cluster and not fuzz"]


def workers(quick: bool) -> int:
    """How many pytest-xdist workers a run starts: two for each core, one for --quick.  The
    browser, crash and cluster tests wait (on a browser, a server they started), so a second
    worker a core keeps the cores busy: on 2 cores the whole suite took 4:50 with 2 workers
    and 3:33 with 4.  The quick run does not wait: 1:24 with 2 workers, 1:32 with 4."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores if quick else 2 * cores


def test(options: argparse.Namespace) -> int:
    """pytest on every core (pytest-xdist, unless the arguments say ``-n``)."""
    ensure_env("dev")
    args = options.pytest_args
    if not any(arg == "-n" or arg.startswith(("-n", "--numprocesses")) for arg in args):
        args = ["-n", str(workers(options.quick)), "--dist", "worksteal", *args]
    if options.quick:
        args = [*QUICK, *args]
    options.pytest_args = args
    if not options.postgres:
        return run("-m", "pytest", *options.pytest_args)
    sys.path.insert(0, str(ROOT))
    from scripts.throwaway_postgres import available, throwaway_postgres

    if not available():
        print("PostgreSQL server programs not found: the PostgreSQL run cannot happen.", file=sys.stderr)
        return 3
    with throwaway_postgres() as url:
        print(f"Running the tests on a throwaway PostgreSQL: {url}", flush=True)
        return run("-m", "pytest", *options.pytest_args, env={"DATABASE_URL": url, "ADDICTION_REQUIRE_POSTGRES": "1"})


def lint(options: argparse.Namespace) -> int:
    """ruff's lint, ruff's format check, mypy, the import contracts and the boundaries they cannot
    see; every one runs, and any failure fails."""
    ensure_env("dev")
    results = [
        run("-m", "ruff", "check", "."),
        run("-m", "ruff", "format", "--check", "."),
        run("-m", "mypy"),  # what it checks, and how strictly: pyproject.toml, [tool.mypy]
        # The layers and the apps' boundaries: pyproject.toml, [tool.importlinter].
        subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=ROOT).returncode,
        # What imports cannot show: views that query, a games template that reaches into another app.
        run("-m", "pytest", "-q", "-n", "0", "tests/site/test_layers.py"),
    ]
    return max(results)


def lock(options: argparse.Namespace) -> int:
    """Write the lock files from pyproject.toml with uv, keeping the pinned versions unless told."""
    ensure_env("dev")  # uv comes from the dev lock
    for path, extras in LOCKS.items():
        command = [
            str(BIN / "uv"),
            "pip",
            "compile",
            "pyproject.toml",
            "--quiet",
            "--universal",
            "--python-version",
            "3.11",
            "--generate-hashes",
            "--custom-compile-command",
            "python3 dev.py lock",
            "--output-file",
            path,
        ]
        command += [arg for extra in extras for arg in ("--extra", extra)]
        if path != "requirements/base.txt":
            command += ["--constraint", "requirements/base.txt"]
        if options.upgrade:
            command.append("--upgrade")
        command += [arg for package in options.upgrade_package for arg in ("--upgrade-package", package)]
        if subprocess.run(command, cwd=ROOT).returncode:
            return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="run the site on SQLite at http://127.0.0.1:8000/")
    serve_parser.add_argument("address", nargs="?", default="127.0.0.1:8000")
    serve_parser.set_defaults(handler=serve)
    test_parser = commands.add_parser("test", help="run the test suite; other arguments go to pytest")
    test_parser.add_argument(
        "--postgres",
        action="store_true",
        help="run against a throwaway PostgreSQL cluster (needs initdb, pg_ctl, postgres) instead of SQLite",
    )
    test_parser.add_argument(
        "--quick", action="store_true", help="leave out the browser, crash, cluster and fuzz tests"
    )
    test_parser.set_defaults(handler=test)
    lint_help = "ruff (lint and format check), mypy and the import contracts"
    commands.add_parser("lint", help=lint_help).set_defaults(handler=lint)
    lock_parser = commands.add_parser("lock", help="write requirements/*.txt from pyproject.toml")
    lock_parser.add_argument("--upgrade", action="store_true", help="move every package to its newest allowed version")
    lock_parser.add_argument(
        "--upgrade-package",
        action="append",
        default=[],
        metavar="NAME",
        help="move one package (and what it needs) to its newest allowed version",
    )
    lock_parser.set_defaults(handler=lock)
    options, unknown = parser.parse_known_args()
    if options.command == "test":
        # pytest gets, in order, everything that follows "test" but our own option.
        ours = {"--postgres", "--quick"}
        options.pytest_args = [arg for arg in sys.argv[sys.argv.index("test") + 1 :] if arg not in ours]
    elif unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    return options.handler(options)


if __name__ == "__main__":
    sys.exit(main())
