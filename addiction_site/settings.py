"""Settings for the Addiction site, all from the environment and safe by default.

Environment variables (see README, "Deploy"):
  DJANGO_DEBUG          "1"/"true" for development; unset or anything else means production
      (manage.py alone sets it to 1 when none of DJANGO_DEBUG, DJANGO_SECRET_KEY,
      DJANGO_ALLOWED_HOSTS and DATABASE_URL is set: a development checkout's commands).
  DJANGO_SECRET_KEY     required when DJANGO_DEBUG is off.
  DJANGO_SECRET_KEY_FALLBACKS  comma-separated earlier keys, still believed after a rotation.
  DJANGO_ALLOWED_HOSTS  comma-separated host names (default: localhost only).
  DJANGO_CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://play.example.org
  DATABASE_URL          e.g. postgres://user:pass@host:5432/addiction; unset means SQLite.
  REDIS_URL             e.g. redis://127.0.0.1:6379/0: the shared cache (rate limits, kept replays)
      and the races' live fan-out (channels-redis); unset means Django's database cache and
      an in-process channel layer.
  ADDICTION_RACE_COUNTDOWN_SECONDS  the countdown before a live race's clocks start (default 5).
  ADDICTION_LIVE_RECHECK_SECONDS  how often a race's live stream reads the race again unasked
      (default 3 without Redis, 15 with).
  ADDICTION_RATE_*      the rate limits on costly requests, e.g. ADDICTION_RATE_START_ADDRESS=30/m
      (addiction_site/limits.py lists them).
  ADDICTION_DATA_DIR    where the SQLite file lives (default: ./var).
  ADDICTION_IDLE_CAP_SECONDS  the most one pause between two actions adds to a game's time.
  ADDICTION_ANALYSIS_BUDGET  positions each search of a finished game's analysis may visit (default 200000).
  ADDICTION_ANALYSIS_RETRY_BUDGET  positions the second search of a game's opening, or of a lost game's
      last stretch, may visit when the first did not decide it (default 1000000); the deep search
      (ADDICTION_DEEP_BUDGET) then looks for a win from its start.
  ADDICTION_DEEP_BUDGET  positions the background search for a win from a stretch's start, or from
      where a hint leads, may visit (default 5000000 with the compiled search core, 1000000 with the
      pure-Python one).
  ADDICTION_REQUEST_SEARCH_BUDGET  positions a hint's request may spend on that search itself before
      its own (default 100000 with the compiled search core, 0 with the pure-Python one).
  ADDICTION_SEARCHES_PER_STRETCH  background searches a game's stretch may ask for (default 4).
  ADDICTION_PUZZLES_FIRST  puzzles the worker builds from fresh deals while the site has fewer (default 300; 0: none).
  ADDICTION_TASKS_BACKEND  the tasks backend (default django_tasks_db.DatabaseBackend: a table,
      run by `manage.py db_worker`).
  ADDICTION_MAX_GAMES_IN_PROGRESS  games one player (account or guest) may have in progress (default 50).
  ADDICTION_MAX_PENDING_ANALYSES  analyses of one player's games that may wait for the worker at once (default 5).
  ADDICTION_MAX_PENDING_ANALYSES_PER_ADDRESS  analyses of games from one address waiting at once (default 10).
  ADDICTION_MAX_PENDING_SEARCHES_PER_ADDRESS  hints' searches asked from one address waiting at once (default 3).
  ADDICTION_REVIEW_TOP        the first places of a board a win enters only once reviewed (default 10; 0: none).
  ADDICTION_SQLITE_SYNCHRONOUS  NORMAL (default) or FULL, SQLite's durability.
  ADDICTION_PROXY_HOPS  how many proxies of ours append to X-Forwarded-For (default 0).
  ADDICTION_LOGIN_FAILURE_LIMIT, ADDICTION_LOGIN_COOLOFF_MINUTES  the login lock.
  ADDICTION_LOGIN_ADDRESS_FAILURE_LIMIT  failed logins from one address, any user names, that lock it.
  ADDICTION_SIGNUPS_PER_HOUR  accounts one address may create in an hour.
  ADDICTION_PASSWORD_RESETS_PER_HOUR  password reset mails one address may ask for in an hour.
  ADDICTION_GUEST_UNPLAYED_DAYS, ADDICTION_GUEST_IDLE_DAYS, ADDICTION_LOGIN_RECORD_DAYS  the
      ages after which `manage.py housekeeping` removes guests' games never played (1), guests'
      games untouched (365), and django-axes' login records (30).
  ADDICTION_STATIC_ROOT  where collectstatic writes.
  DJANGO_CONN_MAX_AGE, DJANGO_LOG_LEVEL  database connection reuse, logging.
  DJANGO_DISABLE_SERVER_SIDE_CURSORS  "1" behind PgBouncer in transaction mode.
  DJANGO_LOG_FORMAT     text (default) or json: one JSON object a log line.
  SENTRY_DSN            report errors to Sentry (needs sentry-sdk, requirements/sentry.txt).
  DJANGO_SECURE_SSL_REDIRECT, DJANGO_HSTS_SECONDS  HTTPS behaviour in production.
  DJANGO_EMAIL_URL      e.g. smtp://user:pass@host:587?tls=1, or console: (addiction_site/mail.py);
      or Django's EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS,
      EMAIL_USE_SSL.  Unset: the console in development, no mail in production.
  DEFAULT_FROM_EMAIL    the sender of the site's mails.
  ADDICTION_METRICS_NETWORKS  comma-separated networks allowed to read /metrics (default loopback).
  ADDICTION_WORKER_METRICS_BIND  host:port where `manage.py db_worker` serves its own figures.
  ADDICTION_OPERATOR_NAME, ADDICTION_OPERATOR_EMAIL  who runs the site, and where players write
      about their data (the privacy page; `check --deploy` warns without the address).
"""

