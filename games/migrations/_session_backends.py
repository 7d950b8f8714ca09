"""What migrations 0003 and 0004 share: renaming the backend that signed-in sessions name."""


def rename_backend(apps, before: str, after: str) -> None:
    """Make every stored session signed in through ``before`` name ``after`` instead."""
    from django.contrib.sessions.backends.db import SessionStore  # only its encoding is used

    codec = SessionStore()
    for session in apps.get_model("sessions", "Session").objects.iterator():
        data = codec.decode(session.session_data)
        if data.get("_auth_user_backend") == before:
            data["_auth_user_backend"] = after
            session.session_data = codec.encode(data)
            session.save(update_fields=["session_data"])
