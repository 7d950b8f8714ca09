"""The site's logs: each line with its time, level and logger, as JSON lines if DJANGO_LOG_FORMAT=json;
and error reports to Sentry when SENTRY_DSN is set and sentry-sdk is installed."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from django.core.exceptions import ImproperlyConfigured

FORMATS = ("text", "json")
TEXT = "%(asctime)s %(levelname)s %(name)s %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, and any traceback."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        status_code = getattr(record, "status_code", None)  # Django's request loggers set it
        if isinstance(status_code, int):
            entry["status_code"] = status_code
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class OneLineWarning(logging.Filter):
    """A request for a host the site does not serve is the client's mistake, or a scanner's:
    one WARNING line that names the host, not an ERROR with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = None
        return True


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
        "filters": {"one_line_warning": {"()": f"{__name__}.OneLineWarning"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "site"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Django's own console handler on "django" (development only) would say each line a
            # second time, beside the root's: its records go to the root's handler alone.
            "django": {"handlers": [], "propagate": True},
            "django.security.DisallowedHost": {"filters": ["one_line_warning"]},
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
