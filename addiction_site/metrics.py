"""/metrics, for Prometheus to scrape each app server: django-prometheus's figures (requests by
view and status, latencies, database queries and their time, cache use) and the site's own
below (actions, wins, hints, analyses, rate-limit refusals, the background work).

Like /healthz it is answered by a middleware near the top, before the Host header is checked
(a scraper calls an app server by its own address), and only to a client in
``ADDICTION_METRICS_NETWORKS`` (default: this machine); anyone else gets a plain 404, as for a
page that does not exist.  nginx refuses /metrics from outside its allow list too (deploy/nginx.conf.template).

Under gunicorn each worker process counts apart; deploy/gunicorn.conf.py gives every app
server a folder of its own (``PROMETHEUS_MULTIPROC_DIR``) where prometheus_client's
multiprocess mode adds them up for the scrape.  The background work not done yet is read from
the database at each scrape (``addiction_background_pending``: every app server sees the same
queue).  What a background worker counts as it works (``addiction_background_work_*``,
``addiction_verdicts_total``) is in that worker's process: with ``ADDICTION_WORKER_METRICS_BIND``
(its systemd unit) the worker serves it on that address (:func:`serve_worker_metrics`).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable, Iterator, Mapping

import prometheus_client
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from prometheus_client import Counter, Gauge, Histogram, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

PATH = "/metrics"

ACTIONS = Counter("addiction_game_actions_total", "Actions players played, by kind", ["kind"])
GAMES_FINISHED = Counter("addiction_games_finished_total", "Games that ended, by how", ["status"])
HINTS = Counter(
    "addiction_hints_total",
    "Hints given, by where they came from: a found line, the shared cache, or the request's own search",
    ["source"],
)
HINT_SECONDS = Histogram(
    "addiction_hint_search_seconds",
    "Time of the request's own hint search",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5),
)
RATE_LIMITED = Counter("addiction_rate_limited_total", "Requests refused by a rate limit, by kind", ["kind"])
BACKGROUND = Counter(
    "addiction_background_work_total", "Background work done, by kind and outcome", ["kind", "outcome"]
)
BACKGROUND_SECONDS = Histogram(
    "addiction_background_work_seconds",
    "Time of a piece of background work, by kind",
    ["kind"],
    buckets=(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300),
)
VERDICTS = Counter("addiction_verdicts_total", "Lost games' verdicts, by verdict", ["verdict"])
SEARCH_CORE = Gauge(
    "addiction_search_core",
    "1 for the search core the solver runs: compiled, or python (the reference, slower)",
    ["core"],
    multiprocess_mode="max",
)


_pending: dict[str, Callable[[], Mapping[str, int]]] = {}
_waiting: dict[str, Callable[[], float]] = {}


def count_pending(kind: str, counts: Callable[[], Mapping[str, int]], oldest: Callable[[], float]) -> None:
    """An app's background work of ``kind`` to report: ``counts()`` gives how many of its rows
    not done are in each state, ``oldest()`` how many seconds the oldest of those queued has
    waited (the apps' ``ready()`` call this)."""
    _pending[kind] = counts
    _waiting[kind] = oldest


class PendingWork(Collector):
    """``addiction_background_pending{kind,state}``: the work queued and running, at the scrape;
    ``addiction_background_oldest_seconds{kind}``: how long the oldest queued has waited, the
    figure that says a queue drains too slowly (or that one client floods it)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "addiction_background_pending", "Background work not done yet, by kind and state", labels=["kind", "state"]
        )
        waiting = GaugeMetricFamily(
            "addiction_background_oldest_seconds",
            "How long the oldest queued work has waited, by kind",
            labels=["kind"],
        )
        for kind, counts in sorted(_pending.items()):
            found = counts()
            for state in ("queued", "running"):
                family.add_metric([kind, state], found.get(state, 0))
            waiting.add_metric([kind], _waiting[kind]())
        yield family
        yield waiting


_PENDING_REGISTRY = prometheus_client.CollectorRegistry(auto_describe=True)
_PENDING_REGISTRY.register(PendingWork())


def figures() -> bytes:
    """The text of a scrape: every process's counters (django-prometheus's and ours), then the queue."""
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        registry = prometheus_client.CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = prometheus_client.REGISTRY
    return prometheus_client.generate_latest(registry) + prometheus_client.generate_latest(_PENDING_REGISTRY)


def serve_worker_metrics(bind: str) -> None:
    """A background worker's own figures on ``bind`` ("127.0.0.1:9110"), for Prometheus to scrape."""
    host, _colon, port = bind.rpartition(":")
    prometheus_client.start_http_server(int(port), addr=host.strip("[]") or "127.0.0.1")


def allowed(address: str | None) -> bool:
    """Whether a scrape from ``address`` may read the figures.  No address at all is a client on
    this machine: an app server bound to a unix socket (deploy/addiction@.service) has none for
    what reaches it directly, and nginx's requests name their client in X-Forwarded-For."""
    if not address:
        return True
    try:
        client = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(client in ipaddress.ip_network(network, strict=False) for network in settings.ADDICTION_METRICS_NETWORKS)


class MetricsMiddleware:
    """Answers /metrics, to allowed clients only, before the Host check and the sessions.

    Only that very path: /metrics/ or /metrics/1 is any other page (a 404 from the URLs), so no
    spelling of it reaches the figures.  The client is the one the site believes everywhere
    (``AXES_CLIENT_IP_CALLABLE``, settings.client_address: the address our own proxy names,
    not the proxy's), so a scrape through nginx is judged by who asked nginx."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD") or not allowed(settings.AXES_CLIENT_IP_CALLABLE(request)):
            return HttpResponseNotFound("not found\n", content_type="text/plain")
        response = HttpResponse(figures(), content_type=prometheus_client.CONTENT_TYPE_LATEST)
        response["Cache-Control"] = "no-store"
        return response
