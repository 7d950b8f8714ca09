import sys

from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from addiction_site import metrics
        from games import checks, receivers, registry, solver, tasks  # noqa: F401  (receivers: a game's end asks for its analysis)
        from games.models import Analysis, StretchSearch
        from games.selectors import games_data, oldest_queued_seconds, pending_work

        registry.add_exporter("games", games_data)
        metrics.SEARCH_CORE.labels(solver.CORE).set(1)  # which search core runs (games/solver.py)
        registry.add_chore("analyses asked for again", tasks.analyses_ask_again)
        metrics.count_pending("analysis", lambda: pending_work(Analysis), lambda: oldest_queued_seconds(Analysis))
        metrics.count_pending(
            "search", lambda: pending_work(StretchSearch), lambda: oldest_queued_seconds(StretchSearch)
        )
        if settings.ADDICTION_WORKER_METRICS_BIND and "db_worker" in sys.argv:
            metrics.serve_worker_metrics(settings.ADDICTION_WORKER_METRICS_BIND)
