"""Backups of a SQLite site, taken and restored with the README's commands, pass `verify_games`;
a restored copy whose log was edited fails it.

A site lives in a folder of its own (``var/db.sqlite3``, as ADDICTION_DATA_DIR says), made and
played in by ``manage.py`` in fresh interpreters with ``tests.settings``.  A reader stays
connected while the backup is taken, as a running site's workers would be: the last moves are
then still in the write-ahead log beside the database file, which a plain copy of that file
would miss and SQLite's backup takes.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from games import engine
from scripts.throwaway_postgres import pg_bin

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()

# The README's commands, word for word (test_the_readme_gives_these_commands), run in the site's folder.
BACKUP_CLI = 'sqlite3 var/db.sqlite3 ".backup var/backup.sqlite3"'
BACKUP_PYTHON = (
    'python3 -c \'import sqlite3; sqlite3.connect("var/db.sqlite3").backup(sqlite3.connect("var/backup.sqlite3"))\''
)
RESTORE = ["rm -f var/db.sqlite3-wal var/db.sqlite3-shm", "cp var/backup.sqlite3 var/db.sqlite3"]
VERIFY = ".venv/bin/python manage.py verify_games"
PG_DUMP = 'pg_dump --format=custom --file=addiction.dump "$DATABASE_URL"'
PG_RESTORE = [
    'createdb --maintenance-db="$DATABASE_URL" addiction_restored',
    'pg_restore --no-owner --dbname="$RESTORED_URL" addiction.dump',
]
PG_VERIFY = 'DATABASE_URL="$RESTORED_URL" .venv/bin/python manage.py verify_games'

PLAY = """
from django.contrib.auth.models import User
from addiction_site.ownership import Owner
from games.services import game_start
from tests.helpers import a_movable_slot, act_on_service

guest = Owner(user_id=None, guest_token="backup-test-guest")
player = Owner(user_id=User.objects.create_user("ada", "ada@example.org", "plum-orchard-lantern-42").pk, guest_token="")
for owner, deal_number in [(guest, 1), (guest, 2), (player, 3), (player, 4)]:
    game = game_start(owner=owner, deal_number=deal_number)
    for _ in range(4):
        game = act_on_service(owner, game, "move", a_movable_slot(game))
    game = act_on_service(owner, game, "undo")
act_on_service(player, game, "resign")
"""
GAMES, ACTIONS = 4, 4 * 5 + 1


def environment(site: Path, **extra: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in ("DATABASE_URL", "DJANGO_DEBUG")}
    env.update(DJANGO_SETTINGS_MODULE="tests.settings", PYTHONPATH=str(ROOT), ADDICTION_DATA_DIR=str(site / "var"))
    return {**env, **extra}


def manage(site: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment(site, **extra),
        capture_output=True,
        text=True,
        timeout=120,
    )


def shell(site: Path, command: str, **extra: str) -> None:
    """One of the README's commands, in the site's folder."""
    if command.startswith("python3 "):
        command = f'"{sys.executable}" ' + command.removeprefix("python3 ")
    result = subprocess.run(
        command, shell=True, cwd=site, env={**os.environ, **extra}, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, f"{command}\n{result.stdout}{result.stderr}"


def count(database: Path, table: str) -> int:
    with sqlite3.connect(database) as connection:
        return connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A migrated site with four games played (one finished), and a reader still connected."""
    site = tmp_path_factory.mktemp("site")
    migrate = manage(site, "migrate", "--noinput")
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    reader = sqlite3.connect(site / "var" / "db.sqlite3")
    reader.execute("SELECT count(*) FROM games_game").fetchone()  # keeps the log from being checkpointed away
    played = manage(site, "shell", "-c", PLAY)
    assert played.returncode == 0, played.stdout + played.stderr
    assert (site / "var" / "db.sqlite3-wal").stat().st_size > 0
    yield site
    reader.close()


def restored(site: Path, tmp_path: Path, backup: str) -> Path:
    """Back ``site`` up with ``backup``, carry the copy to a new folder, and restore it there."""
    shell(site, backup)
    elsewhere = tmp_path / "restored"
    (elsewhere / "var").mkdir(parents=True)
    shutil.copy(site / "var" / "backup.sqlite3", elsewhere / "var" / "backup.sqlite3")
    (site / "var" / "backup.sqlite3").unlink()
    for command in RESTORE:
        shell(elsewhere, command)
    return elsewhere


def backups() -> list:
    cli = pytest.mark.skipif(shutil.which("sqlite3") is None, reason="no sqlite3 command (apt-get install sqlite3)")
    return [pytest.param(BACKUP_CLI, marks=cli, id="sqlite3-cli"), pytest.param(BACKUP_PYTHON, id="python")]


@pytest.mark.parametrize("backup", backups())
def test_a_restored_backup_holds_every_game_and_passes_verify_games(site, tmp_path, backup):
    copy = restored(site, tmp_path, backup)
    database = copy / "var" / "db.sqlite3"
    assert (count(database, "games_game"), count(database, "games_action")) == (GAMES, ACTIONS)
    verified = manage(copy, "verify_games")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.splitlines()[-1] == f"{GAMES} games checked, 0 differ"


def test_a_restored_copy_with_an_edited_action_fails_verify_games(site, tmp_path):
    copy = restored(site, tmp_path, BACKUP_PYTHON)
    with sqlite3.connect(copy / "var" / "db.sqlite3") as connection:
        game_id, move = connection.execute(
            "SELECT g.id, a.move FROM games_game g JOIN games_action a ON a.game_id = g.id"
            " WHERE g.deal_number = 2 AND a.number = 1"
        ).fetchone()
        other = next(str(legal) for legal in engine.deal(2).legal_moves() if str(legal) != move)
        connection.execute("UPDATE games_action SET move = ? WHERE game_id = ? AND number = 1", (other, game_id))
    verified = manage(copy, "verify_games")
    assert verified.returncode != 0
    assert f"game {game_id}: " in verified.stdout
    assert f"{GAMES} games checked, 1 differ" in verified.stdout


