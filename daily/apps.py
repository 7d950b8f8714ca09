from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DailyConfig(AppConfig):
    name = "daily"
    verbose_name = _("Daily deal")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from addiction_site import metrics
        from daily import panels, services, tasks
        from daily.models import SolverDaily
        from games import registry
        from games.selectors import oldest_queued_seconds, pending_work

        metrics.count_pending(
            "solver_daily", lambda: pending_work(SolverDaily), lambda: oldest_queued_seconds(SolverDaily)
        )
        registry.add_chore("daily seeds made ahead", services.seeds_made_ahead)
        registry.add_seed_check(services.seed_check)
        registry.add_chore("solver's daily games asked for", tasks.solver_dailies_ask)
        panels.register()
