from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecordsConfig(AppConfig):
    name = "records"
    verbose_name = _("Records")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import registry
        from records import panels, receivers, selectors  # noqa: F401  (receivers: a ranked win enters the boards)

        registry.add_shown_to_others(selectors.stands_on_a_board)
        registry.add_exporter("board_entries", selectors.board_entries_data)
        registry.add_near_top(selectors.stands_near_top)
        registry.add_player_facts(selectors.record_facts)
        panels.register()
