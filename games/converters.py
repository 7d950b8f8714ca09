"""The URL converter of a game's actions: /game/<id>/<action>/ names one of these."""

from games import engine

ACTIONS = (*(kind.value for kind in engine.ActionKind), "hint")


class ActionConverter:
    regex = "|".join(ACTIONS)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
