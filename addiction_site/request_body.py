"""Refuses, with the site's 400 page, a request whose Content-Type or body the site cannot read.

Django raises on such requests, and its error handling did not survive them:

- building the request from a Content-Type that it cannot parse (an RFC 2231 parameter in
  an unknown charset), or whose charset fails on the query string (``base64``,
  ``punycode``), raises before any middleware runs: a bare 500;
- reading ``request.POST`` raises ``BadRequest`` for a form that is not UTF-8, again at
  every read, and ``MultiPartParserError`` for a broken multipart body.  When the first
  reader is the CSRF check, or the 404 page (Django's error views check CSRF tokens too),
  the error view raises in turn and the answer is a 500, with tracebacks in the log.

So ``ContentTypeGuard``, around the WSGI application, sets aside a Content-Type the site
will not read, and ``RequestBodyMiddleware`` reads every form body first, before anything
else does, and answers 400 itself, logged as one line.
"""

from __future__ import annotations

import re

from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.template import loader
from django.utils.http import parse_header_parameters
from django.utils.log import log_response
from django.views.defaults import ERROR_400_TEMPLATE_NAME

MULTIPART = "multipart/form-data"
FORMS = ("application/x-www-form-urlencoded", MULTIPART)
CONTENT_LENGTH = re.compile(r"[0-9]{1,18}")  # what int() reads, and Django's request.body after it
SET_ASIDE = "addiction.content_type_problem"  # the WSGI environ key (ASGI scope key) the guards leave


def content_type_problem(value: str) -> str:
    """Why the site will not read a request with Content-Type ``value``, or "" if it will.

    The site reads UTF-8 only, as browsers send forms: another charset, even one Python
    knows, decodes the query and the form into other words, or fails.
    """
    try:
        _type, params = parse_header_parameters(value)
    except ValueError:
        return "unparseable Content-Type"
    charset = params.get("charset")
    if charset is not None and charset.lower() != "utf-8":
        return "charset other than UTF-8"
    return ""


def body_problem(request: HttpRequest) -> str:
    """Why ``request`` cannot be read as the site reads requests, or "" if it can.

    A form body, whatever the method, is read in full (so DATA_UPLOAD_MAX_MEMORY_SIZE
    holds for multipart bodies and their files too) and, if multipart, must be whole.
    The query and a POST's form are then parsed, once: later readers get the result and
    never raise.
    """
    problem = request.META.get(SET_ASIDE) or getattr(request, "scope", {}).get(SET_ASIDE)
    problem = problem or content_type_problem(request.META.get("CONTENT_TYPE", ""))
    if problem:
        return problem
    try:
        if request.content_type in FORMS:
            if not CONTENT_LENGTH.fullmatch(request.META.get("CONTENT_LENGTH") or "0"):  # request.body would raise
                return "unreadable Content-Length"
            body = request.body
            if request.content_type == MULTIPART and not _whole_multipart(body, request.content_params or {}):
                return "multipart body without its boundary, or cut short"
        request.GET, request.POST  # noqa: B018
    except (BadRequest, SuspiciousOperation, MultiPartParserError) as error:
        return type(error).__name__  # RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent, ...
    except UnreadablePostError:
        return "body cut short"
    return ""


def _whole_multipart(body: bytes, params: dict) -> bool:
    """Whether ``body`` opens with its boundary and ends with the closing one, as every
    browser sends it; Django's parser takes a body without either for an empty form."""
    boundary = params.get("boundary", "")
    if not boundary or not boundary.isascii():
        return False
    delimiter = b"--" + boundary.encode()
    return body.startswith(delimiter) and body.rstrip(b"\r\n").endswith(delimiter + b"--")


def refuse(request: HttpRequest, reason: str) -> HttpResponse:
    """The site's 400 page, logged as one line without a traceback.

    Rendered as django.views.defaults.bad_request renders it, without calling that view:
    its CSRF decorator would read ``request.POST``, which raises again for a form that is
    not UTF-8.
    """
    response = HttpResponseBadRequest(loader.render_to_string(ERROR_400_TEMPLATE_NAME))
    log_response("Bad Request (%s): %s", reason, request.path, response=response, request=request)
    return response


class RequestBodyMiddleware:
    """Answers 400 to a request the site cannot read (``body_problem``).

    Listed after LocaleMiddleware, so that the page speaks the visitor's language, and
    before CsrfViewMiddleware and everything else that reads the body.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if problem := body_problem(request):
            return refuse(request, problem)
        return self.get_response(request)


class ContentTypeGuard:
    """WSGI middleware around Django's application (addiction_site/wsgi.py).

    A request whose Content-Type the site will not read (``content_type_problem``) goes on
    without it, so that Django can build the request, and with the reason, so that
    RequestBodyMiddleware refuses it with the site's 400 page.
    """

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        if problem := content_type_problem(environ.get("CONTENT_TYPE", "")):
            environ = {**environ, "CONTENT_TYPE": "", SET_ASIDE: problem}
        return self.application(environ, start_response)


class AsgiContentTypeGuard:
    """The same guard around the ASGI application (addiction_site/asgi.py)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            headers = scope.get("headers", [])
            value = next((v.decode("latin-1") for k, v in headers if k.lower() == b"content-type"), "")
            if problem := content_type_problem(value):
                kept = [(k, v) for k, v in headers if k.lower() != b"content-type"]
                scope = {**scope, "headers": kept, SET_ASIDE: problem}
        return await self.application(scope, receive, send)
