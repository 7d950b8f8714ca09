"""How the site sends e-mail (password reset and address change links), read from the environment.

``DJANGO_EMAIL_URL`` names everything in one variable; the standard library parses it
(urllib.parse, a few lines), so the lock of tested versions gains no package for it:

    smtp://user:password@mail.example.org:587?tls=1   STARTTLS (port 587 unless given)
    smtp://user:password@mail.example.org?ssl=1       TLS from the first byte (port 465)
    smtp://mail.example.org                           plain SMTP (port 25), e.g. a relay on the host
    console:                                          print mails to standard output

Characters such as ``@`` or ``:`` in the user name or password are percent-encoded
(``%40``, ``%3A``).  Django's usual ``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``,
``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS`` and ``EMAIL_USE_SSL`` work too, but not
together with the URL.  With neither, development prints mails to the console and
production sends none: the pages that would mail a link say that mail is not set up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"
TRUE, FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off", ""}


@dataclass(frozen=True)
class Mail:
    """Django's EMAIL_* settings, and whether the site can send mail at all (``configured``)."""

    backend: str = SMTP
    host: str = "localhost"
    port: int = 25
    user: str = ""
    password: str = ""
    use_tls: bool = False
    use_ssl: bool = False
    configured: bool = True


def _flag(name: str, value: str) -> bool:
    value = value.strip().lower()
    if value not in TRUE | FALSE:
        raise ImproperlyConfigured(f"{name} is 1 or 0, not {value!r}.")
    return value in TRUE


def _smtp(*, host: str, port: str | int | None, user: str, password: str, use_tls: bool, use_ssl: bool) -> Mail:
    if use_tls and use_ssl:
        raise ImproperlyConfigured("Mail: choose STARTTLS (tls) or TLS from the start (ssl), not both.")
    if not host:
        raise ImproperlyConfigured("Mail: the SMTP server's host name is missing.")
    try:
        number = int(port) if port is not None and port != "" else (587 if use_tls else 465 if use_ssl else 25)
    except ValueError:
        raise ImproperlyConfigured(f"Mail: the port {port!r} is not a number.") from None
    return Mail(host=host, port=number, user=user, password=password, use_tls=use_tls, use_ssl=use_ssl)


def mail_from_url(url: str) -> Mail:
    """The settings a ``DJANGO_EMAIL_URL`` names; anything it cannot read is refused, not guessed.

    >>> mail = mail_from_url("smtp://ada:p%40ss@mail.example.org?tls=1")
    >>> mail.host, mail.port, mail.user, mail.password, mail.use_tls
    ('mail.example.org', 587, 'ada', 'p@ss', True)
    """
    parts = urlsplit(url.strip())
    if parts.scheme == "console":
        return Mail(backend=CONSOLE)
    if parts.scheme != "smtp":
        raise ImproperlyConfigured("DJANGO_EMAIL_URL starts with smtp:// or is console:.")
    options = dict(parse_qsl(parts.query, keep_blank_values=True))
    unknown = set(options) - {"tls", "ssl"}
    if unknown:
        raise ImproperlyConfigured(f"DJANGO_EMAIL_URL: unknown option {', '.join(sorted(unknown))} (tls, ssl).")
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured("DJANGO_EMAIL_URL: the port is not a number.") from None
    return _smtp(
        host=parts.hostname or "",
        port=port,
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        use_tls=_flag("tls", options.get("tls", "0")),
        use_ssl=_flag("ssl", options.get("ssl", "0")),
    )


def mail_settings(environ: Mapping[str, str], *, debug: bool) -> Mail:
    """The mail settings from ``DJANGO_EMAIL_URL``, else ``EMAIL_HOST`` and company, else the default:
    the console in development, no mail in production."""
    url, host = environ.get("DJANGO_EMAIL_URL", "").strip(), environ.get("EMAIL_HOST", "").strip()
    if url and host:
        raise ImproperlyConfigured("Set DJANGO_EMAIL_URL or EMAIL_HOST, not both.")
    if url:
        return mail_from_url(url)
    if host:
        return _smtp(
            host=host,
            port=environ.get("EMAIL_PORT"),
            user=environ.get("EMAIL_HOST_USER", ""),
            password=environ.get("EMAIL_HOST_PASSWORD", ""),
            use_tls=_flag("EMAIL_USE_TLS", environ.get("EMAIL_USE_TLS", "0")),
            use_ssl=_flag("EMAIL_USE_SSL", environ.get("EMAIL_USE_SSL", "0")),
        )
    return Mail(backend=CONSOLE) if debug else Mail(configured=False)
