"""Django's database sessions, read with one plain SELECT instead of an ORM query.

Every request of a signed-in player reads their session (guests have none: their token
is a cookie of its own), and the ORM spent about 0.15 ms building the same query each
time, most of a move's session cost.  The signed data read is also decoded (signature checked, JSON parsed)
once per process and kept, since a player's session rarely changes between two clicks.
Saving, creating and deleting sessions stay Django's own.
Set by SESSION_ENGINE = "games.sessions" in the settings.
"""

from __future__ import annotations

import copy
import threading

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

_SELECT: dict[str, str] = {}  # the statement, by database vendor (their quoting differs)
_DECODED: dict[str, dict] = {}  # session data as stored (signed) -> what it decodes to
_DECODED_MAX = 20_000
_lock = threading.Lock()
_SCALARS = (str, int, float, bool, type(None))


class SessionStore(db.SessionStore):
    def load(self) -> dict:
        connection = connections[router.db_for_read(self.model)]
        sql = _SELECT.get(connection.vendor)
        if sql is None:
            table, key, data, expiry = (connection.ops.quote_name(name) for name in (
                self.model._meta.db_table, "session_key", "session_data", "expire_date"))
            sql = _SELECT[connection.vendor] = f"SELECT {data} FROM {table} WHERE {key} = %s AND {expiry} > %s"
        with connection.cursor() as cursor:
            cursor.execute(sql, [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())])
            row = cursor.fetchone()
        if row is None:  # unknown or expired: forget the key, as Django's own store does
            self._session_key = None
            return {}
        return self.decode(row[0])

    def decode(self, session_data: str) -> dict:
        """Django's decoding, done once per distinct stored text; each caller gets a copy."""
        decoded = _DECODED.get(session_data)
        if decoded is None:
            decoded = super().decode(session_data)
            if decoded:  # data that does not decode is never kept
                with _lock:
                    if len(_DECODED) >= _DECODED_MAX:
                        _DECODED.clear()
                    _DECODED[session_data] = decoded
        if all(isinstance(value, _SCALARS) for value in decoded.values()):
            return dict(decoded)
        return copy.deepcopy(decoded)
