"""/healthz: 200 while the database answers, 503 when it does not, and nothing else done."""

from unittest import mock

import pytest
from django.db import OperationalError, connection


@pytest.mark.django_db
def test_healthz_answers_200_with_one_query_and_no_cookie(client, django_assert_num_queries):
    with django_assert_num_queries(1):  # SELECT 1, and no session read
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert response["Cache-Control"] == "no-store"
    assert not response.cookies


@pytest.mark.django_db
def test_healthz_answers_any_host_over_plain_http(client, settings):
    """A load balancer probes each app server by its own address, without the proxy's headers."""
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/healthz", HTTP_HOST="10.1.2.3:8001")
    assert response.status_code == 200


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_does_not(client, caplog):
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("connection refused")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.content == b"database unavailable\n"
    assert not response.cookies
    assert "the database does not answer: connection refused" in caplog.text
    # Issue 30: once a failed probe, not again by Django's request logger.
    assert [record.levelname for record in caplog.records] == ["ERROR"]
