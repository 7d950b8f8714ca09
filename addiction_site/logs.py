"""The site's logs: each line with its time, level and logger, as JSON lines if DJANGO_LOG_FORMAT=json
(python-json-logger), with the request's id and user id when a request is being served;
and error reports to Sentry when SENTRY_DSN is set and sentry-sdk is installed."""

from __future__ import annotations

import contextvars
import logging
import re
import time
import uuid
from datetime import UTC, datetime

import pythonjsonlogger.core
import pythonjsonlogger.json
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

FORMATS = ("text", "json")
TEXT = "%(asctime)s %(levelname)s %(name)s %(message)s"


class JsonFormatter(pythonjsonlogger.json.JsonFormatter):
    """python-json-logger's formatter, one JSON object a line: time (UTC, ISO 8601), level,
    logger, message; the request's id and user id in a request (:class:`RequestContext`); the
    status code Django's request loggers give; any traceback, on the same line."""

    def __init__(self, *args, **kwargs):
        super().__init__(
            "%(asctime)s %(levelname)s %(name)s %(message)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger", "exc_info": "exception"},
            # Django's request loggers pass the request itself, and runserver its own time: not for the log.
            reserved_attrs=[*pythonjsonlogger.core.RESERVED_ATTRS, "request", "server_time", "taskName"],
            json_ensure_ascii=False,
        )

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802  (logging's name)
        return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


# --------------------------------------------------------------------------- the request a line is about

_current: contextvars.ContextVar[HttpRequest | None] = contextvars.ContextVar("addiction_request", default=None)
REQUEST_ID_HEADER = "X-Request-ID"
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


class RequestContextMiddleware:
    """Gives each request an id (nginx's ``$request_id`` from X-Request-ID, deploy/nginx.conf.template,
    or a new one), said back in the answer's X-Request-ID, and keeps the request at hand for
    :class:`RequestContext` while it is served."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(REQUEST_ID_HEADER, "")
        request.id = given if _SANE_ID.fullmatch(given) else uuid.uuid4().hex  # type: ignore[attr-defined]
        # Kept until the request is finished (below), not only while the middleware runs:
        # Django logs an answer's status ("Not Found: ...") after the last middleware returns.
        _current.set(request)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request.id  # type: ignore[attr-defined]
        return response


def _request_done(**kwargs) -> None:
    _current.set(None)


request_finished.connect(_request_done, dispatch_uid="addiction_site.logs.request_done")


class RequestContext(logging.Filter):
    """Adds ``request_id`` and ``user_id`` (the signed-in player's, once the site knows who
    it is: addiction_site.ownership) to a line logged while a request is served."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = _current.get()
        if request is not None:
            record.request_id = getattr(request, "id", None)
            owner = getattr(request, "owner", None)
            record.user_id = getattr(owner, "user_id", None)
        return True


class OneLineWarning(logging.Filter):
    """A request for a host the site does not serve is the client's mistake, or a scanner's:
    one WARNING line that names the host, not an ERROR with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = None
        return True


class AsgiAccessLog:
    """daphne's access log, through the site's logging (issue 46): one INFO line of the logger
    ``addiction.access`` per HTTP request the ASGI application ends (a race's stream when it
    closes), with its method, path, status, time and nginx's request id, as gunicorn's access
    log has for the rest, so one id ties nginx's, gunicorn's, daphne's and the site's lines."""

    def __init__(self, application):
        self.application = application
        self.logger = logging.getLogger("addiction.access")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.application(scope, receive, send)
        started, status = time.monotonic(), {"code": 0}

        async def sending(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            await self.application(scope, receive, sending)
        finally:
            headers = dict(scope.get("headers") or [])
            given = headers.get(b"x-request-id", b"").decode("latin-1")
            self.logger.info(
                '"%s %s" %s %.0fms',
                scope.get("method", ""),
                scope.get("path", ""),
                status["code"],
                (time.monotonic() - started) * 1000,
                extra={
                    "request_id": given if _SANE_ID.fullmatch(given) else None,
                    "status_code": status["code"],
                    "duration_ms": round((time.monotonic() - started) * 1000),
                },
            )


class NotFoundAtInfo(logging.Filter):
    """A 404 (a stale link, a scanner's guess) is no warning: Django's "Not Found" line becomes an
    INFO line, kept only where the site logs at INFO (DJANGO_LOG_LEVEL).  Other 4xx stay warnings."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) != 404:
            return True
        record.levelno, record.levelname = logging.INFO, "INFO"
        return logging.getLogger().isEnabledFor(logging.INFO)


def formatter(log_format: str) -> dict:
    """The logging.config entry of the formatter for ``log_format`` (text or json)."""
    if log_format not in FORMATS:
        raise ImproperlyConfigured(f"DJANGO_LOG_FORMAT is text or json, not {log_format!r}.")
    if log_format == "json":
        return {"()": f"{__name__}.JsonFormatter"}
    return {"format": TEXT}


def logging_config(log_format: str, level: str) -> dict:
    """settings.LOGGING: every record at ``level`` or above, to standard error, in ``log_format``."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"site": formatter(log_format)},
        "filters": {
            "one_line_warning": {"()": f"{__name__}.OneLineWarning"},
            "not_found_at_info": {"()": f"{__name__}.NotFoundAtInfo"},
            "request_context": {"()": f"{__name__}.RequestContext"},
        },
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": "site", "filters": ["request_context"]}
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Django's own console handler on "django" (development only) would say each line a
            # second time, beside the root's: its records go to the root's handler alone.
            "django": {"handlers": [], "propagate": True},
            "django.security.DisallowedHost": {"filters": ["one_line_warning"]},
            "django.request": {"filters": ["not_found_at_info"]},
            # daphne's requests (AsgiAccessLog), one INFO line each whatever the site's level.
            "addiction.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
        },
    }


def start_sentry(dsn: str) -> bool:
    """Report errors to Sentry, if sentry-sdk is installed (the optional `sentry` extra); else say so."""
    try:
        import sentry_sdk
    except ImportError:
        logging.getLogger(__name__).warning(
            "SENTRY_DSN is set but sentry-sdk is not installed (requirements/sentry.txt): errors are not reported"
        )
        return False
    # Errors only, without the players' addresses, cookies or user names (send_default_pii off).
    sentry_sdk.init(dsn=dsn, send_default_pii=False, traces_sample_rate=0.0)
    return True
