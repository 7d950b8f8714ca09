"""Follow the README's deploy steps word for word on a fresh clone, then play through gunicorn.

Run: python3 scripts/deploy_check.py            # a throwaway PostgreSQL cluster (CI does this)
     python3 scripts/deploy_check.py --sqlite   # SQLite in the temporary folder

It clones the repository's committed HEAD into a temporary folder (uncommitted changes are not
in it, as they would not be in an operator's clone), then runs the README's block between
``<!-- deploy-steps -->`` and ``<!-- /deploy-steps -->`` as it is written, with bash, in the
clone: a fresh virtual environment from the lock file, the deploy check, migrate,
collectstatic, and gunicorn in the foreground with deploy/gunicorn.conf.py.  The environment
is what an operator's would be: production settings (no DJANGO_DEBUG, a new secret key,
DJANGO_ALLOWED_HOSTS, DATABASE_URL, ADDICTION_PROXY_HOPS=1, the operator's name and address)
and ADDICTION_BIND on a free loopback port; nothing of the project's own environment is passed on.

Once gunicorn answers, the client plays the part of the TLS proxy in front (X-Forwarded-Proto
and X-Forwarded-For, as deploy/nginx.conf.template sends them) and a browser behind it: the home page,
its stylesheet, /healthz, a deal's page, the POST that starts its game (with the CSRF cookie
and header) and the game page it is sent to; and a request without the proxy's headers is
sent to https.  Exit status 0 when every step and check passed.  Only the standard library is
used, so any python3 can run it.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.throwaway_postgres import available, throwaway_postgres  # noqa: E402

BEGIN, END = "<!-- deploy-steps -->", "<!-- /deploy-steps -->"
STARTUP_SECONDS = 600  # a fresh virtual environment downloads every package of the lock


class CheckFailed(Exception):
    pass


def deploy_steps(readme: str) -> str:
    """The shell commands of the README's marked block, as they are written."""
    try:
        block = readme.split(BEGIN, 1)[1].split(END, 1)[0]
    except IndexError:
        raise CheckFailed(f"README.md has no block between {BEGIN} and {END}") from None
    fenced = re.fullmatch(r"\s*```sh\n(.*?)```\s*", block, re.DOTALL)
    if fenced is None:
        raise CheckFailed("the README's deploy steps are not one ```sh block")
    return fenced[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def operator_env(database_url: str, port: int) -> dict[str, str]:
    """The environment of an operator's shell that loaded the site's settings (README, "Deploy")."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "ADDICTION_", "DATABASE_URL", "SENTRY_", "VIRTUAL_ENV", "PYTHON"))
    }
    env.update(
        {
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": database_url,
            "ADDICTION_PROXY_HOPS": "1",
            "ADDICTION_OPERATOR_NAME": "Example Games Ltd",
            "ADDICTION_OPERATOR_EMAIL": "privacy@example.org",
            "ADDICTION_BIND": f"127.0.0.1:{port}",
            "ADDICTION_WORKERS": "2",
        }
    )
    return env


class Browser:
    """A browser behind the TLS proxy: its cookies, and the headers the proxy adds."""

    def __init__(self, port: int):
        self.port = port
        self.origin = f"https://127.0.0.1:{port}"
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, *, proxied: bool = True, headers: dict | None = None):
        """One request; returns (status, headers, text).  Secure cookies are kept: TLS is the proxy's."""
        sent = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())}
        if proxied:
            sent.update({"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"})
        sent.update(headers or {})
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, headers=sent)
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        for line in response.headers.get_all("Set-Cookie") or []:
            self.cookies.update({name: morsel.value for name, morsel in SimpleCookie(line).items()})
        return response.status, response.headers, text


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise CheckFailed(what)
    print(f"ok  {what}", flush=True)


