"""Django's ModelBackend, with the user of a signed-in request read by one plain SELECT.

Every request of a signed-in player loads their user (``django.contrib.auth``'s
middleware calls ``get_user``), and the ORM spent about 0.15 ms building that same query
each time.  games/game_rows.py writes it once.  Passwords, permissions and everything
else are Django's own.  Listed in AUTHENTICATION_BACKENDS after django-axes.
"""

from __future__ import annotations

from django.contrib.auth import backends, get_user_model

from games.game_rows import read_one


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        model = get_user_model()
        user = read_one(model, **{model._meta.pk.column: user_id})
        return user if user is not None and self.user_can_authenticate(user) else None
