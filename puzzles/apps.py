"""Puzzles from real games (issue 47, docs/RULES.md "Puzzles"): positions where a win without
another shuffle exists and a choice matters, each with its winning line and a Glicko-2 rating;
players' attempts and ratings, the day's puzzle, and the supply (fresh deals by a command,
finished games by the worker)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    name = "puzzles"
    verbose_name = _("Puzzles")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import registry
        from puzzles import panels, receivers, services, tasks  # noqa: F401  (receivers: signing up keeps a guest's puzzles)

        registry.add_chore("games read for puzzles", tasks.puzzles_mine_ask)
        registry.add_chore("first puzzles missing", tasks.puzzles_first_ask)
        registry.add_chore("day's puzzles left unfinished, ended", services.puzzles_left_unfinished)
        panels.register()
