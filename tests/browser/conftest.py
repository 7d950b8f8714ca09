"""Browser tests: Debian's Chromium, driven by Playwright, against pytest-django's live server.

Every test here is marked ``browser``.  Without Chromium they are skipped, unless
ADDICTION_REQUIRE_BROWSER=1 (CI), which makes a missing browser an error and fails the
run when no browser test passed at all (skipped, deselected, or never reached).
ADDICTION_CHROMIUM points at another Chromium (or at nothing, to try those paths).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.test.utils import override_settings
from pytest_django.live_server_helper import LiveServer

# Playwright's sync API runs an asyncio loop in the test thread, so Django would refuse the
# test's own ORM calls (and the database flush after each test) as "async unsafe".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

HERE = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("ADDICTION_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("ADDICTION_REQUIRE_BROWSER") == "1"
# Playwright cannot download its own browser on these machines; Debian's needs these flags
# to run as root, headless, and without phoning home.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# How many browser tests passed in this run; the run fails when ADDICTION_REQUIRE_BROWSER=1 and none did.
passed = 0


def chromium_found() -> bool:
    return os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)


@pytest.hookimpl(tryfirst=True)  # mark before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)
            if not REQUIRED and not chromium_found():
                item.add_marker(skip)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    global passed
    if report.when == "call" and report.passed and "browser" in report.keywords:
        passed += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if REQUIRED and not passed and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:
    if REQUIRED and not passed:
        terminalreporter.write_sep(
            "=", "ADDICTION_REQUIRE_BROWSER=1, but no browser test passed: the run fails", red=True, bold=True
        )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options, with Debian's Chromium in place of a downloaded one."""
    if not chromium_found():
        pytest.fail(f"ADDICTION_REQUIRE_BROWSER=1, but there is no Chromium at {CHROMIUM}", pytrace=False)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def live_server(request: pytest.FixtureRequest):
    """pytest-django's live server, answering plain HTTP.

    The settings are production-safe, so SECURE_SSL_REDIRECT would send Chromium to an
    https:// address the live server cannot answer.  SecurityMiddleware reads the setting
    once, when the server thread builds its handler, so the override need only last
    that long and leaves other tests' settings alone.  (Secure cookies are fine: Chromium
    keeps them for http://localhost.)
    """
    addr = request.config.getvalue("liveserver") or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS") or "localhost"
    with override_settings(SECURE_SSL_REDIRECT=False):
        server = LiveServer(addr)
    yield server
    server.stop()


@pytest.fixture
def page(page):
    """pytest-playwright's page, failing the test if the browser refused anything by the
    site's Content-Security-Policy (an inline style htmx or a template slipped in, say)."""
    refused: list[str] = []
    page.on(
        "console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None
    )
    yield page
    assert not refused, refused
