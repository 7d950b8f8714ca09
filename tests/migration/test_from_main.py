"""A site database made by main before the apps were split (tests/migration/main-3fa021f.sql,
made by make_main_database.py at commit 3fa021f: won and ranked games with their board entries,
games in progress, a lost and an assisted game, today's daily, a moderation row, a signed-in
session) migrates with no row touched, replays under ``verify_games`` and keeps its player
logged in.

BoardEntry, Player and DailySeed moved to the records and daily apps with their tables' names;
only Django's own bookkeeping changes: the new migrations are recorded, and the three models'
content types name their new apps (so permissions and the admin's history follow them).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).with_name("main-3fa021f.sql")
SESSION = FIXTURE.read_text().splitlines()[1].rsplit(" ", 1)[-1]  # "-- ada's signed-in session: KEY"
MOVED = {"boardentry": "records", "player": "records", "dailyseed": "daily"}
# Made by the migrations: their record, and nothing else.
BOOKKEEPING = {"django_migrations", "sqlite_sequence"}

LOGGED_IN = f"""
from django.test import Client
from django.test.utils import setup_test_environment
setup_test_environment()  # the test client's host, "testserver", allowed
client = Client()
client.cookies["sessionid"] = "{SESSION}"
page = client.get("/accounts/")
assert page.status_code == 200, page.status_code
assert b"ada@example.org" in page.content
games = client.get("/my-games/")
assert games.status_code == 200 and b"/game/" in games.content
print("logged in")
"""


def rows(path: Path, columns: dict[str, list[str]] | None = None) -> dict[str, list[tuple]]:
    """Every row of every table, each table's rows sorted; only ``columns`` of each table if given
    (later migrations add columns of their own, which the rows made before them do not have)."""
    connection = sqlite3.connect(path)
    tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    found = {}
    for table in tables:
        names = ", ".join(f'"{name}"' for name in columns[table]) if columns and table in columns else "*"
        found[table] = sorted(connection.execute(f'SELECT {names} FROM "{table}"'), key=repr)
    connection.close()
    return found


def columns_of(path: Path) -> dict[str, list[str]]:
    connection = sqlite3.connect(path)
    tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    found = {table: [row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')] for table in tables}
    connection.close()
    return found


def manage(path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DATABASE_URL": f"sqlite:///{path}"}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def main_database(tmp_path) -> Path:
    path = tmp_path / "db.sqlite3"
    connection = sqlite3.connect(path)
    connection.executescript(FIXTURE.read_text())
    # The fixture's session was made to last two weeks from the day it was made: it is moved
    # on, so that the test checks the migration, not the calendar.
    connection.execute("UPDATE django_session SET expire_date = datetime('now', '+1 day')")
    connection.commit()
    connection.close()
    return path


def test_the_fixture_holds_what_the_migration_must_keep(main_database):
    before = rows(main_database)
    assert len(before["games_boardentry"]) >= 3 and len(before["games_dailyseed"]) == 1
    assert len(before["games_player"]) == 1 and len(before["django_session"]) == 1
    connection = sqlite3.connect(main_database)
    statuses = {status for (status,) in connection.execute("SELECT status FROM games_game")}
    ranked = connection.execute("SELECT count(*) FROM games_game WHERE ranked").fetchone()[0]
    connection.close()
    assert statuses == {"playing", "won", "lost"} and ranked >= 2
    assert not any(name.startswith(("records_", "daily_")) for name in before)


def test_a_database_of_main_before_the_split_migrates_keeps_every_row_and_replays(main_database):
    before, columns = rows(main_database), columns_of(main_database)
    migrated = manage(main_database, "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr
    after = rows(main_database, columns)

    # No table made but the shared cache's (games 0013), the background work's (games 0014:
    # analyses, searches, the steps of found lines; daily 0002: the solver's daily games), the
    # confirmed addresses' (accounts 0001), the races' (races 0001), the evidence on wins (games 0022),
    # the draws given up (records 0005) and the tasks' queue; none dropped.
    made = {"addiction_cache", "games_analysis", "games_stretchsearch", "games_knownstep", "daily_solverdaily"}
    made |= {"accounts_confirmedaddress", "races_race", "races_entry", "games_evidence", "records_redraw"}
    made |= {"daily_playerseed"}  # each player's own seed of a daily (daily 0004)
    made |= {"records_playerrecord"}  # each player's kept record (records 0007), made as games end
    made |= {"puzzles_puzzle"}  # the puzzles kept (puzzles 0001)
    made |= {"puzzles_attempt", "puzzles_solver", "puzzles_dailypuzzle", "puzzles_mined"}  # attempts, ratings (0002)
    assert set(after) == set(before) | made | {"django_tasks_database_dbtaskresult"}
    for table in set(before) - BOOKKEEPING - {"django_content_type", "auth_permission"}:
        assert after[table] == before[table], table
    # A new model (records' HeldWin, the queue of held wins) brings its permissions: the old stay.
    assert set(before["auth_permission"]) <= set(after["auth_permission"])
    applied = {(app, name) for _id, app, name, _at in after["django_migrations"]}
    assert {
        ("games", "0010_records_and_daily_move_to_their_apps"),
        ("records", "0001_initial"),
        ("daily", "0001_initial"),
    } <= applied
    assert set(before["django_migrations"]) <= set(after["django_migrations"])

    # The content types keep their ids (the permissions and admin entries point at them).
    types_before = {row[0]: row[1:] for row in before["django_content_type"]}
    types_after = {row[0]: row[1:] for row in after["django_content_type"]}
    assert set(types_before) <= set(types_after)  # a new model (HeldWin) adds its own
    for pk, (app, model) in types_before.items():
        assert types_after[pk] == (MOVED.get(model, app) if app == "games" else app, model)

    verified = manage(main_database, "verify_games")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    logged_in = manage(main_database, "shell", "-c", LOGGED_IN)
    assert logged_in.returncode == 0 and "logged in" in logged_in.stdout, logged_in.stderr
