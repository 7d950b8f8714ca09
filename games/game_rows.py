"""The statements of a player's action, written once as SQL: read the game, then update it
and log the action.

``services.game_act`` runs on every click, and through the ORM these statements cost it
about 0.7 ms of server time each time, almost all of it spent building the same SQL
again (the query compiler, the model machinery).  Here the SQL is written once per
database vendor, and each call only executes it: a tenth of the cost.  The values go
through the fields' own conversions both ways (``get_db_prep_value`` and the database's
converters), so a row read or written here is exactly what the ORM reads or writes;
tests/web/test_game_rows.py checks that against the ORM on the database under test.

Both statements find the game by its id *and* its owner, and the update also by the
version read: it is a compare-and-set, which writes nothing if another tab, a double
click or a claim by an account got there first.

Everything else, including the rare writes of an action (ranking a win), uses the ORM.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connections, transaction

from games.models import Action, Game
from games.ownership import Owner
from games.write_lock import serialized_writes

# The columns an action changes; the rest of a game row is written once, when it starts.
CHANGED_BY_ACTION = (
    "position", "moves", "shuffles_used", "history", "status", "resigned", "version",
    "elapsed_ms", "started_at", "last_action_at", "finished_at",
)
ACTION_COLUMNS = ("game_id", "number", "kind", "move", "elapsed_ms", "created_at")


def _owner_sql(owner: Owner) -> tuple[str, list] | None:
    """(which owner's rows, the parameter) for ``owner``; None when they can own nothing."""
    if owner.user_id is not None:
        return "user", [owner.user_id]
    if owner.guest_token:
        return "guest", [owner.guest_token]
    return None


def _db():
    """The default database's connection of this thread, looked up once per call below
    rather than through django.db.connection's proxy at every attribute."""
    return connections[DEFAULT_DB_ALIAS]


@cache
def _owned(vendor: str, owner_kind: str) -> str:
    quote = _db().ops.quote_name
    return {
        "user": f"{quote('id')} = %s AND {quote('owner_id')} = %s",
        "guest": f"{quote('id')} = %s AND {quote('owner_id')} IS NULL AND {quote('guest_token')} = %s",
    }[owner_kind]


@cache
def _select(vendor: str, owner_kind: str) -> tuple[str, list]:
    """The SELECT of one owned game, and each column's converters from the database."""
    connection = _db()
    quote = connection.ops.quote_name
    fields = Game._meta.concrete_fields
    sql = (
        f"SELECT {', '.join(quote(field.column) for field in fields)} FROM {quote(Game._meta.db_table)}"
        f" WHERE {_owned(vendor, owner_kind)}"
    )
    converters = []
    for field in fields:
        column = field.get_col(Game._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        converters.append([(converter, column) for converter in found])
    return sql, converters


def game_for_action(owner: Owner, game_id: int) -> Game | None:
    """One of ``owner``'s games as it is now (not locked), or None when ``owner`` has no
    such game."""
    who = _owner_sql(owner)
    if who is None:
        return None
    connection = _db()
    sql, converters = _select(connection.vendor, who[0])
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, *who[1]])
        row = cursor.fetchone()
    if row is None:
        return None
    values = []
    for value, column_converters in zip(row, converters):
        for converter, column in column_converters:
            value = converter(value, column, connection)
        values.append(value)
    return Game.from_db(connection.alias, [field.attname for field in Game._meta.concrete_fields], values)


@cache
def _update(vendor: str, owner_kind: str) -> tuple[str, list]:
    quote = _db().ops.quote_name
    fields = [Game._meta.get_field(name) for name in CHANGED_BY_ACTION]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    where = f"{_owned(vendor, owner_kind)} AND {quote('version')} = %s"
    return f"UPDATE {quote(Game._meta.db_table)} SET {assignments} WHERE {where}", fields


@cache
def _insert(vendor: str, owner_kind: str) -> tuple[str, list]:
    """The INSERT of the action; on PostgreSQL, one statement with the UPDATE before it."""
    quote = _db().ops.quote_name
    fields = [Action._meta.get_field(name.removesuffix("_id")) for name in ACTION_COLUMNS]
    columns = ", ".join(quote(field.column) for field in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    table = quote(Action._meta.db_table)
    if vendor == "postgresql":  # the log row is written only if the UPDATE found the row
        update, _fields = _update(vendor, owner_kind)
        return (f"WITH updated AS ({update} RETURNING {quote('id')}) "
                f"INSERT INTO {table} ({columns}) SELECT {placeholders} FROM updated"), fields
    return f"INSERT INTO {table} ({columns}) VALUES ({placeholders})", fields


def game_save_action(game: Game, *, owner: Owner, was_version: int, kind: str, move: str, now: datetime) -> bool:
    """Write the columns an action changed, if the row is still ``owner``'s and at
    ``was_version``, and log the action as number ``game.version``, all or nothing.
    False, with nothing written, if the row has moved on.

    On PostgreSQL one statement (a WITH ... UPDATE), atomic by itself; on SQLite the two
    statements in one transaction, queued on the write lock (games/write_lock.py).
    """
    who = _owner_sql(owner)
    if who is None:
        return False
    connection = _db()
    update_sql, update_fields = _update(connection.vendor, who[0])
    insert_sql, insert_fields = _insert(connection.vendor, who[0])
    # prepared=True: the values are already the fields' Python types (set by game_act), so
    # only the database's own adaptation (of times, on SQLite) is left to do.
    row = [field.get_db_prep_value(getattr(game, field.attname), connection, prepared=True)
           for field in update_fields] + [game.pk, *who[1], was_version]
    action = [field.get_db_prep_value(value, connection, prepared=True) for field, value in zip(
        insert_fields, (game.pk, game.version, kind, move, game.elapsed_ms, now))]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(insert_sql, row + action)
            return cursor.rowcount == 1
    with serialized_writes(), transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(update_sql, row)
        if cursor.rowcount != 1:
            return False
        cursor.execute(insert_sql, action)
    return True