import base64
import hashlib
import os
import re
from datetime import date, timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from addiction_site.logs import logging_config, start_sentry
from addiction_site.mail import mail_settings

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY (or DJANGO_DEBUG=1 for development).")
    SECRET_KEY = "development-only-not-secret"

# Rotating the key (docs/OPERATIONS.md): the old one stays a fallback for a while, so that what
# it signed (sessions, guests' cookies, mailed links) is still believed, while everything new
# is signed with the new one.
SECRET_KEY_FALLBACKS = env_list("DJANGO_SECRET_KEY_FALLBACKS")

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",  # first: its runserver serves the site over ASGI, so a race's live stream streams in development
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "django_prometheus",
    # The site's own apps, one per domain, each importing only those listed above it here
    # (pyproject.toml, [tool.importlinter], holds them to it).
    "games",
    "records",
    "daily",
    "accounts",
    "races",
    "puzzles",
]

MIDDLEWARE = [
    "addiction_site.logs.RequestContextMiddleware",  # each request's id, in its log lines and its answer
    "addiction_site.health.HealthCheckMiddleware",  # /healthz runs nothing else (addiction_site/health.py)
    "addiction_site.metrics.MetricsMiddleware",  # /metrics, to the operator's network only (addiction_site/metrics.py)
    "django_prometheus.middleware.PrometheusBeforeMiddleware",  # counts and times every other request
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # every answer, the error pages and static files included
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "addiction_site.request_body.RequestBodyMiddleware",  # after Locale (a translated 400), before body readers
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.gzip.GZipMiddleware",  # every answer the browser takes gzipped: README, "Compression"
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "addiction_site.ownership.OwnerMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

# The Content-Security-Policy (django-csp): the pages load scripts, styles, images and fonts
# from the site alone, and no inline script or style (the templates have none; htmx's own
# indicator style is turned off in base.html); no page may be framed, no form post elsewhere.
# The admin is Django's: its pages keep Django's own headers and no CSP of ours.


def _style_hash(template: Path) -> str:
    """The CSP source that allows the one <style> of ``template``: the 500 page stands alone,
    without the stylesheet (a server error may come from the static files themselves)."""
    style = re.search(r"<style>(.*?)</style>", template.read_text(encoding="utf-8"), re.S)
    digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode() if style else ""
    return f"'sha256-{digest}'"


CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/admin/"],
    "DIRECTIVES": {
        "default-src": [SELF],
        "style-src": [SELF, _style_hash(BASE_DIR / "templates" / "500.html")],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

# Request bodies are small by design.  The largest a player posts is the language form,
# whose hidden "next" holds the page's address: under 7 KB even for the longest address
# gunicorn takes; a sign-up with every field at its longest is under 1 KB
# (tests/abuse/test_bad_requests.py).  The admin's largest, an action on a changelist page
# of 100 rows, is about 3 KB and 105 fields; the game's own forms have at most 6 fields.
# A bigger body, or more fields, is refused with a 400 (RequestDataTooBig,
# TooManyFieldsSent); addiction_site/request_body.py reads every form body in full first, so the
# size limit holds for multipart bodies too, files included.
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 150
# No page takes a file: a multipart body with a file in it is refused (TooManyFilesSent, a
# 400).  Were that ever relaxed, a file would still be kept in memory, up to 16 KB, and
# never written to a temporary file on disk.
DATA_UPLOAD_MAX_NUMBER_FILES = 0
FILE_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]

ROOT_URLCONF = "addiction_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

WSGI_APPLICATION = "addiction_site.wsgi.application"
# The same site over ASGI (addiction_site/asgi.py): daphne serves it to the races' live streams
# (deploy/addiction-live@.service) and to `manage.py runserver`.
ASGI_APPLICATION = "addiction_site.asgi.application"

DATA_DIR = Path(os.environ.get("ADDICTION_DATA_DIR", BASE_DIR / "var"))

# SQLite: WAL so readers never wait for the writer, IMMEDIATE so a writing transaction takes
# the lock up front (two deferred writers would otherwise fail at once with "database is
# locked"), and a busy timeout so waiting writers queue instead of failing.  synchronous
# NORMAL, the usual choice with WAL: a commit survives a crashed or killed process (the
# crash test kills the server mid-load), and the database stays consistent through a power
# cut, which may however take the last commits with it.  FULL syncs every commit to disk
# and keeps those too, at about a third of the moves per second on our machines.
SQLITE_SYNCHRONOUS = os.environ.get("ADDICTION_SQLITE_SYNCHRONOUS", "NORMAL").upper()
if SQLITE_SYNCHRONOUS not in {"FULL", "NORMAL"}:
    raise ImproperlyConfigured("ADDICTION_SQLITE_SYNCHRONOUS is FULL or NORMAL.")
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": f"PRAGMA journal_mode=WAL; PRAGMA synchronous={SQLITE_SYNCHRONOUS};",
}

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
        # PgBouncer in transaction mode hands each transaction a server connection of its
        # own, where a server-side cursor (what .iterator() uses on PostgreSQL) would not be
        # found on the next fetch: set this behind one (README, "Scaling").
        disable_server_side_cursors=env_flag("DJANGO_DISABLE_SERVER_SIDE_CURSORS"),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}
