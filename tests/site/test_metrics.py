"""/metrics for Prometheus (addiction_site/metrics.py): django-prometheus's figures and the
site's own, to the operator's network only."""

from __future__ import annotations

from types import SimpleNamespace

import django_ratelimit.core
import pytest
from prometheus_client import REGISTRY

from games import solver
from tests.helpers import a_movable_slot, act, new_game

pytestmark = pytest.mark.django_db


def scrape(client, address: str = "127.0.0.1"):
    return client.get("/metrics", REMOTE_ADDR=address, HTTP_HOST="10.0.0.5:8001")  # an app server by its address


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_the_metrics_count_requests_database_time_and_the_games_actions(client):
    game = new_game(client, 1)
    moves_before = sample("addiction_game_actions_total", kind="move")
    act(client, game, "move", slot=a_movable_slot(game))
    assert sample("addiction_game_actions_total", kind="move") == moves_before + 1
    response = scrape(client)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert 'addiction_game_actions_total{kind="move"}' in text
    assert "django_http_requests_latency_seconds_by_view_method_bucket" in text
    assert "django_db_execute_total" in text  # every query counted, by database and vendor
    assert "django_db_query_duration_seconds_bucket" in text  # and timed


def test_a_resigned_game_and_a_refused_hint_are_counted(client, settings, monkeypatch):
    settings.ADDICTION_RATES = {**settings.ADDICTION_RATES, "hint": ("", "1/m")}
    # The limit counts in fixed windows: the limiter's clock stands still, so that the two hints
    # never fall on either side of a minute's end (the test once failed so under load).
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1_800_000_030.0))
    game = new_game(client, 1)
    refused = sample("addiction_rate_limited_total", kind="hint")
    searched = sample("addiction_hints_total", source="search") + sample("addiction_hints_total", source="cache")
    act(client, game, "hint")
    game.refresh_from_db()
    act(client, game, "move", slot=a_movable_slot(game))
    game.refresh_from_db()
    act(client, game, "hint")
    assert sample("addiction_rate_limited_total", kind="hint") == refused + 1
    answered = sample("addiction_hints_total", source="search") + sample("addiction_hints_total", source="cache")
    assert answered == searched + 1
    lost = sample("addiction_games_finished_total", status="lost")
    game.refresh_from_db()
    act(client, game, "resign")
    assert sample("addiction_games_finished_total", status="lost") == lost + 1


@pytest.mark.parametrize("address", ["203.0.113.7", "2001:db8::1", "not an address"])
def test_nobody_outside_the_operators_network_reads_them(client, address):
    response = scrape(client, address)
    assert response.status_code == 404 and b"django_http" not in response.content


def test_the_networks_are_a_setting(client, settings):
    settings.ADDICTION_METRICS_NETWORKS = ["10.1.0.0/16"]
    assert scrape(client, "10.1.2.3").status_code == 200
    assert scrape(client, "127.0.0.1").status_code == 404


def test_a_post_reads_nothing(client):
    assert client.post("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 404


def test_the_background_work_not_done_is_read_from_the_database_at_each_scrape(client):
    from games.models import Analysis, Claimed, Game

    games = [new_game(client, deal) for deal in (1, 2, 3)]
    for game, state in zip(games, (Claimed.QUEUED, Claimed.QUEUED, Claimed.DONE), strict=True):
        Analysis.objects.create(game=Game.objects.get(pk=game.pk), state=state)
    text = scrape(client).content.decode()
    assert 'addiction_background_pending{kind="analysis",state="queued"} 2.0' in text
    assert 'addiction_background_pending{kind="analysis",state="running"} 0.0' in text
    assert 'addiction_background_pending{kind="solver_daily",state="queued"} 0.0' in text
    assert 'addiction_background_oldest_seconds{kind="analysis"}' in text  # the queue's age
    assert 'addiction_background_oldest_seconds{kind="search"} 0.0' in text
    assert f'addiction_search_core{{core="{solver.CORE}"}} 1.0' in text  # which search core runs


SPELLINGS = ["/metrics/", "/metrics//", "/%6detrics/", "/metrics/1", "/metrics/worker", "/Metrics"]


@pytest.mark.parametrize("path", SPELLINGS)
def test_no_other_spelling_of_the_path_reaches_the_figures(client, path):
    """Issue 46: /metrics/ answered 200 to anyone behind nginx, which guarded only /metrics."""
    response = client.get(path, REMOTE_ADDR="127.0.0.1", HTTP_HOST="10.0.0.5:8001")
    assert response.status_code in (400, 404) and b"django_http" not in response.content


def test_a_scrape_on_the_unix_socket_is_this_machines(client):
    """gunicorn on a unix socket (deploy/addiction@.service) gives no REMOTE_ADDR: it was refused."""
    assert scrape(client, "").status_code == 200


def test_through_the_proxy_the_client_it_names_is_judged(client, monkeypatch):
    monkeypatch.setattr("addiction_site.settings.ADDICTION_PROXY_HOPS", 1)
    for remote in ("", "127.0.0.1"):  # nginx on the unix socket, or on loopback TCP
        outside = client.get("/metrics", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR="203.0.113.7")
        assert outside.status_code == 404
        forged = client.get("/metrics", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR="127.0.0.1, 203.0.113.7")
        assert forged.status_code == 404  # only the entry our proxy wrote is believed
        inside = client.get("/metrics", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR="127.0.0.1")
        assert inside.status_code == 200
