"""The load benchmark's baseline: the cheapest write a request can make, for comparison.

benchmarks/load.py drives this view with the same client loop as the moves: a POST with
the player's cookies (guest or session, and CSRF) and the X-CSRFToken header, through the whole middleware
stack, that runs one single-row UPDATE and answers a few bytes.  games/urls.py routes it
only when the environment has ADDICTION_BENCHMARK=1, so a normal deployment never has it.
"""

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST


@require_POST
def update_one_row(request: HttpRequest, pk: int) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute("UPDATE games_game SET version = version + 1 WHERE id = %s", [pk])
    return HttpResponse("ok", content_type="text/plain")