# django-prometheus's wrappers of Django's own backends count each query and its time (/metrics);
# ADDICTION_DATABASE_METRICS=0 keeps Django's own backends (benchmarks/README.md weighs the cost).
_MEASURED_BACKENDS = {
    "django.db.backends.sqlite3": "django_prometheus.db.backends.sqlite3",
    "django.db.backends.postgresql": "django_prometheus.db.backends.postgresql",
}
if env_flag("ADDICTION_DATABASE_METRICS", True):
    DATABASES["default"]["ENGINE"] = _MEASURED_BACKENDS.get(
        DATABASES["default"]["ENGINE"], DATABASES["default"]["ENGINE"]
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Two caches.  "default" is shared by every app server: the rate limits (addiction_site/limits.py,
# accounts/throttle.py) count in it, and finished games' replays are kept in it
# (games/replay.py).  It is Django's database cache (the table addiction_cache, made by a
# migration) unless REDIS_URL names a Redis server, then Django's own RedisCache.  "local", one
# per process, keeps the fragments of the game's actions ({% cache %} in
# games/templates/games/_status_live.html), keyed by everything they show, so a kept fragment is
# never out of date and costs no round trip.
REDIS_URL = os.environ.get("REDIS_URL", "")
_shared_cache: dict[str, object]
if REDIS_URL:
    _shared_cache = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
else:
    _shared_cache = {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "addiction_cache",
        "OPTIONS": {"MAX_ENTRIES": 200_000, "CULL_FREQUENCY": 4},
    }
CACHES = {
    "default": {**_shared_cache, "KEY_PREFIX": "addiction"},
    "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 5000}},
}
# Channels' channel layer carries a race's changes to its open streams (races/notices.py tells
# them, races/stream.py is each stream): in this process's memory unless REDIS_URL is set, then
# through Redis (channels-redis), so that a stream on one app server hears a move played on
# another.  Without Redis a stream also reads the race again every
# ADDICTION_LIVE_RECHECK_SECONDS (races/stream.py), so that several processes on one machine
# still see each other's changes, later.
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "addiction:live", "expiry": 30, "capacity": 200},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 200}}}
# The countdown between a live race's start and its clocks' start (races/services.py).
ADDICTION_RACE_COUNTDOWN_SECONDS = int(os.environ.get("ADDICTION_RACE_COUNTDOWN_SECONDS", "5"))
ADDICTION_LIVE_RECHECK_SECONDS = float(os.environ.get("ADDICTION_LIVE_RECHECK_SECONDS", "15" if REDIS_URL else "3"))

