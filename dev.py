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
    return run("-m", "pytest", *options.pytest_args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="run the site on SQLite at http://127.0.0.1:8000/")
    serve_parser.add_argument("address", nargs="?", default="127.0.0.1:8000")
    serve_parser.set_defaults(handler=serve)
    test_parser = commands.add_parser("test", help="run the test suite (extra arguments go to pytest)")
    test_parser.add_argument("pytest_args", nargs=argparse.REMAINDER)
    test_parser.set_defaults(handler=test)
    options = parser.parse_args()
    return options.handler(options)


if __name__ == "__main__":
    sys.exit(main())
