"""Tabs of one browser press New game at once: the player still has at most the limit of
games in progress (docs/RULES.md, "Players, guests and deleting games").

Each start at the limit drops the player's game without an action, which is the game the
start before it made; so every start succeeds, and the player ends with their played games
and one new game.  Two starts that both counted before either wrote would leave one more.
"""

from __future__ import annotations

import threading
import traceback

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from addiction_site.ownership import Owner
from games import engine
from games.models import Game
from tests.concurrency.test_races import BARRIER_TIMEOUT, in_thread, run_threads, sqlite_file_db  # noqa: F401
from tests.helpers import a_movable_slot, act, guest_token_of

LIMIT = 3
STARTS = 6


def browser(account: User | None) -> tuple[dict[str, str], Owner]:
    """A browser with LIMIT - 1 games in progress, each with a move: its cookies and its owner."""
    client = Client()
    if account is not None:
        client.force_login(account)
    for deal_number in range(1, LIMIT):
        response = client.post("/new/", {"deal_number": deal_number})
        assert response.status_code == 302, response.status_code
        game_id = int(response.url.strip("/").split("/")[-1])
        assert act(client, game_id, "move", slot=a_movable_slot(game_id)).status_code == 200
    owner = Owner(user_id=account.pk, guest_token="") if account else Owner(None, guest_token_of(client))
    return {name: morsel.value for name, morsel in client.cookies.items()}, owner


def race_starts(cookies: dict[str, str]) -> tuple[list[int], list[str]]:
    """STARTS tabs of the browser post New game together: the answers' statuses, and errors."""
    statuses, errors, lock = [], [], threading.Lock()
    barrier = threading.Barrier(STARTS, timeout=BARRIER_TIMEOUT)

    def press(index: int) -> None:
        client = Client()
        for name, value in cookies.items():
            client.cookies[name] = value
        try:
            barrier.wait()
            status = client.post("/new/", {"deal_number": 100 + index}).status_code
            with lock:
                statuses.append(status)
        except Exception:
            with lock:
                errors.append(f"tab {index}: {traceback.format_exc()}")
            barrier.abort()
        finally:
            connection.close()

    run_threads(STARTS, press)
    return statuses, errors


def assert_within_the_limit(owner: Owner, statuses: list[int], errors: list[str]) -> None:
    assert errors == [], "\n".join(errors)
    assert statuses == [302] * STARTS
    playing = Game.objects.filter(owner.owns(), status=engine.Status.PLAYING)
    assert sorted(playing.values_list("version", flat=True)) == [0] + [1] * (LIMIT - 1)


def who(kind: str) -> User | None:
    return User.objects.create_user("ada", password="unused-in-these-tests-1") if kind == "account" else None


@pytest.mark.postgres
@pytest.mark.parametrize("kind", ["guest", "account"])
def test_starts_at_once_keep_the_limit(transactional_db, settings, kind):
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = LIMIT
    cookies, owner = browser(who(kind))
    assert_within_the_limit(owner, *race_starts(cookies))


@pytest.mark.parametrize("kind", ["guest", "account"])
def test_starts_at_once_keep_the_limit_on_a_sqlite_file(sqlite_file_db, settings, kind):  # noqa: F811
    settings.ADDICTION_MAX_GAMES_IN_PROGRESS = LIMIT
    cookies, owner = in_thread(lambda: browser(who(kind)))
    statuses, errors = race_starts(cookies)
    in_thread(assert_within_the_limit, owner, statuses, errors)