# django-ratelimit warns of any cache but Memcached and Redis; the database cache is shared by
# every app server too, which is what the limits need (its increments are not atomic, so two
# requests at the same instant may both count as one: a limit may let one more through).
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
RATELIMIT_USE_CACHE = "default"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian")), ("es", _("Spanish")), ("hi", _("Hindi")), ("nl", _("Dutch"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("ADDICTION_STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # whitenoise's compressed, hashed copies, the game page's module imports pointed at the
    # hashed names (addiction_site/static_storage.py)
    "staticfiles": {"BACKEND": "addiction_site.static_storage.StaticFilesStorage"},
}

# A year from the last day played (addiction_site/ownership.py saves a signed-in player's session,
# and sends a guest's cookie again, once a day): games live as long as players come back.
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365
# The language chosen (Django's set_language view): no script reads it, and it goes with
# the site's own requests only (Secure in production, below).
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a login that is locked out before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Password guessing: the 5th failure for one user name from one address locks that pair
# out until 15 minutes have passed without another attempt (attempts during the lock
# restart it, so a guesser that keeps trying stays locked); a success resets the count.
# Keying on the pair, not the user name alone, means a stranger cannot lock a player out
# of their own account from elsewhere.
AXES_FAILURE_LIMIT = int(os.environ.get("ADDICTION_LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("ADDICTION_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Password spraying (a few guesses at each of many user names): the 30th failure from one
# address, whatever the user names, locks that address, counted and lifted like a pair's
# lock.  It holds back only that address; accounts/throttle.py says why this is a handler of
# ours rather than "ip_address" among axes' lockout parameters.
ADDICTION_LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("ADDICTION_LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
AXES_HANDLER = "accounts.throttle.AddressLockHandler"
AXES_LOCKOUT_CALLABLE = "accounts.throttle.lockout_response"  # the 429 page, saying which lock holds
# Only failures are recorded (AccessAttempt, which the lock counts); axes' log of every
# successful login is not kept.
AXES_DISABLE_ACCESS_LOG = True


# How many proxies in front of the app append the address they received from to
# X-Forwarded-For (nginx's $proxy_add_x_forwarded_for, Caddy's default).  0: the app is
# reached directly, and only REMOTE_ADDR is believed.  Behind one such proxy, set 1:
# otherwise every player seems to come from the proxy, and the login lock keyed on
# (user name, address) would become a lock on the user name alone.
ADDICTION_PROXY_HOPS = int(os.environ.get("ADDICTION_PROXY_HOPS", "0"))


def client_address(request) -> str | None:
    """The player's address: REMOTE_ADDR, or the entry our own proxies wrote in X-Forwarded-For.

    Entries to the left of those are the client's to write, so they are never believed.
    """
    if ADDICTION_PROXY_HOPS:
        hops = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(hops) >= ADDICTION_PROXY_HOPS:
            return hops[-ADDICTION_PROXY_HOPS]
    return request.META.get("REMOTE_ADDR")


AXES_CLIENT_IP_CALLABLE = client_address


def axes_username(request, credentials=None):
    """The user name axes records for a failed login, cut to its 255-character column.

    Django's login forms do not limit the length, and a longer name failed to save on
    PostgreSQL (a 500).  No account has a name that long, so nothing real is cut.
    """
    username = (credentials or getattr(request, "data", request.POST)).get("username")
    return username[:255] if isinstance(username, str) else username


AXES_USERNAME_CALLABLE = axes_username

# Accounts one address may create in any hour (accounts/throttle.py), counted in the shared cache.
ADDICTION_SIGNUPS_PER_HOUR = int(os.environ.get("ADDICTION_SIGNUPS_PER_HOUR", "10"))
# Password reset mails one address may ask for in any hour, counted the same way.
ADDICTION_PASSWORD_RESETS_PER_HOUR = int(os.environ.get("ADDICTION_PASSWORD_RESETS_PER_HOUR", "5"))

# The rate limits on costly requests (addiction_site/limits.py): per address and per owner,
# each "" (none) or rates as django-ratelimit reads them ("count/period", s m h d), several
# separated by commas.  A start by a browser with no guest cookie makes a new guest: those are
# counted by address ("new_guest"), since a script that drops its cookie is a new guest each
# time; any other start by its owner ("start"), so that players sharing one address (a school,
# a mobile carrier's NAT) are not held back by each other.  Hints, verdicts, and replays or
# verifications not yet kept, search or replay a whole log: by owner, and generously by address.
_DEFAULT_RATES = {
    "new_guest": ("30/m,200/d", ""),
    "start": ("", "12/m,200/d"),
    "hint": ("240/m", "60/m"),
    "verdict": ("60/m", "10/m"),
    "replay": ("120/m", "20/m"),
    "puzzle": ("600/m", "120/m"),  # a puzzle's moves and starts: each move is a bounded search
}
ADDICTION_RATES = {
    kind: (
        os.environ.get(f"ADDICTION_RATE_{kind.upper()}_ADDRESS", by_address),
        os.environ.get(f"ADDICTION_RATE_{kind.upper()}_OWNER", by_owner),
    )
    for kind, (by_address, by_owner) in _DEFAULT_RATES.items()
}

# What `manage.py housekeeping` (hourly from cron, see README) removes, by age in days: guests'
# games never played, guests' games untouched (last action, or creation), finished or not, and
# django-axes' records of logins.  Games of accounts are never removed.
ADDICTION_GUEST_UNPLAYED_DAYS = int(os.environ.get("ADDICTION_GUEST_UNPLAYED_DAYS", "1"))
ADDICTION_GUEST_IDLE_DAYS = int(os.environ.get("ADDICTION_GUEST_IDLE_DAYS", "365"))
ADDICTION_LOGIN_RECORD_DAYS = int(os.environ.get("ADDICTION_LOGIN_RECORD_DAYS", "30"))

# Who may read /metrics (addiction_site/metrics.py): the networks a scrape may come from, as
# the app server sees its client (nginx, or Prometheus calling the app server directly).
ADDICTION_METRICS_NETWORKS = env_list("ADDICTION_METRICS_NETWORKS", "127.0.0.0/8,::1/128")
# A background worker's own figures (what it analysed and searched), served on this address by
# `manage.py db_worker` alone: set it in the worker's unit (deploy/addiction-worker.service).
ADDICTION_WORKER_METRICS_BIND = os.environ.get("ADDICTION_WORKER_METRICS_BIND", "")

# Who runs the site and answers for players' data: named on the privacy page.
ADDICTION_OPERATOR_NAME = os.environ.get("ADDICTION_OPERATOR_NAME", "")
ADDICTION_OPERATOR_EMAIL = os.environ.get("ADDICTION_OPERATOR_EMAIL", "")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"

# Mail carries password reset, address confirmation and address change links, nothing else.  Without mail settings
# production sends nothing: those pages say mail is not set up (a 503) rather than pretend.
_mail = mail_settings(os.environ, debug=DEBUG)
EMAIL_BACKEND = _mail.backend
EMAIL_HOST, EMAIL_PORT = _mail.host, _mail.port
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _mail.user, _mail.password
EMAIL_USE_TLS, EMAIL_USE_SSL = _mail.use_tls, _mail.use_ssl
EMAIL_TIMEOUT = 10  # seconds: a mail server that hangs must not hold a worker for long
ADDICTION_MAIL_CONFIGURED = _mail.configured
# The sender of the site's mails: DEFAULT_FROM_EMAIL, or "Addiction <noreply@HOST>" for the
# first host name the site serves (mail servers refuse webmaster@localhost, Django's default).
_mail_host = next(
    (host.lstrip(".") for host in ALLOWED_HOSTS if host not in ("*", "localhost", "127.0.0.1", "[::1]")), ""
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or (  # empty, as compose passes an unset one: the default
    f"Addiction <noreply@{_mail_host}>" if _mail_host else "Addiction <noreply@localhost>"
)

# Production hardening; each can be relaxed by environment for a setup behind a TLS proxy.
if not DEBUG:
    if ADDICTION_PROXY_HOPS:  # only a proxy of ours may say the request came over https
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_flag("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

# Each line with its time, level and logger; one JSON object a line with DJANGO_LOG_FORMAT=json.
LOGGING = logging_config(os.environ.get("DJANGO_LOG_FORMAT", "text"), os.environ.get("DJANGO_LOG_LEVEL", "WARNING"))
# Error reports, if sentry-sdk (the optional `sentry` extra) is installed.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    start_sentry(SENTRY_DSN)

# Guest cookies from before they were signed (addiction_site/ownership.py) are accepted, and
# re-issued signed, until this day (ISO); from it on, an unsigned one is a new guest.
ADDICTION_GUEST_UNSIGNED_UNTIL = date.fromisoformat(os.environ.get("ADDICTION_GUEST_UNSIGNED_UNTIL", "2027-03-01"))

# The game's own settings.
ADDICTION_IDLE_CAP_SECONDS = int(os.environ.get("ADDICTION_IDLE_CAP_SECONDS", "120"))
# A day's daily seed, and that day's replays, are revealed this long after the UTC day ends
# (games/models.py, daily_revealed): ranked dailies stop counting at midnight, and this
# outlasts any request in flight then.
ADDICTION_DAILY_REVEAL_GRACE_SECONDS = int(os.environ.get("ADDICTION_DAILY_REVEAL_GRACE_SECONDS", "600"))
# The background work (games/background.py, games/tasks.py): each search of a finished game's
# analysis, and the search for a win from the position a stretch's first hint was asked at,
# within these many positions, so that their answers are the same on every machine.  Run by
# Django's tasks framework (the django-tasks backport): a table of tasks that
# `manage.py db_worker` takes one by one; the tests run each task at once.
ADDICTION_ANALYSIS_BUDGET = int(os.environ.get("ADDICTION_ANALYSIS_BUDGET", "200000"))
ADDICTION_ANALYSIS_RETRY_BUDGET = int(os.environ.get("ADDICTION_ANALYSIS_RETRY_BUDGET", "1000000"))
# None: the solver's own defaults for its core (games/solver.py, DEEP_BUDGET and REQUEST_SEARCH_BUDGET;
# games/background.py reads them).
ADDICTION_DEEP_BUDGET = int(os.environ["ADDICTION_DEEP_BUDGET"]) if os.environ.get("ADDICTION_DEEP_BUDGET") else None
ADDICTION_REQUEST_SEARCH_BUDGET = (
    int(os.environ["ADDICTION_REQUEST_SEARCH_BUDGET"]) if os.environ.get("ADDICTION_REQUEST_SEARCH_BUDGET") else None
)
ADDICTION_SEARCHES_PER_STRETCH = int(os.environ.get("ADDICTION_SEARCHES_PER_STRETCH", "4"))
# A new site's first puzzles (docs/RULES.md, "Puzzles"): while it keeps fewer, the hourly
# housekeeping asks the worker to search fresh deals for them (puzzles/tasks.py).
ADDICTION_PUZZLES_FIRST = int(os.environ.get("ADDICTION_PUZZLES_FIRST", "300"))
TASKS = {
    "default": {
        "BACKEND": os.environ.get("ADDICTION_TASKS_BACKEND", "django_tasks_db.DatabaseBackend"),
        "QUEUES": ["default"],
    }
}
# Games in progress per player: starting one more drops their oldest game not played yet,
# or is refused (games/services.py, game_start).  Bounds what one player can store.
ADDICTION_MAX_GAMES_IN_PROGRESS = int(os.environ.get("ADDICTION_MAX_GAMES_IN_PROGRESS", "50"))
ADDICTION_MAX_PENDING_ANALYSES = int(os.environ.get("ADDICTION_MAX_PENDING_ANALYSES", "5"))
# ...and of games started from one address (guests are many to an address), and the hints'
# background searches one address may have waiting (games/background.py).
ADDICTION_MAX_PENDING_ANALYSES_PER_ADDRESS = int(os.environ.get("ADDICTION_MAX_PENDING_ANALYSES_PER_ADDRESS", "10"))
ADDICTION_MAX_PENDING_SEARCHES_PER_ADDRESS = int(os.environ.get("ADDICTION_MAX_PENDING_SEARCHES_PER_ADDRESS", "3"))
# The review before the top (docs/RULES.md): a win that would enter a board's first this many
# places waits for review unless the evidence on it clears it (records/selectors.py).
ADDICTION_REVIEW_TOP = int(os.environ.get("ADDICTION_REVIEW_TOP", "10"))
