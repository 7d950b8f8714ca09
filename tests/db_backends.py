"""pytest plugin: which database the suite runs on, and tests that need PostgreSQL.

- Tests marked ``postgres`` are skipped on SQLite.
- With ADDICTION_REQUIRE_POSTGRES=1 (set by ``dev.py test --postgres``) the run fails
  unless it really ran on PostgreSQL, so a CI run cannot pass while quietly on SQLite.
"""

import os

import pytest


def _vendor() -> str:
    from django.db import connection

    return connection.vendor


def pytest_report_header(config):
    from django.conf import settings

    return f"database: {settings.DATABASES['default']['ENGINE']}"


def pytest_collection_modifyitems(config, items):
    if os.environ.get("ADDICTION_REQUIRE_POSTGRES") == "1" and _vendor() != "postgresql":
        raise pytest.UsageError("ADDICTION_REQUIRE_POSTGRES=1 but the database is not PostgreSQL")
    if _vendor() == "postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: run `python3 dev.py test --postgres`")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)
