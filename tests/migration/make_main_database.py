"""How tests/migration/main-3fa021f.sql was made: a site database as main left it before the
apps were split (commit 3fa021f), populated through that commit's own services.

This script runs against that commit's code, not this one's (it imports games.daily and
games.ownership, which have since moved), so it is kept as the record of what the fixture
holds.  To make the fixture again::

    git worktree add /tmp/main-3fa021f 3fa021f
    cd /tmp/main-3fa021f && DJANGO_SETTINGS_MODULE=tests.settings DATABASE_URL=sqlite:////tmp/main.sqlite3 \\
        python <this repository>/tests/migration/make_main_database.py /tmp/main.sqlite3 main-3fa021f.sql
"""

from __future__ import annotations

import os
import sqlite3
import sys
from datetime import UTC, datetime, timedelta

import django

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "addiction_site.settings")
django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import daily, engine, services  # noqa: E402
from games.models import Player  # noqa: E402
from games.ownership import Owner  # noqa: E402
from tests.web.winning import play_win, quick_wins  # noqa: E402

PASSWORD = "Migration-fixture-pw-4471"


def populate() -> dict[str, str]:
    call_command("migrate", verbosity=0)
    ada = User.objects.create_user("ada", "ada@example.org", PASSWORD)
    bob = User.objects.create_user("bob", "bob@example.org", PASSWORD)
    staff = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    Player.objects.create(user=bob, hidden_from_boards=False)
    ada_owner, bob_owner = Owner(user_id=ada.pk, guest_token=""), Owner(user_id=bob.pk, guest_token="")
    guest = Owner(user_id=None, guest_token="g" * 32)
    start = timezone.now() - timedelta(hours=3)

    # Won and ranked games (a random deal each, and a chosen one), so board entries exist.
    first, second = quick_wins(2)
    play_win(ada_owner, first, start=start)
    play_win(bob_owner, second, start=start + timedelta(minutes=20), step=timedelta(seconds=2))
    play_win(ada_owner, second, start=start + timedelta(minutes=40), origin="chosen")
    # Games in progress: a guest's with a move, an undo and a shuffle; an account's untouched.
    game = services.game_start(owner=guest, deal_number=1)
    state = game.state()
    services.game_act(owner=guest, game_id=game.pk, version=game.version, kind=engine.ActionKind.MOVE,
                      slot=state.position.legal_moves()[0].src)  # fmt: skip
    game.refresh_from_db()
    services.game_act(owner=guest, game_id=game.pk, version=game.version, kind=engine.ActionKind.UNDO)
    game.refresh_from_db()
    services.game_act(owner=guest, game_id=game.pk, version=game.version, kind=engine.ActionKind.SHUFFLE)
    services.game_start(owner=bob_owner, deal_number=424242)
    # A lost game (given up), and an assisted one with a hint kept.
    lost = services.game_start(owner=bob_owner, deal_number=77)
    services.game_act(owner=bob_owner, game_id=lost.pk, version=lost.version, kind=engine.ActionKind.RESIGN)
    hinted = services.game_start(owner=ada_owner, deal_number=5)
    services.hint_for(owner=ada_owner, game_id=hinted.pk, version=hinted.version)
    # Today's daily: ada's ranked game of it, and a practice one.
    daily.daily_start(owner=ada_owner, day=daily.today())
    daily.daily_start(owner=ada_owner, day=daily.today())
    # A signed-in session, whose cookie the test logs in with after the migration.
    client = Client()
    client.force_login(ada, backend="django.contrib.auth.backends.ModelBackend")
    del staff
    return {"session": client.cookies["sessionid"].value}


def main(database: str, out: str) -> None:
    facts = populate()
    connection = sqlite3.connect(database)
    with open(out, "w", encoding="utf-8") as dump:
        dump.write(
            f"-- A site database made by main at 3fa021f ({datetime.now(UTC):%Y-%m-%d}), by make_main_database.py.\n"
        )
        dump.write(f"-- ada's signed-in session: {facts['session']}\n")
        for line in connection.iterdump():
            dump.write(line + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
