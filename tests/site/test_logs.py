"""The site's log lines (addiction_site/logs.py): time, level and logger, as JSON with
DJANGO_LOG_FORMAT=json; and SENTRY_DSN, which needs the optional sentry-sdk."""

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from addiction_site.logs import JsonFormatter, RequestContext, formatter, logging_config, start_sentry

ROOT = Path(__file__).resolve().parents[2]


def record(message: str, *args, exc_info=None) -> logging.LogRecord:
    return logging.LogRecord("games.services", logging.WARNING, __file__, 1, message, args, exc_info)


def test_a_json_line_has_time_level_logger_and_message():
    line = JsonFormatter().format(record("game %s: %s", 12, "stale"))
    entry = json.loads(line)
    assert entry.keys() == {"time", "level", "logger", "message"}
    assert entry["level"] == "WARNING" and entry["logger"] == "games.services"
    assert entry["message"] == "game 12: stale"
    assert entry["time"].endswith("+00:00") and "T" in entry["time"]
    assert "\n" not in line


def test_a_json_line_carries_the_traceback_on_one_line():
    try:
        raise ValueError("broken\nin two lines")
    except ValueError:
        line = JsonFormatter().format(record("failed", exc_info=sys.exc_info()))
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["exception"].startswith("Traceback") and "ValueError: broken\nin two lines" in entry["exception"]


def test_the_formats_are_text_and_json_only():
    assert formatter("json") == {"()": "addiction_site.logs.JsonFormatter"}
    assert "%(levelname)s %(name)s" in formatter("text")["format"]
    with pytest.raises(ImproperlyConfigured):
        formatter("xml")
    assert logging_config("text", "INFO")["root"] == {"handlers": ["console"], "level": "INFO"}


def log_from_the_site(**env: str) -> subprocess.CompletedProcess:
    """A warning logged by a fresh interpreter with production settings and only the given project variables."""
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ADDICTION_", "DATABASE_URL", "SENTRY_"))
    }
    clean.update(DJANGO_SETTINGS_MODULE="addiction_site.settings", DJANGO_SECRET_KEY="tests-only-" + "x" * 50, **env)
    code = "import django, logging; django.setup(); logging.getLogger('games').warning('hello %s', 'there')"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)