def play(port: int) -> None:
    """The checks, through gunicorn as the proxy would pass them on."""
    browser = Browser(port)
    status, _headers, home = browser.request("GET", "/")
    expect(status == 200 and "<html" in home, "GET / answers the home page")
    stylesheet = re.search(r'<link rel="stylesheet" href="(/static/games/site\.[0-9a-f]+\.css)"', home)
    expect(stylesheet is not None, "the home page links its stylesheet by its hashed name (collectstatic's manifest)")
    css = stylesheet[1] if stylesheet else ""
    status, headers, _css = browser.request("GET", css)
    expect(status == 200 and "text/css" in headers.get("Content-Type", ""), f"GET {css} is served by whitenoise")
    status, _headers, _text = browser.request("GET", "/healthz")
    expect(status == 200, "GET /healthz answers 200: the database answers")
    status, _headers, _text = browser.request("GET", "/deal/1/")
    expect(status == 200 and "csrftoken" in browser.cookies, "GET /deal/1/ answers the deal's page and its CSRF cookie")
    status, headers, _text = browser.request(
        "POST",
        "/deal/1/start/",
        headers={
            "X-CSRFToken": browser.cookies["csrftoken"],
            "Origin": browser.origin,
            "Referer": f"{browser.origin}/deal/1/",
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": "0",
        },
    )
    location = headers.get("Location", "")
    expect(
        status == 302 and re.fullmatch(r"/game/\d+/", location) is not None,
        f"POST /deal/1/start/ starts the game and sends the browser to it ({status} {location})",
    )
    status, _headers, game = browser.request("GET", location)
    expect(
        status == 200 and 'id="grid"' in game and 'data-status="playing"' in game,
        f"GET {location} answers the game page with its table",
    )
    status, headers, _text = browser.request("GET", "/", proxied=False)
    expect(
        status == 301 and headers.get("Location", "").startswith("https://"),
        "a request that did not come through the TLS proxy is sent to https",
    )


def wait_until_up(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CheckFailed(f"the deploy steps stopped with exit status {process.returncode}")
        with contextlib.suppress(OSError):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/healthz", headers={"X-Forwarded-Proto": "https"})
            connection.getresponse().read()
            connection.close()
            return
        time.sleep(0.5)
    raise CheckFailed(f"gunicorn did not answer within {STARTUP_SECONDS} s")


@contextlib.contextmanager
def database(sqlite: bool, tmp: Path) -> Iterator[str]:
    if sqlite:
        yield f"sqlite:///{tmp / 'db.sqlite3'}"
        return
    if not available():
        raise CheckFailed("PostgreSQL server programs (initdb, pg_ctl, postgres) not found; or use --sqlite")
    with throwaway_postgres() as url:
        yield url


def check(sqlite: bool) -> None:
    steps = deploy_steps((ROOT / "README.md").read_text())
    print("The README's deploy steps:\n" + "".join(f"    {line}\n" for line in steps.splitlines()), flush=True)
    with tempfile.TemporaryDirectory(prefix="addiction-deploy-") as tmp_name:
        tmp = Path(tmp_name)
        checkout, log = tmp / "addiction", tmp / "deploy.log"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(checkout)], check=True)
        with database(sqlite, tmp) as url:
            port = free_port()
            with log.open("w") as output:
                process = subprocess.Popen(
                    ["bash", "-euo", "pipefail", "-c", steps],
                    cwd=checkout,
                    env=operator_env(url, port),
                    stdout=output,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    stdin=subprocess.DEVNULL,
                )
            try:
                wait_until_up(port, process, log)
                play(port)
            except CheckFailed:
                print(f"---- the steps' output (last 60 lines of {log.name}):", file=sys.stderr)
                print("\n".join(log.read_text().splitlines()[-60:]), file=sys.stderr)
                raise
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)  # gunicorn's master and workers: our own group
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
            access = [line for line in log.read_text().splitlines() if '"GET /deal/1/ HTTP/1.1" 200' in line]
            expect(bool(access), "gunicorn wrote its access log")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sqlite", action="store_true", help="SQLite in the temporary folder instead of PostgreSQL")
    args = parser.parse_args()
    try:
        check(args.sqlite)
    except CheckFailed as failure:
        print(f"FAILED  {failure}", file=sys.stderr)
        return 1
    print("The README's deploy steps work on a fresh clone.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
