from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RacesConfig(AppConfig):
    name = "races"
    verbose_name = _("Races")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import registry
        from races import panels, receivers, selectors, services  # noqa: F401  (receivers: the last game over closes a live race)

        registry.add_chore("races closed at their time", services.races_close_due)
        registry.add_shown_to_others(selectors.game_of_closed_race)
        registry.add_exporter("races", selectors.races_data)
        registry.add_player_facts(selectors.race_facts)
        panels.register()