def test_the_site_logs_json_lines_with_django_log_format_json(tmp_path):
    result = log_from_the_site(DJANGO_LOG_FORMAT="json", ADDICTION_DATA_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    entry = json.loads(result.stderr.strip().splitlines()[-1])
    assert (entry["level"], entry["logger"], entry["message"]) == ("WARNING", "games", "hello there")


def test_the_site_logs_text_lines_with_time_level_and_logger_by_default(tmp_path):
    result = log_from_the_site(ADDICTION_DATA_DIR=str(tmp_path))
    assert result.returncode == 0, result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert line.endswith(" WARNING games hello there") and line[:4].isdigit()


def test_sentry_starts_when_installed(monkeypatch):
    sentry_sdk = pytest.importorskip("sentry_sdk")
    calls = []
    monkeypatch.setattr(sentry_sdk, "init", lambda **options: calls.append(options))
    assert start_sentry("https://key@sentry.example.org/1")
    assert calls == [{"dsn": "https://key@sentry.example.org/1", "send_default_pii": False, "traces_sample_rate": 0.0}]


def test_without_sentry_sdk_a_dsn_is_a_warning_not_a_failure(monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "sentry_sdk", None)  # as if not installed: importing it fails
    assert not start_sentry("https://key@sentry.example.org/1")
    assert "sentry-sdk is not installed" in caplog.text


def test_a_json_line_keeps_the_status_code_djangos_request_loggers_give():
    entry = record("Not Found: %s", "/x")
    entry.status_code = 404
    assert json.loads(JsonFormatter().format(entry))["status_code"] == 404


def test_a_request_for_an_unknown_host_is_one_warning_line(tmp_path):
    """Issue 30: a scanner's Host header was a 15-line traceback at ERROR; it is one WARNING."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_URL"))}
    clean.update(
        DJANGO_SETTINGS_MODULE="addiction_site.settings",
        DJANGO_SECRET_KEY="tests-only-" + "x" * 50,
        DJANGO_SECURE_SSL_REDIRECT="0",
        ADDICTION_DATA_DIR=str(tmp_path),
        ADDICTION_STATIC_ROOT=str(tmp_path / "static"),
    )
    collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    subprocess.run(collect, cwd=ROOT, env=clean, check=True, capture_output=True, timeout=120)  # the 400 page's styles
    code = (
        "import django; django.setup(); from django.test import Client; "
        "print(Client().get('/', HTTP_HOST='scanner.example').status_code)"
    )
    command = [sys.executable, "-c", code]
    result = subprocess.run(command, cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "400", result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert " WARNING django.security.DisallowedHost " in lines[0] and "scanner.example" in lines[0]


def test_in_development_a_line_of_djangos_is_said_once(tmp_path):
    """Issue 30: under runserver (DEBUG) Django's own console handler said each line again."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_URL"))}
    clean.update(DJANGO_SETTINGS_MODULE="addiction_site.settings", DJANGO_DEBUG="1", ADDICTION_DATA_DIR=str(tmp_path))
    code = "import django, logging; django.setup(); logging.getLogger('django.request').warning('said once')"
    command = [sys.executable, "-c", code]
    result = subprocess.run(command, cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert len([line for line in result.stderr.splitlines() if "said once" in line]) == 1, result.stderr


class Lines(logging.Handler):
    """The JSON lines the site's console handler would write, kept."""

    def __init__(self):
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.addFilter(RequestContext())
        self.lines: list[dict] = []

    def emit(self, record):
        self.lines.append(json.loads(self.format(record)))


@pytest.fixture
def lines():
    handler = Lines()
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    yield handler.lines
    logger.removeHandler(handler)


@pytest.mark.django_db
def test_a_line_logged_in_a_request_names_the_request_and_the_player(client, lines, django_user_model):
    ada = django_user_model.objects.create_user("ada", password="plum-orchard-lantern-42")
    client.force_login(ada)
    response = client.put("/how-to-play/", HTTP_X_REQUEST_ID="edge-1234")  # a warning (a 404 is INFO)
    assert response.status_code == 405 and response["X-Request-ID"] == "edge-1234"  # nginx's id, said back
    (line,) = [line for line in lines if line["message"].startswith("Method Not Allowed")]
    assert line["request_id"] == "edge-1234" and line["user_id"] == ada.pk and line["status_code"] == 405
    assert "request" not in line  # Django's request object is not written out


@pytest.mark.django_db
def test_a_request_without_a_sane_id_gets_a_new_one(client, lines):
    response = client.put("/how-to-play/", HTTP_X_REQUEST_ID="no spaces or <tags> please")
    (line,) = [line for line in lines if line["message"].startswith("Method Not Allowed")]
    assert len(response["X-Request-ID"]) == 32 and line["request_id"] == response["X-Request-ID"]
    assert line["user_id"] is None  # a guest


def test_a_404_is_an_info_line_kept_only_at_info(tmp_path):
    """Issue 46: every stale link or scanner's guess was a WARNING line; a 404 is INFO now, and a
    405 (say) still a warning."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_URL"))}
    clean.update(DJANGO_SETTINGS_MODULE="addiction_site.settings", DJANGO_DEBUG="1", ADDICTION_DATA_DIR=str(tmp_path))
    code = (
        "import django; django.setup(); from django.test import Client; c = Client(); "
        "print(c.get('/no-such-page/', HTTP_HOST='localhost').status_code,"
        " c.put('/how-to-play/', HTTP_HOST='localhost').status_code)"
    )
    for level, says_404 in (("WARNING", False), ("INFO", True)):
        env = {**clean, "DJANGO_LOG_LEVEL": level}
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
        assert result.stdout.split() == ["404", "405"], result.stderr
        lines = [line for line in result.stderr.splitlines() if "django.request" in line]
        assert any(" WARNING django.request " in line and "/how-to-play/" in line for line in lines), lines
        found = [line for line in lines if "/no-such-page/" in line]
        assert (found and " INFO django.request " in found[0]) if says_404 else not found, (level, lines)


def test_daphne_s_requests_are_access_lines_of_the_site_with_nginx_s_id(caplog):
    """Issue 46: daphne, which serves the races' streams, wrote no access line at all."""
    import asyncio
    import threading

    from addiction_site.logs import AsgiAccessLog

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    scope = {"type": "http", "method": "GET", "path": "/race/abc/stream/", "headers": [(b"x-request-id", b"edge-77")]}
    with caplog.at_level(logging.INFO, logger="addiction.access"):
        # In a thread of its own: Playwright's loop may run in this one (a browser test before it).
        served = threading.Thread(target=lambda: asyncio.run(AsgiAccessLog(app)(scope, receive, send)))
        served.start()
        served.join()
    (line,) = [record for record in caplog.records if record.name == "addiction.access"]
    assert line.getMessage().startswith('"GET /race/abc/stream/" 204 ')
    assert (line.request_id, line.status_code, line.levelname) == ("edge-77", 204, "INFO")
    assert [message["type"] for message in sent] == ["http.response.start", "http.response.body"]  # passed on
