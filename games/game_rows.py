"""The statements of a player's click, written once as SQL: read the game (and, for a
signed-in player, the user), then update the game and log the action.

These run on every click, and through the ORM they cost about 0.8 ms of server time each
time, almost all of it spent building the same SQL again (the query compiler, the model
machinery).  Here the SQL is written once per database vendor and shape, and each call
only executes it: a tenth of the cost.  The values go through the fields' own
conversions both ways (``get_db_prep_value`` and the database's converters), so a row
read or written here is exactly what the ORM reads or writes; tests/web/test_game_rows.py
checks that against the ORM on the database under test.

The game is found by its id *and* its owner, and the update also by the version read: it
is a compare-and-set, which writes nothing if another tab, a double click or a claim by
an account got there first.  Everything else uses the ORM.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connections, models, transaction

from games.models import Action, Game
from games.ownership import Owner
from games.write_lock import serialized_writes

# The columns an action changes; the rest of a game row is written once, when it starts.
CHANGED_BY_ACTION = (
    "position", "moves", "shuffles_used", "history", "status", "resigned", "version",
    "elapsed_ms", "started_at", "last_action_at", "finished_at",
)
ACTION_COLUMNS = ("game_id", "number", "kind", "move", "elapsed_ms", "created_at")


def _db():
    """The default database's connection of this thread, looked up once per call below
    rather than through django.db.connection's proxy at every attribute."""
    return connections[DEFAULT_DB_ALIAS]


@cache
def _where(vendor: str, columns: tuple[tuple[str, bool], ...]) -> str:
    """``"a" = %s AND "b" IS NULL ...`` for (column, is null) pairs."""
    quote = _db().ops.quote_name
    return " AND ".join(f"{quote(column)} IS NULL" if null else f"{quote(column)} = %s" for column, null in columns)


def _condition(equal: dict) -> tuple[tuple[tuple[str, bool], ...], list]:
    """The shape of a WHERE of column equalities (None meaning IS NULL), and its parameters."""
    return tuple((column, value is None) for column, value in equal.items()), [
        value for value in equal.values() if value is not None]


@cache
def _select(vendor: str, model: type[models.Model], shape: tuple) -> tuple[str, list, list]:
    """The SELECT of every column of ``model`` by a WHERE of ``shape``, each column's
    converters from the database, and the attribute names in that order."""
    connection = _db()
    quote = connection.ops.quote_name
    fields = model._meta.concrete_fields
    sql = (f"SELECT {', '.join(quote(field.column) for field in fields)} FROM {quote(model._meta.db_table)}"
           f" WHERE {_where(vendor, shape)}")
    # The converters are bound methods of the first connection that asked; they read no
    # more of it than settings shared by every connection of the database (the time zone).
    converters = []
    for field in fields:
        column = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        converters.append([(converter, column) for converter in found])
    return sql, converters, [field.attname for field in fields]


def read_one(model: type[models.Model], **equal):
    """The one ``model`` instance whose columns equal ``equal`` (None: IS NULL), or None."""
    connection = _db()
    shape, params = _condition(equal)
    sql, converters, attnames = _select(connection.vendor, model, shape)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    values = []
    for value, column_converters in zip(row, converters):
        for converter, column in column_converters:
            value = converter(value, column, connection)
        values.append(value)
    return model.from_db(connection.alias, attnames, values)


def _owned_by(owner: Owner) -> dict | None:
    """The columns that say a game is ``owner``'s; None when they can own nothing."""
    if owner.user_id is not None:
        return {"owner_id": owner.user_id}
    if owner.guest_token:
        return {"owner_id": None, "guest_token": owner.guest_token}
    return None


def game_for_action(owner: Owner, game_id: int) -> Game | None:
    """One of ``owner``'s games as it is now (not locked), or None when ``owner`` has no
    such game."""
    owned = _owned_by(owner)
    return None if owned is None else read_one(Game, id=game_id, **owned)


@cache
def _update(vendor: str, shape: tuple) -> tuple[str, list]:
    quote = _db().ops.quote_name
    fields = [Game._meta.get_field(name) for name in CHANGED_BY_ACTION]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    return f"UPDATE {quote(Game._meta.db_table)} SET {assignments} WHERE {_where(vendor, shape)}", fields


@cache
def _insert(vendor: str, shape: tuple) -> tuple[str, list]:
    """The INSERT of the action; on PostgreSQL, one statement with the UPDATE before it."""
    quote = _db().ops.quote_name
    fields = [Action._meta.get_field(name.removesuffix("_id")) for name in ACTION_COLUMNS]
    columns = ", ".join(quote(field.column) for field in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    table = quote(Action._meta.db_table)
    if vendor == "postgresql":  # the log row is written only if the UPDATE found the row
        update, _fields = _update(vendor, shape)
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
    owned = _owned_by(owner)
    if owned is None:
        return False
    connection = _db()
    shape, where_params = _condition({"id": game.pk, **owned, "version": was_version})
    update_sql, update_fields = _update(connection.vendor, shape)
    insert_sql, insert_fields = _insert(connection.vendor, shape)
    # prepared=True: the values are already the fields' Python types (set by game_act), so
    # only the database's own adaptation (of times, on SQLite) is left to do.
    row = [field.get_db_prep_value(getattr(game, field.attname), connection, prepared=True)
           for field in update_fields] + where_params
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
