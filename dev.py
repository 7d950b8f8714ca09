#!/usr/bin/env python3
"""One entry point for a fresh clone: `python3 dev.py serve` or `python3 dev.py test`.

It makes a virtual environment in .venv, installs the project into it (again only when
pyproject.toml changes), and then runs the site or the tests.  Needs Python 3.11+ only.
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


def ensure_env(extras: str) -> None:
    """Create .venv and install the project with ``extras`` unless that is already done."""
    if sys.version_info < (3, 11):
        sys.exit("Python 3.11 or newer is needed.")
    if not PYTHON.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    stamp = VENV / ".installed"
    if extras == "" and stamp.exists() and stamp.read_text().startswith("dev:"):
        return  # the dev install includes everything the site needs
    if stamp.exists() and stamp.read_text().split(":", 1)[-1] == wanted:
        return
    target = f".[{extras}]" if extras else "."
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "-e", target], check=True, cwd=ROOT)
    stamp.write_text(f"{extras}:{wanted}")


def run(*args: str, env: dict | None = None) -> int:
    return subprocess.run([str(PYTHON), *args], cwd=ROOT, env={**os.environ, **(env or {})}).returncode


def serve(options: argparse.Namespace) -> int:
    ensure_env("")
    env = {"DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "1")}
    if run("manage.py", "migrate", "--noinput", env=env):
        return 1
    return run("manage.py", "runserver", options.address, env=env)


def test(options: argparse.Namespace) -> int:
    ensure_env("dev")
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="run the site on SQLite at http://127.0.0.1:8000/")
    serve_parser.add_argument("address", nargs="?", default="127.0.0.1:8000")
    serve_parser.set_defaults(handler=serve)
    test_parser = commands.add_parser("test", help="run the test suite; other arguments go to pytest")
    test_parser.add_argument(
        "--postgres", action="store_true",
        help="run against a throwaway PostgreSQL cluster (needs initdb, pg_ctl, postgres) instead of SQLite",
    )
    test_parser.set_defaults(handler=test)
    options, unknown = parser.parse_known_args()
    if options.command == "test":
        # pytest gets, in order, everything that follows "test" but our own option.
        options.pytest_args = [arg for arg in sys.argv[sys.argv.index("test") + 1:] if arg != "--postgres"]
    elif unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    return options.handler(options)


if __name__ == "__main__":
    sys.exit(main())
