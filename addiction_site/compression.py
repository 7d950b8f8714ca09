"""Gzip for htmx's partial answers (a move's table: 15 KB of HTML, 2 KB gzipped), and for nothing else.

Compressing a response that holds a secret beside text an attacker can choose lets the
attacker read the secret from the compressed sizes (BREACH).  The partials htmx swaps in
hold no secret: their forms carry no CSRF field (htmx sends the token in a header,
templates/base.html).  Whole pages do hold the token, so they stay as they are, and so
does any answer whose rendering asked for the token (``get_token`` flags the request), in
case a partial ever does.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


def is_htmx_partial(request: HttpRequest) -> bool:
    """htmx asked for part of a page: not a boosted link or form, not a history restore
    (both of which get the whole page).  Read from the headers, so that it holds for
    answers made before django-htmx's middleware ran."""
    headers = request.headers
    return (
        headers.get("HX-Request") == "true"
        and headers.get("HX-Boosted") != "true"
        and headers.get("HX-History-Restore-Request") != "true"
    )


class HtmxGZipMiddleware(GZipMiddleware):
    """Django's GZipMiddleware (Accept-Encoding honoured, Vary set, only when it is
    shorter, its random padding kept), applied to htmx's partial answers only."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not is_htmx_partial(request) or request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
            return response
        return super().process_response(request, response)
