"""Behind PgBouncer in transaction mode (README, "Scaling") the site sets
``DJANGO_DISABLE_SERVER_SIDE_CURSORS=1``: then the long reads that use ``.iterator()``
(``verify_games``, the data download, the replay) hold no cursor on the server between
fetches, which a pooler handing each transaction its own server connection would lose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from addiction_site.ownership import Owner
from games.models import Game
from games.services import game_start

ROOT = Path(__file__).resolve().parents[2]
GUEST = Owner(user_id=None, guest_token="server-side-cursor-tests")


def cursors_open_while_iterating() -> int:
    """How many cursors the server holds for this connection in the middle of an ``.iterator()``."""
    for number in (1, 2, 3):
        game_start(owner=GUEST, deal_number=number)
    for _ in Game.objects.order_by("pk").iterator(chunk_size=1):
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_cursors")
            return cursor.fetchone()[0]
    raise AssertionError("no game to iterate")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("disabled", [False, True], ids=["django-default", "disabled"])
def test_iterating_holds_a_server_cursor_only_when_they_are_not_disabled(disabled):
    connection.settings_dict["DISABLE_SERVER_SIDE_CURSORS"] = disabled
    try:
        held = cursors_open_while_iterating()
    finally:
        connection.settings_dict["DISABLE_SERVER_SIDE_CURSORS"] = False
    assert (held == 0) is disabled, held


@pytest.mark.parametrize(("value", "disabled"), [("1", True), ("", False)])
def test_the_variable_sets_djangos_option(value, disabled):
    env = {key: item for key, item in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(
        DJANGO_DEBUG="1", DATABASE_URL="postgres://user@db.invalid/addiction", DJANGO_DISABLE_SERVER_SIDE_CURSORS=value
    )
    code = "from django.conf import settings; print(settings.DATABASES['default']['DISABLE_SERVER_SIDE_CURSORS'])"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.split()[-1] == str(disabled), result.stdout + result.stderr