@pytest.mark.postgres
def test_a_postgresql_dump_restored_into_a_new_database_passes_verify_games(tmp_path):
    import psycopg

    url = urlsplit(os.environ["DATABASE_URL"])
    suffix = secrets.token_hex(4)
    source, role, password = f"addiction_backup_{suffix}", f"addiction_{suffix}", secrets.token_urlsafe(12)
    # Every command runs as the site's role as the README makes it (createuser --createdb), not the superuser.
    as_role = url._replace(netloc=f"{role}:{password}@{url.hostname}:{url.port}")
    source_url, restored_url = (
        urlunsplit(as_role._replace(path=f"/{name}")) for name in (source, "addiction_restored")
    )
    admin = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
    admin.execute(f"CREATE ROLE \"{role}\" LOGIN CREATEDB PASSWORD '{password}'")
    admin.execute(f'CREATE DATABASE "{source}" OWNER "{role}"')
    try:
        for args in (["migrate", "--noinput"], ["shell", "-c", PLAY]):
            done = manage(tmp_path, *args, DATABASE_URL=source_url)
            assert done.returncode == 0, done.stdout + done.stderr
        tools = {
            "PATH": f"{Path(pg_bin('pg_dump')).parent}{os.pathsep}{os.environ['PATH']}",
            "DATABASE_URL": source_url,
            "RESTORED_URL": restored_url,
        }
        shell(tmp_path, PG_DUMP, **tools)
        nightly_copy = nightly(tmp_path / "backups", PATH=tools["PATH"], DATABASE_URL=source_url)  # as the role, too
        assert nightly_copy.returncode == 0, nightly_copy.stderr
        (dump,) = (tmp_path / "backups").glob("addiction-*.dump")
        assert dump.stat().st_mode & 0o777 == 0o600  # private (issue 46: it was 0644)
        listed = subprocess.run(
            [pg_bin("pg_restore") or "pg_restore", "--list", str(dump)], capture_output=True, text=True
        )
        assert listed.returncode == 0 and "games_action" in listed.stdout, listed.stderr
        # The README's restore, word for word, of the copy the nightly backup (compose's backup
        # service, the systemd timer) made, in place of the README's own pg_dump.
        shutil.copy(dump, tmp_path / "addiction.dump")
        for command in PG_RESTORE:
            shell(tmp_path, command, **tools)
        verified = manage(tmp_path, "verify_games", DATABASE_URL=restored_url)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert verified.stdout.splitlines()[-1] == f"{GAMES} games checked, 0 differ"
        with psycopg.connect(restored_url, autocommit=True) as restored:
            restored.execute("UPDATE games_action SET move = '' WHERE number = 1 AND kind = 'move'")
        assert manage(tmp_path, "verify_games", DATABASE_URL=restored_url).returncode != 0
    finally:
        for name in (source, "addiction_restored"):
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'DROP ROLE IF EXISTS "{role}"')
        admin.close()


def test_the_readme_makes_the_sites_role_able_to_restore():
    assert "createuser --createdb --pwprompt addiction" in README


def test_the_readme_gives_these_commands():
    for command in (BACKUP_CLI, BACKUP_PYTHON, *RESTORE, VERIFY, PG_DUMP, *PG_RESTORE, PG_VERIFY):
        assert command in README, command


# --------------------------------------------------------------------------- the nightly backup (deploy/backup.py)

BACKUP_SCRIPT = ROOT / "deploy" / "backup.py"
DAY = 24 * 60 * 60


def nightly(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE_URL", "ADDICTION_"))}
    return subprocess.run(
        [sys.executable, str(BACKUP_SCRIPT), str(folder), *args],
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_nightly_backup_keeps_a_restorable_copy_and_removes_the_expired_ones(site, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    expired, recent, unrelated = (
        folder / "addiction-old.sqlite3",
        folder / "addiction-recent.sqlite3",
        folder / "notes.txt",
    )
    for path, age_days in ((expired, 20), (recent, 3), (unrelated, 400)):
        path.write_text("an earlier copy")
        os.utime(path, (time.time() - age_days * DAY,) * 2)
    done = nightly(folder, "--keep-days", "14", ADDICTION_DATA_DIR=str(site / "var"))
    assert done.returncode == 0, done.stderr
    made = [path for path in folder.glob("addiction-*.sqlite3") if path not in (expired, recent)]
    assert len(made) == 1 and f"kept {made[0]}" in done.stdout and f"removed {expired}" in done.stdout
    assert made[0].stat().st_mode & 0o777 == 0o600  # password hashes and addresses: the owner's alone
    assert not expired.exists() and recent.exists() and unrelated.exists()
    assert not list(folder.glob("*.partial"))
    elsewhere = tmp_path / "restored"
    (elsewhere / "var").mkdir(parents=True)
    shutil.copy(made[0], elsewhere / "var" / "db.sqlite3")
    verified = manage(elsewhere, "verify_games")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.splitlines()[-1] == f"{GAMES} games checked, 0 differ"


def test_a_failed_backup_says_so_and_removes_nothing(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    old = folder / "addiction-old.sqlite3"
    old.write_text("the last good copy")
    os.utime(old, (time.time() - 30 * DAY,) * 2)
    failed = nightly(folder, ADDICTION_DATA_DIR=str(tmp_path / "no-site"))
    assert failed.returncode != 0 and old.exists()
