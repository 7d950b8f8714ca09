"""/healthz, for a load balancer to call every second: 200 while the database answers, 503 if not.

It is answered by a middleware placed first, so none of the others run for it: no session is
read or saved, no cookie is set, no language chosen, and no redirect to https or check of the
Host header comes before it (a load balancer probes an app server by its own address, over
plain http).  The one query is ``SELECT 1`` on the connection the site's requests use.
"""

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse

PATH = "/healthz"
logger = logging.getLogger(__name__)


def healthz() -> HttpResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        logger.error("health check: the database does not answer: %s", error)
        response = HttpResponse("database unavailable\n", status=503, content_type="text/plain")
        # Said once, above: Django's request logger would add an ERROR line of its own for the
        # 503 (django.utils.log.log_response reads this flag to skip a response already logged).
        response._has_been_logged = True  # type: ignore[attr-defined]
    else:
        response = HttpResponse("ok\n", content_type="text/plain")
    response["Cache-Control"] = "no-store"
    return response


class HealthCheckMiddleware:
    """Answers /healthz before any other middleware runs; every other request passes through."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == PATH:
            return healthz()
        return self.get_response(request)
